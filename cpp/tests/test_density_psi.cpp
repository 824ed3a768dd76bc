// The psi functions of the density features (density_psi): the vector log
// of every SIMD level within one ulp of std::log over the floored
// densities' whole range (powers of two, both sides of sqrt(2), the floor,
// the largest double), and psi at every level against the portable build,
// on lengths straddling the vector widths.

#include <pyd2ke/pyd2ke.hpp>

#include "check.hpp"

#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <limits>
#include <random>
#include <stdexcept>
#include <vector>

namespace {

const std::size_t kLengths[] = {0, 1, 7, 8, 9, 15, 16, 17, 63, 64, 65, 130};

// Doubles between a and b (same sign).
std::int64_t ulps(double a, double b) {
    std::int64_t ia, ib;
    std::memcpy(&ia, &a, sizeof a);
    std::memcpy(&ib, &b, sizeof b);
    return ia > ib ? ia - ib : ib - ia;
}

void check_log() {
    std::mt19937_64 rng(3);
    std::uniform_real_distribution<double> exponent(-40.0, 300.0);
    std::vector<double> values;
    for (int i = 0; i < 20000; ++i) values.push_back(std::pow(10.0, exponent(rng)));
    for (int k = -1000; k <= 1000; k += 7) {
        values.push_back(std::ldexp(1.0, k));
        values.push_back(std::ldexp(std::sqrt(2.0), k));
        values.push_back(std::nextafter(std::ldexp(std::sqrt(2.0), k), 0.0));
        values.push_back(std::nextafter(std::ldexp(1.0, k), 0.0));
    }
    for (double v : {1.0, std::nextafter(1.0, 2.0), std::nextafter(1.0, 0.0), 1e-12, DBL_MIN, DBL_MAX, 2.0, 0.5, 3.0})
        values.push_back(v);
    const auto& table_levels = pyd2ke::supported_simd_levels();
    for (pyd2ke::SimdLevel level : table_levels) {
        const auto log_and_root = pyd2ke::detail::simd_table<pyd2ke::detail::DensityPsiKernel>(level).log_and_root;
        std::vector<double> logs(values.size()), roots(values.size());
        log_and_root(values.data(), values.size(), DBL_MIN, logs.data(), roots.data());
        std::int64_t worst = 0;
        for (std::size_t i = 0; i < values.size(); ++i) {
            const double expected = std::log(values[i]);
            const std::int64_t u = expected == 0.0 ? (logs[i] == 0.0 ? 0 : 99) : ulps(logs[i], expected);
            worst = u > worst ? u : worst;
            CHECK(u <= 1);
            CHECK(roots[i] == std::sqrt(values[i]));
        }
        std::printf("log at %s: at most %lld ulp from std::log over %zu values\n", pyd2ke::simd_level_name(level),
                    static_cast<long long>(worst), values.size());
        // Below the floor: the floor's log and root.
        const double low[3] = {0.0, 1e-300, -5.0};
        double l3[3], r3[3];
        log_and_root(low, 3, 1e-12, l3, r3);
        for (int i = 0; i < 3; ++i) CHECK(l3[i] == std::log(1e-12) || ulps(l3[i], std::log(1e-12)) <= 1);
        for (int i = 0; i < 3; ++i) CHECK(r3[i] == std::sqrt(1e-12));
    }
}

void check_psi_levels() {
    std::mt19937_64 rng(11);
    std::uniform_real_distribution<double> exponent(-15.0, 2.0);
    const double lambdas[3] = {0.2, 1.7, 6.0};
    for (std::size_t n : kLengths) {
        std::vector<double> F(2 * n);
        for (double& v : F) v = std::pow(10.0, exponent(rng));
        std::vector<double> reference(2 * 6 * n);
        pyd2ke::density_psi(F.data(), 2, n, lambdas, 3, 1e-12, reference.data(), pyd2ke::SimdLevel::scalar);
        for (pyd2ke::SimdLevel level : pyd2ke::supported_simd_levels()) {
            std::vector<double> out(2 * 6 * n);
            pyd2ke::density_psi(F.data(), 2, n, lambdas, 3, 1e-12, out.data(), level);
            // Within the rounding of the phases (up to 6 x 35 here: 1 ulp of
            // log F times lambda, and of the phase itself) times sqrt(F).
            for (std::size_t i = 0; i < out.size(); ++i) {
                const std::size_t set = i / (6 * n), node = i % n;
                CHECK(std::abs(out[i] - reference[i]) <= 1e-13 * std::sqrt(F[set * n + node]));
            }
        }
    }
    double out[2];
    const double f = 1.0;
    CHECK(pyd2ke_test::throws_invalid_argument(
        [&] { pyd2ke::density_psi(&f, 1, 1, lambdas, 1, 1e-310, out); }));  // a subnormal floor
}

}  // namespace

int main() {
    check_log();
    check_psi_levels();
    return test_verdict();
}
