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
//   dtw(x, y, window)            one rolling column, in the series' precision
//   DtwBatch<T>                  one long series against many short ones:
//                                short series in SIMD lanes; the D2KE
//                                workhorse for time series

#include <cstddef>
#include <vector>

#include "../core/cpu_features.hpp"
#include "../core/series.hpp"
#include "../detail/dtw_batch_impl.hpp"
#include "../detail/dtw_impl.hpp"
#include "../detail/dtw_lanes_impl.hpp"

namespace pyd2ke {

template <class T>
double dtw_reference(const SeriesView<T>& x, const SeriesView<T>& y, long window = -1) {
    return detail::dtw_textbook(x, y, window);
}

template <class T>
T dtw(const SeriesView<T>& x, const SeriesView<T>& y, long window = -1) {
    return detail::dtw_rolling_column(x, y, window);
}

// DTW distances from one series to each of a fixed set of series (all with
// the same number of channels). Build once, then call distances() from any
// number of threads, each with its own Scratch.
template <class T>
class DtwBatch {
public:
    using Scratch = typename detail::PackedSeries<T>::Scratch;

    DtwBatch(const std::vector<SeriesView<T>>& series, long window = -1, SimdLevel level = detect_simd_level())
        : packed_(series, window, detail::simd_table<detail::DtwLanesKernels<T>>(require_simd_level(level))) {}

    std::size_t size() const { return packed_.size(); }
    std::size_t channels() const { return packed_.channels(); }

    // out[j] = dtw(x, series j) for j < size().
    template <class Out>
    void distances(const SeriesView<T>& x, Out* out, Scratch& scratch) const {
        packed_.distances(x, out, scratch);
    }

    template <class Out>
    void distances(const SeriesView<T>& x, Out* out) const {
        Scratch scratch;
        distances(x, out, scratch);
    }

private:
    detail::PackedSeries<T> packed_;
};

}  // namespace pyd2ke
