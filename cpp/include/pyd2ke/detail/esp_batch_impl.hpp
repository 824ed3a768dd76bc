#pragma once
// Batches of ESP sketches: texts parsed in blocks, each block's pairs into
// an arena, then copied into one output in parallel, each block at the
// place the sizes of the blocks before it give. No thread waits for another
// to append (an ordered append under a lock was serial: at 16 threads it
// held ESP to 3x).

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <vector>

#include "../core/memory.hpp"
#include "../core/parallel.hpp"
#include "../core/text.hpp"
#include "esp_impl.hpp"

namespace pyd2ke::detail {

// Where blocks parse their pairs. A block takes a free arena, appends to it
// and gives it back, so there are at most as many arenas as threads, each
// growing to about its thread's share of all pairs: past GrowableArray's
// mapping size, in huge pages. (A vector of its own per block, 1 MB or so,
// was first touched in 4 KiB pages: 11 thousand page faults per transform
// of 60000 strings of 300 letters, and on 2 threads the two threads' faults
// held the transform to 1.7x.)
struct EspArena {
    GrowableArray<std::uint64_t> labels;
    GrowableArray<double> counts;
    EspWorkspace workspace;
};

// A block's pairs: arena `arena`'s [begin, ends.back()); ends: the end of
// each of its strings' pairs in the arena.
struct EspPart {
    std::size_t arena = 0, begin = 0;
    std::vector<std::int64_t> ends;

    std::size_t pairs() const { return ends.empty() ? 0 : static_cast<std::size_t>(ends.back()) - begin; }
};

// The parts of one batch and the arenas they live in, reused from batch to
// batch (a chunked transform parses chunk after chunk into them).
struct EspParts {
    std::vector<EspPart> parts;
    std::vector<EspArena> arenas;
};

// Parses texts in blocks of `block` into scratch.parts[0 .. ceil(n / block));
// what the scratch held before is dropped, its memory kept.
inline void esp_parse_parts(const std::vector<TextView>& texts, std::size_t block, int n_threads,
                            EspParts& scratch) {
    const std::size_t n = texts.size();
    const std::size_t n_parts = (n + block - 1) / block;
    if (scratch.parts.size() < n_parts) scratch.parts.resize(n_parts);
    // At most max(1, n_threads) blocks run at once: each finds a free arena,
    // and the arenas never move while threads hold them.
    const std::size_t n_arenas = static_cast<std::size_t>(std::max(1, n_threads));
    if (scratch.arenas.size() < n_arenas) scratch.arenas.resize(n_arenas);
    std::vector<std::size_t> free_arenas;
    for (std::size_t a = 0; a < scratch.arenas.size(); ++a) {
        scratch.arenas[a].labels.resize(0);
        scratch.arenas[a].counts.resize(0);
        free_arenas.push_back(a);
    }
    std::mutex taking;
    parallel_for_blocks(n, n_threads, block, [&](std::size_t begin, std::size_t end) {
        std::size_t a;
        {
            std::lock_guard<std::mutex> lock(taking);
            a = free_arenas.back();
            free_arenas.pop_back();
        }
        EspArena& arena = scratch.arenas[a];
        EspPart& part = scratch.parts[begin / block];
        part.arena = a;
        part.begin = arena.labels.size();
        part.ends.clear();
        part.ends.reserve(end - begin);
        for (std::size_t i = begin; i < end; ++i) {
            visit_text(texts[i], [&](auto p, std::size_t len) {
                esp_characteristic_vector(p, len, arena.workspace, arena.labels, arena.counts);
            });
            part.ends.push_back(static_cast<std::int64_t>(arena.labels.size()));
        }
        std::lock_guard<std::mutex> lock(taking);
        free_arenas.push_back(a);
    });
}

// Pairs in parts[0 .. n_parts).
inline std::size_t esp_parts_pairs(const EspParts& scratch, std::size_t n_parts) {
    std::size_t total = 0;
    for (std::size_t b = 0; b < n_parts; ++b) total += scratch.parts[b].pairs();
    return total;
}

// Copies the parts of n strings parsed in blocks of `block` to labels and
// counts from pair `first_pair` on, and the strings' ends to offsets[1 .. n]
// (offsets[0] is the caller's), in parallel.
inline void esp_copy_parts(const EspParts& scratch, std::size_t n, std::size_t block, std::uint64_t* labels,
                           double* counts, std::int64_t* offsets, std::size_t first_pair, int n_threads) {
    const std::size_t n_parts = (n + block - 1) / block;
    std::vector<std::size_t> base(n_parts + 1, first_pair);
    for (std::size_t b = 0; b < n_parts; ++b) base[b + 1] = base[b] + scratch.parts[b].pairs();
    parallel_for_blocks(n_parts, n_threads, 1, [&](std::size_t b, std::size_t) {
        const EspPart& part = scratch.parts[b];
        const EspArena& arena = scratch.arenas[part.arena];
        std::copy(arena.labels.data() + part.begin, arena.labels.data() + part.begin + part.pairs(), labels + base[b]);
        std::copy(arena.counts.data() + part.begin, arena.counts.data() + part.begin + part.pairs(), counts + base[b]);
        const auto shift = static_cast<std::int64_t>(base[b]) - static_cast<std::int64_t>(part.begin);
        for (std::size_t k = 0; k < part.ends.size(); ++k) offsets[b * block + k + 1] = part.ends[k] + shift;
    });
}

}  // namespace pyd2ke::detail
