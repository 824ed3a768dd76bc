// EMDs of documents given as word ids into a vocabulary against
// EmdBatch::distances on the same documents with their word vectors written
// out: the same bits, for every SIMD level, both precisions, one or two
// threads, with word tables forced and refused, and with tables too small
// for all the words (several tables, and documents larger than a table).

#include <pyd2ke/distance/emd_vocabulary.hpp>

#include "check.hpp"

#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <random>
#include <stdexcept>
#include <vector>

namespace {

struct Corpus {
    std::size_t vocabulary_size, dim;
    std::vector<double> vocabulary;
    std::vector<std::int64_t> word_ids, offsets{0};
    std::vector<double> weights;
};

// Documents of min_words..max_words distinct-or-repeated words drawn from a
// vocabulary with a few heavy words (so that documents share words),
// some weights zero.
Corpus make_corpus(std::size_t n_docs, std::size_t vocabulary_size, std::size_t dim, std::size_t min_words,
                   std::size_t max_words, unsigned seed) {
    std::mt19937_64 rng(seed);
    std::normal_distribution<double> normal;
    std::uniform_int_distribution<std::size_t> length(min_words, max_words);
    std::uniform_real_distribution<double> uniform(0.0, 1.0);
    Corpus c{vocabulary_size, dim, {}, {}, {0}, {}};
    c.vocabulary.resize(vocabulary_size * dim);
    for (double& v : c.vocabulary) v = normal(rng);
    if (vocabulary_size > 3)  // a duplicate word vector: distance exactly 0
        std::copy_n(&c.vocabulary[0], dim, &c.vocabulary[3 * dim]);
    for (std::size_t i = 0; i < n_docs; ++i) {
        const std::size_t m = length(rng);
        for (std::size_t k = 0; k < m; ++k) {
            const double u = uniform(rng);
            c.word_ids.push_back(static_cast<std::int64_t>(u * u * u * static_cast<double>(vocabulary_size)));
            c.weights.push_back(k > 0 && uniform(rng) < 0.1 ? 0.0 : 1 + std::floor(4 * uniform(rng)));
        }
        c.offsets.push_back(static_cast<std::int64_t>(c.word_ids.size()));
    }
    return c;
}

template <class T>
std::vector<T> cast(const std::vector<double>& v) {
    return std::vector<T>(v.begin(), v.end());
}

template <class T>
pyd2ke::EmdBatch<T> random_batch(std::size_t n_random, std::size_t dim, std::size_t max_words, unsigned seed,
                                 pyd2ke::SimdLevel level, std::vector<T>& points, std::vector<double>& weights) {
    const Corpus r = make_corpus(n_random, 50, dim, 1, max_words, seed);
    points.clear();
    for (std::int64_t id : r.word_ids) points.insert(points.end(), &r.vocabulary[id * dim], &r.vocabulary[(id + 1) * dim]);
    weights = r.weights;
    std::vector<pyd2ke::PointSetView<T>> views;
    for (std::size_t j = 0; j < n_random; ++j)
        views.emplace_back(points.data() + r.offsets[j] * dim, static_cast<std::size_t>(r.offsets[j + 1] - r.offsets[j]),
                           dim, weights.data() + r.offsets[j]);
    return pyd2ke::EmdBatch<T>(views, level);
}

template <class T>
void compare(const Corpus& c, std::size_t n_random, std::size_t random_words, pyd2ke::SimdLevel level,
             std::size_t table_words = 0) {
    std::vector<T> random_points;
    std::vector<double> random_weights;
    const auto batch = random_batch<T>(n_random, c.dim, random_words, 7, level, random_points, random_weights);
    const std::vector<T> vocabulary = cast<T>(c.vocabulary);
    pyd2ke::VocabularyDocuments<T> docs;
    docs.vocabulary = vocabulary.data();
    docs.vocabulary_size = c.vocabulary_size;
    docs.dim = c.dim;
    docs.word_ids = c.word_ids.data();
    docs.weights = c.weights.data();
    docs.offsets = c.offsets.data();
    docs.count = c.offsets.size() - 1;
    const std::size_t r = batch.size();

    // Reference: the expanded documents, one at a time.
    std::vector<double> expected(docs.count * r);
    std::vector<T> expanded;
    for (std::size_t i = 0; i < docs.count; ++i) {
        expanded.clear();
        for (std::int64_t p = c.offsets[i]; p < c.offsets[i + 1]; ++p)
            expanded.insert(expanded.end(), &vocabulary[c.word_ids[p] * c.dim],
                            &vocabulary[(c.word_ids[p] + 1) * c.dim]);
        const pyd2ke::PointSetView<T> x(expanded.data(), static_cast<std::size_t>(c.offsets[i + 1] - c.offsets[i]),
                                        c.dim, c.weights.data() + c.offsets[i]);
        batch.distances(x, &expected[i * r]);
    }
    for (int threads : {1, 2}) {
        std::vector<double> got(docs.count * r, -1.0);
        pyd2ke::emd_vocabulary_distances(batch, docs, got.data(), threads);
        CHECK(std::memcmp(got.data(), expected.data(), got.size() * sizeof(double)) == 0);
        // Word tables forced (a table read costs nothing) and refused (it
        // costs more than any saving): both paths, the same bits.
        for (std::size_t read_cost : {std::size_t{0}, std::size_t{1} << 30}) {
            std::vector<double> forced(docs.count * r, -1.0);
            const std::size_t bytes = table_words ? table_words * batch.word_table_stride() * sizeof(T)
                                                  : pyd2ke::detail::kWordTableBytes;
            pyd2ke::detail::emd_vocabulary_rows(batch, docs, forced.data(), threads, [](double*) {}, bytes, read_cost);
            CHECK(std::memcmp(forced.data(), expected.data(), forced.size() * sizeof(double)) == 0);
        }

        std::vector<float> features(docs.count * r);
        pyd2ke::emd_vocabulary_features(batch, docs, 0.7, pyd2ke::D2KEKernel::soft, features.data(), threads);
        std::vector<float> want(expected.begin(), expected.end());
        for (std::size_t i = 0; i < docs.count; ++i)
            pyd2ke::distances_to_features(&want[i * r], r, 0.7, pyd2ke::D2KEKernel::soft);
        CHECK(std::memcmp(features.data(), want.data(), want.size() * sizeof(float)) == 0);
    }
}

void test_matches_expanded_documents() {
    std::vector<pyd2ke::SimdLevel> levels{pyd2ke::SimdLevel::scalar};
    for (auto level : {pyd2ke::SimdLevel::sse2, pyd2ke::SimdLevel::avx2, pyd2ke::SimdLevel::avx512})
        if (level <= pyd2ke::detect_simd_level()) levels.push_back(level);
    // Word counts that straddle the kernels' panels (8, 16, 32 points) and
    // single-word documents (the closed form).
    for (std::size_t dim : {1, 7, 17, 64}) {
        const Corpus c = make_corpus(40, 300, dim, 1, 40, 11 + static_cast<unsigned>(dim));
        for (auto level : levels) {
            compare<double>(c, 9, 21, level);
            compare<float>(c, 9, 21, level);
        }
    }
}

// Word tables of 1, 30 and 200 words: groups of documents, and documents
// with more distinct words than a table holds (a table of their own).
void test_small_tables() {
    const Corpus c = make_corpus(50, 2000, 5, 1, 60, 5);
    for (std::size_t table_words : {1, 30, 200}) {
        compare<double>(c, 12, 15, pyd2ke::detect_simd_level(), table_words);
        compare<float>(c, 12, 15, pyd2ke::detect_simd_level(), table_words);
    }
}

void test_errors() {
    std::vector<double> points, weights;
    const auto batch = random_batch<double>(3, 2, 4, 1, pyd2ke::detect_simd_level(), points, weights);
    const std::vector<double> vocabulary{0, 0, 1, 1};
    std::vector<std::int64_t> ids{0, 2}, offsets{0, 2};
    const std::vector<double> w{1, 1};
    pyd2ke::VocabularyDocuments<double> docs;
    docs.vocabulary = vocabulary.data();
    docs.vocabulary_size = 2;
    docs.dim = 2;
    docs.word_ids = ids.data();
    docs.weights = w.data();
    docs.offsets = offsets.data();
    docs.count = 1;
    std::vector<double> out(3);
    auto throws = [&] {
        try {
            pyd2ke::emd_vocabulary_distances(batch, docs, out.data(), 1);
        } catch (const std::invalid_argument&) {
            return true;
        }
        return false;
    };
    CHECK(throws());  // word id 2 is outside a vocabulary of 2
    ids[1] = 1;
    CHECK(!throws());
    offsets = {0, 0};  // an empty document
    docs.offsets = offsets.data();
    CHECK(throws());
    offsets = {0, 2};
    docs.offsets = offsets.data();
    docs.dim = 3;  // against random documents of dimension 2
    CHECK(throws());
}

}  // namespace

int main() {
    test_errors();
    test_matches_expanded_documents();
    test_small_tables();
    return test_verdict();
}
