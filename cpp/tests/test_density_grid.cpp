// The grid density estimate of sample sets (kde_on_grid) against the direct
// formula: every 1-D Gaussian evaluated node by node within 6 bandwidths of
// the point's nearest node, folded at the faces (reflect) or dropped; set
// sizes straddling SIMD and word sizes, 1-3 dimensions, bandwidths on both
// sides of the recurrence's limit, points outside the cube.

#include <pyd2ke/pyd2ke.hpp>

#include "check.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <stdexcept>
#include <vector>

namespace {

const std::size_t kSizes[] = {1, 7, 8, 9, 15, 16, 17, 63, 64, 65, 130};

std::vector<double> direct_density(const double* points, std::size_t n, std::size_t l, double h, std::size_t side,
                                   bool reflect) {
    std::size_t cells = 1;
    for (std::size_t d = 0; d < l; ++d) cells *= side;
    std::vector<double> total(cells, 0.0);
    // 6 bandwidths in node spacings, rounded up, computed as the core does (at
    // 6 side h = 12 exactly, say, another rounding could add a node).
    const auto reach = static_cast<long>(std::ceil(6.0 / (1.0 / (static_cast<double>(side) * h))));
    const long S = static_cast<long>(side);
    for (std::size_t i = 0; i < n; ++i) {
        std::vector<std::vector<double>> f(l, std::vector<double>(side, 0.0));
        for (std::size_t d = 0; d < l; ++d) {
            const double x = points[i * l + d];
            const long nearest = std::lround(std::nearbyint(x * static_cast<double>(side) - 0.5));
            for (long node = nearest - reach; node <= nearest + reach; ++node) {
                const double u = ((static_cast<double>(node) + 0.5) / static_cast<double>(side) - x) / h;
                const double value = std::exp(-0.5 * u * u) / (std::sqrt(2.0 * 3.14159265358979323846) * h);
                if (reflect) {
                    long m = ((node % (2 * S)) + 2 * S) % (2 * S);
                    f[d][static_cast<std::size_t>(m >= S ? 2 * S - 1 - m : m)] += value;
                } else if (node >= 0 && node < S) {
                    f[d][static_cast<std::size_t>(node)] += value;
                }
            }
        }
        for (std::size_t c = 0; c < cells; ++c) {
            double p = 1.0;
            std::size_t rest = c;
            for (std::size_t d = l; d-- > 0;) {
                p *= f[d][rest % side];
                rest /= side;
            }
            total[c] += p;
        }
    }
    for (double& v : total) v /= static_cast<double>(n);
    return total;
}

void test_against_the_direct_formula() {
    std::mt19937_64 rng(5);
    std::uniform_real_distribution<double> coordinate(-0.2, 1.2);
    for (std::size_t l = 1; l <= 3; ++l)
        for (double h : {0.0004, 0.05, 0.4})
            for (bool reflect : {true, false}) {
                const std::size_t side = l == 1 ? 40 : (l == 2 ? 12 : 5);
                std::vector<double> values;
                std::vector<std::int64_t> offsets{0};
                for (std::size_t n : kSizes) {
                    for (std::size_t k = 0; k < n * l; ++k) values.push_back(coordinate(rng));
                    offsets.push_back(offsets.back() + static_cast<std::int64_t>(n));
                }
                const std::size_t n_sets = offsets.size() - 1;
                std::size_t cells = 1;
                for (std::size_t d = 0; d < l; ++d) cells *= side;
                std::vector<double> out(n_sets * cells);
                pyd2ke::kde_on_grid(values.data(), l, offsets.data(), n_sets, h, side, reflect, out.data());
                for (std::size_t s = 0; s < n_sets; ++s) {
                    const auto first = static_cast<std::size_t>(offsets[s]);
                    const auto n = static_cast<std::size_t>(offsets[s + 1]) - first;
                    const auto expected = direct_density(values.data() + first * l, n, l, h, side, reflect);
                    // Relative to the set's largest value: far below it (exp(-450) with a
                    // bandwidth far below the spacing) exp magnifies the rounding of its argument.
                    double peak = 0.0;
                    for (double v : expected) peak = std::max(peak, v);
                    for (std::size_t c = 0; c < cells; ++c)
                        CHECK(std::abs(out[s * cells + c] - expected[c]) <= 1e-12 * peak);
                    // A set alone gives the same bits as in the block.
                    std::vector<double> alone(cells);
                    const std::int64_t bounds[2] = {0, static_cast<std::int64_t>(n)};
                    pyd2ke::kde_on_grid(values.data() + first * l, l, bounds, 1, h, side, reflect, alone.data());
                    for (std::size_t c = 0; c < cells; ++c) CHECK(alone[c] == out[s * cells + c]);
                }
            }
}

// With reflect, a point and its mirror images give one density (bit for bit
// where the fold is exact); without, a point far outside gives none. Points
// far outside the cube (2^70) must not overflow the node arithmetic.
void test_points_outside_the_cube() {
    const std::size_t side = 16;
    auto density = [&](double x, bool reflect) {
        const double points[2] = {x, 0.5};
        const std::int64_t bounds[2] = {0, 1};
        std::vector<double> out(side * side);
        pyd2ke::kde_on_grid(points, 2, bounds, 1, 0.05, side, reflect, out.data());
        return out;
    };
    const auto inside = density(0.375, true);
    for (double image : {-0.375, 2.375, 1.625, -1.625, 4.375})
        CHECK(density(image, true) == inside);
    CHECK(density(std::ldexp(1.0, 70), true) == density(0.0, true));
    for (double far : {std::ldexp(1.0, 70), -std::ldexp(1.0, 70), 3.0, -2.0})
        for (double v : density(far, false)) CHECK(v == 0.0);
}

void test_bad_arguments() {
    const double points[2] = {0.5, 0.5};
    const std::int64_t empty_set[3] = {0, 0, 2};
    std::vector<double> out(2 * 10);
    bool raised = false;
    try {
        pyd2ke::kde_on_grid(points, 1, empty_set, 2, 0.1, 10, true, out.data());
    } catch (const std::invalid_argument&) {
        raised = true;
    }
    CHECK(raised);
    raised = false;
    const std::int64_t one_set[2] = {0, 2};
    try {
        pyd2ke::kde_on_grid(points, 1, one_set, 1, 0.0, 10, true, out.data());
    } catch (const std::invalid_argument&) {
        raised = true;
    }
    CHECK(raised);
    const std::int64_t one_point[2] = {0, 1};
    std::vector<double> grid(10 * 10);
    for (double h : {1e6, 1e-200}) {  // over 2^20 nodes within reach; a normalisation that overflows
        raised = false;
        try {
            pyd2ke::kde_on_grid(points, 2, one_point, 1, h, 10, true, grid.data());
        } catch (const std::invalid_argument&) {
            raised = true;
        }
        CHECK(raised);
    }
}

}  // namespace

int main() {
    test_against_the_direct_formula();
    test_points_outside_the_cube();
    test_bad_arguments();
    return test_verdict();
}
