#pragma once
// Random Maclaurin features (Kar & Karnick, "Random Feature Maps for Dot
// Product Kernels", AISTATS 2012): feature f of degree n is
//   Z[i, f] = scale[f] * prod_{j < n} <w_{f,j}, x_i>.
// The projections <w, x> arrive as one matrix P (a BLAS product done by the
// caller). Features are grouped by degree, and a group of `count` features of
// degree n owns the columns start + j * count + k (j < n, k < count), so the
// innermost loop runs over k through contiguous memory and vectorises.

#include <atomic>
#include <cstddef>
#include <stdexcept>
#include <vector>

#include "../core/finite.hpp"
#include "../core/parallel.hpp"

namespace pyd2ke {

struct MaclaurinGroup {
    std::size_t degree = 0;
    std::size_t count = 0;
    std::size_t first_column = 0;   // in P
    std::size_t first_feature = 0;  // in Z
};

// Z (rows x n_features, row-major) from P (rows x p_columns, row-major).
// Returns false if a feature overflowed to infinity (or is NaN): each row is
// checked while it is still in cache, so callers need no second pass over Z.
template <class T>
bool maclaurin_products(const T* P, std::size_t rows, std::size_t p_columns, const std::vector<MaclaurinGroup>& groups,
                        const T* scale, T* Z, std::size_t n_features, int n_threads) {
    for (const MaclaurinGroup& g : groups) {
        if (g.first_column + g.degree * g.count > p_columns || g.first_feature + g.count > n_features)
            throw std::invalid_argument("maclaurin_products: a degree group does not fit the matrices");
    }
    std::atomic<bool> finite{true};
    parallel_for_blocks(rows, n_threads, 64, [&](std::size_t begin, std::size_t end) {
        bool block_finite = true;
        for (std::size_t i = begin; i < end; ++i) {
            const T* p = P + i * p_columns;
            T* z = Z + i * n_features;
            for (const MaclaurinGroup& g : groups) {
                T* out = z + g.first_feature;
                const T* s = scale + g.first_feature;
                for (std::size_t k = 0; k < g.count; ++k) out[k] = s[k];
                for (std::size_t j = 0; j < g.degree; ++j) {
                    const T* column = p + g.first_column + j * g.count;
                    for (std::size_t k = 0; k < g.count; ++k) out[k] *= column[k];
                }
            }
            block_finite &= all_finite(z, n_features);
        }
        if (!block_finite) finite.store(false, std::memory_order_relaxed);
    });
    return finite.load();
}

}  // namespace pyd2ke
