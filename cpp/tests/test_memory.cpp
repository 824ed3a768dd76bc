// GrowableArray: values kept through growth (on the heap, then, past 2 MB,
// a mapping grown by mremap on Linux), by resize or push_back, shrinking
// and moves; sizes across page and huge-page boundaries.

#include <pyd2ke/core/memory.hpp>

#include "check.hpp"

#include <cstdint>
#include <utility>

namespace {

template <class T>
bool holds_its_index(const pyd2ke::GrowableArray<T>& a) {
    for (std::size_t i = 0; i < a.size(); ++i)
        if (a[i] != static_cast<T>(i)) return false;
    return true;
}

template <class T>
void test_growth() {
    pyd2ke::GrowableArray<T> a;
    CHECK(a.size() == 0 && a.data() == nullptr);
    a.shrink_to_fit();  // nothing to cut
    // Steps of one element, one page, and past 2 MiB, each step filled.
    for (std::size_t step : {std::size_t{1}, std::size_t{4096} / sizeof(T) + 1, (std::size_t{3} << 20) / sizeof(T)}) {
        for (int k = 0; k < 40; ++k) {
            const std::size_t old = a.size();
            a.resize(old + step);
            for (std::size_t i = old; i < a.size(); ++i) a[i] = static_cast<T>(i);
        }
        CHECK(holds_its_index(a));
    }
    const std::size_t n = a.size();
    a.resize(n / 3);  // smaller: the values before stay
    CHECK(a.size() == n / 3 && holds_its_index(a));
    a.shrink_to_fit();
    CHECK(a.size() == n / 3 && holds_its_index(a));
    a.resize(n / 3 + 5);  // and it grows again after shrinking
    for (std::size_t i = n / 3; i < a.size(); ++i) a[i] = static_cast<T>(i);
    CHECK(holds_its_index(a));
    pyd2ke::GrowableArray<T> b(std::move(a));
    CHECK(a.size() == 0 && a.data() == nullptr && b.size() == n / 3 + 5 && holds_its_index(b));
    a = std::move(b);
    CHECK(a.size() == n / 3 + 5 && holds_its_index(a));
}

// A small array stays on the heap: grown, cut and grown again.
template <class T>
void test_small() {
    pyd2ke::GrowableArray<T> a;
    for (std::size_t n : {std::size_t{1}, std::size_t{7}, std::size_t{100}, std::size_t{1000}}) {
        const std::size_t old = a.size();
        a.resize(old + n);
        for (std::size_t i = old; i < a.size(); ++i) a[i] = static_cast<T>(i);
        CHECK(holds_its_index(a));
    }
    a.shrink_to_fit();
    CHECK(a.size() == 1108 && holds_its_index(a));
    a.resize(1200);
    for (std::size_t i = 1108; i < a.size(); ++i) a[i] = static_cast<T>(i);
    CHECK(holds_its_index(a));
}

// push_back, one value at a time, from the heap into a mapping and on
// through several of its growths; then after a cut to a smaller size.
template <class T>
void test_push_back() {
    pyd2ke::GrowableArray<T> a;
    const std::size_t n = (std::size_t{9} << 20) / sizeof(T) + 3;
    for (std::size_t i = 0; i < n; ++i) a.push_back(static_cast<T>(i));
    CHECK(a.size() == n && holds_its_index(a));
    a.resize(5);
    for (std::size_t i = 5; i < 1000; ++i) a.push_back(static_cast<T>(i));
    CHECK(a.size() == 1000 && holds_its_index(a));
}

}  // namespace

int main() {
    test_small<std::int32_t>();
    test_small<double>();
    test_growth<std::int32_t>();
    test_growth<double>();
    test_growth<std::uint64_t>();
    test_push_back<std::int32_t>();
    test_push_back<double>();
    return test_verdict();
}
