#pragma once
// dense_edges(): the non-zero entries of many small dense adjacency matrices
// (any strides, a few element types) as one edge list, in parallel over
// matrices: a count pass, running sums, a fill pass. A list of graphs given
// as dense matrices becomes the (rows, cols, weights) form the graph domain
// packs; done in Python it was a loop per graph holding the GIL, the serial
// part of RandomGraphEmbedding.

#include <atomic>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "pack.hpp"
#include "parallel.hpp"

namespace pyd2ke {

namespace detail {

template <class From>
double element_as_double(const StridedRows& a, std::size_t r, std::size_t c) {
    return static_cast<double>(load_element<From>(a.data + static_cast<std::ptrdiff_t>(r) * a.row_stride +
                                                  static_cast<std::ptrdiff_t>(c) * a.column_stride));
}

// Calls visit(r, c, w) for every entry of a, row by row, as double.
template <class Visit>
void for_each_entry(const StridedRows& a, Visit&& visit) {
    auto run = [&](auto from) {
        using From = decltype(from);
        for (std::size_t r = 0; r < a.rows; ++r)
            for (std::size_t c = 0; c < a.columns; ++c) visit(r, c, element_as_double<From>(a, r, c));
    };
    switch (a.element) {
        case StridedRows::Element::float64: return run(double{});
        case StridedRows::Element::float32: return run(float{});
        case StridedRows::Element::int64: return run(std::int64_t{});
        case StridedRows::Element::int32: return run(std::int32_t{});
    }
}

// Whether the square matrix a equals its transpose exactly.
inline bool is_symmetric(const StridedRows& a) {
    auto run = [&](auto from) {
        using From = decltype(from);
        for (std::size_t r = 1; r < a.rows; ++r)
            for (std::size_t c = 0; c < r; ++c)
                if (element_as_double<From>(a, r, c) != element_as_double<From>(a, c, r)) return false;
        return true;
    };
    switch (a.element) {
        case StridedRows::Element::float64: return run(double{});
        case StridedRows::Element::float32: return run(float{});
        case StridedRows::Element::int64: return run(std::int64_t{});
        case StridedRows::Element::int32: return run(std::int32_t{});
    }
    return false;
}

}  // namespace detail

// The edges of every matrix (rows == columns), matrix after matrix, each in
// row-major order (numpy.nonzero's): edge_counts[i] entries of matrix i go
// to rows/cols (local indices) and weights. Returns false, writing nothing
// useful, when a weight is negative, NaN or infinite: the caller's own
// check then names the graph. `symmetric` tells whether every matrix equals
// its transpose exactly: then the edges are already in the graph domain's
// canonical form, and its sort over all edges (serial numpy: 23 ms of the
// 29 ms that checking 5000 graphs of 10-29 nodes took) can be skipped.
inline bool dense_edges(const std::vector<StridedRows>& matrices, std::vector<std::int64_t>& edge_counts,
                        std::vector<std::int64_t>& rows, std::vector<std::int64_t>& cols, std::vector<double>& weights,
                        bool& symmetric, int n_threads) {
    const std::size_t n = matrices.size();
    edge_counts.assign(n, 0);
    std::atomic<bool> valid{true}, all_symmetric{true};
    parallel_for_blocks(n, n_threads, 16, [&](std::size_t begin, std::size_t end) {
        for (std::size_t i = begin; i < end; ++i) {
            const StridedRows& a = matrices[i];
            std::int64_t count = 0;
            bool ok = true;
            detail::for_each_entry(a, [&](std::size_t, std::size_t, double w) {
                count += w != 0.0;
                ok = ok && std::isfinite(w) && w >= 0.0;
            });
            edge_counts[i] = count;
            if (!ok) valid.store(false, std::memory_order_relaxed);
            if (ok && all_symmetric.load(std::memory_order_relaxed) && !detail::is_symmetric(a))
                all_symmetric.store(false, std::memory_order_relaxed);
        }
    });
    symmetric = all_symmetric.load();
    if (!valid.load()) return false;
    std::vector<std::int64_t> start(n + 1, 0);
    for (std::size_t i = 0; i < n; ++i) start[i + 1] = start[i] + edge_counts[i];
    rows.resize(static_cast<std::size_t>(start[n]));
    cols.resize(rows.size());
    weights.resize(rows.size());
    parallel_for_blocks(n, n_threads, 16, [&](std::size_t begin, std::size_t end) {
        for (std::size_t i = begin; i < end; ++i) {
            std::size_t k = static_cast<std::size_t>(start[i]);
            detail::for_each_entry(matrices[i], [&](std::size_t r, std::size_t c, double w) {
                if (w == 0.0) return;
                rows[k] = static_cast<std::int64_t>(r);
                cols[k] = static_cast<std::int64_t>(c);
                weights[k] = w;
                ++k;
            });
        }
    });
    return true;
}

}  // namespace pyd2ke
