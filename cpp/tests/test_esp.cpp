// ESP and CGK against slow references written from the rules in
// ALGORITHMS.md (sections 6 and 7) without the fast code's shortcuts:
// pieces built as explicit index lists, counts in a std::map.

#include <pyd2ke/pyd2ke.hpp>

#include "check.hpp"
#include "esp_reference.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <random>
#include <string>
#include <vector>

namespace {

using pyd2ke_test::ref_sketch;

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
    for (int i = 0; i < 2000; ++i) texts.push_back(random_string(rng, 1 + rng() % 80, 4));
    std::vector<pyd2ke::TextView> views(texts.begin(), texts.end());
    const pyd2ke::EspSketches one = pyd2ke::esp_sketch_batch(views, 1);
    // Blocks of 256 strings on one thread, of 125, 84 and 16 on 2, 3 and 16.
    for (int threads : {2, 3, 16}) {
        const pyd2ke::EspSketches many = pyd2ke::esp_sketch_batch(views, threads);
        CHECK(one.labels == many.labels && one.counts == many.counts && one.offsets == many.offsets);
    }
    // Appended batch by batch (a chunked transform): the same arrays, whatever
    // the batches (empty ones too) and the thread count, also when it changes
    // from batch to batch (threads 0: 3, 1, 2, 3, 1, ...; the arenas the
    // blocks parse into are reused).
    for (std::size_t batch : {1, 7, 256, 257, 1999, 2000}) {
        for (int threads : {1, 3, 0}) {
            pyd2ke::EspSketchAppender appended;
            appended.append({}, threads);
            for (std::size_t start = 0; start < views.size(); start += batch) {
                const std::size_t stop = std::min(views.size(), start + batch);
                const int n_threads = threads != 0 ? threads : 1 + static_cast<int>((start / batch + 2) % 3);
                appended.append(std::vector<pyd2ke::TextView>(views.begin() + start, views.begin() + stop), n_threads);
            }
            CHECK(appended.size() == views.size() && appended.labels.size() == one.labels.size() &&
                  appended.counts.size() == one.counts.size() && appended.offsets.size() == one.offsets.size());
            CHECK(std::equal(one.labels.begin(), one.labels.end(), appended.labels.data()) &&
                  std::equal(one.counts.begin(), one.counts.end(), appended.counts.data()) &&
                  std::equal(one.offsets.begin(), one.offsets.end(), appended.offsets.data()));
        }
    }
    for (std::size_t i : {0, 255, 256, 1999}) {
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
    // A plain char (signed on x86) of 0x80 or above is its byte, as in a
    // TextView: it sign-extended to other symbols (0xFF to the pad).
    {
        const std::string bytes = "a\xe9\xff\x80z";
        const std::basic_string<unsigned char> same(bytes.begin(), bytes.end());
        std::vector<std::uint32_t> plain(15), by_unsigned(15);
        pyd2ke::cgk_embed(bytes.data(), bytes.size(), seed, plain.size(), plain.data());
        pyd2ke::cgk_embed(same.data(), same.size(), seed, by_unsigned.size(), by_unsigned.data());
        std::vector<std::int64_t> offsets;
        CHECK(plain == by_unsigned &&
              pyd2ke::cgk_embed_batch({pyd2ke::TextView(bytes)}, seed, 15, offsets) == plain);
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
    // One-hot columns of the same walks, the alphabet {b, c} (a and d are
    // unknown symbols): step t's column t * 4 + slot, slots b 0, c 1, pad 2,
    // unknown 3; at 1 and 3 threads, in 32- and 64-bit columns.
    const pyd2ke::CgkSlots slots(std::vector<std::uint32_t>{'b', 'c'});
    CHECK(slots.width() == 4);
    // An alphabet that is not ascending and distinct, or holds the pad, is
    // refused (the lookup table was sized by its last symbol); symbols beyond
    // text's code range are found by bisection, not a table of that size.
    auto refused = [](std::vector<std::uint32_t> alphabet) {
        return pyd2ke_test::throws_invalid_argument([&] { pyd2ke::CgkSlots s(alphabet); });
    };
    CHECK(refused({'b', 'a'}) && refused({'a', 'a'}) && refused({'a', pyd2ke::kCgkPad}));
    const pyd2ke::CgkSlots wide(std::vector<std::uint32_t>{'a', 0x200000u, 0xFFFFFFF0u});
    CHECK(wide('a') == 0 && wide(0x200000u) == 1 && wide(0xFFFFFFF0u) == 2 && wide('b') == 4 &&
          wide(pyd2ke::kCgkPad) == 3);
    CHECK(pyd2ke_test::throws_invalid_argument([] { pyd2ke::TextView bad("abc", 3, 3); }));
    for (int threads : {1, 3}) {
        std::vector<std::int32_t> c32(f.size());
        std::vector<std::int64_t> c64(f.size());
        pyd2ke::cgk_onehot_columns(views, seed, 150, slots, c32.data(), threads);
        pyd2ke::cgk_onehot_columns(views, seed, 150, slots, c64.data(), threads);
        for (std::size_t q = 0; q < f.size(); ++q) {
            const std::uint32_t c = f[q];
            const std::int64_t slot = c == 'b' ? 0 : c == 'c' ? 1 : c == pyd2ke::kCgkPad ? 2 : 3;
            CHECK(c64[q] == static_cast<std::int64_t>(q % 150) * 4 + slot && c32[q] == c64[q]);
        }
    }
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

// esp_hashed_csr against a map per row: column label % n_features, counts
// summed, columns ascending; at 1, 3 and 16 threads, with and without merges.
void test_hashed_csr() {
    std::mt19937_64 rng(7);
    std::vector<std::u32string> strings;
    std::vector<pyd2ke::TextView> texts;
    for (std::size_t i = 0; i < 600; ++i) strings.push_back(random_string(rng, 1 + rng() % 200, 4));
    for (const auto& s : strings) texts.push_back(pyd2ke::TextView(std::u32string_view(s)));
    const pyd2ke::EspSketches sk = pyd2ke::esp_sketch_batch(texts, 2);
    for (std::uint64_t n_features : {std::uint64_t{1}, std::uint64_t{7}, std::uint64_t{1024}, std::uint64_t{1000003}}) {
        for (int threads : {1, 3, 16}) {
            const pyd2ke::HashedCsr csr = pyd2ke::esp_hashed_csr(sk.labels.data(), sk.counts.data(),
                                                                 sk.offsets.data(), sk.size(), n_features, threads);
            CHECK(csr.indptr.size() == sk.size() + 1 && csr.indptr[0] == 0);
            const auto csr32 = pyd2ke::esp_hashed_csr<std::int32_t>(sk.labels.data(), sk.counts.data(),
                                                                    sk.offsets.data(), sk.size(), n_features, threads);
            CHECK(std::equal(csr.indptr.begin(), csr.indptr.end(), csr32.indptr.begin(), csr32.indptr.end()));
            CHECK(std::equal(csr.indices.begin(), csr.indices.end(), csr32.indices.begin(), csr32.indices.end()));
            CHECK(std::equal(csr.data.begin(), csr.data.end(), csr32.data.begin(), csr32.data.end()));
            // Appended batch by batch (a chunked transform): the same rows,
            // int32 or int64 columns, float64 or float32 values.
            for (std::size_t batch : {1, 7, 256, 600}) {
                pyd2ke::EspCsrAppender<std::int32_t, double> rows32(n_features);
                pyd2ke::EspCsrAppender<std::int64_t, float> rows64(n_features);
                rows32.append({}, threads);
                for (std::size_t start = 0; start < texts.size(); start += batch) {
                    const std::vector<pyd2ke::TextView> part(texts.begin() + start,
                                                             texts.begin() + std::min(texts.size(), start + batch));
                    rows32.append(part, threads);
                    rows64.append(part, threads);
                }
                CHECK(rows32.size() == sk.size() && rows64.size() == sk.size());
                CHECK(rows32.indices.size() == csr.indices.size() && rows64.data.size() == csr.data.size());
                CHECK(std::equal(csr.indptr.begin(), csr.indptr.end(), rows32.indptr.data()) &&
                      std::equal(csr.indptr.begin(), csr.indptr.end(), rows64.indptr.data()));
                CHECK(std::equal(csr.indices.begin(), csr.indices.end(), rows32.indices.data()) &&
                      std::equal(csr.indices.begin(), csr.indices.end(), rows64.indices.data()));
                CHECK(std::equal(csr.data.begin(), csr.data.end(), rows32.data.data()));
                for (std::size_t k = 0; k < csr.data.size(); ++k)
                    CHECK(rows64.data[k] == static_cast<float>(csr.data[k]));
            }
            for (std::size_t i = 0; i < sk.size(); ++i) {
                std::map<std::int64_t, double> row;
                for (std::int64_t k = sk.offsets[i]; k < sk.offsets[i + 1]; ++k)
                    row[static_cast<std::int64_t>(sk.labels[k] % n_features)] += sk.counts[k];
                CHECK(csr.indptr[i + 1] - csr.indptr[i] == static_cast<std::int64_t>(row.size()));
                std::int64_t at = csr.indptr[i];
                for (const auto& [column, count] : row) {
                    CHECK(csr.indices[at] == column && csr.data[at] == count);
                    ++at;
                }
            }
        }
    }
    // n_features must be >= 1 and fit the column index type.
    const auto refused = [](auto&& f) { return pyd2ke_test::throws_invalid_argument(f); };
    const std::uint64_t label = 12345;
    const double count = 1;
    const std::int64_t offsets[] = {0, 1};
    CHECK(refused([&] { pyd2ke::esp_hashed_csr(&label, &count, offsets, 1, 0); }));
    CHECK(refused([&] { pyd2ke::esp_hashed_csr<std::int32_t>(&label, &count, offsets, 1, std::uint64_t{1} << 40); }));
    CHECK(refused([] { pyd2ke::EspCsrAppender<std::int32_t, float> rows(0); }));
    CHECK(!refused([] { pyd2ke::EspCsrAppender<std::int32_t, float> rows(std::uint64_t{1} << 31); }));
}

}  // namespace

int main() {
    test_against_reference();
    test_properties();
    test_cgk();
    test_hashed_csr();
    return test_verdict();
}
