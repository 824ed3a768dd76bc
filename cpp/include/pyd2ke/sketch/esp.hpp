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

#include <cstddef>
#include <cstdint>
#include <mutex>
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
    std::vector<std::uint64_t> labels;
    std::vector<double> counts;
    std::vector<std::int64_t> offsets{0};

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
// Texts go in blocks, and the output is written once, in order: the block
// that comes next in the output parses straight into it, any other into a
// part of its own that is appended (and freed) as soon as every earlier
// block is there. One thread thus never copies, and only a few parts are
// alive at any time.
inline EspSketches esp_sketch_batch(const std::vector<TextView>& texts, int n_threads = 1) {
    constexpr std::size_t block = 256;
    const std::size_t n = texts.size();
    const std::size_t n_blocks = (n + block - 1) / block;
    EspSketches out;
    // Random text keeps about 0.8 distinct labels per character: reserve
    // once, not by doubling, in huge pages (hundreds of MB for 10^5 strings).
    std::size_t total_chars = 0;
    for (const TextView& t : texts) total_chars += t.size;
    out.labels.reserve(total_chars);
    out.counts.reserve(total_chars);
    advise_huge_pages(out.labels.data(), total_chars * sizeof(std::uint64_t));
    advise_huge_pages(out.counts.data(), total_chars * sizeof(double));
    out.offsets.reserve(n + 1);
    std::vector<EspSketches> parts(n_blocks);
    std::vector<char> parsed(n_blocks, 0);
    std::size_t appended = 0;  // blocks [0, appended) are in the output
    std::mutex order;
    parallel_for_blocks(n, n_threads, block, [&](std::size_t begin, std::size_t end) {
        detail::EspWorkspace ws;
        const std::size_t b = begin / block;
        bool direct;
        {
            std::lock_guard<std::mutex> lock(order);
            direct = appended == b;  // then no other thread writes to out until b is parsed
        }
        EspSketches& target = direct ? out : parts[b];
        if (!direct) {
            std::size_t chars = 0;
            for (std::size_t i = begin; i < end; ++i) chars += texts[i].size;
            target.labels.reserve(chars);
            target.counts.reserve(chars);
            target.offsets.reserve(end - begin + 1);
        }
        for (std::size_t i = begin; i < end; ++i) {
            visit_text(texts[i], [&](auto p, std::size_t len) {
                detail::esp_characteristic_vector(p, len, ws, target.labels, target.counts);
            });
            target.offsets.push_back(static_cast<std::int64_t>(target.labels.size()));
        }
        std::lock_guard<std::mutex> lock(order);
        parsed[b] = 1;
        if (direct) ++appended;
        for (; appended < n_blocks && parsed[appended]; ++appended) {
            EspSketches& p = parts[appended];
            const std::int64_t base = static_cast<std::int64_t>(out.labels.size());
            out.labels.insert(out.labels.end(), p.labels.begin(), p.labels.end());
            out.counts.insert(out.counts.end(), p.counts.begin(), p.counts.end());
            for (std::size_t i = 1; i < p.offsets.size(); ++i) out.offsets.push_back(base + p.offsets[i]);
            p = EspSketches();
        }
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
