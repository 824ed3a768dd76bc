#pragma once
// DtwBatch internals (distance/dtw.hpp): the fixed series sorted by length
// and packed into lane groups (the layout of dtw_lanes_impl.hpp), and the
// walk of an input series over every group.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <numeric>
#include <stdexcept>
#include <utility>
#include <vector>

#include "../core/series.hpp"
#include "dtw_impl.hpp"
#include "dtw_lanes_impl.hpp"

namespace pyd2ke {
namespace detail {

template <class T>
class PackedSeries {
public:
    // Per-thread scratch memory.
    struct Scratch {
        std::vector<T> column;
        std::vector<T> band;
    };

    PackedSeries(const std::vector<SeriesView<T>>& series, long window, DtwLanesKernels<T> kernels)
        : window_(window), kernels_(kernels) {
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

    // out[j] = DTW of x and series j, for j < size().
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
                        effective_band(window_, x.length, l < g.series.size() ? g.length[l] : g.dmax));
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
    DtwLanesKernels<T> kernels_;
    std::size_t channels_ = 0;
    std::size_t n_series_ = 0;
    std::vector<T> values_;
    std::vector<Group> groups_;
};

}  // namespace detail
}  // namespace pyd2ke
