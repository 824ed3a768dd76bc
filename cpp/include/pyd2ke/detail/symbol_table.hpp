#pragma once
// Compact ids for the symbols of a set of patterns: 1..K for symbols that
// occur in a pattern, 0 for every other symbol. Bit-parallel Levenshtein
// indexes its match masks by these ids, so the mask table has K + 1 rows
// whatever the size of the alphabet (bytes, UCS-2 or all of Unicode).

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace pyd2ke {
namespace detail {

class SymbolTable {
public:
    SymbolTable() : dense_(kMinDense, 0) {}

    // Gives `symbol` an id if it has none; returns its id.
    std::uint32_t add(std::uint32_t symbol) {
        std::uint32_t existing = id(symbol);
        if (existing != 0) return existing;
        const std::uint32_t new_id = ++count_;
        if (symbol < kMaxDense) {
            if (symbol >= dense_.size()) dense_.resize(symbol + 1, 0);
            dense_[symbol] = new_id;
        } else {
            auto it = std::lower_bound(sparse_.begin(), sparse_.end(), std::make_pair(symbol, 0u));
            sparse_.insert(it, {symbol, new_id});
        }
        return new_id;
    }

    // The id of `symbol`, 0 when no pattern has it.
    std::uint32_t id(std::uint32_t symbol) const {
        if (symbol < dense_.size()) return dense_[symbol];
        if (symbol < kMaxDense || sparse_.empty()) return 0;
        auto it = std::lower_bound(sparse_.begin(), sparse_.end(), std::make_pair(symbol, 0u));
        return (it != sparse_.end() && it->first == symbol) ? it->second : 0;
    }

    // Number of rows a table indexed by id needs (K + 1, row 0 for "no pattern has it").
    std::size_t rows() const { return count_ + 1; }

    // Maps a text to ids; `ids` is reused scratch memory.
    template <class CharT>
    void map(const CharT* text, std::size_t n, std::vector<std::uint32_t>& ids) const {
        ids.resize(n);
        for (std::size_t i = 0; i < n; ++i) ids[i] = id(static_cast<std::uint32_t>(text[i]));
    }

private:
    // Symbols below kMaxDense (the Basic Multilingual Plane) use a direct
    // table; rarer astral symbols a sorted list. Every byte is a direct index.
    static constexpr std::uint32_t kMinDense = 256;
    static constexpr std::uint32_t kMaxDense = 1u << 16;
    std::vector<std::uint32_t> dense_;
    std::vector<std::pair<std::uint32_t, std::uint32_t>> sparse_;
    std::uint32_t count_ = 0;
};

}  // namespace detail
}  // namespace pyd2ke
