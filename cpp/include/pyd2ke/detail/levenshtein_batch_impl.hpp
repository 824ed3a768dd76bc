#pragma once
// LevenshteinBatch internals: patterns sorted by length and packed into lane
// groups, and long patterns (> 64 symbols) kept as multi-word Myers patterns.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <numeric>
#include <vector>

#include "levenshtein_lanes_impl.hpp"
#include "levenshtein_myers_impl.hpp"
#include "symbol_table.hpp"

namespace pyd2ke {
namespace detail {

// 64-byte aligned storage unit of the match-mask table (a group-wide row is
// group_bytes / 64 of them).
struct alignas(64) CacheLine {
    unsigned char bytes[64];
};

// One lane group: up to group_bytes / lane_bytes patterns.
struct LaneGroup {
    int log2_lane_bytes = 0;
    std::size_t peq_offset = 0;          // its match masks: symbol rows from this cache line on
    std::size_t mask_offset = 0;         // its row of pattern-length masks
    std::vector<std::uint32_t> pattern;  // pattern index of each used lane
};

inline int log2_lane_bytes_for(std::size_t length) {
    if (length <= 8) return 0;
    if (length <= 16) return 1;
    if (length <= 32) return 2;
    return 3;
}

// Patterns of at most 64 symbols packed into lane groups, with their match
// masks, plus the longer patterns as multi-word Myers patterns.
class PackedPatterns {
public:
    // `patterns` are symbol ids from a table with `rows` rows.
    PackedPatterns(const std::vector<std::vector<std::uint32_t>>& patterns, std::size_t rows, LanesKernels kernels)
        : kernels_(kernels) {
        // Sorting by length puts patterns that need the same lane width together.
        std::vector<std::uint32_t> order(patterns.size());
        std::iota(order.begin(), order.end(), 0u);
        std::stable_sort(order.begin(), order.end(), [&](std::uint32_t a, std::uint32_t b) {
            return patterns[a].size() < patterns[b].size();
        });
        for (std::uint32_t j : order) {
            const std::vector<std::uint32_t>& p = patterns[j];
            longest_ = std::max(longest_, p.size());
            if (p.empty()) {
                empty_patterns_.push_back(j);
            } else if (p.size() > 64) {
                long_patterns_.emplace_back(p.data(), p.size(), rows);
                long_pattern_index_.push_back(j);
            } else {
                add_to_lane_group(j, p, rows);
            }
        }
    }

    // Calls emit(j, d) once for every pattern j, with d the distance from the
    // text (n symbol ids) to pattern j, in lane order rather than j order:
    // callers that turn distances into something else do it in this one
    // pass instead of a scatter and a second pass.
    template <class Emit>
    void for_each_distance(const std::uint32_t* ids, std::size_t n, Emit&& emit) const {
        std::uint32_t dist[kMaxGroupBytes];
        for (const LaneGroup& g : groups_) {
            kernels_.by_log2_lane_bytes[g.log2_lane_bytes](peq_[g.peq_offset].bytes, masks_[g.mask_offset].bytes,
                                                           ids, n, dist);
            const std::uint32_t* pattern = g.pattern.data();
            for (std::size_t l = 0; l < g.pattern.size(); ++l) emit(pattern[l], dist[l]);
        }
        for (std::size_t k = 0; k < long_patterns_.size(); ++k)
            emit(long_pattern_index_[k], static_cast<std::uint32_t>(long_patterns_[k].distance(ids, n)));
        for (std::uint32_t j : empty_patterns_) emit(j, static_cast<std::uint32_t>(n));
    }

    // out[j] = distance from the text (n symbol ids) to pattern j.
    template <class Out>
    void distances(const std::uint32_t* ids, std::size_t n, Out* out) const {
        for_each_distance(ids, n, [out](std::uint32_t j, std::uint32_t d) { out[j] = static_cast<Out>(d); });
    }

    std::size_t longest_pattern() const { return longest_; }

private:
    void add_to_lane_group(std::uint32_t j, const std::vector<std::uint32_t>& p, std::size_t rows) {
        const std::size_t group_bytes = kernels_.group_bytes;
        const std::size_t lines_per_row = group_bytes / sizeof(CacheLine);
        const int log2_bytes = log2_lane_bytes_for(p.size());
        const std::size_t lanes = group_bytes >> log2_bytes;
        if (groups_.empty() || groups_.back().log2_lane_bytes != log2_bytes || groups_.back().pattern.size() == lanes) {
            LaneGroup g;
            g.log2_lane_bytes = log2_bytes;
            g.peq_offset = peq_.size();
            g.mask_offset = masks_.size();
            groups_.push_back(g);
            peq_.resize(peq_.size() + rows * lines_per_row, CacheLine{});
            masks_.resize(masks_.size() + lines_per_row, CacheLine{});
        }
        LaneGroup& g = groups_.back();
        // Bit i of a lane is bit i % 8 of the lane's byte i / 8 (little-endian
        // lanes, as on every x86 and ARM target).
        const std::size_t lane_offset = g.pattern.size() << log2_bytes;
        unsigned char* mask = masks_[g.mask_offset].bytes + lane_offset;
        for (std::size_t i = 0; i < p.size(); ++i) {
            const auto bit = static_cast<unsigned char>(1u << (i % 8));
            peq_[g.peq_offset].bytes[p[i] * group_bytes + lane_offset + i / 8] |= bit;
            mask[i / 8] |= bit;
        }
        g.pattern.push_back(j);
    }

    LanesKernels kernels_;
    std::vector<CacheLine> peq_;
    std::vector<CacheLine> masks_;
    std::vector<LaneGroup> groups_;
    std::vector<MyersPattern> long_patterns_;
    std::vector<std::uint32_t> long_pattern_index_;
    std::vector<std::uint32_t> empty_patterns_;
    std::size_t longest_ = 0;
};

}  // namespace detail
}  // namespace pyd2ke
