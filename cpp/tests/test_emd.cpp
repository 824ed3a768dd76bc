// Exact EMD (transportation simplex) against independent references: a dense
// two-phase tableau simplex on the same LP, and the closed form of 1-D EMD
// (integral of |F - G|). Every solve is also checked for primal
// feasibility and for the optimality certificate (dual feasibility plus
// complementary slackness), which proves optimality on its own; the large
// problems rely on that certificate alone. Every EMD entry point (EmdBatch,
// its word tables, each level's simplex) is checked against the definition
// too (entry_points.hpp).

#include <pyd2ke/distance/emd.hpp>

#include "check.hpp"
#include "distance_entry_points.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <limits>
#include <memory>
#include <random>
#include <stdexcept>
#include <vector>

namespace {

// --- reference: textbook dense simplex ---------------------------------------------

// min c.x subject to A x = rhs (rhs >= 0), x >= 0, A dense (rows x vars).
// Phase 1 minimises the sum of one artificial per row; phase 2 the cost.
// The tableau carries the reduced costs in its last row. Dantzig's rule, and
// Bland's (which cannot cycle) after a run of degenerate pivots. Returns
// +inf if infeasible.
double reference_lp(const std::vector<std::vector<double>>& A, const std::vector<double>& rhs,
                    const std::vector<double>& c) {
    const std::size_t rows = A.size(), vars = c.size(), cols = vars + rows;  // originals, then artificials
    const double eps = 1e-11;
    // rows x (cols + 1) constraint rows, then the reduced-cost row.
    std::vector<std::vector<double>> T(rows + 1, std::vector<double>(cols + 1, 0.0));
    std::vector<std::size_t> basis(rows);
    std::vector<bool> removed(rows, false);
    for (std::size_t r = 0; r < rows; ++r) {
        std::copy(A[r].begin(), A[r].end(), T[r].begin());
        T[r][vars + r] = 1;
        T[r][cols] = rhs[r];
        basis[r] = vars + r;
    }
    std::vector<double>& reduced = T[rows];

    auto pivot_on = [&](std::size_t pr, std::size_t pc) {
        const double p = T[pr][pc];
        for (double& x : T[pr]) x /= p;
        for (std::size_t r = 0; r <= rows; ++r) {
            if (r == pr || T[r][pc] == 0) continue;
            const double f = T[r][pc];
            for (std::size_t j = 0; j <= cols; ++j) T[r][j] -= f * T[pr][j];
        }
        basis[pr] = pc;
    };
    // Sets the reduced-cost row for objective obj, then minimises; columns
    // >= allowed never enter.
    auto optimise = [&](const std::vector<double>& obj, std::size_t allowed) {
        for (std::size_t j = 0; j <= cols; ++j) reduced[j] = j < cols ? obj[j] : 0.0;
        for (std::size_t r = 0; r < rows; ++r) {
            if (removed[r]) continue;
            const double f = obj[basis[r]];
            if (f != 0)
                for (std::size_t j = 0; j <= cols; ++j) reduced[j] -= f * T[r][j];
        }
        std::size_t degenerate = 0;
        for (int iteration = 0; iteration < 1000000; ++iteration) {
            const bool bland = degenerate > 50;
            std::size_t enter = cols;
            double best = -eps;
            for (std::size_t j = 0; j < allowed; ++j)
                if (reduced[j] < best) {
                    best = reduced[j];
                    enter = j;
                    if (bland) break;
                }
            if (enter == cols) return;
            std::size_t leave = rows;
            double ratio = std::numeric_limits<double>::infinity();
            for (std::size_t r = 0; r < rows; ++r) {
                if (removed[r] || T[r][enter] <= eps) continue;
                const double q = T[r][cols] / T[r][enter];
                if (q < ratio - 1e-14 || (q <= ratio + 1e-14 && leave < rows && basis[r] < basis[leave])) {
                    ratio = q;
                    leave = r;
                }
            }
            if (leave == rows) throw std::runtime_error("reference LP unbounded");
            degenerate = ratio <= 1e-14 ? degenerate + 1 : 0;
            pivot_on(leave, enter);
        }
        throw std::runtime_error("reference LP did not converge");
    };

    std::vector<double> phase1(cols, 0.0);
    for (std::size_t r = 0; r < rows; ++r) phase1[vars + r] = 1;
    optimise(phase1, cols);
    double infeasibility = 0;
    for (std::size_t r = 0; r < rows; ++r)
        if (basis[r] >= vars) infeasibility += T[r][cols];
    if (infeasibility > 1e-9) return std::numeric_limits<double>::infinity();
    // Drive the artificials still basic (at zero) out, or drop their rows.
    for (std::size_t r = 0; r < rows; ++r) {
        if (basis[r] < vars) continue;
        std::size_t j = 0;
        while (j < vars && std::abs(T[r][j]) <= eps) ++j;
        if (j < vars)
            pivot_on(r, j);
        else
            removed[r] = true;
    }
    std::vector<double> phase2(cols, 0.0);
    std::copy(c.begin(), c.end(), phase2.begin());
    optimise(phase2, vars);
    double objective = 0;
    for (std::size_t r = 0; r < rows; ++r)
        if (!removed[r]) objective += phase2[basis[r]] * T[r][cols];
    return objective;
}

// The transportation LP with normalised weights; the last demand constraint
// is implied by the others and left out.
double reference_emd(const std::vector<double>& cost, std::size_t n, std::size_t m, std::vector<double> a,
                     std::vector<double> b) {
    double sa = 0, sb = 0;
    for (double x : a) sa += x;
    for (double x : b) sb += x;
    for (double& x : a) x /= sa;
    for (double& x : b) x /= sb;
    std::vector<std::vector<double>> A;
    std::vector<double> rhs;
    for (std::size_t i = 0; i < n; ++i) {
        std::vector<double> row(n * m, 0.0);
        for (std::size_t j = 0; j < m; ++j) row[i * m + j] = 1;
        A.push_back(row);
        rhs.push_back(a[i]);
    }
    for (std::size_t j = 0; j + 1 < m; ++j) {
        std::vector<double> row(n * m, 0.0);
        for (std::size_t i = 0; i < n; ++i) row[i * m + j] = 1;
        A.push_back(row);
        rhs.push_back(b[j]);
    }
    return reference_lp(A, rhs, cost);
}

// --- checks on a solve --------------------------------------------------------------

double max_abs(const std::vector<double>& v) {
    double x = 0;
    for (double y : v) x = std::max(x, std::abs(y));
    return x;
}

// Primal feasibility, the objective, and the certificate: c - u - v >= 0 on all
// pairs of kept points and = 0 where mass flows.
void check_solution(const std::vector<double>& cost, std::size_t n, std::size_t m, const std::vector<double>& a,
                    const std::vector<double>& b, double value, const pyd2ke::EmdWorkspace& ws) {
    const double scale = std::max(max_abs(cost), 1e-300);
    double sa = 0, sb = 0;
    for (double x : a) sa += x;
    for (double x : b) sb += x;
    std::vector<double> out(n, 0.0), in(m, 0.0);
    double objective = 0;
    bool nonnegative = true, on_kept = true;
    for (const pyd2ke::EmdFlow& f : ws.flows()) {
        nonnegative &= f.mass >= 0;
        on_kept &= f.mass == 0 || (a[f.source] > 0 && b[f.target] > 0);
        out[f.source] += f.mass;
        in[f.target] += f.mass;
        objective += f.mass * cost[f.source * m + f.target];
    }
    CHECK(nonnegative);
    CHECK(on_kept);
    for (std::size_t i = 0; i < n; ++i) CHECK(std::abs(out[i] - a[i] / sa) <= 1e-12);
    for (std::size_t j = 0; j < m; ++j) CHECK(std::abs(in[j] - b[j] / sb) <= 1e-12);
    CHECK(std::abs(objective - value) <= 1e-12 * scale);

    const std::vector<double> u = ws.source_potentials(), v = ws.target_potentials();
    double worst = 0;
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < m; ++j)
            if (a[i] > 0 && b[j] > 0) worst = std::min(worst, cost[i * m + j] - u[i] - v[j]);
    CHECK(worst >= -1e-9 * scale);
    double slack = 0;
    for (const pyd2ke::EmdFlow& f : ws.flows())
        if (f.mass > 0) slack = std::max(slack, std::abs(cost[f.source * m + f.target] - u[f.source] - v[f.target]));
    CHECK(slack <= 1e-9 * scale);
}

// --- random problems ----------------------------------------------------------------

enum class CostKind { small_integers, integers, reals, euclidean_with_duplicates };
enum class WeightKind { reals, small_integers, uniform, with_zeros };

struct Problem {
    std::size_t n, m;
    std::vector<double> cost, a, b;
};

Problem random_problem(std::mt19937_64& rng, std::size_t n, std::size_t m, CostKind costs, WeightKind weights) {
    std::uniform_real_distribution<double> unit(0, 1);
    std::normal_distribution<double> normal;
    Problem p{n, m, std::vector<double>(n * m), std::vector<double>(n), std::vector<double>(m)};
    if (costs == CostKind::euclidean_with_duplicates) {
        // Points in the plane, some of them shared by both sides (zero costs)
        // and some repeated within a side (equal rows or columns).
        const std::size_t d = 2;
        std::vector<double> x(n * d), y(m * d);
        for (auto& t : x) t = normal(rng);
        for (auto& t : y) t = normal(rng);
        for (std::size_t j = 0; j < m; ++j)
            if (rng() % 3 == 0) std::copy_n(&x[(rng() % n) * d], d, &y[j * d]);
        for (std::size_t i = 1; i < n; ++i)
            if (rng() % 5 == 0) std::copy_n(&x[(rng() % i) * d], d, &x[i * d]);
        for (std::size_t i = 0; i < n; ++i)
            for (std::size_t j = 0; j < m; ++j)
                p.cost[i * m + j] = std::hypot(x[i * d] - y[j * d], x[i * d + 1] - y[j * d + 1]);
    } else {
        for (auto& c : p.cost)
            c = costs == CostKind::small_integers ? static_cast<double>(rng() % 4)
                : costs == CostKind::integers     ? static_cast<double>(rng() % 101)
                                                  : unit(rng) * 10;
    }
    auto fill = [&](std::vector<double>& w) {
        for (auto& x : w)
            x = weights == WeightKind::reals            ? 0.05 + unit(rng)
                : weights == WeightKind::small_integers ? static_cast<double>(1 + rng() % 3)
                : weights == WeightKind::uniform        ? 1.0
                                                        : (rng() % 4 == 0 ? 0.0 : static_cast<double>(1 + rng() % 5));
        if (std::all_of(w.begin(), w.end(), [](double x) { return x == 0; })) w[rng() % w.size()] = 1;
    };
    fill(p.a);
    fill(p.b);
    return p;
}

std::vector<double> transpose(const std::vector<double>& cost, std::size_t n, std::size_t m) {
    std::vector<double> t(n * m);
    for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < m; ++j) t[j * n + i] = cost[i * m + j];
    return t;
}

void test_against_reference(pyd2ke::SimdLevel level) {
    std::mt19937_64 rng(2024);
    pyd2ke::EmdWorkspace ws(level), other(level);  // one workspace reused across all shapes
    int solved = 0;
    for (int round = 0; round < 1200; ++round) {
        // Mostly small (the reference is a dense tableau), a few up to 40 x 40,
        // and single points on a side.
        const std::size_t limit = round % 10 == 0 ? 40 : 12;
        std::size_t n = 1 + rng() % limit, m = 1 + rng() % limit;
        if (round % 17 == 0) n = 1;
        if (round % 19 == 0) m = 1;
        const auto costs = static_cast<CostKind>(round % 4);
        const auto weights = static_cast<WeightKind>((round / 4) % 4);
        const Problem p = random_problem(rng, n, m, costs, weights);

        const double value = pyd2ke::emd_from_cost(p.cost.data(), n, m, p.a.data(), p.b.data(), ws);
        check_solution(p.cost, n, m, p.a, p.b, value, ws);
        const double ref = reference_emd(p.cost, n, m, p.a, p.b);
        const double scale = std::max(max_abs(p.cost), 1e-300);
        CHECK(std::abs(value - ref) <= 1e-9 * std::abs(ref) + 1e-12 * scale);
        if (!(std::abs(value - ref) <= 1e-9 * std::abs(ref) + 1e-12 * scale) && pyd2ke_test::failures <= 20)
            std::printf("  round %d (%zu x %zu, costs %d, weights %d): emd %.17g reference %.17g\n", round, n, m,
                        static_cast<int>(costs), static_cast<int>(weights), value, ref);

        // The same problem transposed, in another workspace.
        const std::vector<double> t = transpose(p.cost, n, m);
        const double swapped = pyd2ke::emd_from_cost(t.data(), m, n, p.b.data(), p.a.data(), other);
        CHECK(std::abs(swapped - value) <= 1e-12 * std::abs(value) + 1e-13 * scale);
        check_solution(t, m, n, p.b, p.a, swapped, other);
        ++solved;
    }
    std::printf("%d random problems match the reference LP\n", solved);
}

// Every entry point (entry_points.hpp) on weighted point sets of every
// boundary size, some weights zero, against each other: the batch (costs
// from |a|^2 + |b|^2 - 2ab in T) within a tolerance of the definition, its
// word-table and D2KE paths with the batch's bits, and the definition with
// each level's simplex, bit for bit where two levels share a build.
template <class T>
void test_entry_points(double rtol) {
    std::mt19937_64 rng(41);
    std::normal_distribution<double> normal;
    const auto entry_points = pyd2ke_test::emd_entry_points<T>({rtol, rtol}, {1e-12, 1e-12});
    for (std::size_t dim : {1, 5}) {
        std::vector<std::vector<T>> points;
        std::vector<std::vector<double>> weights;
        for (std::size_t size : pyd2ke_test::kEdgeLengths) {
            if (size == 0) continue;
            points.emplace_back(size * dim);
            for (T& v : points.back()) v = static_cast<T>(dim == 1 ? std::round(3 * normal(rng)) : normal(rng));
            weights.emplace_back(size);
            for (double& w : weights.back()) w = rng() % 5 == 0 ? 0.0 : static_cast<double>(1 + rng() % 4);
            weights.back()[rng() % size] = 1.0;
        }
        for (bool weighted : {false, true}) {
            std::vector<pyd2ke::PointSetView<T>> sets;
            for (std::size_t i = 0; i < points.size(); ++i)
                sets.emplace_back(points[i].data(), points[i].size() / dim, dim,
                                  weighted ? weights[i].data() : nullptr);
            for (const auto& x : sets)
                entry_points.check(x, sets,
                                   std::to_string(x.size) + (weighted ? " weighted" : "") + " points in " +
                                       std::to_string(dim) + "-d");
        }
    }
}

// 1-D EMD with |x - y| costs is the integral of |F_a - F_b|.
void test_one_dimensional() {
    std::mt19937_64 rng(7);
    std::uniform_real_distribution<double> unit(0, 1);
    pyd2ke::EmdWorkspace ws;
    for (int round = 0; round < 300; ++round) {
        const std::size_t n = 1 + rng() % 60, m = 1 + rng() % 60;
        std::vector<double> x(n), y(m), a(n), b(m), cost(n * m);
        for (auto& t : x) t = round % 2 ? std::floor(unit(rng) * 10) : unit(rng);  // ties on even rounds
        for (auto& t : y) t = round % 2 ? std::floor(unit(rng) * 10) : unit(rng);
        for (auto& t : a) t = round % 3 ? unit(rng) : 1.0;
        for (auto& t : b) t = round % 3 ? unit(rng) : 1.0;
        for (std::size_t i = 0; i < n; ++i)
            for (std::size_t j = 0; j < m; ++j) cost[i * m + j] = std::abs(x[i] - y[j]);
        const double value = pyd2ke::emd_from_cost(cost.data(), n, m, a.data(), b.data(), ws);
        check_solution(cost, n, m, a, b, value, ws);

        double sa = 0, sb = 0;
        for (double t : a) sa += t;
        for (double t : b) sb += t;
        std::vector<std::pair<double, double>> events;  // position, signed mass
        for (std::size_t i = 0; i < n; ++i) events.emplace_back(x[i], a[i] / sa);
        for (std::size_t j = 0; j < m; ++j) events.emplace_back(y[j], -b[j] / sb);
        std::sort(events.begin(), events.end());
        double cdf_gap = 0, integral = 0;
        for (std::size_t k = 0; k + 1 < events.size(); ++k) {
            cdf_gap += events[k].second;
            integral += std::abs(cdf_gap) * (events[k + 1].first - events[k].first);
        }
        CHECK(std::abs(value - integral) <= 1e-12 * (1 + integral));
    }
}

void test_known_values_and_errors() {
    pyd2ke::EmdWorkspace ws;
    // Two points each, crossing is worse than matching.
    const double cost[] = {0, 1, 1, 0}, half[] = {1, 1};
    CHECK(pyd2ke::emd_from_cost(cost, 2, 2, half, half, ws) == 0.0);
    const double skew[] = {3, 1};
    CHECK(std::abs(pyd2ke::emd_from_cost(cost, 2, 2, skew, half, ws) - 0.25) <= 1e-15);
    // One point on a side: the weighted mean of its costs; zero weights drop out.
    const double column[] = {2, 4, 8}, w[] = {1, 0, 3}, one[] = {5};
    CHECK(std::abs(pyd2ke::emd_from_cost(column, 3, 1, w, one, ws) - 6.5) <= 1e-15);
    CHECK(std::abs(pyd2ke::emd_from_cost(column, 1, 3, one, w, ws) - 6.5) <= 1e-15);
    const double wide[] = {9, 1, 9, 9, 9, 9}, mass_on_one[] = {0, 1, 0};  // (2, 3); only target 1 kept
    CHECK(pyd2ke::emd_from_cost(wide, 2, 3, half, mass_on_one, ws) == 5.0);
    // All costs equal: every plan is optimal.
    const std::vector<double> flat(7 * 5, 2.5), seven(7, 1.0), five(5, 1.0);
    CHECK(std::abs(pyd2ke::emd_from_cost(flat.data(), 7, 5, seven.data(), five.data(), ws) - 2.5) <= 1e-15);

    auto throws = [&](const double* c, std::size_t n, std::size_t m, const double* a, const double* b) {
        try {
            pyd2ke::emd_from_cost(c, n, m, a, b, ws);
        } catch (const std::invalid_argument&) {
            return true;
        }
        return false;
    };
    const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
    const double negative[] = {1, -1}, zeros[] = {0, 0}, with_nan[] = {1, nan}, with_inf[] = {inf, 1};
    const double bad_cost[] = {0, nan, 1, 0}, inf_cost[] = {0, 1, inf, 0};
    CHECK(throws(cost, 0, 2, half, half));
    CHECK(throws(cost, 2, 0, half, half));
    CHECK(throws(cost, 2, 2, negative, half));
    CHECK(throws(cost, 2, 2, half, zeros));
    CHECK(throws(cost, 2, 2, with_nan, half));
    CHECK(throws(cost, 2, 2, half, with_inf));
    CHECK(throws(bad_cost, 2, 2, half, half));
    CHECK(throws(inf_cost, 2, 2, half, half));
    // A cost in a dropped row is still checked.
    const double zero_first[] = {0, 1};
    CHECK(throws(inf_cost, 2, 2, zero_first, half));
    // The workspace still works after an error.
    CHECK(pyd2ke::emd_from_cost(cost, 2, 2, half, half, ws) == 0.0);
}

// Degenerate structure: uniform weights with n a multiple of m and 0/1
// costs make long runs of degenerate pivots likely; scaling the costs scales
// the answer.
void test_degenerate_and_scaling() {
    std::mt19937_64 rng(99);
    pyd2ke::EmdWorkspace ws;
    for (int round = 0; round < 200; ++round) {
        const std::size_t m = 1 + rng() % 12, n = m * (1 + rng() % 5);
        std::vector<double> cost(n * m), a(n, 1.0), b(m, 1.0);
        for (auto& c : cost) c = static_cast<double>(rng() % 2);
        const double value = pyd2ke::emd_from_cost(cost.data(), n, m, a.data(), b.data(), ws);
        check_solution(cost, n, m, a, b, value, ws);
        if (n * m <= 200) CHECK(std::abs(value - reference_emd(cost, n, m, a, b)) <= 1e-12);
        for (double factor : {1e-200, 1e150}) {
            std::vector<double> scaled(cost);
            for (auto& c : scaled) c *= factor;
            const double s = pyd2ke::emd_from_cost(scaled.data(), n, m, a.data(), b.data(), ws);
            CHECK(std::abs(s - value * factor) <= 1e-12 * factor);
        }
    }
}

// The raw simplex of a SIMD level's build.
std::unique_ptr<pyd2ke::detail::TransportSolver> make_simplex(pyd2ke::SimdLevel level) {
    return pyd2ke::detail::simd_table<pyd2ke::detail::TransportSimplexTable>(level).make();
}

// Loads a problem (costs row-major, weights not normalised) into a raw simplex.
void load_problem(pyd2ke::detail::TransportSolver& simplex, const std::vector<double>& cost, std::size_t rows, std::size_t cols,
                  const std::vector<double>& a, const std::vector<double>& b) {
    simplex.reset(rows, cols);
    double sa = 0, sb = 0;
    for (double x : a) sa += x;
    for (double x : b) sb += x;
    for (std::size_t i = 0; i < rows; ++i) simplex.supplies()[i] = a[i] / sa;
    for (std::size_t j = 0; j < cols; ++j) simplex.demands()[j] = b[j] / sb;
    for (std::size_t i = 0; i < rows; ++i)
        for (std::size_t j = 0; j < cols; ++j) simplex.costs()[j * rows + i] = cost[i * cols + j];
}

// The anti-cycling path: Bland's rule from the first degenerate pivot on,
// on the raw simplex (both pricing schemes: full below 8192 cells, blocks
// above), must reach the same optimum. Run for the simplex of each SIMD
// level (the portable build, and on x86 the AVX2 one).
void test_bland_path(pyd2ke::SimdLevel level) {
    std::mt19937_64 rng(31);
    pyd2ke::EmdWorkspace ws;
    const auto made = make_simplex(level);
    pyd2ke::detail::TransportSolver& simplex = *made;
    for (int round = 0; round < 120; ++round) {
        const bool large = round % 6 == 0;
        const std::size_t cols = large ? 60 + rng() % 40 : 2 + rng() % 15;
        const std::size_t rows = large ? 150 + rng() % 50 : cols * (1 + rng() % 4);
        std::vector<double> cost(rows * cols), a(rows, 1.0), b(cols, 1.0);
        for (auto& c : cost) c = static_cast<double>(rng() % 3);
        if (round % 2) {
            for (auto& x : a) x = static_cast<double>(1 + rng() % 3);
            for (auto& x : b) x = static_cast<double>(1 + rng() % 3);
        }
        const double expected = pyd2ke::emd_from_cost(cost.data(), rows, cols, a.data(), b.data(), ws);

        load_problem(simplex, cost, rows, cols, a, b);
        simplex.set_bland_after(0);
        const double value = simplex.solve();
        CHECK(std::abs(value - expected) <= 1e-12 * (1 + expected));
        double reduced = 0;
        for (std::size_t i = 0; i < rows; ++i)
            for (std::size_t j = 0; j < cols; ++j)
                reduced = std::min(reduced, cost[i * cols + j] - simplex.row_potential(i) - simplex.col_potential(j));
        CHECK(reduced >= -1e-9);
    }
}

// Many rows against a few columns, the shape of WME (a document against a
// random one of a few words): the dual warm start moves many rows per step
// and settles most prices by selection rather than by passes. Row counts
// straddle the vector widths; ties come from integer costs and weights. Run
// for the simplex of each SIMD level, on the raw simplex (no zero weights there).
void test_long_against_few(pyd2ke::SimdLevel level) {
    std::mt19937_64 rng(37);
    const auto made = make_simplex(level);
    pyd2ke::detail::TransportSolver& simplex = *made;
    int solved = 0;
    for (const std::size_t n : {7, 8, 9, 15, 16, 17, 63, 64, 65, 130, 257}) {
        for (std::size_t m = 1; m <= 6; ++m) {
            const auto costs = static_cast<CostKind>((n + m) % 4);
            const auto weights = static_cast<WeightKind>((n / 2 + m) % 3);
            const Problem p = random_problem(rng, n, m, costs, weights);
            load_problem(simplex, p.cost, n, m, p.a, p.b);
            const double value = simplex.solve();
            const double ref = reference_emd(p.cost, n, m, p.a, p.b);
            CHECK(std::abs(value - ref) <= 1e-9 * std::abs(ref) + 1e-12 * std::max(max_abs(p.cost), 1e-300));
            ++solved;
        }
    }
    std::printf("%d long-against-few problems match the reference LP\n", solved);
}

// Larger shapes: no reference, the certificate proves optimality.
void test_large() {
    std::mt19937_64 rng(5);
    std::normal_distribution<double> normal;
    std::uniform_real_distribution<double> unit(0.1, 1);
    pyd2ke::EmdWorkspace ws;
    struct Shape {
        std::size_t n, m, d;
        bool uniform;  // equal weights: many ties (n a multiple of m)
    };
    // Long documents against a few words take the warm start's selection path.
    for (const Shape s : {Shape{500, 50, 50, false}, Shape{50, 500, 50, false}, Shape{200, 21, 50, false},
                          Shape{1000, 1000, 50, false}, Shape{4000, 3, 16, false}, Shape{4096, 4, 16, true},
                          Shape{3, 3000, 16, true}}) {
        std::vector<double> x(s.n * s.d), y(s.m * s.d), cost(s.n * s.m), a(s.n), b(s.m);
        for (auto& t : x) t = normal(rng);
        for (auto& t : y) t = normal(rng);
        for (auto& t : a) t = s.uniform ? 1.0 : unit(rng);
        for (auto& t : b) t = s.uniform ? 1.0 : unit(rng);
        for (std::size_t i = 0; i < s.n; ++i)
            for (std::size_t j = 0; j < s.m; ++j) {
                double sum = 0;
                for (std::size_t k = 0; k < s.d; ++k) {
                    const double diff = x[i * s.d + k] - y[j * s.d + k];
                    sum += diff * diff;
                }
                cost[i * s.m + j] = std::sqrt(sum);
            }
        const auto start = std::chrono::steady_clock::now();
        const double value = pyd2ke::emd_from_cost(cost.data(), s.n, s.m, a.data(), b.data(), ws);
        const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
        std::printf("%zu x %zu: emd %.6f, %zu pivots, %.2f ms\n", s.n, s.m, value, ws.pivots(), ms);
        check_solution(cost, s.n, s.m, a, b, value, ws);
    }
}

}  // namespace

int main() {
    test_known_values_and_errors();
    test_one_dimensional();
    test_degenerate_and_scaling();
    for (pyd2ke::SimdLevel level : pyd2ke::supported_simd_levels()) {
        std::printf("raw simplex at SIMD level %s\n", pyd2ke::simd_level_name(level));
        test_bland_path(level);
        test_long_against_few(level);
        test_against_reference(level);
    }
    pyd2ke_test::print_simd_levels("EMD entry points");
    test_entry_points<double>(1e-9);
    test_entry_points<float>(1e-3);
    test_large();
    return test_verdict();
}
