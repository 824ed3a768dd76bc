#pragma once
// The projections of DensityKernelFeatures' psi functions on its tensor
// basis (pyd2ke/density), on the midpoint grid of [0, 1]^l (integration=
// "grid"):
//
//   a[v] = scale * sum over the grid nodes u of psi(u) prod_d B[u_d, alpha_v,d],
//
// B the 1-D basis functions at the side nodes, alpha_v the basis
// multi-indices. The sum factorises over the axes, so it is done one axis
// at a time over the box {0..m-1}^l of 1-D indices (m the highest one + 1),
// then the |V| multi-indices are picked from the box: for the default l = 2
// (32^2 nodes, |V| = 100, m = 11) about 15 thousand multiply-adds per
// psi row against 102 thousand as one dense product with the basis matrix;
// for l = 3 (14^3 nodes, |V| = 1000) 24 times fewer. Each row's sums run in
// one fixed order, so a row does not depend on the rows given with it.
// Runs on the calling thread (the estimator runs blocks of sets on its threads).

#include <cstddef>
#include <cstdint>
#include <stdexcept>

#include "../core/cpu_features.hpp"
#include "../detail/density_project_impl.hpp"

namespace pyd2ke {

// rows: (n_rows, side^n_dims) row-major, a function at the grid nodes in C
// order; table: (side, m) row-major, B[node, k]; cells: n_basis indices into
// the box {0..m-1}^n_dims in C order (sum_d alpha_d m^(n_dims-1-d)); out:
// (n_rows, n_basis) row-major.
inline void density_project_grid(const double* rows, std::size_t n_rows, std::size_t n_dims, std::size_t side,
                                 const double* table, std::size_t m, const std::int64_t* cells, std::size_t n_basis,
                                 double scale, double* out, SimdLevel level = detect_simd_level()) {
    if (n_dims == 0 || side == 0 || m == 0) throw std::invalid_argument("density_project_grid: n_dims, side and m must be >= 1");
    if (m > side) throw std::invalid_argument("density_project_grid: m (basis functions per axis) must be <= side");
    std::size_t box = 1;
    for (std::size_t d = 0; d < n_dims; ++d) box *= m;
    for (std::size_t v = 0; v < n_basis; ++v)
        if (cells[v] < 0 || static_cast<std::size_t>(cells[v]) >= box)
            throw std::invalid_argument("density_project_grid: a basis cell lies outside the box m^n_dims");
    detail::GridProjector(n_dims, side, table, m, cells, n_basis, scale, require_simd_level(level))
        .project(rows, n_rows, out);
}

}  // namespace pyd2ke
