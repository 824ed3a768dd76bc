#pragma once
// LevenshteinBatch internals: patterns sorted by length and packed into lane
// groups, and long patterns (> 64 symbols) into word groups, several
// multi-word Myers patterns side by side in 64-bit lanes (one at a time, on
// 300-600 DNA letters, was 1.6x slower than rapidfuzz's cdist per pair).

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

// One word group: up to word_lanes long patterns of at most `words` words.
struct WordGroup {
    std::size_t words = 0;
    std::size_t peq_offset = 0;          // its match masks: [symbol][word][lane] from here on
    std::size_t mask_offset = 0;         // its pattern-bit masks: [word][lane]
    std::vector<std::uint32_t> pattern;  // pattern index of each used lane
};

// Patterns of at most 64 symbols packed into lane groups, with their match
// masks, plus the longer patterns in word groups.
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
        std::vector<std::uint32_t> long_patterns;  // by length, as order
        for (std::uint32_t j : order) {
            const std::vector<std::uint32_t>& p = patterns[j];
            longest_ = std::max(longest_, p.size());
            if (p.empty()) {
                empty_patterns_.push_back(j);
            } else if (p.size() > 64) {
                long_patterns.push_back(j);
            } else {
                add_to_lane_group(j, p, rows);
            }
        }
        for (std::size_t first = 0; first < long_patterns.size(); first += kernels_.word_lanes) {
            const std::size_t last = std::min(long_patterns.size(), first + kernels_.word_lanes);
            add_word_group(patterns, long_patterns.data() + first, last - first, rows);
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
            kernels_.by_log2_lane_bytes[g.log2_lane_bytes](line_bytes(peq_, g.peq_offset),
                                                           line_bytes(masks_, g.mask_offset), ids, n, dist);
            const std::uint32_t* pattern = g.pattern.data();
            for (std::size_t l = 0; l < g.pattern.size(); ++l) emit(pattern[l], dist[l]);
        }
        for (const WordGroup& g : word_groups_) {
            kernels_.words(&word_peq_[g.peq_offset], &word_masks_[g.mask_offset], g.words, ids, n, dist);
            for (std::size_t l = 0; l < g.pattern.size(); ++l) emit(g.pattern[l], dist[l]);
        }
        for (std::uint32_t j : empty_patterns_) emit(j, static_cast<std::uint32_t>(n));
    }

    // out[j] = distance from the text (n symbol ids) to pattern j.
    template <class Out>
    void distances(const std::uint32_t* ids, std::size_t n, Out* out) const {
        for_each_distance(ids, n, [out](std::uint32_t j, std::uint32_t d) { out[j] = static_cast<Out>(d); });
    }

    std::size_t longest_pattern() const { return longest_; }

private:
    // The bytes of the lines from `first` on, as one array: a group's row spans
    // several lines (indexing one line's `bytes` past its 64 was undefined
    // behaviour, which clang's UBSan reported).
    static unsigned char* line_bytes(std::vector<CacheLine>& lines, std::size_t first) {
        return reinterpret_cast<unsigned char*>(lines.data() + first);
    }
    static const unsigned char* line_bytes(const std::vector<CacheLine>& lines, std::size_t first) {
        return reinterpret_cast<const unsigned char*>(lines.data() + first);
    }

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
        unsigned char* peq = line_bytes(peq_, g.peq_offset);
        unsigned char* mask = line_bytes(masks_, g.mask_offset) + lane_offset;
        for (std::size_t i = 0; i < p.size(); ++i) {
            const auto bit = static_cast<unsigned char>(1u << (i % 8));
            peq[p[i] * group_bytes + lane_offset + i / 8] |= bit;
            mask[i / 8] |= bit;
        }
        g.pattern.push_back(j);
    }

    // `count` long patterns (indices, longest last) as one word group.
    void add_word_group(const std::vector<std::vector<std::uint32_t>>& patterns, const std::uint32_t* index,
                        std::size_t count, std::size_t rows) {
        const std::size_t lanes = kernels_.word_lanes;
        WordGroup g;
        g.words = (patterns[index[count - 1]].size() + 63) / 64;
        g.peq_offset = word_peq_.size();
        g.mask_offset = word_masks_.size();
        word_peq_.resize(word_peq_.size() + rows * g.words * lanes, 0);
        word_masks_.resize(word_masks_.size() + g.words * lanes, 0);
        for (std::size_t l = 0; l < count; ++l) {
            const std::vector<std::uint32_t>& p = patterns[index[l]];
            for (std::size_t i = 0; i < p.size(); ++i) {
                const std::uint64_t bit = std::uint64_t{1} << (i % 64);
                word_peq_[g.peq_offset + (p[i] * g.words + i / 64) * lanes + l] |= bit;
                word_masks_[g.mask_offset + (i / 64) * lanes + l] |= bit;
            }
            g.pattern.push_back(index[l]);
        }
        word_groups_.push_back(std::move(g));
    }

    LanesKernels kernels_;
    std::vector<CacheLine> peq_;
    std::vector<CacheLine> masks_;
    std::vector<LaneGroup> groups_;
    std::vector<std::uint64_t> word_peq_;
    std::vector<std::uint64_t> word_masks_;
    std::vector<WordGroup> word_groups_;
    std::vector<std::uint32_t> empty_patterns_;
    std::size_t longest_ = 0;
};

}  // namespace detail
}  // namespace pyd2ke
