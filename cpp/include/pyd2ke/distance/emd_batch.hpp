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
        std::vector<T> norms, block;
        std::vector<double> cost;
        std::vector<double> uniform;
        EmdWorkspace workspace;
    };

    EmdBatch(const std::vector<PointSetView<T>>& documents, SimdLevel level = detect_simd_level()) {
        if (static_cast<int>(level) < 0 || level > detect_simd_level())
            throw std::invalid_argument("EmdBatch: this CPU cannot run the requested SIMD level");
        if (documents.empty()) throw std::invalid_argument("EmdBatch: no documents");
        dim_ = documents[0].dim;
        if (dim_ == 0) throw std::invalid_argument("EmdBatch: points must have at least one coordinate");
        // Documents are grouped so that one group's points fill a distance
        // block of moderate width (the block for a long input stays in cache).
        std::vector<T> points;
        Group group;
        auto close_group = [&] {
            if (group.offsets.empty()) return;
            group.packed = detail::PackedPoints<T>(points.data(), points.size() / dim_, dim_, level);
            groups_.push_back(std::move(group));
            group = Group();
            points.clear();
        };
        for (const PointSetView<T>& d : documents) {
            if (d.size == 0) throw std::invalid_argument("EmdBatch: documents must not be empty");
            if (d.dim != dim_) throw std::invalid_argument("EmdBatch: documents have different dimensions");
            if (!group.offsets.empty() && points.size() / dim_ + d.size > kGroupPoints) close_group();
            if (group.offsets.empty()) group.offsets.push_back(0);
            points.insert(points.end(), d.data, d.data + d.size * dim_);
            group.offsets.push_back(group.offsets.back() + d.size);
            for (std::size_t i = 0; i < d.size; ++i) weights_.push_back(d.weights ? d.weights[i] : 1.0);
            weight_offsets_.push_back(weights_.size() - d.size);
            ++n_documents_;
        }
        close_group();
    }

    std::size_t size() const { return n_documents_; }
    std::size_t dim() const { return dim_; }

    // out[j] = EMD(x, document j) for j < size().
    template <class Out>
    void distances(const PointSetView<T>& x, Out* out, Scratch& s) const {
        if (x.size == 0) throw std::invalid_argument("emd: documents must not be empty");
        if (x.dim != dim_) throw std::invalid_argument("emd: documents have different dimensions");
        const double* a = x.weights;
        if (a == nullptr) {
            s.uniform.assign(x.size, 1.0);
            a = s.uniform.data();
        }
        s.norms.resize(x.size);
        for (std::size_t i = 0; i < x.size; ++i) s.norms[i] = detail::squared_norm(x.point(i), dim_);
        std::size_t j = 0;
        for (const Group& g : groups_) {
            const std::size_t ldo = g.packed.padded_count();
            s.block.resize(x.size * ldo);
            g.packed.squared_distances(x.data, s.norms.data(), 0, x.size, s.block.data());
            for (std::size_t k = 0; k + 1 < g.offsets.size(); ++k, ++j) {
                const std::size_t first = g.offsets[k], m = g.offsets[k + 1] - first;
                s.cost.resize(x.size * m);
                for (std::size_t i = 0; i < x.size; ++i)
                    for (std::size_t c = 0; c < m; ++c)
                        s.cost[i * m + c] = std::sqrt(static_cast<double>(s.block[i * ldo + first + c]));
                out[j] = static_cast<Out>(
                    emd_from_cost(s.cost.data(), x.size, m, a, &weights_[weight_offsets_[j]], s.workspace));
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

    struct Group {
        std::vector<std::size_t> offsets;  // document k of the group owns points offsets[k]..offsets[k+1]
        detail::PackedPoints<T> packed;
    };

    std::size_t dim_ = 0, n_documents_ = 0;
    std::vector<Group> groups_;
    std::vector<double> weights_;             // every document's weights, concatenated
    std::vector<std::size_t> weight_offsets_;  // document j's first weight
};

}  // namespace pyd2ke
