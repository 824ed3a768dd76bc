#pragma once
// PointSetView: a non-owning set of `size` points in R^dim, row-major
// (point i is data[i * dim ...]), with optional non-negative weights (a
// document's word vectors and their nBOW / tf-idf weights). Without weights
// every point counts the same.

#include <cstddef>

namespace pyd2ke {

template <class T>
struct PointSetView {
    const T* data = nullptr;
    std::size_t size = 0;
    std::size_t dim = 0;
    const double* weights = nullptr;  // size entries, or nullptr for uniform

    PointSetView() = default;
    PointSetView(const T* data_, std::size_t size_, std::size_t dim_, const double* weights_ = nullptr)
        : data(data_), size(size_), dim(dim_), weights(weights_) {}

    const T* point(std::size_t i) const { return data + i * dim; }
};

}  // namespace pyd2ke
