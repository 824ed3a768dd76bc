// The transportation simplex itself (see emd_simplex_impl.hpp), compiled
// once per instruction set by core/simd_dispatch.hpp. No include guard on
// purpose.

#if PYD2KE_SIMD_VECTOR_BYTES == 16
// SSE2 is the x86-64 baseline: its build would be the portable one, the
// same code.
inline TransportSimplexTable kernel_table(SimdTableTag<TransportSimplexTable> tag, Isa) {
    return kernel_table(tag, simd_scalar::Isa{});
}
#elif PYD2KE_SIMD_VECTOR_BYTES == 64
// AVX-512 runs the AVX2 build, on purpose. An 8-lane build is not slower on
// the WME shapes (50-200 words against 1-21: 0.76x to 1.04x the AVX2 time
// per solve, medians of 5 interleaved runs on a shared machine), but it is
// not the same computation: its lanes add the warm start's loads in another
// order, so some problems take other pivots (5 of 3000 random WME-shaped
// problems) and end a few ulps apart (4 of 3000). Outputs would then depend
// on the CPU generation, and the recorded golden outputs would change.
inline TransportSimplexTable kernel_table(SimdTableTag<TransportSimplexTable> tag, Isa) {
    return kernel_table(tag, simd_avx2::Isa{});
}
#else

// Lanes of doubles: the ISA's vectors; the portable build (simd_scalar)
// takes the vector extensions' generic 16 bytes whatever the compiler flags
// (a PYD2KE_NATIVE build included), so that the scalar level gives the same bits in
// every build: the lane count decides the order of the warm start's sums.
#if PYD2KE_SIMD_VECTOR_BYTES
#define PYD2KE_EMD_LANE_BYTES PYD2KE_SIMD_VECTOR_BYTES
#else
#define PYD2KE_EMD_LANE_BYTES 16
#endif

#if PYD2KE_HAS_VECTOR_EXTENSIONS
typedef double EmdLanes __attribute__((vector_size(PYD2KE_EMD_LANE_BYTES)));
constexpr std::size_t kEmdWidth = sizeof(EmdLanes) / sizeof(double);

inline EmdLanes emd_load(const double* p) {
    EmdLanes x;
    std::memcpy(&x, p, sizeof x);
    return x;
}
#endif

// Dantzig pricing of rows [begin, end) of the column-major costs (R rows, C
// columns): best_rc[i] = min_j (c_ij - v_j) - u_i, where u_i = c_ip - v_p
// for the row's parent column p = parent_col[i] (a double, to compare in the
// lanes). The parent's own cell gives 0, so best_rc < 0 exactly when some
// cell of the row prices negative. Two vectors of rows at a time down the
// columns; no reduction, so it vectorises without -ffast-math.
inline void price_rows(const double* cost, std::size_t R, std::size_t C, const double* v, const double* parent_col,
                       std::size_t begin, std::size_t end, double* best_rc) {
    const double inf = std::numeric_limits<double>::infinity();
    std::size_t body = begin;
#if PYD2KE_HAS_VECTOR_EXTENSIONS
    body = end - (end - begin) % (2 * kEmdWidth);
    for (std::size_t i = begin; i < body; i += 2 * kEmdWidth) {
        const EmdLanes p0 = emd_load(parent_col + i), p1 = emd_load(parent_col + i + kEmdWidth);
        EmdLanes best0 = EmdLanes{} + inf, best1 = best0, own0 = EmdLanes{} + 0.0, own1 = own0, index = own0;
        for (std::size_t j = 0; j < C; ++j, index += 1.0) {
            const double* c = cost + j * R + i;
            const EmdLanes x0 = emd_load(c) - v[j], x1 = emd_load(c + kEmdWidth) - v[j];
            own0 = p0 == index ? x0 : own0;
            own1 = p1 == index ? x1 : own1;
            best0 = x0 < best0 ? x0 : best0;
            best1 = x1 < best1 ? x1 : best1;
        }
        best0 -= own0;
        best1 -= own1;
        std::memcpy(best_rc + i, &best0, sizeof best0);
        std::memcpy(best_rc + i + kEmdWidth, &best1, sizeof best1);
    }
#endif
    for (std::size_t i = body; i < end; ++i) {
        const std::size_t p = static_cast<std::size_t>(parent_col[i]);
        double best = inf;
        for (std::size_t j = 0; j < C; ++j) {
            const double x = cost[j * R + i] - v[j];
            best = x < best ? x : best;
        }
        best_rc[i] = best - (cost[p * R + i] - v[p]);
    }
}

// For every row: the smallest and second smallest c_ij - v_j, and the
// (first) column of the smallest, as a double.
inline void two_smallest(const double* cost, std::size_t R, std::size_t C, const double* v, double* first,
                         double* first_col, double* second) {
    const double inf = std::numeric_limits<double>::infinity();
    std::size_t body = 0;
#if PYD2KE_HAS_VECTOR_EXTENSIONS
    body = R - R % kEmdWidth;
    for (std::size_t i = 0; i < body; i += kEmdWidth) {
        EmdLanes best = emd_load(cost + i) - v[0];
        EmdLanes next = EmdLanes{} + inf;
        EmdLanes col = EmdLanes{} + 0.0;
        for (std::size_t j = 1; j < C; ++j) {
            const EmdLanes x = emd_load(cost + j * R + i) - v[j];
            const auto better = x < best;
            next = better ? best : (x < next ? x : next);
            col = better ? EmdLanes{} + static_cast<double>(j) : col;
            best = better ? x : best;
        }
        std::memcpy(first + i, &best, sizeof best);
        std::memcpy(second + i, &next, sizeof next);
        std::memcpy(first_col + i, &col, sizeof col);
    }
#endif
    for (std::size_t i = body; i < R; ++i) {
        double best = cost[i] - v[0], next = inf, col = 0;
        for (std::size_t j = 1; j < C; ++j) {
            const double x = cost[j * R + i] - v[j];
            if (x < best)
                next = best, best = x, col = static_cast<double>(j);
            else if (x < next)
                next = x;
        }
        first[i] = best;
        second[i] = next;
        first_col[i] = col;
    }
}

// Smallest of x[0, count) (+inf when empty).
inline double min_value(const double* x, std::size_t count) {
    double best = std::numeric_limits<double>::infinity();
    std::size_t body = 0;
#if PYD2KE_HAS_VECTOR_EXTENSIONS
    body = count - count % (2 * kEmdWidth);
    EmdLanes m0 = EmdLanes{} + best, m1 = m0;
    for (std::size_t i = 0; i < body; i += 2 * kEmdWidth) {
        const EmdLanes a = emd_load(x + i), b = emd_load(x + i + kEmdWidth);
        m0 = a < m0 ? a : m0;
        m1 = b < m1 ? b : m1;
    }
    m0 = m1 < m0 ? m1 : m0;
    for (std::size_t l = 0; l < kEmdWidth; ++l) best = m0[l] < best ? m0[l] : best;
#endif
    for (std::size_t i = body; i < count; ++i) best = x[i] < best ? x[i] : best;
    return best;
}

// Smallest and largest finite value of x[0, count) (+inf and -inf when
// none is finite; the values are finite or +inf).
inline void finite_range(const double* x, std::size_t count, double& low, double& high) {
    const double inf = std::numeric_limits<double>::infinity();
    low = inf;
    high = -inf;
    std::size_t body = 0;
#if PYD2KE_HAS_VECTOR_EXTENSIONS
    body = count - count % (2 * kEmdWidth);
    const EmdLanes infs = EmdLanes{} + inf, minus_infs = EmdLanes{} - inf;
    EmdLanes lo0 = infs, lo1 = infs, hi0 = minus_infs, hi1 = minus_infs;
    for (std::size_t i = 0; i < body; i += 2 * kEmdWidth) {
        const EmdLanes a = emd_load(x + i), b = emd_load(x + i + kEmdWidth);
        lo0 = a < lo0 ? a : lo0;
        lo1 = b < lo1 ? b : lo1;
        const EmdLanes fa = a != infs ? a : minus_infs, fb = b != infs ? b : minus_infs;
        hi0 = fa > hi0 ? fa : hi0;
        hi1 = fb > hi1 ? fb : hi1;
    }
    lo0 = lo1 < lo0 ? lo1 : lo0;
    hi0 = hi1 > hi0 ? hi1 : hi0;
    for (std::size_t l = 0; l < kEmdWidth; ++l) {
        low = lo0[l] < low ? lo0[l] : low;
        high = hi0[l] > high ? hi0[l] : high;
    }
#endif
    for (std::size_t i = body; i < count; ++i) {
        low = x[i] < low ? x[i] : low;
        high = x[i] != inf && x[i] > high ? x[i] : high;
    }
}

// Largest |x[i]|.
inline double max_abs(const double* x, std::size_t count) {
    double largest = 0;
    std::size_t body = 0;
#if PYD2KE_HAS_VECTOR_EXTENSIONS
    body = count - count % (2 * kEmdWidth);
    EmdLanes m0 = EmdLanes{} + 0.0, m1 = m0;
    for (std::size_t i = 0; i < body; i += 2 * kEmdWidth) {
        const EmdLanes a = emd_load(x + i), b = emd_load(x + i + kEmdWidth);
        const EmdLanes abs_a = a < 0 ? -a : a, abs_b = b < 0 ? -b : b;
        m0 = abs_a > m0 ? abs_a : m0;
        m1 = abs_b > m1 ? abs_b : m1;
    }
    m0 = m1 > m0 ? m1 : m0;
    for (std::size_t l = 0; l < kEmdWidth; ++l) largest = m0[l] > largest ? m0[l] : largest;
#endif
    for (std::size_t i = body; i < count; ++i) largest = std::max(largest, std::abs(x[i]));
    return largest;
}

// Takes the entries with key[i] == value out (sets them to +inf) and returns
// the sum of their weights in `mass`; returns the smallest key left.
inline double take_equal(double* key, const double* weight, std::size_t count, double value, double& mass) {
    const double inf = std::numeric_limits<double>::infinity();
    double total = 0, next = inf;
    std::size_t body = 0;
#if PYD2KE_HAS_VECTOR_EXTENSIONS
    body = count - count % (2 * kEmdWidth);
    const EmdLanes zero = EmdLanes{} + 0.0, infs = EmdLanes{} + inf;
    EmdLanes sum0 = zero, sum1 = zero, min0 = infs, min1 = infs;  // two chains each
    for (std::size_t i = 0; i < body; i += 2 * kEmdWidth) {
        const EmdLanes k0 = emd_load(key + i), k1 = emd_load(key + i + kEmdWidth);
        const auto hit0 = k0 == value, hit1 = k1 == value;
        sum0 += hit0 ? emd_load(weight + i) : zero;
        sum1 += hit1 ? emd_load(weight + i + kEmdWidth) : zero;
        const EmdLanes kept0 = hit0 ? infs : k0, kept1 = hit1 ? infs : k1;
        std::memcpy(key + i, &kept0, sizeof kept0);
        std::memcpy(key + i + kEmdWidth, &kept1, sizeof kept1);
        min0 = kept0 < min0 ? kept0 : min0;
        min1 = kept1 < min1 ? kept1 : min1;
    }
    sum0 += sum1;
    min0 = min1 < min0 ? min1 : min0;
    for (std::size_t l = 0; l < kEmdWidth; ++l) total += sum0[l], next = min0[l] < next ? min0[l] : next;
#endif
    for (std::size_t i = body; i < count; ++i) {
        if (key[i] == value) total += weight[i], key[i] = inf;
        next = key[i] < next ? key[i] : next;
    }
    mass = total;
    return next;
}

class TransportSimplex final : public TransportSolver {
public:
    // Sizes the problem; the caller then fills costs() (cell (i, j) at
    // [j * rows + i]), supplies() and demands(): all weights > 0, the two
    // sums equal up to rounding. Buffers only grow.
    void reset(std::size_t rows, std::size_t cols) override {
        if (rows == 0 || cols == 0) throw std::invalid_argument("emd: empty side");
        if (rows + cols > static_cast<std::size_t>(std::numeric_limits<int>::max() / 2))
            throw std::length_error("emd: too many points");
        rows_ = rows;
        cols_ = cols;
        grow(cost_, rows * cols);
        grow(supply_, rows);
        grow(demand_, cols);
    }

    double* costs() override { return cost_.data(); }
    double* supplies() override { return supply_.data(); }
    double* demands() override { return demand_.data(); }
    std::size_t rows() const { return rows_; }
    std::size_t cols() const { return cols_; }

    // Replaces the costs by their square roots (for callers that fill in
    // squared Euclidean distances): here the loop is compiled for this
    // body's instruction set, so it runs in its widest lanes.
    void take_square_roots() override {
        double* c = cost_.data();
        for (std::size_t k = 0, cells = rows_ * cols_; k < cells; ++k) c[k] = std::sqrt(c[k]);
    }

    // Solves to optimality and returns sum flow * cost.
    double solve() override {
        const std::size_t cells = rows_ * cols_;
        // Scale the costs by a power of two (exact) to max|c| in [1, 2): the
        // potentials, alternating sums of costs along tree paths, can then
        // neither overflow nor underflow, and one tolerance serves all scales.
        const double largest = max_abs(cost_.data(), cells);
        const int exponent = largest > 0 ? std::max(std::ilogb(largest), -1000) : 0;
        cost_scale_ = std::ldexp(1.0, -exponent);
        if (exponent != 0)
            for (std::size_t k = 0; k < cells; ++k) cost_[k] *= cost_scale_;
        // Rounding puts a few ulps of max|c| into the potentials per tree
        // level; 1e-12 * max|c| stays above that noise for trees thousands of
        // levels deep, yet the objective it can leave on the table is at most
        // tol * total mass (= tol), far below anything a caller can see.
        tolerance_ = largest > 0 ? 1e-12 : 0.0;
        pivots_ = 0;

        dual_warm_start();
        initial_tree();

        grow(row_potential_, rows_);
        grow(best_rc_, rows_);
        bland_ = false;
        degenerate_streak_ = 0;
        // No cap is needed for termination (Bland's rule guarantees it); this
        // one only turns a bug into an error instead of a hang.
        pivot_cap_ = 1000 * (rows_ + cols_) + 50 * cells + 100000;
        if (cells <= kFullPricingCells)
            run_dantzig();
        else
            run_block_search();

        double objective = 0;
        for_each_basic_cell(
            [&](std::size_t i, std::size_t j, double flow) { objective += flow * cost_[j * rows_ + i]; });
        return objective / cost_scale_;
    }

    std::size_t pivots() const override { return pivots_; }

    // Degenerate pivots in a row before Bland's rule takes over; by default
    // rows + cols. Small values are for tests of the anti-cycling path.
    void set_bland_after(std::size_t degenerate_pivots) override { bland_after_ = degenerate_pivots; }

    // Visits the n + m - 1 basic cells of the last solve: visit(row, col, flow).
    template <class Visit>
    void for_each_basic_cell(Visit&& visit) const {
        for (std::size_t i = 0; i < rows_; ++i) visit(i, col_of(parent_[i]), flow_[i]);
        for (std::size_t j = 0; j < cols_; ++j)
            if (j != root_col_) visit(static_cast<std::size_t>(parent_[rows_ + j]), j, flow_[rows_ + j]);
    }
    // Optimal duals of the last solve: c_ij - u_i - v_j >= 0, = 0 on the basis.
    void basic_cells(std::vector<TransportCell>& out) const override {
        out.clear();
        for_each_basic_cell([&](std::size_t row, std::size_t col, double flow) { out.push_back({row, col, flow}); });
    }
    double row_potential(std::size_t i) const override {
        return row_potential_of(static_cast<int>(i)) / cost_scale_;
    }
    double col_potential(std::size_t j) const override { return col_potential_[j] / cost_scale_; }

private:
    // Full pricing up to this many cells (the n <= 200, m <= 21 regime lives
    // here); beyond, blocks of rows.
    static constexpr std::size_t kFullPricingCells = 8192;
    static constexpr std::size_t kMinRowBlock = 8;
    static constexpr std::size_t kCandidates = 4;
    static constexpr int kWarmStartSweeps = 2;
    static constexpr std::size_t kSelectionPasses = 8;
    static constexpr std::size_t kSelectionBuckets = 256;

    template <class T>
    static void grow(std::vector<T>& v, std::size_t n) {
        if (v.size() < n) v.resize(n);
    }

    // Nodes: rows 0..R-1, columns R..R+C-1. A row's parent is always a column
    // and a column's a row (the graph is bipartite).
    int col_node(std::size_t j) const { return static_cast<int>(rows_ + j); }
    std::size_t col_of(int x) const { return static_cast<std::size_t>(x) - rows_; }
    bool is_row(int x) const { return x < static_cast<int>(rows_); }
    double cell_cost(int row, int col_node) const {
        return cost_[col_of(col_node) * rows_ + static_cast<std::size_t>(row)];
    }
    std::size_t cell_index(int x, int y) const {
        const int row = is_row(x) ? x : y, col = is_row(x) ? y : x;
        return col_of(col) * rows_ + static_cast<std::size_t>(row);
    }

    // u_i = c(i, parent) - v_parent on the row's tree edge.
    double row_potential_of(int i) const {
        const int p = parent_[i];
        return cell_cost(i, p) - col_potential_[col_of(p)];
    }
    int depth(int x) const { return is_row(x) ? col_depth_[col_of(parent_[x])] + 1 : col_depth_[col_of(x)]; }
    // Evaluated exactly as price_rows does, so that a cell it priced negative
    // is negative here too (else block search could spin on it).
    double reduced_cost(int row, int col) const {
        const int p = parent_[row];
        return (cost_[static_cast<std::size_t>(col) * rows_ + static_cast<std::size_t>(row)] - col_potential_[col]) -
               (cell_cost(row, p) - col_potential_[col_of(p)]);
    }

    // --- 1. dual warm start ------------------------------------------------------

    // Coordinate ascent on the dual max_v sum_i a_i min_j (c_ij - v_j) +
    // sum_j b_j v_j: each step sets one v_j to its best value given the
    // others, i.e. moves it until the rows preferring column j carry b_j.
    // Kept per row: the best and second best reduced cost c_ij - v_j and the
    // best column (as a double, so that all the passes vectorise). Two
    // sweeps leave the simplex a fifth of the pivots it needs from v = 0.
    void dual_warm_start() {
        const std::size_t R = rows_, C = cols_;
        grow(col_potential_, C);
        grow(best_, R);
        grow(second_, R);
        grow(pref_col_, R);
        grow(key_, R);
        grow(rescan_, R);
        std::fill_n(col_potential_.begin(), C, 0.0);
        largest_supply_ = max_abs(supply_.data(), R);
        two_smallest(cost_.data(), R, C, col_potential_.data(), best_.data(), pref_col_.data(), second_.data());
        grow(col_order_, C);
        grow(col_excess_, C);
        for (int sweep = 0; sweep < kWarmStartSweeps; ++sweep) {
            // Most unbalanced columns first: fewer rows move back and forth.
            std::fill_n(col_excess_.begin(), C, 0.0);
            for (std::size_t i = 0; i < R; ++i) col_excess_[static_cast<std::size_t>(pref_col_[i])] += supply_[i];
            for (std::size_t j = 0; j < C; ++j) {
                const double excess = std::abs(col_excess_[j] - demand_[j]);
                std::size_t q = j;
                for (; q > 0 && col_excess_[col_order_[q - 1]] < excess; --q) col_order_[q] = col_order_[q - 1];
                col_order_[q] = j;
                col_excess_[j] = excess;
            }
            for (std::size_t k = 0; k < C; ++k) ascent_step(col_order_[k]);
        }
    }

    void ascent_step(std::size_t j) {
        const std::size_t R = rows_;
        const double* c = cost_.data() + j * R;
        const double* a = supply_.data();
        double* best = best_.data();
        double* second = second_.data();
        double* pref = pref_col_.data();
        double* key = key_.data();
        const double jd = static_cast<double>(j), inf = std::numeric_limits<double>::infinity();
        const std::size_t V = vector_rows(R);  // rows [0, V) in lanes, the rest scalar

        // Row i prefers j exactly when v_j exceeds key_i = c_ij - (its best
        // reduced cost among the other columns). Members' keys are negated
        // when shedding so that one minimum search serves both directions.
        double load = 0;
#if PYD2KE_HAS_VECTOR_EXTENSIONS
        EmdLanes lanes = EmdLanes{} + 0.0;
        for (std::size_t i = 0; i < V; i += kEmdWidth) {
            const auto member = emd_load(pref + i) == jd;
            lanes += member ? emd_load(a + i) : EmdLanes{} + 0.0;
        }
        for (std::size_t l = 0; l < kEmdWidth; ++l) load += lanes[l];
#endif
        for (std::size_t i = V; i < R; ++i) load += pref[i] == jd ? a[i] : 0.0;
        const double target = demand_[j], old = col_potential_[j];
        if (load == target) return;
        const bool shedding = load > target;
#if PYD2KE_HAS_VECTOR_EXTENSIONS
        for (std::size_t i = 0; i < V; i += kEmdWidth) {
            const auto member = emd_load(pref + i) == jd;
            const EmdLanes k = emd_load(c + i) - (member ? emd_load(second + i) : emd_load(best + i));
            const EmdLanes out = shedding ? (member ? -k : EmdLanes{} + inf) : (member ? EmdLanes{} + inf : k);
            std::memcpy(key + i, &out, sizeof out);
        }
#endif
        for (std::size_t i = V; i < R; ++i) {
            const bool member = pref[i] == jd;
            const double k = c[i] - (member ? second[i] : best[i]);
            key[i] = shedding ? (member ? -k : inf) : (member ? inf : k);
        }

        // Takes the rows of the next key value (and mass) in; true once the price is settled.
        double price = old;
        auto settle = [&](double next, double mass) {
            if (shedding) {
                // Shed members, largest key first, while the rest carries b_j.
                if (load - mass < target) {
                    price = -next;  // that row now ties between j and its next column
                    return true;
                }
                load -= mass;
                return false;
            }
            // Attract non-members, smallest key first, until b_j is covered.
            load += mass;
            price = next;
            return load >= target;
        };
        // One pass over the rows per key value is cheapest while few rows
        // move; when many do (long documents against few columns) it would
        // cost rows x moves, so select_price settles the rest in one go. A
        // pass moves the rows of one key value, usually one row: when the
        // mass to move exceeds kSelectionPasses largest supplies, the passes
        // would only delay select_price, which then starts at once.
        auto to_move = [&] { return shedding ? load - target : target - load; };  // load changes per pass
        std::size_t passes = to_move() > static_cast<double>(kSelectionPasses) * largest_supply_ ? kSelectionPasses : 0;
        for (double next = min_value(key, R); next != inf;) {
            if (++passes > kSelectionPasses) {
                price = select_price(shedding, to_move(), price);
                break;
            }
            double mass;
            const double after = take_equal(key, a, R, next, mass);
            if (settle(next, mass)) break;
            next = after;
        }
        col_potential_[j] = price;

        if (price > old) {
            // Column j got cheaper for every row: joiners (ties included)
            // make it their best, the others may make it their second.
            std::size_t i = 0;
#if PYD2KE_HAS_VECTOR_EXTENSIONS
            for (; i < V; i += kEmdWidth) {
                const EmdLanes x = emd_load(c + i) - price, b1 = emd_load(best + i), b2 = emd_load(second + i),
                               p = emd_load(pref + i);
                const auto member = p == jd, join = (p != jd) & (x <= b1);
                const EmdLanes new_second = member ? b2 : (join ? b1 : (x < b2 ? x : b2));
                const EmdLanes new_best = (member | join) ? x : b1;
                const EmdLanes new_pref = join ? EmdLanes{} + jd : p;
                std::memcpy(second + i, &new_second, sizeof new_second);
                std::memcpy(best + i, &new_best, sizeof new_best);
                std::memcpy(pref + i, &new_pref, sizeof new_pref);
            }
#endif
            for (; i < R; ++i) {
                const double x = c[i] - price;
                const bool member = pref[i] == jd, join = !member && x <= best[i];
                second[i] = member ? second[i] : (join ? best[i] : (x < second[i] ? x : second[i]));
                best[i] = member || join ? x : best[i];
                pref[i] = join ? jd : pref[i];
            }
        } else if (price < old) {
            // Dearer: members that stay just update; leavers and rows that had
            // j second need their two best found again (few rows).
            std::size_t count = 0, i = 0;
#if PYD2KE_HAS_VECTOR_EXTENSIONS
            for (; i < V; i += kEmdWidth) {
                const EmdLanes ci = emd_load(c + i), x = ci - price, was = ci - old, b2 = emd_load(second + i);
                const auto member = emd_load(pref + i) == jd, stay = member & (x <= b2);
                const EmdLanes new_best = stay ? x : emd_load(best + i);
                std::memcpy(best + i, &new_best, sizeof new_best);
                const auto again = (member & ~stay) | (~member & (was == b2));
                for (std::size_t l = 0; l < kEmdWidth; ++l) {
                    rescan_[count] = static_cast<int>(i + l);
                    count += again[l] != 0;
                }
            }
#endif
            for (; i < R; ++i) {
                const double x = c[i] - price, was = c[i] - old;
                const bool member = pref[i] == jd, stay = member && x <= second[i];
                best[i] = stay ? x : best[i];
                rescan_[count] = static_cast<int>(i);
                count += (member && !stay) || (!member && was == second[i]);
            }
            rescan_rows(count);
        }
    }

    // What the passes above would settle on, for the finite keys left in
    // key_: the least key value v at which the supply of the keys <= v
    // reaches `need` (exceeds it when shedding). The price is then v (-v when
    // shedding); if no value gets there, the largest key when attracting,
    // `unchanged` when shedding. Found in linear time without branching on
    // the keys: supplies summed into buckets of equal key width, then only
    // the bucket where the sum crosses is sorted. (A warm start needs no
    // more than a good price: the simplex proves optimality on its own.)
    double select_price(bool shedding, double need, double unchanged) {
        const double inf = std::numeric_limits<double>::infinity();
        double low, high;
        finite_range(key_.data(), rows_, low, high);
        auto reached = [&](double mass) { return shedding ? mass > need : mass >= need; };
        auto price_of = [&](double value) { return shedding ? -value : value; };
        const double fallback = shedding ? unchanged : high;
        if (low == inf) return fallback;
        auto& p = selection_;
        p.resize(rows_);
        std::size_t count = 0;
        for (std::size_t i = 0; i < rows_; ++i) {
            p[count] = {key_[i], supply_[i]};
            count += key_[i] != inf;
        }
        // Bucket of a key: monotone in the key, so equal keys share one and
        // the buckets keep the keys' order.
        const double scale = high > low ? static_cast<double>(kSelectionBuckets) / (high - low) : 0.0;
        auto bucket_of = [&](double k) {
            return std::min<std::size_t>(kSelectionBuckets - 1, static_cast<std::size_t>((k - low) * scale));
        };
        // Four histograms, by position mod 4: keys of one bucket in a row
        // then do not wait on each other's additions.
        double mass[4][kSelectionBuckets] = {};
        std::size_t k = 0;
        for (; k + 4 <= count; k += 4)
            for (std::size_t l = 0; l < 4; ++l) mass[l][bucket_of(p[k + l].first)] += p[k + l].second;
        for (; k < count; ++k) mass[0][bucket_of(p[k].first)] += p[k].second;
        double below = 0;
        std::size_t crossing = 0;
        for (; crossing < kSelectionBuckets; ++crossing) {
            const double in = mass[0][crossing] + mass[1][crossing] + mass[2][crossing] + mass[3][crossing];
            if (reached(below + in)) break;
            below += in;
        }
        if (crossing == kSelectionBuckets) return fallback;
        std::size_t in_bucket = 0;
        for (k = 0; k < count; ++k) {
            p[in_bucket] = p[k];
            in_bucket += bucket_of(p[k].first) == crossing;
        }
        std::sort(p.begin(), p.begin() + static_cast<std::ptrdiff_t>(in_bucket));
        double value = p[0].first;
        for (k = 0; k < in_bucket;) {
            value = p[k].first;
            for (; k < in_bucket && p[k].first == value; ++k) below += p[k].second;
            if (reached(below)) break;
        }
        return price_of(value);  // the bucket's last value if rounding kept the sum just short
    }

    static std::size_t vector_rows(std::size_t R) {
#if PYD2KE_HAS_VECTOR_EXTENSIONS
        return R - R % kEmdWidth;
#else
        (void)R;
        return 0;
#endif
    }

    // Two best reduced costs of the rows rescan_[0, count), a vector of rows at a time.
    void rescan_rows(std::size_t count) {
        const std::size_t R = rows_;
        const double inf = std::numeric_limits<double>::infinity();
        std::size_t k = 0;
#if PYD2KE_HAS_VECTOR_EXTENSIONS
        for (; k + kEmdWidth <= count; k += kEmdWidth) {
            const int* rows = rescan_.data() + k;
            EmdLanes first = EmdLanes{} + inf, next = first, col = EmdLanes{} + 0.0, index = col;
            for (std::size_t j = 0; j < cols_; ++j, index += 1.0) {
                const double* c = cost_.data() + j * R;
                EmdLanes x = EmdLanes{} + 0.0;
                for (std::size_t l = 0; l < kEmdWidth; ++l) x[l] = c[rows[l]];
                x -= col_potential_[j];
                const auto better = x < first;
                next = better ? first : (x < next ? x : next);
                col = better ? index : col;
                first = better ? x : first;
            }
            for (std::size_t l = 0; l < kEmdWidth; ++l)
                best_[rows[l]] = first[l], second_[rows[l]] = next[l], pref_col_[rows[l]] = col[l];
        }
#endif
        for (; k < count; ++k) {
            const std::size_t i = static_cast<std::size_t>(rescan_[k]);
            double first = inf, next = inf, col = 0;
            for (std::size_t j = 0; j < cols_; ++j) {
                const double x = cost_[j * R + i] - col_potential_[j];
                const bool better = x < first;
                next = better ? first : (x < next ? x : next);
                col = better ? static_cast<double>(j) : col;
                first = better ? x : first;
            }
            best_[i] = first;
            second_[i] = next;
            pref_col_[i] = col;
        }
    }

    // --- 2. initial basic solution -------------------------------------------------

    // Rows by descending regret (the rows that lose most by missing their best
    // column go first), by a one-pass bucket sort on the float exponent and
    // three mantissa bits (9% wide buckets over 32 octaves below the largest
    // regret; within a bucket, row order): exact order does not pay here.
    void order_by_regret() {
        const std::size_t R = rows_;
        constexpr std::uint32_t kBuckets = 256;
        grow(order_, R);
        grow(bucket_of_, R);
        std::uint32_t top = 0;
        for (std::size_t i = 0; i < R; ++i) {
            const float regret = static_cast<float>(second_[i] - best_[i]);  // >= 0 (+inf when C == 1)
            std::uint32_t bits;
            std::memcpy(&bits, &regret, sizeof bits);
            bits >>= 20;
            bucket_of_[i] = bits;
            top = std::max(top, bits);
        }
        std::uint32_t count[kBuckets + 1] = {};
        for (std::size_t i = 0; i < R; ++i) {
            const std::uint32_t below = top - bucket_of_[i];  // 0 = largest regrets
            bucket_of_[i] = below < kBuckets ? below : kBuckets - 1;
            ++count[bucket_of_[i] + 1];
        }
        for (std::uint32_t b = 0; b < kBuckets; ++b) count[b + 1] += count[b];
        for (std::size_t i = 0; i < R; ++i) order_[count[bucket_of_[i]]++] = static_cast<int>(i);
    }

    // Fills rows in regret order into their cheapest open columns (reduced
    // costs c_ij - v_j). An allocation closes the row when its supply runs out
    // (the row hangs from that column), else the column (it hangs from the
    // row). The column left open is the root.
    void initial_tree() {
        const std::size_t R = rows_, C = cols_, nodes = R + C;
        grow(parent_, nodes);
        grow(flow_, nodes);
        grow(row_parent_col_, R);
        grow(child_count_, nodes);
        grow(remaining_, C);
        grow(col_open_, C);
        order_by_regret();
        std::copy_n(demand_.begin(), C, remaining_.begin());
        std::fill_n(col_open_.begin(), C, static_cast<unsigned char>(1));
        std::size_t open = C;
        for (std::size_t k = 0; k < R; ++k) {
            const int i = order_[k];
            double left = supply_[i];
            std::size_t j = static_cast<std::size_t>(pref_col_[i]);
            if (!col_open_[j]) j = cheapest_open_col(i);
            for (;;) {
                double& need = remaining_[j];
                // The last open column takes whatever is left: this absorbs
                // the rounding mismatch between the two sums.
                if (left <= need || open == 1) {
                    parent_[i] = col_node(j);
                    row_parent_col_[i] = static_cast<double>(j);
                    flow_[i] = left;
                    need = need > left ? need - left : 0.0;
                    break;
                }
                parent_[rows_ + j] = i;
                flow_[rows_ + j] = need;
                left -= need;
                need = 0;
                col_open_[j] = 0;
                --open;
                j = cheapest_open_col(i);
            }
        }
        root_col_ = C;
        for (std::size_t j = 0; j < C; ++j)
            if (col_open_[j]) {
                parent_[R + j] = -1;
                flow_[R + j] = 0;
                if (root_col_ == C) root_col_ = j;
            }
        for (std::size_t j = root_col_ + 1; j < C; ++j)
            if (col_open_[j]) attach_to_root_component(j);
        std::fill_n(child_count_.begin(), nodes, 0);
        for (std::size_t x = 0; x < nodes; ++x)
            if (parent_[x] >= 0) ++child_count_[parent_[x]];
        grow(col_depth_, C);
        grow(col_done_, C);
        grow(chain_, C);
        update_columns();
    }

    std::size_t cheapest_open_col(int i) const {
        const std::size_t R = rows_;
        std::size_t best = 0;
        double best_cost = std::numeric_limits<double>::infinity();
        for (std::size_t j = 0; j < cols_; ++j) {
            const double x = cost_[j * R + i] - col_potential_[j];
            if (col_open_[j] && x < best_cost) best_cost = x, best = j;
        }
        return best;
    }

    // A column whose remaining demand a row met exactly stays open and roots
    // a component of its own. Hang it, with a zero-flow cell, from the
    // cheapest row of the root's component (rare).
    void attach_to_root_component(std::size_t j) {
        const std::size_t R = rows_;
        const int root = col_node(root_col_);
        int best = -1;
        double best_cost = std::numeric_limits<double>::infinity();
        for (std::size_t i = 0; i < R; ++i) {
            int top = static_cast<int>(i);
            while (parent_[top] >= 0) top = parent_[top];
            if (top == root && cost_[j * R + i] < best_cost) best_cost = cost_[j * R + i], best = static_cast<int>(i);
        }
        if (best < 0) throw std::logic_error("emd: initial basis is not connected");
        parent_[R + j] = best;
        flow_[R + j] = 0;
    }

    // Potentials and depths of all columns from the root down: a column's
    // parent row p and grandparent column g give v = c(p, col) - u_p with
    // u_p = c(p, g) - v_g. Memoised walks make it O(columns); recomputing
    // from the root each time keeps rounding from accumulating.
    void update_columns() {
        std::fill_n(col_done_.begin(), cols_, static_cast<unsigned char>(0));
        col_potential_[root_col_] = 0;
        col_depth_[root_col_] = 0;
        col_done_[root_col_] = 1;
        for (std::size_t j = 0; j < cols_; ++j) {
            std::size_t length = 0;
            for (std::size_t c = j; !col_done_[c];) {
                chain_[length++] = static_cast<int>(c);
                c = col_of(parent_[parent_[col_node(c)]]);
            }
            while (length > 0) {
                const int x = col_node(static_cast<std::size_t>(chain_[--length]));
                const int p = parent_[x];
                const std::size_t c = col_of(x);
                col_potential_[c] = cell_cost(p, x) - row_potential_of(p);
                col_depth_[c] = col_depth_[col_of(parent_[p])] + 2;
                col_done_[c] = 1;
            }
        }
    }

    // --- 3. pricing and pivots ---------------------------------------------------------

    // Dantzig's rule: price every row (the n <= 200, m <= 21 regime costs
    // one vectorised pass over the cells) and enter the most negative cell.
    // Dantzig needs the fewest pivots here, and a pivot usually changes
    // some column potentials, so older prices would be stale anyway.
    void run_dantzig() {
        for (;;) {
            int row, col;
            if (bland_) {
                if (!bland_entering(row, col)) break;
                step(row, col);
                continue;
            }
            price_rows(cost_.data(), rows_, cols_, col_potential_.data(), row_parent_col_.data(), 0, rows_,
                       best_rc_.data());
            const double smallest = min_value(best_rc_.data(), rows_);
            if (!(smallest < -tolerance_)) break;
            row = 0;
            while (best_rc_[row] != smallest) ++row;
            step(row, static_cast<int>(cheapest_col(static_cast<std::size_t>(row))));
        }
    }

    // Large problems: block search. Blocks of rows worth about sqrt(cells)
    // cells are priced from a cursor until one has negative reduced costs;
    // its kCandidates most negative cells are pivoted on while still
    // negative.
    void run_block_search() {
        const std::size_t cells = rows_ * cols_;
        row_block_ = std::min(rows_, std::max<std::size_t>(kMinRowBlock, static_cast<std::size_t>(std::sqrt(
                                                                             static_cast<double>(cells))) /
                                                                             cols_));
        cursor_ = 0;
        int row = -1, col = -1;
        for (;;) {
            if (bland_) {
                if (!bland_entering(row, col)) break;
                step(row, col);
                continue;
            }
            const std::size_t count = collect_candidates();
            if (count == 0) break;
            for (std::size_t k = 0; k < count; ++k) {
                row = candidates_[k];
                col = static_cast<int>(cheapest_col(static_cast<std::size_t>(row)));
                if (reduced_cost(row, col) < -tolerance_) {
                    step(row, col);
                    if (bland_) break;
                }
            }
        }
    }

    // Prices blocks of rows from the cursor until one yields rows with a
    // negative reduced cost, and lists the kCandidates most negative (each
    // row offers its best cell), most negative first.
    std::size_t collect_candidates() {
        const std::size_t R = rows_;
        std::size_t count = 0, scanned = 0, pos = cursor_;
        while (scanned < R && count == 0) {
            const std::size_t end = std::min(R, pos + row_block_);
            price_rows(cost_.data(), R, cols_, col_potential_.data(), row_parent_col_.data(), pos, end,
                       best_rc_.data());
            double* rc = best_rc_.data() + pos;
            const std::size_t length = end - pos;
            while (count < kCandidates) {
                const double smallest = min_value(rc, length);
                if (!(smallest < -tolerance_)) break;
                std::size_t k = 0;
                while (rc[k] != smallest) ++k;
                rc[k] = std::numeric_limits<double>::infinity();
                candidates_[count++] = static_cast<int>(pos + k);
            }
            scanned += length;
            pos = end == R ? 0 : end;
        }
        cursor_ = pos;
        return count;
    }

    // The column minimising c_ij - v_j for row i.
    std::size_t cheapest_col(std::size_t i) const {
        const std::size_t R = rows_;
        std::size_t best = 0;
        double best_cost = std::numeric_limits<double>::infinity();
        for (std::size_t j = 0; j < cols_; ++j) {
            const double x = cost_[j * R + i] - col_potential_[j];
            if (x < best_cost) best_cost = x, best = j;
        }
        return best;
    }

    // Bland: the first cell (in column-major order) with a negative reduced cost.
    bool bland_entering(int& row, int& col) {
        const std::size_t R = rows_;
        for (std::size_t i = 0; i < R; ++i) row_potential_[i] = row_potential_of(static_cast<int>(i));
        for (std::size_t j = 0; j < cols_; ++j) {
            const double* c = cost_.data() + j * R;
            const double v = col_potential_[j];
            for (std::size_t i = 0; i < R; ++i)
                if (c[i] - row_potential_[i] - v < -tolerance_) {
                    row = static_cast<int>(i);
                    col = static_cast<int>(j);
                    return true;
                }
        }
        return false;
    }

    void step(int row, int col) {
        const bool degenerate = pivot(row, col);
        if (++pivots_ > pivot_cap_) throw std::runtime_error("emd: simplex pivot cap exceeded (internal error)");
        if (degenerate) {
            if (++degenerate_streak_ > std::min(bland_after_, rows_ + cols_)) bland_ = true;
        } else {
            degenerate_streak_ = 0;
            bland_ = false;
        }
    }

    // Brings cell (row, col) into the basis; returns whether the step was
    // degenerate (zero flow moved).
    bool pivot(int row, int col) {
        const int a = row, b = col_node(static_cast<std::size_t>(col));
        int x = a, y = b;
        for (int dx = depth(x), dy = depth(y); dx != dy;) {
            if (dx > dy)
                x = parent_[x], --dx;
            else
                y = parent_[y], --dy;
        }
        while (x != y) x = parent_[x], y = parent_[y];
        const int apex = x;

        // Cycle: row -> col (entering, +theta), then the tree path col ... row.
        // Walking up from the row, edges at row nodes lose flow; walking up from
        // the column, edges at column nodes do. Ties: the last blocking edge in
        // cycle order from the apex (column side near the apex first, then the
        // row side near the row), the rule that keeps strongly feasible trees
        // so; under Bland, the smallest cell index.
        double theta = std::numeric_limits<double>::infinity();
        int leaving = -1;
        bool leaving_on_row_side = true;
        if (!bland_) {
            for (x = a; x != apex; x = parent_[x])
                if (is_row(x) && flow_[x] < theta) theta = flow_[x], leaving = x;
            for (y = b; y != apex; y = parent_[y])
                if (!is_row(y) && flow_[y] <= theta) theta = flow_[y], leaving = y, leaving_on_row_side = false;
        } else {
            std::size_t leaving_index = 0;
            auto consider = [&](int z, bool row_side) {
                const std::size_t index = cell_index(z, parent_[z]);
                if (flow_[z] < theta || (flow_[z] == theta && index < leaving_index))
                    theta = flow_[z], leaving = z, leaving_on_row_side = row_side, leaving_index = index;
            };
            for (x = a; x != apex; x = parent_[x])
                if (is_row(x)) consider(x, true);
            for (y = b; y != apex; y = parent_[y])
                if (!is_row(y)) consider(y, false);
        }

        if (theta > 0) {
            for (x = a; x != apex; x = parent_[x]) flow_[x] += is_row(x) ? -theta : theta;
            for (y = b; y != apex; y = parent_[y]) flow_[y] += is_row(y) ? theta : -theta;
        }
        flow_[leaving] = 0;  // already exactly 0 (x - x), made explicit

        // Cut the leaving edge; the entering endpoint below it becomes the root
        // of its subtree by reversing the path up to the cut, and hangs from
        // the other endpoint.
        const int moved = leaving_on_row_side ? a : b, anchor = leaving_on_row_side ? b : a;
        // A leaf row that swaps its own edge moves no column: its potential
        // follows from its new parent, so nothing else needs updating.
        const bool columns_unchanged = moved == leaving && is_row(moved) && child_count_[moved] == 0;
        int new_parent = anchor;
        double new_flow = theta;
        for (x = moved;;) {
            const int old_parent = parent_[x];
            const double old_flow = flow_[x];
            --child_count_[old_parent];
            ++child_count_[new_parent];
            parent_[x] = new_parent;
            flow_[x] = new_flow;
            if (is_row(x)) row_parent_col_[x] = static_cast<double>(col_of(new_parent));
            if (x == leaving) break;
            new_parent = x;
            new_flow = old_flow;
            x = old_parent;
        }
        if (!columns_unchanged) update_columns();
        return theta == 0;
    }

    std::size_t rows_ = 0, cols_ = 0;
    std::vector<double> cost_, supply_, demand_;
    double tolerance_ = 0, cost_scale_ = 1;
    std::size_t bland_after_ = std::numeric_limits<std::size_t>::max();
    std::size_t pivots_ = 0, pivot_cap_ = 0, row_block_ = 0, cursor_ = 0, degenerate_streak_ = 0;
    bool bland_ = false;

    // the basis tree
    std::size_t root_col_ = 0;
    std::vector<int> parent_, child_count_;  // parent -1 at the root
    std::vector<double> flow_;               // on the edge to the parent
    std::vector<double> col_potential_;
    std::vector<int> col_depth_, chain_;
    std::vector<unsigned char> col_done_;

    // pricing
    std::vector<double> row_parent_col_;  // as doubles for the pricing lanes
    std::vector<double> row_potential_, best_rc_;
    int candidates_[kCandidates] = {};

    // warm start and initial solution
    std::vector<double> best_, second_, pref_col_, key_, remaining_;
    std::vector<int> rescan_, order_;
    std::vector<std::size_t> col_order_;
    std::vector<double> col_excess_;
    double largest_supply_ = 0;  // the most one row moves in an ascent pass
    std::vector<std::pair<double, double>> selection_;  // (key, supply)
    std::vector<std::uint32_t> bucket_of_;
    std::vector<unsigned char> col_open_;
};

inline std::unique_ptr<TransportSolver> make_transport_simplex() { return std::make_unique<TransportSimplex>(); }

inline TransportSimplexTable kernel_table(SimdTableTag<TransportSimplexTable>, Isa) {
    return {make_transport_simplex};
}

#undef PYD2KE_EMD_LANE_BYTES
#endif  // PYD2KE_SIMD_VECTOR_BYTES == 16 / 64
