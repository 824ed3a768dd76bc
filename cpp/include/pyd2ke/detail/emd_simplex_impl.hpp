#pragma once
// Transportation simplex: the network simplex specialised to the complete
// bipartite graph "rows (supplies) -> columns (demands)", in double
// precision. Tuned for many rows and few columns (the caller puts the
// longer side on the rows), but exact and terminating for any shape.
//
//  1. Dual warm start: two sweeps of coordinate ascent on the column
//     potentials v (dual_warm_start); each row then prefers the column
//     minimising c_ij - v_j, and the columns' loads come out nearly right.
//  2. Initial basic solution: rows in descending regret (second best minus
//     best reduced cost), each filled into its cheapest open columns. Every
//     allocation closes exactly one line, so the cells form a tree, and the
//     line a cell closes hangs from the cell's other end: the greedy writes
//     the parent pointers directly.
//  3. Pivots until no cell has a negative reduced cost. The basis is a
//     spanning tree stored as parent pointers with the flow of each edge at
//     its child. Only column potentials are stored (a row's potential follows
//     from the edge to its parent column), so a pivot costs O(cycle +
//     columns), never O(rows). Pricing: Dantzig's rule (most negative
//     reduced cost, one vectorised pass over the cells) up to 8192 cells,
//     which needs the fewest pivots; beyond, block search over rows. After a
//     long run of degenerate pivots Bland's rule takes over until the next
//     non-degenerate pivot, which rules out cycling.
//
// Vectorised with GCC/Clang vector extensions, with scalar fallbacks. The
// body (emd_simplex_simd.inl) is compiled per instruction set by
// core/simd_dispatch.hpp; the builds that pay are the portable one (2 lanes
// of doubles) and AVX2 (4 lanes), and the table of each SIMD level names one
// of them. The workspace reaches the simplex through TransportSolver: a few
// virtual calls per problem, the whole solve inside one build.
//
// All memory lives in the object: reuse one per thread and the steady state
// makes no allocation.

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <memory>
#include <stdexcept>
#include <utility>
#include <vector>

#include "../core/config.hpp"
#include "../core/cpu_features.hpp"
#include "../core/simd_dispatch.hpp"

namespace pyd2ke {
namespace detail {

// A basic cell of a solution: flow from a row (supply) to a column (demand).
struct TransportCell {
    std::size_t row, col;
    double flow;
};

// The transportation simplex of one instruction set.
class TransportSolver {
public:
    virtual ~TransportSolver() = default;

    // Sizes the problem; the caller then fills costs() (cell (i, j) at
    // [j * rows + i]), supplies() and demands(): all weights > 0, the two
    // sums equal up to rounding. Buffers only grow.
    virtual void reset(std::size_t rows, std::size_t cols) = 0;
    virtual double* costs() = 0;
    virtual double* supplies() = 0;
    virtual double* demands() = 0;
    // Replaces the costs by their square roots (for callers that fill in
    // squared Euclidean distances), in this build's lanes.
    virtual void take_square_roots() = 0;
    // Solves to optimality and returns sum flow * cost.
    virtual double solve() = 0;

    // Pivots of the last solve.
    virtual std::size_t pivots() const = 0;
    // Degenerate pivots in a row before Bland's rule takes over (tests).
    virtual void set_bland_after(std::size_t degenerate_pivots) = 0;
    // The rows + cols - 1 basic cells of the last solve.
    virtual void basic_cells(std::vector<TransportCell>& out) const = 0;
    // Optimal duals of the last solve: c_ij - u_i - v_j >= 0, = 0 on the basis.
    virtual double row_potential(std::size_t i) const = 0;
    virtual double col_potential(std::size_t j) const = 0;
};

// The simplex build of a SIMD level: simd_table<TransportSimplexTable>(level).make().
struct TransportSimplexTable {
    std::unique_ptr<TransportSolver> (*make)();
};

}  // namespace detail
}  // namespace pyd2ke

#define PYD2KE_SIMD_KERNEL_BODY "../detail/emd_simplex_simd.inl"
#include "../core/simd_dispatch.hpp"
