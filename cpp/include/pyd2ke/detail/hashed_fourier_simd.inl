// The hashed Fourier kernels of one instruction set, compiled once per ISA
// by core/simd_dispatch.hpp (see hashed_fourier_impl.hpp). No include guard
// on purpose.

#if PYD2KE_SIMD_VECTOR_BYTES
#include "fourier_rational.inl"

// Beyond this the Cody-Waite reduction below loses digits: such lanes (rare
// heavy Cauchy tails) go through std::sin/std::cos.
constexpr double kSinCosReductionLimit = 1e7;

struct FourierVec {
    static constexpr std::size_t lanes = PYD2KE_SIMD_VECTOR_BYTES / 8;
    typedef double V __attribute__((vector_size(PYD2KE_SIMD_VECTOR_BYTES)));
    typedef std::int64_t I __attribute__((vector_size(PYD2KE_SIMD_VECTOR_BYTES)));
    typedef std::uint64_t U __attribute__((vector_size(PYD2KE_SIMD_VECTOR_BYTES)));

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
            // unit_cauchy of the impl header, lane by lane.
            const V v = u - 0.5;
            const I neg = v < 0.0;
            const V a = 0.5 - (neg ? -v : v);
            const I near_pole = a <= 0.25;
            const V x = (near_pole ? a : 0.5 - a) * kPi;
            V num, den;
            tan_fraction(x, num, den);
            const V w = near_pole ? den / num : num / den;
            return neg ? -w : w;
        } else {
            V w = inverse_normal_centre(u);
            const I tail = (u < kAcklamLow) | (u > 1.0 - kAcklamLow);
            for (std::size_t l = 0; l < lanes; ++l)
                if (tail[l]) w[l] = inverse_normal_tail(u[l]);
            return w;
        }
    }

    // s[k] += coef * w[k]: one coordinate's term of the projections (n a
    // multiple of lanes: callers pad their buffers).
    static PYD2KE_ALWAYS_INLINE void add_weights(const double* w, double coef, std::size_t n, double* s) {
        for (std::size_t k = 0; k < n; k += lanes) store(s + k, load(s + k) + coef * load(w + k));
    }

    // w[k - first] = scale * w_k for first <= k < first + count (first a
    // multiple of lanes).
    template <FourierKernel K>
    static PYD2KE_ALWAYS_INLINE void weight_row(std::uint64_t key, double scale, std::size_t first, std::size_t count,
                                                double* w) {
        std::size_t k = 0;
        for (; k + lanes <= count; k += lanes) store(w + k, scale * weights<K>(uniforms(key, first + k)));
        if (k < count) {
            double tmp[lanes];
            store(tmp, scale * weights<K>(uniforms(key, first + k)));
            for (std::size_t l = 0; k + l < count; ++l) w[k + l] = tmp[l];
        }
    }

    // out_cos[k] = scale * cos(p[k]), out_sin[k] = scale * sin(p[k]) for k < n.
    template <class T>
    static PYD2KE_ALWAYS_INLINE void cos_sin(const double* p, std::size_t n_total, double scale, T* out_cos,
                                             T* out_sin) {
        std::size_t k = 0;
        double sb[lanes], cb[lanes];
        if constexpr (std::is_same_v<T, double>) {
            // Whole vectors straight to the output; lanes with huge arguments are redone below.
            for (; k + lanes <= n_total; k += lanes) {
                const V x = load(p + k);
                if (any_large(x)) break;
                V s, c;
                sincos(x, s, c);
                store(out_cos + k, c * scale);
                store(out_sin + k, s * scale);
            }
        }
        for (; k < n_total; k += lanes) {
            const std::size_t n = n_total - k < lanes ? n_total - k : lanes;
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
                out_cos[k + l] = static_cast<T>(cb[l]);
                out_sin[k + l] = static_cast<T>(sb[l]);
            }
        }
    }
};

inline void add_weights(const double* w, double coef, std::size_t n, double* s) {
    FourierVec::add_weights(w, coef, n, s);
}

template <FourierKernel K>
inline void hashed_weight_row(std::uint64_t key, double scale, std::size_t first, std::size_t count, double* w) {
    FourierVec::weight_row<K>(key, scale, first, count, w);
}

template <class T>
inline void cos_sin(const double* p, std::size_t n, double scale, T* out_cos, T* out_sin) {
    FourierVec::cos_sin<T>(p, n, scale, out_cos, out_sin);
}

template <FourierKernel K>
inline FourierWeightKernels<K> kernel_table(SimdTableTag<FourierWeightKernels<K>>, Isa) {
    return {add_weights, hashed_weight_row<K>, FourierVec::lanes};
}

template <class T>
inline FourierCosSinKernel<T> kernel_table(SimdTableTag<FourierCosSinKernel<T>>, Isa) {
    return {cos_sin<T>};
}
#else
template <FourierKernel K>
inline FourierWeightKernels<K> kernel_table(SimdTableTag<FourierWeightKernels<K>>, Isa) {
    return {add_weights_portable, portable_weight_row<K>, 1};
}

template <class T>
inline FourierCosSinKernel<T> kernel_table(SimdTableTag<FourierCosSinKernel<T>>, Isa) {
    return {cos_sin_portable<T>};
}
#endif
