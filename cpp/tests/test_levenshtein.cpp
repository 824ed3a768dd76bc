// Differential tests: every Levenshtein path (one-word Myers, multi-word
// Myers, SIMD lane groups at every width and every ISA this CPU runs) against
// the plain dynamic programme, on random strings whose lengths straddle the
// lane and word boundaries; every entry point at once (entry_points.hpp).

#include <pyd2ke/pyd2ke.hpp>

#include "check.hpp"
#include "distance_entry_points.hpp"

#include <cmath>
#include <cstdio>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

const std::size_t kBoundaryLengths[] = {0, 1, 2, 7, 8, 9, 15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 128, 129, 200};

std::u32string random_string(std::mt19937_64& rng, std::size_t n, std::uint32_t alphabet, std::uint32_t base) {
    std::u32string s(n, 0);
    for (auto& c : s) c = base + static_cast<std::uint32_t>(rng() % alphabet);
    return s;
}

template <class To>
std::basic_string<To> narrow(const std::u32string& s) {
    return std::basic_string<To>(s.begin(), s.end());
}

// Every pair of boundary lengths, through every entry point.
void test_pairs() {
    const auto entry_points = pyd2ke_test::levenshtein_entry_points();
    std::mt19937_64 rng(42);
    for (std::uint32_t alphabet : {1u, 4u, 20u, 256u}) {
        for (std::size_t la : kBoundaryLengths) {
            const std::u32string a = random_string(rng, la, alphabet, 0);
            std::vector<std::u32string> targets;
            for (std::size_t lb : kBoundaryLengths) targets.push_back(random_string(rng, lb, alphabet, 0));
            const std::vector<double> ref = entry_points.check(a, targets, "a text of " + std::to_string(la));
            for (std::size_t j = 0; j < targets.size(); ++j) {  // the same strings as bytes and as UCS-2 units
                const std::u32string& b = targets[j];
                const std::string a8(a.begin(), a.end()), b8(b.begin(), b.end());
                CHECK(static_cast<double>(pyd2ke::levenshtein(a8, b8)) == ref[j]);
                CHECK(static_cast<double>(pyd2ke::levenshtein(narrow<char16_t>(a), narrow<char16_t>(b))) == ref[j]);
            }
        }
    }
    // Known values.
    CHECK(pyd2ke::levenshtein(std::string("kitten"), std::string("sitting")) == 3);
    CHECK(pyd2ke::levenshtein(std::string(""), std::string("abc")) == 3);
    CHECK(pyd2ke::levenshtein(std::string(""), std::string("")) == 0);
    CHECK(pyd2ke::levenshtein(std::u32string(U"\U0001F600ab"), std::u32string(U"ab")) == 1);
    // Iterator pairs over any integral symbols; chars above 127 stay bytes.
    const std::vector<int> u{1, 2, 3, 4}, v{1, 3, 4, 5};
    CHECK(pyd2ke::levenshtein(u.begin(), u.end(), v.begin(), v.end()) == 2);
    const std::string hi("\xe9t\xe9");
    const std::u32string hi32(U"\u00e9t\u00e9");
    CHECK(pyd2ke::levenshtein(hi.begin(), hi.end(), hi32.begin(), hi32.end()) == 0);
}

// Random pattern sets (astral code points in some rounds exercise the
// sparse symbol table) against texts that may hold symbols no pattern has.
void test_batch() {
    const auto entry_points = pyd2ke_test::levenshtein_entry_points();
    std::mt19937_64 rng(7);
    for (int round = 0; round < 120; ++round) {
        const std::uint32_t alphabet = round % 4 == 0 ? 1 : (round % 4 == 1 ? 4 : (round % 4 == 2 ? 20 : 300));
        const std::uint32_t base = round % 5 == 4 ? 0x1F000 : (round % 5 == 3 ? 0x4E00 : 0);
        std::vector<std::u32string> patterns(1 + rng() % 150);
        for (auto& p : patterns) {
            const std::size_t m = round % 3 == 0 ? kBoundaryLengths[rng() % 19] : rng() % 11;
            p = random_string(rng, m, alphabet, base);
        }
        CHECK(pyd2ke::LevenshteinBatch(std::vector<pyd2ke::TextView>(patterns.begin(), patterns.end())).size() ==
              patterns.size());
        for (int t = 0; t < 4; ++t) {
            const std::u32string text = random_string(rng, kBoundaryLengths[rng() % 19] + rng() % 3, alphabet + 2, base);
            entry_points.check(text, patterns, "round " + std::to_string(round));
        }
    }
    // Long texts: distances beyond 255 must not wrap in 8-bit lanes.
    const std::vector<std::u32string> patterns{U"ab", U"abcdefgh", U"abcdefghijklmnop", U""};
    const std::vector<double> out = entry_points.check(std::u32string(70000, U'z'), patterns, "a long text");
    for (double d : out) CHECK(d == 70000);
}

void test_features_and_threads() {
    std::mt19937_64 rng(3);
    std::vector<std::u32string> patterns(100), texts(257);
    for (auto& p : patterns) p = random_string(rng, 1 + rng() % 10, 4, 65);
    for (auto& t : texts) t = random_string(rng, rng() % 100, 4, 65);
    std::vector<pyd2ke::TextView> pv(patterns.begin(), patterns.end()), tv(texts.begin(), texts.end());
    const pyd2ke::LevenshteinBatch batch(pv);
    const std::size_t r = patterns.size();
    std::vector<double> one(texts.size() * r), two(texts.size() * r), dist(texts.size() * r);
    pyd2ke::d2ke_features(batch, tv, 0.3, pyd2ke::D2KEKernel::soft, one.data(), 1);
    pyd2ke::d2ke_features(batch, tv, 0.3, pyd2ke::D2KEKernel::soft, two.data(), 2);
    pyd2ke::d2ke_distances(batch, tv, dist.data(), 2);
    CHECK(one == two);
    for (std::size_t i = 0; i < texts.size(); ++i)
        for (std::size_t j = 0; j < r; ++j) {
            const double d = static_cast<double>(pyd2ke::levenshtein_reference(texts[i], patterns[j]));
            CHECK(dist[i * r + j] == d);
            // The same expression as distances_to_features: bit-identical.
            CHECK(one[i * r + j] == std::exp(-0.3 * d) * (1.0 / std::sqrt(static_cast<double>(r))));
        }
    // Distances past the feature table's 2^16 entries are computed directly.
    const std::u32string long_text((std::size_t{1} << 16) + 5, U'A');
    std::vector<double> long_row(r);
    pyd2ke::d2ke_features(batch, std::vector<pyd2ke::TextView>{long_text}, 1e-6, pyd2ke::D2KEKernel::soft,
                          long_row.data(), 1);
    for (std::size_t j = 0; j < r; ++j) {
        const double d = static_cast<double>(pyd2ke::levenshtein(long_text, patterns[j]));
        CHECK(long_row[j] == std::exp(-1e-6 * d) * (1.0 / std::sqrt(static_cast<double>(r))));
    }
    std::vector<float> direct(texts.size() * r);
    pyd2ke::d2ke_features(batch, tv, 1.0, pyd2ke::D2KEKernel::direct, direct.data(), 2);
    for (std::size_t k = 0; k < direct.size(); ++k)
        CHECK(direct[k] == static_cast<float>(dist[k] * (1.0 / std::sqrt(static_cast<double>(r)))));
    // A pattern longer than every text (multi-word, past the lanes): its
    // distance exceeds every text length and must still be in the table.
    std::vector<std::u32string> mixed = {random_string(rng, 200, 4, 65), U"AB", U""};
    std::vector<pyd2ke::TextView> mv(mixed.begin(), mixed.end());
    const pyd2ke::LevenshteinBatch mixed_batch(mv);
    std::vector<double> mixed_out(texts.size() * 3);
    pyd2ke::d2ke_features(mixed_batch, tv, 0.01, pyd2ke::D2KEKernel::soft, mixed_out.data(), 2);
    for (std::size_t i = 0; i < texts.size(); ++i)
        for (std::size_t j = 0; j < 3; ++j) {
            const double d = static_cast<double>(pyd2ke::levenshtein_reference(texts[i], mixed[j]));
            CHECK(mixed_out[i * 3 + j] == std::exp(-0.01 * d) * (1.0 / std::sqrt(3.0)));
        }
    bool threw = false;
    try {
        pyd2ke::d2ke_features(batch, tv, -1.0, pyd2ke::D2KEKernel::soft, one.data(), 2);
    } catch (const std::invalid_argument&) {
        threw = true;
    }
    CHECK(threw);
}

void test_parallel_exception() {
    bool caught = false;
    try {
        pyd2ke::parallel_for_blocks(1000, 2, 7, [](std::size_t begin, std::size_t end) {
            for (std::size_t i = begin; i < end; ++i)
                if (i == 500) throw std::runtime_error("boom");
        });
    } catch (const std::runtime_error& e) {
        caught = std::string(e.what()) == "boom";
    }
    CHECK(caught);
}

}  // namespace

int main() {
    pyd2ke_test::print_simd_levels("Levenshtein entry points");
    test_pairs();
    test_batch();
    test_features_and_threads();
    test_parallel_exception();
    std::printf("openmp: %s, best SIMD level: %s\n", pyd2ke::has_openmp() ? "yes" : "no",
                pyd2ke::simd_level_name(pyd2ke::detect_simd_level()));
    return test_verdict();
}
