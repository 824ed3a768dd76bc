#pragma once
// Counter-based hashing: a random 64-bit word as a pure function of
// (seed, coordinate, output index). Nothing is stored per coordinate, so
// weight matrices of any input dimension (2^64 hashed ids included) cost no
// memory, and every thread, process and machine derives the same words.

#include <cstdint>

namespace pyd2ke {
namespace detail {

// SplitMix64's finaliser: a bijection on 64-bit words with full avalanche.
constexpr std::uint64_t mix64(std::uint64_t x) {
    x ^= x >> 30;
    x *= 0xbf58476d1ce4e5b9ULL;
    x ^= x >> 27;
    x *= 0x94d049bb133111ebULL;
    x ^= x >> 31;
    return x;
}

constexpr std::uint64_t kCoordinateSalt = 0x9e3779b97f4a7c15ULL;
// Odd, so that k -> key + (k + 1) * kOutputStep visits distinct words.
constexpr std::uint64_t kOutputStep = 0xd1b54a32d192ed03ULL;

// Key of one input coordinate (or one CGK step); hashed twice so that
// neighbouring coordinates get unrelated keys.
constexpr std::uint64_t coordinate_key(std::uint64_t seed, std::uint64_t coordinate) {
    return mix64(seed ^ mix64(coordinate + kCoordinateSalt));
}

// The random word of output index k under a coordinate key.
constexpr std::uint64_t counter_hash(std::uint64_t key, std::uint64_t k) { return mix64(key + (k + 1) * kOutputStep); }

// A uniform double in the open interval (0, 1) from the top 52 bits: the
// half-step offset keeps u away from 0 and 1 (tan and the inverse normal CDF
// are infinite there).
inline double open_unit(std::uint64_t h) { return (static_cast<double>(h >> 12) + 0.5) * 0x1p-52; }

}  // namespace detail
}  // namespace pyd2ke
