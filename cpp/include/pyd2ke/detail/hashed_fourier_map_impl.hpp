#pragma once
// HashedRandomFourier internals (features/hashed_fourier.hpp): the map's
// parameters, blocks of weight rows, cos/sin of projections, and sparse rows
// transformed in blocks of rows and tiles of components with the kernels of
// hashed_fourier_impl.hpp.

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "../core/cpu_features.hpp"
#include "../core/finite.hpp"
#include "../core/parallel.hpp"
#include "counter_hash.hpp"
#include "entries_by_coordinate.hpp"
#include "hashed_fourier_impl.hpp"

namespace pyd2ke {
namespace detail {

class HashedFourierMap {
public:
    // Sparse rows are transformed in blocks of rows and tiles of components:
    // a tile's accumulators for all rows of a block fit in L2, and a block's
    // nonzeros are sorted at once (unless one row has more).
    static constexpr std::size_t kTileComponents = 128;
    static constexpr std::size_t kBlockAccumulatorBytes = std::size_t{512} << 10;
    static constexpr std::size_t kBlockEntries = std::size_t{1} << 20;

    // bandwidth: beta for the Laplacian kernel, gamma for the RBF kernel;
    // `level` is checked first, as every constructor that takes one does.
    HashedFourierMap(FourierKernel kernel, double bandwidth, std::size_t n_components, std::uint64_t seed,
                     SimdLevel level)
        : kernel_(kernel), n_components_(n_components), seed_(seed), level_(require_simd_level(level)) {
        if (!(bandwidth > 0) || !std::isfinite(bandwidth))
            throw std::invalid_argument("HashedRandomFourier: the bandwidth (beta or gamma) must be positive and finite");
        if (n_components < 2 || n_components % 2 != 0)
            throw std::invalid_argument("HashedRandomFourier: n_components must be even and >= 2, got " +
                                        std::to_string(n_components));
        scale_ = kernel == FourierKernel::laplacian ? 1.0 / bandwidth : std::sqrt(2.0 * bandwidth);
    }

    std::size_t n_components() const { return n_components_; }
    std::size_t half() const { return n_components_ / 2; }
    FourierKernel kernel() const { return kernel_; }
    std::uint64_t seed() const { return seed_; }

    // The weight w[j, k], one hash at a time.
    double weight(std::uint64_t j, std::size_t k) const {
        const double u = open_unit(counter_hash(coordinate_key(seed_, j), k));
        return scale_ * (kernel_ == FourierKernel::laplacian ? unit_weight<FourierKernel::laplacian>(u)
                                                              : unit_weight<FourierKernel::rbf>(u));
    }

    // W[(j - first) * half + k] = w[j, k] for first <= j < first + count.
    void weights(std::uint64_t first, std::size_t count, double* W, int n_threads) const {
        if (kernel_ == FourierKernel::laplacian)
            weights_impl<FourierKernel::laplacian>(first, count, W, n_threads);
        else
            weights_impl<FourierKernel::rbf>(first, count, W, n_threads);
    }

    // out (rows x D) from projections P (rows x D/2).
    template <class T>
    bool cos_sin(const double* P, std::size_t rows, T* out, int n_threads) const {
        const auto cs = simd_table<FourierCosSinKernel<T>>(level_).cos_sin;
        const std::size_t h = half();
        const double scale = output_scale();
        std::atomic<bool> finite{true};
        parallel_for_blocks(rows, n_threads, 64, [&](std::size_t begin, std::size_t end) {
            // The projections are finite exactly when their cos and sin are.
            if (!all_finite(P + begin * h, (end - begin) * h)) finite.store(false, std::memory_order_relaxed);
            for (std::size_t i = begin; i < end; ++i)
                cs(P + i * h, h, scale, out + i * n_components_, out + i * n_components_ + h);
        });
        return finite.load();
    }

    // Sparse rows (CSR-like: ids and values, indptr) to out (rows x D);
    // returns whether every feature is finite.
    template <class Index, class Value, class T>
    bool transform_sparse(const Index* ids, const Value* values, const std::int64_t* indptr, std::size_t rows, T* out,
                          int n_threads, std::size_t block_rows) const {
        if (kernel_ == FourierKernel::laplacian)
            return sparse_impl<FourierKernel::laplacian>(ids, values, indptr, rows, out, n_threads, block_rows);
        return sparse_impl<FourierKernel::rbf>(ids, values, indptr, rows, out, n_threads, block_rows);
    }

    // Dense rows (rows x dim, row-major) as sparse rows whose coordinates are
    // the column numbers.
    template <class X, class T>
    bool transform_dense(const X* x, std::size_t rows, std::size_t dim, T* out, int n_threads) const {
        std::vector<std::int64_t> indptr(rows + 1);
        for (std::size_t i = 0; i <= rows; ++i) indptr[i] = static_cast<std::int64_t>(i * dim);
        // Column j of row i is coordinate j: ids repeat per row, values are x itself.
        std::vector<std::uint64_t> ids(rows * dim);
        for (std::size_t i = 0; i < rows; ++i)
            for (std::size_t j = 0; j < dim; ++j) ids[i * dim + j] = j;
        return transform_sparse(ids.data(), x, indptr.data(), rows, out, n_threads, 0);
    }

private:
    double output_scale() const { return std::sqrt(2.0 / static_cast<double>(n_components_)); }

    template <FourierKernel K>
    void weights_impl(std::uint64_t first, std::size_t count, double* W, int n_threads) const {
        const auto kernels = simd_table<FourierWeightKernels<K>>(level_);
        const std::size_t h = half();
        parallel_for_blocks(count, n_threads, 16, [&](std::size_t begin, std::size_t end) {
            for (std::size_t r = begin; r < end; ++r)
                kernels.weight_row(coordinate_key(seed_, first + r), scale_, 0, h, W + r * h);
        });
    }

    // Projections accumulated per block of rows and tile of components,
    // coordinate by coordinate: one tile of weights per distinct coordinate
    // of the block, added to each row that holds it (rows receive their
    // terms in ascending coordinate order), then the tile's cos/sin written
    // out. Tiles keep the accumulators in L2 however many rows a block has,
    // and many rows per block generate a shared coordinate's weights once
    // for all of them: weight generation dominates the cost. So blocks stay
    // large, and the threads share out (block, tile) pairs: a chunk of 4096
    // rows in blocks of 256, one block per thread, ran 8.5x on 16 threads.
    // Each pair's arithmetic is the same however the work is shared out.
    template <FourierKernel K, class Index, class Value, class T>
    bool sparse_impl(const Index* ids, const Value* values, const std::int64_t* indptr, std::size_t rows, T* out,
                     int n_threads, std::size_t block_rows) const {
        if (rows == 0) return true;
        const auto kernels = simd_table<FourierWeightKernels<K>>(level_);
        const auto cos_sin = simd_table<FourierCosSinKernel<T>>(level_).cos_sin;
        const std::size_t h = half();
        const std::size_t tile = std::min(kTileComponents, (h + kernels.lanes - 1) / kernels.lanes * kernels.lanes);
        const std::size_t n_tiles = (h + tile - 1) / tile;
        const double scale = output_scale();
        if (block_rows == 0) block_rows = kBlockAccumulatorBytes / (tile * sizeof(double));
        const std::vector<std::size_t> starts = row_blocks(indptr, rows, block_rows, kBlockEntries);
        const std::size_t n_blocks = starts.size() - 1;
        // Each block's entries by coordinate, and where each coordinate's run starts.
        struct BlockEntries {
            std::vector<CoordinateEntry> entries;
            std::vector<std::size_t> runs;  // entries[runs[c] .. runs[c+1]) share coordinate c of the block
            std::vector<std::uint64_t> keys;
        };
        std::vector<BlockEntries> plans(n_blocks);
        parallel_for_blocks(n_blocks, n_threads, 1, [&](std::size_t b, std::size_t) {
            BlockEntries& plan = plans[b];
            entries_by_coordinate(ids, values, indptr, starts[b], starts[b + 1], plan.entries);
            for (std::size_t e = 0; e < plan.entries.size(); ++e)
                if (e == 0 || plan.entries[e].id != plan.entries[e - 1].id) {
                    plan.runs.push_back(e);
                    plan.keys.push_back(coordinate_key(seed_, plan.entries[e].id));
                }
            plan.runs.push_back(plan.entries.size());
        });
        std::vector<unsigned char> finite(n_blocks * n_tiles, 1);  // per pair: no shared writes
        parallel_for_blocks(n_blocks * n_tiles, n_threads, 1, [&](std::size_t pair, std::size_t) {
            const std::size_t b = pair / n_tiles, k0 = (pair % n_tiles) * tile;
            const std::size_t begin = starts[b], end = starts[b + 1];
            const BlockEntries& plan = plans[b];
            const std::size_t n = std::min(tile, h - k0);
            const std::size_t padded = (n + kernels.lanes - 1) / kernels.lanes * kernels.lanes;
            // A thread's buffers, kept from pair to pair (up to 512 KiB of accumulators).
            thread_local std::vector<double> weights, s;
            weights.assign(tile, 0.0);
            s.assign((end - begin) * tile, 0.0);
            for (std::size_t c = 0; c + 1 < plan.runs.size(); ++c) {
                kernels.weight_row(plan.keys[c], 1.0, k0, n, weights.data());
                for (std::size_t e = plan.runs[c]; e < plan.runs[c + 1]; ++e)
                    kernels.add_weights(weights.data(), plan.entries[e].value * scale_, padded,
                                        s.data() + plan.entries[e].row * tile);
            }
            for (std::size_t i = begin; i < end; ++i) {
                const double* p = s.data() + (i - begin) * tile;
                // The projections are finite exactly when their cos and sin are.
                finite[pair] &= all_finite(p, n);
                cos_sin(p, n, scale, out + i * n_components_ + k0, out + i * n_components_ + h + k0);
            }
        });
        return std::all_of(finite.begin(), finite.end(), [](unsigned char f) { return f != 0; });
    }

    FourierKernel kernel_;
    std::size_t n_components_;
    std::uint64_t seed_;
    SimdLevel level_;
    double scale_ = 1.0;  // of the weights: 1 / beta (Laplacian) or sqrt(2 gamma) (RBF)
};

}  // namespace detail
}  // namespace pyd2ke
