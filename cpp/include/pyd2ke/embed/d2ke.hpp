#pragma once
// D2KE random features (Wu et al., "D2KE: From Distance to Kernel and
// Embedding"): for random objects w_1..w_R and a distance d,
//   soft:   Z[i, j] = exp(-gamma d(x_i, w_j)) / sqrt(R)
//   direct: Z[i, j] = d(x_i, w_j) / sqrt(R)
// d2ke_features() works with any "batch" type that computes the distances of
// one object to all R random objects:
//   batch.size()                          -> R
//   typename Batch::Scratch               per-thread scratch memory
//   batch.distances(object, out_row, scratch)
//   Batch::integer_distances            (optional) true when every distance
//                                        is a whole number, as Levenshtein's

#include <cmath>
#include <cstddef>
#include <stdexcept>
#include <type_traits>
#include <vector>

#include "../core/parallel.hpp"

namespace pyd2ke {

enum class D2KEKernel { soft, direct };

// Turns a row of distances into features, in place.
template <class T>
void distances_to_features(T* row, std::size_t n_random, double gamma, D2KEKernel kernel) {
    const double scale = 1.0 / std::sqrt(static_cast<double>(n_random));
    if (kernel == D2KEKernel::soft) {
        for (std::size_t j = 0; j < n_random; ++j)
            row[j] = static_cast<T>(std::exp(-gamma * static_cast<double>(row[j])) * scale);
    } else {
        for (std::size_t j = 0; j < n_random; ++j) row[j] = static_cast<T>(static_cast<double>(row[j]) * scale);
    }
}

namespace detail {

template <class Batch, class = void>
struct has_integer_distances : std::false_type {};
template <class Batch>
struct has_integer_distances<Batch, std::enable_if_t<Batch::integer_distances>> : std::true_type {};

// exp(-gamma d) / sqrt(R) for integer distances, each computed once per
// thread: the distances of one row cluster around the text length, so a
// row of R features needs only a few exp calls. Values are the same as
// distances_to_features' whatever the thread, so outputs stay bit-identical.
class SoftFeatureTable {
public:
    SoftFeatureTable(double gamma, std::size_t n_random)
        : gamma_(gamma), scale_(1.0 / std::sqrt(static_cast<double>(n_random))) {}

    template <class T>
    void apply(T* row, std::size_t n_random) {
        for (std::size_t j = 0; j < n_random; ++j) {
            const std::size_t d = static_cast<std::size_t>(row[j]);
            if (d >= kMaxEntries) {
                row[j] = static_cast<T>(std::exp(-gamma_ * static_cast<double>(d)) * scale_);
                continue;
            }
            if (d >= value_.size()) value_.resize(d + 1, -1.0);
            if (value_[d] < 0) value_[d] = std::exp(-gamma_ * static_cast<double>(d)) * scale_;
            row[j] = static_cast<T>(value_[d]);
        }
    }

private:
    static constexpr std::size_t kMaxEntries = std::size_t{1} << 20;
    double gamma_, scale_;
    std::vector<double> value_;  // -1: not computed yet
};

}  // namespace detail

// Distances of every object to every random object: out is row-major
// (objects.size(), batch.size()).
template <class Batch, class Object, class T>
void d2ke_distances(const Batch& batch, const std::vector<Object>& objects, T* out, int n_threads) {
    const std::size_t r = batch.size();
    parallel_for_blocks(objects.size(), n_threads, 16, [&](std::size_t begin, std::size_t end) {
        typename Batch::Scratch scratch;
        for (std::size_t i = begin; i < end; ++i) batch.distances(objects[i], out + i * r, scratch);
    });
}

// D2KE features of every object: out is row-major (objects.size(), batch.size()).
template <class Batch, class Object, class T>
void d2ke_features(const Batch& batch, const std::vector<Object>& objects, double gamma, D2KEKernel kernel,
                   T* out, int n_threads) {
    if (!(gamma > 0) || !std::isfinite(gamma)) throw std::invalid_argument("gamma must be positive and finite");
    const std::size_t r = batch.size();
    parallel_for_blocks(objects.size(), n_threads, 16, [&](std::size_t begin, std::size_t end) {
        typename Batch::Scratch scratch;
        detail::SoftFeatureTable table(gamma, r);
        for (std::size_t i = begin; i < end; ++i) {
            T* row = out + i * r;
            batch.distances(objects[i], row, scratch);
            if (detail::has_integer_distances<Batch>::value && kernel == D2KEKernel::soft)
                table.apply(row, r);
            else
                distances_to_features(row, r, gamma, kernel);
        }
    });
}

}  // namespace pyd2ke
