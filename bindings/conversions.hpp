#pragma once
// Python -> C++ views. Runs with the GIL held; the views point into the
// Python objects, which the caller keeps alive for the whole call.

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <stdexcept>
#include <string>
#include <vector>

#include <pyd2ke/core/cpu_features.hpp>
#include <pyd2ke/core/parallel.hpp>
#include <pyd2ke/core/text.hpp>
#include <pyd2ke/embed/d2ke.hpp>

namespace pyd2ke_bindings {

namespace py = pybind11;

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

inline pyd2ke::D2KEKernel d2ke_kernel_from_name(const std::string& kernel) {
    if (kernel == "soft") return pyd2ke::D2KEKernel::soft;
    if (kernel == "direct") return pyd2ke::D2KEKernel::direct;
    throw py::value_error("kernel must be 'soft' or 'direct', got '" + kernel + "'");
}

// "auto" or a level name, checked against what this CPU runs (ValueError
// naming the argument otherwise).
inline pyd2ke::SimdLevel checked_simd_level(const std::string& simd) {
    try {
        return pyd2ke::require_simd_level(pyd2ke::simd_level_from_name(simd));
    } catch (const std::invalid_argument& e) {
        throw py::value_error("simd='" + simd + "': " + e.what());
    }
}

// Strings as TextViews into the objects' own buffers (no copy, whatever
// their size). `owner` is a private shallow copy of the list: it keeps every
// string alive while the GIL is released, even if another thread empties
// the caller's list meanwhile.
struct TextList {
    py::list owner;
    std::vector<pyd2ke::TextView> views;
};

// A list of str or bytes (not mixed).
inline TextList text_views(const py::list& items, const char* name) {
    TextList out{py::reinterpret_steal<py::list>(PySequence_List(items.ptr())), {}};
    if (!out.owner) throw py::error_already_set();
    out.views.reserve(out.owner.size());
    int kind_seen = 0;  // 1: str, 2: bytes
    for (std::size_t i = 0; i < out.owner.size(); ++i) {
        PyObject* obj = PyList_GET_ITEM(out.owner.ptr(), static_cast<Py_ssize_t>(i));
        int kind = 0;
        if (PyUnicode_Check(obj)) {
            kind = 1;
#if PY_VERSION_HEX < 0x030C0000
            if (PyUnicode_READY(obj) != 0) throw py::error_already_set();
#endif
            out.views.emplace_back(PyUnicode_DATA(obj), static_cast<std::size_t>(PyUnicode_GET_LENGTH(obj)),
                                   static_cast<unsigned char>(PyUnicode_KIND(obj)));
        } else if (PyBytes_Check(obj)) {
            kind = 2;
            out.views.emplace_back(PyBytes_AS_STRING(obj), static_cast<std::size_t>(PyBytes_GET_SIZE(obj)), 1);
        } else {
            throw py::type_error(std::string(name) + "[" + std::to_string(i) + "] is " +
                                 Py_TYPE(obj)->tp_name + ", expected str or bytes");
        }
        if (kind_seen != 0 && kind != kind_seen)
            throw py::type_error(std::string(name) + " mixes str and bytes (first at index " + std::to_string(i) +
                                 "); pass all str or all bytes");
        kind_seen = kind;
    }
    return out;
}

}  // namespace pyd2ke_bindings
