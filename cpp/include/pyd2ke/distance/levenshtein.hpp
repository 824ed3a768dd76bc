#pragma once
// Levenshtein (unit-cost edit) distance.
//
//   levenshtein_reference(a, b)  plain O(|a| |b|) dynamic programme (for tests)
//   levenshtein(a, b)            Myers/Hyyro bit-parallel, O(ceil(m/64) n)
//   LevenshteinBatch             many patterns against one text at a time:
//                                short patterns in SIMD lanes, the rest
//                                multi-word Myers; the D2KE workhorse
//
// Strings are TextView (bytes, UCS-2 or UTF-32 code units); symbols compare
// by code point value, so "é" as one code point equals b"\xe9" only if the
// caller passes the same units.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "../core/cpu_features.hpp"
#include "../core/text.hpp"
#include "../detail/levenshtein_batch_impl.hpp"

namespace pyd2ke {

// The textbook dynamic programme, two rows of memory.
inline std::size_t levenshtein_reference(const TextView& a, const TextView& b) {
    const std::vector<std::uint32_t> x = to_code_points(a), y = to_code_points(b);
    std::vector<std::size_t> prev(y.size() + 1), cur(y.size() + 1);
    std::iota(prev.begin(), prev.end(), std::size_t{0});
    for (std::size_t i = 1; i <= x.size(); ++i) {
        cur[0] = i;
        for (std::size_t j = 1; j <= y.size(); ++j)
            cur[j] = std::min({prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (x[i - 1] != y[j - 1] ? 1u : 0u)});
        std::swap(prev, cur);
    }
    return prev[y.size()];
}

enum class MyersVariant { automatic, blocked };

// Bit-parallel distance; the shorter string is the pattern. `variant`
// forces the multi-word path (tests use it to check that path on short strings).
inline std::size_t levenshtein(const TextView& a, const TextView& b,
                               MyersVariant variant = MyersVariant::automatic) {
    const TextView& pattern = a.size <= b.size ? a : b;
    const TextView& text = a.size <= b.size ? b : a;
    if (pattern.size == 0) return text.size;
    detail::SymbolTable symbols;
    std::vector<std::uint32_t> pattern_ids, text_ids;
    visit_text(pattern, [&](auto p, std::size_t n) {
        pattern_ids.resize(n);
        for (std::size_t i = 0; i < n; ++i) pattern_ids[i] = symbols.add(p[i]);
    });
    visit_text(text, [&](auto p, std::size_t n) { symbols.map(p, n, text_ids); });
    const detail::MyersPattern myers(pattern_ids.data(), pattern_ids.size(), symbols.rows());
    return variant == MyersVariant::blocked ? myers.distance_blocked(text_ids.data(), text_ids.size())
                                            : myers.distance(text_ids.data(), text_ids.size());
}

// Iterator-pair overload for any sequences of integral symbols (chars are
// read as unsigned, like TextView's bytes).
template <class It1, class It2, class = std::enable_if_t<!std::is_convertible<It1, TextView>::value>>
std::size_t levenshtein(It1 first1, It1 last1, It2 first2, It2 last2) {
    auto widen = [](auto first, auto last) {
        std::vector<std::uint32_t> out;
        for (; first != last; ++first) {
            using Symbol = std::decay_t<decltype(*first)>;
            out.push_back(static_cast<std::uint32_t>(static_cast<std::make_unsigned_t<Symbol>>(*first)));
        }
        return out;
    };
    const std::vector<std::uint32_t> a = widen(first1, last1), b = widen(first2, last2);
    return levenshtein(TextView(a), TextView(b));
}

// Distances from one text to each of a fixed set of patterns. Build once,
// then call distances() from any number of threads, each with its own Scratch.
class LevenshteinBatch {
public:
    // Per-thread scratch memory (the text mapped to symbol ids).
    struct Scratch {
        std::vector<std::uint32_t> ids;
    };
    static constexpr bool integer_distances = true;

    explicit LevenshteinBatch(const std::vector<TextView>& patterns, SimdLevel level = detect_simd_level())
        : LevenshteinBatch(encode(patterns), require_simd_level(level)) {}

    std::size_t size() const { return n_patterns_; }
    SimdLevel simd_level() const { return level_; }

    // out[j] = levenshtein(text, pattern j), for j < size().
    template <class Out>
    void distances(const TextView& text, Out* out, Scratch& scratch) const {
        visit_text(text, [&](auto p, std::size_t n) { symbols_.map(p, n, scratch.ids); });
        packed_.distances(scratch.ids.data(), scratch.ids.size(), out);
    }

    template <class Out>
    void distances(const TextView& text, Out* out) const {
        Scratch scratch;
        distances(text, out, scratch);
    }

    // Calls emit(j, levenshtein(text, pattern j)) for every j < size(), in an
    // unspecified order.
    template <class Emit>
    void for_each_distance(const TextView& text, Scratch& scratch, Emit&& emit) const {
        visit_text(text, [&](auto p, std::size_t n) { symbols_.map(p, n, scratch.ids); });
        packed_.for_each_distance(scratch.ids.data(), scratch.ids.size(), emit);
    }

    // No distance from `text` to a pattern exceeds this.
    std::size_t distance_bound(const TextView& text) const { return std::max(text.size, packed_.longest_pattern()); }

private:
    // The patterns as symbol ids, and the table that gave the ids.
    struct Encoded {
        detail::SymbolTable symbols;
        std::vector<std::vector<std::uint32_t>> ids;
    };

    static Encoded encode(const std::vector<TextView>& patterns) {
        Encoded e;
        e.ids.resize(patterns.size());
        for (std::size_t j = 0; j < patterns.size(); ++j)
            visit_text(patterns[j], [&](auto p, std::size_t n) {
                e.ids[j].resize(n);
                for (std::size_t i = 0; i < n; ++i) e.ids[j][i] = e.symbols.add(p[i]);
            });
        return e;
    }

    LevenshteinBatch(Encoded encoded, SimdLevel level)
        : n_patterns_(encoded.ids.size()),
          level_(level),
          symbols_(std::move(encoded.symbols)),
          packed_(encoded.ids, symbols_.rows(), detail::simd_table<detail::LanesKernels>(level)) {}

    std::size_t n_patterns_;
    SimdLevel level_;
    detail::SymbolTable symbols_;
    detail::PackedPatterns packed_;
};

}  // namespace pyd2ke
