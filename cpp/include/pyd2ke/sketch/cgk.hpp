#pragma once
// CGK embedding (Chakraborty, Goldenberg & Koucky 2016): a random walk over
// the string that copies S[i] to out[t] and advances i by a random bit
// r_t(S[i]), so that the Hamming distance between two walks approximates the
// edit distance of the strings. The bits come from a counter-based hash of
// (seed, t, symbol): shared by all strings, nothing stored, any length.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <type_traits>
#include <vector>

#include "../core/config.hpp"
#include "../core/parallel.hpp"
#include "../core/text.hpp"
#include "../detail/counter_hash.hpp"

namespace pyd2ke {

// Symbol written once the walk has passed the end of the string: above every
// Unicode code point and byte value, so it is outside every alphabet.
constexpr std::uint32_t kCgkPad = 0xFFFFFFFFu;

// r_t(symbol) in {0, 1}. Forced inline: a call per walk step doubled the
// walk's time when a translation unit's inlining budget ran out.
PYD2KE_ALWAYS_INLINE unsigned cgk_bit(std::uint64_t seed, std::size_t t, std::uint32_t symbol) {
    return static_cast<unsigned>(detail::counter_hash(detail::coordinate_key(seed, t), symbol) >> 63);
}

// out[0 .. out_len) for s[0 .. n). Walks longer than out_len are cut, shorter
// ones padded with kCgkPad.
template <class CharT>
void cgk_embed(const CharT* s, std::size_t n, std::uint64_t seed, std::size_t out_len, std::uint32_t* out) {
    std::size_t i = 0;
    for (std::size_t t = 0; t < out_len; ++t) {
        if (i < n) {
            // Through the unsigned type: a plain char of 0x80 or above would
            // sign-extend (0xFF to the pad symbol) and differ from TextView's bytes.
            const std::uint32_t c = static_cast<std::uint32_t>(static_cast<std::make_unsigned_t<CharT>>(s[i]));
            out[t] = c;
            i += cgk_bit(seed, t, c);
        } else {
            out[t] = kCgkPad;
        }
    }
}

// Every text's walk, concatenated: text i owns out[offsets[i] .. offsets[i+1]).
// fixed_length == 0: 3 n_i symbols each; otherwise fixed_length each.
inline std::vector<std::uint32_t> cgk_embed_batch(const std::vector<TextView>& texts, std::uint64_t seed,
                                                  std::size_t fixed_length, std::vector<std::int64_t>& offsets,
                                                  int n_threads = 1) {
    offsets.assign(texts.size() + 1, 0);
    for (std::size_t i = 0; i < texts.size(); ++i)
        offsets[i + 1] = offsets[i] + static_cast<std::int64_t>(fixed_length ? fixed_length : 3 * texts[i].size);
    std::vector<std::uint32_t> out(static_cast<std::size_t>(offsets.back()));
    parallel_for_blocks(texts.size(), n_threads, 64, [&](std::size_t begin, std::size_t end) {
        for (std::size_t i = begin; i < end; ++i)
            visit_text(texts[i], [&](auto p, std::size_t n) {
                cgk_embed(p, n, seed, static_cast<std::size_t>(offsets[i + 1] - offsets[i]), out.data() + offsets[i]);
            });
    });
    return out;
}

// One-hot slots of walk symbols: the fit alphabet's k symbols take slots
// 0 .. k-1 in sorted order, kCgkPad slot k, any other symbol slot k + 1.
class CgkSlots {
public:
    // alphabet: ascending, distinct, without kCgkPad (std::invalid_argument
    // otherwise).
    explicit CgkSlots(const std::vector<std::uint32_t>& alphabet)
        : k_(static_cast<std::uint32_t>(alphabet.size())), alphabet_(alphabet) {
        for (std::size_t j = 0; j < alphabet.size(); ++j) {
            if (alphabet[j] == kCgkPad) throw std::invalid_argument("CgkSlots: the alphabet holds the pad symbol");
            if (j > 0 && !(alphabet[j - 1] < alphabet[j]))
                throw std::invalid_argument("CgkSlots: the alphabet must be ascending and distinct");
        }
        // A lookup table over the code range of text (Unicode's 0x110000 code
        // points at most: 4.4 MB); wider symbols are found by bisection.
        if (!alphabet.empty() && alphabet.back() < kTableLimit) {
            table_.assign(static_cast<std::size_t>(alphabet.back()) + 1, k_ + 1);
            for (std::uint32_t j = 0; j < k_; ++j) table_[alphabet[j]] = j;
        }
    }
    std::uint32_t width() const { return k_ + 2; }  // slots per step
    std::uint32_t operator()(std::uint32_t symbol) const {
        if (symbol == kCgkPad) return k_;
        if (alphabet_.empty() || alphabet_.back() < kTableLimit)
            return symbol < table_.size() ? table_[symbol] : k_ + 1;
        const auto it = std::lower_bound(alphabet_.begin(), alphabet_.end(), symbol);
        return it != alphabet_.end() && *it == symbol ? static_cast<std::uint32_t>(it - alphabet_.begin()) : k_ + 1;
    }

private:
    static constexpr std::uint32_t kTableLimit = 0x110000;
    std::uint32_t k_;
    std::vector<std::uint32_t> alphabet_;
    std::vector<std::uint32_t> table_;  // symbol -> slot, by a lookup over the alphabet's code range
};

// The one-hot encoding of every text's walk of out_len steps, as CSR column
// indices: text i owns columns[i * out_len .. (i + 1) * out_len), step t's
// column being t * slots.width() + slots(symbol). The walk is not stored;
// each thread writes the columns of its own texts.
template <class Column>
void cgk_onehot_columns(const std::vector<TextView>& texts, std::uint64_t seed, std::size_t out_len,
                        const CgkSlots& slots, Column* columns, int n_threads = 1) {
    parallel_for_blocks(texts.size(), n_threads, 64, [&](std::size_t begin, std::size_t end) {
        std::vector<std::uint32_t> walk(out_len);
        for (std::size_t i = begin; i < end; ++i) {
            visit_text(texts[i], [&](auto p, std::size_t n) { cgk_embed(p, n, seed, out_len, walk.data()); });
            Column* row = columns + i * out_len;
            for (std::size_t t = 0; t < out_len; ++t)
                row[t] = static_cast<Column>(t * slots.width() + slots(walk[t]));
        }
    });
}

}  // namespace pyd2ke
