#pragma once
// A minimal check macro for the C++ tests: count failures, print the first few.

#include <cstdio>
#include <random>
#include <stdexcept>
#include <vector>

namespace pyd2ke_test {
inline int failures = 0;
}

#define CHECK(cond)                                                                               \
    do {                                                                                          \
        if (!(cond) && ++pyd2ke_test::failures <= 20)                                             \
            std::printf("%s:%d: CHECK(%s) failed\n", __FILE__, __LINE__, #cond);                 \
    } while (0)

// Prints the verdict and returns main's exit code.
inline int test_verdict() {
    if (pyd2ke_test::failures) {
        std::printf("%d failed\n", pyd2ke_test::failures);
        return 1;
    }
    std::printf("all checks passed\n");
    return 0;
}

namespace pyd2ke_test {

// Whether f() throws std::invalid_argument (the library's refusal of bad arguments).
template <class F>
bool throws_invalid_argument(F&& f) {
    try {
        f();
    } catch (const std::invalid_argument&) {
        return true;
    }
    return false;
}

// n standard normal values of type T.
template <class T>
std::vector<T> random_values(std::mt19937_64& rng, std::size_t n) {
    std::normal_distribution<double> normal;
    std::vector<T> v(n);
    for (auto& x : v) x = static_cast<T>(normal(rng));
    return v;
}

}  // namespace pyd2ke_test
