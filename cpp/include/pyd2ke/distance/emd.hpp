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

#include <cstddef>
#include <utility>
#include <vector>

#include "../core/cpu_features.hpp"
#include "../detail/emd_impl.hpp"

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
    void set_simd_level(SimdLevel level) { solver_.set_simd_level(require_simd_level(level)); }

    // The transport simplex alone, for batched callers (EmdBatch) that drop
    // zero weights and normalise the masses once per point set, and write
    // the costs straight into the simplex: fill(c, rows) sets the cost of
    // row i and column j at c[j * rows + i]. Both sides need at least two
    // points; rows should be the longer side (the pricing vectorises down
    // the rows). fill writes squared Euclidean distances: the simplex takes
    // their square roots in its own (widest) lanes. A cost that is not finite
    // (squared distances of finite points that overflowed) gives +infinity,
    // the mark of an overflow, not a transport cost. flows() and the
    // potentials do not describe these solves.
    template <class Fill>
    double solve_prepared(std::size_t rows, std::size_t cols, const double* row_mass, const double* col_mass,
                          Fill&& fill) {
        return solver_.solve_prepared(rows, cols, row_mass, col_mass, std::forward<Fill>(fill));
    }

    // Simplex pivots of the last solve (0 for the closed forms).
    std::size_t pivots() const { return solver_.pivots(); }

    // The last solve's optimal basic cells, zero-mass basic cells included
    // (for tests and diagnostics; builds a new vector).
    std::vector<EmdFlow> flows() const { return solver_.flows<EmdFlow>(); }

    // Optimal dual variables of the last solve: cost[i][j] - u[i] - v[j] >= 0
    // for every pair of kept points, with equality on the flows; NaN for
    // dropped (zero-weight) points.
    std::vector<double> source_potentials() const { return solver_.potentials(true); }
    std::vector<double> target_potentials() const { return solver_.potentials(false); }

private:
    friend double emd_from_cost(const double*, std::size_t, std::size_t, const double*, const double*,
                                EmdWorkspace&);

    detail::EmdSolver solver_;
};

// Minimum-cost transport between supplies a (n, >= 0) and demands b (m, >= 0)
// with row-major costs (n, m); a and b are normalised to sum 1 here (pass raw
// weights). Returns sum flow * cost. Throws std::invalid_argument for an empty
// side, negative or non-finite weights, an all-zero side or non-finite costs.
inline double emd_from_cost(const double* cost, std::size_t n, std::size_t m, const double* a, const double* b,
                            EmdWorkspace& ws) {
    return ws.solver_.solve(cost, n, m, a, b);
}

}  // namespace pyd2ke
