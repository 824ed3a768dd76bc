#pragma once
// Earth Mover's distances of one weighted point set (a document: word
// vectors and their weights) to a fixed collection of weighted point sets
// (D2KE's random documents), with Euclidean ground cost. The ground costs
// come from blocked squared distances against all points of a group of
// random documents at once; each document pair is then one exact
// transportation problem (emd_from_cost).

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <stdexcept>
#include <vector>

#include "../core/cpu_features.hpp"
#include "../core/point_set.hpp"
#include "../detail/sqdist_block_impl.hpp"
#include "emd.hpp"

namespace pyd2ke {

// EMD between two weighted point sets, ground costs from differences in
// double precision. Weights need not be normalised; nullptr means uniform.
template <class T>
double emd_reference_costs(const PointSetView<T>& a, const PointSetView<T>& b, EmdWorkspace& ws) {
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
    return emd_from_cost(cost.data(), a.size, b.size, a.weights ? a.weights : ua.data(),
                         b.weights ? b.weights : ub.data(), ws);
}

template <class T>
class EmdBatch {
public:
    struct Scratch {
        detail::PackedPoints<T> input;  // the input document, packed for the distance kernel
        std::vector<T> block;
        std::vector<double> cost;
        std::vector<double> uniform;
        std::vector<std::size_t> kept;  // the input's points of positive weight
        std::vector<double> mass;       // and their normalised weights
        EmdWorkspace workspace;
    };

    EmdBatch(const std::vector<PointSetView<T>>& documents, SimdLevel level = detect_simd_level()) : level_(level) {
        if (static_cast<int>(level) < 0 || level > detect_simd_level())
            throw std::invalid_argument("EmdBatch: this CPU cannot run the requested SIMD level");
        if (documents.empty()) throw std::invalid_argument("EmdBatch: no documents");
        dim_ = documents[0].dim;
        if (dim_ == 0) throw std::invalid_argument("EmdBatch: points must have at least one coordinate");
        // Documents are grouped so that one group's points fill a distance
        // block of moderate height (the block for a long input stays in cache).
        std::vector<std::size_t> kept;
        std::vector<double> mass;
        Group group;
        for (const PointSetView<T>& d : documents) {
            if (d.size == 0) throw std::invalid_argument("EmdBatch: documents must not be empty");
            if (d.dim != dim_) throw std::invalid_argument("EmdBatch: documents have different dimensions");
            if (!group.offsets.empty() && group.offsets.back() + d.size > kGroupPoints) {
                groups_.push_back(std::move(group));
                group = Group();
            }
            if (group.offsets.empty()) group.offsets.push_back(0);
            group.points.insert(group.points.end(), d.data, d.data + d.size * dim_);
            for (std::size_t i = 0; i < d.size; ++i) group.norms.push_back(detail::squared_norm(d.point(i), dim_));
            group.offsets.push_back(group.offsets.back() + d.size);
            for (std::size_t i = 0; i < d.size; ++i) weights_.push_back(d.weights ? d.weights[i] : 1.0);
            weight_offsets_.push_back(weights_.size() - d.size);
            const std::size_t n_kept = detail::keep_positive_weights(&weights_[weight_offsets_.back()], d.size,
                                                                     "target", kept, mass);
            kept_.insert(kept_.end(), kept.begin(), kept.begin() + n_kept);
            mass_.insert(mass_.end(), mass.begin(), mass.begin() + n_kept);
            kept_offsets_.push_back(kept_.size());
            ++n_documents_;
        }
        groups_.push_back(std::move(group));
    }

    std::size_t size() const { return n_documents_; }
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
        if (a == nullptr) {
            s.uniform.assign(x.size, 1.0);
            a = s.uniform.data();
        }
        const std::size_t ns = detail::keep_positive_weights(a, x.size, "source", s.kept, s.mass);
        s.input.assign(x.data, x.size, dim_, level_);
        const std::size_t ldb = s.input.padded_count();
        // Distances for as many of a group's documents at a time as fit a
        // block of kBlockBytes (at least one document): a long input would
        // otherwise make the block outgrow the caches before it is read.
        const std::size_t block_words = std::max<std::size_t>(1, kBlockBytes / (ldb * sizeof(T)));
        std::size_t j = 0;
        for (const Group& g : groups_) {
            const std::size_t n_docs = g.offsets.size() - 1;
            for (std::size_t k0 = 0, k1; k0 < n_docs; k0 = k1) {
                const std::size_t base = g.offsets[k0];
                for (k1 = k0 + 1; k1 < n_docs && g.offsets[k1 + 1] - base <= block_words;) ++k1;
                s.block.resize((g.offsets[k1] - base) * ldb);
                s.input.squared_distances(g.points.data(), g.norms.data(), base, g.offsets[k1], s.block.data());
                for (std::size_t k = k0; k < k1; ++k, ++j) {
                    const std::size_t first = g.offsets[k], m = g.offsets[k + 1] - first;
                    const T* block = s.block.data() + (first - base) * ldb;  // row c: document word c
                    const std::size_t* tgt = &kept_[kept_offsets_[j]];
                    const std::size_t nt = kept_offsets_[j + 1] - kept_offsets_[j];
                    double d;
                    if (ns == 1 || nt == 1) {  // closed forms: the general entry point
                        s.cost.resize(x.size * m);
                        for (std::size_t i = 0; i < x.size; ++i)
                            for (std::size_t c = 0; c < m; ++c)
                                s.cost[i * m + c] = std::sqrt(static_cast<double>(block[c * ldb + i]));
                        d = emd_from_cost(s.cost.data(), x.size, m, a, &weights_[weight_offsets_[j]], s.workspace);
                    } else {
                        d = transport(s, x.size, ns, block, ldb, tgt, nt, &mass_[kept_offsets_[j]]);
                    }
                    out[j] = static_cast<Out>(d);
                }
            }
        }
    }

    template <class Out>
    void distances(const PointSetView<T>& x, Out* out) const {
        Scratch scratch;
        distances(x, out, scratch);
    }

private:
    static constexpr std::size_t kGroupPoints = 512;
    static constexpr std::size_t kBlockBytes = std::size_t{1} << 18;

    // The simplex on the kept points: the input's (ns of its n, in s.kept /
    // s.mass) and the document's (nt, tgt / target_mass; its squared
    // distances are the rows of `block`), the longer side as rows.
    double transport(Scratch& s, std::size_t n, std::size_t ns, const T* block, std::size_t ldb,
                     const std::size_t* tgt, std::size_t nt, const double* target_mass) const {
        const std::size_t* src = s.kept.data();
        const bool transposed = ns < nt;
        auto fill = [&](double* c, std::size_t rows) {
            constexpr double kLargest = std::numeric_limits<double>::max();
            bool finite = true;  // false for an infinite or NaN cost
            if (!transposed) {  // rows: the input's points; a column: one document word
                for (std::size_t jj = 0; jj < nt; ++jj) {
                    const T* from = block + tgt[jj] * ldb;
                    double* to = c + jj * rows;
                    if (ns == n)  // every input point kept: a contiguous, vectorised pass
                        for (std::size_t ii = 0; ii < ns; ++ii) to[ii] = std::sqrt(static_cast<double>(from[ii]));
                    else
                        for (std::size_t ii = 0; ii < ns; ++ii)
                            to[ii] = std::sqrt(static_cast<double>(from[src[ii]]));
                    for (std::size_t ii = 0; ii < ns; ++ii) finite &= to[ii] <= kLargest;
                }
            } else {  // rows: the document's points
                for (std::size_t ii = 0; ii < ns; ++ii) {
                    double* to = c + ii * rows;
                    for (std::size_t jj = 0; jj < nt; ++jj) {
                        to[jj] = std::sqrt(static_cast<double>(block[tgt[jj] * ldb + src[ii]]));
                        finite &= to[jj] <= kLargest;
                    }
                }
            }
            if (!finite) throw std::invalid_argument("emd: costs must be finite");
        };
        return transposed ? s.workspace.solve_prepared(nt, ns, target_mass, s.mass.data(), fill)
                          : s.workspace.solve_prepared(ns, nt, s.mass.data(), target_mass, fill);
    }

    struct Group {
        std::vector<std::size_t> offsets;  // document k of the group owns words offsets[k]..offsets[k+1]
        std::vector<T> points;             // the group's words, row-major
        std::vector<T> norms;              // and their squared norms
    };

    SimdLevel level_;
    std::size_t dim_ = 0, n_documents_ = 0;
    std::vector<Group> groups_;
    std::vector<double> weights_;             // every document's weights, concatenated
    std::vector<std::size_t> weight_offsets_;  // document j's first weight
    // Document j's points of positive weight (indices into the document) and
    // their normalised weights: kept_[kept_offsets_[j] .. kept_offsets_[j+1]).
    std::vector<std::size_t> kept_, kept_offsets_{0};
    std::vector<double> mass_;
};

}  // namespace pyd2ke
