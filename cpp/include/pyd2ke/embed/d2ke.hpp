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

#include <cmath>
#include <cstddef>
#include <stdexcept>
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

// Distances (or features, when `kernel` is given) of every object to every
// random object: out is row-major (objects.size(), batch.size()).
template <class Batch, class Object, class T>
void d2ke_distances(const Batch& batch, const std::vector<Object>& objects, T* out, int n_threads) {
    const std::size_t r = batch.size();
    parallel_for_blocks(objects.size(), n_threads, 16, [&](std::size_t begin, std::size_t end) {
        typename Batch::Scratch scratch;
        for (std::size_t i = begin; i < end; ++i) batch.distances(objects[i], out + i * r, scratch);
    });
}

template <class Batch, class Object, class T>
void d2ke_features(const Batch& batch, const std::vector<Object>& objects, double gamma, D2KEKernel kernel,
                   T* out, int n_threads) {
    if (!(gamma > 0) || !std::isfinite(gamma)) throw std::invalid_argument("gamma must be positive and finite");
    const std::size_t r = batch.size();
    parallel_for_blocks(objects.size(), n_threads, 16, [&](std::size_t begin, std::size_t end) {
        typename Batch::Scratch scratch;
        for (std::size_t i = begin; i < end; ++i) {
            batch.distances(objects[i], out + i * r, scratch);
            distances_to_features(out + i * r, r, gamma, kernel);
        }
    });
}

}  // namespace pyd2ke
