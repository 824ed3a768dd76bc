// Subsequence DTW with dilation: the rolling-row profile and the batch of
// local features (best match, occurrence), float and double, against the
// double-precision DP matrix; lengths straddling SIMD and word sizes.

#include <pyd2ke/pyd2ke.hpp>

#include "check.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <random>
#include <stdexcept>
#include <vector>

namespace {

const std::size_t kLengths[] = {1, 7, 8, 9, 15, 16, 17, 63, 64, 65, 130};

using pyd2ke_test::random_values;

template <class T>
void test_profiles(double tolerance) {
    std::mt19937_64 rng(3);
    for (std::size_t L : kLengths)
        for (std::size_t d = 1; d <= 9; ++d)
            for (std::size_t k : {1, 2, 3, 8, 40}) {
                const std::size_t c = 1 + rng() % 3;
                const auto x = random_values<T>(rng, L * c), w = random_values<T>(rng, d * c);
                const pyd2ke::SeriesView<T> a(x.data(), L, c), b(w.data(), d, c);
                const std::vector<double> ref = pyd2ke::subsequence_end_costs_reference(a, b, k);
                std::vector<T> got(L);
                pyd2ke::subsequence_end_costs(a, b, k, got.data());
                for (std::size_t t = 0; t < L; ++t)
                    CHECK(std::abs(static_cast<double>(got[t]) - ref[t]) <= tolerance * (1 + ref[t]));
            }
}

template <class T>
void test_features(double tolerance) {
    std::mt19937_64 rng(5);
    const std::size_t c = 2, R = 7, n_match = 4;
    std::vector<std::vector<T>> xs, ws;
    std::vector<pyd2ke::SeriesView<T>> inputs, shapes;
    for (std::size_t L : kLengths) xs.push_back(random_values<T>(rng, L * c));
    for (std::size_t j = 0; j < R; ++j) ws.push_back(random_values<T>(rng, (1 + j % 9) * c));
    for (std::size_t i = 0; i < xs.size(); ++i) inputs.emplace_back(xs[i].data(), xs[i].size() / c, c);
    for (const auto& w : ws) shapes.emplace_back(w.data(), w.size() / c, c);
    const std::size_t dilations[R] = {1, 2, 5, 1, 3, 1, 7};
    const T thresholds[R - n_match] = {T(4), T(10), T(30)};
    const T gamma = T(0.05);
    for (bool soft : {true, false})
        for (int threads : {1, 3}) {
            std::vector<T> out(inputs.size() * R);
            pyd2ke::local_series_features(inputs, shapes, dilations, n_match, thresholds, gamma, soft, T(0.5),
                                          out.data(), threads);
            for (std::size_t n = 0; n < inputs.size(); ++n)
                for (std::size_t j = 0; j < R; ++j) {
                    const auto ref = pyd2ke::subsequence_end_costs_reference(inputs[n], shapes[j], dilations[j]);
                    const double got = 2 * static_cast<double>(out[n * R + j]);  // factor 0.5
                    if (j < n_match) {
                        const double best = *std::min_element(ref.begin(), ref.end());
                        const double expected = soft ? std::exp(-gamma * best) : best;
                        CHECK(std::abs(got - expected) <= tolerance * (1 + std::abs(expected)));
                    } else {
                        const double threshold = thresholds[j - n_match];
                        std::size_t count = 0, near = 0;
                        for (double v : ref) {
                            count += v < threshold;
                            near += std::abs(v - threshold) <= 1e-4 * (1 + threshold);
                        }
                        const double expected = static_cast<double>(static_cast<T>(count) / static_cast<T>(ref.size()));
                        if (near == 0) CHECK(got == expected);
                    }
                }
        }
}

void test_bad_arguments() {
    const double x[] = {0, 1, 2}, w[] = {0};
    const pyd2ke::SeriesView<double> a(x, 3), b(w, 1), empty(w, 0);
    double out[3];
    bool threw = false;
    try {
        pyd2ke::subsequence_end_costs(a, b, 0, out);
    } catch (const std::invalid_argument&) {
        threw = true;
    }
    CHECK(threw);
    threw = false;
    try {
        const std::size_t dilation = 1;
        pyd2ke::local_series_features<double>({empty}, {b}, &dilation, 1, nullptr, 1.0, true, 1.0, out, 1);
    } catch (const std::invalid_argument&) {
        threw = true;
    }
    CHECK(threw);
    threw = false;
    try {
        pyd2ke::subsequence_end_costs_reference(a, empty, 1);
    } catch (const std::invalid_argument&) {
        threw = true;
    }
    CHECK(threw);
    // Channel counts that differ are refused (they read past the shorter rows).
    const double xy[] = {0, 1, 2, 3, 2, 1}, w2[] = {2, 3, 2, 2};
    const pyd2ke::SeriesView<double> two(xy, 3, 2), one(w2, 3, 1), wide(w2, 2, 2);
    const auto throws = [](auto&& f) { return pyd2ke_test::throws_invalid_argument(f); };
    CHECK(throws([&] { pyd2ke::subsequence_end_costs(two, one, 1, out); }));
    CHECK(throws([&] { pyd2ke::subsequence_end_costs_reference(two, one, 1); }));
    const std::size_t dilations[] = {1, 1};
    CHECK(throws([&] { pyd2ke::local_series_features<double>({two}, {one}, dilations, 1, nullptr, 1.0, true, 1.0,
                                                             out, 1); }));
    CHECK(throws([&] { pyd2ke::local_series_features<double>({two}, {wide, one}, dilations, 2, nullptr, 1.0, true,
                                                             1.0, out, 1); }));
    double row[1];
    CHECK(!throws([&] { pyd2ke::local_series_features<double>({two}, {wide}, dilations, 1, nullptr, 1.0, true, 1.0,
                                                              row, 1); }));
}

}  // namespace

int main() {
    test_profiles<double>(1e-12);
    test_profiles<float>(1e-5);
    test_features<double>(1e-12);
    test_features<float>(1e-5);
    test_bad_arguments();
    return test_verdict();
}
