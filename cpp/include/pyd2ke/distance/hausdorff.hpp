#pragma once
// Hausdorff distances between sets of points in R^d (Euclidean ground
// distance):
//   hausdorff:           max( max_a min_b |a - b|,  max_b min_a |a - b| )
//   modified_hausdorff:  max( mean_a min_b |a - b|, mean_b min_a |a - b| )
// (Dubuisson & Jain, 1994). SetDistanceBatch holds a fixed collection of
// sets (D2KE's random sets) and computes the distances of one input set to
// all of them from one block of squared distances against all their points.

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "../core/cpu_features.hpp"
#include "../core/point_set.hpp"
#include "../detail/sqdist_block_impl.hpp"

namespace pyd2ke {

enum class SetMetric { hausdorff, modified_hausdorff };

inline SetMetric set_metric_from_name(const std::string& name) {
    if (name == "hausdorff") return SetMetric::hausdorff;
    if (name == "modified_hausdorff") return SetMetric::modified_hausdorff;
    throw std::invalid_argument("set metric must be 'hausdorff' or 'modified_hausdorff', got '" + name + "'");
}

// The definition, from differences, in double precision.
template <class T>
double set_distance_reference(const PointSetView<T>& a, const PointSetView<T>& b, SetMetric metric) {
    if (a.size == 0 || b.size == 0) throw std::invalid_argument("set_distance: sets must not be empty");
    if (a.dim != b.dim) throw std::invalid_argument("set_distance: sets have different dimensions");
    auto directed = [&](const PointSetView<T>& x, const PointSetView<T>& y) {
        double total = 0, worst = 0;
        for (std::size_t i = 0; i < x.size; ++i) {
            double best = std::numeric_limits<double>::infinity();
            for (std::size_t j = 0; j < y.size; ++j) {
                double s = 0;
                for (std::size_t k = 0; k < x.dim; ++k) {
                    const double d = static_cast<double>(x.point(i)[k]) - static_cast<double>(y.point(j)[k]);
                    s += d * d;
                }
                best = std::min(best, s);
            }
            total += std::sqrt(best);
            worst = std::max(worst, std::sqrt(best));
        }
        return metric == SetMetric::hausdorff ? worst : total / static_cast<double>(x.size);
    };
    return std::max(directed(a, b), directed(b, a));
}

template <class T>
class SetDistanceBatch {
public:
    struct Scratch {
        std::vector<T> norms, block, column_min, row_min;
        std::vector<double> row_part;
    };

    SetDistanceBatch(const std::vector<PointSetView<T>>& sets, SetMetric metric,
                     SimdLevel level = detect_simd_level())
        : metric_(metric) {
        if (static_cast<int>(level) < 0 || level > detect_simd_level())
            throw std::invalid_argument("SetDistanceBatch: this CPU cannot run the requested SIMD level");
        if (sets.empty()) throw std::invalid_argument("SetDistanceBatch: no sets");
        dim_ = sets[0].dim;
        if (dim_ == 0) throw std::invalid_argument("SetDistanceBatch: points must have at least one coordinate");
        std::vector<T> points;
        offsets_.push_back(0);
        for (const PointSetView<T>& s : sets) {
            if (s.size == 0) throw std::invalid_argument("SetDistanceBatch: sets must not be empty");
            if (s.dim != dim_) throw std::invalid_argument("SetDistanceBatch: sets have different dimensions");
            points.insert(points.end(), s.data, s.data + s.size * s.dim);
            offsets_.push_back(offsets_.back() + s.size);
        }
        packed_ = detail::PackedPoints<T>(points.data(), offsets_.back(), dim_, level);
    }

    std::size_t size() const { return offsets_.size() - 1; }
    std::size_t dim() const { return dim_; }

    // out[j] = distance(x, set j) for j < size().
    template <class Out>
    void distances(const PointSetView<T>& x, Out* out, Scratch& s) const {
        if (x.size == 0) throw std::invalid_argument("set distance: sets must not be empty");
        if (x.dim != dim_) throw std::invalid_argument("set distance: sets have different dimensions");
        const bool modified = metric_ == SetMetric::modified_hausdorff;
        const std::size_t n_sets = size(), count = packed_.count(), ldo = packed_.padded_count();
        s.norms.resize(x.size);
        for (std::size_t i = 0; i < x.size; ++i) s.norms[i] = detail::squared_norm(x.point(i), dim_);
        s.column_min.assign(count, std::numeric_limits<T>::infinity());
        s.row_part.assign(n_sets, 0.0);
        s.row_min.resize(n_sets);
        s.block.resize(kRowBlock * ldo);
        for (std::size_t begin = 0; begin < x.size; begin += kRowBlock) {
            const std::size_t end = std::min(x.size, begin + kRowBlock);
            packed_.squared_distances(x.data, s.norms.data(), begin, end, s.block.data());
            for (std::size_t r = 0; r < end - begin; ++r) {
                const T* row = &s.block[r * ldo];
                T* column_min = s.column_min.data();
                for (std::size_t c = 0; c < count; ++c) column_min[c] = row[c] < column_min[c] ? row[c] : column_min[c];
                // Nearest point of every random set, then all their roots in
                // one loop the compiler can vectorise.
                T* nearest = s.row_min.data();
                for (std::size_t j = 0; j < n_sets; ++j) {
                    T m = row[offsets_[j]];
                    for (std::size_t c = offsets_[j] + 1; c < offsets_[j + 1]; ++c) m = row[c] < m ? row[c] : m;
                    nearest[j] = m;
                }
                for (std::size_t j = 0; j < n_sets; ++j) nearest[j] = std::sqrt(nearest[j]);
                if (modified)
                    for (std::size_t j = 0; j < n_sets; ++j) s.row_part[j] += nearest[j];
                else
                    for (std::size_t j = 0; j < n_sets; ++j) s.row_part[j] = std::max<double>(s.row_part[j], nearest[j]);
            }
        }
        for (std::size_t j = 0; j < n_sets; ++j) {
            double column_part = 0;
            for (std::size_t c = offsets_[j]; c < offsets_[j + 1]; ++c) {
                const double d = std::sqrt(static_cast<double>(s.column_min[c]));
                column_part = modified ? column_part + d : std::max(column_part, d);
            }
            double row_part = s.row_part[j];
            if (modified) {
                row_part /= static_cast<double>(x.size);
                column_part /= static_cast<double>(offsets_[j + 1] - offsets_[j]);
            }
            out[j] = static_cast<Out>(std::max(row_part, column_part));
        }
    }

    template <class Out>
    void distances(const PointSetView<T>& x, Out* out) const {
        Scratch scratch;
        distances(x, out, scratch);
    }

private:
    // Rows of the input set per distance block: the block (kRowBlock x all
    // random points) stays in the L2 cache while it is reduced.
    static constexpr std::size_t kRowBlock = 48;

    SetMetric metric_;
    std::size_t dim_ = 0;
    std::vector<std::size_t> offsets_;  // set j owns points offsets_[j] .. offsets_[j+1]
    detail::PackedPoints<T> packed_;
};

}  // namespace pyd2ke
