#pragma once
// The Hausdorff distances of distance/hausdorff.hpp: their definition from
// differences (the reference), and the two reductions of SetDistanceBatch
// (hausdorff_batch_impl.hpp) over a block of squared distances.

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstring>
#include <limits>
#include <stdexcept>

#include "../core/config.hpp"
#include "../core/point_set.hpp"

namespace pyd2ke {
namespace detail {

// The definition, from differences, in double precision: the larger of the
// two directed distances, each the maximum (modified: the mean) over one
// set's points of the distance to the nearest point of the other.
template <class T>
double set_distance_definition(const PointSetView<T>& a, const PointSetView<T>& b, bool modified) {
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
        return modified ? total / static_cast<double>(x.size) : worst;
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

}  // namespace detail
}  // namespace pyd2ke
