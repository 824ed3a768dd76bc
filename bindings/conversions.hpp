#pragma once
// Python -> C++: views of numpy arrays and Python strings, checks of the
// `out` arrays the kernels write into, and the names of options (SIMD level,
// D2KE kernel). Runs with the GIL held; the views point into the Python
// objects, which the caller keeps alive for the whole call. Bad shapes and
// names raise ValueError (TypeError for wrong element types).

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <atomic>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include <pyd2ke/core/cpu_features.hpp>
#include <pyd2ke/core/parallel.hpp>
#include <pyd2ke/core/point_set.hpp>
#include <pyd2ke/core/series.hpp>
#include <pyd2ke/core/text.hpp>
#include <pyd2ke/embed/d2ke.hpp>

namespace pyd2ke_bindings {

namespace py = pybind11;

// The array types of every argument: C-contiguous, of exactly this dtype
// when the argument is bound with noconvert().
template <class T>
using CArray = py::array_t<T, py::array::c_style>;
using Offsets = CArray<std::int64_t>;
using Weights = CArray<double>;

// Ctrl-C during a long call. Parallel loops call this from the calling (Python)
// thread between blocks; it takes the GIL back for a moment to run Python's
// signal handlers. A KeyboardInterrupt they raise stays set while the loop
// stops, and the module's exception translator lets it through.
inline bool python_signals_pending() {
    py::gil_scoped_acquire gil;
    return PyErr_CheckSignals() != 0;
}

// Releases the GIL for a computation that Ctrl-C can interrupt (members are
// built in order and destroyed in reverse: the GIL comes back first).
struct InterruptibleRelease {
    pyd2ke::ScopedInterruptPoll poll{python_signals_pending};
    py::gil_scoped_release release;
};

// --- options ----------------------------------------------------------------------

// "auto" or a level name, checked against what this CPU runs.
inline pyd2ke::SimdLevel checked_simd_level(const std::string& simd) {
    const pyd2ke::SimdLevel level = pyd2ke::simd_level_from_name(simd);
    if (static_cast<int>(level) < 0)
        throw py::value_error("simd='" + simd + "' is not a SIMD level: use 'auto', 'scalar', 'sse2', 'avx2' or 'avx512'");
    try {
        return pyd2ke::require_simd_level(level);
    } catch (const std::invalid_argument& e) {
        throw py::value_error("simd='" + simd + "': " + e.what());
    }
}

inline pyd2ke::D2KEKernel d2ke_kernel_from_name(const std::string& kernel) {
    if (kernel == "soft") return pyd2ke::D2KEKernel::soft;
    if (kernel == "direct") return pyd2ke::D2KEKernel::direct;
    throw py::value_error("kernel must be 'soft' or 'direct', got '" + kernel + "'");
}

// --- output arrays --------------------------------------------------------------

// Rows of a writeable 2-D `out` with `cols` columns.
template <class T>
std::size_t out_rows(const CArray<T>& out, std::size_t cols, const char* cols_name) {
    if (out.ndim() != 2 || static_cast<std::size_t>(out.shape(1)) != cols)
        throw py::value_error("out must have shape (rows, " + std::string(cols_name) + ") = (rows, " +
                              std::to_string(cols) + ")");
    if (!out.writeable()) throw py::value_error("out must be writeable");
    return static_cast<std::size_t>(out.shape(0));
}

// A writeable `out` of shape (rows, cols).
template <class T>
void check_out(const CArray<T>& out, std::size_t rows, std::size_t cols) {
    if (out.ndim() != 2 || static_cast<std::size_t>(out.shape(0)) != rows ||
        static_cast<std::size_t>(out.shape(1)) != cols)
        throw py::value_error("out must have shape (" + std::to_string(rows) + ", " + std::to_string(cols) + ")");
    if (!out.writeable()) throw py::value_error("out must be writeable");
}

// --- inputs -----------------------------------------------------------------------

// Strings as TextViews into the objects' own buffers (no copy, whatever
// their size). `owner` is a private shallow copy of the list: it keeps every
// string alive while the GIL is released, even if another thread empties
// the caller's list meanwhile.
struct TextList {
    py::list owner;
    std::vector<pyd2ke::TextView> views;
};

namespace detail {

constexpr int kTextStr = 1, kTextBytes = 2, kTextOther = 4;

// Kind of one item (kTextOther for anything else and for a str that is not
// ready, which only the serial pass may make ready), and its view.
inline int read_text(PyObject* obj, pyd2ke::TextView& view) {
    if (PyUnicode_Check(obj)) {
#if PY_VERSION_HEX < 0x030C0000
        if (!PyUnicode_IS_READY(obj)) return kTextOther;
#endif
        view = pyd2ke::TextView(PyUnicode_DATA(obj), static_cast<std::size_t>(PyUnicode_GET_LENGTH(obj)),
                                static_cast<unsigned char>(PyUnicode_KIND(obj)));
        return kTextStr;
    }
    if (PyBytes_Check(obj)) {
        view = pyd2ke::TextView(PyBytes_AS_STRING(obj), static_cast<std::size_t>(PyBytes_GET_SIZE(obj)), 1);
        return kTextBytes;
    }
    return kTextOther;
}

// Views of a list of all str or all bytes read on n_threads threads while
// this thread holds the GIL (no Python code runs meanwhile; str and bytes
// are immutable and the list holds them): true when every item was one
// kind, false for the serial pass to name what is wrong.
inline bool read_texts_in_parallel(PyObject* list, std::vector<pyd2ke::TextView>& views, int n_threads) {
    const auto n = static_cast<std::size_t>(PyList_GET_SIZE(list));
    views.resize(n);
    std::atomic<int> kinds{0};
    pyd2ke::parallel_for_blocks(n, n_threads, 1024, [&](std::size_t begin, std::size_t end) {
        int seen = 0;
        for (std::size_t i = begin; i < end; ++i)
            seen |= read_text(PyList_GET_ITEM(list, static_cast<Py_ssize_t>(i)), views[i]);
        kinds.fetch_or(seen, std::memory_order_relaxed);
    });
    const int all = kinds.load();
    return all == kTextStr || all == kTextBytes;
}

}  // namespace detail

// A list of str or bytes (not mixed). The list is copied first: the copy
// (owner) holds every item while the GIL is released. Long lists are read
// on n_threads threads; a wrong type or a mix is named by the serial pass.
inline TextList text_views(const py::list& items, const char* name, int n_threads = 1) {
    TextList out{py::reinterpret_steal<py::list>(PySequence_List(items.ptr())), {}};
    if (!out.owner) throw py::error_already_set();
    const auto n = static_cast<std::size_t>(PyList_GET_SIZE(out.owner.ptr()));
    if (n >= 2048 && detail::read_texts_in_parallel(out.owner.ptr(), out.views, n_threads))
        return out;
    out.views.clear();
    out.views.reserve(n);
    int kind_seen = 0;  // 1: str, 2: bytes
    for (std::size_t i = 0; i < n; ++i) {
        PyObject* obj = PyList_GET_ITEM(out.owner.ptr(), static_cast<Py_ssize_t>(i));
#if PY_VERSION_HEX < 0x030C0000
        if (PyUnicode_Check(obj) && PyUnicode_READY(obj) != 0) throw py::error_already_set();
#endif
        pyd2ke::TextView view;
        const int kind = detail::read_text(obj, view);
        if (kind == detail::kTextOther)
            throw py::type_error(std::string(name) + "[" + std::to_string(i) + "] is " +
                                 Py_TYPE(obj)->tp_name + ", expected str or bytes");
        if (kind_seen != 0 && kind != kind_seen)
            throw py::type_error(std::string(name) + " mixes str and bytes (first at index " + std::to_string(i) +
                                 "); pass all str or all bytes");
        kind_seen = kind;
        out.views.push_back(view);
    }
    return out;
}

// Ragged objects packed in one array: object i is rows offsets[i] ..
// offsets[i+1] of values (total_rows, width); none may be empty. `object`
// names one object in messages ("series", "set"); make(first_row, rows,
// width, i) builds its view.
template <class T, class Make>
auto packed_views(const CArray<T>& values, const Offsets& offsets, const char* object, Make&& make) {
    if (values.ndim() != 2) throw py::value_error("values must be 2-D (total rows, values per row)");
    if (offsets.ndim() != 1 || offsets.shape(0) < 1) throw py::value_error("offsets must be 1-D and non-empty");
    const std::size_t width = static_cast<std::size_t>(values.shape(1));
    const std::int64_t* off = offsets.data();
    const std::size_t n = static_cast<std::size_t>(offsets.shape(0)) - 1;
    if (off[0] != 0 || off[n] != values.shape(0)) throw py::value_error("offsets do not match values");
    std::vector<decltype(make(values.data(), std::size_t{0}, width, std::size_t{0}))> views;
    views.reserve(n);
    for (std::size_t i = 0; i < n; ++i) {
        if (off[i + 1] <= off[i]) throw py::value_error(std::string(object) + " " + std::to_string(i) + " is empty");
        views.push_back(make(values.data() + off[i] * width, static_cast<std::size_t>(off[i + 1] - off[i]), width, i));
    }
    return views;
}

// Time series packed as values (total_steps, channels) and offsets.
template <class T>
std::vector<pyd2ke::SeriesView<T>> series_views(const CArray<T>& values, const Offsets& offsets) {
    return packed_views(values, offsets, "series", [](const T* data, std::size_t length, std::size_t channels,
                                                      std::size_t) {
        return pyd2ke::SeriesView<T>(data, length, channels);
    });
}

// Sets of points packed as values (total_points, dim) and offsets, with one
// weight per point (weights nullptr: uniform).
template <class T>
std::vector<pyd2ke::PointSetView<T>> set_views(const CArray<T>& values, const Offsets& offsets,
                                               const Weights* weights) {
    if (weights && values.ndim() == 2 && (weights->ndim() != 1 || weights->shape(0) != values.shape(0)))
        throw py::value_error("weights must be 1-D with one weight per point");
    const std::int64_t* off = offsets.data();
    return packed_views(values, offsets, "set", [&](const T* data, std::size_t size, std::size_t dim, std::size_t i) {
        return pyd2ke::PointSetView<T>(data, size, dim, weights ? weights->data() + off[i] : nullptr);
    });
}

}  // namespace pyd2ke_bindings
