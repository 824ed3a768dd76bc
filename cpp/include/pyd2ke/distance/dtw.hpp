#pragma once
// Dynamic time warping between multivariate series.
//
// Ground cost: Euclidean norm across channels (|x - y| for one channel);
// path cost: sum along the warping path; result D[L][D], with no
// path-length normalisation and no final square root. An optional
// Sakoe-Chiba window keeps |t - s| <= window, widened to |L - D| so that a
// path always exists (window < 0: no window).
//
//   dtw_reference(x, y, window)  textbook DP in double precision (for tests)
//   dtw(x, y, window)            two rolling rows, in the series' precision
//   DtwBatch<T>                  one long series against many short ones:
//                                short series in SIMD lanes; the D2KE
//                                workhorse for time series

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <vector>

#include "../core/cpu_features.hpp"
#include "../core/series.hpp"
#include "../detail/dtw_impl.hpp"
#include "../detail/dtw_lanes_impl.hpp"

namespace pyd2ke {

template <class T>
double dtw_reference(const SeriesView<T>& x, const SeriesView<T>& y, long window = -1) {
    detail::check_pair(x, y);
    const std::size_t n = x.length, m = y.length, band = detail::effective_band(window, n, m);
    const double inf = std::numeric_limits<double>::infinity();
    std::vector<double> prev(m + 1, inf), cur(m + 1, inf);
    prev[0] = 0;
    for (std::size_t i = 1; i <= n; ++i) {
        cur[0] = inf;
        for (std::size_t j = 1; j <= m; ++j) {
            const std::size_t offset = i > j ? i - j : j - i;
            if (offset > band) {
                cur[j] = inf;
                continue;
            }
            double sum = 0;
            for (std::size_t c = 0; c < x.channels; ++c) {
                const double d = static_cast<double>(x.step(i - 1)[c]) - static_cast<double>(y.step(j - 1)[c]);
                sum += d * d;
            }
            cur[j] = std::sqrt(sum) + std::min({prev[j], cur[j - 1], prev[j - 1]});
        }
        std::swap(prev, cur);
    }
    return prev[m];
}

template <class T>
T dtw(const SeriesView<T>& x, const SeriesView<T>& y, long window = -1) {
    detail::check_pair(x, y);
    const std::size_t n = x.length, m = y.length, band = detail::effective_band(window, n, m);
    const T inf = std::numeric_limits<T>::infinity();
    std::vector<T> col(m, inf);  // D[t-1][s], updated in place to D[t][s]
    for (std::size_t t = 0; t < n; ++t) {
        // The band [lo, hi) moves right by at most one cell per step.
        const std::size_t lo = t > band ? t - band : 0, hi = std::min(m, t + band + 1);
        T diag = t == 0 ? T(0) : (lo > 0 ? col[lo - 1] : inf), left = inf;
        if (lo > 0) col[lo - 1] = inf;
        for (std::size_t s = lo; s < hi; ++s) {
            const T up = col[s];
            const T value = detail::ground_cost_scalar(x.step(t), y.step(s), x.channels) +
                            std::min(std::min(up, left), diag);
            diag = up;
            col[s] = value;
            left = value;
        }
    }
    return col[m - 1];
}

// DTW distances from one series to each of a fixed set of series (all with
// the same number of channels). Build once, then call distances() from any
// number of threads, each with its own Scratch.
template <class T>
class DtwBatch {
public:
    struct Scratch {
        std::vector<T> column;
        std::vector<T> band;
    };

    DtwBatch(const std::vector<SeriesView<T>>& series, long window = -1, SimdLevel level = detect_simd_level())
        : window_(window), kernels_(detail::simd_table<detail::DtwLanesKernels<T>>(require_simd_level(level))) {
        if (series.empty()) throw std::invalid_argument("DtwBatch: no series");
        channels_ = series[0].channels;
        for (const SeriesView<T>& s : series) {
            if (s.length == 0) throw std::invalid_argument("DtwBatch: series must not be empty");
            if (s.channels != channels_) throw std::invalid_argument("DtwBatch: series have different channels");
        }
        n_series_ = series.size();
        pack(series);
    }

    std::size_t size() const { return n_series_; }
    std::size_t channels() const { return channels_; }

    // out[j] = dtw(x, series j) for j < size().
    template <class Out>
    void distances(const SeriesView<T>& x, Out* out, Scratch& scratch) const {
        if (x.length == 0) throw std::invalid_argument("dtw: series must not be empty");
        if (x.channels != channels_) throw std::invalid_argument("dtw: series have different numbers of channels");
        const std::size_t lanes = kernels_.group_bytes / sizeof(T);
        scratch.band.resize(lanes);
        for (const Group& g : groups_) {
            scratch.column.resize(g.dmax * lanes);
            if (window_ >= 0) {
                for (std::size_t l = 0; l < lanes; ++l)
                    scratch.band[l] = static_cast<T>(
                        detail::effective_band(window_, x.length, l < g.series.size() ? g.length[l] : g.dmax));
                kernels_.windowed(&values_[g.offset], g.dmax, channels_, x.data, x.length, scratch.band.data(),
                                  scratch.column.data());
            } else {
                kernels_.plain(&values_[g.offset], g.dmax, channels_, x.data, x.length, nullptr,
                               scratch.column.data());
            }
            for (std::size_t l = 0; l < g.series.size(); ++l)
                out[g.series[l]] = static_cast<Out>(scratch.column[(g.length[l] - 1) * lanes + l]);
        }
    }

    template <class Out>
    void distances(const SeriesView<T>& x, Out* out) const {
        Scratch scratch;
        distances(x, out, scratch);
    }

private:
    struct Group {
        std::size_t offset = 0;  // into values_: [s][channel][lane]
        std::size_t dmax = 0;
        std::vector<std::uint32_t> series;
        std::vector<std::size_t> length;
    };

    // Sorted by length, so that the series of a group have similar lengths
    // and the lanes of short ones idle little.
    void pack(const std::vector<SeriesView<T>>& series) {
        const std::size_t lanes = kernels_.group_bytes / sizeof(T);
        std::vector<std::uint32_t> order(series.size());
        std::iota(order.begin(), order.end(), 0u);
        std::stable_sort(order.begin(), order.end(),
                         [&](std::uint32_t a, std::uint32_t b) { return series[a].length < series[b].length; });
        for (std::size_t first = 0; first < order.size(); first += lanes) {
            Group g;
            const std::size_t count = std::min(lanes, order.size() - first);
            g.dmax = series[order[first + count - 1]].length;
            g.offset = values_.size();
            values_.resize(values_.size() + g.dmax * channels_ * lanes, T(0));
            for (std::size_t l = 0; l < count; ++l) {
                const SeriesView<T>& s = series[order[first + l]];
                g.series.push_back(order[first + l]);
                g.length.push_back(s.length);
                for (std::size_t t = 0; t < s.length; ++t)
                    for (std::size_t c = 0; c < channels_; ++c)
                        values_[g.offset + (t * channels_ + c) * lanes + l] = s.step(t)[c];
            }
            groups_.push_back(std::move(g));
        }
    }

    long window_;
    detail::DtwLanesKernels<T> kernels_;
    std::size_t channels_ = 0;
    std::size_t n_series_ = 0;
    std::vector<T> values_;
    std::vector<Group> groups_;
};

}  // namespace pyd2ke
