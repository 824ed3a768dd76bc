// Differential tests: pairwise DTW (with and without a window) and the SIMD
// lane kernels at every ISA this CPU runs, float and double, against the
// double-precision reference DP; every entry point at once (entry_points.hpp).

#include <pyd2ke/pyd2ke.hpp>

#include "check.hpp"
#include "distance_entry_points.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <stdexcept>
#include <vector>

namespace {

using pyd2ke_test::random_values;

void test_pairs() {
    std::mt19937_64 rng(1);
    for (int round = 0; round < 3000; ++round) {
        const std::size_t c = 1 + rng() % 5, n = 1 + rng() % 70, m = 1 + rng() % 70;
        const long window = round % 3 == 0 ? -1 : static_cast<long>(rng() % 6);
        const auto x = random_values<double>(rng, n * c), y = random_values<double>(rng, m * c);
        const pyd2ke::SeriesView<double> a(x.data(), n, c), b(y.data(), m, c);
        const std::vector<double> ref =
            pyd2ke_test::dtw_entry_points<double>(window, {1e-12, 1e-12}).check(a, {b}, "round " + std::to_string(round));
        CHECK(std::isfinite(ref[0]));
    }
    // A known value, from every entry point.
    const double p[] = {0, 0, 3, 4}, q[] = {0, 0};
    const auto entry_points = pyd2ke_test::dtw_entry_points<double>(-1, pyd2ke_test::kSameBits);
    CHECK(entry_points.check(pyd2ke::SeriesView<double>(p, 2, 2), {pyd2ke::SeriesView<double>(q, 1, 2)})[0] == 5.0);
    bool threw = false;
    try {
        pyd2ke::dtw(pyd2ke::SeriesView<double>(p, 0, 2), pyd2ke::SeriesView<double>(q, 1, 2));
    } catch (const std::invalid_argument&) {
        threw = true;
    }
    CHECK(threw);
}

// Random sets of short series (channels, lengths and windows vary) against
// one longer series.
template <class T>
void test_batch(double rtol) {
    std::mt19937_64 rng(11);
    for (int round = 0; round < 150; ++round) {
        const std::size_t c = 1 + rng() % 6, r = 1 + rng() % 80;
        const long window = round % 3 == 0 ? static_cast<long>(rng() % 5) : -1;
        std::vector<std::vector<T>> storage(r);
        std::vector<pyd2ke::SeriesView<T>> random_series;
        for (auto& s : storage) s = random_values<T>(rng, (1 + rng() % 12) * c);
        for (auto& s : storage) random_series.emplace_back(s.data(), s.size() / c, c);
        const std::size_t n = 1 + rng() % 60;
        const auto x = random_values<T>(rng, n * c);
        pyd2ke_test::dtw_entry_points<T>(window, {rtol, rtol})
            .check(pyd2ke::SeriesView<T>(x.data(), n, c), random_series, "round " + std::to_string(round));
    }
}

// Series of every boundary length (lanes of 2 to 16 values, groups of 4
// registers) against each other, one and three channels.
template <class T>
void test_boundary_lengths(double rtol) {
    std::mt19937_64 rng(13);
    for (std::size_t c : {1, 3})
        for (long window : {-1L, 0L, 5L}) {
            const auto entry_points = pyd2ke_test::dtw_entry_points<T>(window, {rtol, rtol});
            std::vector<std::vector<T>> storage;
            for (std::size_t length : pyd2ke_test::kEdgeLengths)
                if (length > 0) storage.push_back(random_values<T>(rng, length * c));
            std::vector<pyd2ke::SeriesView<T>> series;
            for (const auto& s : storage) series.emplace_back(s.data(), s.size() / c, c);
            for (const auto& x : series)
                entry_points.check(x, series, std::to_string(x.length) + " steps of " + std::to_string(c));
        }
}

}  // namespace

int main() {
    test_pairs();
    pyd2ke_test::print_simd_levels("DTW entry points");
    test_batch<double>(1e-12);
    test_batch<float>(1e-4);
    test_boundary_lengths<double>(1e-12);
    test_boundary_lengths<float>(1e-4);
    return test_verdict();
}
