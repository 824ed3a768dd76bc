#pragma once
// DTW of one long series against many short ones at once: short series j
// lives in lane j of a lane group (four registers of the ISA's width, for
// four independent dependency chains), stored step by step and channel by
// channel with the lanes innermost. The DP walks the long series; per step
// it updates one column of every short series (up to dmax cells), keeping
// the column in memory and the left and diagonal neighbours in registers.
// Short series shorter than dmax read their result at their own length.

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <limits>

#include "../core/config.hpp"
#include "../core/cpu_features.hpp"

#if PYD2KE_X86_DISPATCH
#include <immintrin.h>
#endif

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

template <class T>
PYD2KE_ALWAYS_INLINE T ground_cost_scalar(const T* a, const T* b, std::size_t channels) {
    if (channels == 1) return std::abs(a[0] - b[0]);
    T sum = 0;
    for (std::size_t c = 0; c < channels; ++c) {
        const T d = a[c] - b[c];
        sum += d * d;
    }
    return std::sqrt(sum);
}

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

#if PYD2KE_X86_DISPATCH
// The ISA-specific helpers pass vectors by value between functions that
// are inlined into each other; GCC's notes about the ABI of such calls (and
// its own AVX-512 headers' uninitialised-variable noise) do not apply.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpsabi"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

// Sqrt is the one operation vector extensions lack; each ISA namespace
// passes its own (SqrtOps::apply).
template <class T, std::size_t VecBytes, bool Windowed, class SqrtOps>
PYD2KE_ALWAYS_INLINE void dtw_lanes_vector(const T* w, std::size_t dmax, std::size_t channels, const T* x,
                                           std::size_t n, const T* band, T* col) {
    typedef T V __attribute__((vector_size(VecBytes)));
    constexpr std::size_t k_regs = kDtwRegistersPerGroup;
    constexpr std::size_t vec_lanes = VecBytes / sizeof(T);
    constexpr std::size_t lanes = vec_lanes * k_regs;
    const T inf = std::numeric_limits<T>::infinity();
    const V inf_v = V{} + inf;
    V band_v[k_regs];
    if (Windowed)
        for (std::size_t k = 0; k < k_regs; ++k) std::memcpy(&band_v[k], band + k * vec_lanes, VecBytes);
    for (std::size_t i = 0; i < dmax * k_regs; ++i) std::memcpy(col + i * vec_lanes, &inf_v, VecBytes);
    for (std::size_t t = 0; t < n; ++t) {
        const T* xt = x + t * channels;
        V diag[k_regs], left[k_regs];
        for (std::size_t k = 0; k < k_regs; ++k) {
            diag[k] = t == 0 ? V{} : inf_v;
            left[k] = inf_v;
        }
        for (std::size_t s = 0; s < dmax; ++s) {
            const T* ws = w + s * channels * lanes;
            V cost[k_regs];
            if (channels == 1) {
                for (std::size_t k = 0; k < k_regs; ++k) {
                    V ww;
                    std::memcpy(&ww, ws + k * vec_lanes, VecBytes);
                    const V d = xt[0] - ww;
                    cost[k] = d < 0 ? -d : d;
                }
            } else {
                V sum[k_regs] = {};
                for (std::size_t c = 0; c < channels; ++c) {
                    const T xc = xt[c];
                    for (std::size_t k = 0; k < k_regs; ++k) {
                        V ww;
                        std::memcpy(&ww, ws + c * lanes + k * vec_lanes, VecBytes);
                        const V d = xc - ww;
                        sum[k] += d * d;
                    }
                }
                for (std::size_t k = 0; k < k_regs; ++k) cost[k] = SqrtOps::apply(sum[k]);
            }
            T* col_s = col + s * lanes;
            for (std::size_t k = 0; k < k_regs; ++k) {
                V up;
                std::memcpy(&up, col_s + k * vec_lanes, VecBytes);
                const V a = up < left[k] ? up : left[k];
                V value = cost[k] + (a < diag[k] ? a : diag[k]);
                if (Windowed) {
                    const T offset = t > s ? T(t - s) : T(s - t);
                    value = offset > band_v[k] ? inf_v : value;
                }
                diag[k] = up;
                left[k] = value;
                std::memcpy(col_s + k * vec_lanes, &value, VecBytes);
            }
        }
    }
}

#define PYD2KE_DEFINE_DTW_KERNELS(target_attribute, vec_bytes, sqrt_ps, sqrt_pd, float_type, double_type)      \
    struct SqrtOps {                                                                                          \
        typedef float F __attribute__((vector_size(vec_bytes)));                                              \
        typedef double D __attribute__((vector_size(vec_bytes)));                                             \
        target_attribute static inline F apply(F v) { return (F)sqrt_ps((float_type)v); }       \
        target_attribute static inline D apply(D v) { return (D)sqrt_pd((double_type)v); }      \
    };                                                                                                        \
    template <class T, bool Windowed>                                                                         \
    target_attribute inline void dtw_lanes(const T* w, std::size_t dmax, std::size_t channels, const T* x,    \
                                           std::size_t n, const T* band, T* col) {                           \
        dtw_lanes_vector<T, vec_bytes, Windowed, SqrtOps>(w, dmax, channels, x, n, band, col);                \
    }

namespace simd_sse2 {
PYD2KE_DEFINE_DTW_KERNELS(PYD2KE_TARGET("sse2"), 16, _mm_sqrt_ps, _mm_sqrt_pd, __m128, __m128d)
}
namespace simd_avx2 {
PYD2KE_DEFINE_DTW_KERNELS(PYD2KE_TARGET("avx2,fma"), 32, _mm256_sqrt_ps, _mm256_sqrt_pd, __m256, __m256d)
}
namespace simd_avx512 {
PYD2KE_DEFINE_DTW_KERNELS(PYD2KE_TARGET("avx512f,avx512bw,fma"), 64, _mm512_sqrt_ps, _mm512_sqrt_pd, __m512,
                          __m512d)
}
#undef PYD2KE_DEFINE_DTW_KERNELS
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
#endif

// Kernels without and with a window, and the width of their lane groups.
template <class T>
struct DtwLanesKernels {
    DtwLanesKernel<T> plain;
    DtwLanesKernel<T> windowed;
    std::size_t group_bytes;
};

template <class T>
inline DtwLanesKernels<T> dtw_lanes_kernels(SimdLevel level) {
    switch (level) {
#if PYD2KE_X86_DISPATCH
        case SimdLevel::avx512:
            return {simd_avx512::dtw_lanes<T, false>, simd_avx512::dtw_lanes<T, true>, 64 * kDtwRegistersPerGroup};
        case SimdLevel::avx2:
            return {simd_avx2::dtw_lanes<T, false>, simd_avx2::dtw_lanes<T, true>, 32 * kDtwRegistersPerGroup};
        case SimdLevel::sse2:
            return {simd_sse2::dtw_lanes<T, false>, simd_sse2::dtw_lanes<T, true>, 16 * kDtwRegistersPerGroup};
#endif
        default:
            return {dtw_lanes_portable<T, false>, dtw_lanes_portable<T, true>, kDtwPortableGroupBytes};
    }
}

}  // namespace detail
}  // namespace pyd2ke
