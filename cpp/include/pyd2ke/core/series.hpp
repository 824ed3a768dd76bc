#pragma once
// SeriesView: a non-owning multivariate time series, `length` steps of
// `channels` values each, step-major (row t is data[t * channels ...]).

#include <cstddef>

namespace pyd2ke {

template <class T>
struct SeriesView {
    const T* data = nullptr;
    std::size_t length = 0;
    std::size_t channels = 1;

    SeriesView() = default;
    SeriesView(const T* data_, std::size_t length_, std::size_t channels_ = 1)
        : data(data_), length(length_), channels(channels_) {}

    const T* step(std::size_t t) const { return data + t * channels; }
};

}  // namespace pyd2ke
