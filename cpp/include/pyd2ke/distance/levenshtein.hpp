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
        : n_patterns_(patterns.size()), level_(level), kernels_(detail::lanes_kernels(level)) {
        if (static_cast<int>(level) < 0 || level > detect_simd_level())
            throw std::invalid_argument("LevenshteinBatch: this CPU cannot run the requested SIMD level");
        std::vector<std::vector<std::uint32_t>> ids(patterns.size());
        for (std::size_t j = 0; j < patterns.size(); ++j)
            visit_text(patterns[j], [&](auto p, std::size_t n) {
                ids[j].resize(n);
                for (std::size_t i = 0; i < n; ++i) ids[j][i] = symbols_.add(p[i]);
            });
        build_lane_groups(ids);
    }

    std::size_t size() const { return n_patterns_; }
    SimdLevel simd_level() const { return level_; }

    // out[j] = levenshtein(text, pattern j), for j < size().
    template <class Out>
    void distances(const TextView& text, Out* out, Scratch& scratch) const {
        visit_text(text, [&](auto p, std::size_t n) { symbols_.map(p, n, scratch.ids); });
        const std::uint32_t* ids = scratch.ids.data();
        const std::size_t n = scratch.ids.size();
        std::uint32_t dist[detail::kMaxGroupBytes];
        for (const detail::LaneGroup& g : groups_) {
            kernels_.by_log2_lane_bytes[g.log2_lane_bytes](peq_[g.peq_offset].bytes, masks_[g.mask_offset].bytes,
                                                           ids, n, dist);
            for (std::size_t l = 0; l < g.pattern.size(); ++l) out[g.pattern[l]] = static_cast<Out>(dist[l]);
        }
        for (std::size_t k = 0; k < long_patterns_.size(); ++k)
            out[long_pattern_index_[k]] = static_cast<Out>(long_patterns_[k].distance(ids, n));
        for (std::uint32_t j : empty_patterns_) out[j] = static_cast<Out>(n);
    }

    template <class Out>
    void distances(const TextView& text, Out* out) const {
        Scratch scratch;
        distances(text, out, scratch);
    }

private:
    void build_lane_groups(const std::vector<std::vector<std::uint32_t>>& ids) {
        // Sorting by length puts patterns that need the same lane width together.
        std::vector<std::uint32_t> order(ids.size());
        std::iota(order.begin(), order.end(), 0u);
        std::stable_sort(order.begin(), order.end(),
                         [&](std::uint32_t a, std::uint32_t b) { return ids[a].size() < ids[b].size(); });
        const std::size_t rows = symbols_.rows();
        const std::size_t group_bytes = kernels_.group_bytes;
        const std::size_t lines_per_row = group_bytes / sizeof(detail::CacheLine);
        for (std::uint32_t j : order) {
            const std::size_t m = ids[j].size();
            if (m == 0) {
                empty_patterns_.push_back(j);
                continue;
            }
            if (m > 64) {
                long_patterns_.emplace_back(ids[j].data(), m, rows);
                long_pattern_index_.push_back(j);
                continue;
            }
            const int log2_bytes = detail::log2_lane_bytes_for(m);
            const std::size_t lanes = group_bytes >> log2_bytes;
            if (groups_.empty() || groups_.back().log2_lane_bytes != log2_bytes ||
                groups_.back().pattern.size() == lanes) {
                detail::LaneGroup g;
                g.log2_lane_bytes = log2_bytes;
                g.peq_offset = peq_.size();
                g.mask_offset = masks_.size();
                groups_.push_back(g);
                peq_.resize(peq_.size() + rows * lines_per_row, detail::CacheLine{});
                masks_.resize(masks_.size() + lines_per_row, detail::CacheLine{});
            }
            detail::LaneGroup& g = groups_.back();
            const std::size_t lane = g.pattern.size();
            const std::size_t lane_bytes = std::size_t{1} << log2_bytes;
            for (std::size_t i = 0; i < m; ++i) {
                // Bit i of lane `lane` (little-endian lanes: byte i / 8 of the lane).
                unsigned char* row = peq_[g.peq_offset].bytes + ids[j][i] * group_bytes;
                row[lane * lane_bytes + i / 8] |= static_cast<unsigned char>(1u << (i % 8));
            }
            unsigned char* mask = masks_[g.mask_offset].bytes + lane * lane_bytes;
            for (std::size_t i = 0; i < m; ++i) mask[i / 8] |= static_cast<unsigned char>(1u << (i % 8));
            g.pattern.push_back(j);
        }
    }

    std::size_t n_patterns_;
    SimdLevel level_;
    detail::LanesKernels kernels_;
    detail::SymbolTable symbols_;
    std::vector<detail::CacheLine> peq_;
    std::vector<detail::CacheLine> masks_;
    std::vector<detail::LaneGroup> groups_;
    std::vector<detail::MyersPattern> long_patterns_;
    std::vector<std::uint32_t> long_pattern_index_;
    std::vector<std::uint32_t> empty_patterns_;
};

}  // namespace pyd2ke
