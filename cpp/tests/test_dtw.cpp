// Differential tests: pairwise DTW (with and without a window) and the SIMD
// lane kernels at every ISA this CPU runs, float and double, against the
// double-precision reference DP.

#include <pyd2ke/pyd2ke.hpp>

#include "check.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <stdexcept>
#include <vector>

namespace {

bool close(double a, double b, double rtol) { return std::abs(a - b) <= rtol * std::max(1.0, std::abs(b)); }

template <class T>
std::vector<T> random_values(std::mt19937_64& rng, std::size_t n) {
    std::normal_distribution<double> normal;
    std::vector<T> v(n);
    for (auto& x : v) x = static_cast<T>(normal(rng));
    return v;
}

void test_pairs() {
    std::mt19937_64 rng(1);
    for (int round = 0; round < 3000; ++round) {
        const std::size_t c = 1 + rng() % 5, n = 1 + rng() % 70, m = 1 + rng() % 70;
        const long window = round % 3 == 0 ? -1 : static_cast<long>(rng() % 6);
        const auto x = random_values<double>(rng, n * c), y = random_values<double>(rng, m * c);
        const pyd2ke::SeriesView<double> a(x.data(), n, c), b(y.data(), m, c);
        const double ref = pyd2ke::dtw_reference(a, b, window);
        CHECK(std::isfinite(ref));
        CHECK(close(pyd2ke::dtw(a, b, window), ref, 1e-12));
        CHECK(close(pyd2ke::dtw(b, a, window), ref, 1e-12));
    }
    const double p[] = {0, 0, 3, 4}, q[] = {0, 0};
    CHECK(pyd2ke::dtw(pyd2ke::SeriesView<double>(p, 2, 2), pyd2ke::SeriesView<double>(q, 1, 2)) == 5.0);
    bool threw = false;
    try {
        pyd2ke::dtw(pyd2ke::SeriesView<double>(p, 0, 2), pyd2ke::SeriesView<double>(q, 1, 2));
    } catch (const std::invalid_argument&) {
        threw = true;
    }
    CHECK(threw);
}

template <class T>
void test_batch(pyd2ke::SimdLevel level, double rtol) {
    std::mt19937_64 rng(11 + static_cast<int>(level));
    for (int round = 0; round < 150; ++round) {
        const std::size_t c = 1 + rng() % 6, r = 1 + rng() % 80;
        const long window = round % 3 == 0 ? static_cast<long>(rng() % 5) : -1;
        std::vector<std::vector<T>> storage(r);
        std::vector<pyd2ke::SeriesView<T>> random_series;
        for (auto& s : storage) s = random_values<T>(rng, (1 + rng() % 12) * c);
        for (auto& s : storage) random_series.emplace_back(s.data(), s.size() / c, c);
        const pyd2ke::DtwBatch<T> batch(random_series, window, level);
        const std::size_t n = 1 + rng() % 60;
        const auto x = random_values<T>(rng, n * c);
        const pyd2ke::SeriesView<T> xs(x.data(), n, c);
        std::vector<double> out(r);
        batch.distances(xs, out.data());
        for (std::size_t j = 0; j < r; ++j) CHECK(close(out[j], pyd2ke::dtw_reference(xs, random_series[j], window), rtol));
    }
}

}  // namespace

int main() {
    test_pairs();
    for (pyd2ke::SimdLevel level : pyd2ke::supported_simd_levels()) {
        std::printf("DTW lane kernels at SIMD level %s\n", pyd2ke::simd_level_name(level));
        test_batch<double>(level, 1e-12);
        test_batch<float>(level, 1e-4);
    }
    return test_verdict();
}
