// features/: random-feature maps, Random Maclaurin (dot-product kernels), the
// space-efficient hashed random Fourier features (on vectors or sketches) and
// the density estimates of the sample-set features.

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include <pyd2ke/features/density_grid.hpp>
#include <pyd2ke/features/density_project.hpp>
#include <pyd2ke/features/density_psi.hpp>
#include <pyd2ke/features/hashed_fourier.hpp>
#include <pyd2ke/features/maclaurin.hpp>

#include "conversions.hpp"

namespace py = pybind11;
using namespace pyd2ke_bindings;

namespace {

// groups: (n_groups, 4) int64 rows of (degree, count, first_column, first_feature).
// Returns whether every feature is finite.
template <class T>
bool maclaurin_into(CArray<T> P, CArray<std::int64_t> groups, CArray<T> scale, CArray<T> out, int n_threads) {
    if (P.ndim() != 2) throw py::value_error("P must be 2-D");
    if (groups.ndim() != 2 || groups.shape(1) != 4) throw py::value_error("groups must have shape (n_groups, 4)");
    if (scale.ndim() != 1) throw py::value_error("scale must be 1-D");
    check_out(out, static_cast<std::size_t>(P.shape(0)), static_cast<std::size_t>(scale.shape(0)));
    std::vector<pyd2ke::MaclaurinGroup> g(static_cast<std::size_t>(groups.shape(0)));
    for (std::size_t r = 0; r < g.size(); ++r) {
        const std::int64_t* row = groups.data(static_cast<py::ssize_t>(r), 0);
        for (int c = 0; c < 4; ++c)
            if (row[c] < 0) throw py::value_error("groups must be non-negative");
        g[r] = {static_cast<std::size_t>(row[0]), static_cast<std::size_t>(row[1]), static_cast<std::size_t>(row[2]),
                static_cast<std::size_t>(row[3])};
    }
    const T* p = P.data();
    const T* s = scale.data();
    T* z = out.mutable_data();
    const std::size_t rows = static_cast<std::size_t>(P.shape(0)), p_columns = static_cast<std::size_t>(P.shape(1)),
                      n_features = static_cast<std::size_t>(out.shape(1));
    InterruptibleRelease release;
    return pyd2ke::maclaurin_products(p, rows, p_columns, g, s, z, n_features, n_threads);
}

pyd2ke::FourierKernel kernel_from_name(const std::string& name) {
    if (name == "laplacian") return pyd2ke::FourierKernel::laplacian;
    if (name == "rbf") return pyd2ke::FourierKernel::rbf;
    throw py::value_error("kernel must be 'laplacian' or 'rbf', got '" + name + "'");
}

// HashedRandomFourier: the weights (for a BLAS product in Python), cos/sin
// of projections, and the whole map on sparse rows.
class PyHashedFourier {
public:
    PyHashedFourier(const std::string& kernel, double bandwidth, std::size_t n_components, std::uint64_t seed,
                    const std::string& simd)
        : f_(kernel_from_name(kernel), bandwidth, n_components, seed, checked_simd_level(simd)) {}

    double weight(std::uint64_t j, std::size_t k) const { return f_.weight(j, k); }

    py::array_t<double> weights(std::uint64_t first, std::size_t count, int n_threads) const {
        py::array_t<double> W({static_cast<py::ssize_t>(count), static_cast<py::ssize_t>(f_.half())});
        double* w = W.mutable_data();
        InterruptibleRelease release;
        f_.weights(first, count, w, n_threads);
        return W;
    }

    // Returns whether every feature is finite.
    template <class T>
    bool cos_sin_into(CArray<double> P, CArray<T> out, int n_threads) const {
        const std::size_t rows = out_rows(out, f_.n_components(), "n_components");
        if (P.ndim() != 2 || static_cast<std::size_t>(P.shape(0)) != rows ||
            static_cast<std::size_t>(P.shape(1)) != f_.half())
            throw py::value_error("P must have shape (rows, n_components / 2)");
        const double* p = P.data();
        T* o = out.mutable_data();
        InterruptibleRelease release;
        return f_.cos_sin(p, rows, o, n_threads);
    }

    // Returns whether every feature is finite.
    template <class Index, class T>
    bool sparse_into(CArray<Index> ids, CArray<double> values, Offsets indptr, CArray<T> out, int n_threads) const {
        const std::size_t rows = out_rows(out, f_.n_components(), "n_components");
        if (ids.ndim() != 1 || values.ndim() != 1 || ids.shape(0) != values.shape(0) || indptr.ndim() != 1 ||
            static_cast<std::size_t>(indptr.shape(0)) != rows + 1 || indptr.data()[0] != 0 ||
            indptr.data()[rows] > ids.shape(0))
            throw py::value_error("indices, values and indptr do not describe out.shape[0] sparse rows");
        for (std::size_t i = 0; i < rows; ++i)
            if (indptr.data()[i + 1] < indptr.data()[i]) throw py::value_error("indptr must be non-decreasing");
        const Index* id = ids.data();
        const double* v = values.data();
        const std::int64_t* ip = indptr.data();
        T* o = out.mutable_data();
        InterruptibleRelease release;
        return f_.transform_sparse(id, v, ip, rows, o, n_threads);
    }

private:
    pyd2ke::HashedRandomFourier f_;
};

// One sparse_into overload per (index, output) type pair.
template <class Index, class T>
void def_sparse_into(py::class_<PyHashedFourier>& cls) {
    cls.def("sparse_into", &PyHashedFourier::sparse_into<Index, T>, py::arg("ids").noconvert(),
            py::arg("values").noconvert(), py::arg("indptr").noconvert(), py::arg("out").noconvert(),
            py::arg("n_threads"));
}

// The nodes of a grid of `side` points per axis in n_dims dimensions,
// side^n_dims, refused past 2^40 (the density grids and the projections).
std::size_t grid_nodes(std::size_t n_dims, std::size_t side) {
    std::size_t nodes = 1;
    for (std::size_t d = 0; d < n_dims; ++d) {
        if (nodes > (std::size_t{1} << 40) / side) throw py::value_error("side ** n_dims is too large");
        nodes *= side;
    }
    return nodes;
}

// Densities of packed sample sets at the midpoint grid nodes (kde_on_grid);
// out (n_sets, side^n_dims). Runs on the calling thread with the GIL released.
void kde_on_grid_into(CArray<double> values, Offsets offsets, double h, std::size_t side, bool reflect,
                      CArray<double> out) {
    if (values.ndim() != 2 || values.shape(1) < 1) throw py::value_error("values must have shape (n_points, n_dims)");
    if (offsets.ndim() != 1 || offsets.shape(0) < 1) throw py::value_error("offsets must be 1-D, n_sets + 1 long");
    // A private copy: another Python thread cannot change the bounds the core
    // checks (every set non-empty) and then reads with the GIL released.
    const std::vector<std::int64_t> bounds(offsets.data(), offsets.data() + offsets.shape(0));
    const std::size_t n_sets = bounds.size() - 1;
    if (bounds[0] != 0 || bounds[n_sets] != values.shape(0))
        throw py::value_error("offsets must run from 0 to the number of points");
    if (side < 1 || !(h > 0.0)) throw py::value_error("side must be >= 1 and h > 0");
    const auto n_dims = static_cast<std::size_t>(values.shape(1));
    const std::size_t cells = grid_nodes(n_dims, side);
    check_out(out, n_sets, cells);
    const double* points = values.data();
    double* target = out.mutable_data();
    py::gil_scoped_release release;
    pyd2ke::kde_on_grid(points, n_dims, bounds.data(), n_sets, h, side, reflect, target);
}

// The psi functions of Jensen-Shannon-type divergences (density_psi) of
// densities F (n_sets, n_e) into out (n_sets, 2 * len(lambdas), n_e). Runs
// on the calling thread with the GIL released.
void density_psi_into(CArray<double> F, CArray<double> lambdas, double floor, CArray<double> out) {
    if (F.ndim() != 2) throw py::value_error("F must have shape (n_sets, n_points)");
    if (lambdas.ndim() != 1 || lambdas.shape(0) < 1) throw py::value_error("lambdas must be 1-D and not empty");
    if (!(floor >= std::numeric_limits<double>::min())) throw py::value_error("floor must be a positive normal number");
    const auto n_sets = static_cast<std::size_t>(F.shape(0)), n_e = static_cast<std::size_t>(F.shape(1));
    const auto n_lambdas = static_cast<std::size_t>(lambdas.shape(0));
    if (out.ndim() != 3 || static_cast<std::size_t>(out.shape(0)) != n_sets ||
        static_cast<std::size_t>(out.shape(1)) != 2 * n_lambdas || static_cast<std::size_t>(out.shape(2)) != n_e)
        throw py::value_error("out must have shape (n_sets, 2 * len(lambdas), n_points)");
    if (!out.writeable()) throw py::value_error("out must be writeable");
    const std::vector<double> lams(lambdas.data(), lambdas.data() + n_lambdas);
    const double* f = F.data();
    double* target = out.mutable_data();
    py::gil_scoped_release release;
    pyd2ke::density_psi(f, n_sets, n_e, lams.data(), n_lambdas, floor, target);
}

// The projections of rows of a function on the grid onto the tensor basis
// (density_project_grid), into out (n_rows, len(cells)). Runs on the calling
// thread with the GIL released.
void density_project_grid_into(CArray<double> rows, std::size_t n_dims, std::size_t side, CArray<double> table,
                               CArray<std::int64_t> cells, double scale, CArray<double> out, const std::string& simd) {
    const pyd2ke::SimdLevel level = checked_simd_level(simd);
    if (n_dims < 1 || side < 1) throw py::value_error("n_dims and side must be >= 1");
    const std::size_t nodes = grid_nodes(n_dims, side);
    if (table.ndim() != 2 || static_cast<std::size_t>(table.shape(0)) != side || table.shape(1) < 1 ||
        static_cast<std::size_t>(table.shape(1)) > side)
        throw py::value_error("table must have shape (side, m) with 1 <= m <= side");
    if (cells.ndim() != 1) throw py::value_error("cells must be 1-D");
    if (rows.ndim() != 2 || static_cast<std::size_t>(rows.shape(1)) != nodes)
        throw py::value_error("rows must have shape (n_rows, side ** n_dims)");
    const auto n_rows = static_cast<std::size_t>(rows.shape(0)), n_basis = static_cast<std::size_t>(cells.shape(0));
    check_out(out, n_rows, n_basis);
    const auto m = static_cast<std::size_t>(table.shape(1));
    const double* r = rows.data();
    const double* t = table.data();
    const std::int64_t* c = cells.data();
    double* target = out.mutable_data();
    py::gil_scoped_release release;
    pyd2ke::density_project_grid(r, n_rows, n_dims, side, t, m, c, n_basis, scale, target, level);
}

// Random Fourier features of projections P (rows, half): out[:, :half] =
// scale sin(P), out[:, half:] = scale cos(P) (sin_cos_rows). Runs on the
// calling thread with the GIL released (the density estimators' blocks,
// where numpy's sin, cos and scaling made three passes, each a temporary).
template <class T>
void sin_cos_rows_into(CArray<double> P, double scale, CArray<T> out) {
    if (P.ndim() != 2) throw py::value_error("P must have shape (rows, half)");
    const auto rows = static_cast<std::size_t>(P.shape(0)), half = static_cast<std::size_t>(P.shape(1));
    check_out(out, rows, 2 * half);
    const double* p = P.data();
    T* o = out.mutable_data();
    py::gil_scoped_release release;
    pyd2ke::sin_cos_rows(p, rows, half, scale, o);
}

}  // namespace

void bind_features(py::module_& m) {
    m.def("density_psi_into", &density_psi_into, py::arg("F").noconvert(), py::arg("lambdas").noconvert(),
          py::arg("floor"), py::arg("out").noconvert(),
          "cos(l log F) sqrt F, then sin(l log F) sqrt F, for each l of lambdas (F floored at floor), into out "
          "(n_sets, 2 * len(lambdas), n_points).");
    m.def("density_project_grid_into", &density_project_grid_into, py::arg("rows").noconvert(), py::arg("n_dims"),
          py::arg("side"), py::arg("table").noconvert(), py::arg("cells").noconvert(), py::arg("scale"),
          py::arg("out").noconvert(), py::arg("simd") = "auto",
          "scale * sum over the grid nodes u of rows[r, u] prod_d table[u_d, alpha_d], for the multi-indices alpha "
          "of cells (C-order indices into the box m^n_dims), into out (n_rows, len(cells)).");
    m.def("sin_cos_rows_into", &sin_cos_rows_into<double>, py::arg("P").noconvert(), py::arg("scale"),
          py::arg("out").noconvert(), "scale sin(P), then scale cos(P), side by side in each row of out (rows, 2 half).");
    m.def("sin_cos_rows_into", &sin_cos_rows_into<float>, py::arg("P").noconvert(), py::arg("scale"),
          py::arg("out").noconvert());
    m.def("kde_on_grid_into", &kde_on_grid_into, py::arg("values").noconvert(), py::arg("offsets").noconvert(),
          py::arg("h"), py::arg("side"), py::arg("reflect"), py::arg("out").noconvert(),
          "Gaussian KDE of each packed set at the midpoint grid of [0, 1]^l (C order), into out (n_sets, side^l).");
    m.def("maclaurin_into", &maclaurin_into<double>, py::arg("P").noconvert(), py::arg("groups").noconvert(),
          py::arg("scale").noconvert(), py::arg("out").noconvert(), py::arg("n_threads"));
    m.def("maclaurin_into", &maclaurin_into<float>, py::arg("P").noconvert(), py::arg("groups").noconvert(),
          py::arg("scale").noconvert(), py::arg("out").noconvert(), py::arg("n_threads"));
    py::class_<PyHashedFourier> cls(m, "HashedFourier");
    cls.def(py::init<const std::string&, double, std::size_t, std::uint64_t, const std::string&>(), py::arg("kernel"),
            py::arg("bandwidth"), py::arg("n_components"), py::arg("seed"), py::arg("simd") = "auto")
        .def("weight", &PyHashedFourier::weight, py::arg("j"), py::arg("k"))
        .def("weights", &PyHashedFourier::weights, py::arg("first"), py::arg("count"), py::arg("n_threads"))
        .def("cos_sin_into", &PyHashedFourier::cos_sin_into<double>, py::arg("P").noconvert(),
             py::arg("out").noconvert(), py::arg("n_threads"))
        .def("cos_sin_into", &PyHashedFourier::cos_sin_into<float>, py::arg("P").noconvert(),
             py::arg("out").noconvert(), py::arg("n_threads"));
    def_sparse_into<std::uint64_t, double>(cls);
    def_sparse_into<std::uint64_t, float>(cls);
    def_sparse_into<std::int32_t, double>(cls);
    def_sparse_into<std::int32_t, float>(cls);
    def_sparse_into<std::int64_t, double>(cls);
    def_sparse_into<std::int64_t, float>(cls);
}
