#pragma once
// Space-efficient random Fourier features (Tabei, Yamanishi & Pagh, "Space-
// efficient feature maps for string alignment kernels"), with the weights
// derived from a counter-based hash instead of stored:
//   z(x) = sqrt(2/D) [cos(s_0..s_{D/2-1}), sin(s_0..s_{D/2-1})],
//   s_k = sum_j w[j, k] x_j,
// w[j, k] = tan(pi (u - 1/2)) / beta (Cauchy: Laplacian kernel
// exp(-||x - y||_1 / beta)) or sqrt(2 gamma) Phi^{-1}(u) (Gaussian: RBF kernel
// exp(-gamma ||x - y||^2)), u = u(seed, j, k) uniform in the open interval
// (0, 1). No weight is stored, whatever the input dimension: coordinates may
// be any 64-bit ids (ESP node labels, hashed features). Sparse rows go in
// blocks whose nonzeros are sorted by coordinate, so that a coordinate's
// weights are generated once per block (a few MiB of accumulators, and the
// block's nonzeros).

#include <cstddef>
#include <cstdint>

#include "../core/cpu_features.hpp"
#include "../detail/hashed_fourier_impl.hpp"
#include "../detail/hashed_fourier_map_impl.hpp"

namespace pyd2ke {

class HashedRandomFourier {
public:
    // Sparse rows are transformed in blocks of rows and tiles of components:
    // a tile's accumulators for all rows of a block fit in L2, and a block's
    // nonzeros are sorted at once (unless one row has more).
    static constexpr std::size_t kTileComponents = detail::HashedFourierMap::kTileComponents;
    static constexpr std::size_t kBlockAccumulatorBytes = detail::HashedFourierMap::kBlockAccumulatorBytes;
    static constexpr std::size_t kBlockEntries = detail::HashedFourierMap::kBlockEntries;

    // bandwidth: beta for the Laplacian kernel, gamma for the RBF kernel.
    HashedRandomFourier(FourierKernel kernel, double bandwidth, std::size_t n_components, std::uint64_t seed,
                        SimdLevel level = detect_simd_level())
        : map_(kernel, bandwidth, n_components, seed, level) {}

    std::size_t n_components() const { return map_.n_components(); }
    std::size_t half() const { return map_.half(); }
    FourierKernel kernel() const { return map_.kernel(); }
    std::uint64_t seed() const { return map_.seed(); }

    // The weight w[j, k] (slow; for tests and inspection).
    double weight(std::uint64_t j, std::size_t k) const { return map_.weight(j, k); }

    // W[(j - first) * half + k] = w[j, k] for first <= j < first + count: a
    // block of rows for a dense product done elsewhere (BLAS).
    void weights(std::uint64_t first, std::size_t count, double* W, int n_threads = 1) const {
        map_.weights(first, count, W, n_threads);
    }

    // out (rows x D) from projections P (rows x D/2).
    template <class T>
    bool cos_sin(const double* P, std::size_t rows, T* out, int n_threads = 1) const {
        return map_.cos_sin(P, rows, out, n_threads);
    }

    // Sparse rows: row i holds coordinates ids[indptr[i] .. indptr[i+1]) with
    // values values[...]. Index is any integer type (CSR column indices, ESP
    // labels). out is rows x D, row-major. Rows are processed in blocks of at
    // most block_rows (0: automatic), each coordinate's weights generated once
    // per block; the output is the same bits whatever the blocks and n_threads.
    // Returns whether every feature is finite (projections can overflow on
    // huge values: cos/sin of infinity is NaN).
    template <class Index, class Value, class T>
    bool transform_sparse(const Index* ids, const Value* values, const std::int64_t* indptr, std::size_t rows, T* out,
                          int n_threads = 1, std::size_t block_rows = 0) const {
        return map_.transform_sparse(ids, values, indptr, rows, out, n_threads, block_rows);
    }

    // Dense rows (rows x dim, row-major) by the same hashed accumulation:
    // O(D) memory, rows x dim x D/2 hashes. Python takes the BLAS route
    // through weights() instead.
    template <class X, class T>
    bool transform_dense(const X* x, std::size_t rows, std::size_t dim, T* out, int n_threads = 1) const {
        return map_.transform_dense(x, rows, dim, out, n_threads);
    }

private:
    detail::HashedFourierMap map_;
};

// Random Fourier features from projections P (rows x half, row-major): row
// r of out (rows x 2 half) is [scale sin(P_r), scale cos(P_r)], by the same
// SIMD sin/cos (the density estimators' final step, where the projections
// come from BLAS). Runs on the calling thread.
template <class T>
inline void sin_cos_rows(const double* P, std::size_t rows, std::size_t half, double scale, T* out,
                         SimdLevel level = detect_simd_level()) {
    const auto cos_sin = detail::simd_table<detail::FourierCosSinKernel<T>>(require_simd_level(level)).cos_sin;
    for (std::size_t r = 0; r < rows; ++r)
        cos_sin(P + r * half, half, scale, out + (2 * r + 1) * half, out + 2 * r * half);
}

}  // namespace pyd2ke
