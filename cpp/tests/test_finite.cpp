// all_finite() (core/finite.hpp) against std::isfinite, one value at a time.

#include <pyd2ke/core/finite.hpp>

#include <cmath>
#include <cstddef>
#include <limits>
#include <vector>

#include "check.hpp"

namespace {

template <class T>
bool reference(const std::vector<T>& x) {
    for (T v : x)
        if (!std::isfinite(v)) return false;
    return true;
}

template <class T>
void test_type() {
    using limits = std::numeric_limits<T>;
    // Finite extremes: the largest, the smallest normal and subnormal, zeros.
    const T finite[] = {limits::max(), -limits::max(), limits::min(), limits::denorm_min(), T(0), -T(0), T(1.5)};
    const T bad[] = {limits::infinity(), -limits::infinity(), limits::quiet_NaN(), -limits::quiet_NaN()};
    // Lengths around the vector widths (2 to 16 lanes).
    for (std::size_t n : {0, 1, 7, 8, 9, 15, 16, 17, 63, 64, 65, 128, 129}) {
        std::vector<T> x(n);
        for (std::size_t i = 0; i < n; ++i) x[i] = finite[i % (sizeof finite / sizeof finite[0])];
        CHECK(pyd2ke::all_finite(x.data(), n) && reference(x));
        for (std::size_t at = 0; at < n; ++at)
            for (T b : bad) {
                const T kept = x[at];
                x[at] = b;
                CHECK(!pyd2ke::all_finite(x.data(), n) && !reference(x));
                x[at] = kept;
            }
    }
}

}  // namespace

int main() {
    test_type<double>();
    test_type<float>();
    return test_verdict();
}
