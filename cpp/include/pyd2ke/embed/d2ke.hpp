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
//                                        is a whole number, as Levenshtein's;
//                                        distances() then also writes uint32

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
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

// Features from whole-number distances (the batch writes them as uint32):
// exp(-gamma d) / sqrt(R) from a table filled once per thread, since the
// distances of a row cluster around the text length and a row of R
// features needs only a few exp calls. The table holds the values
// distances_to_features computes, so outputs are bit-identical to it
// whatever the thread.
class IntegerFeatureMap {
public:
    IntegerFeatureMap(double gamma, std::size_t n_random, D2KEKernel kernel)
        : gamma_(gamma), scale_(1.0 / std::sqrt(static_cast<double>(n_random))), kernel_(kernel) {}

    template <class T>
    void apply(const std::uint32_t* distance, T* row, std::size_t n_random) {
        if (kernel_ == D2KEKernel::direct) {
            for (std::size_t j = 0; j < n_random; ++j) row[j] = static_cast<T>(distance[j] * scale_);
            return;
        }
        std::uint32_t largest = 0;
        for (std::size_t j = 0; j < n_random; ++j) largest = std::max(largest, distance[j]);
        if (largest >= kMaxEntries) {
            for (std::size_t j = 0; j < n_random; ++j) row[j] = static_cast<T>(soft(distance[j]));
            return;
        }
        while (value_.size() <= largest) value_.push_back(soft(static_cast<std::uint32_t>(value_.size())));
        const double* value = value_.data();
        for (std::size_t j = 0; j < n_random; ++j) row[j] = static_cast<T>(value[distance[j]]);
    }

private:
    static constexpr std::uint32_t kMaxEntries = std::uint32_t{1} << 20;
    double soft(std::uint32_t d) const { return std::exp(-gamma_ * static_cast<double>(d)) * scale_; }

    double gamma_, scale_;
    D2KEKernel kernel_;
    std::vector<double> value_;  // value_[d] = soft(d)
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
        if constexpr (detail::has_integer_distances<Batch>::value) {
            detail::IntegerFeatureMap map(gamma, r, kernel);
            std::vector<std::uint32_t> distance(r);
            for (std::size_t i = begin; i < end; ++i) {
                batch.distances(objects[i], distance.data(), scratch);
                map.apply(distance.data(), out + i * r, r);
            }
        } else {
            for (std::size_t i = begin; i < end; ++i) {
                batch.distances(objects[i], out + i * r, scratch);
                distances_to_features(out + i * r, r, gamma, kernel);
            }
        }
    });
}

}  // namespace pyd2ke
