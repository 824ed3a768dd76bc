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
//                                        the batch then also has
//                                        for_each_distance(object, scratch, emit)
//                                        and distance_bound(object)

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <stdexcept>
#include <type_traits>
#include <vector>

#include "../core/parallel.hpp"
#include "../detail/d2ke_impl.hpp"

namespace pyd2ke {

enum class D2KEKernel { soft, direct };

// Turns a row of distances into features, in place. A distance that
// overflowed (or is NaN) gives a NaN feature, not exp(-inf) = 0: the caller's
// finite check then names the object, as it does for the direct kernel.
template <class T>
void distances_to_features(T* row, std::size_t n_random, double gamma, D2KEKernel kernel) {
    const double scale = 1.0 / std::sqrt(static_cast<double>(n_random));
    if (kernel == D2KEKernel::soft) {
        for (std::size_t j = 0; j < n_random; ++j) {
            const double d = static_cast<double>(row[j]);
            row[j] = static_cast<T>(std::isfinite(d) ? std::exp(-gamma * d) * scale
                                                     : std::numeric_limits<double>::quiet_NaN());
        }
    } else {
        for (std::size_t j = 0; j < n_random; ++j) row[j] = static_cast<T>(static_cast<double>(row[j]) * scale);
    }
}

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
    if constexpr (detail::has_integer_distances<Batch>::value) {
        std::size_t largest = 0;
        for (const Object& object : objects) largest = std::max(largest, batch.distance_bound(object));
        const detail::IntegerFeatureTable table(gamma, r, kernel == D2KEKernel::soft, largest);
        parallel_for_blocks(objects.size(), n_threads, 16, [&](std::size_t begin, std::size_t end) {
            typename Batch::Scratch scratch;
            for (std::size_t i = begin; i < end; ++i) {
                T* row = out + i * r;
                batch.for_each_distance(objects[i], scratch,
                                        [&](std::uint32_t j, std::uint32_t d) { row[j] = static_cast<T>(table(d)); });
            }
        });
    } else {
        parallel_for_blocks(objects.size(), n_threads, 16, [&](std::size_t begin, std::size_t end) {
            typename Batch::Scratch scratch;
            for (std::size_t i = begin; i < end; ++i) {
                batch.distances(objects[i], out + i * r, scratch);
                distances_to_features(out + i * r, r, gamma, kernel);
            }
        });
    }
}

}  // namespace pyd2ke
