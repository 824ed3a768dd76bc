#pragma once
// Earth Mover's distances (and D2KE features) of many documents whose words
// are rows of one vocabulary (word ids into an embedding matrix), to the
// random documents of an EmdBatch.
//
// Documents share most of their words, so the ground costs can be computed
// once per distinct word of a group of documents (a "word table": each word
// against every random word) rather than once per occurrence; each document
// pair then reads its costs from the table. On 500 BBC News articles the
// 58k word occurrences are 10.6k distinct words. Reading the table costs
// too, so groups that share too few words for the saving to pay take the
// per-document path. Either way the distances equal EmdBatch::distances()
// on the expanded documents, bit for bit.

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "../core/parallel.hpp"
#include "../detail/emd_vocabulary_impl.hpp"
#include "../embed/d2ke.hpp"
#include "emd_batch.hpp"

namespace pyd2ke {

// n documents: document i has the words word_ids[offsets[i] .. offsets[i+1])
// (rows of vocabulary, vocabulary_size x dim, row-major) with the weights at
// the same positions.
template <class T>
struct VocabularyDocuments {
    const T* vocabulary = nullptr;
    std::size_t vocabulary_size = 0, dim = 0;
    const std::int64_t* word_ids = nullptr;
    const double* weights = nullptr;
    const std::int64_t* offsets = nullptr;
    std::size_t count = 0;
};

// out (docs.count x batch.size(), row-major): the EMD of every document to
// every random document.
template <class T, class Out>
void emd_vocabulary_distances(const EmdBatch<T>& batch, const VocabularyDocuments<T>& docs, Out* out,
                              int n_threads) {
    detail::emd_vocabulary_rows(batch, docs, out, n_threads, [](Out*) {});
}

// out: the D2KE features (as d2ke_features) of every document.
template <class T, class Out>
void emd_vocabulary_features(const EmdBatch<T>& batch, const VocabularyDocuments<T>& docs, double gamma,
                             D2KEKernel kernel, Out* out, int n_threads) {
    if (!(gamma > 0) || !std::isfinite(gamma)) throw std::invalid_argument("gamma must be positive and finite");
    const std::size_t r = batch.size();
    detail::emd_vocabulary_rows(batch, docs, out, n_threads,
                                [&](Out* row) { distances_to_features(row, r, gamma, kernel); });
}

}  // namespace pyd2ke
