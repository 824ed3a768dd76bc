#pragma once
// Helpers of the DTW entry points (distance/dtw.hpp): the band a window
// allows and the checks every entry point makes on a pair of series.

#include <algorithm>
#include <cstddef>
#include <stdexcept>

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

}  // namespace detail

}  // namespace pyd2ke
