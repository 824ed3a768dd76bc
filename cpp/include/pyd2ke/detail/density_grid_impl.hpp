#pragma once
// The algorithm behind features/density_grid.hpp. Per point, each dimension's
// kernel values at the band of nodes within reach are computed with two exps
// (a recurrence; exp is the costly part), folded onto the grid (reflect) or
// cut at its faces, into one factor vector of `side` values per dimension;
// the set's grid gets the tensor product of those vectors. The products go
// in chunks of points: the product of all factors but the last (head) and
// the last factor of each point, then grid += head' last by the kernel of
// the SIMD level (density_grid_simd.inl), register tiles of the grid
// loaded and stored once per chunk instead of once per point.

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "../core/config.hpp"
#include "../core/cpu_features.hpp"

namespace pyd2ke::detail {

// A double as text that keeps its value, for messages (std::to_string
// prints 1e-320 as 0.000000).
inline std::string number_text(double x) {
    char buffer[32];
    std::snprintf(buffer, sizeof buffer, "%.6g", x);
    return buffer;
}

struct DensityGridKernel {
    // out[j * side + a] += sum over i < count of head[i * W + j] last[i * width + a], for j < W, a < side;
    // width >= side a multiple of 2 lanes, last's rows zero past side.
    void (*add_outer)(const double* head, std::size_t W, const double* last, std::size_t width, std::size_t side,
                      std::size_t count, double* out);
    std::size_t lanes;
};

}  // namespace pyd2ke::detail

// The kernel tables, one per instruction set: simd_table<DensityGridKernel>(level).
#define PYD2KE_SIMD_KERNEL_BODY "../detail/density_grid_simd.inl"
#include "../core/simd_dispatch.hpp"

namespace pyd2ke::detail {

// The kernel is cut at this many bandwidths (pyd2ke/density/kde.py's reach).
constexpr double density_kernel_reach = 6.0;
// The most nodes a kernel may reach on each side of its point: a bandwidth
// beyond it (thousands of times the width of the data, which lie in
// [0, 1]) would take minutes per set; kde_on_grid refuses it.
constexpr double density_max_reach = 1 << 20;
constexpr double density_pi = 3.14159265358979323846;

class DensityGrid {
public:
    // reach_nodes(h, side) <= density_max_reach and a finite normalisation (the caller checks).
    DensityGrid(std::size_t n_dims, double h, std::size_t side, bool reflect, SimdLevel level)
        : n_dims_(n_dims), h_(h), side_(side), reflect_(reflect), spacing_(1.0 / (static_cast<double>(side) * h)),
          reach_(static_cast<std::ptrdiff_t>(reach_nodes(h, side))), kernel_(simd_table<DensityGridKernel>(level)),
          factors_(n_dims * side) {
        for (std::size_t d = 0; d < n_dims; ++d) cells_ *= side;
        head_width_ = cells_ / side;
        const std::size_t block = 2 * kernel_.lanes;
        last_width_ = (side + block - 1) / block * block;
        head_.resize(kChunk * head_width_);
        last_.assign(kChunk * last_width_, 0.0);
        // exp(-k^2 c^2 / 2) / exp(-(k - 1)^2 c^2 / 2), the recurrence's step (c <= 20).
        shrink_.resize(static_cast<std::size_t>(reach_) + 1);
        for (std::ptrdiff_t k = 1; k <= reach_; ++k)
            shrink_[static_cast<std::size_t>(k)] = std::exp(-0.5 * spacing_ * spacing_ * static_cast<double>(2 * k - 1));
    }

    std::size_t cells() const { return cells_; }

    // Nodes within density_kernel_reach bandwidths of a point's nearest node, rounded up.
    static double reach_nodes(double h, std::size_t side) {
        return std::ceil(density_kernel_reach / (1.0 / (static_cast<double>(side) * h)));
    }

    // The constant of the l-dimensional Gaussian, 1 / (sqrt(2 pi) h)^l (inf for an absurdly small h).
    static double normalisation(double h, std::size_t n_dims) {
        return std::pow(1.0 / (std::sqrt(2.0 * density_pi) * h), static_cast<double>(n_dims));
    }

    // out[0 .. cells) = the density of the n points at the grid nodes.
    void set_density(const double* points, std::size_t n, double* out) {
        for (std::size_t c = 0; c < cells_; ++c) out[c] = 0.0;
        for (std::size_t first = 0; first < n; first += kChunk) {
            const std::size_t count = n - first < kChunk ? n - first : kChunk;
            for (std::size_t i = 0; i < count; ++i) {
                const double* point = points + (first + i) * n_dims_;
                for (std::size_t d = 0; d < n_dims_; ++d) factor(point[d], &factors_[d * side_]);
                head_row(&head_[i * head_width_]);
                std::memcpy(&last_[i * last_width_], &factors_[(n_dims_ - 1) * side_], side_ * sizeof(double));
            }
            kernel_.add_outer(head_.data(), head_width_, last_.data(), last_width_, side_, count, out);
        }
        const double scale = normalisation(h_, n_dims_) / static_cast<double>(n);
        for (std::size_t c = 0; c < cells_; ++c) out[c] *= scale;
    }

private:
    // f[a] = sum of exp(-((node_a' - x) / h)^2 / 2) over the band nodes a'
    // that land on node a (a' itself, or its mirror node with reflect).
    void factor(double x, double* f) {
        for (std::size_t a = 0; a < side_; ++a) f[a] = 0.0;
        if (reflect_) {
            // The point's mirror images in the faces: fold it into [0, 1] first
            // (exact: |x|, fmod and 2 - x round nothing), so that a point far
            // outside the cube gives small node indices.
            x = std::fmod(std::abs(x), 2.0);
            if (x > 1.0) x = 2.0 - x;
        } else if (!(x > -margin() && x < 1.0 + margin())) {
            return;  // every node within reach lies outside the grid
        }
        const double nearest = std::nearbyint(x * static_cast<double>(side_) - 0.5);
        const double delta = ((nearest + 0.5) / static_cast<double>(side_) - x) / h_;  // in bandwidths
        const auto centre = static_cast<std::ptrdiff_t>(nearest);
        if (spacing_ <= 20.0) {
            const double peak = std::exp(-0.5 * delta * delta);
            const double up = std::exp(-delta * spacing_), down = 1.0 / up;
            add(f, centre, peak);
            double above = peak, below = peak;
            for (std::ptrdiff_t k = 1; k <= reach_; ++k) {
                const double step = shrink_[static_cast<std::size_t>(k)];
                above *= up * step;
                below *= down * step;
                add(f, centre + k, above);
                add(f, centre - k, below);
            }
        } else {  // bandwidth far below the node spacing: a narrow band, direct exps
            for (std::ptrdiff_t k = -reach_; k <= reach_; ++k) {
                const double t = delta + static_cast<double>(k) * spacing_;
                add(f, centre + k, std::exp(-0.5 * t * t));
            }
        }
    }

    // Past this distance from the cube a point's band of nodes misses the grid.
    double margin() const { return static_cast<double>(reach_ + 1) / static_cast<double>(side_); }

    void add(double* f, std::ptrdiff_t node, double value) const {
        const auto side = static_cast<std::ptrdiff_t>(side_);
        if (reflect_) {
            // One reflection suffices while the band is narrower than the
            // grid (the usual case): no integer division per node.
            if (node >= -side && node < 2 * side) {
                f[node < 0 ? -1 - node : (node >= side ? 2 * side - 1 - node : node)] += value;
                return;
            }
            std::ptrdiff_t m = node % (2 * side);
            if (m < 0) m += 2 * side;
            f[m >= side ? 2 * side - 1 - m : m] += value;
        } else if (node >= 0 && node < side) {
            f[node] += value;
        }
    }

    // head = f_0 (x) ... (x) f_{l-2} (C order; 1 for one dimension).
    void head_row(double* head) const {
        head[0] = 1.0;
        std::size_t width = 1;
        for (std::size_t d = 0; d + 1 < n_dims_; ++d) {
            const double* f = &factors_[d * side_];
            for (std::size_t j = width; j-- > 0;) {
                const double p = head[j];
                for (std::size_t a = 0; a < side_; ++a) head[j * side_ + a] = p * f[a];
            }
            width *= side_;
        }
    }

    // Points whose products are added to the grid at once.
    static constexpr std::size_t kChunk = 64;

    std::size_t n_dims_;
    double h_;
    std::size_t side_;
    bool reflect_;
    double spacing_;  // node spacing in bandwidths
    std::ptrdiff_t reach_;
    std::size_t cells_ = 1;  // side^n_dims
    const DensityGridKernel& kernel_;
    std::size_t head_width_ = 1, last_width_ = 1;  // side^(n_dims - 1); side rounded up to 2 lanes
    std::vector<double> factors_;
    std::vector<double> head_, last_;  // kChunk rows each
    std::vector<double> shrink_;
};

}  // namespace pyd2ke::detail
