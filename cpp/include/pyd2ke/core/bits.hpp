// Bit counts on 64-bit words: compiler builtins where GCC or Clang compile,
// a portable loop elsewhere (MSVC has no __builtin_*; the loops are only a
// fallback, never the hot path of the Linux and macOS builds).
#pragma once

#include <cstdint>

namespace pyd2ke {
namespace detail {

inline int popcount64(std::uint64_t x) {
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_popcountll(x);
#else
    int c = 0;
    for (; x; x &= x - 1) ++c;
    return c;
#endif
}

// Index of the lowest set bit; x must not be 0.
inline int trailing_zeros64(std::uint64_t x) {
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_ctzll(x);
#else
    int p = 0;
    for (; !(x & 1u); x >>= 1) ++p;
    return p;
#endif
}

}  // namespace detail
}  // namespace pyd2ke
