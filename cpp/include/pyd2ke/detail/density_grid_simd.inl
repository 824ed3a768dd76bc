// The accumulation of density_grid_impl.hpp for one instruction set,
// compiled once per ISA by core/simd_dispatch.hpp (a double stands for the
// vector in the portable build). No include guard on purpose.

#include "simd_double_vec.inl"

// tile[r][0 .. 2 lanes) += sum over i < count of head[i * W + r] last[i * width + ..],
// for r < RB: RB x 2 vectors held in registers over the whole of i.
template <std::size_t RB>
PYD2KE_ALWAYS_INLINE void add_outer_tile(const double* head, std::size_t W, const double* last, std::size_t width,
                                         std::size_t count, double* tile) {
    constexpr std::size_t lanes = DoubleVec::lanes;
    DoubleVec::V acc[RB][2];
    for (std::size_t r = 0; r < RB; ++r) {
        acc[r][0] = DoubleVec::load(tile + r * 2 * lanes);
        acc[r][1] = DoubleVec::load(tile + r * 2 * lanes + lanes);
    }
    for (std::size_t i = 0; i < count; ++i) {
        const DoubleVec::V l0 = DoubleVec::load(last + i * width), l1 = DoubleVec::load(last + i * width + lanes);
        for (std::size_t r = 0; r < RB; ++r) {
            const double h = head[i * W + r];
            acc[r][0] += h * l0;
            acc[r][1] += h * l1;
        }
    }
    for (std::size_t r = 0; r < RB; ++r) {
        DoubleVec::store(tile + r * 2 * lanes, acc[r][0]);
        DoubleVec::store(tile + r * 2 * lanes + lanes, acc[r][1]);
    }
}

// out[j * side + a] += sum over i < count of head[i * W + j] last[i * width + a]
// (j < W, a < side; last's rows padded with zeros to width, a multiple of
// 2 lanes). Each element adds the points in order onto its current value.
inline void add_outer(const double* head, std::size_t W, const double* last, std::size_t width, std::size_t side,
                      std::size_t count, double* out) {
    constexpr std::size_t lanes = DoubleVec::lanes, block = 2 * lanes;
    double tile[4 * block];
    for (std::size_t j = 0; j < W; j += 4) {
        const std::size_t rb = W - j < 4 ? W - j : 4;
        for (std::size_t a = 0; a < side; a += block) {
            const std::size_t cols = side - a < block ? side - a : block;
            for (std::size_t r = 0; r < rb; ++r)
                for (std::size_t c = 0; c < block; ++c) tile[r * block + c] = c < cols ? out[(j + r) * side + a + c] : 0.0;
            switch (rb) {
                case 4: add_outer_tile<4>(head + j, W, last + a, width, count, tile); break;
                case 3: add_outer_tile<3>(head + j, W, last + a, width, count, tile); break;
                case 2: add_outer_tile<2>(head + j, W, last + a, width, count, tile); break;
                default: add_outer_tile<1>(head + j, W, last + a, width, count, tile); break;
            }
            for (std::size_t r = 0; r < rb; ++r)
                for (std::size_t c = 0; c < cols; ++c) out[(j + r) * side + a + c] = tile[r * block + c];
        }
    }
}

inline DensityGridKernel kernel_table(SimdTableTag<DensityGridKernel>, Isa) { return {add_outer, DoubleVec::lanes}; }
