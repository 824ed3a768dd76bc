#pragma once
// emd_vocabulary_distances / _features (distance/emd_vocabulary.hpp): groups
// of documents whose distinct words fit a word table, and the choice between
// the table and the per-document path.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "../core/parallel.hpp"
#include "../core/point_set.hpp"
#include "../distance/emd_batch.hpp"

namespace pyd2ke {

template <class T>
struct VocabularyDocuments;  // distance/emd_vocabulary.hpp

namespace detail {

// A word table holds at most about this many bytes (at least one document's
// words): 64 MiB is 5.9k words against 128 random documents of 11 words in
// double precision.
constexpr std::size_t kWordTableBytes = std::size_t{64} << 20;

// Reading one cost from a word table takes about as long as this many
// multiply-adds of the distance kernel (measured on Zen 3: about 3 µs per
// document pair at 125 x 11 words, against 50-d products at 8 a cycle).
// A table pays when the products it saves, (occurrences - distinct words)
// x dim, outnumber occurrences x this: with 50-d vectors only when each
// word occurs 5 times or more, with 300-d ones from 1.15 times on.
constexpr std::size_t kTableReadInProducts = 40;

// Calls finish(row) after writing the distances of document i to
// out + i * batch.size(). A word table takes at most table_bytes, or one
// document's words; a group of documents that shares too few words for it
// to pay (see kTableReadInProducts) takes the per-document path instead:
// the same bits either way.
template <class T, class Out, class Finish>
void emd_vocabulary_rows(const EmdBatch<T>& batch, const VocabularyDocuments<T>& docs, Out* out, int n_threads,
                         Finish&& finish, std::size_t table_bytes = kWordTableBytes,
                         std::size_t table_read_in_products = kTableReadInProducts) {
    if (docs.dim != batch.dim())
        throw std::invalid_argument("emd: words have " + std::to_string(docs.dim) + " coordinates, expected " +
                                    std::to_string(batch.dim()));
    const std::int64_t* off = docs.offsets;
    if (docs.count > 0 && off[0] != 0) throw std::invalid_argument("emd: offsets must start at 0");
    for (std::size_t i = 0; i < docs.count; ++i)
        if (off[i + 1] <= off[i]) throw std::invalid_argument("emd: document " + std::to_string(i) + " is empty");
    const std::size_t n_words = docs.count ? static_cast<std::size_t>(off[docs.count]) : 0;
    for (std::size_t p = 0; p < n_words; ++p)
        if (docs.word_ids[p] < 0 || static_cast<std::size_t>(docs.word_ids[p]) >= docs.vocabulary_size)
            throw std::invalid_argument("emd: word id " + std::to_string(docs.word_ids[p]) +
                                        " is outside the vocabulary");

    const std::size_t r = batch.size(), dim = docs.dim, ld = batch.word_table_stride();
    const std::size_t table_words = std::max<std::size_t>(1, table_bytes / (ld * sizeof(T)));
    std::vector<std::int64_t> row_of(docs.vocabulary_size, -1);  // a word's row in the current table
    std::vector<std::size_t> used;                               // the table's words, by row
    std::vector<std::uint32_t> rows(n_words);                    // every occurrence's row
    std::vector<T> words, norms, table;
    for (std::size_t d0 = 0, d1; d0 < docs.count; d0 = d1) {
        // A group of documents whose distinct words fit the table.
        used.clear();
        for (d1 = d0; d1 < docs.count; ++d1) {
            const std::size_t before = used.size();
            for (std::int64_t p = off[d1]; p < off[d1 + 1]; ++p) {
                std::int64_t& row = row_of[static_cast<std::size_t>(docs.word_ids[p])];
                if (row < 0) {
                    row = static_cast<std::int64_t>(used.size());
                    used.push_back(static_cast<std::size_t>(docs.word_ids[p]));
                }
                rows[static_cast<std::size_t>(p)] = static_cast<std::uint32_t>(row);
            }
            if (used.size() > table_words && d1 > d0) {  // document d1 starts the next group
                for (std::size_t k = before; k < used.size(); ++k) row_of[used[k]] = -1;
                used.resize(before);
                break;
            }
        }
        const std::size_t n_used = used.size();
        const std::size_t occurrences = static_cast<std::size_t>(off[d1] - off[d0]);
        if ((occurrences - n_used) * dim <= occurrences * table_read_in_products) {
            parallel_for_blocks(d1 - d0, n_threads, 4, [&](std::size_t begin, std::size_t end) {
                typename EmdBatch<T>::Scratch scratch;
                std::vector<T> vectors;  // the document's word vectors
                for (std::size_t i = d0 + begin; i < d0 + end; ++i) {
                    const std::size_t first = static_cast<std::size_t>(off[i]);
                    const std::size_t n = static_cast<std::size_t>(off[i + 1]) - first;
                    vectors.resize(n * dim);
                    for (std::size_t k = 0; k < n; ++k)
                        std::copy_n(docs.vocabulary + static_cast<std::size_t>(docs.word_ids[first + k]) * dim, dim,
                                    &vectors[k * dim]);
                    batch.distances(PointSetView<T>(vectors.data(), n, dim, docs.weights + first), out + i * r,
                                    scratch);
                    finish(out + i * r);
                }
            });
            for (std::size_t k : used) row_of[k] = -1;
            continue;
        }
        words.resize(n_used * dim);
        norms.resize(n_used);
        table.resize(n_used * ld);
        for (std::size_t k = 0; k < n_used; ++k) {
            std::copy_n(docs.vocabulary + used[k] * dim, dim, &words[k * dim]);
            norms[k] = squared_norm(&words[k * dim], dim);
        }
        parallel_for_blocks(n_used, n_threads, 64, [&](std::size_t begin, std::size_t end) {
            batch.fill_word_table(words.data(), norms.data(), begin, end, table.data());
        });
        parallel_for_blocks(d1 - d0, n_threads, 4, [&](std::size_t begin, std::size_t end) {
            typename EmdBatch<T>::Scratch scratch;
            for (std::size_t i = d0 + begin; i < d0 + end; ++i) {
                const std::size_t first = static_cast<std::size_t>(off[i]);
                batch.distances_from_table(table.data(), &rows[first], docs.weights + first,
                                           static_cast<std::size_t>(off[i + 1]) - first, out + i * r, scratch);
                finish(out + i * r);
            }
        });
        for (std::size_t k : used) row_of[k] = -1;
    }
}

}  // namespace detail

}  // namespace pyd2ke
