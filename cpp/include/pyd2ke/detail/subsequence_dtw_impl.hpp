#pragma once
// Subsequence DTW with dilation: the cost of aligning all of a short series
// w with some stretch of a long series x that ends at step t, for every t.
// Rows are w's steps, columns x's; the open begin makes every column a
// possible start (row 0 has no predecessor) and the open end reads the
// last row at every column. With dilation k, column t follows column t - k,
// so the k phases x[p], x[p + k], ... are k independent alignments that
// together cover every end point.

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <vector>

#include "../core/series.hpp"
#include "sqdist_block_impl.hpp"

namespace pyd2ke::detail {

// end_cost[t] for t < x.length; rows holds two rows of x.length values
// (resized here, kept by the caller between calls).
template <class T>
void subsequence_end_costs(const SeriesView<T>& x, const SeriesView<T>& w, std::size_t dilation, T* end_cost,
                           std::vector<T>& rows) {
    const std::size_t L = x.length, k = dilation;
    rows.resize(2 * L);
    T* prev = rows.data();
    T* cur = rows.data() + L;
    for (std::size_t t = 0; t < L; ++t) prev[t] = squared_distance_direct(x.step(t), w.step(0), x.channels);
    for (std::size_t i = 1; i < w.length; ++i) {
        const T* wi = w.step(i);
        for (std::size_t t = 0; t < L; ++t) {
            T best = prev[t];
            if (t >= k) best = std::min(best, std::min(cur[t - k], prev[t - k]));
            cur[t] = squared_distance_direct(x.step(t), wi, x.channels) + best;
        }
        std::swap(prev, cur);
    }
    std::copy(prev, prev + L, end_cost);
}

// The full (w.length x x.length) matrix in double precision, for tests.
template <class T>
std::vector<double> subsequence_end_costs_textbook(const SeriesView<T>& x, const SeriesView<T>& w,
                                                   std::size_t dilation) {
    const std::size_t L = x.length, D = w.length, k = dilation;
    std::vector<double> m(L * D, std::numeric_limits<double>::infinity());
    auto at = [&](std::size_t i, std::size_t t) -> double& { return m[i * L + t]; };
    for (std::size_t i = 0; i < D; ++i)
        for (std::size_t t = 0; t < L; ++t) {
            double cost = 0;
            for (std::size_t c = 0; c < x.channels; ++c) {
                const double d = static_cast<double>(x.step(t)[c]) - static_cast<double>(w.step(i)[c]);
                cost += d * d;
            }
            double best = i == 0 ? 0.0 : at(i - 1, t);
            if (i > 0 && t >= k) best = std::min({best, at(i, t - k), at(i - 1, t - k)});
            at(i, t) = cost + best;
        }
    return std::vector<double>(m.end() - static_cast<std::ptrdiff_t>(L), m.end());
}

}  // namespace pyd2ke::detail
