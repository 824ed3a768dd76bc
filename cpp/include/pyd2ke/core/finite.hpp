#pragma once
// all_finite(): whether an array holds no infinity and no NaN, in one pass
// that vectorises without -ffast-math (a floating-point reduction would need
// reassociation; this one is integer arithmetic on the bits), and the same
// check of a large array in parallel.

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "parallel.hpp"

namespace pyd2ke {

// A value is infinite or NaN exactly when its exponent bits are all ones.
// Adding one unit of the exponent's lowest bit to |x| (as bits) then carries
// into the sign bit, so OR-ing those sums tells whether any value was.
template <class T>
bool all_finite(const T* x, std::size_t count) {
    static_assert(std::is_same<T, double>::value || std::is_same<T, float>::value, "float or double");
    using Bits = std::conditional_t<sizeof(T) == 8, std::uint64_t, std::uint32_t>;
    constexpr int kBits = 8 * sizeof(T);
    constexpr int kMantissaBits = std::is_same<T, double>::value ? 52 : 23;
    constexpr Bits kAbs = ~Bits{0} >> 1;
    constexpr Bits kExponentUnit = Bits{1} << kMantissaBits;
    Bits carries = 0;
    for (std::size_t k = 0; k < count; ++k) {
        Bits bits;
        std::memcpy(&bits, x + k, sizeof(T));
        carries |= (bits & kAbs) + kExponentUnit;
    }
    return (carries >> (kBits - 1)) == 0;
}

// all_finite over blocks of 64k values on n_threads threads.
template <class T>
bool all_finite(const T* x, std::size_t count, int n_threads) {
    constexpr std::size_t kBlock = std::size_t{1} << 16;
    std::atomic<bool> finite{true};
    parallel_for_blocks(count, n_threads, kBlock, [&](std::size_t begin, std::size_t end) {
        if (finite.load(std::memory_order_relaxed) && !all_finite(x + begin, end - begin))
            finite.store(false, std::memory_order_relaxed);
    });
    return finite.load();
}

}  // namespace pyd2ke
