#pragma once
// A slow ESP reference written from the rules in ALGORITHMS.md (section 6)
// without the fast code's shortcuts: pieces built as explicit index lists,
// counts in a std::map. Shared by test_esp and fuzz_distances.

#include <pyd2ke/pyd2ke.hpp>

#include "check.hpp"

#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

namespace pyd2ke_test {

using Labels = std::vector<std::uint64_t>;

inline std::uint64_t reduce_label(std::uint64_t left, std::uint64_t self) {
    int p = 0;
    while (((left >> p) & 1u) == ((self >> p) & 1u)) ++p;
    return 2u * static_cast<std::uint64_t>(p) + ((self >> p) & 1u);
}

inline void ref_pairs(const Labels& x, std::size_t b, std::size_t e, Labels& out) {
    const std::size_t n = e - b;
    if (n < 2) throw std::logic_error("block of one");
    const std::size_t pairs = n % 2 == 0 ? n / 2 : (n - 3) / 2;
    for (std::size_t k = 0; k < pairs; ++k) out.push_back(pyd2ke::detail::esp_node_label(&x[b + 2 * k], 2));
    if (n % 2 == 1) out.push_back(pyd2ke::detail::esp_node_label(&x[e - 3], 3));
}

inline void ref_reduced(const Labels& x, std::size_t b, std::size_t e, Labels& out) {
    const std::size_t m = e - b;
    Labels a(x.begin() + b, x.begin() + e);
    for (int round = 0; round < 4; ++round) {
        Labels next(m);
        next[0] = reduce_label(a[1], a[0]);
        for (std::size_t i = 1; i < m; ++i) next[i] = reduce_label(a[i - 1], a[i]);
        a = next;
    }
    for (std::size_t i = 0; i < m; ++i) CHECK(a[i] < 6);
    for (std::size_t i = 1; i < m; ++i) CHECK(a[i] != a[i - 1]);
    for (std::uint64_t v : {3u, 4u, 5u})
        for (std::size_t i = 0; i < m; ++i)
            if (a[i] == v)
                for (std::uint64_t c = 0; c < 3; ++c)
                    if ((i == 0 || a[i - 1] != c) && (i + 1 == m || a[i + 1] != c)) {
                        a[i] = c;
                        break;
                    }
    std::vector<bool> lm(m, false);
    for (std::size_t i = 1; i + 1 < m; ++i) lm[i] = a[i - 1] < a[i] && a[i] > a[i + 1];
    for (std::size_t i = 1; i + 1 < m; ++i)
        if (a[i - 1] > a[i] && a[i] < a[i + 1] && !lm[i - 1] && !lm[i + 1]) lm[i] = true;
    std::vector<std::size_t> cuts{0};
    for (std::size_t i = 2; i < m; ++i)
        if (lm[i]) cuts.push_back(i);
    cuts.push_back(m);
    for (std::size_t k = 0; k + 1 < cuts.size(); ++k) ref_pairs(x, b + cuts[k], b + cuts[k + 1], out);
}

inline Labels ref_level(const Labels& x) {
    const std::size_t n = x.size();
    struct Piece {
        std::size_t b, e;
        bool run;
    };
    std::vector<Piece> pieces;
    for (std::size_t i = 0; i < n;) {
        std::size_t j = i + 1;
        while (j < n && x[j] == x[i]) ++j;
        if (j - i >= 2) {
            pieces.push_back({i, j, true});
        } else if (!pieces.empty() && !pieces.back().run) {
            pieces.back().e = j;
        } else {
            pieces.push_back({i, j, false});
        }
        i = j;
    }
    // Stretches of one node join their left neighbour (the right one at the start).
    std::vector<Piece> merged;
    for (std::size_t k = 0; k < pieces.size(); ++k) {
        Piece p = pieces[k];
        if (!p.run && p.e - p.b == 1) {
            if (!merged.empty()) {
                merged.back().e = p.e;
                merged.back().run = true;  // parsed by pairs
            } else {
                pieces[k + 1].b = p.b;
            }
            continue;
        }
        merged.push_back(p);
    }
    Labels out;
    for (const Piece& p : merged) {
        if (!p.run && p.e - p.b >= 5)
            ref_reduced(x, p.b, p.e, out);
        else
            ref_pairs(x, p.b, p.e, out);
    }
    return out;
}

inline std::map<std::uint64_t, std::uint64_t> ref_sketch(const std::u32string& s) {
    std::map<std::uint64_t, std::uint64_t> counts;
    Labels level;
    for (char32_t c : s) level.push_back(pyd2ke::detail::esp_leaf_label(static_cast<std::uint32_t>(c)));
    for (auto l : level) ++counts[l];
    while (level.size() > 1) {
        level = ref_level(level);
        for (auto l : level) ++counts[l];
    }
    return counts;
}

}  // namespace pyd2ke_test
