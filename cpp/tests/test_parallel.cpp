// parallel_for_blocks: exceptions from any thread come back to the caller,
// and an installed interrupt poll stops the loop early; balanced_block's sizes.

#include <pyd2ke/core/parallel.hpp>

#include "check.hpp"

#include <atomic>
#include <chrono>
#include <cstdio>
#include <stdexcept>
#include <thread>

namespace {

std::atomic<int> polls{0};
bool stop_after_three_polls() { return ++polls >= 3; }

void test_exceptions(int n_threads) {
    std::atomic<int> done{0};
    bool caught = false;
    try {
        pyd2ke::parallel_for_blocks(1000, n_threads, 10, [&](std::size_t begin, std::size_t) {
            if (begin == 500) throw std::invalid_argument("block 50");
            ++done;
        });
    } catch (const std::invalid_argument& e) {
        caught = std::string(e.what()) == "block 50";
    }
    CHECK(caught);
    CHECK(done < 100);
}

void test_interrupt(int n_threads) {
    polls = 0;
    std::atomic<int> done{0};
    bool interrupted = false;
    {
        pyd2ke::ScopedInterruptPoll poll(stop_after_three_polls);
        try {
            pyd2ke::parallel_for_blocks(100000, n_threads, 1, [&](std::size_t, std::size_t) {
                std::this_thread::sleep_for(std::chrono::microseconds(200));
                ++done;
            });
        } catch (const pyd2ke::Interrupted&) {
            interrupted = true;
        }
    }
    CHECK(interrupted);
    CHECK(polls == 3);
    CHECK(done < 100000);
    // Outside the scope no poll is installed: the loop runs to the end.
    done = 0;
    pyd2ke::parallel_for_blocks(100, n_threads, 1, [&](std::size_t, std::size_t) { ++done; });
    CHECK(done == 100);
}

}  // namespace

// balanced_block: the largest block on one thread, about 8 per thread on
// several, never below the floor nor above the largest.
void test_balanced_block() {
    CHECK(pyd2ke::balanced_block(4096, 1, 256, 16) == 256);
    CHECK(pyd2ke::balanced_block(4096, 2, 256, 16) == 256);
    CHECK(pyd2ke::balanced_block(4096, 16, 256, 16) == 32);
    CHECK(pyd2ke::balanced_block(4097, 16, 256, 16) == 33);
    CHECK(pyd2ke::balanced_block(100, 16, 256, 16) == 16);
    CHECK(pyd2ke::balanced_block(0, 16, 256, 16) == 16);
    CHECK(pyd2ke::balanced_block(100, 16, 8, 16) == 8);
    CHECK(pyd2ke::balanced_block(1 << 20, 64, 256, 1) == 256);
}

int main() {
    test_balanced_block();
    for (int n_threads : {1, 2, 4}) {
        test_exceptions(n_threads);
        test_interrupt(n_threads);
    }
    return test_verdict();
}
