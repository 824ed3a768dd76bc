#pragma once
// Many short patterns against one text at once: pattern j lives in lane j of
// a lane group, with 8-, 16-, 32- or 64-bit lanes for patterns of at most 8,
// 16, 32 or 64 symbols. Every lane runs the one-word Myers/Hyyrö step;
// additions and shifts stay inside a lane, so lanes never interact.
//
// The kernel is written once with GCC/Clang vector extensions
// (levenshtein_lanes_simd.inl) and compiled per instruction set by
// core/simd_dispatch.hpp. A lane group is four registers of the
// ISA's width: one Myers step is a chain of about a dozen dependent
// operations, and four independent chains keep the vector units busy instead
// of waiting on that latency. No lane holds a running score, so narrow lanes
// cannot overflow: the distance is read from the final delta vectors,
// n + popcount(Pv) - popcount(Mv) over the pattern's bits (see
// levenshtein_myers_impl.hpp).

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "../core/config.hpp"
#include "../core/cpu_features.hpp"
#include "../core/simd_dispatch.hpp"

namespace pyd2ke {
namespace detail {

constexpr std::size_t kRegistersPerGroup = 4;
constexpr std::size_t kPortableGroupBytes = 64;
constexpr std::size_t kMaxGroupBytes = 256;

// Runs the Myers step over a text (n symbol ids) for one lane group and
// writes the distance of every lane to dist (group_bytes / lane_bytes
// values). `peq` holds one group-wide row of match masks per symbol id;
// `masks` one group-wide row with the low length(pattern) bits of each lane
// set (zero for unused lanes).
using LanesKernel = void (*)(const unsigned char* peq, const unsigned char* masks, const std::uint32_t* ids,
                             std::size_t n, std::uint32_t* dist);

// Bit count without the popcnt instruction (the portable kernel).
inline unsigned popcount_portable(std::uint64_t x) {
    x = x - ((x >> 1) & 0x5555555555555555ull);
    x = (x & 0x3333333333333333ull) + ((x >> 2) & 0x3333333333333333ull);
    x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0full;
    return static_cast<unsigned>((x * 0x0101010101010101ull) >> 56);
}

template <class Lane, std::size_t GroupBytes>
inline void lane_distances(const Lane* pv, const Lane* mv, const unsigned char* masks, std::size_t n,
                           std::uint32_t* dist) {
    constexpr std::size_t lanes = GroupBytes / sizeof(Lane);
    Lane mask[lanes];
    std::memcpy(mask, masks, GroupBytes);
    for (std::size_t l = 0; l < lanes; ++l) {
        const std::uint64_t p = static_cast<std::uint64_t>(pv[l] & mask[l]);
        const std::uint64_t m = static_cast<std::uint64_t>(mv[l] & mask[l]);
        dist[l] = static_cast<std::uint32_t>(n + popcount_portable(p) - popcount_portable(m));
    }
}

// The reference lane kernel: plain C++ on arrays, the textbook formulation
// (the SIMD kernels use an equivalent one with fewer operations, so the two
// check each other).
template <class Lane>
inline void myers_lanes_portable(const unsigned char* peq, const unsigned char* masks, const std::uint32_t* ids,
                                 std::size_t n, std::uint32_t* dist) {
    constexpr std::size_t group_bytes = kPortableGroupBytes;
    constexpr std::size_t lanes = group_bytes / sizeof(Lane);
    Lane pv[lanes], mv[lanes], eq[lanes];
    for (std::size_t l = 0; l < lanes; ++l) {
        pv[l] = static_cast<Lane>(~Lane{0});
        mv[l] = 0;
    }
    for (std::size_t t = 0; t < n; ++t) {
        std::memcpy(eq, peq + static_cast<std::size_t>(ids[t]) * group_bytes, group_bytes);
        for (std::size_t l = 0; l < lanes; ++l) {
            const Lane x = static_cast<Lane>(eq[l] | mv[l]);
            const Lane d0 = static_cast<Lane>(static_cast<Lane>(static_cast<Lane>((x & pv[l]) + pv[l]) ^ pv[l]) | x);
            const Lane hp = static_cast<Lane>(static_cast<Lane>(static_cast<Lane>(mv[l] | ~(d0 | pv[l])) << 1) | 1);
            const Lane hn = static_cast<Lane>(static_cast<Lane>(pv[l] & d0) << 1);
            pv[l] = static_cast<Lane>(hn | ~(d0 | hp));
            mv[l] = static_cast<Lane>(hp & d0);
        }
    }
    lane_distances<Lane, group_bytes>(pv, mv, masks, n, dist);
}

// Patterns longer than 64 symbols, several at once: pattern l of a word
// group lives in lane l (64 bits) of `words` words, the multi-word Myers
// step of levenshtein_myers_impl.hpp in every lane. `peq` holds, per symbol
// id, words rows of lanes masks ([symbol][word][lane]); `masks` per word
// and lane the bits of the pattern in that word (all ones below its last
// word, its low bits in it, zero above and in unused lanes). Unused words of
// a shorter pattern have no match bits: the deltas they compute never flow
// down into the pattern's own words, only up.
using WordsKernel = void (*)(const std::uint64_t* peq, const std::uint64_t* masks, std::size_t words,
                             const std::uint32_t* ids, std::size_t n, std::uint32_t* dist);

// The Pv and Mv words of a word group's lanes ([word][lane] each, Pv first):
// on the stack up to kStackWords words (patterns of 2048 symbols), on the
// heap above. A vector per call was an allocation per text and group.
template <std::size_t Lanes>
class WordLaneState {
public:
    explicit WordLaneState(std::size_t words) {
        if (words > kStackWords) heap_.resize(2 * words * Lanes);
    }
    std::uint64_t* data() { return heap_.empty() ? stack_ : heap_.data(); }

private:
    static constexpr std::size_t kStackWords = 32;
    alignas(64) std::uint64_t stack_[2 * kStackWords * Lanes];
    std::vector<std::uint64_t> heap_;
};

template <std::size_t Lanes>
inline void word_lane_distances(const std::uint64_t* pv, const std::uint64_t* mv, const std::uint64_t* masks,
                                std::size_t words, std::size_t n, std::uint32_t* dist) {
    for (std::size_t l = 0; l < Lanes; ++l) {
        long long d = static_cast<long long>(n);
        for (std::size_t w = 0; w < words; ++w) {
            const std::uint64_t mask = masks[w * Lanes + l];
            d += static_cast<long long>(popcount_portable(pv[w * Lanes + l] & mask)) -
                 static_cast<long long>(popcount_portable(mv[w * Lanes + l] & mask));
        }
        dist[l] = static_cast<std::uint32_t>(d);
    }
}

// The reference word-group kernel: plain C++, kPortableWordLanes lanes.
constexpr std::size_t kPortableWordLanes = 4;

inline void myers_words_portable(const std::uint64_t* peq, const std::uint64_t* masks, std::size_t words,
                                 const std::uint32_t* ids, std::size_t n, std::uint32_t* dist) {
    constexpr std::size_t lanes = kPortableWordLanes;
    WordLaneState<lanes> state(words);
    std::uint64_t* pv = state.data();
    std::uint64_t* mv = pv + words * lanes;
    std::fill(pv, pv + words * lanes, ~std::uint64_t{0});
    std::fill(mv, mv + words * lanes, std::uint64_t{0});
    for (std::size_t t = 0; t < n; ++t) {
        const std::uint64_t* row = peq + static_cast<std::size_t>(ids[t]) * words * lanes;
        for (std::size_t l = 0; l < lanes; ++l) {
            int h_in = 1;  // row 0 of the DP grows by one per text symbol
            for (std::size_t w = 0; w < words; ++w) {
                std::uint64_t& p = pv[w * lanes + l];
                std::uint64_t& q = mv[w * lanes + l];
                std::uint64_t eq = row[w * lanes + l];
                const std::uint64_t xv = eq | q;
                if (h_in < 0) eq |= 1;
                const std::uint64_t xh = (((eq & p) + p) ^ p) | eq;
                std::uint64_t ph = q | ~(xh | p);
                std::uint64_t mh = p & xh;
                const int h_out = static_cast<int>(ph >> 63) - static_cast<int>(mh >> 63);
                ph = (ph << 1) | (h_in > 0 ? 1u : 0u);
                mh = (mh << 1) | (h_in < 0 ? 1u : 0u);
                p = mh | ~(xv | ph);
                q = ph & xv;
                h_in = h_out;
            }
        }
    }
    word_lane_distances<lanes>(pv, mv, masks, words, n, dist);
}

// Kernels for 1-, 2-, 4- and 8-byte lanes (index = log2 of the lane bytes)
// and the width of their lane groups; the word-group kernel and its lanes.
struct LanesKernels {
    LanesKernel by_log2_lane_bytes[4];
    std::size_t group_bytes;
    WordsKernel words;
    std::size_t word_lanes;
};

}  // namespace detail
}  // namespace pyd2ke

// The kernel tables, one per instruction set: simd_table<LanesKernels>(level).
#define PYD2KE_SIMD_KERNEL_BODY "../detail/levenshtein_lanes_simd.inl"
#include "../core/simd_dispatch.hpp"
