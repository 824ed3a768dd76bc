#pragma once
// DTW of one long series against many short ones at once: short series j
// lives in lane j of a lane group (four registers of the ISA's width, for
// four independent dependency chains), stored step by step and channel by
// channel with the lanes innermost. The DP walks the long series; per step
// it updates one column of every short series (up to dmax cells), keeping
// the column in memory and the left and diagonal neighbours in registers.
// Short series shorter than dmax read their result at their own length.
// The vector kernels (dtw_lanes_simd.inl) are compiled per instruction set
// by core/simd_dispatch.hpp.

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <limits>

#include "../core/config.hpp"
#include "../core/cpu_features.hpp"
#include "../core/simd_dispatch.hpp"

namespace pyd2ke {
namespace detail {

constexpr std::size_t kDtwRegistersPerGroup = 4;
constexpr std::size_t kDtwPortableGroupBytes = 64;

// One lane group over the long series x (n steps, `channels` values each).
// w: short series, [s][channel][lane]; band: per-lane half-width of the
// Sakoe-Chiba band (ignored unless Windowed); col: dmax * lanes scratch that
// holds the last DP column on return (col[s * lanes + lane] = D[n-1][s]).
template <class T>
using DtwLanesKernel = void (*)(const T* w, std::size_t dmax, std::size_t channels, const T* x, std::size_t n,
                                const T* band, T* col);

// The reference lane kernel: plain C++, one lane at a time.
template <class T, bool Windowed>
inline void dtw_lanes_portable(const T* w, std::size_t dmax, std::size_t channels, const T* x, std::size_t n,
                               const T* band, T* col) {
    constexpr std::size_t lanes = kDtwPortableGroupBytes / sizeof(T);
    const T inf = std::numeric_limits<T>::infinity();
    for (std::size_t l = 0; l < lanes; ++l) {
        for (std::size_t s = 0; s < dmax; ++s) col[s * lanes + l] = inf;
        for (std::size_t t = 0; t < n; ++t) {
            T diag = t == 0 ? T(0) : inf, left = inf;
            for (std::size_t s = 0; s < dmax; ++s) {
                T cost = 0;
                for (std::size_t c = 0; c < channels; ++c) {
                    const T d = x[t * channels + c] - w[(s * channels + c) * lanes + l];
                    cost += d * d;
                }
                cost = channels == 1 ? std::abs(x[t] - w[s * lanes + l]) : std::sqrt(cost);
                const T up = col[s * lanes + l];
                T value = cost + std::min(std::min(up, left), diag);
                if (Windowed) {
                    const T offset = t > s ? T(t - s) : T(s - t);
                    if (offset > band[l]) value = inf;
                }
                diag = up;
                col[s * lanes + l] = value;
                left = value;
            }
        }
    }
}

// Kernels without and with a window, and the width of their lane groups.
template <class T>
struct DtwLanesKernels {
    DtwLanesKernel<T> plain;
    DtwLanesKernel<T> windowed;
    std::size_t group_bytes;
};

}  // namespace detail
}  // namespace pyd2ke

// The kernel tables, one per instruction set: simd_table<DtwLanesKernels<T>>(level).
#define PYD2KE_SIMD_KERNEL_BODY "../detail/dtw_lanes_simd.inl"
#include "../core/simd_dispatch.hpp"
