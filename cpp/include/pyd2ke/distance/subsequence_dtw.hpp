#pragma once
// Subsequence DTW (open begin, open end) of short random series against long
// series, with dilation, and the two local features RandomWarpingSeries
// takes from it (pyd2ke/_local_series.py):
//
//   best match:  exp(-gamma * min_t end_cost[t])  how well the short shape
//                (soft) or min_t end_cost[t]       occurs anywhere
//                (direct)
//   occurrence:  #{t : end_cost[t] < threshold} / length
//                                                  how often it occurs
//
// Ground cost: squared Euclidean distance across channels, summed along the
// path. Each feature costs length x shape length cells.
//
//   subsequence_end_costs(x, w, k, out)   one cost profile
//   subsequence_end_costs_reference(...)  the full DP matrix in double (tests)
//   local_series_features(...)            many inputs x many shapes, parallel
//                                         over inputs

#include <cmath>
#include <cstddef>
#include <stdexcept>
#include <vector>

#include "../core/parallel.hpp"
#include "../core/series.hpp"
#include "../detail/subsequence_dtw_impl.hpp"

namespace pyd2ke {

namespace detail {
inline void check_subsequence_arguments(std::size_t shape_length, std::size_t dilation) {
    if (dilation < 1) throw std::invalid_argument("dilation must be >= 1");
    if (shape_length == 0) throw std::invalid_argument("the short series must have at least one step");
}

template <class T>
void check_subsequence_pair(const SeriesView<T>& x, const SeriesView<T>& w, std::size_t dilation) {
    check_subsequence_arguments(w.length, dilation);
    if (x.channels != w.channels) throw std::invalid_argument("series have different numbers of channels");
}
}  // namespace detail

template <class T>
void subsequence_end_costs(const SeriesView<T>& x, const SeriesView<T>& w, std::size_t dilation, T* out) {
    detail::check_subsequence_pair(x, w, dilation);
    std::vector<T> rows;
    detail::subsequence_end_costs(x, w, dilation, out, rows);
}

template <class T>
std::vector<double> subsequence_end_costs_reference(const SeriesView<T>& x, const SeriesView<T>& w,
                                                    std::size_t dilation) {
    detail::check_subsequence_pair(x, w, dilation);
    return detail::subsequence_end_costs_textbook(x, w, dilation);
}

// out[n * shapes.size() + j]: for j < n_match the best-match feature of input
// n and shape j (soft or direct), for j >= n_match its occurrence rate under
// thresholds[j - n_match]; each times factor (the D2KE 1 / sqrt(R)). Every
// shape has the inputs' channel count and dilations[j] >= 1.
template <class T>
void local_series_features(const std::vector<SeriesView<T>>& inputs, const std::vector<SeriesView<T>>& shapes,
                           const std::size_t* dilations, std::size_t n_match, const T* thresholds, T gamma, bool soft,
                           T factor, T* out, int n_threads) {
    const std::size_t R = shapes.size();
    if (n_match > R) throw std::invalid_argument("n_match must be <= the number of shapes");
    for (std::size_t j = 0; j < R; ++j) {
        detail::check_subsequence_arguments(shapes[j].length, dilations[j]);
        if (shapes[j].channels != shapes[0].channels)
            throw std::invalid_argument("every shape must have the same number of channels");
    }
    for (const auto& x : inputs) {
        if (x.length == 0) throw std::invalid_argument("every input must have at least one step");
        if (R > 0 && x.channels != shapes[0].channels)
            throw std::invalid_argument("every input must have the shapes' number of channels");
    }
    parallel_for_blocks(inputs.size(), n_threads, 1, [&](std::size_t begin, std::size_t end) {
        std::vector<T> rows, profile;
        for (std::size_t n = begin; n < end; ++n) {
            const SeriesView<T>& x = inputs[n];
            profile.resize(x.length);
            T* row = out + n * R;
            for (std::size_t j = 0; j < R; ++j) {
                detail::subsequence_end_costs(x, shapes[j], dilations[j], profile.data(), rows);
                if (j < n_match) {
                    T best = profile[0];
                    for (std::size_t t = 1; t < x.length; ++t) best = profile[t] < best ? profile[t] : best;
                    row[j] = factor * (soft ? std::exp(-gamma * best) : best);
                } else {
                    const T threshold = thresholds[j - n_match];
                    std::size_t count = 0;
                    for (std::size_t t = 0; t < x.length; ++t) count += profile[t] < threshold;
                    row[j] = factor * (static_cast<T>(count) / static_cast<T>(x.length));
                }
            }
        }
    });
}

}  // namespace pyd2ke
