// Timing of emd_from_cost on the D2KE word-mover shapes (not part of ctest):
//   g++ -O3 -std=c++17 -I cpp/include cpp/tests/bench_emd.cpp -o /tmp/bench_emd
//   /tmp/bench_emd [problems=400] [d=50] [simd level=auto]
// Euclidean costs between Gaussian points, n uniform in 50..200 and m uniform
// in 1..21 (and 1..6), random positive weights and uniform weights; prints the
// median (and best) over runs of the mean time per solve, and the mean number
// of pivots. The problems (a few MB) stay in the last-level cache, as a
// freshly computed cost matrix would.

#include <pyd2ke/distance/emd.hpp>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <vector>

namespace {

struct Problem {
    std::size_t n, m;
    std::vector<double> cost, a, b;
};

Problem random_problem(std::mt19937_64& rng, std::size_t n, std::size_t m, std::size_t d,
                       bool uniform_weights = false) {
    std::normal_distribution<double> normal;
    std::uniform_real_distribution<double> uniform(0.1, 1.0);
    std::vector<double> x(n * d), y(m * d);
    for (auto& v : x) v = normal(rng);
    for (auto& v : y) v = normal(rng);
    Problem p{n, m, std::vector<double>(n * m), std::vector<double>(n), std::vector<double>(m)};
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < m; ++j) {
            double s = 0;
            for (std::size_t k = 0; k < d; ++k) s += (x[i * d + k] - y[j * d + k]) * (x[i * d + k] - y[j * d + k]);
            p.cost[i * m + j] = std::sqrt(s);
        }
    for (auto& v : p.a) v = uniform_weights ? 1.0 : uniform(rng);
    for (auto& v : p.b) v = uniform_weights ? 1.0 : uniform(rng);
    return p;
}

struct Timing {
    double median_us, best_us, mean_pivots, checksum;
};

Timing time_per_solve(const std::vector<Problem>& problems, pyd2ke::EmdWorkspace& ws, int runs) {
    std::vector<double> times;
    Timing t{};
    for (int r = 0; r < runs; ++r) {
        std::size_t pivots = 0;
        double checksum = 0;
        const auto start = std::chrono::steady_clock::now();
        for (const auto& p : problems) {
            checksum += pyd2ke::emd_from_cost(p.cost.data(), p.n, p.m, p.a.data(), p.b.data(), ws);
            pivots += ws.pivots();
        }
        const auto stop = std::chrono::steady_clock::now();
        times.push_back(std::chrono::duration<double, std::micro>(stop - start).count() / problems.size());
        t.mean_pivots = static_cast<double>(pivots) / problems.size();
        t.checksum = checksum;
    }
    std::sort(times.begin(), times.end());
    t.median_us = times[times.size() / 2];
    t.best_us = times[0];
    return t;
}

void bench_shape(std::size_t n_lo, std::size_t n_hi, std::size_t m_lo, std::size_t m_hi, std::size_t count,
                 std::size_t d, int runs, bool uniform_weights, pyd2ke::SimdLevel level) {
    std::mt19937_64 rng(7);
    std::vector<Problem> problems;
    for (std::size_t k = 0; k < count; ++k) {
        const std::size_t n = n_lo + rng() % (n_hi - n_lo + 1), m = m_lo + rng() % (m_hi - m_lo + 1);
        problems.push_back(random_problem(rng, n, m, d, uniform_weights));
    }
    pyd2ke::EmdWorkspace ws(level);
    const Timing t = time_per_solve(problems, ws, runs);
    std::printf("n %4zu..%-4zu m %4zu..%-4zu %-7s weights: %10.2f us/solve (best %.2f)  %7.1f pivots"
                "  (checksum %.6f)\n",
                n_lo, n_hi, m_lo, m_hi, uniform_weights ? "uniform" : "random", t.median_us, t.best_us, t.mean_pivots,
                t.checksum);
}

}  // namespace

int main(int argc, char** argv) {
    const std::size_t count = argc > 1 ? std::strtoul(argv[1], nullptr, 10) : 400;
    const std::size_t d = argc > 2 ? std::strtoul(argv[2], nullptr, 10) : 50;
    const pyd2ke::SimdLevel level =
        pyd2ke::require_simd_level(pyd2ke::simd_level_from_name(argc > 3 ? argv[3] : "auto"));
    for (bool uniform : {false, true}) {
        bench_shape(50, 200, 1, 21, count, d, 9, uniform, level);
        bench_shape(50, 200, 1, 6, count, d, 9, uniform, level);
        bench_shape(125, 125, 11, 11, count, d, 9, uniform, level);
    }
    bench_shape(500, 500, 50, 50, 10, d, 3, false, level);
    bench_shape(1000, 1000, 1000, 1000, 1, d, 1, false, level);
    return 0;
}
