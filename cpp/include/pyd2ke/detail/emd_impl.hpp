#pragma once
// The steps of emd_from_cost and EmdBatch (distance/emd.hpp,
// emd_batch.hpp) around the transport simplex: weights validated and
// normalised, costs copied into the simplex's layout, supplies and demands
// matched, the solve; and EmdSolver, the state behind an EmdWorkspace.

#include <algorithm>
#include <cstddef>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "../core/cpu_features.hpp"
#include "../core/finite.hpp"
#include "emd_simplex_impl.hpp"

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

// One EMD at a time (EmdWorkspace, distance/emd.hpp): points of zero
// weight dropped, the closed forms when a side keeps a single point, else
// the transport simplex of the selected build. The last solve's shape is
// kept so that its flows and potentials can be reported afterwards.
class EmdSolver {
public:
    // Takes effect at the next solve (`level`: one require_simd_level accepted).
    void set_simd_level(SimdLevel level) { make_simplex_ = simd_table<TransportSimplexTable>(level).make; }

    // emd_from_cost: row-major costs (n, m), raw weights a and b.
    double solve(const double* cost, std::size_t n, std::size_t m, const double* a, const double* b) {
        if (n == 0 || m == 0) throw std::invalid_argument("emd: both point sets must be non-empty");
        shape_ = Shape::none;
        n_ = n;
        m_ = m;
        const std::size_t ns = keep_positive_weights(a, n, "source", sources_, source_mass_);
        const std::size_t nt = keep_positive_weights(b, m, "target", targets_, target_mass_);
        kept_sources_ = ns;
        kept_targets_ = nt;
        if (!all_finite(cost, n * m)) throw std::invalid_argument("emd: costs must be finite");
        const std::size_t* src = sources_.data();
        const std::size_t* tgt = targets_.data();

        if (ns == 1 || nt == 1) {
            // All mass of the many side goes to the single point.
            const bool single_target = nt == 1;
            const std::size_t count = single_target ? ns : nt;
            const double* mass = single_target ? source_mass_.data() : target_mass_.data();
            if (closed_costs_.size() < count) closed_costs_.resize(count);
            double total = 0;
            for (std::size_t k = 0; k < count; ++k) {
                const double c = single_target ? cost[src[k] * m + tgt[0]] : cost[src[0] * m + tgt[k]];
                closed_costs_[k] = c;
                total += mass[k] * c;
            }
            (single_target ? target_mass_ : source_mass_)[0] = 1.0;
            shape_ = single_target ? Shape::single_target : Shape::single_source;
            return total;
        }

        // The simplex wants the longer side as its rows (its pricing vectorises
        // down the rows); transposing the problem does not change the optimum.
        // Its costs are column-major, i.e. the transpose of a row-major (rows,
        // cols) matrix.
        const bool transposed = transposed_ = ns < nt;
        const double total = solve_transport(simplex(), cost, m, src, ns, source_mass_.data(), tgt, nt,
                                             target_mass_.data(), transposed);
        shape_ = Shape::simplex;
        return total;
    }

    // EmdWorkspace::solve_prepared: the simplex alone, costs written by fill.
    template <class Fill>
    double solve_prepared(std::size_t rows, std::size_t cols, const double* row_mass, const double* col_mass,
                          Fill&& fill) {
        shape_ = Shape::none;
        TransportSolver& simplex = this->simplex();
        simplex.reset(rows, cols);
        fill(simplex.costs(), rows);
        // Squared distances of checked, finite points: anything else overflowed,
        // and +infinity marks the overflow for the callers' finite checks.
        if (!all_finite(simplex.costs(), rows * cols)) return std::numeric_limits<double>::infinity();
        simplex.take_square_roots();
        return finish_transport(simplex, rows, cols, row_mass, col_mass);
    }

    // Simplex pivots of the last solve (0 for the closed forms).
    std::size_t pivots() const { return shape_ == Shape::simplex ? simplex_->pivots() : 0; }

    // The last solve's optimal basic cells as Flow{source, target, mass}
    // (EmdFlow), zero-mass basic cells included.
    template <class Flow>
    std::vector<Flow> flows() const {
        std::vector<Flow> out;
        if (shape_ == Shape::single_target) {
            for (std::size_t k = 0; k < kept_sources_; ++k) out.push_back({sources_[k], targets_[0], source_mass_[k]});
        } else if (shape_ == Shape::single_source) {
            for (std::size_t k = 0; k < kept_targets_; ++k) out.push_back({sources_[0], targets_[k], target_mass_[k]});
        } else if (shape_ == Shape::simplex) {
            std::vector<TransportCell> cells;
            simplex_->basic_cells(cells);
            for (const TransportCell& c : cells)
                out.push_back(transposed_ ? Flow{sources_[c.col], targets_[c.row], c.flow}
                                          : Flow{sources_[c.row], targets_[c.col], c.flow});
        }
        return out;
    }

    // Optimal dual variables of the last solve, of the sources or of the
    // targets; NaN for dropped (zero-weight) points.
    std::vector<double> potentials(bool of_sources) const {
        std::vector<double> out(of_sources ? n_ : m_, std::numeric_limits<double>::quiet_NaN());
        const std::vector<std::size_t>& kept = of_sources ? sources_ : targets_;
        const std::size_t count = of_sources ? kept_sources_ : kept_targets_;
        if (shape_ == Shape::single_target || shape_ == Shape::single_source) {
            // The single point's potential is 0; the others' are their costs to it.
            const bool many_side = of_sources == (shape_ == Shape::single_target);
            for (std::size_t k = 0; k < count; ++k) out[kept[k]] = many_side ? closed_costs_[k] : 0.0;
        } else if (shape_ == Shape::simplex) {
            const bool simplex_rows = of_sources != transposed_;
            for (std::size_t k = 0; k < count; ++k)
                out[kept[k]] = simplex_rows ? simplex_->row_potential(k) : simplex_->col_potential(k);
        }
        return out;
    }

private:
    enum class Shape { none, single_target, single_source, simplex };

    // The simplex of the selected build, made at the first solve after a
    // change of build (levels that share a build share the simplex).
    TransportSolver& simplex() {
        if (!simplex_ || made_by_ != make_simplex_) {
            simplex_ = make_simplex_();
            made_by_ = make_simplex_;
        }
        return *simplex_;
    }

    std::unique_ptr<TransportSolver> (*make_simplex_)() = nullptr;
    std::unique_ptr<TransportSolver> (*made_by_)() = nullptr;
    std::unique_ptr<TransportSolver> simplex_;
    Shape shape_ = Shape::none;
    bool transposed_ = false;  // simplex rows are the targets
    std::size_t n_ = 0, m_ = 0, kept_sources_ = 0, kept_targets_ = 0;
    // Kept (positive weight) points and their normalised weights; the vectors
    // only grow, the counts say how much is in use.
    std::vector<std::size_t> sources_, targets_;
    std::vector<double> source_mass_, target_mass_;
    std::vector<double> closed_costs_;  // closed forms: costs to the single point
};

}  // namespace detail
}  // namespace pyd2ke
