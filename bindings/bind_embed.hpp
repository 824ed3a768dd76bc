#pragma once
// D2KE (embed/d2ke.hpp) for every batch class of the module: distances_into
// and features_into, the same two methods with the same arguments after the
// batch's own inputs, whatever the batch.

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <string>

#include <pyd2ke/embed/d2ke.hpp>

#include "conversions.hpp"

namespace pyd2ke_bindings {

// out (len(objects), batch.size()) = distances of every object to every
// random object.
template <class Batch, class Objects, class Out>
void d2ke_distances_into(const Batch& batch, const Objects& objects, CArray<Out>& out, int n_threads) {
    check_out(out, objects.size(), batch.size());
    Out* data = out.mutable_data();
    InterruptibleRelease release;
    pyd2ke::d2ke_distances(batch, objects, data, n_threads);
}

// out (len(objects), batch.size()) = D2KE features of every object.
template <class Batch, class Objects, class Out>
void d2ke_features_into(const Batch& batch, const Objects& objects, double gamma, const std::string& kernel,
                        CArray<Out>& out, int n_threads) {
    check_out(out, objects.size(), batch.size());
    const pyd2ke::D2KEKernel k = d2ke_kernel_from_name(kernel);
    Out* data = out.mutable_data();
    InterruptibleRelease release;
    pyd2ke::d2ke_features(batch, objects, gamma, k, data, n_threads);
}

// Binds Py::distances_into<Out>(inputs..., out, n_threads) and
// Py::features_into<Out>(inputs..., gamma, kernel, out, n_threads) for
// float64 then float32 outputs; `inputs` are the py::arg of the batch's own
// input arguments.
template <class Py, class... Inputs>
void def_d2ke_methods(py::class_<Py>& cls, const Inputs&... inputs) {
    cls.def("distances_into", &Py::template distances_into<double>, inputs..., py::arg("out").noconvert(),
            py::arg("n_threads"))
        .def("distances_into", &Py::template distances_into<float>, inputs..., py::arg("out").noconvert(),
             py::arg("n_threads"))
        .def("features_into", &Py::template features_into<double>, inputs..., py::arg("gamma"), py::arg("kernel"),
             py::arg("out").noconvert(), py::arg("n_threads"))
        .def("features_into", &Py::template features_into<float>, inputs..., py::arg("gamma"), py::arg("kernel"),
             py::arg("out").noconvert(), py::arg("n_threads"));
}

}  // namespace pyd2ke_bindings
