#pragma once
// Hausdorff distances between sets of points in R^d (Euclidean ground
// distance):
//   hausdorff:           max( max_a min_b |a - b|,  max_b min_a |a - b| )
//   modified_hausdorff:  max( mean_a min_b |a - b|, mean_b min_a |a - b| )
// (Dubuisson & Jain, 1994). SetDistanceBatch holds a fixed collection of
// sets (D2KE's random sets) and computes the distances of one input set to
// all of them from one block of squared distances against all their points.

#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

#include "../core/cpu_features.hpp"
#include "../core/point_set.hpp"
#include "../detail/hausdorff_batch_impl.hpp"
#include "../detail/hausdorff_impl.hpp"

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
    return detail::set_distance_definition(a, b, metric == SetMetric::modified_hausdorff);
}

template <class T>
class SetDistanceBatch {
public:
    using Scratch = typename detail::PackedSets<T>::Scratch;

    SetDistanceBatch(const std::vector<PointSetView<T>>& sets, SetMetric metric,
                     SimdLevel level = detect_simd_level())
        : packed_(sets, metric == SetMetric::modified_hausdorff, require_simd_level(level)) {}

    std::size_t size() const { return packed_.size(); }
    std::size_t dim() const { return packed_.dim(); }

    // out[j] = distance(x, set j) for j < size().
    template <class Out>
    void distances(const PointSetView<T>& x, Out* out, Scratch& s) const {
        packed_.distances(x, out, s);
    }

    template <class Out>
    void distances(const PointSetView<T>& x, Out* out) const {
        Scratch scratch;
        distances(x, out, scratch);
    }

private:
    detail::PackedSets<T> packed_;
};

}  // namespace pyd2ke
