#pragma once
// EmdBatch internals (distance/emd_batch.hpp): the random documents' words
// in one collection with their kept (positive) weights, and the EMD of an
// input document to every random document from blocks of squared distances
// (or from a word table), one transportation problem per document pair.

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <vector>

#include "../core/cpu_features.hpp"
#include "../core/finite.hpp"
#include "../core/point_set.hpp"
#include "../distance/emd.hpp"
#include "emd_impl.hpp"
#include "sqdist_block_impl.hpp"

namespace pyd2ke {
namespace detail {

// emd_from_cost of ground costs computed from finite points: a cost that is
// not finite overflowed, and so does the distance: +infinity, the mark the
// callers' finite checks report (emd_from_cost would throw without a name).
inline double emd_of_computed_costs(const double* cost, std::size_t n, std::size_t m, const double* a,
                                    const double* b, EmdWorkspace& ws) {
    if (!all_finite(cost, n * m)) return std::numeric_limits<double>::infinity();
    return emd_from_cost(cost, n, m, a, b, ws);
}

// EMD between two weighted point sets, ground costs from differences in
// double precision (the definition the batch is tested against).
template <class T>
double emd_from_differences(const PointSetView<T>& a, const PointSetView<T>& b, EmdWorkspace& ws) {
    if (a.dim != b.dim) throw std::invalid_argument("emd: sets have different dimensions");
    std::vector<double> cost(a.size * b.size);
    for (std::size_t i = 0; i < a.size; ++i)
        for (std::size_t j = 0; j < b.size; ++j) {
            double s = 0;
            for (std::size_t k = 0; k < a.dim; ++k) {
                const double d = static_cast<double>(a.point(i)[k]) - static_cast<double>(b.point(j)[k]);
                s += d * d;
            }
            cost[i * b.size + j] = std::sqrt(s);
        }
    const std::vector<double> ua(a.weights ? 0 : a.size, 1.0), ub(b.weights ? 0 : b.size, 1.0);
    return emd_of_computed_costs(cost.data(), a.size, b.size, a.weights ? a.weights : ua.data(),
                                 b.weights ? b.weights : ub.data(), ws);
}

template <class T>
class PackedDocuments {
public:
    // Per-thread scratch memory.
    struct Scratch {
        PackedPoints<T> input;  // the input document, packed for the distance kernel
        std::vector<T> block;
        std::vector<double> cost;
        std::vector<double> uniform;
        std::vector<std::size_t> kept;  // the input's points of positive weight
        std::vector<double> mass;       // and their normalised weights
        std::vector<const T*> table_rows;  // distances_from_table: the kept points' rows
        EmdWorkspace workspace;
    };

    PackedDocuments(const std::vector<PointSetView<T>>& documents, SimdLevel level) : level_(level) {
        if (documents.empty()) throw std::invalid_argument("EmdBatch: no documents");
        dim_ = documents[0].dim;
        if (dim_ == 0) throw std::invalid_argument("EmdBatch: points must have at least one coordinate");
        std::vector<std::size_t> kept;
        std::vector<double> mass;
        for (const PointSetView<T>& d : documents) {
            if (d.size == 0) throw std::invalid_argument("EmdBatch: documents must not be empty");
            if (d.dim != dim_) throw std::invalid_argument("EmdBatch: documents have different dimensions");
            const std::size_t first = word_offsets_.back();
            points_.insert(points_.end(), d.data, d.data + d.size * dim_);
            for (std::size_t i = 0; i < d.size; ++i) {
                norms_.push_back(squared_norm(d.point(i), dim_));
                weights_.push_back(d.weights ? d.weights[i] : 1.0);
            }
            word_offsets_.push_back(first + d.size);
            const std::size_t n_kept = keep_positive_weights(&weights_[first], d.size, "target", kept, mass);
            kept_.insert(kept_.end(), kept.begin(), kept.begin() + n_kept);
            mass_.insert(mass_.end(), mass.begin(), mass.begin() + n_kept);
            kept_offsets_.push_back(kept_.size());
        }
        random_words_.assign(points_.data(), word_offsets_.back(), dim_, level_);
    }

    std::size_t size() const { return word_offsets_.size() - 1; }
    std::size_t dim() const { return dim_; }

    // out[j] = EMD(x, document j) for j < size().
    //
    // The input's weights are validated and normalised once, the random
    // documents' ones at construction. The input is packed as the distance
    // kernel's columns and a group's random words are its rows, so that each
    // random word's squared distances to the input's words are contiguous:
    // the transport simplex wants its costs in that (column-major) layout.
    template <class Out>
    void distances(const PointSetView<T>& x, Out* out, Scratch& s) const {
        if (x.size == 0) throw std::invalid_argument("emd: documents must not be empty");
        if (x.dim != dim_) throw std::invalid_argument("emd: documents have different dimensions");
        const double* a = x.weights;
        const std::size_t n = x.size, ns = keep_input_weights(a, n, s);
        s.workspace.set_simd_level(level_);
        const std::size_t* src = s.kept.data();
        s.input.assign(x.data, n, dim_, level_);
        const std::size_t ldb = s.input.padded_count();
        // Distances for as many documents at a time as fit a block of
        // kBlockBytes (at least one document), so that the block is still in
        // cache when the simplex reads it, however long the input.
        const std::size_t block_words = std::max<std::size_t>(1, kBlockBytes / (ldb * sizeof(T)));
        const std::size_t n_docs = size();
        for (std::size_t j0 = 0, j1; j0 < n_docs; j0 = j1) {
            const std::size_t base = word_offsets_[j0];
            for (j1 = j0 + 1; j1 < n_docs && word_offsets_[j1 + 1] - base <= block_words;) ++j1;
            s.block.resize((word_offsets_[j1] - base) * ldb);
            s.input.squared_distances(points_.data(), norms_.data(), base, word_offsets_[j1], s.block.data());
            for (std::size_t j = j0; j < j1; ++j) {
                const T* block = s.block.data() + (word_offsets_[j] - base) * ldb;  // row c: document word c
                const std::size_t* tgt = &kept_[kept_offsets_[j]];
                const std::size_t nt = kept_offsets_[j + 1] - kept_offsets_[j];
                const double d = document_distance(
                    j, n, ns, a, s, [&](std::size_t i, std::size_t c) { return block[c * ldb + i]; },
                    [&](double* cost, std::size_t rows, bool transposed) {
                        if (!transposed) {  // rows: the input's points; a column: one document word
                            for (std::size_t jj = 0; jj < nt; ++jj) {
                                const T* from = block + tgt[jj] * ldb;
                                double* to = cost + jj * rows;
                                if (ns == n)  // every input point kept: a contiguous, vectorised pass
                                    for (std::size_t ii = 0; ii < ns; ++ii) to[ii] = static_cast<double>(from[ii]);
                                else
                                    for (std::size_t ii = 0; ii < ns; ++ii) to[ii] = static_cast<double>(from[src[ii]]);
                            }
                        } else {  // rows: the document's points
                            for (std::size_t ii = 0; ii < ns; ++ii) {
                                double* to = cost + ii * rows;
                                for (std::size_t jj = 0; jj < nt; ++jj)
                                    to[jj] = static_cast<double>(block[tgt[jj] * ldb + src[ii]]);
                            }
                        }
                    });
                out[j] = static_cast<Out>(d);
            }
        }
    }

    // Row stride of the word tables.
    std::size_t word_table_stride() const { return random_words_.padded_count(); }

    // Rows [begin, end) of the word table of `words`. Each entry is computed
    // as in distances() (the same products in the same order), so both paths
    // give the same bits.
    void fill_word_table(const T* words, const T* norms, std::size_t begin, std::size_t end, T* table) const {
        random_words_.squared_distances(words, norms, begin, end, table + begin * word_table_stride());
    }

    // out[j] = EMD(x, document j), where word i of x has its squared
    // distances in row rows[i] of `table`. The simplex's costs come straight
    // from the table: a document pair reads a short run of each of the
    // input's rows.
    template <class Out>
    void distances_from_table(const T* table, const std::uint32_t* rows, const double* weights, std::size_t n,
                              Out* out, Scratch& s) const {
        if (n == 0) throw std::invalid_argument("emd: documents must not be empty");
        const std::size_t ns = keep_input_weights(weights, n, s);
        s.workspace.set_simd_level(level_);
        const std::size_t ld = word_table_stride();
        s.table_rows.resize(ns);
        const T** row = s.table_rows.data();  // row[ii]: kept point ii's distances
        for (std::size_t ii = 0; ii < ns; ++ii) row[ii] = table + rows[s.kept[ii]] * ld;
        for (std::size_t j = 0; j < size(); ++j) {
            const std::size_t first = word_offsets_[j];
            const std::size_t* tgt = &kept_[kept_offsets_[j]];
            const std::size_t nt = kept_offsets_[j + 1] - kept_offsets_[j];
            const double d = document_distance(
                j, n, ns, weights, s, [&](std::size_t i, std::size_t c) { return table[rows[i] * ld + first + c]; },
                [&](double* cost, std::size_t n_rows, bool transposed) {
                    if (!transposed) {  // rows: the input's points; contiguous writes
                        for (std::size_t jj = 0; jj < nt; ++jj) {
                            const std::size_t column = first + tgt[jj];
                            double* to = cost + jj * n_rows;
                            for (std::size_t ii = 0; ii < ns; ++ii) to[ii] = static_cast<double>(row[ii][column]);
                        }
                    } else {  // rows: the document's points
                        for (std::size_t ii = 0; ii < ns; ++ii) {
                            const T* from = row[ii] + first;
                            double* to = cost + ii * n_rows;
                            for (std::size_t jj = 0; jj < nt; ++jj) to[jj] = static_cast<double>(from[tgt[jj]]);
                        }
                    }
                });
            out[j] = static_cast<Out>(d);
        }
    }

private:
    static constexpr std::size_t kBlockBytes = std::size_t{1} << 18;

    // Validates the input's weights (a; nullptr: uniform, then a points to
    // s.uniform) and keeps the positive ones: their indices in s.kept, their
    // normalised masses in s.mass. Returns how many were kept.
    std::size_t keep_input_weights(const double*& a, std::size_t n, Scratch& s) const {
        if (a == nullptr) {
            s.uniform.assign(n, 1.0);
            a = s.uniform.data();
        }
        return keep_positive_weights(a, n, "source", s.kept, s.mass);
    }

    // EMD of the input (n points, weights a, ns of them kept) to document j.
    // squared(i, c): squared distance of input point i to word c of the
    // document, for the closed forms. fill(cost, rows, transposed): the
    // simplex's squared distances between the kept points, column-major,
    // with the longer side as rows (the document's points when transposed);
    // the simplex takes the square roots in its own SIMD lanes (this class is
    // compiled for the baseline ISA; the workspace runs the simplex built for
    // level_).
    template <class Squared, class Fill>
    double document_distance(std::size_t j, std::size_t n, std::size_t ns, const double* a, Scratch& s,
                             Squared&& squared, Fill&& fill) const {
        const std::size_t first = word_offsets_[j], m = word_offsets_[j + 1] - first;
        const std::size_t nt = kept_offsets_[j + 1] - kept_offsets_[j];
        if (ns == 1 || nt == 1) {  // closed forms: the general entry point
            s.cost.resize(n * m);
            for (std::size_t i = 0; i < n; ++i)
                for (std::size_t c = 0; c < m; ++c) s.cost[i * m + c] = std::sqrt(static_cast<double>(squared(i, c)));
            return emd_of_computed_costs(s.cost.data(), n, m, a, &weights_[first], s.workspace);
        }
        const double* target_mass = &mass_[kept_offsets_[j]];
        if (ns < nt)
            return s.workspace.solve_prepared(nt, ns, target_mass, s.mass.data(),
                                              [&](double* cost, std::size_t rows) { fill(cost, rows, true); });
        return s.workspace.solve_prepared(ns, nt, s.mass.data(), target_mass,
                                          [&](double* cost, std::size_t rows) { fill(cost, rows, false); });
    }

    SimdLevel level_;
    std::size_t dim_ = 0;
    std::vector<T> points_;                      // every document's words, row-major
    std::vector<T> norms_;                       // and their squared norms
    PackedPoints<T> random_words_;               // the same words as the kernel's columns (word tables)
    std::vector<std::size_t> word_offsets_{0};  // document j owns words word_offsets_[j] .. [j + 1]
    std::vector<double> weights_;                // one per word
    // Document j's points of positive weight (indices into the document) and
    // their normalised weights: kept_[kept_offsets_[j] .. kept_offsets_[j+1]).
    std::vector<std::size_t> kept_, kept_offsets_{0};
    std::vector<double> mass_;
};

}  // namespace detail
}  // namespace pyd2ke
