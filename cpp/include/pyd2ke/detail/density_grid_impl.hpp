#pragma once
// The algorithm behind features/density_grid.hpp. Per point, each dimension's
// kernel values at the band of nodes within reach are computed with two exps
// (a recurrence; exp is the costly part), folded onto the grid (reflect) or
// cut at its faces, into one factor vector of `side` values per dimension;
// the set's grid gets the tensor product of those vectors.

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <vector>

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
    DensityGrid(std::size_t n_dims, double h, std::size_t side, bool reflect)
        : n_dims_(n_dims), h_(h), side_(side), reflect_(reflect), spacing_(1.0 / (static_cast<double>(side) * h)),
          reach_(static_cast<std::ptrdiff_t>(reach_nodes(h, side))), factors_(n_dims * side) {
        for (std::size_t d = 0; d < n_dims; ++d) cells_ *= side;
        product_.resize(cells_ / side);
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
        for (std::size_t i = 0; i < n; ++i) {
            for (std::size_t d = 0; d < n_dims_; ++d) factor(points[i * n_dims_ + d], &factors_[d * side_]);
            add_tensor_product(out);
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

    // out += f_0 (x) f_1 (x) ... (x) f_{l-1}, C order (the last dimension fastest).
    void add_tensor_product(double* out) {
        const double* last = &factors_[(n_dims_ - 1) * side_];
        if (n_dims_ == 1) {
            for (std::size_t a = 0; a < side_; ++a) out[a] += last[a];
            return;
        }
        // product_ = f_0 (x) ... (x) f_{l-2}, then each of its entries scales f_{l-1}.
        std::size_t width = side_;
        for (std::size_t a = 0; a < side_; ++a) product_[a] = factors_[a];
        for (std::size_t d = 1; d + 1 < n_dims_; ++d) {
            const double* f = &factors_[d * side_];
            for (std::size_t j = width; j-- > 0;) {
                const double p = product_[j];
                for (std::size_t a = 0; a < side_; ++a) product_[j * side_ + a] = p * f[a];
            }
            width *= side_;
        }
        for (std::size_t j = 0; j < width; ++j) {
            const double p = product_[j];
            if (p == 0.0) continue;
            double* row = out + j * side_;
            for (std::size_t a = 0; a < side_; ++a) row[a] += p * last[a];
        }
    }

    std::size_t n_dims_;
    double h_;
    std::size_t side_;
    bool reflect_;
    double spacing_;  // node spacing in bandwidths
    std::ptrdiff_t reach_;
    std::size_t cells_ = 1;  // side^n_dims
    std::vector<double> factors_;
    std::vector<double> product_;
    std::vector<double> shrink_;
};

}  // namespace pyd2ke::detail
