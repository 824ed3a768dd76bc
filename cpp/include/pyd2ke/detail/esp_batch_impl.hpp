#pragma once
// Batches of ESP sketches: texts parsed in blocks, each block into a part of
// its own, then the parts copied into one output in parallel, each at the
// place the sizes of the blocks before it give. No thread waits for another
// to append (an ordered append under a lock was serial: at 16 threads it
// held ESP to 3x).

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "../core/parallel.hpp"
#include "../core/text.hpp"
#include "esp_impl.hpp"

namespace pyd2ke::detail {

struct EspPart {
    std::vector<std::uint64_t> labels;
    std::vector<double> counts;
    std::vector<std::int64_t> ends;  // end of each string's pairs in the part
};

// Parses texts in blocks of `block` into parts[0 .. ceil(n / block)); parts
// already there are cleared and their memory reused (a chunked transform
// parses chunk after chunk into the same parts).
inline void esp_parse_parts(const std::vector<TextView>& texts, std::size_t block, int n_threads,
                            std::vector<EspPart>& parts) {
    const std::size_t n = texts.size();
    if (parts.size() < (n + block - 1) / block) parts.resize((n + block - 1) / block);
    parallel_for_blocks(n, n_threads, block, [&](std::size_t begin, std::size_t end) {
        EspWorkspace ws;
        EspPart& part = parts[begin / block];
        part.labels.clear();
        part.counts.clear();
        part.ends.clear();
        std::size_t chars = 0;
        for (std::size_t i = begin; i < end; ++i) chars += texts[i].size;
        // Random text keeps about 0.8 distinct labels per character.
        part.labels.reserve(chars);
        part.counts.reserve(chars);
        part.ends.reserve(end - begin);
        for (std::size_t i = begin; i < end; ++i) {
            visit_text(texts[i], [&](auto p, std::size_t len) {
                esp_characteristic_vector(p, len, ws, part.labels, part.counts);
            });
            part.ends.push_back(static_cast<std::int64_t>(part.labels.size()));
        }
    });
}

// Pairs in parts[0 .. n_parts).
inline std::size_t esp_parts_pairs(const std::vector<EspPart>& parts, std::size_t n_parts) {
    std::size_t total = 0;
    for (std::size_t b = 0; b < n_parts; ++b) total += parts[b].labels.size();
    return total;
}

// Copies parts[0 .. ceil(n / block)) (n strings) to labels and counts from
// pair `first_pair` on, and the strings' ends to offsets[1 .. n] (offsets[0]
// is the caller's), in parallel. With `release`, each part's memory is freed
// once copied.
inline void esp_copy_parts(std::vector<EspPart>& parts, std::size_t n, std::size_t block, std::uint64_t* labels,
                           double* counts, std::int64_t* offsets, std::size_t first_pair, int n_threads,
                           bool release) {
    const std::size_t n_parts = (n + block - 1) / block;
    std::vector<std::size_t> base(n_parts + 1, first_pair);
    for (std::size_t b = 0; b < n_parts; ++b) base[b + 1] = base[b] + parts[b].labels.size();
    parallel_for_blocks(n_parts, n_threads, 1, [&](std::size_t b, std::size_t) {
        EspPart& part = parts[b];
        std::copy(part.labels.begin(), part.labels.end(), labels + base[b]);
        std::copy(part.counts.begin(), part.counts.end(), counts + base[b]);
        for (std::size_t k = 0; k < part.ends.size(); ++k)
            offsets[b * block + k + 1] = static_cast<std::int64_t>(base[b]) + part.ends[k];
        if (release) part = EspPart();
    });
}

}  // namespace pyd2ke::detail
