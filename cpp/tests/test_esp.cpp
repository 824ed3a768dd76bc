// ESP and CGK against slow references written from the rules in
// ALGORITHMS.md (sections 6 and 7) without the fast code's shortcuts:
// pieces built as explicit index lists, counts in a std::map.

#include <pyd2ke/pyd2ke.hpp>

#include "check.hpp"

#include <cmath>
#include <cstdio>
#include <map>
#include <random>
#include <string>
#include <vector>

namespace {

using Labels = std::vector<std::uint64_t>;

std::uint64_t reduce_label(std::uint64_t left, std::uint64_t self) {
    int p = 0;
    while (((left >> p) & 1u) == ((self >> p) & 1u)) ++p;
    return 2u * static_cast<std::uint64_t>(p) + ((self >> p) & 1u);
}

void ref_pairs(const Labels& x, std::size_t b, std::size_t e, Labels& out) {
    const std::size_t n = e - b;
    if (n < 2) throw std::logic_error("block of one");
    const std::size_t pairs = n % 2 == 0 ? n / 2 : (n - 3) / 2;
    for (std::size_t k = 0; k < pairs; ++k) out.push_back(pyd2ke::detail::esp_node_label(&x[b + 2 * k], 2));
    if (n % 2 == 1) out.push_back(pyd2ke::detail::esp_node_label(&x[e - 3], 3));
}

void ref_reduced(const Labels& x, std::size_t b, std::size_t e, Labels& out) {
    const std::size_t m = e - b;
    Labels a(x.begin() + b, x.begin() + e);
    for (int round = 0; round < 4; ++round) {
        Labels next(m);
        next[0] = reduce_label(a[1], a[0]);
        for (std::size_t i = 1; i < m; ++i) next[i] = reduce_label(a[i - 1], a[i]);
        a = next;
    }
    for (std::size_t i = 0; i < m; ++i) CHECK(a[i] < 6);
    for (std::size_t i = 1; i < m; ++i) CHECK(a[i] != a[i - 1]);
    for (std::uint64_t v : {3u, 4u, 5u})
        for (std::size_t i = 0; i < m; ++i)
            if (a[i] == v)
                for (std::uint64_t c = 0; c < 3; ++c)
                    if ((i == 0 || a[i - 1] != c) && (i + 1 == m || a[i + 1] != c)) {
                        a[i] = c;
                        break;
                    }
    std::vector<bool> lm(m, false);
    for (std::size_t i = 1; i + 1 < m; ++i) lm[i] = a[i - 1] < a[i] && a[i] > a[i + 1];
    for (std::size_t i = 1; i + 1 < m; ++i)
        if (a[i - 1] > a[i] && a[i] < a[i + 1] && !lm[i - 1] && !lm[i + 1]) lm[i] = true;
    std::vector<std::size_t> cuts{0};
    for (std::size_t i = 2; i < m; ++i)
        if (lm[i]) cuts.push_back(i);
    cuts.push_back(m);
    for (std::size_t k = 0; k + 1 < cuts.size(); ++k) ref_pairs(x, b + cuts[k], b + cuts[k + 1], out);
}

Labels ref_level(const Labels& x) {
    const std::size_t n = x.size();
    struct Piece {
        std::size_t b, e;
        bool run;
    };
    std::vector<Piece> pieces;
    for (std::size_t i = 0; i < n;) {
        std::size_t j = i + 1;
        while (j < n && x[j] == x[i]) ++j;
        if (j - i >= 2) {
            pieces.push_back({i, j, true});
        } else if (!pieces.empty() && !pieces.back().run) {
            pieces.back().e = j;
        } else {
            pieces.push_back({i, j, false});
        }
        i = j;
    }
    // Stretches of one node join their left neighbour (the right one at the start).
    std::vector<Piece> merged;
    for (std::size_t k = 0; k < pieces.size(); ++k) {
        Piece p = pieces[k];
        if (!p.run && p.e - p.b == 1) {
            if (!merged.empty()) {
                merged.back().e = p.e;
                merged.back().run = true;  // parsed by pairs
            } else {
                pieces[k + 1].b = p.b;
            }
            continue;
        }
        merged.push_back(p);
    }
    Labels out;
    for (const Piece& p : merged) {
        if (!p.run && p.e - p.b >= 5)
            ref_reduced(x, p.b, p.e, out);
        else
            ref_pairs(x, p.b, p.e, out);
    }
    return out;
}

std::map<std::uint64_t, std::uint64_t> ref_sketch(const std::u32string& s) {
    std::map<std::uint64_t, std::uint64_t> counts;
    Labels level;
    for (char32_t c : s) level.push_back(pyd2ke::detail::esp_leaf_label(static_cast<std::uint32_t>(c)));
    for (auto l : level) ++counts[l];
    while (level.size() > 1) {
        level = ref_level(level);
        for (auto l : level) ++counts[l];
    }
    return counts;
}

std::u32string random_string(std::mt19937_64& rng, std::size_t n, std::uint32_t alphabet) {
    std::u32string s(n, 0);
    for (auto& c : s) c = 'a' + static_cast<std::uint32_t>(rng() % alphabet);
    return s;
}

double l1(const std::vector<std::pair<std::uint64_t, std::uint64_t>>& a,
          const std::vector<std::pair<std::uint64_t, std::uint64_t>>& b) {
    std::vector<std::uint64_t> la, lb;
    std::vector<double> ca, cb;
    for (auto& p : a) la.push_back(p.first), ca.push_back(static_cast<double>(p.second));
    for (auto& p : b) lb.push_back(p.first), cb.push_back(static_cast<double>(p.second));
    return pyd2ke::esp_l1(la.data(), ca.data(), la.size(), lb.data(), cb.data(), lb.size());
}

void test_against_reference() {
    std::mt19937_64 rng(7);
    for (std::uint32_t alphabet : {1u, 2u, 3u, 4u, 20u, 200u})
        for (std::size_t n : {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 15, 16, 17, 31, 64, 100, 257, 1000})
            for (int rep = 0; rep < 5; ++rep) {
                const std::u32string s = random_string(rng, n, alphabet);
                const auto fast = pyd2ke::esp_sketch(s.data(), s.size());
                const auto ref = ref_sketch(s);
                CHECK(fast.size() == ref.size());
                bool same = fast.size() == ref.size();
                {
                    std::size_t q = 0;
                    for (const auto& [label, count] : ref) {
                        if (q < fast.size() && (fast[q].first != label || fast[q].second != count)) same = false;
                        ++q;
                    }
                }
                if (!same && pyd2ke_test::failures < 2) {
                    std::printf("mismatch n=%zu alphabet=%u: ", n, alphabet);
                    for (char32_t c : s) std::printf("%c", static_cast<char>(c));
                    std::printf("\n");
                }
                std::size_t k = 0;
                std::uint64_t norm = 0;
                for (const auto& [label, count] : ref) {
                    if (k < fast.size()) CHECK(fast[k].first == label && fast[k].second == count);
                    ++k;
                    norm += count;
                }
                // ||V(S)||_1 = number of tree nodes, in [n, 2n - 1].
                CHECK(norm >= n && norm <= 2 * n - 1);
            }
}

void test_properties() {
    std::mt19937_64 rng(11);
    // Identical strings, any width of code unit, give identical vectors.
    const std::u32string s = random_string(rng, 500, 4);
    const std::string s8(s.begin(), s.end());
    CHECK(pyd2ke::esp_sketch(s.data(), s.size()) == pyd2ke::esp_sketch(s8.data(), s8.size()));
    // Batches: independent of the other strings, their order and the thread count.
    std::vector<std::u32string> texts;
    for (int i = 0; i < 600; ++i) texts.push_back(random_string(rng, 1 + rng() % 80, 4));
    std::vector<pyd2ke::TextView> views(texts.begin(), texts.end());
    const pyd2ke::EspSketches one = pyd2ke::esp_sketch_batch(views, 1);
    const pyd2ke::EspSketches two = pyd2ke::esp_sketch_batch(views, 2);
    CHECK(one.labels == two.labels && one.counts == two.counts && one.offsets == two.offsets);
    for (std::size_t i : {0, 255, 256, 599}) {
        const auto single = pyd2ke::esp_sketch(views[i]);
        CHECK(static_cast<std::int64_t>(single.size()) == one.offsets[i + 1] - one.offsets[i]);
        for (std::size_t k = 0; k < single.size(); ++k)
            CHECK(single[k].first == one.labels[one.offsets[i] + k] &&
                  static_cast<double>(single[k].second) == one.counts[one.offsets[i] + k]);
    }
    // A single edit moves the vector by O(log L log* L): measure the constant.
    double worst_c = 0, worst_move = 0;
    for (std::size_t n : {100, 1000, 10000, 100000}) {
        const double logn = std::log2(static_cast<double>(n));
        double log_star = 0;
        for (double v = static_cast<double>(n); v > 1; v = std::log2(v)) ++log_star;
        for (int rep = 0; rep < (n >= 100000 ? 4 : 20); ++rep) {
            const std::u32string a = random_string(rng, n, 4);
            std::u32string b = a;
            const std::size_t pos = rng() % n;
            switch (rep % 3) {
                case 0: b[pos] = 'a' + static_cast<char32_t>((b[pos] - 'a' + 1) % 4); break;
                case 1: b.erase(pos, 1); break;
                default: b.insert(pos, 1, U'c');
            }
            const double d = l1(pyd2ke::esp_sketch(a.data(), a.size()), pyd2ke::esp_sketch(b.data(), b.size()));
            CHECK(d >= 1);
            worst_c = std::max(worst_c, d / (logn * log_star));
            // Move a block of length n/10 elsewhere.
            const std::size_t len = n / 10, from = rng() % (n - len);
            std::u32string block = a.substr(from, len), rest = a;
            rest.erase(from, len);
            const std::size_t to = rng() % rest.size();
            rest.insert(to, block);
            const double dm = l1(pyd2ke::esp_sketch(a.data(), a.size()), pyd2ke::esp_sketch(rest.data(), rest.size()));
            worst_move = std::max(worst_move, dm / (logn * log_star));
        }
    }
    std::printf("ESP: max ||V(S)-V(S')||_1 / (log2 L log* L): single edit %.3f, block move %.3f\n", worst_c, worst_move);
    CHECK(worst_c <= 4.0);
    CHECK(worst_move <= 8.0);
}

void test_cgk() {
    std::mt19937_64 rng(5);
    const std::uint64_t seed = 1234;
    for (std::size_t n : {0, 1, 2, 10, 100}) {
        const std::u32string s = random_string(rng, n, 4);
        std::vector<std::uint32_t> out(3 * n + 7);
        pyd2ke::cgk_embed(s.data(), n, seed, out.size(), out.data());
        // Reference walk.
        std::size_t i = 0;
        for (std::size_t t = 0; t < out.size(); ++t) {
            if (i < n) {
                CHECK(out[t] == s[i]);
                const std::uint64_t h =
                    pyd2ke::detail::mix64(pyd2ke::detail::mix64(seed ^ pyd2ke::detail::mix64(t + 0x9e3779b97f4a7c15ULL)) +
                                          (static_cast<std::uint64_t>(s[i]) + 1) * 0xd1b54a32d192ed03ULL);
                i += h >> 63;
            } else {
                CHECK(out[t] == pyd2ke::kCgkPad);
            }
        }
    }
    // Batches: 3n or fixed length, identical across thread counts.
    std::vector<std::u32string> texts;
    for (int i = 0; i < 300; ++i) texts.push_back(random_string(rng, 1 + rng() % 50, 4));
    std::vector<pyd2ke::TextView> views(texts.begin(), texts.end());
    std::vector<std::int64_t> o1, o2;
    const auto e1 = pyd2ke::cgk_embed_batch(views, seed, 0, o1, 1);
    const auto e2 = pyd2ke::cgk_embed_batch(views, seed, 0, o2, 2);
    CHECK(e1 == e2 && o1 == o2);
    CHECK(o1[1] == static_cast<std::int64_t>(3 * texts[0].size()));
    const auto f = pyd2ke::cgk_embed_batch(views, seed, 150, o1, 2);
    CHECK(o1.back() == 300 * 150);
    // Hamming distance after k random substitutions tracks k.
    double ratio_sum = 0;
    int count = 0;
    for (int rep = 0; rep < 200; ++rep) {
        const std::size_t n = 200;
        const std::u32string a = random_string(rng, n, 4);
        std::u32string b = a;
        const int k = 1 + static_cast<int>(rng() % 5);
        for (int e = 0; e < k; ++e) b[rng() % n] = 'a' + static_cast<char32_t>(rng() % 4);
        std::vector<std::uint32_t> ea(3 * n), eb(3 * n);
        pyd2ke::cgk_embed(a.data(), n, seed + rep, 3 * n, ea.data());
        pyd2ke::cgk_embed(b.data(), n, seed + rep, 3 * n, eb.data());
        std::size_t ham = 0;
        for (std::size_t t = 0; t < 3 * n; ++t) ham += ea[t] != eb[t];
        if (a == b) CHECK(ham == 0);
        ratio_sum += static_cast<double>(ham) / k;
        ++count;
    }
    std::printf("CGK: mean Hamming / substitutions = %.2f\n", ratio_sum / count);
}

}  // namespace

int main() {
    test_against_reference();
    test_properties();
    test_cgk();
    return test_verdict();
}
