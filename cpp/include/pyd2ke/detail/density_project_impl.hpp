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

inline void density_project_rows(const double* rows, std::size_t n_rows, std::size_t n_dims, std::size_t side,
                                 const double* table, std::size_t m, const std::int64_t* cells, std::size_t n_basis,
                                 double scale, double* out, SimdLevel level) {
    const DensityProjectKernel& kernel = simd_table<DensityProjectKernel>(level);
    // The last axis' table padded with zero columns to whole vectors, and
    // the cells of the box as laid out with that padded last axis.
    const std::size_t width = (m + kernel.lanes - 1) / kernel.lanes * kernel.lanes;
    std::vector<double> padded(side * width, 0.0);
    for (std::size_t i = 0; i < side; ++i) std::memcpy(&padded[i * width], table + i * m, m * sizeof(double));
    std::vector<std::size_t> picks(n_basis);
    for (std::size_t v = 0; v < n_basis; ++v) {
        const auto cell = static_cast<std::size_t>(cells[v]);
        picks[v] = cell / m * width + cell % m;
    }
    std::size_t nodes = 1, box_head = 1;  // side^n_dims, m^(n_dims - 1)
    for (std::size_t d = 0; d < n_dims; ++d) nodes *= side;
    for (std::size_t d = 1; d < n_dims; ++d) box_head *= m;
    // Each step shrinks one axis from side to m <= side, so the first step's
    // output is the largest, except the last step's padding.
    const std::size_t first = n_dims > 1 ? nodes / side * m : 0;
    const std::size_t size = first > box_head * width ? first : box_head * width;
    std::vector<double> buffers[2] = {std::vector<double>(size), std::vector<double>(size)};
    for (std::size_t r = 0; r < n_rows; ++r) {
        const double* current = rows + r * nodes;
        std::size_t P = 1, Q = nodes / side;
        for (std::size_t d = 0; d + 1 < n_dims; ++d) {
            double* next = buffers[d % 2].data();
            kernel.contract_axis(current, P, side, Q, table, m, next);
            current = next;
            P *= m;
            Q /= side;
        }
        double* box = buffers[(n_dims - 1) % 2].data();
        kernel.contract_last_axis(current, P, side, padded.data(), width, box);
        double* target = out + r * n_basis;
        for (std::size_t v = 0; v < n_basis; ++v) target[v] = scale * box[picks[v]];
    }
}

}  // namespace pyd2ke::detail
