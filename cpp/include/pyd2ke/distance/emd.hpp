#pragma once
// Exact Earth Mover's Distance (optimal transport with a given cost matrix),
// in double precision.
//
//   EmdWorkspace   reusable buffers (one per thread; nothing is static)
//   emd_from_cost  minimum of sum_ij f_ij c_ij over flows f >= 0 with row sums
//                  a / sum(a) and column sums b / sum(b)
//
// Points of zero weight are dropped first (they cannot carry flow); when one
// side is left with a single point the answer is the weighted mean of its
// costs, otherwise the transportation simplex in detail/emd_simplex_impl.hpp
// solves it exactly.

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "../core/cpu_features.hpp"
#include "../core/finite.hpp"
#include "../detail/emd_impl.hpp"
#include "../detail/emd_simplex_impl.hpp"

namespace pyd2ke {

// One cell of an optimal basic solution: mass sent from a source to a
// target (masses normalised: together they sum to 1).
struct EmdFlow {
    std::size_t source, target;
    double mass;
};

class EmdWorkspace;
double emd_from_cost(const double* cost, std::size_t n, std::size_t m, const double* a, const double* b,
                     EmdWorkspace& ws);

class EmdWorkspace {
public:
    // The simplex runs at `level` (the build simd_dispatch's table names for it).
    explicit EmdWorkspace(SimdLevel level = detect_simd_level()) { set_simd_level(level); }

    // Takes effect at the next solve; throws for a level this CPU cannot run.
    void set_simd_level(SimdLevel level) {
        make_simplex_ = detail::simd_table<detail::TransportSimplexTable>(require_simd_level(level)).make;
    }

    // The transport simplex alone, for batched callers (EmdBatch) that drop
    // zero weights and normalise the masses once per point set, and write
    // the costs straight into the simplex: fill(c, rows) sets the cost of
    // row i and column j at c[j * rows + i]. Both sides need at least two
    // points; rows should be the longer side (the pricing vectorises down
    // the rows). fill writes squared Euclidean distances: the simplex takes
    // their square roots in its own (widest) lanes. Throws for a cost that is
    // infinite or NaN. flows() and the potentials do not describe these solves.
    template <class Fill>
    double solve_prepared(std::size_t rows, std::size_t cols, const double* row_mass, const double* col_mass,
                          Fill&& fill) {
        shape_ = Shape::none;
        detail::TransportSolver& simplex = this->simplex();
        simplex.reset(rows, cols);
        fill(simplex.costs(), rows);
        if (!all_finite(simplex.costs(), rows * cols)) throw std::invalid_argument("emd: costs must be finite");
        simplex.take_square_roots();
        return detail::finish_transport(simplex, rows, cols, row_mass, col_mass);
    }

    // Simplex pivots of the last solve (0 for the closed forms).
    std::size_t pivots() const {
        return shape_ == Shape::simplex ? simplex_->pivots() : 0;
    }

    // The last solve's optimal basic cells, zero-mass basic cells included
    // (for tests and diagnostics; builds a new vector).
    std::vector<EmdFlow> flows() const {
        std::vector<EmdFlow> out;
        if (shape_ == Shape::single_target) {
            for (std::size_t k = 0; k < kept_sources_; ++k) out.push_back({sources_[k], targets_[0], source_mass_[k]});
        } else if (shape_ == Shape::single_source) {
            for (std::size_t k = 0; k < kept_targets_; ++k) out.push_back({sources_[0], targets_[k], target_mass_[k]});
        } else if (shape_ == Shape::simplex) {
            std::vector<detail::TransportCell> cells;
            simplex_->basic_cells(cells);
            for (const detail::TransportCell& c : cells)
                out.push_back(transposed_ ? EmdFlow{sources_[c.col], targets_[c.row], c.flow}
                                          : EmdFlow{sources_[c.row], targets_[c.col], c.flow});
        }
        return out;
    }

    // Optimal dual variables of the last solve: cost[i][j] - u[i] - v[j] >= 0
    // for every pair of kept points, with equality on the flows; NaN for
    // dropped (zero-weight) points.
    std::vector<double> source_potentials() const { return potentials(true); }
    std::vector<double> target_potentials() const { return potentials(false); }

private:
    friend double emd_from_cost(const double*, std::size_t, std::size_t, const double*, const double*,
                                EmdWorkspace&);

    enum class Shape { none, single_target, single_source, simplex };

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

    // The simplex of the selected build, made at the first solve after a
    // change of build (levels that share a build share the simplex).
    detail::TransportSolver& simplex() {
        if (!simplex_ || made_by_ != make_simplex_) {
            simplex_ = make_simplex_();
            made_by_ = make_simplex_;
        }
        return *simplex_;
    }

    std::unique_ptr<detail::TransportSolver> (*make_simplex_)() = nullptr;
    std::unique_ptr<detail::TransportSolver> (*made_by_)() = nullptr;
    std::unique_ptr<detail::TransportSolver> simplex_;
    Shape shape_ = Shape::none;
    bool transposed_ = false;  // simplex rows are the targets
    std::size_t n_ = 0, m_ = 0, kept_sources_ = 0, kept_targets_ = 0;
    // Kept (positive weight) points and their normalised weights; the vectors
    // only grow, the counts say how much is in use.
    std::vector<std::size_t> sources_, targets_;
    std::vector<double> source_mass_, target_mass_;
    std::vector<double> closed_costs_;  // closed forms: costs to the single point
};

// Minimum-cost transport between supplies a (n, >= 0) and demands b (m, >= 0)
// with row-major costs (n, m); a and b are normalised to sum 1 here (pass raw
// weights). Returns sum flow * cost. Throws std::invalid_argument for an empty
// side, negative or non-finite weights, an all-zero side or non-finite costs.
inline double emd_from_cost(const double* cost, std::size_t n, std::size_t m, const double* a, const double* b,
                            EmdWorkspace& ws) {
    if (n == 0 || m == 0) throw std::invalid_argument("emd: both point sets must be non-empty");
    ws.shape_ = EmdWorkspace::Shape::none;
    ws.n_ = n;
    ws.m_ = m;
    const std::size_t ns = detail::keep_positive_weights(a, n, "source", ws.sources_, ws.source_mass_);
    const std::size_t nt = detail::keep_positive_weights(b, m, "target", ws.targets_, ws.target_mass_);
    ws.kept_sources_ = ns;
    ws.kept_targets_ = nt;
    if (!all_finite(cost, n * m)) throw std::invalid_argument("emd: costs must be finite");
    const std::size_t* src = ws.sources_.data();
    const std::size_t* tgt = ws.targets_.data();

    if (ns == 1 || nt == 1) {
        // All mass of the many side goes to the single point.
        const bool single_target = nt == 1;
        const std::size_t count = single_target ? ns : nt;
        const double* mass = single_target ? ws.source_mass_.data() : ws.target_mass_.data();
        if (ws.closed_costs_.size() < count) ws.closed_costs_.resize(count);
        double total = 0;
        for (std::size_t k = 0; k < count; ++k) {
            const double c = single_target ? cost[src[k] * m + tgt[0]] : cost[src[0] * m + tgt[k]];
            ws.closed_costs_[k] = c;
            total += mass[k] * c;
        }
        (single_target ? ws.target_mass_ : ws.source_mass_)[0] = 1.0;
        ws.shape_ = single_target ? EmdWorkspace::Shape::single_target : EmdWorkspace::Shape::single_source;
        return total;
    }

    // The simplex wants the longer side as its rows (its pricing vectorises
    // down the rows); transposing the problem does not change the optimum.
    // Its costs are column-major, i.e. the transpose of a row-major (rows,
    // cols) matrix.
    const bool transposed = ws.transposed_ = ns < nt;
    const double total = detail::solve_transport(ws.simplex(), cost, m, src, ns, ws.source_mass_.data(), tgt, nt,
                                                 ws.target_mass_.data(), transposed);
    ws.shape_ = EmdWorkspace::Shape::simplex;
    return total;
}

}  // namespace pyd2ke
