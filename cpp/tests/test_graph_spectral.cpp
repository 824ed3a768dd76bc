// The symmetric eigensolver on random matrices of sizes straddling the
// dot products' 4-wide blocks (residual, orthonormality, ascending order)
// and on degenerate spectra (zero, identity, complete graph, star, path,
// disconnected graph with isolated nodes); the spectral node embeddings
// against the same eigensolver's output read directly, for any thread count.

#include <pyd2ke/pyd2ke.hpp>

#include "check.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using Matrix = std::vector<double>;  // n x n, row-major

struct Eigen {
    std::vector<double> values;
    Matrix vectors;  // row k: eigenvector k
};

Eigen solve(Matrix a, std::size_t n) {
    Eigen out{std::vector<double>(n), Matrix(n * n)};
    pyd2ke::detail::SymmetricEigensolver solver;
    pyd2ke::detail::symmetric_eigen(a.data(), n, out.values.data(), out.vectors.data(), solver);
    return out;
}

double max_abs(const Matrix& a) {
    double m = 0.0;
    for (double x : a) m = std::max(m, std::fabs(x));
    return m;
}

// Largest ||A v - lambda v|| over eigenpairs, relative to n max |a_ij|
// (computed on A scaled to max |a_ij| = 1: no overflow at 1e200), and largest
// |V V^T - I| entry; checks ascending order.
void check_decomposition(const Matrix& a, std::size_t n, const Eigen& e, double tolerance) {
    const double largest = max_abs(a) > 0.0 ? max_abs(a) : 1.0;
    double residual = 0.0, orthogonality = 0.0;
    for (std::size_t k = 0; k < n; ++k) {
        const double* v = &e.vectors[k * n];
        const double lambda = e.values[k] / largest;
        double norm = 0.0;
        for (std::size_t i = 0; i < n; ++i) {
            double av = 0.0;
            for (std::size_t j = 0; j < n; ++j) av += a[i * n + j] / largest * v[j];
            norm += (av - lambda * v[i]) * (av - lambda * v[i]);
        }
        residual = std::max(residual, std::sqrt(norm) / static_cast<double>(n));
        for (std::size_t l = 0; l < n; ++l) {
            double dot = 0.0;
            for (std::size_t i = 0; i < n; ++i) dot += v[i] * e.vectors[l * n + i];
            orthogonality = std::max(orthogonality, std::fabs(dot - (k == l ? 1.0 : 0.0)));
        }
        if (k > 0) CHECK(e.values[k - 1] <= e.values[k]);
    }
    CHECK(residual <= tolerance);
    CHECK(orthogonality <= tolerance * static_cast<double>(n));
    if (residual > tolerance || orthogonality > tolerance * static_cast<double>(n))
        std::printf("  n = %zu: residual %.3g, orthogonality %.3g\n", n, residual, orthogonality);
}

Matrix random_symmetric(std::mt19937_64& rng, std::size_t n, double magnitude) {
    const std::vector<double> x = pyd2ke_test::random_values<double>(rng, n * n);
    Matrix a(n * n);
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < n; ++j) a[i * n + j] = magnitude * (x[i * n + j] + x[j * n + i]);
    return a;
}

void test_random_matrices() {
    std::mt19937_64 rng(7);
    for (std::size_t n : {1, 2, 3, 7, 8, 9, 15, 16, 17, 63, 64, 65, 130, 300}) {
        for (double magnitude : {1.0, 1e-200, 1e200}) {
            const Matrix a = random_symmetric(rng, n, magnitude);
            check_decomposition(a, n, solve(a, n), 1e-14);
        }
    }
}

Matrix from_edges(std::size_t n, const std::vector<std::pair<std::size_t, std::size_t>>& edges) {
    Matrix a(n * n, 0.0);
    for (auto [i, j] : edges) a[i * n + j] = a[j * n + i] = 1.0;
    return a;
}

Matrix laplacian_of(const Matrix& a, std::size_t n) {
    std::vector<double> s(n, 0.0);
    for (std::size_t i = 0; i < n; ++i) {
        double degree = 0.0;
        for (std::size_t j = 0; j < n; ++j) degree += a[i * n + j];
        s[i] = degree > 0.0 ? 1.0 / std::sqrt(degree) : 0.0;
    }
    Matrix l(n * n);
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < n; ++j) l[i * n + j] = (i == j ? 1.0 : 0.0) - s[i] * a[i * n + j] * s[j];
    return l;
}

// Expected eigenvalues (ascending) of a degenerate case, to 1e-13.
void check_values(const Eigen& e, const std::vector<double>& expected) {
    CHECK(e.values.size() == expected.size());
    for (std::size_t k = 0; k < expected.size() && k < e.values.size(); ++k)
        CHECK(std::fabs(e.values[k] - expected[k]) <= 1e-13);
}

void test_degenerate_spectra() {
    for (std::size_t n : {1, 2, 5, 64}) {
        const Matrix zero(n * n, 0.0);
        const Eigen e = solve(zero, n);
        check_decomposition(zero, n, e, 1e-15);
        check_values(e, std::vector<double>(n, 0.0));
        Matrix identity(n * n, 0.0);
        for (std::size_t i = 0; i < n; ++i) identity[i * n + i] = 1.0;
        check_decomposition(identity, n, solve(identity, n), 1e-15);
        check_values(solve(identity, n), std::vector<double>(n, 1.0));
    }
    {  // complete graph K_n: Laplacian eigenvalues 0 and n / (n - 1) (n - 1 times)
        const std::size_t n = 9;
        std::vector<std::pair<std::size_t, std::size_t>> edges;
        for (std::size_t i = 0; i < n; ++i)
            for (std::size_t j = i + 1; j < n; ++j) edges.emplace_back(i, j);
        const Matrix l = laplacian_of(from_edges(n, edges), n);
        const Eigen e = solve(l, n);
        check_decomposition(l, n, e, 1e-14);
        std::vector<double> expected(n, 9.0 / 8.0);
        expected[0] = 0.0;
        check_values(e, expected);
        const Matrix a = from_edges(n, edges);  // adjacency: -1 (n - 1 times) and n - 1
        std::vector<double> adjacency(n, -1.0);
        adjacency[n - 1] = 8.0;
        check_values(solve(a, n), adjacency);
    }
    {  // star of 7 nodes: Laplacian 0, 1 (5 times), 2
        std::vector<std::pair<std::size_t, std::size_t>> edges;
        for (std::size_t j = 1; j < 7; ++j) edges.emplace_back(0, j);
        const Matrix l = laplacian_of(from_edges(7, edges), 7);
        const Eigen e = solve(l, 7);
        check_decomposition(l, 7, e, 1e-14);
        check_values(e, {0.0, 1.0, 1.0, 1.0, 1.0, 1.0, 2.0});
    }
    {  // path of 6 nodes: adjacency eigenvalues 2 cos(k pi / 7)
        std::vector<std::pair<std::size_t, std::size_t>> edges;
        for (std::size_t j = 0; j + 1 < 6; ++j) edges.emplace_back(j, j + 1);
        const Matrix a = from_edges(6, edges);
        const Eigen e = solve(a, 6);
        check_decomposition(a, 6, e, 1e-14);
        std::vector<double> expected;
        for (int k = 6; k >= 1; --k) expected.push_back(2.0 * std::cos(k * 3.14159265358979323846 / 7.0));
        check_values(e, expected);
    }
    {  // two triangles, an edge and two isolated nodes: Laplacian 0 (per connected component),
       // 1 (per isolated node: its row of D^-1/2 A D^-1/2 is zero), 1.5 (twice per triangle), 2 (the edge)
        const Matrix a = from_edges(10, {{0, 1}, {1, 2}, {0, 2}, {3, 4}, {4, 5}, {3, 5}, {6, 7}});
        const Matrix l = laplacian_of(a, 10);
        const Eigen e = solve(l, 10);
        check_decomposition(l, 10, e, 1e-14);
        check_values(e, {0.0, 0.0, 0.0, 1.0, 1.0, 1.5, 1.5, 1.5, 1.5, 2.0});
        check_decomposition(a, 10, solve(a, 10), 1e-14);
    }
}

void test_non_finite_input_throws() {
    Matrix a(9, 1.0);
    a[4] = std::nan("");
    bool threw = false;
    try {
        solve(a, 3);
    } catch (const std::runtime_error&) {
        threw = true;
    }
    CHECK(threw);
}

// Graphs of 1 .. 40 nodes (some above max_nodes), packed; the embedding's
// columns against the eigensolver's output read directly.
void test_embeddings() {
    std::mt19937_64 rng(11);
    std::uniform_real_distribution<double> uniform(0.0, 1.0);
    std::vector<std::int64_t> node_offsets{0}, edge_offsets{0}, rows, cols;
    std::vector<double> weights;
    std::vector<std::size_t> sizes;
    for (std::size_t g = 0; g < 120; ++g) {
        const std::size_t n = 1 + g % 40;
        Matrix a(n * n, 0.0);
        for (std::size_t i = 0; i < n; ++i)
            for (std::size_t j = i + 1; j < n; ++j)
                if (uniform(rng) < 0.3) a[i * n + j] = a[j * n + i] = 0.5 + uniform(rng);
        if (g % 7 == 0 && n > 3) a[1] = a[n] = 0.0;  // sometimes an isolated pair
        for (std::size_t i = 0; i < n; ++i)
            for (std::size_t j = 0; j < n; ++j)
                if (a[i * n + j] != 0.0) {
                    rows.push_back(static_cast<std::int64_t>(i));
                    cols.push_back(static_cast<std::int64_t>(j));
                    weights.push_back(a[i * n + j]);
                }
        sizes.push_back(n);
        node_offsets.push_back(node_offsets.back() + static_cast<std::int64_t>(n));
        edge_offsets.push_back(static_cast<std::int64_t>(rows.size()));
    }
    const pyd2ke::PackedGraphs graphs{node_offsets.data(), edge_offsets.data(), sizes.size(), rows.data(),
                                      cols.data(),         weights.data(),      rows.size()};
    const std::size_t width = 6, total = static_cast<std::size_t>(node_offsets.back()), max_nodes = 30;
    for (auto matrix : {pyd2ke::GraphMatrix::laplacian, pyd2ke::GraphMatrix::adjacency}) {
        std::vector<double> one(total * width, -1.0), four(total * width, -1.0);
        pyd2ke::graph_spectral_embeddings(graphs, matrix, max_nodes, 1e-8, one.data(), width, 1);
        pyd2ke::graph_spectral_embeddings(graphs, matrix, max_nodes, 1e-8, four.data(), width, 4);
        CHECK(one == four);
        for (std::size_t g = 0; g < sizes.size(); ++g) {
            const std::size_t n = sizes[g], base = static_cast<std::size_t>(node_offsets[g]);
            if (n > max_nodes) {  // skipped: left as they were
                for (std::size_t k = 0; k < n * width; ++k) CHECK(one[base * width + k] == -1.0);
                continue;
            }
            Matrix a(n * n, 0.0);
            for (auto e = edge_offsets[g]; e < edge_offsets[g + 1]; ++e)
                a[static_cast<std::size_t>(rows[e]) * n + static_cast<std::size_t>(cols[e])] = weights[e];
            const bool laplacian = matrix == pyd2ke::GraphMatrix::laplacian;
            const Eigen e = solve(laplacian ? laplacian_of(a, n) : a, n);
            const double tolerance = 1e-8 * std::max({1.0, std::fabs(e.values[0]), std::fabs(e.values[n - 1])});
            for (std::size_t j = 0; j < width; ++j) {
                for (std::size_t node = 0; node < n; ++node) {
                    double expected = 0.0;
                    if (j < n) {
                        const double lambda = e.values[laplacian ? j : n - 1 - j];
                        double energy = 0.0;
                        std::size_t m = 0;
                        for (std::size_t q = 0; q < n; ++q)
                            if (std::fabs(e.values[q] - lambda) <= tolerance) {
                                energy += e.vectors[q * n + node] * e.vectors[q * n + node];
                                ++m;
                            }
                        expected = std::sqrt(energy / static_cast<double>(m));
                    }
                    CHECK(std::fabs(one[(base + node) * width + j] - expected) <= 1e-12);
                }
            }
        }
    }
    // An edge outside its graph is refused, naming it.
    std::vector<std::int64_t> bad_rows = rows;
    bad_rows[0] = 1000;  // no graph has 1000 nodes
    const pyd2ke::PackedGraphs bad{node_offsets.data(), edge_offsets.data(), sizes.size(), bad_rows.data(),
                                   cols.data(),         weights.data(),      rows.size()};
    std::vector<double> out(total * width);
    bool threw = false;
    try {
        pyd2ke::graph_spectral_embeddings(bad, pyd2ke::GraphMatrix::laplacian, max_nodes, 1e-8, out.data(), width, 2);
    } catch (const std::invalid_argument&) {
        threw = true;
    }
    CHECK(threw);
}

}  // namespace

int main() {
    test_random_matrices();
    test_degenerate_spectra();
    test_non_finite_input_throws();
    test_embeddings();
    return test_verdict();
}
