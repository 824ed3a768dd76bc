// The logarithm and square root of the floored densities for
// density_psi_impl.hpp, one instruction set, compiled once per ISA by
// core/simd_dispatch.hpp. No include guard on purpose.
//
// log as fdlibm computes it (x = 2^k m, m in [sqrt(1/2), sqrt(2)), s = (m - 1) / (m + 1),
// log m = 2 atanh s by its minimax polynomial, below 1 ulp of error), on whole
// vectors; the inputs are floored densities, positive, finite and normal, so
// none of fdlibm's special cases arise. The portable build calls std::log.

#include "simd_double_vec.inl"

#if PYD2KE_SIMD_VECTOR_BYTES
struct PsiVec {
    using V = DoubleVec::V;
    typedef std::int64_t I __attribute__((vector_size(PYD2KE_SIMD_VECTOR_BYTES)));
    typedef std::uint64_t U __attribute__((vector_size(PYD2KE_SIMD_VECTOR_BYTES)));

    // log x for positive normal finite x.
    static PYD2KE_ALWAYS_INLINE V log(V x) {
        U bits;
        std::memcpy(&bits, &x, sizeof bits);
        // The mantissa as m in [1, 2), and the biased exponent as an exact double.
        const U mantissa_bits = (bits & 0x000fffffffffffffULL) | 0x3ff0000000000000ULL;
        const U exponent_bits = (bits >> 52) | 0x4330000000000000ULL;  // 2^52 + biased exponent
        V m, e;
        std::memcpy(&m, &mantissa_bits, sizeof m);
        std::memcpy(&e, &exponent_bits, sizeof e);
        e = e - (4503599627370496.0 + 1023.0);
        const I high = m > 1.41421356237309514547;
        m = high ? m * 0.5 : m;
        e = high ? e + 1.0 : e;
        const V f = m - 1.0;
        const V s = f / (2.0 + f);
        const V z = s * s, w = z * z;
        const V t1 = w * (3.999999999940941908e-01 + w * (2.222219843214978396e-01 + w * 1.531383769920937332e-01));
        const V t2 = z * (6.666666666666735130e-01 +
                          w * (2.857142874366239149e-01 + w * (1.818357216161805012e-01 + w * 1.479819860511658591e-01)));
        const V r = t2 + t1;
        const V hfsq = 0.5 * f * f;
        return e * 6.93147180369123816490e-01 - ((hfsq - (s * (hfsq + r) + e * 1.90821492927058770002e-10)) - f);
    }
};

// log and square root of max(f[k], floor) for k < n.
inline void log_and_root(const double* f, std::size_t n, double floor, double* log_out, double* root_out) {
    constexpr std::size_t lanes = DoubleVec::lanes;
    std::size_t k = 0;
    for (; k + lanes <= n; k += lanes) {
        DoubleVec::V v = DoubleVec::load(f + k);
        v = v > floor ? v : floor;
        DoubleVec::store(log_out + k, PsiVec::log(v));
        for (std::size_t l = 0; l < lanes; ++l) root_out[k + l] = std::sqrt(v[l]);
    }
    for (; k < n; ++k) {
        const double v = std::max(f[k], floor);
        log_out[k] = std::log(v);
        root_out[k] = std::sqrt(v);
    }
}
#else
inline void log_and_root(const double* f, std::size_t n, double floor, double* log_out, double* root_out) {
    for (std::size_t k = 0; k < n; ++k) {
        const double v = std::max(f[k], floor);
        log_out[k] = std::log(v);
        root_out[k] = std::sqrt(v);
    }
}
#endif

inline DensityPsiKernel kernel_table(SimdTableTag<DensityPsiKernel>, Isa) { return {log_and_root}; }
