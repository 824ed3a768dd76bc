// The squared-distance block kernel of one instruction set, compiled once
// per ISA by core/simd_dispatch.hpp (see sqdist_block_impl.hpp). No include
// guard on purpose.

#if PYD2KE_SIMD_VECTOR_BYTES
template <class T, std::size_t VecBytes, std::size_t Rows>
PYD2KE_ALWAYS_INLINE bool sqdist_rows_vector(const T* a, std::size_t lda, const T* a_norms, const T* panels,
                                             std::size_t n_panels, const T* b_norms, std::size_t dim, T* out,
                                             std::size_t ldo) {
    typedef T V __attribute__((vector_size(VecBytes)));
    using M = decltype(V{} < V{});
    constexpr std::size_t lanes = VecBytes / sizeof(T);
    constexpr std::size_t w = 2 * lanes;
    M small{};
    for (std::size_t p = 0; p < n_panels; ++p) {
        const T* panel = panels + p * dim * w;
        V acc[Rows][2] = {};
        for (std::size_t k = 0; k < dim; ++k) {
            V b0, b1;
            std::memcpy(&b0, panel + k * w, VecBytes);
            std::memcpy(&b1, panel + k * w + lanes, VecBytes);
            for (std::size_t r = 0; r < Rows; ++r) {
                const T ar = a[r * lda + k];
                acc[r][0] += ar * b0;
                acc[r][1] += ar * b1;
            }
        }
        V nb[2];
        std::memcpy(&nb[0], b_norms + p * w, VecBytes);
        std::memcpy(&nb[1], b_norms + p * w + lanes, VecBytes);
        for (std::size_t r = 0; r < Rows; ++r)
            for (std::size_t h = 0; h < 2; ++h) {
                const V sum = a_norms[r] + nb[h];
                V v = sum - 2 * acc[r][h];
                v = v < 0 ? V{} : v;
                small |= v < kRefine<T> * sum;
                std::memcpy(out + r * ldo + p * w + h * lanes, &v, VecBytes);
            }
    }
    bool any = false;
    for (std::size_t l = 0; l < lanes; ++l) any |= small[l] != 0;
    return any;
}

template <class T>
inline bool sqdist_rows(const T* a, std::size_t lda, std::size_t rows, const T* a_norms, const T* panels,
                        std::size_t n_panels, const T* b_norms, std::size_t dim, T* out, std::size_t ldo) {
    constexpr std::size_t bytes = Isa::vector_bytes;
    switch (rows) {
        case 1: return sqdist_rows_vector<T, bytes, 1>(a, lda, a_norms, panels, n_panels, b_norms, dim, out, ldo);
        case 2: return sqdist_rows_vector<T, bytes, 2>(a, lda, a_norms, panels, n_panels, b_norms, dim, out, ldo);
        case 3: return sqdist_rows_vector<T, bytes, 3>(a, lda, a_norms, panels, n_panels, b_norms, dim, out, ldo);
        case 4: return sqdist_rows_vector<T, bytes, 4>(a, lda, a_norms, panels, n_panels, b_norms, dim, out, ldo);
        case 5: return sqdist_rows_vector<T, bytes, 5>(a, lda, a_norms, panels, n_panels, b_norms, dim, out, ldo);
        default: return sqdist_rows_vector<T, bytes, 6>(a, lda, a_norms, panels, n_panels, b_norms, dim, out, ldo);
    }
}

// Panels of two vector registers of points.
template <class T>
inline SqdistKernelInfo<T> kernel_table(SimdTableTag<SqdistKernelInfo<T>>, Isa) {
    return {sqdist_rows<T>, 2 * Isa::vector_bytes / sizeof(T)};
}
#else
template <class T>
inline SqdistKernelInfo<T> kernel_table(SimdTableTag<SqdistKernelInfo<T>>, Isa) {
    return {sqdist_rows_portable<T>, kSqdistPortablePanel};
}
#endif
