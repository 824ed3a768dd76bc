#pragma once
// The steps of emd_from_cost and EmdBatch (distance/emd.hpp,
// emd_batch.hpp) around the transport simplex: weights validated and
// normalised, costs copied into the simplex's layout, supplies and demands
// matched, the solve.

#include <algorithm>
#include <cstddef>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

namespace pyd2ke {
namespace detail {

// Validates weights, keeps the positive ones and normalises them to sum 1;
// returns how many were kept. Dividing by the largest weight first keeps the
// sum finite for any finite weights.
inline std::size_t keep_positive_weights(const double* w, std::size_t count, const char* side,
                                         std::vector<std::size_t>& kept, std::vector<double>& mass) {
    double largest = 0;
    bool valid = true;
    for (std::size_t k = 0; k < count; ++k) {
        valid &= w[k] >= 0 && w[k] <= std::numeric_limits<double>::max();  // false for NaN too
        largest = w[k] > largest ? w[k] : largest;
    }
    if (!valid) throw std::invalid_argument(std::string("emd: ") + side + " weights must be finite and non-negative");
    if (largest == 0) throw std::invalid_argument(std::string("emd: ") + side + " weights are all zero");
    if (kept.size() < count) kept.resize(count), mass.resize(count);
    std::size_t used = 0;
    double sum = 0;
    for (std::size_t k = 0; k < count; ++k) {  // branch-free append
        kept[used] = k;
        mass[used] = w[k] / largest;
        sum += mass[used];
        used += w[k] > 0;
    }
    const double scale = 1 / sum;
    for (std::size_t k = 0; k < used; ++k) mass[k] *= scale;
    return used;
}

// Supplies and demands from normalised masses, then the solve.
template <class Simplex>
double finish_transport(Simplex& simplex, std::size_t rows, std::size_t cols, const double* row_mass,
                        const double* col_mass) {
    double row_sum = 0, col_sum = 0;
    for (std::size_t i = 0; i < rows; ++i) row_sum += row_mass[i];
    for (std::size_t j = 0; j < cols; ++j) col_sum += col_mass[j];
    // Both sums are 1 up to rounding; matching them shrinks the mismatch the
    // initial solution has to absorb to the last few ulps.
    const double scale = row_sum / col_sum;
    std::copy_n(row_mass, rows, simplex.supplies());
    for (std::size_t j = 0; j < cols; ++j) simplex.demands()[j] = col_mass[j] * scale;
    return simplex.solve();
}


// The simplex part of emd_from_cost, for either compiled simplex.
// src/tgt: the kept points (ns and nt of them) and their normalised masses.
template <class Simplex>
double solve_transport(Simplex& simplex, const double* cost, std::size_t m, const std::size_t* src, std::size_t ns,
                       const double* source_mass, const std::size_t* tgt, std::size_t nt, const double* target_mass,
                       bool transposed) {
    const std::size_t rows = transposed ? nt : ns, cols = transposed ? ns : nt;
    simplex.reset(rows, cols);
    double* c = simplex.costs();
    if (!transposed) {
        for (std::size_t i = 0; i < ns; ++i) {
            const double* from = cost + src[i] * m;
            if (nt == m)
                for (std::size_t j = 0; j < nt; ++j) c[j * rows + i] = from[j];
            else
                for (std::size_t j = 0; j < nt; ++j) c[j * rows + i] = from[tgt[j]];
        }
    } else {
        for (std::size_t j = 0; j < ns; ++j) {
            const double* from = cost + src[j] * m;
            double* to = c + j * rows;
            if (nt == m)
                std::copy_n(from, nt, to);
            else
                for (std::size_t i = 0; i < nt; ++i) to[i] = from[tgt[i]];
        }
    }
    return finish_transport(simplex, rows, cols, transposed ? target_mass : source_mass,
                            transposed ? source_mass : target_mass);
}

}  // namespace detail
}  // namespace pyd2ke
