#pragma once
// Spectral node embeddings of many small graphs, the spectral part of
// RandomGraphEmbedding's node vectors (pyd2ke/_domains/graphs.py): for each
// graph of at most max_nodes nodes, the eigenvectors of its normalised
// Laplacian I - D^-1/2 A D^-1/2 (an isolated node's D^-1/2 is 0) for the
// n_eigenvectors smallest eigenvalues, or of its adjacency matrix A for the
// largest; within an eigenspace of dimension m, each column is
// sqrt(sum over the eigenspace of v[node]^2 / m), which does not depend on
// the basis; eigenvalues within eigen_rtol max(1, max |lambda|) of their
// neighbour are one eigenspace; zero columns beyond n nodes.
//
// Parallel over graphs, largest first in blocks of similar work, each graph
// computed alone: the rows do not depend on n_threads. Larger graphs are
// skipped (their rows are left as they are; Python computes them sparsely).

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <vector>

#include "../core/parallel.hpp"
#include "../detail/graph_spectral_impl.hpp"

namespace pyd2ke {

// Graphs packed as pyd2ke's Graphs class holds them: graph g has the nodes
// node_offsets[g] .. node_offsets[g + 1] (rows of the output minus
// node_offsets[0]) and the edges edge_offsets[g] .. edge_offsets[g + 1] of
// rows/cols (local node indices, every edge in both directions) and weights.
struct PackedGraphs {
    const std::int64_t* node_offsets;  // n_graphs + 1
    const std::int64_t* edge_offsets;  // n_graphs + 1
    std::size_t n_graphs;
    const std::int64_t* rows;
    const std::int64_t* cols;
    const double* weights;
    std::size_t n_edges;  // the length of rows, cols and weights
};

enum class GraphMatrix { laplacian, adjacency };

// out: (node_offsets[n_graphs] - node_offsets[0], n_eigenvectors) row-major.
inline void graph_spectral_embeddings(const PackedGraphs& graphs, GraphMatrix matrix, std::size_t max_nodes,
                                      double eigen_rtol, double* out, std::size_t n_eigenvectors, int n_threads) {
    const std::size_t n_graphs = graphs.n_graphs;
    const std::int64_t* nodes = graphs.node_offsets;
    const std::int64_t* edges = graphs.edge_offsets;
    if (!(eigen_rtol >= 0.0)) throw std::invalid_argument("graph_spectral_embeddings: eigen_rtol must be >= 0");
    if (nodes[0] < 0 || edges[0] < 0)
        throw std::invalid_argument("graph_spectral_embeddings: offsets must be non-negative");
    for (std::size_t g = 0; g < n_graphs; ++g)
        if (nodes[g + 1] < nodes[g] || edges[g + 1] < edges[g])
            throw std::invalid_argument("graph_spectral_embeddings: offsets must be non-decreasing");
    if (static_cast<std::uint64_t>(edges[n_graphs]) > graphs.n_edges)
        throw std::invalid_argument("graph_spectral_embeddings: edge offsets run past the edges");
    std::vector<std::size_t> order, block_starts;
    detail::largest_first_blocks(nodes, n_graphs, max_nodes, order, block_starts);
    const std::size_t n_blocks = block_starts.size() - 1;
    auto size_of = [&](std::size_t g) { return static_cast<std::size_t>(nodes[g + 1] - nodes[g]); };
    const std::int64_t base = nodes[0];
    const bool laplacian = matrix == GraphMatrix::laplacian;
    parallel_for_blocks(n_blocks, n_threads, 1, [&](std::size_t begin, std::size_t end) {
        for (std::size_t b = begin; b < end; ++b) {
            const std::size_t first = block_starts[b], stop = block_starts[b + 1];
            detail::GraphSpectralWorkspace workspace(size_of(order[first]));
            for (std::size_t i = first; i < stop; ++i) {
                const std::size_t g = order[i];
                const auto e0 = static_cast<std::size_t>(edges[g]), e1 = static_cast<std::size_t>(edges[g + 1]);
                workspace.embed(size_of(g), graphs.rows + e0, graphs.cols + e0, graphs.weights + e0, e1 - e0,
                                laplacian, eigen_rtol, out + static_cast<std::size_t>(nodes[g] - base) * n_eigenvectors,
                                n_eigenvectors);
            }
        }
    });
}

}  // namespace pyd2ke
