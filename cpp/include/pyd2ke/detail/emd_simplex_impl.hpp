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
// body (emd_simplex_body.inl) is compiled twice on x86: for the build's
// baseline (2 lanes of doubles with SSE2) and for AVX2 (4 lanes), in the
// namespaces emd_portable and emd_avx2; emd_from_cost picks one at run time.
//
// All memory lives in the object: reuse one per thread and the steady state
// makes no allocation.

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <utility>
#include <vector>

#include "../core/config.hpp"
#include "../core/cpu_features.hpp"

#if PYD2KE_HAS_VECTOR_EXTENSIONS && defined(__GNUC__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpsabi"
#endif

namespace pyd2ke::detail::emd_portable {
#if defined(__AVX__)
#define PYD2KE_EMD_LANE_BYTES 32
#else
#define PYD2KE_EMD_LANE_BYTES 16
#endif
#include "emd_simplex_body.inl"
#undef PYD2KE_EMD_LANE_BYTES
}  // namespace pyd2ke::detail::emd_portable

// The same code for AVX2, unless the whole build already targets it.
#if PYD2KE_X86_DISPATCH && !defined(__AVX2__)
#define PYD2KE_EMD_AVX2_BUILD 1
#if defined(__clang__)
#pragma clang attribute push(__attribute__((target("avx2,fma"))), apply_to = function)
#else
#pragma GCC push_options
#pragma GCC target("avx2,fma")
#endif
namespace pyd2ke::detail::emd_avx2 {
#define PYD2KE_EMD_LANE_BYTES 32
#include "emd_simplex_body.inl"
#undef PYD2KE_EMD_LANE_BYTES
}  // namespace pyd2ke::detail::emd_avx2
#if defined(__clang__)
#pragma clang attribute pop
#else
#pragma GCC pop_options
#endif
#else
#define PYD2KE_EMD_AVX2_BUILD 0
#endif

#if PYD2KE_HAS_VECTOR_EXTENSIONS && defined(__GNUC__)
#pragma GCC diagnostic pop
#endif
