#pragma once
// Helpers of d2ke_features (embed/d2ke.hpp): which batches give whole-number
// distances, and the feature table that serves them.

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

namespace pyd2ke {
namespace detail {

template <class Batch, class = void>
struct has_integer_distances : std::false_type {};
template <class Batch>
struct has_integer_distances<Batch, std::enable_if_t<Batch::integer_distances>> : std::true_type {};

// Features from whole-number distances: exp(-gamma d) / sqrt(R) (or
// d / sqrt(R)) looked up in a table of every distance the objects can have,
// built once per call and shared by the threads: a row of R features needs
// only a few distinct values. The table holds the values
// distances_to_features computes, so outputs are bit-identical to it. It
// stops at kMaxEntries; the rare larger distances (texts of more than 65536
// symbols, whose distances cost far more than R exp calls) are computed.
class IntegerFeatureTable {
public:
    static constexpr std::size_t kMaxEntries = std::size_t{1} << 16;

    // soft: exp(-gamma d) / sqrt(R), else d / sqrt(R).
    IntegerFeatureTable(double gamma, std::size_t n_random, bool soft, std::size_t largest_distance)
        : gamma_(gamma), scale_(1.0 / std::sqrt(static_cast<double>(n_random))), soft_(soft) {
        value_.resize(std::min(largest_distance + 1, kMaxEntries));
        for (std::size_t d = 0; d < value_.size(); ++d) value_[d] = compute(static_cast<std::uint32_t>(d));
    }

    double operator()(std::uint32_t d) const { return d < value_.size() ? value_[d] : compute(d); }

private:
    double compute(std::uint32_t d) const {
        return soft_ ? std::exp(-gamma_ * static_cast<double>(d)) * scale_
                                           : static_cast<double>(d) * scale_;
    }

    double gamma_, scale_;
    bool soft_;
    std::vector<double> value_;  // value_[d] = compute(d)
};

}  // namespace detail

}  // namespace pyd2ke
