#pragma once
// Many short patterns against one text at once: pattern j lives in lane j of
// a lane group, with 8-, 16-, 32- or 64-bit lanes for patterns of at most 8,
// 16, 32 or 64 symbols. Every lane runs the one-word Myers/Hyyrö step;
// additions and shifts stay inside a lane, so lanes never interact.
//
// The kernel is written once with GCC/Clang vector extensions and compiled
// per instruction set (simd_sse2, simd_avx2, simd_avx512 namespaces, each
// with its own target attribute). A lane group is four registers of the
// ISA's width: one Myers step is a chain of about a dozen dependent
// operations, and four independent chains keep the vector units busy instead
// of waiting on that latency. No lane holds a running score, so narrow lanes
// cannot overflow: the distance is read from the final delta vectors,
// n + popcount(Pv) - popcount(Mv) over the pattern's bits (see
// levenshtein_myers_impl.hpp).

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "../core/config.hpp"
#include "../core/cpu_features.hpp"

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

#if PYD2KE_X86_DISPATCH
// Replaces every lane of a vector by its number of set bits (at most 64, so
// it fits the lane's low byte): bit counts of pairs, nibbles, then bytes,
// then the bytes of a lane added into its low byte. In-out reference: a
// vector passed by value would change the ABI with the target.
template <class V, class Lane>
PYD2KE_ALWAYS_INLINE void lane_popcount(V& x) {
    const auto splat = [](unsigned char byte) {
        std::uint64_t pattern = 0x0101010101010101ull * byte;
        Lane lane;
        std::memcpy(&lane, &pattern, sizeof(Lane));
        return lane;
    };
    x = x - ((x >> 1) & splat(0x55));
    x = (x & splat(0x33)) + ((x >> 2) & splat(0x33));
    x = (x + (x >> 4)) & splat(0x0f);
    for (std::size_t shift = 8; shift < 8 * sizeof(Lane); shift *= 2) x = x + (x >> shift);
    x &= static_cast<Lane>(0xff);
}

// One lane group as kRegistersPerGroup registers of the ISA's native width
// (one vector type wider than the ISA's would make GCC spill it to the
// stack). Always inlined into the per-ISA entry points below, so that each
// copy is compiled with that entry point's instruction set.
template <class Lane, std::size_t VecBytes>
PYD2KE_ALWAYS_INLINE void myers_lanes_vector(const unsigned char* peq, const unsigned char* masks,
                                             const std::uint32_t* ids, std::size_t n, std::uint32_t* dist) {
    typedef Lane V __attribute__((vector_size(VecBytes)));
    constexpr std::size_t k_regs = kRegistersPerGroup;
    constexpr std::size_t group_bytes = VecBytes * k_regs;
    V pv[k_regs], mv[k_regs];
    for (std::size_t k = 0; k < k_regs; ++k) {
        pv[k] = ~V{};
        mv[k] = V{};
    }
    for (std::size_t t = 0; t < n; ++t) {
        const unsigned char* row = peq + static_cast<std::size_t>(ids[t]) * group_bytes;
        for (std::size_t k = 0; k < k_regs; ++k) {
            V eq;
            std::memcpy(&eq, row + k * VecBytes, VecBytes);
            // The Myers step with the horizontal +1 deltas kept complemented
            // (not_hp = ~hp): 13 operations instead of 16, because x86 has
            // and-not but no or-not. Since (~hp << 1) == ~((hp << 1) | 1),
            // the shifted complement also brings in the +1 of DP row 0.
            const V x = eq | mv[k];
            const V d0 = (((x & pv[k]) + pv[k]) ^ pv[k]) | x;
            V not_hp = (d0 | pv[k]) & ~mv[k];
            V hn = pv[k] & d0;
            not_hp = not_hp + not_hp;  // shift left by one (x86 has no 8-bit lane shift)
            hn = hn + hn;
            pv[k] = hn | (~d0 & not_hp);
            mv[k] = d0 & ~not_hp;
        }
    }
    // The distances, n + popcount(Pv) - popcount(Mv) over each pattern's
    // bits, counted in the vectors: a scalar loop over up to 256 lanes
    // would cost more than the whole Myers pass over a short text.
    constexpr std::size_t lanes_per_register = VecBytes / sizeof(Lane);
    alignas(64) Lane plus[group_bytes / sizeof(Lane)];
    alignas(64) Lane minus[group_bytes / sizeof(Lane)];
    for (std::size_t k = 0; k < k_regs; ++k) {
        V mask;
        std::memcpy(&mask, masks + k * VecBytes, VecBytes);
        V p = pv[k] & mask, m = mv[k] & mask;
        lane_popcount<V, Lane>(p);
        lane_popcount<V, Lane>(m);
        std::memcpy(plus + k * lanes_per_register, &p, VecBytes);
        std::memcpy(minus + k * lanes_per_register, &m, VecBytes);
    }
    const auto base = static_cast<std::uint32_t>(n);
    for (std::size_t l = 0; l < group_bytes / sizeof(Lane); ++l)
        dist[l] = base + static_cast<std::uint32_t>(plus[l]) - static_cast<std::uint32_t>(minus[l]);
}

#define PYD2KE_DEFINE_LANE_KERNEL(name, lane, target_attribute, vec_bytes)                                \
    target_attribute inline void name(const unsigned char* peq, const unsigned char* masks,            \
                                      const std::uint32_t* ids, std::size_t n, std::uint32_t* dist) { \
        myers_lanes_vector<lane, vec_bytes>(peq, masks, ids, n, dist);                                \
    }
#define PYD2KE_DEFINE_LANE_KERNELS(target_attribute, vec_bytes)                       \
    PYD2KE_DEFINE_LANE_KERNEL(lanes_u8, std::uint8_t, target_attribute, vec_bytes)   \
    PYD2KE_DEFINE_LANE_KERNEL(lanes_u16, std::uint16_t, target_attribute, vec_bytes) \
    PYD2KE_DEFINE_LANE_KERNEL(lanes_u32, std::uint32_t, target_attribute, vec_bytes) \
    PYD2KE_DEFINE_LANE_KERNEL(lanes_u64, std::uint64_t, target_attribute, vec_bytes)

namespace simd_sse2 {
PYD2KE_DEFINE_LANE_KERNELS(PYD2KE_TARGET("sse2"), 16)
}
namespace simd_avx2 {
PYD2KE_DEFINE_LANE_KERNELS(PYD2KE_TARGET("avx2"), 32)
}
namespace simd_avx512 {
PYD2KE_DEFINE_LANE_KERNELS(PYD2KE_TARGET("avx512f,avx512bw"), 64)
}
#undef PYD2KE_DEFINE_LANE_KERNELS
#undef PYD2KE_DEFINE_LANE_KERNEL
#endif

// Kernels for 1-, 2-, 4- and 8-byte lanes (index = log2 of the lane bytes)
// and the width of their lane groups.
struct LanesKernels {
    LanesKernel by_log2_lane_bytes[4];
    std::size_t group_bytes;
};

inline LanesKernels lanes_kernels(SimdLevel level) {
    switch (level) {
#if PYD2KE_X86_DISPATCH
        case SimdLevel::avx512:
            return {{simd_avx512::lanes_u8, simd_avx512::lanes_u16, simd_avx512::lanes_u32, simd_avx512::lanes_u64},
                    64 * kRegistersPerGroup};
        case SimdLevel::avx2:
            return {{simd_avx2::lanes_u8, simd_avx2::lanes_u16, simd_avx2::lanes_u32, simd_avx2::lanes_u64},
                    32 * kRegistersPerGroup};
        case SimdLevel::sse2:
            return {{simd_sse2::lanes_u8, simd_sse2::lanes_u16, simd_sse2::lanes_u32, simd_sse2::lanes_u64},
                    16 * kRegistersPerGroup};
#endif
        default:
            return {{myers_lanes_portable<std::uint8_t>, myers_lanes_portable<std::uint16_t>,
                     myers_lanes_portable<std::uint32_t>, myers_lanes_portable<std::uint64_t>},
                    kPortableGroupBytes};
    }
}

}  // namespace detail
}  // namespace pyd2ke
