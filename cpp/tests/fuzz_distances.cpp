// Differential fuzzing of every distance: the fast paths (every entry point
// of distance_entry_points.hpp: batches at every SIMD level this CPU runs,
// float and double) against the plain reference definitions, on random
// inputs with deterministic seeds. Built with the other C++ tests, and under
// AddressSanitizer + UndefinedBehaviorSanitizer by .ci/sanitize, where
// out-of-bounds reads in the SIMD tails show up.
//
//   fuzz_distances [rounds]   (default 300 rounds per target)

#include <pyd2ke/distance/emd_batch.hpp>
#include <pyd2ke/pyd2ke.hpp>

#include "check.hpp"
#include "distance_entry_points.hpp"
#include "esp_reference.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <random>
#include <string>
#include <vector>

namespace {

using Rng = std::mt19937_64;

std::size_t uniform(Rng& rng, std::size_t lo, std::size_t hi) {  // in [lo, hi]
    return lo + static_cast<std::size_t>(rng() % (hi - lo + 1));
}

// Lengths that straddle lane and machine-word boundaries, or anything below max.
std::size_t fuzz_length(Rng& rng, std::size_t min, std::size_t max) {
    static const std::size_t edges[] = {0, 1, 2, 3, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 128, 129};
    if (rng() % 3 == 0) {
        const std::size_t e = edges[rng() % (sizeof(edges) / sizeof(edges[0]))];
        if (e >= min && e <= max) return e;
    }
    return uniform(rng, min, max);
}

// --- Levenshtein ------------------------------------------------------------------

std::u32string random_text(Rng& rng, std::size_t n, std::uint32_t alphabet, std::uint32_t base) {
    std::u32string s(n, 0);
    for (auto& c : s) c = base + static_cast<std::uint32_t>(rng() % alphabet);
    return s;
}

void fuzz_levenshtein(int rounds) {
    const auto entry_points = pyd2ke_test::levenshtein_entry_points();
    Rng rng(101);
    const std::uint32_t alphabets[] = {1, 2, 4, 26, 255, 300, 70000};
    for (int round = 0; round < rounds; ++round) {
        const std::uint32_t alphabet = alphabets[rng() % 7];
        const std::uint32_t base = alphabet <= 255 ? 0 : 0x10000 - alphabet / 2;  // around the UCS-2 limit
        const std::u32string a = random_text(rng, fuzz_length(rng, 0, 200), alphabet, base);
        // Short patterns (the D2KE case) and one text as long as a.
        std::vector<std::u32string> targets(uniform(rng, 1, 40));
        for (auto& p : targets) p = random_text(rng, fuzz_length(rng, 0, 70), alphabet, base);
        const std::u32string& b = targets.emplace_back(random_text(rng, fuzz_length(rng, 0, 200), alphabet, base));
        const std::vector<double> ref = entry_points.check(a, targets, "round " + std::to_string(round));
        if (alphabet <= 255) {  // the same text as bytes (high bytes included)
            const std::string a8(a.begin(), a.end()), b8(b.begin(), b.end());
            CHECK(static_cast<double>(pyd2ke::levenshtein(a8, b8)) == ref.back());
        }
    }
}

// --- DTW --------------------------------------------------------------------------

template <class T>
std::vector<T> random_values(Rng& rng, std::size_t n) {
    std::vector<T> v(n);
    const int kind = static_cast<int>(rng() % 3);
    std::normal_distribution<double> normal(0.0, kind == 2 ? 1e3 : 1.0);
    for (auto& x : v) x = static_cast<T>(kind == 1 ? static_cast<double>(rng() % 3) : normal(rng));  // ties too
    return v;
}

template <class T>
void fuzz_dtw_precision(Rng& rng, int round, double rtol) {
    const std::size_t channels = uniform(rng, 1, 4);
    const long window = static_cast<long>(uniform(rng, 0, 7)) - 1;  // -1: no window
    const std::vector<T> x = random_values<T>(rng, fuzz_length(rng, 1, 60) * channels);
    const pyd2ke::SeriesView<T> xs(x.data(), x.size() / channels, channels);
    std::vector<std::vector<T>> values(uniform(rng, 1, 20));
    std::vector<pyd2ke::SeriesView<T>> series;
    for (auto& v : values) {
        v = random_values<T>(rng, fuzz_length(rng, 1, 20) * channels);
        series.emplace_back(v.data(), v.size() / channels, channels);
    }
    pyd2ke_test::dtw_entry_points<T>(window, {rtol, rtol}).check(xs, series, "round " + std::to_string(round));
}

void fuzz_dtw(int rounds) {
    Rng rng(202);
    for (int round = 0; round < rounds; ++round) {
        fuzz_dtw_precision<double>(rng, round, 1e-11);
        fuzz_dtw_precision<float>(rng, round, 1e-3);
    }
}

// --- Hausdorff and EMD: weighted point sets ---------------------------------------------

template <class T>
struct RandomSets {
    std::vector<std::vector<T>> points;
    std::vector<std::vector<double>> weights;
    std::vector<pyd2ke::PointSetView<T>> views;

    RandomSets(Rng& rng, std::size_t count, std::size_t dim, std::size_t max_size, bool weighted)
        : points(count), weights(count) {
        for (std::size_t i = 0; i < count; ++i) {
            const std::size_t size = fuzz_length(rng, 1, max_size);
            points[i] = random_values<T>(rng, size * dim);
            if (weighted) {
                weights[i].resize(size);
                for (auto& w : weights[i]) w = rng() % 4 == 0 ? 0.0 : static_cast<double>(rng() % 1000) / 100.0;
                weights[i][rng() % size] = 1.0;  // at least one positive weight
            }
        }
        for (std::size_t i = 0; i < count; ++i)
            views.emplace_back(points[i].data(), points[i].size() / dim, dim,
                               weighted && rng() % 5 != 0 ? weights[i].data() : nullptr);
    }
};

// Distances of the fast paths carry rounding of |a|^2 + |b|^2 - 2ab: compare
// relative to the points' scale, not the distance.
template <class T>
double scale_of(const RandomSets<T>& a, const RandomSets<T>& b) {
    double s = 1;
    for (const auto* sets : {&a, &b})
        for (const auto& p : sets->points)
            for (T v : p) s = std::max(s, std::abs(static_cast<double>(v)));
    return s;
}

template <class T>
void fuzz_sets_precision(Rng& rng, int round, double rtol) {
    const std::size_t dim = uniform(rng, 1, 9);
    const RandomSets<T> x(rng, 1, dim, 70, false), fixed(rng, uniform(rng, 1, 12), dim, 20, false);
    const double scale = scale_of(x, fixed);
    for (pyd2ke::SetMetric metric : {pyd2ke::SetMetric::hausdorff, pyd2ke::SetMetric::modified_hausdorff})
        pyd2ke_test::hausdorff_entry_points<T>(metric, {0, rtol * scale})
            .check(x.views[0], fixed.views, "round " + std::to_string(round));
}

void fuzz_hausdorff(int rounds) {
    Rng rng(303);
    for (int round = 0; round < rounds; ++round) {
        fuzz_sets_precision<double>(rng, round, 1e-6);
        fuzz_sets_precision<float>(rng, round, 1e-2);
    }
}

template <class T>
void fuzz_emd_precision(Rng& rng, int round, double rtol) {
    const std::size_t dim = uniform(rng, 1, 6);
    // Every 16th input is long (up to 6000 points), so that the batch
    // computes the distances of a few documents at a time.
    const std::size_t longest = round % 16 == 15 ? 6000 : 25;
    const RandomSets<T> x(rng, 1, dim, longest, true), fixed(rng, uniform(rng, 1, 8), dim, 10, true);
    const double scale = scale_of(x, fixed);
    pyd2ke_test::emd_entry_points<T>({0, rtol * scale}, {1e-12, 1e-12 * scale})
        .check(x.views[0], fixed.views, "round " + std::to_string(round));
}

void fuzz_emd(int rounds) {
    Rng rng(404);
    for (int round = 0; round < rounds; ++round) {
        fuzz_emd_precision<double>(rng, round, 1e-6);
        fuzz_emd_precision<float>(rng, round, 1e-2);
    }
}

// --- ESP --------------------------------------------------------------------------

void fuzz_esp(int rounds) {
    Rng rng(505);
    const std::uint32_t alphabets[] = {1, 2, 3, 4, 20, 200, 70000};
    std::vector<std::u32string> texts;
    for (int round = 0; round < rounds; ++round) {
        const std::u32string s = random_text(rng, fuzz_length(rng, 1, 400), alphabets[rng() % 7], 'a');
        const auto fast = pyd2ke::esp_sketch(s.data(), s.size());
        const auto ref = pyd2ke_test::ref_sketch(s);
        const std::vector<std::pair<std::uint64_t, std::uint64_t>> expected(ref.begin(), ref.end());
        CHECK(fast == expected);
        if (fast != expected && pyd2ke_test::failures <= 20)
            std::printf("  esp round %d: length %zu, %zu labels vs %zu\n", round, s.size(), fast.size(), expected.size());
        texts.push_back(s);
    }
    // Batches: the same vectors whatever the thread count; L1 from the sorted pairs.
    const std::vector<pyd2ke::TextView> views(texts.begin(), texts.end());
    const pyd2ke::EspSketches one = pyd2ke::esp_sketch_batch(views, 1), two = pyd2ke::esp_sketch_batch(views, 2);
    CHECK(one.labels == two.labels && one.counts == two.counts && one.offsets == two.offsets);
    for (std::size_t i = 0; i + 1 < texts.size(); i += 7) {
        std::map<std::uint64_t, double> diff;
        for (const auto& [label, count] : pyd2ke_test::ref_sketch(texts[i])) diff[label] += static_cast<double>(count);
        for (const auto& [label, count] : pyd2ke_test::ref_sketch(texts[i + 1])) diff[label] -= static_cast<double>(count);
        double ref = 0;
        for (const auto& [label, d] : diff) ref += std::abs(d);
        const auto a = static_cast<std::size_t>(one.offsets[i]), b = static_cast<std::size_t>(one.offsets[i + 1]);
        const auto c = static_cast<std::size_t>(one.offsets[i + 2]);
        CHECK(pyd2ke::esp_l1(&one.labels[a], &one.counts[a], b - a, &one.labels[b], &one.counts[b], c - b) == ref);
    }
}

}  // namespace

int main(int argc, char** argv) {
    const int rounds = argc > 1 ? std::atoi(argv[1]) : 300;
    fuzz_levenshtein(rounds);
    fuzz_dtw(rounds);
    fuzz_hausdorff(rounds);
    fuzz_emd(rounds);
    fuzz_esp(rounds);
    std::printf("fuzz_distances: %d rounds per target (levenshtein, dtw, hausdorff, emd, esp)\n", rounds);
    return test_verdict();
}
