#pragma once
// ESP sketches to a hashed-column CSR matrix: label l goes to column
// l % n_features, and labels of one string that land in the same column are
// summed. Rows are sorted and merged in parallel, each into the place it
// has in the sketches; where columns merged (a few rows in every large
// input) the rows are then copied, in parallel, to their final places.
// Nothing is zeroed first: every pass over the output is a parallel one.
// Counts are whole numbers, so the sums do not depend on the order they
// are added in.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <utility>
#include <vector>

#include "../core/memory.hpp"
#include "../core/parallel.hpp"

namespace pyd2ke {
namespace detail {

// Index: the type of indptr and indices (scipy keeps int32 ones as they are
// and copies int64 ones into int32 when their values fit).
// n_features columns, their indices held by Index.
template <class Index>
void check_hashed_columns(std::uint64_t n_features) {
    if (n_features == 0) throw std::invalid_argument("n_features must be >= 1");
    if (n_features - 1 > static_cast<std::uint64_t>(std::numeric_limits<Index>::max()))
        throw std::invalid_argument("n_features is too large for the column index type");
}

template <class Index>
struct HashedCsrOf {
    std::vector<Index> indptr;
    UninitializedVector<Index> indices;
    UninitializedVector<double> data;
};

// Every row merged at its place in the sketches: row i's columns and sums
// go to indices/data[offsets[i] ..), row_nnz[i] of them (never more than
// its pairs).
template <class Index>
void esp_hashed_rows(const std::uint64_t* labels, const double* counts, const std::int64_t* offsets, std::size_t n,
                     std::uint64_t n_features, std::size_t block, int n_threads, Index* indices, double* data,
                     std::int64_t* row_nnz) {
    // A power of two (the default 2^20) takes a mask, not a 64-bit division.
    const bool power_of_two = (n_features & (n_features - 1)) == 0;
    parallel_for_blocks(n, n_threads, block, [&](std::size_t begin, std::size_t end) {
        std::vector<std::pair<std::int64_t, double>> row;
        for (std::size_t i = begin; i < end; ++i) {
            row.clear();
            for (std::int64_t k = offsets[i]; k < offsets[i + 1]; ++k) {
                const std::uint64_t column = power_of_two ? labels[k] & (n_features - 1) : labels[k] % n_features;
                row.emplace_back(static_cast<std::int64_t>(column), counts[k]);
            }
            std::sort(row.begin(), row.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
            std::size_t at = static_cast<std::size_t>(offsets[i]), kept = 0;
            for (std::size_t r = 0; r < row.size(); ++r) {
                if (kept > 0 && indices[at + kept - 1] == row[r].first) {
                    data[at + kept - 1] += row[r].second;
                } else {
                    indices[at + kept] = static_cast<Index>(row[r].first);
                    data[at + kept++] = row[r].second;
                }
            }
            row_nnz[i] = static_cast<std::int64_t>(kept);
        }
    });
}

// The merged rows copied to their final places: row i to
// out_indices/out_data[indptr[i] - indptr[0] ..), values converted to T.
template <class Index, class OutIndex, class T, class Ptr>
void esp_compact_rows(const std::int64_t* offsets, std::size_t n, const std::int64_t* row_nnz, const Index* indices,
                      const double* data, const Ptr* indptr, OutIndex* out_indices, T* out_data, std::size_t block,
                      int n_threads) {
    parallel_for_blocks(n, n_threads, block, [&](std::size_t begin, std::size_t end) {
        for (std::size_t i = begin; i < end; ++i) {
            const auto from = static_cast<std::size_t>(offsets[i]);
            const auto to = static_cast<std::size_t>(indptr[i] - indptr[0]);
            const auto count = static_cast<std::size_t>(row_nnz[i]);
            for (std::size_t k = 0; k < count; ++k) {
                out_indices[to + k] = static_cast<OutIndex>(indices[from + k]);
                out_data[to + k] = static_cast<T>(data[from + k]);
            }
        }
    });
}

template <class Index>
HashedCsrOf<Index> esp_hashed_csr_impl(const std::uint64_t* labels, const double* counts, const std::int64_t* offsets,
                                     std::size_t n, std::uint64_t n_features, int n_threads) {
    const std::size_t block = balanced_block(n, n_threads, 256, 16);
    const std::size_t raw = static_cast<std::size_t>(offsets[n]);
    // Merged rows at their places in the sketches (never longer after merging).
    UninitializedVector<Index> indices(raw);
    UninitializedVector<double> data(raw);
    std::vector<std::int64_t> row_nnz(n);
    esp_hashed_rows(labels, counts, offsets, n, n_features, block, n_threads, indices.data(), data.data(),
                    row_nnz.data());
    HashedCsrOf<Index> out;
    out.indptr.resize(n + 1);
    out.indptr[0] = 0;
    for (std::size_t i = 0; i < n; ++i) out.indptr[i + 1] = out.indptr[i] + static_cast<Index>(row_nnz[i]);
    const std::size_t nnz = static_cast<std::size_t>(out.indptr[n]);
    if (nnz == raw) {
        out.indices = std::move(indices);
        out.data = std::move(data);
        return out;
    }
    out.indices.resize(nnz);
    out.data.resize(nnz);
    esp_compact_rows(offsets, n, row_nnz.data(), indices.data(), data.data(), out.indptr.data(), out.indices.data(),
                     out.data.data(), block, n_threads);
    return out;
}

}  // namespace detail
}  // namespace pyd2ke
