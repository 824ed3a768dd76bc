// Differential tests: the blocked Hausdorff / modified Hausdorff batch at
// every SIMD level this CPU runs, float and double, against the
// double-precision definition from differences; every entry point at once
// (entry_points.hpp).

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

bool close(double a, double b, double rtol) { return std::abs(a - b) <= rtol * std::max(1.0, std::abs(b)); }

template <class T>
std::vector<T> random_points(std::mt19937_64& rng, std::size_t n, std::size_t dim, bool integers) {
    std::normal_distribution<double> normal;
    std::vector<T> v(n * dim);
    for (auto& x : v) x = static_cast<T>(integers ? std::round(2 * normal(rng)) : normal(rng));
    return v;
}

template <class T>
void test_batch(double rtol) {
    std::mt19937_64 rng(7);
    // Set counts and sizes straddle the panel widths (8, 16, 32 points) and
    // the 6-row and 48-row blocks of the input.
    const std::size_t sizes[] = {1, 2, 5, 6, 7, 8, 9, 15, 16, 17, 47, 48, 49, 65, 130};
    for (int round = 0; round < 60; ++round) {
        const std::size_t dim = 1 + rng() % 40, n_sets = 1 + rng() % 12;
        const bool integers = round % 3 == 0;  // ties and duplicate points
        std::vector<std::vector<T>> storage;
        std::vector<pyd2ke::PointSetView<T>> sets;
        for (std::size_t j = 0; j < n_sets; ++j) {
            const std::size_t m = sizes[rng() % 15];
            storage.push_back(random_points<T>(rng, m, dim, integers));
            sets.emplace_back(storage.back().data(), m, dim);
        }
        for (pyd2ke::SetMetric metric : {pyd2ke::SetMetric::hausdorff, pyd2ke::SetMetric::modified_hausdorff}) {
            const auto entry_points = pyd2ke_test::hausdorff_entry_points<T>(metric, {rtol, rtol});
            // Also one batch whose scratch serves every input (the entry
            // points build a batch per call).
            const pyd2ke::SetDistanceBatch<T> batch(sets, metric);
            typename pyd2ke::SetDistanceBatch<T>::Scratch scratch;
            for (int q = 0; q < 4; ++q) {
                const std::size_t n = sizes[rng() % 15];
                auto x = random_points<T>(rng, n, dim, integers);
                if (q == 0) x = storage[0];  // identical set: distance exactly 0
                const pyd2ke::PointSetView<T> xs(x.data(), x.size() / dim, dim);
                const std::vector<double> ref = entry_points.check(xs, sets, "round " + std::to_string(round));
                std::vector<double> out(n_sets);
                batch.distances(xs, out.data(), scratch);
                for (std::size_t j = 0; j < n_sets; ++j) CHECK(close(out[j], ref[j], rtol));
                if (q == 0) CHECK(out[0] == 0.0 && ref[0] == 0.0);
            }
        }
    }
    // Wrong dimension and empty sets are errors.
    const std::vector<T> p = {1, 2, 3, 4};
    const pyd2ke::SetDistanceBatch<T> batch({pyd2ke::PointSetView<T>(p.data(), 2, 2)},
                                            pyd2ke::SetMetric::hausdorff);
    double out[1];
    bool threw = false;
    try {
        batch.distances(pyd2ke::PointSetView<T>(p.data(), 1, 4), out);
    } catch (const std::invalid_argument&) {
        threw = true;
    }
    CHECK(threw);
    threw = false;
    try {
        batch.distances(pyd2ke::PointSetView<T>(p.data(), 0, 2), out);
    } catch (const std::invalid_argument&) {
        threw = true;
    }
    CHECK(threw);
}

// Sets of every boundary size (panels of 8 to 32 points, blocks of 6 rows)
// against each other, in 1, 3 and 17 dimensions.
template <class T>
void test_boundary_sizes(double rtol) {
    std::mt19937_64 rng(17);
    for (std::size_t dim : {1, 3, 17}) {
        std::vector<std::vector<T>> storage;
        for (std::size_t size : pyd2ke_test::kEdgeLengths)
            if (size > 0) storage.push_back(random_points<T>(rng, size, dim, dim == 1));
        std::vector<pyd2ke::PointSetView<T>> sets;
        for (const auto& s : storage) sets.emplace_back(s.data(), s.size() / dim, dim);
        for (pyd2ke::SetMetric metric : {pyd2ke::SetMetric::hausdorff, pyd2ke::SetMetric::modified_hausdorff}) {
            const auto entry_points = pyd2ke_test::hausdorff_entry_points<T>(metric, {rtol, rtol});
            for (const auto& x : sets)
                entry_points.check(x, sets, std::to_string(x.size) + " points in " + std::to_string(dim) + "-d");
        }
    }
}

void test_known_values() {
    // A = {(0,0), (1,0)}, B = {(0,3)}: directed A->B distances 3 and sqrt(10).
    const double a[] = {0, 0, 1, 0}, b[] = {0, 3};
    const pyd2ke::PointSetView<double> sa(a, 2, 2), sb(b, 1, 2);
    const auto hausdorff = pyd2ke_test::hausdorff_entry_points<double>(pyd2ke::SetMetric::hausdorff, {1e-15, 1e-15});
    const auto modified =
        pyd2ke_test::hausdorff_entry_points<double>(pyd2ke::SetMetric::modified_hausdorff, {1e-15, 1e-15});
    CHECK(close(hausdorff.check(sa, {sb})[0], std::sqrt(10.0), 1e-15));
    CHECK(close(modified.check(sa, {sb})[0], (3 + std::sqrt(10.0)) / 2, 1e-15));
}

}  // namespace

int main() {
    pyd2ke_test::print_simd_levels("Hausdorff entry points");
    test_known_values();
    test_batch<double>(1e-9);
    test_batch<float>(2e-3);
    test_boundary_sizes<double>(1e-9);
    test_boundary_sizes<float>(2e-3);
    return test_verdict();
}
