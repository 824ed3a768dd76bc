#pragma once
// parallel_for over objects: OpenMP when the compiler has it, serial
// otherwise. The first exception thrown by any iteration is kept and rethrown
// after the loop, because an exception escaping an OpenMP region terminates
// the process.
//
// Long loops can be interrupted: a caller installs a poll function on its own
// thread (ScopedInterruptPoll); the loop calls it from that thread between
// blocks, at most every few milliseconds, and once it returns true the loop
// takes no more blocks and throws Interrupted. The Python bindings poll for
// Ctrl-C this way.

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <exception>
#include <mutex>

#ifdef _OPENMP
#include <omp.h>
#if defined(__unix__) || defined(__APPLE__)
#include <pthread.h>
#define PYD2KE_FORK_HANDLER 1
#endif
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

// Thrown by parallel_for_blocks when the installed poll function asked it to stop.
struct Interrupted : std::exception {
    const char* what() const noexcept override { return "pyd2ke: interrupted"; }
};

using InterruptPoll = bool (*)();

namespace detail {

// Wall time spent in outermost parallel_for_blocks calls, for measuring
// what part of a transform runs outside parallel regions (its serial
// fraction, benchmarks/thread_scaling.py). Two clock reads per region.
inline std::atomic<std::int64_t>& parallel_region_nanoseconds() {
    static std::atomic<std::int64_t> total{0};
    return total;
}

class ParallelRegionTimer {
public:
    ParallelRegionTimer() : outermost_(depth()++ == 0), start_(std::chrono::steady_clock::now()) {}
    ~ParallelRegionTimer() {
        --depth();
        if (!outermost_) return;
        const auto elapsed = std::chrono::steady_clock::now() - start_;
        parallel_region_nanoseconds() += std::chrono::duration_cast<std::chrono::nanoseconds>(elapsed).count();
    }
    ParallelRegionTimer(const ParallelRegionTimer&) = delete;
    ParallelRegionTimer& operator=(const ParallelRegionTimer&) = delete;

private:
    static int& depth() {
        thread_local int d = 0;  // regions nested in a region's body count once
        return d;
    }
    bool outermost_;
    std::chrono::steady_clock::time_point start_;
};

// True in a process forked after this library's OpenMP team had started:
// GNU OpenMP keeps the parent's team, whose threads the child does not have,
// and a parallel region there waits for them for ever. Loops in such a child
// run on the calling thread.
inline std::atomic<bool>& forked_after_team() {
    static std::atomic<bool> forked{false};
    return forked;
}

// Registers (once, before the first team starts) the fork handler that sets
// forked_after_team() in the child.
inline void watch_forks_once() {
#ifdef PYD2KE_FORK_HANDLER
    static const bool registered = pthread_atfork(nullptr, nullptr, [] { forked_after_team().store(true); }) == 0;
    (void)registered;
#endif
}

inline InterruptPoll& interrupt_poll() {
    thread_local InterruptPoll poll = nullptr;
    return poll;
}

// Calls the poll function at most every 10 ms (it may take a lock).
class InterruptCheck {
public:
    InterruptCheck() : poll_(interrupt_poll()), last_(std::chrono::steady_clock::now()) {}
    bool stop_requested() {
        if (poll_ == nullptr) return false;
        const auto now = std::chrono::steady_clock::now();
        if (now - last_ < std::chrono::milliseconds(10)) return false;
        last_ = now;
        return poll_();
    }

private:
    InterruptPoll poll_;
    std::chrono::steady_clock::time_point last_;
};

}  // namespace detail

// Installs `poll` for parallel loops started by this thread, for the scope's lifetime.
class ScopedInterruptPoll {
public:
    explicit ScopedInterruptPoll(InterruptPoll poll) : previous_(detail::interrupt_poll()) {
        detail::interrupt_poll() = poll;
    }
    ~ScopedInterruptPoll() { detail::interrupt_poll() = previous_; }
    ScopedInterruptPoll(const ScopedInterruptPoll&) = delete;
    ScopedInterruptPoll& operator=(const ScopedInterruptPoll&) = delete;

private:
    InterruptPoll previous_;
};

// Calls body(begin, end) on consecutive blocks of [0, n) of at most
// `block` items, spread over `n_threads` threads. Blocks let the body set up
// per-thread scratch memory once per block instead of once per item.
// n_threads is a count: 1 or less (-1 included) runs on the calling thread;
// the Python layer's n_jobs=-1 ("all cores") is resolved before it gets here
// (pyd2ke::max_threads() gives the count).
template <class Body>
void parallel_for_blocks(std::size_t n, int n_threads, std::size_t block, Body&& body) {
    if (n == 0) return;
    detail::ParallelRegionTimer timer;
    block = std::max<std::size_t>(block, 1);
    const std::size_t n_blocks = (n + block - 1) / block;
    detail::InterruptCheck interrupt;  // created on the calling thread, used only there
    if (n_threads <= 1 || n_blocks == 1 || detail::forked_after_team().load(std::memory_order_relaxed)) {
        for (std::size_t b = 0; b < n_blocks; ++b) {
            if (interrupt.stop_requested()) throw Interrupted();
            body(b * block, std::min(n, (b + 1) * block));
        }
        return;
    }
    detail::watch_forks_once();
    std::exception_ptr first_error;
    std::atomic<bool> failed{false}, interrupted{false};
    std::mutex error_mutex;
#ifdef _OPENMP
#pragma omp parallel for schedule(dynamic, 1) num_threads(n_threads)
#endif
    for (long long b = 0; b < static_cast<long long>(n_blocks); ++b) {
        if (failed.load(std::memory_order_relaxed)) continue;
#ifdef _OPENMP
        const bool calling_thread = omp_get_thread_num() == 0;  // the team's master is the caller
#else
        const bool calling_thread = true;
#endif
        if (calling_thread && interrupt.stop_requested()) {
            interrupted.store(true);
            failed.store(true, std::memory_order_relaxed);
            continue;
        }
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
    if (interrupted.load()) throw Interrupted();
}

// A block size for n items on n_threads threads: max_block on one thread;
// on several, small enough that each thread draws about 8 blocks, but not
// below min_block. With one block per thread a chunk waits for its slowest
// block: on 16 threads ESP's transform (chunks of 4096 strings, blocks of
// 256) ran 6.8x, its parse of the whole input in one call 13.8x.
inline std::size_t balanced_block(std::size_t n, int n_threads, std::size_t max_block, std::size_t min_block = 1) {
    if (n_threads <= 1) return max_block;
    const std::size_t draws = 8 * static_cast<std::size_t>(n_threads);
    return std::max(std::min(min_block, max_block), std::min(max_block, (n + draws - 1) / draws));
}

// Whether this process was forked after the OpenMP team had started, so that
// its loops run on one thread (see detail::forked_after_team).
inline bool forked_after_threads() { return detail::forked_after_team().load(); }

// Seconds spent so far, by every caller, inside outermost parallel loops.
inline double parallel_region_seconds() { return 1e-9 * static_cast<double>(detail::parallel_region_nanoseconds().load()); }

}  // namespace pyd2ke
