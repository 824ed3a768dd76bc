#pragma once
// parallel_for over objects: OpenMP when the compiler has it, serial
// otherwise. The first exception thrown by any iteration is kept and rethrown
// after the loop, because an exception escaping an OpenMP region terminates
// the process.

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <mutex>

#ifdef _OPENMP
#include <omp.h>
#endif

namespace pyd2ke {

inline int max_threads() {
#ifdef _OPENMP
    return omp_get_max_threads();
#else
    return 1;
#endif
}

inline bool has_openmp() {
#ifdef _OPENMP
    return true;
#else
    return false;
#endif
}

// Calls body(begin, end) on consecutive blocks of [0, n) of at most
// `block` items, spread over `n_threads` threads. Blocks let the body set up
// per-thread scratch memory once per block instead of once per item.
template <class Body>
void parallel_for_blocks(std::size_t n, int n_threads, std::size_t block, Body&& body) {
    if (n == 0) return;
    block = std::max<std::size_t>(block, 1);
    const std::size_t n_blocks = (n + block - 1) / block;
    if (n_threads <= 1 || n_blocks == 1) {
        for (std::size_t b = 0; b < n_blocks; ++b) body(b * block, std::min(n, (b + 1) * block));
        return;
    }
    std::exception_ptr first_error;
    std::atomic<bool> failed{false};
    std::mutex error_mutex;
#ifdef _OPENMP
#pragma omp parallel for schedule(dynamic, 1) num_threads(n_threads)
#endif
    for (long long b = 0; b < static_cast<long long>(n_blocks); ++b) {
        if (failed.load(std::memory_order_relaxed)) continue;
        try {
            const std::size_t begin = static_cast<std::size_t>(b) * block;
            body(begin, std::min(n, begin + block));
        } catch (...) {
            std::lock_guard<std::mutex> lock(error_mutex);
            if (!first_error) first_error = std::current_exception();
            failed.store(true, std::memory_order_relaxed);
        }
    }
    if (first_error) std::rethrow_exception(first_error);
}

}  // namespace pyd2ke
