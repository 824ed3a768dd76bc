#pragma once
// Kernels of HashedRandomFourier: the weight w[j, k] of input coordinate j
// and frequency k is derived on the fly from counter_hash(key_j, k), mapped
// to a Cauchy (Laplacian kernel) or Gaussian (RBF kernel) deviate by the
// inverse CDF (a row of them per coordinate), and added into the
// projections s_k. Then cos/sin of the projections. The vector kernels
// (hashed_fourier_simd.inl) are compiled per instruction set by
// core/simd_dispatch.hpp; the portable kernels use std:: functions and are
// the definition the vector kernels must match to within a few ulps.

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "../core/config.hpp"
#include "../core/cpu_features.hpp"
#include "../core/simd_dispatch.hpp"
#include "counter_hash.hpp"

namespace pyd2ke {

enum class FourierKernel { laplacian = 0, rbf = 1 };

namespace detail {

constexpr double kPi = 3.14159265358979323846;

// Acklam's rational approximation of the inverse normal CDF (relative error
// below 1.2e-9): a rational function in the centre, in sqrt(-2 log q) in the tails.
constexpr double kAcklamA[6] = {-3.969683028665376e+01, 2.209460984245205e+02, -2.759285104469687e+02,
                                1.383577518672690e+02,  -3.066479806614716e+01, 2.506628277459239e+00};
constexpr double kAcklamB[5] = {-5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02,
                                6.680131188771972e+01,  -1.328068155288572e+01};
constexpr double kAcklamC[6] = {-7.784894002430293e-03, -3.223964580411365e-01, -2.400758277161838e+00,
                                -2.549732539343734e+00, 4.374664141464968e+00,  2.938163982698783e+00};
constexpr double kAcklamD[4] = {7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00,
                                3.754408661907416e+00};
constexpr double kAcklamLow = 0.02425;

inline double inverse_normal_tail(double u) {
    // Lower tail for u < kAcklamLow; the upper tail by symmetry.
    const bool upper = u > 0.5;
    const double q = std::sqrt(-2.0 * std::log(upper ? 1.0 - u : u));
    const double x = (((((kAcklamC[0] * q + kAcklamC[1]) * q + kAcklamC[2]) * q + kAcklamC[3]) * q + kAcklamC[4]) * q +
                      kAcklamC[5]) /
                     ((((kAcklamD[0] * q + kAcklamD[1]) * q + kAcklamD[2]) * q + kAcklamD[3]) * q + 1.0);
    return upper ? -x : x;
}

// The rational approximations shared by the scalar code here and the vector
// code of each instruction set (which includes them again in its namespace,
// under its target, so that no vector type crosses a function outside it).
#include "fourier_rational.inl"

inline double inverse_normal(double u) {
    if (u < kAcklamLow || u > 1.0 - kAcklamLow) return inverse_normal_tail(u);
    return inverse_normal_centre(u);
}

// Standard Cauchy deviate tan(pi (u - 1/2)) = -+cot(pi a) with a = 1/2 -
// |u - 1/2| in (0, 1/2], exact in floating point. cot(pi a) is 1/tan(pi a)
// below a = 1/4 and tan(pi (1/2 - a)) above (1/2 - a is exact there): the
// argument of tan stays in [0, pi/4] and is never rounded next to the pole,
// so both tails keep full relative precision (cos(pi a) / sin(pi a) lost
// up to 5e-11 of it near u = 1/2, where pi a rounds next to pi/2).
inline double unit_cauchy(double u) {
    const double v = u - 0.5;
    const double a = 0.5 - std::fabs(v);
    const bool near_pole = a <= 0.25;
    double num, den;
    tan_fraction((near_pole ? a : 0.5 - a) * kPi, num, den);
    const double w = near_pole ? den / num : num / den;
    return v < 0 ? -w : w;
}

template <FourierKernel K>
inline double unit_weight(double u) {
    if constexpr (K == FourierKernel::laplacian)
        return unit_cauchy(u);
    else
        return inverse_normal(u);
}

// s[k] += coef * w[k] for k < n: one coordinate's term of the projections.
inline void add_weights_portable(const double* w, double coef, std::size_t n, double* s) {
    for (std::size_t k = 0; k < n; ++k) s[k] += coef * w[k];
}

// out_cos[k] = scale * cos(p[k]), out_sin[k] = scale * sin(p[k]) for k < n.
template <class T>
inline void cos_sin_portable(const double* p, std::size_t n, double scale, T* out_cos, T* out_sin) {
    for (std::size_t k = 0; k < n; ++k) {
        out_cos[k] = static_cast<T>(scale * std::cos(p[k]));
        out_sin[k] = static_cast<T>(scale * std::sin(p[k]));
    }
}

// The weight kernels of one SIMD level for the kernel K; `lanes` is the
// multiple the accumulation buffer must be padded to.
template <FourierKernel K>
struct FourierWeightKernels {
    void (*add_weights)(const double*, double, std::size_t, double*);
    // w[k - first] = scale * w_k for first <= k < first + count.
    void (*weight_row)(std::uint64_t key, double scale, std::size_t first, std::size_t count, double* w);
    std::size_t lanes;
};

// The cos/sin kernel of one SIMD level, for outputs of type T. A table of
// its own: the features of both kernels are cos and sin of their
// projections, only the weights depend on the kernel.
template <class T>
struct FourierCosSinKernel {
    void (*cos_sin)(const double*, std::size_t, double, T*, T*);
};

template <FourierKernel K>
inline void portable_weight_row(std::uint64_t key, double scale, std::size_t first, std::size_t count, double* w) {
    for (std::size_t k = 0; k < count; ++k) w[k] = scale * unit_weight<K>(open_unit(counter_hash(key, first + k)));
}

}  // namespace detail
}  // namespace pyd2ke

// The kernel tables, one per instruction set: simd_table<FourierWeightKernels<K>>(level)
// and simd_table<FourierCosSinKernel<T>>(level).
#define PYD2KE_SIMD_KERNEL_BODY "../detail/hashed_fourier_simd.inl"
#include "../core/simd_dispatch.hpp"
