// The axis contractions of density_project_impl.hpp for one instruction
// set, compiled once per ISA by core/simd_dispatch.hpp (a double stands for
// the vector in the portable build). Register blocks of 4 outputs, each
// summed over i in order from 0. No include guard on purpose.

#include "simd_double_vec.inl"

// dst[j * Q + q] = sum_i table[i * m + j] src[i * Q + q] for j < KB and
// one vector of q: the KB sums stay in registers over the whole of i.
template <std::size_t KB>
PYD2KE_ALWAYS_INLINE void contract_vector(const double* src, std::size_t n, std::size_t Q, const double* table,
                                          std::size_t m, double* dst) {
    DoubleVec::V acc[KB] = {};
    for (std::size_t i = 0; i < n; ++i) {
        const DoubleVec::V s = DoubleVec::load(src + i * Q);
        for (std::size_t j = 0; j < KB; ++j) acc[j] += table[i * m + j] * s;
    }
    for (std::size_t j = 0; j < KB; ++j) DoubleVec::store(dst + j * Q, acc[j]);
}

// dst[r * width + k] = sum_i src[r * n + i] padded[i * width + k] for r < PB
// and one vector of k.
template <std::size_t PB>
PYD2KE_ALWAYS_INLINE void contract_last_vector(const double* src, std::size_t n, const double* padded,
                                               std::size_t width, double* dst) {
    DoubleVec::V acc[PB] = {};
    for (std::size_t i = 0; i < n; ++i) {
        const DoubleVec::V t = DoubleVec::load(padded + i * width);
        for (std::size_t r = 0; r < PB; ++r) acc[r] += src[r * n + i] * t;
    }
    for (std::size_t r = 0; r < PB; ++r) DoubleVec::store(dst + r * width, acc[r]);
}

// out[p, k, q] = sum_i table[i, k] in[p, i, q] (Q > 1: the vector runs over q).
inline void contract_axis(const double* in, std::size_t P, std::size_t n, std::size_t Q, const double* table,
                          std::size_t m, double* out) {
    constexpr std::size_t lanes = DoubleVec::lanes;
    for (std::size_t p = 0; p < P; ++p) {
        const double* src = in + p * n * Q;
        double* dst = out + p * m * Q;
        for (std::size_t k = 0; k < m; k += 4) {
            const std::size_t kb = m - k < 4 ? m - k : 4;
            std::size_t q = 0;
            for (; q + lanes <= Q; q += lanes) {
                const double* s = src + q;
                double* d = dst + k * Q + q;
                switch (kb) {
                    case 4: contract_vector<4>(s, n, Q, table + k, m, d); break;
                    case 3: contract_vector<3>(s, n, Q, table + k, m, d); break;
                    case 2: contract_vector<2>(s, n, Q, table + k, m, d); break;
                    default: contract_vector<1>(s, n, Q, table + k, m, d); break;
                }
            }
            for (; q < Q; ++q)
                for (std::size_t j = 0; j < kb; ++j) {
                    double sum = 0.0;
                    for (std::size_t i = 0; i < n; ++i) sum += table[i * m + k + j] * src[i * Q + q];
                    dst[(k + j) * Q + q] = sum;
                }
        }
    }
}

// out[p, k] = sum_i in[p, i] padded[i, k] for k < width (the last axis: the
// vector runs over k; width is a multiple of the lanes, padded with zeros).
inline void contract_last_axis(const double* in, std::size_t P, std::size_t n, const double* padded, std::size_t width,
                               double* out) {
    for (std::size_t p = 0; p < P; p += 4) {
        const std::size_t pb = P - p < 4 ? P - p : 4;
        for (std::size_t k = 0; k < width; k += DoubleVec::lanes) {
            const double* s = in + p * n;
            double* d = out + p * width + k;
            switch (pb) {
                case 4: contract_last_vector<4>(s, n, padded + k, width, d); break;
                case 3: contract_last_vector<3>(s, n, padded + k, width, d); break;
                case 2: contract_last_vector<2>(s, n, padded + k, width, d); break;
                default: contract_last_vector<1>(s, n, padded + k, width, d); break;
            }
        }
    }
}

inline DensityProjectKernel kernel_table(SimdTableTag<DensityProjectKernel>, Isa) {
    return {contract_axis, contract_last_axis, DoubleVec::lanes};
}
