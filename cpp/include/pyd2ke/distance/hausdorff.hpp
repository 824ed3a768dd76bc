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
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>
#include <vector>

#include "../core/config.hpp"
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

// One pass over a row of distances (n >= 1): nearest[r] = min(nearest[r],
// row[r]), and the row's minimum. Written with vector types because the
// compiler does not vectorise the two minima of one loop by itself.
template <class T>
T fold_row(const T* row, T* nearest, std::size_t n) {
    std::size_t r = 0;
    T m = row[0];
#if PYD2KE_HAS_VECTOR_EXTENSIONS
    typedef T Lanes __attribute__((vector_size(16)));
    constexpr std::size_t kWidth = sizeof(Lanes) / sizeof(T);
    if (n >= kWidth) {
        Lanes lowest, v, near;
        std::memcpy(&lowest, row, sizeof lowest);
        for (; r + kWidth <= n; r += kWidth) {
            std::memcpy(&v, row + r, sizeof v);
            std::memcpy(&near, nearest + r, sizeof near);
            lowest = v < lowest ? v : lowest;
            near = v < near ? v : near;
            std::memcpy(nearest + r, &near, sizeof near);
        }
        for (std::size_t k = 0; k < kWidth; ++k) m = lowest[k] < m ? lowest[k] : m;
    }
#endif
    for (; r < n; ++r) {
        m = row[r] < m ? row[r] : m;
        nearest[r] = row[r] < nearest[r] ? row[r] : nearest[r];
    }
    return m;
}

// Sum (or maximum, if Maximum) of sqrt(x[r]) over r < n: roots in T,
// accumulated in double in independent lanes (a single running sum would
// chain every addition on the previous one).
template <bool Maximum, class T>
double root_sum(const T* x, std::size_t n) {
    constexpr std::size_t kLanes = 8;
    double lane[kLanes] = {};
    std::size_t r = 0;
    for (; r + kLanes <= n; r += kLanes)
        for (std::size_t k = 0; k < kLanes; ++k) {
            const double v = static_cast<double>(std::sqrt(x[r + k]));
            lane[k] = Maximum ? std::max(lane[k], v) : lane[k] + v;
        }
    double total = 0;
    for (; r < n; ++r) {
        const double v = static_cast<double>(std::sqrt(x[r]));
        total = Maximum ? std::max(total, v) : total + v;
    }
    for (std::size_t k = 0; k < kLanes; ++k) total = Maximum ? std::max(total, lane[k]) : total + lane[k];
    return total;
}

template <class T>
class SetDistanceBatch {
public:
    struct Scratch {
        detail::PackedPoints<T> input;  // the input set, packed as the blocks' columns
        std::vector<T> block, nearest;
    };

    SetDistanceBatch(const std::vector<PointSetView<T>>& sets, SetMetric metric,
                     SimdLevel level = detect_simd_level())
        : metric_(metric), level_(require_simd_level(level)) {
        if (sets.empty()) throw std::invalid_argument("SetDistanceBatch: no sets");
        dim_ = sets[0].dim;
        if (dim_ == 0) throw std::invalid_argument("SetDistanceBatch: points must have at least one coordinate");
        offsets_.push_back(0);
        for (const PointSetView<T>& s : sets) {
            if (s.size == 0) throw std::invalid_argument("SetDistanceBatch: sets must not be empty");
            if (s.dim != dim_) throw std::invalid_argument("SetDistanceBatch: sets have different dimensions");
            points_.insert(points_.end(), s.data, s.data + s.size * s.dim);
            offsets_.push_back(offsets_.back() + s.size);
        }
        for (std::size_t c = 0; c < offsets_.back(); ++c) norms_.push_back(detail::squared_norm(&points_[c * dim_], dim_));
    }

    std::size_t size() const { return offsets_.size() - 1; }
    std::size_t dim() const { return dim_; }

    // out[j] = distance(x, set j) for j < size().
    //
    // The input's points are packed as the columns of the distance blocks
    // and the random points are the rows, a block of rows at a time: then a
    // random point's nearest input point is a minimum along its row, and an
    // input point's nearest point of random set j is an element-wise minimum
    // of set j's rows, so both reductions run in contiguous vector loops.
    template <class Out>
    void distances(const PointSetView<T>& x, Out* out, Scratch& s) const {
        if (x.size == 0) throw std::invalid_argument("set distance: sets must not be empty");
        if (x.dim != dim_) throw std::invalid_argument("set distance: sets have different dimensions");
        const bool modified = metric_ == SetMetric::modified_hausdorff;
        const std::size_t n = x.size, count = offsets_.back();
        s.input.assign(x.data, n, dim_, level_);
        const std::size_t ldo = s.input.padded_count();
        s.block.resize(kRowBlock * ldo);
        s.nearest.assign(n, std::numeric_limits<T>::infinity());
        std::size_t j = 0;           // the random set the current row belongs to
        double column_part = 0;      // over set j's points: sum (or max) of distances to the input
        for (std::size_t begin = 0; begin < count; begin += kRowBlock) {
            const std::size_t end = std::min(count, begin + kRowBlock);
            s.input.squared_distances(points_.data(), norms_.data(), begin, end, s.block.data());
            for (std::size_t c = begin; c < end; ++c) {
                const T* row = &s.block[(c - begin) * ldo];
                T* nearest = s.nearest.data();
                const double d = static_cast<double>(std::sqrt(fold_row(row, nearest, n)));
                column_part = modified ? column_part + d : std::max(column_part, d);
                if (c + 1 == offsets_[j + 1]) {  // set j is complete
                    double row_part = modified ? root_sum<false>(nearest, n) : root_sum<true>(nearest, n);
                    if (modified) {
                        row_part /= static_cast<double>(n);
                        column_part /= static_cast<double>(offsets_[j + 1] - offsets_[j]);
                    }
                    out[j] = static_cast<Out>(std::max(row_part, column_part));
                    std::fill_n(nearest, n, std::numeric_limits<T>::infinity());
                    column_part = 0;
                    ++j;
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
    // Random points per distance block: one call of the register-tiled
    // kernel, so the block (kRowBlock x the input's points) is still in the
    // L1 cache when it is reduced.
    static constexpr std::size_t kRowBlock = detail::kSqdistMaxRows;

    SetMetric metric_;
    SimdLevel level_;
    std::size_t dim_ = 0;
    std::vector<std::size_t> offsets_;  // set j owns points offsets_[j] .. offsets_[j+1]
    std::vector<T> points_, norms_;     // every random point, row-major, and its squared norm
};

}  // namespace pyd2ke
