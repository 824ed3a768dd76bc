// Bindings of cpp/include/pyd2ke/core: packing a list of arrays (series,
// point sets) into the (values, offsets) form the batches take, and joining
// the arrays of a chunked transform's outputs.

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cstddef>
#include <cstdint>
#include <vector>

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
    for (std::size_t i = 0; i < n; ++i) {
        const py::handle item = items[i];
        if (!py::isinstance<py::array>(item)) return py::none();
        const auto a = py::reinterpret_borrow<py::array>(item);
        pyd2ke::StridedRows& r = arrays[i];
        if (!element_of(a.dtype(), r.element) || a.ndim() < 1 || a.ndim() > 2) return py::none();
        r.data = static_cast<const char*>(a.data());
        r.rows = static_cast<std::size_t>(a.shape(0));
        r.row_stride = a.strides(0);
        r.columns = a.ndim() == 2 ? static_cast<std::size_t>(a.shape(1)) : 1;
        r.column_stride = a.ndim() == 2 ? a.strides(1) : a.itemsize();
        if (r.rows == 0 || r.columns == 0 || (i > 0 && r.columns != columns)) return py::none();
        columns = r.columns;
        o[i + 1] = o[i] + static_cast<std::int64_t>(r.rows);
    }
    py::array_t<T> values({static_cast<py::ssize_t>(o[n]), static_cast<py::ssize_t>(columns)});
    T* out = values.mutable_data();
    bool finite;
    {
        // The list holds the arrays; the caller holds the list for the call.
        InterruptibleRelease release;
        finite = pyd2ke::pack_rows(arrays, o, columns, out, n_threads);
    }
    return py::make_tuple(values, offsets, finite);
}

// The arrays of `parts` (1-D, C-contiguous, of out's dtype), one after the
// other, written into out on n_threads threads.
void concatenate_into(const py::list& parts, py::array out, int n_threads) {
    if (out.ndim() != 1 || !(out.flags() & py::array::c_style) || !out.writeable())
        throw py::value_error("out must be a writeable C-contiguous 1-D array");
    std::vector<pyd2ke::ByteRange> ranges;
    char* target = static_cast<char*>(out.mutable_data());
    std::size_t written = 0;
    const std::size_t capacity = static_cast<std::size_t>(out.nbytes());
    for (const py::handle item : parts) {
        const auto a = py::reinterpret_borrow<py::array>(item);
        if (!py::isinstance<py::array>(item) || a.ndim() != 1 || !(a.flags() & py::array::c_style) ||
            !a.dtype().equal(out.dtype()))
            throw py::type_error("every part must be a C-contiguous 1-D array of out's dtype");
        const std::size_t bytes = static_cast<std::size_t>(a.nbytes());
        if (written + bytes > capacity) throw py::value_error("the parts do not fit into out");
        ranges.push_back({static_cast<const char*>(a.data()), bytes, target + written});
        written += bytes;
    }
    if (written != capacity) throw py::value_error("the parts do not fill out");
    InterruptibleRelease release;
    pyd2ke::copy_ranges(ranges, n_threads);
}

template <class T>
bool all_finite(const pyd2ke_bindings::CArray<T>& a, int n_threads) {
    const T* data = a.data();
    const std::size_t count = static_cast<std::size_t>(a.size());
    InterruptibleRelease release;
    return pyd2ke::all_finite(data, count, n_threads);
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
    m.def("concatenate_into", &concatenate_into, py::arg("parts"), py::arg("out"), py::arg("n_threads"),
          "The 1-D arrays of parts, one after the other, copied into out on n_threads threads.");
}
