#pragma once
// ESP sketches to a hashed-column CSR matrix: label l goes to column
// l % n_features, and labels of one string that land in the same column are
// summed. Rows are sorted and merged in parallel, each into the place it
// has in the sketches; the rare merged columns then leave gaps that one
// pass closes. Counts are whole numbers, so the sums do not depend on the
// order they are added in.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "../core/parallel.hpp"

namespace pyd2ke {
namespace detail {

struct HashedCsr {
    std::vector<std::int64_t> indptr;
    std::vector<std::int64_t> indices;
    std::vector<double> data;
};

inline HashedCsr esp_hashed_csr_impl(const std::uint64_t* labels, const double* counts, const std::int64_t* offsets,
                                     std::size_t n, std::uint64_t n_features, int n_threads) {
    constexpr std::size_t block = 256;
    const std::size_t raw = static_cast<std::size_t>(offsets[n]);
    // A power of two (the default 2^20) takes a mask, not a 64-bit division.
    const bool power_of_two = (n_features & (n_features - 1)) == 0;
    HashedCsr out;
    out.indices.resize(raw);
    out.data.resize(raw);
    std::vector<std::int64_t> row_nnz(n);
    // Each row is sorted and merged in a small scratch buffer and written at
    // its place in the sketches (never longer after merging).
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
                if (kept > 0 && out.indices[at + kept - 1] == row[r].first) {
                    out.data[at + kept - 1] += row[r].second;
                } else {
                    out.indices[at + kept] = row[r].first;
                    out.data[at + kept++] = row[r].second;
                }
            }
            row_nnz[i] = static_cast<std::int64_t>(kept);
        }
    });
    out.indptr.resize(n + 1);
    out.indptr[0] = 0;
    for (std::size_t i = 0; i < n; ++i) out.indptr[i + 1] = out.indptr[i] + row_nnz[i];
    const std::size_t nnz = static_cast<std::size_t>(out.indptr[n]);
    if (nnz != raw) {  // some columns merged: close the gaps, left to right
        for (std::size_t i = 0; i < n; ++i) {
            const std::size_t from = static_cast<std::size_t>(offsets[i]), to = static_cast<std::size_t>(out.indptr[i]);
            std::copy_n(out.indices.begin() + static_cast<std::ptrdiff_t>(from), row_nnz[i],
                        out.indices.begin() + static_cast<std::ptrdiff_t>(to));
            std::copy_n(out.data.begin() + static_cast<std::ptrdiff_t>(from), row_nnz[i],
                        out.data.begin() + static_cast<std::ptrdiff_t>(to));
        }
        out.indices.resize(nnz);
        out.data.resize(nnz);
    }
    return out;
}

}  // namespace detail
}  // namespace pyd2ke
