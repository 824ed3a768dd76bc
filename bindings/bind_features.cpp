// Random-feature maps on vectors: the Random Maclaurin segment products.

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cstdint>
#include <string>
#include <vector>

#include <pyd2ke/features/maclaurin.hpp>

#include "conversions.hpp"

namespace py = pybind11;

namespace {

// groups: (n_groups, 4) int64 rows of (degree, count, first_column, first_feature).
// Returns whether every feature is finite.
template <class T>
bool maclaurin_into(py::array_t<T, py::array::c_style> P, py::array_t<std::int64_t, py::array::c_style> groups,
                    py::array_t<T, py::array::c_style> scale, py::array_t<T, py::array::c_style> out, int n_threads) {
    if (P.ndim() != 2 || out.ndim() != 2 || P.shape(0) != out.shape(0))
        throw py::value_error("P and out must be 2-D with the same number of rows");
    if (groups.ndim() != 2 || groups.shape(1) != 4) throw py::value_error("groups must have shape (n_groups, 4)");
    if (scale.ndim() != 1 || scale.shape(0) != out.shape(1)) throw py::value_error("scale must have out.shape[1] values");
    if (!out.writeable()) throw py::value_error("out must be writeable");
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
    pyd2ke_bindings::InterruptibleRelease release;
    return pyd2ke::maclaurin_products(p, rows, p_columns, g, s, z, n_features, n_threads);
}

}  // namespace

void bind_features(py::module_& m) {
    m.def("maclaurin_into", &maclaurin_into<double>, py::arg("P").noconvert(), py::arg("groups").noconvert(),
          py::arg("scale").noconvert(), py::arg("out").noconvert(), py::arg("n_threads"));
    m.def("maclaurin_into", &maclaurin_into<float>, py::arg("P").noconvert(), py::arg("groups").noconvert(),
          py::arg("scale").noconvert(), py::arg("out").noconvert(), py::arg("n_threads"));
}
