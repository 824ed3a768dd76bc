#pragma once
// Myers' bit-parallel Levenshtein distance (Myers 1999, in Hyyrö's 2001
// formulation), for one pattern of any length split into 64-bit words.
//
// The state is the column of vertical deltas D[i][j] - D[i-1][j] as two bit
// vectors (Pv: +1, Mv: -1). After the last text symbol the distance is
// D[m][n] = D[0][n] + sum of the deltas = n + popcount(Pv) - popcount(Mv),
// so the loop does not track a running score at all.

#include <cstddef>
#include <cstdint>
#include <vector>

#include "../core/bits.hpp"
#include "symbol_table.hpp"

namespace pyd2ke {
namespace detail {

inline std::uint64_t low_bits_mask(std::size_t bits) {
    return bits >= 64 ? ~std::uint64_t{0} : ((std::uint64_t{1} << bits) - 1);
}

// Match masks of one pattern: row `id` (words() 64-bit words) has bit i set
// where pattern[i] has that symbol id.
class MyersPattern {
public:
    MyersPattern() = default;

    // `pattern_ids` are symbol ids from a table with `rows` rows.
    MyersPattern(const std::uint32_t* pattern_ids, std::size_t m, std::size_t rows)
        : length_(m), words_(m == 0 ? 1 : (m + 63) / 64), peq_(rows * words_, 0) {
        for (std::size_t i = 0; i < m; ++i)
            peq_[pattern_ids[i] * words_ + i / 64] |= std::uint64_t{1} << (i % 64);
    }

    std::size_t length() const { return length_; }
    std::size_t words() const { return words_; }

    // Distance to a text given as symbol ids of the same table.
    std::size_t distance(const std::uint32_t* text_ids, std::size_t n) const {
        if (length_ == 0) return n;
        if (words_ == 1) return distance_one_word(text_ids, n);
        return distance_blocked(text_ids, n);
    }

    // The multi-word path, also for patterns that fit one word (tests use it).
    // The horizontal delta passed from word to word (+1, 0 or -1) is carried
    // as two bits, hp and hn, shifted into the next word without a branch:
    // branching on it (a data-dependent, unpredictable sign) made this loop
    // 2.1x slower on random DNA of 300-600 letters.
    std::size_t distance_blocked(const std::uint32_t* text_ids, std::size_t n) const {
        std::vector<std::uint64_t> pv_words(words_, ~std::uint64_t{0}), mv_words(words_, 0);
        std::uint64_t* pv = pv_words.data();
        std::uint64_t* mv = mv_words.data();
        for (std::size_t t = 0; t < n; ++t) {
            const std::uint64_t* eq_row = &peq_[text_ids[t] * words_];
            std::uint64_t hp = 1, hn = 0;  // row 0 of the DP grows by one per text symbol
            for (std::size_t w = 0; w < words_; ++w) {
                const std::uint64_t p = pv[w], q = mv[w];
                const std::uint64_t xv = eq_row[w] | q;
                const std::uint64_t eq = eq_row[w] | hn;
                const std::uint64_t xh = (((eq & p) + p) ^ p) | eq;
                std::uint64_t ph = q | ~(xh | p);
                std::uint64_t mh = p & xh;
                const std::uint64_t hp_out = ph >> 63, hn_out = mh >> 63;
                ph = (ph << 1) | hp;
                mh = (mh << 1) | hn;
                pv[w] = mh | ~(xv | ph);
                mv[w] = ph & xv;
                hp = hp_out;
                hn = hn_out;
            }
        }
        long long d = static_cast<long long>(n);
        for (std::size_t w = 0; w < words_; ++w) {
            const std::uint64_t mask = (w + 1 == words_) ? low_bits_mask(length_ - 64 * w) : ~std::uint64_t{0};
            d += popcount64(pv[w] & mask) - popcount64(mv[w] & mask);
        }
        return static_cast<std::size_t>(d);
    }

private:
    std::size_t distance_one_word(const std::uint32_t* text_ids, std::size_t n) const {
        std::uint64_t pv = ~std::uint64_t{0}, mv = 0;
        for (std::size_t t = 0; t < n; ++t) {
            const std::uint64_t x = peq_[text_ids[t]] | mv;
            const std::uint64_t d0 = (((x & pv) + pv) ^ pv) | x;
            std::uint64_t hp = mv | ~(d0 | pv);
            std::uint64_t hn = pv & d0;
            hp = (hp << 1) | 1;
            hn <<= 1;
            pv = hn | ~(d0 | hp);
            mv = hp & d0;
        }
        const std::uint64_t mask = low_bits_mask(length_);
        return n + popcount64(pv & mask) - popcount64(mv & mask);
    }

    std::size_t length_ = 0;
    std::size_t words_ = 1;
    std::vector<std::uint64_t> peq_;
};

}  // namespace detail
}  // namespace pyd2ke
