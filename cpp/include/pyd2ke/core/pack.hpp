#pragma once
// pack_rows(): many 2-D arrays (any strides, a few element types) copied one
// under the other into one C-order block of float or double, in parallel
// over arrays, with the finite check in the same pass. This is how a list of
// series or point sets becomes the (values, offsets) form the batches take:
// done in Python it was a loop per item holding the GIL, the serial part
// that kept those transforms from scaling past a few cores.

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "finite.hpp"
#include "parallel.hpp"

namespace pyd2ke {

// One input array: rows x columns elements, element (r, c) at
// data + r * row_stride + c * column_stride (strides in bytes).
struct StridedRows {
    enum class Element { float64, float32, int64, int32 };
    const char* data = nullptr;
    Element element = Element::float64;
    std::size_t rows = 0, columns = 0;
    std::ptrdiff_t row_stride = 0, column_stride = 0;
};

namespace detail {

template <class From>
From load_element(const char* p) {
    From v;
    std::memcpy(&v, p, sizeof(From));  // strides need not be aligned to the element
    return v;
}

template <class From, class T>
void copy_rows_as(const StridedRows& a, T* out) {
    const bool contiguous = a.column_stride == static_cast<std::ptrdiff_t>(sizeof(From)) &&
                            a.row_stride == static_cast<std::ptrdiff_t>(a.columns * sizeof(From));
    if (contiguous) {  // the common case: one loop the compiler vectorises
        const std::size_t count = a.rows * a.columns;
        for (std::size_t k = 0; k < count; ++k)
            out[k] = static_cast<T>(load_element<From>(a.data + k * sizeof(From)));
        return;
    }
    for (std::size_t r = 0; r < a.rows; ++r) {
        const char* row = a.data + static_cast<std::ptrdiff_t>(r) * a.row_stride;
        for (std::size_t c = 0; c < a.columns; ++c)
            out[r * a.columns + c] = static_cast<T>(load_element<From>(row + static_cast<std::ptrdiff_t>(c) *
                                                                              a.column_stride));
    }
}

template <class T>
void copy_rows(const StridedRows& a, T* out) {
    switch (a.element) {
        case StridedRows::Element::float64: return copy_rows_as<double>(a, out);
        case StridedRows::Element::float32: return copy_rows_as<float>(a, out);
        case StridedRows::Element::int64: return copy_rows_as<std::int64_t>(a, out);
        case StridedRows::Element::int32: return copy_rows_as<std::int32_t>(a, out);
    }
}

}  // namespace detail

// Copies arrays[i] to out + offsets[i] * columns, where offsets (size n + 1)
// are the running sums of the arrays' rows, every array having `columns`
// columns. Returns whether every value written is finite (after the cast:
// a double too large for float is an infinity).
template <class T>
bool pack_rows(const std::vector<StridedRows>& arrays, const std::int64_t* offsets, std::size_t columns, T* out,
               int n_threads) {
    std::atomic<bool> finite{true};
    // Blocks of about 64k values: small arrays go many to a block.
    const std::size_t n = arrays.size();
    const std::size_t mean_values = n == 0 ? 1 : static_cast<std::size_t>(offsets[n]) * columns / n + 1;
    const std::size_t block = std::max<std::size_t>(1, 65536 / mean_values);
    parallel_for_blocks(n, n_threads, block, [&](std::size_t begin, std::size_t end) {
        for (std::size_t i = begin; i < end; ++i) detail::copy_rows(arrays[i], out + offsets[i] * columns);
        T* first = out + offsets[begin] * columns;
        const std::size_t count = static_cast<std::size_t>(offsets[end] - offsets[begin]) * columns;
        if (!all_finite(first, count)) finite.store(false, std::memory_order_relaxed);
    });
    return finite.load();
}

}  // namespace pyd2ke
