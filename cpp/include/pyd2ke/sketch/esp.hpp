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
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

#include "../core/memory.hpp"
#include "../core/parallel.hpp"
#include "../core/text.hpp"
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
// Texts go in blocks, each parsed into a part of its own; once every block
// is parsed, the parts are copied into the output in parallel, each at the
// place the sizes of the blocks before it give, and freed. No thread waits
// for another to append (an ordered append under a lock was serial: at 16
// threads it held ESP to 3x), at the price of the parts and the output
// being alive together for a moment: chunks (pyd2ke.chunking) bound both.
inline EspSketches esp_sketch_batch(const std::vector<TextView>& texts, int n_threads = 1) {
    const std::size_t n = texts.size();
    const std::size_t block = balanced_block(n, n_threads, 256, 16);
    const std::size_t n_blocks = (n + block - 1) / block;
    struct Part {
        std::vector<std::uint64_t> labels;
        std::vector<double> counts;
        std::vector<std::int64_t> ends;  // end of each string's pairs in the part
    };
    std::vector<Part> parts(n_blocks);
    parallel_for_blocks(n, n_threads, block, [&](std::size_t begin, std::size_t end) {
        detail::EspWorkspace ws;
        Part& part = parts[begin / block];
        std::size_t chars = 0;
        for (std::size_t i = begin; i < end; ++i) chars += texts[i].size;
        // Random text keeps about 0.8 distinct labels per character.
        part.labels.reserve(chars);
        part.counts.reserve(chars);
        part.ends.reserve(end - begin);
        for (std::size_t i = begin; i < end; ++i) {
            visit_text(texts[i], [&](auto p, std::size_t len) {
                detail::esp_characteristic_vector(p, len, ws, part.labels, part.counts);
            });
            part.ends.push_back(static_cast<std::int64_t>(part.labels.size()));
        }
    });
    std::vector<std::size_t> base(n_blocks + 1, 0);
    for (std::size_t b = 0; b < n_blocks; ++b) base[b + 1] = base[b] + parts[b].labels.size();
    EspSketches out;
    out.labels.resize(base[n_blocks]);
    out.counts.resize(base[n_blocks]);
    out.offsets.resize(n + 1);
    out.offsets[0] = 0;
    advise_huge_pages(out.labels.data(), base[n_blocks] * sizeof(std::uint64_t));
    advise_huge_pages(out.counts.data(), base[n_blocks] * sizeof(double));
    parallel_for_blocks(n_blocks, n_threads, 1, [&](std::size_t b, std::size_t) {
        Part& part = parts[b];
        std::copy(part.labels.begin(), part.labels.end(), out.labels.begin() + static_cast<std::ptrdiff_t>(base[b]));
        std::copy(part.counts.begin(), part.counts.end(), out.counts.begin() + static_cast<std::ptrdiff_t>(base[b]));
        for (std::size_t k = 0; k < part.ends.size(); ++k)
            out.offsets[b * block + k + 1] = static_cast<std::int64_t>(base[b]) + part.ends[k];
        part = Part();
    });
    return out;
}

// ||V(a) - V(b)||_1 of two sorted sketches, by a merge.
inline double esp_l1(const std::uint64_t* la, const double* ca, std::size_t na, const std::uint64_t* lb,
                     const double* cb, std::size_t nb) {
    double d = 0;
    std::size_t i = 0, j = 0;
    while (i < na && j < nb) {
        if (la[i] < lb[j]) {
            d += ca[i++];
        } else if (lb[j] < la[i]) {
            d += cb[j++];
        } else {
            d += ca[i] > cb[j] ? ca[i] - cb[j] : cb[j] - ca[i];
            ++i;
            ++j;
        }
    }
    while (i < na) d += ca[i++];
    while (j < nb) d += cb[j++];
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
    return detail::esp_hashed_csr_impl<Index>(labels, counts, offsets, n, n_features, n_threads);
}

}  // namespace pyd2ke
