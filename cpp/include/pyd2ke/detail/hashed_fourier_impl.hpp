#pragma once
// Kernels of HashedRandomFourier: the weight w[j, k] of input coordinate j
// and frequency k is derived on the fly from counter_hash(key_j, k), mapped
// to a Cauchy (Laplacian kernel) or Gaussian (RBF kernel) deviate by the
// inverse CDF (a row of them per coordinate), and added into the
// projections s_k. Then cos/sin of the projections. Each ISA gets its own
// namespace (vector code compiled for AVX2 can never be picked on a CPU
// without it); the portable kernels use std:: functions and are the
// definition the vector kernels must match to within a few ulps.

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "../core/config.hpp"
#include "../core/cpu_features.hpp"
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

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpsabi"  // also instantiated on vector types, always inlined
#endif
template <class V>
PYD2KE_ALWAYS_INLINE V inverse_normal_centre(V u) {
    const V q = u - 0.5;
    const V r = q * q;
    const V num = (((((kAcklamA[0] * r + kAcklamA[1]) * r + kAcklamA[2]) * r + kAcklamA[3]) * r + kAcklamA[4]) * r +
                   kAcklamA[5]) *
                  q;
    const V den = ((((kAcklamB[0] * r + kAcklamB[1]) * r + kAcklamB[2]) * r + kAcklamB[3]) * r + kAcklamB[4]) * r + 1.0;
    return num / den;
}
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

inline double inverse_normal(double u) {
    if (u < kAcklamLow || u > 1.0 - kAcklamLow) return inverse_normal_tail(u);
    return inverse_normal_centre(u);
}

// Standard Cauchy deviate tan(pi (u - 1/2)), written as +-cot(pi a) with
// a = 1/2 - |u - 1/2| in (0, 1/2] so that both tails keep full relative precision.
inline double unit_cauchy(double u) {
    const double v = u - 0.5;
    const double a = 0.5 - std::fabs(v);
    const double w = std::cos(kPi * a) / std::sin(kPi * a);
    return v < 0 ? -w : w;
}

template <FourierKernel K>
inline double unit_weight(double u) {
    if constexpr (K == FourierKernel::laplacian)
        return unit_cauchy(u);
    else
        return inverse_normal(u);
}

// s[k] += coef * w[k] for k < half: one coordinate's term of the projections.
inline void add_weights_portable(const double* w, double coef, std::size_t half, double* s) {
    for (std::size_t k = 0; k < half; ++k) s[k] += coef * w[k];
}

// out[k] = scale * cos(p[k]), out[half + k] = scale * sin(p[k]).
template <class T>
inline void cos_sin_portable(const double* p, std::size_t half, double scale, T* out) {
    for (std::size_t k = 0; k < half; ++k) {
        out[k] = static_cast<T>(scale * std::cos(p[k]));
        out[half + k] = static_cast<T>(scale * std::sin(p[k]));
    }
}

#if PYD2KE_X86_DISPATCH
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpsabi"
#endif

// Beyond this the Cody-Waite reduction below loses digits: such lanes (rare
// heavy Cauchy tails) go through std::sin/std::cos.
constexpr double kSinCosReductionLimit = 1e7;

// Vector types spelled out per width: GCC drops a vector_size that depends
// on a class template parameter.
template <std::size_t VecBytes>
struct FourierVecTypes;
#define PYD2KE_FOURIER_VEC_TYPES(bytes)                                  \
    template <>                                                          \
    struct FourierVecTypes<bytes> {                                      \
        typedef double V __attribute__((vector_size(bytes)));            \
        typedef std::int64_t I __attribute__((vector_size(bytes)));      \
        typedef std::uint64_t U __attribute__((vector_size(bytes)));     \
    };
PYD2KE_FOURIER_VEC_TYPES(16)
PYD2KE_FOURIER_VEC_TYPES(32)
PYD2KE_FOURIER_VEC_TYPES(64)
#undef PYD2KE_FOURIER_VEC_TYPES

template <std::size_t VecBytes>
struct FourierVec {
    static constexpr std::size_t lanes = VecBytes / 8;
    using V = typename FourierVecTypes<VecBytes>::V;
    using I = typename FourierVecTypes<VecBytes>::I;
    using U = typename FourierVecTypes<VecBytes>::U;

    // sin and cos of x with |x| <= kSinCosReductionLimit: reduction by pi/2
    // in three parts (Cody-Waite), then minimax polynomials on [-pi/4, pi/4]
    // (Cephes' coefficients) and the quadrant's swap and signs.
    static PYD2KE_ALWAYS_INLINE void sincos(V x, V& s, V& c) {
        const double magic = 6755399441055744.0;  // 1.5 * 2^52: adding it rounds to an integer
        const V y = x * 0.63661977236758134308 + magic;
        const V q = y - magic;
        I qi;
        std::memcpy(&qi, &y, sizeof qi);
        const V r = ((x - q * 1.57079625129699707031) - q * 7.54978941586159635336e-8) - q * 5.39030285815811905290e-15;
        const V z = r * r;
        const V ps = ((((1.58962301576546568060e-10 * z - 2.50507477628578072866e-8) * z + 2.75573136213857245213e-6) * z -
                       1.98412698295895385996e-4) *
                          z +
                      8.33333333332211858878e-3) *
                         z -
                     1.66666666666666307295e-1;
        const V pc = ((((-1.13585365213876817300e-11 * z + 2.08757008419747316778e-9) * z - 2.75573141792967388112e-7) * z +
                       2.48015872888517045348e-5) *
                          z -
                      1.38888888888730564116e-3) *
                         z +
                     4.16666666666665929218e-2;
        const V sr = r + r * z * ps;
        const V cr = (1.0 - 0.5 * z) + z * z * pc;
        const I swap = (qi & 1) != 0;
        const V s0 = swap ? cr : sr;
        const V c0 = swap ? sr : cr;
        s = ((qi & 2) != 0) ? -s0 : s0;
        c = (((qi + 1) & 2) != 0) ? -c0 : c0;
    }

    static PYD2KE_ALWAYS_INLINE bool any_large(V x) {
        const I big = (x > kSinCosReductionLimit) | (x < -kSinCosReductionLimit);
        bool any = false;
        for (std::size_t l = 0; l < lanes; ++l) any |= big[l] != 0;
        return any;
    }

    static PYD2KE_ALWAYS_INLINE V load(const double* p) {
        V v;
        std::memcpy(&v, p, sizeof v);
        return v;
    }
    static PYD2KE_ALWAYS_INLINE void store(double* p, V v) { std::memcpy(p, &v, sizeof v); }

    // Uniform (0, 1) deviates of output indices k .. k + lanes - 1.
    static PYD2KE_ALWAYS_INLINE V uniforms(std::uint64_t key, std::size_t k) {
        U x;
        for (std::size_t l = 0; l < lanes; ++l) x[l] = key + (k + l + 1) * kOutputStep;
        x ^= x >> 30;
        x *= 0xbf58476d1ce4e5b9ULL;
        x ^= x >> 27;
        x *= 0x94d049bb133111ebULL;
        x ^= x >> 31;
        // The top 52 bits as the mantissa of 2^52 + m: an exact integer-to-double conversion without AVX-512DQ.
        const U m = (x >> 12) | 0x4330000000000000ULL;
        V f;
        std::memcpy(&f, &m, sizeof f);
        return ((f - 4503599627370496.0) + 0.5) * 0x1p-52;
    }

    template <FourierKernel K>
    static PYD2KE_ALWAYS_INLINE V weights(V u) {
        if constexpr (K == FourierKernel::laplacian) {
            const V v = u - 0.5;
            const I neg = v < 0.0;
            const V a = 0.5 - (neg ? -v : v);
            V s, c;
            sincos(a * kPi, s, c);
            const V w = c / s;
            return neg ? -w : w;
        } else {
            V w = inverse_normal_centre(u);
            const I tail = (u < kAcklamLow) | (u > 1.0 - kAcklamLow);
            for (std::size_t l = 0; l < lanes; ++l)
                if (tail[l]) w[l] = inverse_normal_tail(u[l]);
            return w;
        }
    }

    // s[k] += coef * w[k]: one coordinate's term of the projections (half a
    // multiple of lanes: callers pad their buffers).
    static PYD2KE_ALWAYS_INLINE void add_weights(const double* w, double coef, std::size_t half, double* s) {
        for (std::size_t k = 0; k < half; k += lanes) store(s + k, load(s + k) + coef * load(w + k));
    }

    template <FourierKernel K>
    static PYD2KE_ALWAYS_INLINE void weight_row(std::uint64_t key, double scale, std::size_t half, double* w) {
        std::size_t k = 0;
        for (; k + lanes <= half; k += lanes) store(w + k, scale * weights<K>(uniforms(key, k)));
        if (k < half) {
            double tmp[lanes];
            store(tmp, scale * weights<K>(uniforms(key, k)));
            for (std::size_t l = 0; k + l < half; ++l) w[k + l] = tmp[l];
        }
    }

    template <class T>
    static PYD2KE_ALWAYS_INLINE void cos_sin(const double* p, std::size_t half, double scale, T* out) {
        std::size_t k = 0;
        double sb[lanes], cb[lanes];
        if constexpr (std::is_same_v<T, double>) {
            // Whole vectors straight to the output; lanes with huge arguments are redone below.
            for (; k + lanes <= half; k += lanes) {
                const V x = load(p + k);
                if (any_large(x)) break;
                V s, c;
                sincos(x, s, c);
                store(out + k, c * scale);
                store(out + half + k, s * scale);
            }
        }
        for (; k < half; k += lanes) {
            const std::size_t n = half - k < lanes ? half - k : lanes;
            V x{};
            if (n == lanes)
                x = load(p + k);
            else
                for (std::size_t l = 0; l < n; ++l) x[l] = p[k + l];
            V s, c;
            sincos(x, s, c);
            s *= scale;
            c *= scale;
            store(sb, s);
            store(cb, c);
            if (any_large(x))
                for (std::size_t l = 0; l < n; ++l) {
                    sb[l] = scale * std::sin(x[l]);
                    cb[l] = scale * std::cos(x[l]);
                }
            for (std::size_t l = 0; l < n; ++l) {
                out[k + l] = static_cast<T>(cb[l]);
                out[half + k + l] = static_cast<T>(sb[l]);
            }
        }
    }
};

#define PYD2KE_DEFINE_FOURIER_KERNELS(target_attribute, vec_bytes)                                                  \
    constexpr std::size_t fourier_lanes = vec_bytes / 8;                                                           \
    target_attribute inline void add_weights(const double* w, double coef, std::size_t half, double* s) {         \
        FourierVec<vec_bytes>::add_weights(w, coef, half, s);                                                      \
    }                                                                                                              \
    template <FourierKernel K>                                                                                     \
    target_attribute inline void hashed_weight_row(std::uint64_t key, double scale, std::size_t half, double* w) { \
        FourierVec<vec_bytes>::weight_row<K>(key, scale, half, w);                                                 \
    }                                                                                                              \
    template <class T>                                                                                             \
    target_attribute inline void cos_sin(const double* p, std::size_t half, double scale, T* out) {               \
        FourierVec<vec_bytes>::cos_sin<T>(p, half, scale, out);                                                    \
    }

namespace simd_sse2 {
PYD2KE_DEFINE_FOURIER_KERNELS(PYD2KE_TARGET("sse2"), 16)
}
namespace simd_avx2 {
PYD2KE_DEFINE_FOURIER_KERNELS(PYD2KE_TARGET("avx2,fma"), 32)
}
namespace simd_avx512 {
PYD2KE_DEFINE_FOURIER_KERNELS(PYD2KE_TARGET("avx512f,avx512bw,fma"), 64)
}
#undef PYD2KE_DEFINE_FOURIER_KERNELS
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif
#endif

// The kernels of one SIMD level; `lanes` is the multiple the accumulation
// buffer must be padded to.
template <FourierKernel K, class T>
struct FourierKernels {
    void (*add_weights)(const double*, double, std::size_t, double*);
    void (*weight_row)(std::uint64_t, double, std::size_t, double*);
    void (*cos_sin)(const double*, std::size_t, double, T*);
    std::size_t lanes;
};

template <FourierKernel K>
inline void portable_weight_row(std::uint64_t key, double scale, std::size_t half, double* w) {
    for (std::size_t k = 0; k < half; ++k) w[k] = scale * unit_weight<K>(open_unit(counter_hash(key, k)));
}

template <FourierKernel K, class T>
inline FourierKernels<K, T> fourier_kernels(SimdLevel level) {
    switch (level) {
#if PYD2KE_X86_DISPATCH
        case SimdLevel::avx512:
            return {simd_avx512::add_weights, simd_avx512::hashed_weight_row<K>, simd_avx512::cos_sin<T>,
                    simd_avx512::fourier_lanes};
        case SimdLevel::avx2:
            return {simd_avx2::add_weights, simd_avx2::hashed_weight_row<K>, simd_avx2::cos_sin<T>,
                    simd_avx2::fourier_lanes};
        case SimdLevel::sse2:
            return {simd_sse2::add_weights, simd_sse2::hashed_weight_row<K>, simd_sse2::cos_sin<T>,
                    simd_sse2::fourier_lanes};
#endif
        default:
            return {add_weights_portable, portable_weight_row<K>, cos_sin_portable<T>, 1};
    }
}

}  // namespace detail
}  // namespace pyd2ke
