#pragma once
// The loop behind features/density_project.hpp: per row, every axis but
// the last contracted in turn (the vector over the axes after it), then the
// last (the vector over the basis numbers, the table padded to whole
// vectors), by the kernels of the SIMD level (density_project_simd.inl);
// then the basis cells picked from the box.

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "../core/config.hpp"
#include "../core/cpu_features.hpp"

namespace pyd2ke::detail {

struct DensityProjectKernel {
    // out[p, k, q] = sum over i < n of table[i, k] in[p, i, q], for p < P, k < m, q < Q (Q > 1).
    void (*contract_axis)(const double* in, std::size_t P, std::size_t n, std::size_t Q, const double* table,
                          std::size_t m, double* out);
    // out[p, k] = sum over i < n of in[p, i] padded[i, k], for p < P, k < width (a multiple of lanes).
    void (*contract_last_axis)(const double* in, std::size_t P, std::size_t n, const double* padded,
                               std::size_t width, double* out);
    std::size_t lanes;
};

}  // namespace pyd2ke::detail

// The kernel tables, one per instruction set: simd_table<DensityProjectKernel>(level).
#define PYD2KE_SIMD_KERNEL_BODY "../detail/density_project_simd.inl"
#include "../core/simd_dispatch.hpp"

namespace pyd2ke::detail {

// The projection of one grid and basis, set up once (the padded table, the
// picked cells, the buffers) for any number of calls.
class GridProjector {
public:
    GridProjector(std::size_t n_dims, std::size_t side, const double* table, std::size_t m, const std::int64_t* cells,
                  std::size_t n_basis, double scale, SimdLevel level)
        : kernel_(simd_table<DensityProjectKernel>(level)), n_dims_(n_dims), side_(side), table_(table), m_(m),
          n_basis_(n_basis), scale_(scale) {
        // The last axis' table padded with zero columns to whole vectors, and
        // the cells of the box as laid out with that padded last axis.
        width_ = (m + kernel_.lanes - 1) / kernel_.lanes * kernel_.lanes;
        padded_.assign(side * width_, 0.0);
        for (std::size_t i = 0; i < side; ++i) std::memcpy(&padded_[i * width_], table + i * m, m * sizeof(double));
        picks_.resize(n_basis);
        for (std::size_t v = 0; v < n_basis; ++v) {
            const auto cell = static_cast<std::size_t>(cells[v]);
            picks_[v] = cell / m * width_ + cell % m;
        }
        std::size_t box_head = 1;  // m^(n_dims - 1)
        for (std::size_t d = 0; d < n_dims; ++d) nodes_ *= side;
        for (std::size_t d = 1; d < n_dims; ++d) box_head *= m;
        // Each step shrinks one axis from side to m <= side, so the first
        // step's output is the largest, except the last step's padding.
        const std::size_t first = n_dims > 1 ? nodes_ / side * m : 0;
        const std::size_t size = first > box_head * width_ ? first : box_head * width_;
        buffers_[0].resize(size);
        buffers_[1].resize(size);
    }

    std::size_t nodes() const { return nodes_; }

    // out[r * n_basis + v] for r < n_rows, rows (n_rows, side^n_dims).
    void project(const double* rows, std::size_t n_rows, double* out) {
        for (std::size_t r = 0; r < n_rows; ++r) {
            const double* current = rows + r * nodes_;
            std::size_t P = 1, Q = nodes_ / side_;
            for (std::size_t d = 0; d + 1 < n_dims_; ++d) {
                double* next = buffers_[d % 2].data();
                kernel_.contract_axis(current, P, side_, Q, table_, m_, next);
                current = next;
                P *= m_;
                Q /= side_;
            }
            double* box = buffers_[(n_dims_ - 1) % 2].data();
            kernel_.contract_last_axis(current, P, side_, padded_.data(), width_, box);
            double* target = out + r * n_basis_;
            for (std::size_t v = 0; v < n_basis_; ++v) target[v] = scale_ * box[picks_[v]];
        }
    }

private:
    const DensityProjectKernel& kernel_;
    std::size_t n_dims_, side_;
    const double* table_;
    std::size_t m_, n_basis_;
    double scale_;
    std::size_t width_ = 0, nodes_ = 1;
    std::vector<double> padded_;
    std::vector<std::size_t> picks_;
    std::vector<double> buffers_[2];
};

}  // namespace pyd2ke::detail
