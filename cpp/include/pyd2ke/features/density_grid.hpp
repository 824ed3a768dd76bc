#pragma once
// Gaussian kernel density estimates of sample sets at the midpoint grid of
// [0, 1]^l, the first step of DensityKernelFeatures (pyd2ke/density):
//
//   p_s(node) = 1 / n_s  sum over the points x of set s of
//               prod_d k_h(node_d - x_d),   k_h the 1-D Gaussian of width h,
//
// nodes (a + 1/2) / side, the grid in C order. Each 1-D kernel is cut at
// 6 bandwidths (below exp(-18) of its peak); with reflect, the kernels of a
// point's mirror images in the faces of the cube are added (its whole mass
// stays inside). A set's estimate is summed over its own points in their
// order only, so it does not depend on the other sets given with it.
// Runs on the calling thread, without Python: the estimator runs blocks of
// sets on its threads, and this step held the GIL for two thirds of the
// time the blocks held it when it was numpy code.

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

#include "../core/cpu_features.hpp"
#include "../detail/density_grid_impl.hpp"

namespace pyd2ke {

// values: the points of all sets, (n_points, n_dims) row-major; set s is rows
// offsets[s] .. offsets[s + 1] (every set non-empty); out: (n_sets, side^n_dims).
inline void kde_on_grid(const double* values, std::size_t n_dims, const std::int64_t* offsets, std::size_t n_sets,
                        double h, std::size_t side, bool reflect, double* out, SimdLevel level = detect_simd_level()) {
    if (n_dims == 0 || side == 0) throw std::invalid_argument("kde_on_grid: n_dims and side must be >= 1");
    if (!(h > 0.0)) throw std::invalid_argument("kde_on_grid: the bandwidth must be > 0");
    if (!(detail::DensityGrid::reach_nodes(h, side) <= detail::density_max_reach))
        throw std::invalid_argument("bandwidth " + detail::number_text(h) +
                                    " (of the data scaled to [0, 1]) is too wide for the density grid: over 2^20 "
                                    "nodes within 6 bandwidths of a point");
    if (!std::isfinite(detail::DensityGrid::normalisation(h, n_dims)))
        throw std::invalid_argument("bandwidth " + detail::number_text(h) +
                                    " is too small: the density's normalisation 1 / (sqrt(2 pi) h)^l overflows");
    for (std::size_t s = 0; s < n_sets; ++s)
        if (offsets[s + 1] <= offsets[s] || offsets[s] < 0)
            throw std::invalid_argument("kde_on_grid: every set must have at least one point");
    detail::DensityGrid grid(n_dims, h, side, reflect, require_simd_level(level));
    for (std::size_t s = 0; s < n_sets; ++s) {
        const auto first = static_cast<std::size_t>(offsets[s]), stop = static_cast<std::size_t>(offsets[s + 1]);
        grid.set_density(values + first * n_dims, stop - first, out + s * grid.cells());
    }
}

}  // namespace pyd2ke
