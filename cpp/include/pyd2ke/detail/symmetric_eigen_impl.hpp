#pragma once
// Eigenvalues and eigenvectors of a dense real symmetric matrix, for the
// many small matrices (n <= a few hundred) of the graph domain's node
// embeddings, one per thread at a time, in buffers the caller reuses.
//
//  1. The matrix is scaled by a power of two (exact) so that its largest
//     entry lies in [1/2, 1): no square below can overflow.
//  2. Householder reduction to tridiagonal form T = P A P^T, from the last
//     row up: the reflector of row i zeroes a[i][0 .. i-2] and is applied to
//     the leading block on both sides as a symmetric rank-2 update, reading
//     and writing only the lower triangle, row by row (contiguous).
//     P = H_2 H_3 ... H_{n-1} is kept as its reflectors.
//  3. Implicit symmetric QR steps with Wilkinson's shift on the unreduced
//     bottom block of T, chasing the bulge with plane rotations G_t;
//     off-diagonals below eps (|d_k| + |d_k+1|) are set to zero. The
//     rotations are recorded, not applied.
//  4. The eigenvector rows asked for, e_j^T G_N ... G_1 P: the recorded
//     rotations, newest first, then the reflectors, on the unit vectors of
//     those eigenvalues only. The graph embeddings need a handful of the n
//     eigenvectors: there the O(n^3) work is the reduction alone, where
//     accumulating P and rotating all n rows costs about 6 times as much.

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

namespace pyd2ke::detail {

// QR steps allowed before the bottom eigenvalue of the active block must
// have split off (two or three are typical).
constexpr int symmetric_eigen_max_steps = 60;

// sqrt(x^2 + z^2) without overflow or a denormal square.
inline double plane_norm(double x, double z) {
    const double ax = std::fabs(x), az = std::fabs(z);
    const double big = std::max(ax, az);
    if (big > 1e-140 && big < 1e140) return std::sqrt(x * x + z * z);
    if (big == 0.0) return 0.0;
    const double small = std::min(ax, az) / big;
    return big * std::sqrt(1.0 + small * small);
}

// Several partial sums: the dot products of the reduction vectorise without
// reassociation flags (and round the same way on every machine).
inline double dot_product(const double* x, const double* y, std::size_t n) {
    double s0 = 0.0, s1 = 0.0, s2 = 0.0, s3 = 0.0;
    std::size_t j = 0;
    for (; j + 4 <= n; j += 4) {
        s0 += x[j] * y[j];
        s1 += x[j + 1] * y[j + 1];
        s2 += x[j + 2] * y[j + 2];
        s3 += x[j + 3] * y[j + 3];
    }
    for (; j < n; ++j) s0 += x[j] * y[j];
    return (s0 + s2) + (s1 + s3);
}

class SymmetricEigensolver {
public:
    // The eigenvalues of the symmetric n x n matrix a (row-major; its lower
    // triangle with the diagonal is read). a is overwritten and must stay
    // alive until the last vectors() call: it keeps the reflectors. Throws
    // std::runtime_error for NaN or infinite entries, or if the QR iteration
    // does not converge.
    void solve(double* a, std::size_t n) {
        a_ = a;
        n_ = n;
        d_.resize(n);
        e_.resize(n);
        beta_.resize(n);
        order_.resize(n);
        values_.resize(n);
        steps_.clear();
        rotations_.clear();
        if (n == 0) return;
        double largest = 0.0;
        for (std::size_t i = 0; i < n; ++i)
            for (std::size_t j = 0; j <= i; ++j) largest = std::max(largest, std::fabs(a[i * n + j]));
        if (!(largest <= std::numeric_limits<double>::max()))
            throw std::runtime_error("symmetric_eigen: the matrix has NaN or infinite entries");
        int exponent = 0;
        if (largest > 0.0) std::frexp(largest, &exponent);
        for (std::size_t i = 0; i < n; ++i)
            for (std::size_t j = 0; j <= i; ++j) a[i * n + j] = std::ldexp(a[i * n + j], -exponent);
        tridiagonalize();
        iterate();
        std::iota(order_.begin(), order_.end(), std::size_t{0});
        std::stable_sort(order_.begin(), order_.end(), [&](std::size_t x, std::size_t y) { return d_[x] < d_[y]; });
        for (std::size_t k = 0; k < n; ++k) values_[k] = std::ldexp(d_[order_[k]], exponent);
    }

    // Ascending.
    const double* values() const { return values_.data(); }

    // The unit eigenvectors of values()[first .. stop) as rows of out
    // ((stop - first) x n, row-major).
    void vectors(std::size_t first, std::size_t stop, double* out) {
        const std::size_t n = n_, count = stop - first;
        if (count == 0) return;
        // y: n x count, column t the vector of values()[first + t]; each
        // rotation then touches two contiguous rows.
        y_.assign(n * count, 0.0);
        for (std::size_t t = 0; t < count; ++t) y_[order_[first + t] * count + t] = 1.0;
        std::size_t r = rotations_.size();
        for (std::size_t s = steps_.size(); s > 0; s -= 2) {
            const std::size_t lo = steps_[s - 2], hi = steps_[s - 1];
            for (std::size_t k = hi; k-- > lo;) {
                r -= 2;
                const double c = rotations_[r], sn = rotations_[r + 1];
                double* x = &y_[k * count];
                double* z = x + count;
                for (std::size_t t = 0; t < count; ++t) {
                    const double xt = x[t], zt = z[t];
                    x[t] = c * xt + sn * zt;
                    z[t] = c * zt - sn * xt;
                }
            }
        }
        // y^T H_2 H_3 ... H_{n-1}: H_i = I - beta_i u u^T, u = a[i][0 .. i-1].
        work_.resize(count);
        for (std::size_t i = 2; i < n; ++i) {
            if (beta_[i] == 0.0) continue;
            const double* u = a_ + i * n;
            std::fill(work_.begin(), work_.end(), 0.0);
            for (std::size_t c = 0; c < i; ++c)
                for (std::size_t t = 0; t < count; ++t) work_[t] += u[c] * y_[c * count + t];
            for (std::size_t t = 0; t < count; ++t) work_[t] *= beta_[i];
            for (std::size_t c = 0; c < i; ++c)
                for (std::size_t t = 0; t < count; ++t) y_[c * count + t] -= u[c] * work_[t];
        }
        for (std::size_t t = 0; t < count; ++t)
            for (std::size_t c = 0; c < n; ++c) out[t * n + c] = y_[c * count + t];
    }

private:
    // Step 2: d_, e_ (e_[k] = T[k][k+1]), the reflector of row i in
    // a[i][0 .. i-1] with its factor beta_[i] (0: none).
    void tridiagonalize() {
        double* a = a_;
        const std::size_t n = n_;
        work_.resize(n);
        double* w = work_.data();
        beta_[0] = 0.0;
        e_[n - 1] = 0.0;
        for (std::size_t i = n - 1; i >= 1; --i) {
            double* u = a + i * n;  // row i, its first i entries
            const std::size_t m = i;
            bool nothing_to_zero = true;
            for (std::size_t j = 0; j + 1 < m; ++j) nothing_to_zero = nothing_to_zero && u[j] == 0.0;
            if (nothing_to_zero) {
                beta_[i] = 0.0;
                e_[i - 1] = u[m - 1];
                continue;
            }
            // The reflector maps the row to alpha e_{i-1}; it depends only on
            // the row's direction, computed on the row scaled to max |u_j| = 1.
            double scale = 0.0;
            for (std::size_t j = 0; j < m; ++j) scale = std::max(scale, std::fabs(u[j]));
            for (std::size_t j = 0; j < m; ++j) u[j] /= scale;
            const double sigma = std::sqrt(dot_product(u, u, m));
            const double last = u[m - 1];
            const double alpha = last >= 0.0 ? -sigma : sigma;  // no cancellation in last - alpha
            u[m - 1] = last - alpha;
            const double b = 1.0 / (sigma * std::fabs(u[m - 1]));  // 2 / |u|^2
            beta_[i] = b;
            e_[i - 1] = alpha * scale;
            // w = b B u, with B the leading m x m block (lower triangle).
            std::fill(w, w + m, 0.0);
            for (std::size_t r = 0; r < m; ++r) {
                const double* row = a + r * n;
                const double ur = u[r];
                for (std::size_t c = 0; c < r; ++c) w[c] += row[c] * ur;
                w[r] += dot_product(row, u, r) + row[r] * ur;
            }
            for (std::size_t r = 0; r < m; ++r) w[r] *= b;
            // B <- H B H = B - u v^T - v u^T, v = w - (b/2 u^T w) u.
            const double k = 0.5 * b * dot_product(u, w, m);
            for (std::size_t r = 0; r < m; ++r) w[r] -= k * u[r];
            for (std::size_t r = 0; r < m; ++r) {
                double* row = a + r * n;
                const double ur = u[r], vr = w[r];
                for (std::size_t c = 0; c <= r; ++c) row[c] -= ur * w[c] + vr * u[c];
            }
        }
        // A reflector only touches the leading block, so each diagonal
        // entry is final once the rows below it are done.
        for (std::size_t i = 0; i < n; ++i) d_[i] = a[i * n + i];
    }

    bool negligible(std::size_t k) const {
        const double off = std::fabs(e_[k]);
        return off <= std::numeric_limits<double>::epsilon() * (std::fabs(d_[k]) + std::fabs(d_[k + 1])) ||
               off < std::numeric_limits<double>::min();
    }

    // Step 3.
    void iterate() {
        std::size_t hi = n_ - 1;
        int steps = 0;
        while (hi > 0) {
            if (negligible(hi - 1)) {
                e_[hi - 1] = 0.0;
                --hi;
                steps = 0;
                continue;
            }
            std::size_t lo = hi - 1;
            while (lo > 0 && !negligible(lo - 1)) --lo;
            if (lo > 0) e_[lo - 1] = 0.0;
            if (++steps > symmetric_eigen_max_steps)
                throw std::runtime_error("symmetric_eigen: the QR iteration did not converge for eigenvalue " +
                                         std::to_string(hi) + " of a " + std::to_string(n_) + " x " +
                                         std::to_string(n_) + " matrix after " +
                                         std::to_string(symmetric_eigen_max_steps) + " steps");
            qr_step(lo, hi);
        }
    }

    // One implicit QR step on the unreduced block lo .. hi of (d_, e_);
    // records (lo, hi) and each rotation's (c, s): coordinates (k, k+1) of
    // every vector v become (c v_k - s v_k+1, s v_k + c v_k+1).
    void qr_step(std::size_t lo, std::size_t hi) {
        double* d = d_.data();
        double* e = e_.data();
        steps_.push_back(lo);
        steps_.push_back(hi);
        // The eigenvalue of the trailing 2 x 2 block nearer its last diagonal entry.
        const double half_gap = 0.5 * (d[hi - 1] - d[hi]);
        const double coupling = e[hi - 1];
        const double root = std::copysign(plane_norm(half_gap, coupling), half_gap);
        const double shift = d[hi] - coupling * (coupling / (half_gap + root));
        // The first rotation turns the first column of T - shift I towards
        // e_lo; each later one removes the bulge the previous one left at (k+1, k-1).
        double x = d[lo] - shift, bulge = e[lo];
        for (std::size_t k = lo; k < hi; ++k) {
            const double r = plane_norm(x, bulge);
            const double c = r == 0.0 ? 1.0 : x / r;
            const double s = r == 0.0 ? 0.0 : -bulge / r;
            if (k > lo) e[k - 1] = r;
            const double dk = d[k], dn = d[k + 1], ek = e[k];
            const double cc = c * c, ss = s * s, cs = c * s;
            d[k] = cc * dk - 2.0 * cs * ek + ss * dn;
            d[k + 1] = ss * dk + 2.0 * cs * ek + cc * dn;
            e[k] = cs * (dk - dn) + (cc - ss) * ek;
            if (k + 1 < hi) {
                const double next = e[k + 1];
                bulge = -s * next;  // now at (k+2, k)
                e[k + 1] = c * next;
                x = e[k];
            }
            rotations_.push_back(c);
            rotations_.push_back(s);
        }
    }

    double* a_ = nullptr;
    std::size_t n_ = 0;
    std::vector<double> d_, e_, beta_, values_, work_, rotations_, y_;
    std::vector<std::size_t> order_, steps_;  // order_: ascending position -> index in d_
};

// The whole decomposition: values (n) ascending, vectors (n x n, row-major)
// with row k the unit eigenvector of values[k]; a as for solve().
inline void symmetric_eigen(double* a, std::size_t n, double* values, double* vectors, SymmetricEigensolver& solver) {
    solver.solve(a, n);
    std::copy(solver.values(), solver.values() + n, values);
    solver.vectors(0, n, vectors);
}

}  // namespace pyd2ke::detail
