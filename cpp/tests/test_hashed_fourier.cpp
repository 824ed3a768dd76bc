// HashedRandomFourier: every SIMD level against plain std:: formulas, the
// dense, sparse and weight-block paths against each other, thread-count
// invariance, and the kernel approximation error ~ 0.8 / sqrt(D).

#include <pyd2ke/pyd2ke.hpp>

#include "check.hpp"

#include <cmath>
#include <cstdio>
#include <cstring>
#include <random>
#include <vector>

#if defined(__GNUC__) && !defined(__clang__)
// test_sincos runs the 4-lane kernel in a function without AVX: GCC lowers
// it to SSE2, which is fine here but makes it warn about the vector ABI.
#pragma GCC diagnostic ignored "-Wpsabi"
#endif

namespace {

using pyd2ke::FourierKernel;

// tan(pi (u - 1/2)) in long double with the argument reduced exactly
// (u = 1/2 + v: tan(pi v) = -+cot(pi a), a = 1/2 - |v|, and 1/2 - a is
// exact): std::tan(M_PI * (u - 0.5)) itself is off by up to 5e-11 relative
// next to the poles, where M_PI * (u - 0.5) rounds.
double exact_cauchy(double u) {
    const double v = u - 0.5, a = 0.5 - std::fabs(v);
    const long double pi = 3.141592653589793238462643383279502884L;
    const long double t = std::tan(pi * static_cast<long double>(a <= 0.25 ? a : 0.5 - a));
    const long double w = a <= 0.25 ? 1.0L / t : t;
    return static_cast<double>(v < 0 ? -w : w);
}

// w[j, k] straight from the definition.
double ref_weight(FourierKernel kernel, double bandwidth, std::uint64_t seed, std::uint64_t j, std::size_t k) {
    const std::uint64_t key = pyd2ke::detail::coordinate_key(seed, j);
    const double u = pyd2ke::detail::open_unit(pyd2ke::detail::counter_hash(key, k));
    CHECK(u > 0 && u < 1);
    if (kernel == FourierKernel::laplacian) return exact_cauchy(u) / bandwidth;
    const double g = pyd2ke::detail::inverse_normal(u);
    // Acklam's relative error is below 1.2e-9: compare with one Newton step on Phi(x) = u.
    const double phi = 0.5 * std::erfc(-g / std::sqrt(2.0));
    const double pdf = std::exp(-0.5 * g * g) / std::sqrt(2 * M_PI);
    const double refined = g - (phi - u) / pdf;
    CHECK(std::fabs(g - refined) <= 1.5e-9 * std::fabs(refined) + 1e-12);
    return std::sqrt(2 * bandwidth) * g;
}

// Sparse rows of fewer than max_nnz nonzeros each, from draw.id(rng) and draw.value(rng).
struct SparseRows {
    std::vector<std::int64_t> indptr{0};
    std::vector<std::uint64_t> ids;
    std::vector<double> vals;
};

template <class Draw>
SparseRows random_rows(std::mt19937_64& rng, std::size_t rows, std::size_t max_nnz, Draw draw) {
    SparseRows m;
    for (std::size_t i = 0; i < rows; ++i) {
        const std::size_t nnz = rng() % max_nnz;
        for (std::size_t p = 0; p < nnz; ++p) {
            const std::uint64_t id = draw.id(rng);
            m.ids.push_back(id);
            m.vals.push_back(draw.value(rng));
        }
        m.indptr.push_back(static_cast<std::int64_t>(m.ids.size()));
    }
    return m;
}

// Features of sparse rows straight from the definition, row by row.
std::vector<double> reference_features(FourierKernel kernel, double bandwidth, std::uint64_t seed, std::size_t D,
                                       const std::vector<std::uint64_t>& ids, const std::vector<double>& vals,
                                       const std::vector<std::int64_t>& indptr) {
    const std::size_t rows = indptr.size() - 1, half = D / 2;
    std::vector<double> ref(rows * D);
    for (std::size_t i = 0; i < rows; ++i)
        for (std::size_t k = 0; k < half; ++k) {
            double s = 0;
            for (std::int64_t p = indptr[i]; p < indptr[i + 1]; ++p)
                s += vals[p] * ref_weight(kernel, bandwidth, seed, ids[p], k);
            ref[i * D + k] = std::sqrt(2.0 / D) * std::cos(s);
            ref[i * D + half + k] = std::sqrt(2.0 / D) * std::sin(s);
        }
    return ref;
}

void test_sincos() {
#if PYD2KE_X86_DISPATCH
    // The SSE2 build: its target is the x86-64 baseline, so its always-inline
    // helpers inline into this function.
    using F = pyd2ke::detail::simd_sse2::FourierVec;
    std::mt19937_64 rng(3);
    std::uniform_real_distribution<double> wide(-1e6, 1e6), narrow(-10, 10);
    double worst = 0;
    for (int rep = 0; rep < 100000; ++rep) {
        F::V x;
        for (std::size_t l = 0; l < F::lanes; ++l) x[l] = rep % 2 ? wide(rng) : narrow(rng);
        F::V s, c;
        F::sincos(x, s, c);
        for (std::size_t l = 0; l < F::lanes; ++l) {
            worst = std::max(worst, std::fabs(s[l] - std::sin(x[l])));
            worst = std::max(worst, std::fabs(c[l] - std::cos(x[l])));
        }
    }
    std::printf("vector sincos: max abs error %.3g on |x| <= 1e6\n", worst);
    CHECK(worst < 1e-12);
#endif
}

void test_levels() {
    const std::uint64_t seed = 0x1234567890abcdefULL;
    std::mt19937_64 rng(9);
    for (FourierKernel kernel : {FourierKernel::laplacian, FourierKernel::rbf}) {
        const double bw = kernel == FourierKernel::laplacian ? 2.5 : 0.3;
        for (std::size_t D : {2, 6, 8, 30, 64, 130}) {
            const std::size_t half = D / 2;
            // Sparse rows with arbitrary 64-bit ids.
            const std::size_t rows = 7;
            struct {
                std::uint64_t id(std::mt19937_64& g) const { return g(); }
                double value(std::mt19937_64& g) const { return std::uniform_real_distribution<double>(-2, 2)(g); }
            } arbitrary;
            const SparseRows m = random_rows(rng, rows, 6, arbitrary);
            const std::vector<std::int64_t>& indptr = m.indptr;
            const std::vector<std::uint64_t>& ids = m.ids;
            const std::vector<double>& vals = m.vals;
            const std::vector<double> ref = reference_features(kernel, bw, seed, D, ids, vals, indptr);
            for (pyd2ke::SimdLevel level : pyd2ke::supported_simd_levels()) {
                const pyd2ke::HashedRandomFourier f(kernel, bw, D, seed, level);
                for (std::size_t k = 0; k < half; ++k) {
                    const double r = ref_weight(kernel, bw, seed, 42, k);
                    CHECK(std::fabs(f.weight(42, k) - r) <= 1e-9 * (1 + std::fabs(r)));
                }
                std::vector<double> W(3 * half);
                f.weights(41, 3, W.data());
                for (std::size_t r = 0; r < 3; ++r)
                    for (std::size_t k = 0; k < half; ++k) {
                        const double w = ref_weight(kernel, bw, seed, 41 + r, k);
                        CHECK(std::fabs(W[r * half + k] - w) <= 1e-9 * (1 + std::fabs(w)));
                    }
                std::vector<double> z1(rows * D), z2(rows * D);
                std::vector<float> zf(rows * D);
                f.transform_sparse(ids.data(), vals.data(), indptr.data(), rows, z1.data(), 1);
                f.transform_sparse(ids.data(), vals.data(), indptr.data(), rows, z2.data(), 2);
                f.transform_sparse(ids.data(), vals.data(), indptr.data(), rows, zf.data(), 2);
                CHECK(z1 == z2);
                for (std::size_t q = 0; q < z1.size(); ++q) {
                    // Cauchy projections can be large; compare up to their rounding.
                    CHECK(std::fabs(z1[q] - ref[q]) <= 1e-7);
                    CHECK(std::fabs(zf[q] - z1[q]) <= 1e-6);
                }
                // Dense rows through the hashed path and through weight blocks + cos_sin agree.
                const std::size_t dim = 5;
                std::vector<double> X(rows * dim);
                for (auto& x : X) x = std::uniform_real_distribution<double>(-1, 1)(rng);
                std::vector<double> zd(rows * D), P(rows * half, 0.0), Wd(dim * half), zb(rows * D);
                f.transform_dense(X.data(), rows, dim, zd.data(), 2);
                f.weights(0, dim, Wd.data());
                for (std::size_t i = 0; i < rows; ++i)
                    for (std::size_t j = 0; j < dim; ++j)
                        for (std::size_t k = 0; k < half; ++k) P[i * half + k] += X[i * dim + j] * Wd[j * half + k];
                f.cos_sin(P.data(), rows, zb.data(), 2);
                for (std::size_t q = 0; q < zd.size(); ++q) CHECK(std::fabs(zd[q] - zb[q]) <= 1e-7);
            }
        }
    }
}

// Rows drawing most ids from a small pool (so they recur; some twice in one
// row) and some of their own, in any order, with zero values among them:
// the weights of a coordinate are generated once per block of rows, and
// the output is the same bits whatever the blocks (one row each, a few,
// automatic) and the thread count, equal to the row-by-row reference.
void test_blocks() {
    std::mt19937_64 rng(21);
    for (FourierKernel kernel : {FourierKernel::laplacian, FourierKernel::rbf}) {
        const double bw = kernel == FourierKernel::laplacian ? 1.5 : 0.05;
        // 330: tiles of components (kTileComponents) and a last one that is not a multiple of any lane count.
        for (std::size_t D : {2, 6, 8, 18, 130, 330, 1024}) {
            for (std::size_t rows : {1, 2, 9, 40}) {
                struct {
                    std::uint64_t id(std::mt19937_64& g) const { return g() % 3 ? g() % 25 : g(); }
                    double value(std::mt19937_64& g) const { return g() % 7 ? static_cast<double>(1 + g() % 5) : 0.0; }
                } pooled;
                const SparseRows m = random_rows(rng, rows, 40, pooled);
                const std::vector<std::int64_t>& indptr = m.indptr;
                const std::vector<std::uint64_t>& ids = m.ids;
                const std::vector<double>& vals = m.vals;
                const std::vector<double> ref =
                    D <= 400 ? reference_features(kernel, bw, 99, D, ids, vals, indptr) : std::vector<double>{};
                for (pyd2ke::SimdLevel level : pyd2ke::supported_simd_levels()) {
                    const pyd2ke::HashedRandomFourier f(kernel, bw, D, 99, level);
                    std::vector<double> one(rows * D);
                    std::vector<float> one_f(rows * D);
                    f.transform_sparse(ids.data(), vals.data(), indptr.data(), rows, one.data(), 1, 1);
                    f.transform_sparse(ids.data(), vals.data(), indptr.data(), rows, one_f.data(), 1, 1);
                    if (D <= 400)
                        for (std::size_t q = 0; q < one.size(); ++q) CHECK(std::fabs(one[q] - ref[q]) <= 1e-7);
                    for (std::size_t block_rows : {2, 3, 0}) {
                        for (int threads : {1, 2, 5}) {
                            std::vector<double> z(rows * D, -7.0);
                            std::vector<float> zf(rows * D, -7.0f);
                            f.transform_sparse(ids.data(), vals.data(), indptr.data(), rows, z.data(), threads, block_rows);
                            f.transform_sparse(ids.data(), vals.data(), indptr.data(), rows, zf.data(), threads, block_rows);
                            CHECK(std::memcmp(z.data(), one.data(), z.size() * sizeof(double)) == 0);
                            CHECK(std::memcmp(zf.data(), one_f.data(), zf.size() * sizeof(float)) == 0);
                        }
                    }
                }
            }
        }
    }
    // Rows with more nonzeros than a block sorts at once, among short ones.
    const std::size_t long_row = pyd2ke::HashedRandomFourier::kBlockEntries + 1000;
    std::vector<std::int64_t> indptr{0, 3, static_cast<std::int64_t>(3 + long_row),
                                     static_cast<std::int64_t>(3 + 2 * long_row), static_cast<std::int64_t>(6 + 2 * long_row)};
    std::vector<std::int64_t> ids(indptr.back());
    for (auto& id : ids) id = static_cast<std::int64_t>(rng() % 100000);
    const std::vector<double> vals(ids.size(), 1.0);
    const pyd2ke::HashedRandomFourier f(FourierKernel::laplacian, 30.0, 8, 5);
    std::vector<double> one(4 * 8), automatic(4 * 8);
    f.transform_sparse(ids.data(), vals.data(), indptr.data(), 4, one.data(), 1, 1);
    f.transform_sparse(ids.data(), vals.data(), indptr.data(), 4, automatic.data(), 2);
    CHECK(std::memcmp(one.data(), automatic.data(), one.size() * sizeof(double)) == 0);
}

// The Cauchy weights of every level against exact_cauchy, at hashed draws
// and at both tails and the centre: a few ulps.
void test_cauchy_precision() {
    std::vector<double> us;
    for (int e = 1; e <= 52; ++e) {
        us.push_back(std::ldexp(1.0, -e) + 0x1p-53);   // near 0
        us.push_back(1.0 - std::ldexp(1.0, -e));       // near 1
        us.push_back(0.5 + std::ldexp(1.0, -e - 1));    // just above 1/2
        us.push_back(0.5 - std::ldexp(1.0, -e - 1));    // just below
    }
    for (double u : {0.25, 0.75, 0.25 + 0x1p-40, 0.75 - 0x1p-40}) us.push_back(u);
    double worst_portable = 0;
    for (double u : us) {
        const double e = exact_cauchy(u), w = pyd2ke::detail::unit_cauchy(u);
        worst_portable = std::max(worst_portable, std::fabs(w - e) / std::fabs(e));
    }
    std::printf("Cauchy weights: portable max relative error %.3g at the edges\n", worst_portable);
    CHECK(worst_portable <= 4 * 0x1p-52);
    // The vector kernels on hashed draws: weights() against the exact value.
    for (pyd2ke::SimdLevel level : pyd2ke::supported_simd_levels()) {
        const pyd2ke::HashedRandomFourier f(FourierKernel::laplacian, 1.0, 2 * 4096, 11, level);
        std::vector<double> W(8 * 4096);
        f.weights(0, 8, W.data());
        double worst = 0;
        for (std::size_t j = 0; j < 8; ++j)
            for (std::size_t k = 0; k < 4096; ++k) {
                const std::uint64_t key = pyd2ke::detail::coordinate_key(11, j);
                const double e = exact_cauchy(pyd2ke::detail::open_unit(pyd2ke::detail::counter_hash(key, k)));
                worst = std::max(worst, std::fabs(W[j * 4096 + k] - e) / std::fabs(e));
            }
        std::printf("Cauchy weights, %s: max relative error %.3g\n", pyd2ke::simd_level_name(level), worst);
        CHECK(worst <= 4 * 0x1p-52);
    }
}

// transform_sparse says whether every feature is finite: projections of
// huge values overflow, and cos/sin of infinity is NaN.
void test_finite_flag() {
    const std::vector<std::int64_t> indptr{0, 2, 3};
    const std::vector<std::uint64_t> ids{1, 2, 3};
    for (pyd2ke::SimdLevel level : pyd2ke::supported_simd_levels()) {
        const pyd2ke::HashedRandomFourier f(FourierKernel::laplacian, 1.0, 300, 3, level);
        std::vector<double> z(2 * 300);
        CHECK(f.transform_sparse(ids.data(), std::vector<double>{1.0, 2.0, 3.0}.data(), indptr.data(), 2, z.data(), 2));
        CHECK(!f.transform_sparse(ids.data(), std::vector<double>{1.0, 2.0, 1e308}.data(), indptr.data(), 2, z.data(), 2));
    }
}

void test_approximation() {
    // Laplacian kernel on random count vectors, the paper's error measure.
    std::mt19937_64 rng(1);
    const std::size_t rows = 40, dim = 30;
    std::vector<double> X(rows * dim);
    for (auto& x : X) x = static_cast<double>(rng() % 3);
    for (std::size_t D : {128, 2048}) {
        const double beta = 20;
        const pyd2ke::HashedRandomFourier f(FourierKernel::laplacian, beta, D, 77);
        std::vector<double> Z(rows * D);
        f.transform_dense(X.data(), rows, dim, Z.data(), 2);
        double err = 0;
        std::size_t pairs = 0;
        for (std::size_t i = 0; i < rows; ++i)
            for (std::size_t j = i + 1; j < rows; ++j) {
                double l1 = 0, dot = 0;
                for (std::size_t q = 0; q < dim; ++q) l1 += std::fabs(X[i * dim + q] - X[j * dim + q]);
                for (std::size_t q = 0; q < D; ++q) dot += Z[i * D + q] * Z[j * D + q];
                err += std::fabs(std::exp(-l1 / beta) - dot);
                ++pairs;
            }
        err /= pairs;
        std::printf("Laplacian, D = %zu: mean |k - z'z| = %.4f (0.8/sqrt(D) = %.4f)\n", D, err, 0.8 / std::sqrt(D));
        CHECK(err < 1.3 * 0.8 / std::sqrt(static_cast<double>(D)));
    }
}

void test_errors() {
    bool threw = false;
    try {
        pyd2ke::HashedRandomFourier(FourierKernel::rbf, 1.0, 3, 0);
    } catch (const std::invalid_argument&) {
        threw = true;
    }
    CHECK(threw);
    threw = false;
    try {
        pyd2ke::HashedRandomFourier(FourierKernel::laplacian, 0.0, 4, 0);
    } catch (const std::invalid_argument&) {
        threw = true;
    }
    CHECK(threw);
}

}  // namespace

int main() {
    test_sincos();
    test_levels();
    test_blocks();
    test_cauchy_precision();
    test_finite_flag();
    test_approximation();
    test_errors();
    return test_verdict();
}
