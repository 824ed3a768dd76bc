#pragma once
// center_and_scale_rows(): out[i][j] = (out[i][j] - mean[j]) * factor for
// every row, in parallel over rows: the standardisation of D2KE features
// (pyd2ke/_standardize.py). Two roundings, as numpy's `out -= mean;
// out *= factor` makes them, so the result is the same bits.

#include <cstddef>

#include "parallel.hpp"

namespace pyd2ke {

template <class T>
void center_and_scale_rows(T* out, std::size_t rows, std::size_t columns, const T* mean, T factor, int n_threads) {
    parallel_for_blocks(rows, n_threads, 64, [&](std::size_t begin, std::size_t end) {
        for (std::size_t i = begin; i < end; ++i) {
            T* row = out + i * columns;
            for (std::size_t j = 0; j < columns; ++j) {
                const T centred = row[j] - mean[j];
                row[j] = centred * factor;
            }
        }
    });
}

}  // namespace pyd2ke
