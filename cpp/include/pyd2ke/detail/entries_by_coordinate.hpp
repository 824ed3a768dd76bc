#pragma once
// The nonzeros of a block of sparse rows in coordinate order, so that
// HashedRandomFourier generates each distinct coordinate's weights once per
// block (ESP labels of the lowest levels and CGK walk steps recur across
// most strings) instead of once per occurrence. Ties are broken by row, then
// by position, so every row still receives its terms in ascending
// (coordinate, position) order, whichever rows share its block: the output
// does not depend on the blocking or on the thread count.

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

namespace pyd2ke {
namespace detail {

struct CoordinateEntry {
    std::uint64_t id;
    std::uint32_t row;  // within the block
    std::uint32_t position;  // within the row
    double value;
};

// Rows [begin, end) of a sparse matrix (ids[indptr[i] .. indptr[i+1]) with
// values) as entries sorted by (id, row, position); zero values are dropped.
template <class Index, class Value>
void entries_by_coordinate(const Index* ids, const Value* values, const std::int64_t* indptr, std::size_t begin,
                           std::size_t end, std::vector<CoordinateEntry>& entries) {
    entries.clear();
    for (std::size_t i = begin; i < end; ++i)
        for (std::int64_t p = indptr[i]; p < indptr[i + 1]; ++p) {
            const auto v = static_cast<double>(values[p]);
            if (v == 0) continue;
            entries.push_back({static_cast<std::uint64_t>(ids[p]), static_cast<std::uint32_t>(i - begin),
                               static_cast<std::uint32_t>(p - indptr[i]), v});
        }
    std::sort(entries.begin(), entries.end(), [](const CoordinateEntry& a, const CoordinateEntry& b) {
        if (a.id != b.id) return a.id < b.id;
        if (a.row != b.row) return a.row < b.row;
        return a.position < b.position;
    });
}

// Row blocks [starts[b], starts[b+1]): at most max_rows rows and, unless one
// row alone has more, at most max_entries nonzeros each.
inline std::vector<std::size_t> row_blocks(const std::int64_t* indptr, std::size_t rows, std::size_t max_rows,
                                           std::size_t max_entries) {
    std::vector<std::size_t> starts{0};
    std::size_t entries = 0;
    for (std::size_t i = 0; i < rows; ++i) {
        const auto row_entries = static_cast<std::size_t>(indptr[i + 1] - indptr[i]);
        if (i > starts.back() && (i - starts.back() >= max_rows || entries + row_entries > max_entries)) {
            starts.push_back(i);
            entries = 0;
        }
        entries += row_entries;
    }
    starts.push_back(rows);
    return starts;
}

}  // namespace detail
}  // namespace pyd2ke
