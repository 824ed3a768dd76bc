#pragma once
// LevenshteinBatch internals: patterns sorted by length and packed into lane
// groups, one shared symbol table, and long patterns (> 64 symbols) kept as
// multi-word Myers patterns.

#include <cstddef>
#include <cstdint>
#include <cstring>
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

}  // namespace detail
}  // namespace pyd2ke
