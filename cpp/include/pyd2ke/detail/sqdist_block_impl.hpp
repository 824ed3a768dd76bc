#pragma once
// Squared Euclidean distances between the points of one input set (rows of
// A) and a fixed, packed collection of points (all random sets' points), as
// ||a||^2 + ||b||^2 - 2 <a, b>: a register-tiled product, Rows rows of A
// against panels of two vector registers of points, that keeps Rows x 2
// accumulators in registers while it walks the coordinates.
//
// The formula cancels when a and b nearly coincide; the kernels flag such
// entries and the caller recomputes them from the differences, so duplicate
// points come out exactly 0. The vector kernels (sqdist_block_simd.inl) are
// compiled per instruction set by core/simd_dispatch.hpp.

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <vector>

#include "../core/config.hpp"
#include "../core/cpu_features.hpp"
#include "../core/simd_dispatch.hpp"

namespace pyd2ke {
namespace detail {

// At most this many rows of A share one pass over a panel.
constexpr std::size_t kSqdistMaxRows = 6;

// Entries below kRefine<T> * (||a||^2 + ||b||^2) may have lost most of their
// digits to cancellation; they are recomputed.
template <class T>
constexpr T kRefine = T(1e-6);
template <>
constexpr float kRefine<float> = 1e-3f;

// out[r * ldo + c] = max(0, a_norms[r] + b_norms[c] - 2 <a_r, b_c>) for
// r < rows (<= kSqdistMaxRows) and every (padded) column c. Returns true if
// some entry is below the refinement threshold.
template <class T>
using SqdistKernel = bool (*)(const T* a, std::size_t lda, std::size_t rows, const T* a_norms, const T* panels,
                              std::size_t n_panels, const T* b_norms, std::size_t dim, T* out, std::size_t ldo);

// Plain C++ kernel, also the definition the vector kernels must match.
constexpr std::size_t kSqdistPortablePanel = 8;

template <class T>
inline bool sqdist_rows_portable(const T* a, std::size_t lda, std::size_t rows, const T* a_norms, const T* panels,
                                 std::size_t n_panels, const T* b_norms, std::size_t dim, T* out,
                                 std::size_t ldo) {
    constexpr std::size_t w = kSqdistPortablePanel;
    bool small = false;
    for (std::size_t p = 0; p < n_panels; ++p) {
        const T* panel = panels + p * dim * w;
        for (std::size_t r = 0; r < rows; ++r) {
            T dot[w] = {};
            for (std::size_t k = 0; k < dim; ++k)
                for (std::size_t l = 0; l < w; ++l) dot[l] += a[r * lda + k] * panel[k * w + l];
            for (std::size_t l = 0; l < w; ++l) {
                const T sum = a_norms[r] + b_norms[p * w + l];
                const T d = sum - 2 * dot[l];
                const T v = d < 0 ? T(0) : d;  // keeps a NaN (overflow), as the vector kernels do
                small |= v < kRefine<T> * sum;
                out[r * ldo + p * w + l] = v;
            }
        }
    }
    return small;
}

// The kernel for a SIMD level and its panel width (points per panel).
template <class T>
struct SqdistKernelInfo {
    SqdistKernel<T> rows;
    std::size_t panel;
};

template <class T>
inline T squared_norm(const T* x, std::size_t dim) {
    T s = 0;
    for (std::size_t k = 0; k < dim; ++k) s += x[k] * x[k];
    return s;
}

template <class T>
inline T squared_distance_direct(const T* x, const T* y, std::size_t dim) {
    T s = 0;
    for (std::size_t k = 0; k < dim; ++k) {
        const T d = x[k] - y[k];
        s += d * d;
    }
    return s;
}

// A fixed collection of points in R^dim packed into panels for the kernel.
template <class T>
class PackedPoints {
public:
    PackedPoints() = default;

    // points: count x dim, row-major.
    PackedPoints(const T* points, std::size_t count, std::size_t dim, SimdLevel level) {
        assign(points, count, dim, level);
    }

    // Packs new points, reusing the buffers (for one packing per input).
    void assign(const T* points, std::size_t count, std::size_t dim, SimdLevel level) {
        kernel_ = simd_table<SqdistKernelInfo<T>>(level);
        count_ = count;
        dim_ = dim;
        const std::size_t w = kernel_.panel;
        n_panels_ = (count + w - 1) / w;
        panels_.assign(n_panels_ * dim * w, T(0));
        norms_.assign(n_panels_ * w, T(0));
        points_.assign(points, points + count * dim);
        for (std::size_t c = 0; c < count; ++c) {
            const std::size_t p = c / w, l = c % w;
            for (std::size_t k = 0; k < dim; ++k) panels_[(p * dim + k) * w + l] = points[c * dim + k];
            norms_[c] = squared_norm(points + c * dim, dim);
        }
    }

    std::size_t count() const { return count_; }
    std::size_t dim() const { return dim_; }
    // Row stride of the distance blocks this collection fills.
    std::size_t padded_count() const { return n_panels_ * kernel_.panel; }

    // Squared distances of rows [begin, end) of A (n x dim, row-major) to
    // every point: out[(i - begin) * padded_count() + c]. a_norms[i] must be
    // ||A_i||^2.
    void squared_distances(const T* a, const T* a_norms, std::size_t begin, std::size_t end, T* out) const {
        const std::size_t ldo = padded_count();
        for (std::size_t i = begin; i < end; i += kSqdistMaxRows) {
            const std::size_t rows = std::min(kSqdistMaxRows, end - i);
            T* block = out + (i - begin) * ldo;
            const bool small = kernel_.rows(a + i * dim_, dim_, rows, a_norms + i, panels_.data(), n_panels_,
                                            norms_.data(), dim_, block, ldo);
            if (small) refine(a, a_norms, i, rows, block, ldo);
        }
    }

private:
    void refine(const T* a, const T* a_norms, std::size_t first, std::size_t rows, T* block,
                std::size_t ldo) const {
        for (std::size_t r = 0; r < rows; ++r)
            for (std::size_t c = 0; c < count_; ++c) {
                T& v = block[r * ldo + c];
                if (v < kRefine<T> * (a_norms[first + r] + norms_[c]))
                    v = squared_distance_direct(a + (first + r) * dim_, &points_[c * dim_], dim_);
            }
    }

    SqdistKernelInfo<T> kernel_{sqdist_rows_portable<T>, kSqdistPortablePanel};
    std::size_t count_ = 0, dim_ = 0, n_panels_ = 0;
    std::vector<T> panels_;  // [panel][coordinate][point in panel]
    std::vector<T> norms_;   // padded_count() squared norms, 0 for padding
    std::vector<T> points_;  // row-major copy, for refinement
};

}  // namespace detail
}  // namespace pyd2ke

// The kernel tables, one per instruction set: simd_table<SqdistKernelInfo<T>>(level).
#define PYD2KE_SIMD_KERNEL_BODY "../detail/sqdist_block_simd.inl"
#include "../core/simd_dispatch.hpp"
