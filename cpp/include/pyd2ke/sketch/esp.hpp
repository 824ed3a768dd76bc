#pragma once
// Edit-sensitive parsing (ESP): a string S becomes its characteristic vector
// V(S), the count of every node label of its ESP tree (leaves included), so
// that ||V(S) - V(S')||_1 approximates the edit distance with moves
// (Cormode & Muthukrishnan 2007; used by SFMEDM, Tabei et al.).
//
// Labels are 64-bit fingerprints of (arity, child labels), unlike the SFMEDM
// reference's data-set-wide dictionary ids: a string's vector depends on the
// string alone, strings parse in parallel, and new strings can be parsed
// later. ||V(S)||_1 is the number of tree nodes: n leaves plus between
// (n - 1) / 2 and n - 1 internal nodes (every internal node has 2 or 3
// children), so n <= ||V(S)||_1 <= 2n - 1.

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "../core/memory.hpp"
#include "../core/parallel.hpp"
#include "../core/text.hpp"
#include "../detail/esp_batch_impl.hpp"
#include "../detail/esp_csr_impl.hpp"
#include "../detail/esp_impl.hpp"

namespace pyd2ke {

// Sketches of many strings: string i owns labels/counts[offsets[i] .. offsets[i+1]),
// labels sorted ascending.
struct EspSketches {
    UninitializedVector<std::uint64_t> labels;
    UninitializedVector<double> counts;
    UninitializedVector<std::int64_t> offsets{0};

    std::size_t size() const { return offsets.size() - 1; }
};

// V(S) of one string as sorted (label, count) pairs.
template <class CharT>
std::vector<std::pair<std::uint64_t, std::uint64_t>> esp_sketch(const CharT* s, std::size_t n) {
    detail::EspWorkspace ws;
    std::vector<std::uint64_t> labels;
    std::vector<std::uint64_t> counts;
    detail::esp_characteristic_vector(s, n, ws, labels, counts);
    std::vector<std::pair<std::uint64_t, std::uint64_t>> out(labels.size());
    for (std::size_t i = 0; i < labels.size(); ++i) out[i] = {labels[i], counts[i]};
    return out;
}

inline std::vector<std::pair<std::uint64_t, std::uint64_t>> esp_sketch(const TextView& text) {
    return visit_text(text, [](auto p, std::size_t n) { return esp_sketch(p, n); });
}

// Sketches of every text, in parallel; the result does not depend on n_threads.
// The texts' parts and the output are alive together for a moment (see
// detail/esp_batch_impl.hpp): chunks (pyd2ke.chunking) bound both.
inline EspSketches esp_sketch_batch(const std::vector<TextView>& texts, int n_threads = 1) {
    const std::size_t n = texts.size();
    const std::size_t block = balanced_block(n, n_threads, 256, 16);
    detail::EspParts parts;
    detail::esp_parse_parts(texts, block, n_threads, parts);
    const std::size_t total = detail::esp_parts_pairs(parts, parts.parts.size());
    EspSketches out;
    out.labels.resize(total);
    out.counts.resize(total);
    out.offsets.resize(n + 1);
    out.offsets[0] = 0;
    advise_huge_pages(out.labels.data(), total * sizeof(std::uint64_t));
    advise_huge_pages(out.counts.data(), total * sizeof(double));
    detail::esp_copy_parts(parts, n, block, out.labels.data(), out.counts.data(), out.offsets.data(), 0, n_threads);
    return out;
}

// The sketches of texts given batch by batch (a chunked transform), in one
// set of arrays grown in place: each batch's pairs are copied once, into
// their place in the output, and the parts they are parsed into are reused
// from batch to batch. Concatenating per-batch outputs instead wrote every
// pair twice into fresh memory and held both copies at the end: twice the
// output's memory at the peak. The result does not depend on n_threads or
// on the batches.
class EspSketchAppender {
public:
    EspSketchAppender() {
        offsets.resize(1);
        offsets[0] = 0;
    }

    void append(const std::vector<TextView>& texts, int n_threads) {
        const std::size_t n = texts.size();
        if (n == 0) return;
        const std::size_t block = balanced_block(n, n_threads, 256, 16);
        detail::esp_parse_parts(texts, block, n_threads, parts_);
        const std::size_t first = labels.size(), strings = size();
        const std::size_t total = first + detail::esp_parts_pairs(parts_, (n + block - 1) / block);
        labels.resize(total);
        counts.resize(total);
        offsets.resize(strings + n + 1);
        detail::esp_copy_parts(parts_, n, block, labels.data(), counts.data(), offsets.data() + strings, first,
                               n_threads);
    }

    // Strings appended so far.
    std::size_t size() const { return offsets.size() - 1; }

    // No strings; the memory is kept for the next ones.
    void clear() {
        labels.resize(0);
        counts.resize(0);
        offsets.resize(1);
    }

    GrowableArray<std::uint64_t> labels;
    GrowableArray<double> counts;
    GrowableArray<std::int64_t> offsets;

private:
    detail::EspParts parts_;
};

// ||V(a) - V(b)||_1 of two sorted sketches, by a merge. Values of any sign
// (the L1 distances of sparse rows use it too; ESP counts are >= 0).
inline double esp_l1(const std::uint64_t* la, const double* ca, std::size_t na, const std::uint64_t* lb,
                     const double* cb, std::size_t nb) {
    double d = 0;
    std::size_t i = 0, j = 0;
    while (i < na && j < nb) {
        if (la[i] < lb[j]) {
            d += std::abs(ca[i++]);
        } else if (lb[j] < la[i]) {
            d += std::abs(cb[j++]);
        } else {
            d += std::abs(ca[i] - cb[j]);
            ++i;
            ++j;
        }
    }
    while (i < na) d += std::abs(ca[i++]);
    while (j < nb) d += std::abs(cb[j++]);
    return d;
}

// out[i * ny + j] = ||V(x_i) - V(y_j)||_1. Sketches given as raw CSR-like arrays.
template <class T>
void esp_l1_distances(const std::uint64_t* xl, const double* xc, const std::int64_t* xo, std::size_t nx,
                      const std::uint64_t* yl, const double* yc, const std::int64_t* yo, std::size_t ny, T* out,
                      int n_threads = 1) {
    parallel_for_blocks(nx, n_threads, 16, [&](std::size_t begin, std::size_t end) {
        for (std::size_t i = begin; i < end; ++i)
            for (std::size_t j = 0; j < ny; ++j)
                out[i * ny + j] = static_cast<T>(esp_l1(xl + xo[i], xc + xo[i], static_cast<std::size_t>(xo[i + 1] - xo[i]),
                                                        yl + yo[j], yc + yo[j], static_cast<std::size_t>(yo[j + 1] - yo[j])));
    });
}

// Sketches as a CSR matrix with hashed columns (label l in column
// l % n_features, equal columns of a row summed, columns ascending per row):
// indptr (n + 1), indices, data. Parallel over strings. Index: the type of
// indptr and indices (int32 where the columns and entries fit it).
template <class Index>
using HashedCsrOf = detail::HashedCsrOf<Index>;
using HashedCsr = HashedCsrOf<std::int64_t>;

template <class Index = std::int64_t>
HashedCsrOf<Index> esp_hashed_csr(const std::uint64_t* labels, const double* counts, const std::int64_t* offsets,
                                  std::size_t n, std::uint64_t n_features, int n_threads = 1) {
    detail::check_hashed_columns<Index>(n_features);
    return detail::esp_hashed_csr_impl<Index>(labels, counts, offsets, n, n_features, n_threads);
}

// The hashed-column CSR rows (see esp_hashed_csr) of texts given batch by
// batch, in one set of arrays grown in place, as EspSketchAppender does for
// the sketches: each batch is parsed and its rows merged in memory reused
// from batch to batch, then copied once, into place (data converted to T).
// Index: the type of the column indices (int32 when n_features fits it);
// indptr is int64, for any number of entries.
template <class Index, class T>
class EspCsrAppender {
public:
    explicit EspCsrAppender(std::uint64_t n_features) : n_features_(n_features) {
        detail::check_hashed_columns<Index>(n_features);
        indptr.resize(1);
        indptr[0] = 0;
    }

    void append(const std::vector<TextView>& texts, int n_threads) {
        const std::size_t n = texts.size();
        if (n == 0) return;
        batch_.clear();
        batch_.append(texts, n_threads);
        const std::size_t raw = batch_.labels.size();
        const std::size_t block = balanced_block(n, n_threads, 256, 16);
        merged_indices_.resize(raw);
        merged_data_.resize(raw);
        row_nnz_.resize(n);
        detail::esp_hashed_rows(batch_.labels.data(), batch_.counts.data(), batch_.offsets.data(), n, n_features_,
                                block, n_threads, merged_indices_.data(), merged_data_.data(), row_nnz_.data());
        const std::size_t strings = size(), first = indices.size();
        indptr.resize(strings + n + 1);
        for (std::size_t i = 0; i < n; ++i) indptr[strings + i + 1] = indptr[strings + i] + row_nnz_[i];
        indices.resize(static_cast<std::size_t>(indptr[strings + n]));
        data.resize(indices.size());
        detail::esp_compact_rows(batch_.offsets.data(), n, row_nnz_.data(), merged_indices_.data(),
                                 merged_data_.data(), indptr.data() + strings, indices.data() + first,
                                 data.data() + first, block, n_threads);
    }

    // Strings appended so far.
    std::size_t size() const { return indptr.size() - 1; }

    GrowableArray<std::int64_t> indptr;
    GrowableArray<Index> indices;
    GrowableArray<T> data;

private:
    std::uint64_t n_features_;
    // Reused from batch to batch: the batch's sketches and its merged rows.
    EspSketchAppender batch_;
    UninitializedVector<Index> merged_indices_;
    UninitializedVector<double> merged_data_;
    std::vector<std::int64_t> row_nnz_;
};

}  // namespace pyd2ke
