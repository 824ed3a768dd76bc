#pragma once
// Python -> C++ views. Runs with the GIL held; the views point into the
// Python objects, which the caller keeps alive for the whole call.

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <string>
#include <vector>

#include <pyd2ke/core/text.hpp>

namespace pyd2ke_bindings {

namespace py = pybind11;

// A list of str or bytes (not mixed) as TextViews into the objects' own
// buffers: no copy, whatever the size of the strings.
inline std::vector<pyd2ke::TextView> text_views(const py::list& items, const char* name) {
    std::vector<pyd2ke::TextView> views;
    views.reserve(items.size());
    int kind_seen = 0;  // 1: str, 2: bytes
    for (std::size_t i = 0; i < items.size(); ++i) {
        PyObject* obj = PySequence_Fast_GET_ITEM(items.ptr(), static_cast<Py_ssize_t>(i));
        int kind = 0;
        if (PyUnicode_Check(obj)) {
            kind = 1;
            views.emplace_back(PyUnicode_DATA(obj), static_cast<std::size_t>(PyUnicode_GET_LENGTH(obj)),
                               static_cast<unsigned char>(PyUnicode_KIND(obj)));
        } else if (PyBytes_Check(obj)) {
            kind = 2;
            views.emplace_back(PyBytes_AS_STRING(obj), static_cast<std::size_t>(PyBytes_GET_SIZE(obj)), 1);
        } else {
            throw py::type_error(std::string(name) + "[" + std::to_string(i) + "] is " +
                                 Py_TYPE(obj)->tp_name + ", expected str or bytes");
        }
        if (kind_seen != 0 && kind != kind_seen)
            throw py::type_error(std::string(name) + " mixes str and bytes (first at index " + std::to_string(i) +
                                 "); pass all str or all bytes");
        kind_seen = kind;
    }
    return views;
}

}  // namespace pyd2ke_bindings
