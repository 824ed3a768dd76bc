// The separable projection on the grid (density_project_grid) against the
// definition, node by node: sum over the nodes u of row(u) prod_d
// table[u_d, alpha_d], at every SIMD level this CPU runs; 1-3 dimensions,
// sides and basis counts straddling the vector widths and the kernels'
// blocks of 4, any subset of cells; a row alone gives the same bits as in
// a batch; bad arguments are refused.

#include <pyd2ke/pyd2ke.hpp>

#include "check.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <random>
#include <stdexcept>
#include <vector>

namespace {

std::size_t power(std::size_t base, std::size_t exponent) {
    std::size_t p = 1;
    for (std::size_t e = 0; e < exponent; ++e) p *= base;
    return p;
}

// The definition, and the sum of the absolute terms (the scale of rounding).
void reference(const double* row, std::size_t l, std::size_t side, const std::vector<double>& table, std::size_t m,
               std::int64_t cell, double scale, double& value, double& magnitude) {
    const std::size_t nodes = power(side, l);
    std::vector<std::size_t> alpha(l);
    for (std::size_t d = l, rest = static_cast<std::size_t>(cell); d-- > 0; rest /= m) alpha[d] = rest % m;
    value = magnitude = 0.0;
    for (std::size_t u = 0; u < nodes; ++u) {
        double term = row[u];
        for (std::size_t d = l, rest = u; d-- > 0; rest /= side) term *= table[(rest % side) * m + alpha[d]];
        value += term;
        magnitude += std::abs(term);
    }
    value *= scale;
    magnitude *= std::abs(scale);
}

void check_against_definition() {
    std::mt19937_64 rng(7);
    const std::size_t sides[] = {1, 2, 3, 7, 8, 9, 15, 16, 17, 33};
    std::size_t cases = 0;
    for (std::size_t l = 1; l <= 3; ++l)
        for (std::size_t side : sides) {
            if (power(side, l) > 5000) continue;
            for (std::size_t m : {std::size_t{1}, std::size_t{2}, std::size_t{4}, std::size_t{5}, side / 2 + 1, side}) {
                if (m > side || m == 0) continue;
                const std::size_t nodes = power(side, l), box = power(m, l);
                const std::size_t n_rows = 1 + rng() % 6;
                const std::vector<double> rows = pyd2ke_test::random_values<double>(rng, n_rows * nodes);
                const std::vector<double> table = pyd2ke_test::random_values<double>(rng, side * m);
                // Every cell of the box once, in a shuffled order, then a repeat.
                std::vector<std::int64_t> cells(box);
                for (std::size_t c = 0; c < box; ++c) cells[c] = static_cast<std::int64_t>(c);
                std::shuffle(cells.begin(), cells.end(), rng);
                cells.push_back(cells.front());
                const double scale = 0.37;
                for (pyd2ke::SimdLevel level : pyd2ke::supported_simd_levels()) {
                    std::vector<double> out(n_rows * cells.size());
                    pyd2ke::density_project_grid(rows.data(), n_rows, l, side, table.data(), m, cells.data(),
                                                 cells.size(), scale, out.data(), level);
                    for (std::size_t r = 0; r < n_rows; ++r) {
                        for (std::size_t v = 0; v < cells.size(); ++v) {
                            double value, magnitude;
                            reference(rows.data() + r * nodes, l, side, table, m, cells[v], scale, value, magnitude);
                            CHECK(std::abs(out[r * cells.size() + v] - value) <= 1e-14 * magnitude + 1e-300);
                        }
                        // A row alone: the same bits as in the batch.
                        std::vector<double> alone(cells.size());
                        pyd2ke::density_project_grid(rows.data() + r * nodes, 1, l, side, table.data(), m,
                                                     cells.data(), cells.size(), scale, alone.data(), level);
                        for (std::size_t v = 0; v < cells.size(); ++v) CHECK(alone[v] == out[r * cells.size() + v]);
                    }
                    ++cases;
                }
            }
        }
    std::printf("density_project_grid: %zu cases against the definition\n", cases);
}

void check_refusals() {
    const std::vector<double> row(16, 1.0), table(4 * 2, 1.0);
    std::vector<double> out(1);
    auto refused = [&](std::size_t l, std::size_t side, std::size_t m, std::int64_t cell) {
        return pyd2ke_test::throws_invalid_argument([&] {
            pyd2ke::density_project_grid(row.data(), 1, l, side, table.data(), m, &cell, 1, 1.0, out.data());
        });
    };
    CHECK(!refused(2, 4, 2, 3));
    CHECK(refused(2, 4, 2, 4));   // outside the box 2^2
    CHECK(refused(2, 4, 2, -1));
    CHECK(refused(2, 4, 5, 0));   // m > side
    CHECK(refused(0, 4, 2, 0));
    CHECK(refused(2, 0, 2, 0));
    CHECK(refused(2, 4, 0, 0));
}

}  // namespace

int main() {
    check_against_definition();
    check_refusals();
    return test_verdict();
}
