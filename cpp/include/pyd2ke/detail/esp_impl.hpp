#pragma once
// Edit-sensitive parsing (Cormode & Muthukrishnan), one level at a time.
// Node labels are 64-bit fingerprints of (arity, child labels), so a string's
// parse depends on nothing but the string itself.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <utility>
#include <vector>

#include "../core/bits.hpp"
#include "../core/config.hpp"
#include "counter_hash.hpp"

namespace pyd2ke {
namespace detail {

constexpr std::uint64_t kEspLeafSalt = 0x6a09e667f3bcc909ULL;
constexpr std::uint64_t kEspNodeSalt = 0xbb67ae8584caa73bULL;
// Non-repetitive stretches at least this long get alphabet reduction and
// landmarks; shorter ones are paired left to right.
constexpr std::size_t kEspMinReducedLength = 5;
// Four rounds of alphabet reduction take any 64-bit labels below 6
// (64-bit -> < 128 -> < 14 -> < 8 -> < 6). A fixed count keeps the labels
// local: a data-dependent count would let one edit change a whole stretch.
constexpr int kEspReductionRounds = 4;

inline std::uint64_t esp_leaf_label(std::uint32_t symbol) { return mix64(mix64(symbol ^ kEspLeafSalt)); }

// One multiply per child (independent, so they overlap) and one mix: the
// chained per-child mixing it replaced was the parser's hot spot. Children
// are themselves well-mixed 64-bit fingerprints, so two different child
// tuples share a label only by a ~2^-64 coincidence.
inline std::uint64_t esp_node_label(const std::uint64_t* children, std::size_t arity) {
    std::uint64_t h = kEspNodeSalt * (arity + 1) + children[0] * 0x9e3779b97f4a7c15ULL +
                      ((children[1] * 0xc2b2ae3d27d4eb4fULL) ^ (children[1] >> 29));
    if (arity == 3) h += (children[2] * 0x165667b19e3779f9ULL) ^ (children[2] >> 31);
    return mix64(h);
}

struct EspWorkspace {
    std::vector<std::uint64_t> level, next, nodes;
    std::vector<std::uint64_t> scratch;
    std::vector<std::uint8_t> reduced;
    std::vector<std::uint32_t> buckets;
    std::vector<std::pair<std::uint64_t, std::uint32_t>> leaves;
};

// Left-preferential parsing of x[0..n), n >= 2: pairs, the last block a triple when n is odd.
inline void esp_pair_blocks(const std::uint64_t* x, std::size_t n, std::vector<std::uint64_t>& out) {
    std::size_t i = 0;
    while (n - i >= 4 || n - i == 2) {
        out.push_back(esp_node_label(x + i, 2));
        i += 2;
    }
    if (n - i == 3) out.push_back(esp_node_label(x + i, 3));
}

// label_i = 2 * lsb(x_{i-1} ^ x_i) + bit of x_i there: neighbours stay
// distinct. Position 0 uses its right neighbour instead (2 * lsb(x_0 ^ x_1)
// + bit of x_0), which still differs from label_1.
template <class X>
PYD2KE_ALWAYS_INLINE std::uint8_t esp_reduce(X left, X self) {
    const int p = trailing_zeros64(static_cast<std::uint64_t>(left ^ self));
    return static_cast<std::uint8_t>(2 * p + ((self >> p) & 1u));
}

// esp_reduce for bytes below 128 (left != self) in byte arithmetic only,
// lsb position by masks, so that the passes below vectorise.
PYD2KE_ALWAYS_INLINE std::uint8_t esp_reduce_byte(std::uint8_t left, std::uint8_t self) {
    const std::uint8_t d = static_cast<std::uint8_t>(left ^ self);
    const std::uint8_t low = static_cast<std::uint8_t>(d & (0u - d));
    const std::uint8_t p = static_cast<std::uint8_t>(((low & 0xAAu) ? 1 : 0) | ((low & 0xCCu) ? 2 : 0) | ((low & 0xF0u) ? 4 : 0));
    return static_cast<std::uint8_t>(2 * p + ((self & low) ? 1 : 0));
}

// The byte passes below run over whole 16-byte vectors (GCC/Clang vector
// extensions): up to 15 positions past m are computed from whatever the
// buffer holds there and ignored, instead of a scalar tail on every stretch
// (most stretches are short). Buffers carry kEspPad bytes of slack.
constexpr std::size_t kEspPad = 16;

#if PYD2KE_HAS_VECTOR_EXTENSIONS
typedef std::uint8_t EspBytes __attribute__((vector_size(16)));

PYD2KE_ALWAYS_INLINE EspBytes esp_load_bytes(const std::uint8_t* p) {
    EspBytes v;
    std::memcpy(&v, p, sizeof v);
    return v;
}

// esp_reduce_byte on 16 lanes; a comparison yields 0 or all ones per lane.
PYD2KE_ALWAYS_INLINE EspBytes esp_reduce_bytes(EspBytes left, EspBytes self) {
    const EspBytes d = left ^ self;
    const EspBytes low = d & (EspBytes{} - d);
    const EspBytes one = EspBytes{} + 1;
    const EspBytes p = (reinterpret_cast<EspBytes>((low & 0xAA) != 0) & one) |
                       (reinterpret_cast<EspBytes>((low & 0xCC) != 0) & (one + one)) |
                       (reinterpret_cast<EspBytes>((low & 0xF0) != 0) & (EspBytes{} + 4));
    return p + p + (reinterpret_cast<EspBytes>((self & low) != 0) & one);
}
#endif

// One more reduction round, out of place: b[i] from a[i - 1] and a[i] (a[1]
// for i = 0). Writes b up to the next multiple of 16 past m.
inline void esp_reduce_round(const std::uint8_t* PYD2KE_RESTRICT a, std::uint8_t* PYD2KE_RESTRICT b, std::size_t m) {
    std::size_t i = 0;
#if PYD2KE_HAS_VECTOR_EXTENSIONS
    for (; i < m; i += 16) {
        const EspBytes v = esp_reduce_bytes(esp_load_bytes(a + i - 1), esp_load_bytes(a + i));
        std::memcpy(b + i, &v, sizeof v);
    }
#else
    for (i = 1; i < m; ++i) b[i] = esp_reduce_byte(a[i - 1], a[i]);
#endif
    b[0] = esp_reduce_byte(a[1], a[0]);
}

// Every v in a[0..m) becomes the least of {0, 1, 2} that neither neighbour
// holds; two v's are never neighbours, so one out-of-place pass does it.
// Needs a[-1] and a[m] outside {0, 1, 2}; writes b up to the next multiple
// of 16 past m, and puts the sentinel back at b[m].
inline void esp_replace_label(const std::uint8_t* PYD2KE_RESTRICT a, std::uint8_t* PYD2KE_RESTRICT b, std::size_t m,
                              std::uint8_t v) {
#if PYD2KE_HAS_VECTOR_EXTENSIONS
    const EspBytes zero = EspBytes{}, one = zero + 1, two = one + one;
    for (std::size_t i = 0; i < m; i += 16) {
        const EspBytes l = esp_load_bytes(a + i - 1), r = esp_load_bytes(a + i + 1), x = esp_load_bytes(a + i);
        const EspBytes not0 = reinterpret_cast<EspBytes>((l != zero) & (r != zero));
        const EspBytes not1 = reinterpret_cast<EspBytes>((l != one) & (r != one));
        const EspBytes c = not0 ? zero : (not1 ? one : two);
        const EspBytes y = reinterpret_cast<EspBytes>(x == v) ? c : x;
        std::memcpy(b + i, &y, sizeof y);
    }
#else
    for (std::size_t i = 0; i < m; ++i) {
        const std::uint8_t l = a[i - 1], r = a[i + 1];
        const std::uint8_t c = (l != 0) & (r != 0) ? 0 : ((l != 1) & (r != 1) ? 1 : 2);
        b[i] = a[i] == v ? c : a[i];
    }
#endif
    b[m] = a[m];
}

// A non-repetitive stretch x[0..m), m >= kEspMinReducedLength: alphabet
// reduction to {0, 1, 2}, landmarks at local maxima and then at local minima
// not next to a maximum, and blocks from one landmark to the next.
inline void esp_reduced_blocks(const std::uint64_t* x, std::size_t m, EspWorkspace& ws, std::vector<std::uint64_t>& out) {
    // Two buffers for the out-of-place passes. a[-1] and a[m] are sentinels
    // outside {0..5}, so the loops below need no bounds tests.
    ws.reduced.resize(2 * (m + 2 + kEspPad));
    std::uint8_t* a = ws.reduced.data() + 1;
    std::uint8_t* b = a + m + 2 + kEspPad;
    a[-1] = b[-1] = 7;
    // Round 1 takes the 64-bit labels below 128; later rounds work in bytes.
    a[0] = esp_reduce(x[1], x[0]);
    for (std::size_t i = 1; i < m; ++i) a[i] = esp_reduce(x[i - 1], x[i]);
    for (int r = 1; r < kEspReductionRounds; ++r) {
        esp_reduce_round(a, b, m);
        std::swap(a, b);
    }
    a[m] = 7;  // the rounds ran past m
    // 3, then 4, then 5 become the least of {0, 1, 2} not next to them.
    for (std::uint8_t v = 3; v <= 5; ++v) {
        esp_replace_label(a, b, m, v);
        std::swap(a, b);
    }
    // Landmark tests are local, so blocks are cut in the same pass. A
    // landmark at 1 would leave a block of one: the first block runs on.
    auto is_max = [a](std::size_t i) { return a[i - 1] < a[i] && a[i] > a[i + 1]; };
    std::size_t start = 0;
    for (std::size_t i = 1; i + 1 < m; ++i) {
        bool landmark = is_max(i);
        if (!landmark && a[i - 1] > a[i] && a[i] < a[i + 1])
            landmark = !(i >= 2 && is_max(i - 1)) && !(i + 2 < m && is_max(i + 1));
        if (landmark && i >= 2) {
            esp_pair_blocks(x + start, i - start, out);
            start = i;
        }
    }
    esp_pair_blocks(x + start, m - start, out);
}

// The next level of x[0..n), n >= 2: maximal runs of one label (length >= 2)
// are paired left to right; so are the non-repetitive stretches between runs
// when short, while longer ones get alphabet reduction. A stretch of a single
// node cannot form a block: it joins the run before it (the run after it at
// the start of the sequence).
inline void esp_parse_level(const std::uint64_t* x, std::size_t n, EspWorkspace& ws, std::vector<std::uint64_t>& out) {
    std::size_t i = 0;
    bool lone_lead = false;  // x[0] alone, waiting for the run after it
    while (i < n) {
        if (i + 1 < n && x[i + 1] == x[i]) {
            std::size_t j = i + 2;
            while (j < n && x[j] == x[i]) ++j;
            const std::size_t begin = lone_lead ? 0 : i;
            lone_lead = false;
            // x[j] is a stretch of one if it ends the input, or starts no run while a run starts right after it.
            if (j < n && (j + 1 == n || (x[j + 1] != x[j] && j + 2 < n && x[j + 2] == x[j + 1]))) ++j;
            esp_pair_blocks(x + begin, j - begin, out);
            i = j;
        } else {
            std::size_t j = i + 1;
            while (j < n && (j + 1 >= n || x[j + 1] != x[j])) ++j;
            if (j - i == 1) {
                lone_lead = true;  // only at i == 0: later lone nodes were taken by the run before them
            } else if (j - i >= kEspMinReducedLength) {
                esp_reduced_blocks(x + i, j - i, ws, out);
            } else {
                esp_pair_blocks(x + i, j - i, out);
            }
            i = j;
        }
    }
}

// Sorts fingerprints (uniformly spread 64-bit words) in expected linear
// time: a counting pass on the top bits, then an insertion sort that only
// has to fix the order inside each bucket. std::sort was the hot spot.
inline void esp_sort_labels(std::vector<std::uint64_t>& v, std::vector<std::uint64_t>& tmp,
                            std::vector<std::uint32_t>& buckets) {
    const std::size_t n = v.size();
    if (n < 64) {
        std::sort(v.begin(), v.end());
        return;
    }
    int bits = 6;
    while (bits < 16 && (std::size_t{1} << bits) < n) ++bits;
    const int shift = 64 - bits;
    buckets.assign((std::size_t{1} << bits) + 1, 0);
    for (std::uint64_t x : v) ++buckets[(x >> shift) + 1];
    for (std::size_t b = 1; b < buckets.size(); ++b) buckets[b] += buckets[b - 1];
    tmp.resize(n);
    for (std::uint64_t x : v) tmp[buckets[x >> shift]++] = x;
    for (std::size_t i = 1; i < n; ++i) {
        const std::uint64_t x = tmp[i];
        std::size_t j = i;
        for (; j > 0 && tmp[j - 1] > x; --j) tmp[j] = tmp[j - 1];
        tmp[j] = x;
    }
    v.swap(tmp);
}

// Leaf labels of byte strings, computed once.
inline const std::uint64_t* esp_byte_leaf_labels() {
    static const std::vector<std::uint64_t> table = [] {
        std::vector<std::uint64_t> t(256);
        for (std::uint32_t c = 0; c < 256; ++c) t[c] = esp_leaf_label(c);
        return t;
    }();
    return table.data();
}

// Every node label of the ESP tree of s[0..n) (leaves included), sorted,
// as (label, count) pairs appended to labels/counts (arrays with push_back
// of std::uint64_t and of a count type).
template <class CharT, class Labels, class Counts>
void esp_characteristic_vector(const CharT* s, std::size_t n, EspWorkspace& ws, Labels& labels, Counts& counts) {
    using Count = typename Counts::value_type;
    if (n == 0) return;
    ws.level.resize(n);
    ws.nodes.clear();
    if constexpr (sizeof(CharT) == 1) {
        // Leaves by a byte histogram: they need no sorting.
        const std::uint64_t* table = esp_byte_leaf_labels();
        std::uint32_t histogram[256] = {};
        for (std::size_t i = 0; i < n; ++i) {
            const unsigned char c = static_cast<unsigned char>(s[i]);
            ws.level[i] = table[c];
            ++histogram[c];
        }
        ws.leaves.clear();
        for (std::uint32_t c = 0; c < 256; ++c)
            if (histogram[c]) ws.leaves.emplace_back(table[c], histogram[c]);
        std::sort(ws.leaves.begin(), ws.leaves.end());
    } else {
        for (std::size_t i = 0; i < n; ++i) ws.level[i] = esp_leaf_label(static_cast<std::uint32_t>(s[i]));
        ws.nodes.assign(ws.level.begin(), ws.level.end());
    }
    while (ws.level.size() > 1) {
        ws.next.clear();
        esp_parse_level(ws.level.data(), ws.level.size(), ws, ws.next);
        ws.nodes.insert(ws.nodes.end(), ws.next.begin(), ws.next.end());
        ws.level.swap(ws.next);
    }
    esp_sort_labels(ws.nodes, ws.scratch, ws.buckets);
    // Merge the sorted leaf histogram (bytes only) with the run-length counted nodes.
    std::size_t leaf = 0;
    const std::size_t n_leaves = sizeof(CharT) == 1 ? ws.leaves.size() : 0;
    for (std::size_t i = 0; i < ws.nodes.size();) {
        std::size_t j = i + 1;
        while (j < ws.nodes.size() && ws.nodes[j] == ws.nodes[i]) ++j;
        for (; leaf < n_leaves && ws.leaves[leaf].first < ws.nodes[i]; ++leaf) {
            labels.push_back(ws.leaves[leaf].first);
            counts.push_back(static_cast<Count>(ws.leaves[leaf].second));
        }
        std::size_t c = j - i;
        if (leaf < n_leaves && ws.leaves[leaf].first == ws.nodes[i]) c += ws.leaves[leaf++].second;  // 2^-64 odds
        labels.push_back(ws.nodes[i]);
        counts.push_back(static_cast<Count>(c));
        i = j;
    }
    for (; leaf < n_leaves; ++leaf) {
        labels.push_back(ws.leaves[leaf].first);
        counts.push_back(static_cast<Count>(ws.leaves[leaf].second));
    }
}

}  // namespace detail
}  // namespace pyd2ke
