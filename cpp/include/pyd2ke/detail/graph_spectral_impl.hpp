#pragma once
// The algorithm behind embed/graph_spectral.hpp: per graph, its dense
// matrix, its eigenvalues (symmetric_eigen_impl.hpp), the eigenvectors of
// the eigenspaces the columns ask for, and the basis-free columns, in
// buffers sized once per block of graphs.

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "symmetric_eigen_impl.hpp"

namespace pyd2ke::detail {

class GraphSpectralWorkspace {
public:
    explicit GraphSpectralWorkspace(std::size_t max_nodes)
        : matrix_(max_nodes * max_nodes), vectors_(max_nodes * max_nodes), energy_(max_nodes) {}

    // Writes the n rows of one graph (n <= max_nodes) into out (row stride
    // width; columns 0 .. width - 1). The edges are local (row, col, weight)
    // triples; an index outside 0 .. n - 1 throws std::invalid_argument.
    void embed(std::size_t n, const std::int64_t* rows, const std::int64_t* cols, const double* weights,
               std::size_t n_edges, bool laplacian, double eigen_rtol, double* out, std::size_t width) {
        double* a = matrix_.data();
        std::fill(a, a + n * n, 0.0);
        for (std::size_t k = 0; k < n_edges; ++k) {
            const std::int64_t r = rows[k], c = cols[k];  // read once: checked, then used
            if (r < 0 || c < 0 || r >= static_cast<std::int64_t>(n) || c >= static_cast<std::int64_t>(n))
                throw std::invalid_argument("graph_spectral_embeddings: edge (" + std::to_string(r) + ", " +
                                            std::to_string(c) + ") of a graph of " + std::to_string(n) + " nodes");
            a[static_cast<std::size_t>(r) * n + static_cast<std::size_t>(c)] = weights[k];
        }
        if (laplacian) normalised_laplacian(a, n);
        solver_.solve(a, n);
        write_columns(n, !laplacian, eigen_rtol, out, width);
    }

private:
    // I - D^-1/2 A D^-1/2 in place, an isolated node's D^-1/2 taken as 0;
    // rounded as the numpy code it replaces: (a_ij * -s_i) * s_j, then + 1.
    void normalised_laplacian(double* a, std::size_t n) {
        double* inverse_root = energy_.data();
        for (std::size_t i = 0; i < n; ++i) {
            double degree = 0.0;
            for (std::size_t j = 0; j < n; ++j) degree += a[i * n + j];
            inverse_root[i] = degree > 0.0 ? 1.0 / std::sqrt(degree) : 0.0;
        }
        for (std::size_t i = 0; i < n; ++i) {
            const double si = -inverse_root[i];
            for (std::size_t j = 0; j < n; ++j) a[i * n + j] = a[i * n + j] * si * inverse_root[j];
            a[i * n + i] += 1.0;
        }
    }

    // Column j (j < width) of the n_eigenvectors smallest eigenvalues (the
    // largest when `largest`): sqrt(mean over the eigenvalue's eigenspace of
    // v_k[node]^2), which does not depend on the basis the solver picked in
    // it. Consecutive eigenvalues within eigen_rtol max(1, max |lambda|)
    // share an eigenspace (chained); columns beyond n are zero.
    void write_columns(std::size_t n, bool largest, double eigen_rtol, double* out, std::size_t width) {
        const double* values = solver_.values();
        const double scale = std::max({1.0, std::fabs(values[0]), std::fabs(values[n - 1])});
        const double tolerance = eigen_rtol * scale;
        auto same_space = [&](std::size_t k) { return std::fabs(values[k] - values[k - 1]) <= tolerance; };
        const std::size_t used = std::min(width, n);
        for (std::size_t node = 0; node < n; ++node)
            for (std::size_t j = used; j < width; ++j) out[node * width + j] = 0.0;
        if (used == 0) return;
        // The eigenvalues of the columns, [first, stop) in ascending order,
        // widened to whole eigenspaces; only their eigenvectors are computed.
        std::size_t first = largest ? n - used : 0, stop = largest ? n : used;
        while (first > 0 && same_space(first)) --first;
        while (stop < n && same_space(stop)) ++stop;
        solver_.vectors(first, stop, vectors_.data());
        std::size_t j = 0;
        while (j < used) {
            // The eigenspace of column j, as eigenvalue indices [low, high).
            const std::size_t k = largest ? n - 1 - j : j;
            std::size_t low = k, high = k + 1;
            while (low > first && same_space(low)) --low;
            while (high < stop && same_space(high)) ++high;
            double* energy = energy_.data();
            std::fill(energy, energy + n, 0.0);
            for (std::size_t q = low; q < high; ++q) {
                const double* v = vectors_.data() + (q - first) * n;
                for (std::size_t node = 0; node < n; ++node) energy[node] += v[node] * v[node];
            }
            const double dimension = static_cast<double>(high - low);
            for (std::size_t node = 0; node < n; ++node) energy[node] = std::sqrt(energy[node] / dimension);
            // Every column of this eigenspace below `used`.
            const std::size_t columns_end = std::min(used, largest ? n - low : high);
            for (; j < columns_end; ++j)
                for (std::size_t node = 0; node < n; ++node) out[node * width + j] = energy[node];
        }
    }

    SymmetricEigensolver solver_;
    std::vector<double> matrix_, vectors_, energy_;
};

// The graphs of 1 .. max_nodes nodes (graph g has nodes[g + 1] - nodes[g]),
// largest first, in `order`, cut into blocks of about equal work at
// block_starts (order[block_starts[b]] .. order[block_starts[b + 1]]):
// the n^3 reduction, the QR's n^2 rotations (each a chain of dependent
// sqrt and division) and a little per graph. The threads finish together,
// and a block sizes its buffers once, for its first graph.
inline void largest_first_blocks(const std::int64_t* nodes, std::size_t n_graphs, std::size_t max_nodes,
                                 std::vector<std::size_t>& order, std::vector<std::size_t>& block_starts) {
    auto size_of = [&](std::size_t g) { return static_cast<std::size_t>(nodes[g + 1] - nodes[g]); };
    order.clear();
    for (std::size_t g = 0; g < n_graphs; ++g)
        if (size_of(g) >= 1 && size_of(g) <= max_nodes) order.push_back(g);
    std::stable_sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) { return size_of(x) > size_of(y); });
    auto work_of = [&](std::size_t g) {
        const double n = static_cast<double>(size_of(g));
        return n * n * n + 128.0 * n * n + 2048.0;
    };
    double total = 0.0;
    for (std::size_t g : order) total += work_of(g);
    const double block_work = std::max(total / 512.0, 65536.0);
    block_starts.assign(1, 0);
    double in_block = 0.0;
    for (std::size_t i = 0; i < order.size(); ++i) {
        if (in_block >= block_work) {
            block_starts.push_back(i);
            in_block = 0.0;
        }
        in_block += work_of(order[i]);
    }
    if (!order.empty()) block_starts.push_back(order.size());
}

}  // namespace pyd2ke::detail
