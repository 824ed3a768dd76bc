// The DTW lane kernels of one instruction set, compiled once per ISA by
// core/simd_dispatch.hpp (see dtw_lanes_impl.hpp). No include guard on
// purpose.

#if PYD2KE_SIMD_VECTOR_BYTES
// Sqrt is the one operation vector extensions lack: the ISA's instruction.
typedef float DtwFloats __attribute__((vector_size(PYD2KE_SIMD_VECTOR_BYTES)));
typedef double DtwDoubles __attribute__((vector_size(PYD2KE_SIMD_VECTOR_BYTES)));
#if PYD2KE_SIMD_VECTOR_BYTES == 16
PYD2KE_ALWAYS_INLINE DtwFloats vector_sqrt(DtwFloats v) { return (DtwFloats)_mm_sqrt_ps((__m128)v); }
PYD2KE_ALWAYS_INLINE DtwDoubles vector_sqrt(DtwDoubles v) { return (DtwDoubles)_mm_sqrt_pd((__m128d)v); }
#elif PYD2KE_SIMD_VECTOR_BYTES == 32
PYD2KE_ALWAYS_INLINE DtwFloats vector_sqrt(DtwFloats v) { return (DtwFloats)_mm256_sqrt_ps((__m256)v); }
PYD2KE_ALWAYS_INLINE DtwDoubles vector_sqrt(DtwDoubles v) { return (DtwDoubles)_mm256_sqrt_pd((__m256d)v); }
#else
PYD2KE_ALWAYS_INLINE DtwFloats vector_sqrt(DtwFloats v) { return (DtwFloats)_mm512_sqrt_ps((__m512)v); }
PYD2KE_ALWAYS_INLINE DtwDoubles vector_sqrt(DtwDoubles v) { return (DtwDoubles)_mm512_sqrt_pd((__m512d)v); }
#endif

template <class T, std::size_t VecBytes, bool Windowed>
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
                for (std::size_t k = 0; k < k_regs; ++k) cost[k] = vector_sqrt(sum[k]);
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

template <class T, bool Windowed>
inline void dtw_lanes(const T* w, std::size_t dmax, std::size_t channels, const T* x, std::size_t n, const T* band,
                      T* col) {
    dtw_lanes_vector<T, Isa::vector_bytes, Windowed>(w, dmax, channels, x, n, band, col);
}

template <class T>
inline DtwLanesKernels<T> kernel_table(SimdTableTag<DtwLanesKernels<T>>, Isa) {
    return {dtw_lanes<T, false>, dtw_lanes<T, true>, Isa::vector_bytes * kDtwRegistersPerGroup};
}
#else
template <class T>
inline DtwLanesKernels<T> kernel_table(SimdTableTag<DtwLanesKernels<T>>, Isa) {
    return {dtw_lanes_portable<T, false>, dtw_lanes_portable<T, true>, kDtwPortableGroupBytes};
}
#endif
