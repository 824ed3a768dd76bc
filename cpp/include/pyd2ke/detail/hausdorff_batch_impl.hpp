#pragma once
// SetDistanceBatch internals (distance/hausdorff.hpp): every random set's
// points in one collection, and the distances of an input set to all the
// random sets from blocks of squared distances against that collection.

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <stdexcept>
#include <vector>

#include "../core/cpu_features.hpp"
#include "../core/point_set.hpp"
#include "hausdorff_impl.hpp"
#include "sqdist_block_impl.hpp"

namespace pyd2ke {
namespace detail {

template <class T>
class PackedSets {
public:
    // Per-thread scratch memory.
    struct Scratch {
        PackedPoints<T> input;  // the input set, packed as the blocks' columns
        std::vector<T> block, nearest;
    };

    // modified: the modified Hausdorff distance (means of the nearest
    // distances instead of maxima).
    PackedSets(const std::vector<PointSetView<T>>& sets, bool modified, SimdLevel level)
        : modified_(modified), level_(level) {
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
        for (std::size_t c = 0; c < offsets_.back(); ++c) norms_.push_back(squared_norm(&points_[c * dim_], dim_));
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
        const bool modified = modified_;
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

private:
    // Random points per distance block: one call of the register-tiled
    // kernel, so the block (kRowBlock x the input's points) is still in the
    // L1 cache when it is reduced.
    static constexpr std::size_t kRowBlock = kSqdistMaxRows;

    bool modified_;
    SimdLevel level_;
    std::size_t dim_ = 0;
    std::vector<std::size_t> offsets_;  // set j owns points offsets_[j] .. offsets_[j+1]
    std::vector<T> points_, norms_;     // every random point, row-major, and its squared norm
};

}  // namespace detail
}  // namespace pyd2ke
