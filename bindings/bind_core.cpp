// Bindings of cpp/include/pyd2ke/core: packing a list of arrays (series,
// point sets) into the (values, offsets) form the batches take, and a list
// of dense graphs into edge lists; joining the arrays of a chunked
// transform's outputs; the finite check of a large array.

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <type_traits>
#include <vector>

#include <pyd2ke/core/center_scale.hpp>
#include <pyd2ke/core/dense_edges.hpp>
#include <pyd2ke/core/finite.hpp>
#include <pyd2ke/core/pack.hpp>

#include "conversions.hpp"

namespace py = pybind11;
using pyd2ke_bindings::InterruptibleRelease;

namespace {

// The element type of a native-order real array, or false for any other.
bool element_of(const py::dtype& dt, pyd2ke::StridedRows::Element& element) {
    const char order = dt.byteorder();
    if (order != '=' && order != '|') return false;
    const char kind = dt.kind();
    const auto size = dt.itemsize();
    using E = pyd2ke::StridedRows::Element;
    if (kind == 'f' && size == 8) element = E::float64;
    else if (kind == 'f' && size == 4) element = E::float32;
    else if (kind == 'i' && size == 8) element = E::int64;
    else if (kind == 'i' && size == 4) element = E::int32;
    else return false;
    return true;
}

// The view of a real ndarray (rows,) or (rows, columns), and its number of
// dimensions; 0 for anything else.
int strided_view(py::handle item, pyd2ke::StridedRows& r) {
    if (!py::isinstance<py::array>(item)) return 0;
    const auto a = py::reinterpret_borrow<py::array>(item);
    const int ndim = static_cast<int>(a.ndim());
    if ((ndim != 1 && ndim != 2) || !element_of(a.dtype(), r.element)) return 0;
    r.data = static_cast<const char*>(a.data());
    r.rows = static_cast<std::size_t>(a.shape(0));
    r.row_stride = a.strides(0);
    r.columns = ndim == 2 ? static_cast<std::size_t>(a.shape(1)) : 1;
    r.column_stride = ndim == 2 ? a.strides(1) : a.itemsize();
    return ndim;
}

// items (a list of numpy arrays (rows,) or (rows, columns)) as
// (values (total rows, columns) of T, offsets, all finite), or None when an
// item is anything else: not an ndarray, another dtype, no rows, no
// columns, or other columns than the first item's. The caller's Python
// check then takes over and names the item.
template <class T>
py::object pack_rows(const py::list& items, int n_threads) {
    const std::size_t n = items.size();
    if (n == 0) return py::none();
    std::vector<pyd2ke::StridedRows> arrays(n);
    py::array_t<std::int64_t> offsets(static_cast<py::ssize_t>(n + 1));
    std::int64_t* o = offsets.mutable_data();
    o[0] = 0;
    std::size_t columns = 0;
    // Our own references: the arrays stay alive while the GIL is released,
    // whatever another thread does to the list meanwhile.
    std::vector<py::object> owned;
    owned.reserve(n);
    for (std::size_t i = 0; i < n; ++i) {
        owned.push_back(items[i]);
        pyd2ke::StridedRows& r = arrays[i];
        if (strided_view(owned.back(), r) == 0 || r.rows == 0 || r.columns == 0 || (i > 0 && r.columns != columns))
            return py::none();
        columns = r.columns;
        o[i + 1] = o[i] + static_cast<std::int64_t>(r.rows);
    }
    py::array_t<T> values({static_cast<py::ssize_t>(o[n]), static_cast<py::ssize_t>(columns)});
    T* out = values.mutable_data();
    bool finite;
    {
        InterruptibleRelease release;
        finite = pyd2ke::pack_rows(arrays, o, columns, out, n_threads);
    }
    return py::make_tuple(values, offsets, finite);
}

template <class T>
bool all_finite(const pyd2ke_bindings::CArray<T>& a, int n_threads) {
    const T* data = a.data();
    const std::size_t count = static_cast<std::size_t>(a.size());
    InterruptibleRelease release;
    return pyd2ke::all_finite(data, count, n_threads);
}

// Graphs given as dense adjacency matrices, all bare or all in pairs
// (matrix, integer node labels), as (node_counts, edge_counts, rows, cols,
// weights, labels or None, whether every matrix is exactly symmetric), the
// edges of each graph row-major; None for
// anything else (sparse matrices, networkx graphs, attributes, a negative,
// NaN or infinite weight, a label outside [0, max_label], ...): the
// domain's Python check then takes over and names the graph.
py::object pack_dense_graphs(const py::list& items, std::int64_t max_label, int n_threads) {
    const std::size_t n = items.size();
    if (n == 0) return py::none();
    std::vector<pyd2ke::StridedRows> matrices(n), labels;
    py::array_t<std::int64_t> node_counts(static_cast<py::ssize_t>(n));
    std::int64_t* counts = node_counts.mutable_data();
    bool with_labels = false;
    // Our own references to every array read with the GIL released: a pair
    // given as a list could otherwise lose its matrix to another thread.
    std::vector<py::object> owned;
    owned.reserve(2 * n);
    for (std::size_t i = 0; i < n; ++i) {
        const py::object item = items[i];
        // Exactly a tuple or list, as the Python check reads a pair
        // (NodeVectors, a tuple subclass, is not a graph).
        const bool pair = PyTuple_CheckExact(item.ptr()) || PyList_CheckExact(item.ptr());
        if (i == 0) with_labels = pair;
        if (pair != with_labels || (pair && py::len(item) != 2)) return py::none();
        owned.push_back(pair ? py::object(item[py::int_(0)]) : item);
        pyd2ke::StridedRows& m = matrices[i];
        if (strided_view(owned.back(), m) != 2 || m.rows == 0 || m.rows != m.columns) return py::none();
        counts[i] = static_cast<std::int64_t>(m.rows);
        if (pair) {
            pyd2ke::StridedRows l;
            owned.push_back(item[py::int_(1)]);
            if (strided_view(owned.back(), l) != 1 || l.rows != m.rows) return py::none();
            if (l.element != pyd2ke::StridedRows::Element::int64 && l.element != pyd2ke::StridedRows::Element::int32)
                return py::none();  // float labels: the Python check decides
            labels.push_back(l);
        }
    }
    std::vector<std::int64_t> edge_counts, rows, cols;
    std::vector<double> weights;
    std::vector<std::int64_t> node_labels;
    bool valid, symmetric;
    {
        InterruptibleRelease release;
        valid = pyd2ke::dense_edges(matrices, edge_counts, rows, cols, weights, symmetric, n_threads);
        for (const pyd2ke::StridedRows& l : labels) {
            for (std::size_t k = 0; k < l.rows && valid; ++k) {
                const char* p = l.data + static_cast<std::ptrdiff_t>(k) * l.row_stride;
                const std::int64_t v = l.element == pyd2ke::StridedRows::Element::int64
                                           ? pyd2ke::detail::load_element<std::int64_t>(p)
                                           : pyd2ke::detail::load_element<std::int32_t>(p);
                valid = v >= 0 && v <= max_label;
                node_labels.push_back(v);
            }
        }
    }
    if (!valid) return py::none();
    auto as_array = [](const auto& v) {
        using T = typename std::decay_t<decltype(v)>::value_type;
        py::array_t<T> out(static_cast<py::ssize_t>(v.size()));
        std::copy(v.begin(), v.end(), out.mutable_data());
        return out;
    };
    py::object label_array = with_labels ? py::object(as_array(node_labels)) : py::object(py::none());
    return py::make_tuple(node_counts, as_array(edge_counts), as_array(rows), as_array(cols), as_array(weights),
                          label_array, symmetric);
}

// One pass over a list of strings at C speed, for the checks Python would
// make in three passes (the items' types, no empty string, the total length
// that sizes the chunks): (kind, total length, index of the first empty
// string or -1, longest length). kind: 1 when every item is a str (or subclass), 2 when
// every item is bytes, 0 for anything else (mixed, other types), which the
// caller's Python check then names.
py::tuple text_list_info(const py::list& items) {
    int kind = 0;
    std::int64_t total = 0, first_empty = -1, longest = 0;
    const Py_ssize_t n = PyList_GET_SIZE(items.ptr());
    for (Py_ssize_t i = 0; i < n; ++i) {
        PyObject* obj = PyList_GET_ITEM(items.ptr(), i);
        int this_kind;
        Py_ssize_t length;
        if (PyUnicode_Check(obj)) {
#if PY_VERSION_HEX < 0x030C0000
            if (PyUnicode_READY(obj) != 0) throw py::error_already_set();
#endif
            this_kind = 1;
            length = PyUnicode_GET_LENGTH(obj);
        } else if (PyBytes_Check(obj)) {
            this_kind = 2;
            length = PyBytes_GET_SIZE(obj);
        } else {
            return py::make_tuple(0, 0, -1, 0);
        }
        if (i > 0 && this_kind != kind) return py::make_tuple(0, 0, -1, 0);
        kind = this_kind;
        total += length;
        longest = std::max<std::int64_t>(longest, length);
        if (length == 0 && first_empty < 0) first_empty = i;
    }
    return py::make_tuple(kind, total, first_empty, longest);
}

// out (rows, columns), C-contiguous: every row centred on mean and scaled by factor.
template <class T>
void center_and_scale_into(pyd2ke_bindings::CArray<T> out, const pyd2ke_bindings::CArray<T>& mean, T factor,
                           int n_threads) {
    if (out.ndim() != 2 || mean.ndim() != 1 || mean.shape(0) != out.shape(1) || !out.writeable())
        throw py::value_error("out must be a writeable (rows, columns) array and mean have one value per column");
    T* data = out.mutable_data();
    const T* m = mean.data();
    const auto rows = static_cast<std::size_t>(out.shape(0)), columns = static_cast<std::size_t>(out.shape(1));
    InterruptibleRelease release;
    pyd2ke::center_and_scale_rows(data, rows, columns, m, factor, n_threads);
}

}  // namespace

void bind_core(py::module_& m) {
    m.def("pack_rows_float64", &pack_rows<double>, py::arg("items"), py::arg("n_threads"),
          "A list of real arrays (rows,) or (rows, columns) as (values float64, offsets, all finite); "
          "None for anything else.");
    m.def("pack_rows_float32", &pack_rows<float>, py::arg("items"), py::arg("n_threads"),
          "As pack_rows_float64, with float32 values.");
    m.def("all_finite", &all_finite<double>, py::arg("a").noconvert(), py::arg("n_threads"),
          "Whether a C-contiguous float64 array holds no NaN and no infinity, checked on n_threads threads.");
    m.def("all_finite", &all_finite<float>, py::arg("a").noconvert(), py::arg("n_threads"));
    m.def("pack_dense_graphs", &pack_dense_graphs, py::arg("items"), py::arg("max_label"), py::arg("n_threads"),
          "Dense adjacency matrices (bare, or pairs with integer node labels) as (node_counts, edge_counts, rows, "
          "cols, weights, labels or None, symmetric); None for anything else.");
    m.def("center_and_scale_into", &center_and_scale_into<double>, py::arg("out").noconvert(),
          py::arg("mean").noconvert(), py::arg("factor"), py::arg("n_threads"),
          "out[i, j] = (out[i, j] - mean[j]) * factor, on n_threads threads (numpy's two roundings).");
    m.def("center_and_scale_into", &center_and_scale_into<float>, py::arg("out").noconvert(),
          py::arg("mean").noconvert(), py::arg("factor"), py::arg("n_threads"));
    m.def("text_list_info", &text_list_info, py::arg("items"),
          "(kind: 1 all str, 2 all bytes, 0 otherwise; total length; first empty index or -1; longest length) in "
          "one pass.");
}
