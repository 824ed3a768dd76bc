#pragma once
// The pairwise DTW of distance/dtw.hpp: the band a window allows, the checks
// every entry point makes on a pair of series, the textbook DP (the
// reference) and the DP in the series' precision over one rolling column.

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <stdexcept>
#include <utility>
#include <vector>

#include "../core/config.hpp"
#include "../core/series.hpp"

namespace pyd2ke {
namespace detail {

// Half-width of the Sakoe-Chiba band: the window widened to |n - m| so that
// a path always exists (window < 0: no window).
inline std::size_t effective_band(long window, std::size_t n, std::size_t m) {
    const std::size_t diff = n > m ? n - m : m - n;
    return window < 0 ? std::max(n, m) : std::max(static_cast<std::size_t>(window), diff);
}

template <class T>
void check_pair(const SeriesView<T>& x, const SeriesView<T>& y) {
    if (x.length == 0 || y.length == 0) throw std::invalid_argument("dtw: series must not be empty");
    if (x.channels != y.channels) throw std::invalid_argument("dtw: series have different numbers of channels");
}

// Euclidean norm of a - b across channels; |a - b| for one channel, where the
// square root of the square would cost a rounding for nothing.
template <class T>
PYD2KE_ALWAYS_INLINE T ground_cost_scalar(const T* a, const T* b, std::size_t channels) {
    if (channels == 1) return std::abs(a[0] - b[0]);
    T sum = 0;
    for (std::size_t c = 0; c < channels; ++c) {
        const T d = a[c] - b[c];
        sum += d * d;
    }
    return std::sqrt(sum);
}

// The textbook DP over two full rows, in double precision whatever T: the
// definition the other entry points are tested against.
template <class T>
double dtw_textbook(const SeriesView<T>& x, const SeriesView<T>& y, long window) {
    check_pair(x, y);
    const std::size_t n = x.length, m = y.length, band = effective_band(window, n, m);
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

// The DP in T over one column of y, updated in place step by step of x and
// only inside the band.
template <class T>
T dtw_rolling_column(const SeriesView<T>& x, const SeriesView<T>& y, long window) {
    check_pair(x, y);
    const std::size_t n = x.length, m = y.length, band = effective_band(window, n, m);
    const T inf = std::numeric_limits<T>::infinity();
    std::vector<T> col(m, inf);  // D[t-1][s], updated in place to D[t][s]
    for (std::size_t t = 0; t < n; ++t) {
        // The band [lo, hi) moves right by at most one cell per step.
        const std::size_t lo = t > band ? t - band : 0, hi = std::min(m, t + band + 1);
        T diag = t == 0 ? T(0) : (lo > 0 ? col[lo - 1] : inf), left = inf;
        if (lo > 0) col[lo - 1] = inf;
        for (std::size_t s = lo; s < hi; ++s) {
            const T up = col[s];
            const T value = ground_cost_scalar(x.step(t), y.step(s), x.channels) + std::min(std::min(up, left), diag);
            diag = up;
            col[s] = value;
            left = value;
        }
    }
    return col[m - 1];
}

}  // namespace detail
}  // namespace pyd2ke
