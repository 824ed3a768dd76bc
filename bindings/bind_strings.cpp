// Strings: Levenshtein distances and D2KE string features.

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <memory>
#include <string>

#include <pyd2ke/distance/levenshtein.hpp>
#include <pyd2ke/embed/d2ke.hpp>

#include "conversions.hpp"

namespace py = pybind11;
using pyd2ke_bindings::text_views;

namespace {

// A LevenshteinBatch over Python strings (the batch copies the patterns).
class PyLevenshteinBatch {
public:
    PyLevenshteinBatch(py::list patterns, const std::string& simd) {
        const pyd2ke::SimdLevel level = pyd2ke_bindings::checked_simd_level(simd);
        const pyd2ke_bindings::TextList texts = text_views(patterns, "patterns");
        batch_ = std::make_unique<pyd2ke::LevenshteinBatch>(texts.views, level);
    }

    std::size_t size() const { return batch_->size(); }
    std::string simd_level() const { return pyd2ke::simd_level_name(batch_->simd_level()); }

    // Distances (n_texts, n_patterns) written into `out`.
    template <class T>
    void distances_into(py::list texts, py::array_t<T, py::array::c_style> out, int n_threads) const {
        const pyd2ke_bindings::TextList x = text_views(texts, "X");
        check_out(out, x.views.size());
        T* data = out.mutable_data();
        pyd2ke_bindings::InterruptibleRelease release;
        pyd2ke::d2ke_distances(*batch_, x.views, data, n_threads);
    }

    // D2KE features (n_texts, n_patterns) written into `out`.
    template <class T>
    void features_into(py::list texts, double gamma, const std::string& kernel,
                       py::array_t<T, py::array::c_style> out, int n_threads) const {
        const pyd2ke_bindings::TextList x = text_views(texts, "X");
        check_out(out, x.views.size());
        pyd2ke::D2KEKernel k;
        if (kernel == "soft")
            k = pyd2ke::D2KEKernel::soft;
        else if (kernel == "direct")
            k = pyd2ke::D2KEKernel::direct;
        else
            throw py::value_error("kernel must be 'soft' or 'direct', got '" + kernel + "'");
        T* data = out.mutable_data();
        pyd2ke_bindings::InterruptibleRelease release;
        pyd2ke::d2ke_features(*batch_, x.views, gamma, k, data, n_threads);
    }

    static std::vector<std::string> supported() {
        std::vector<std::string> names;
        for (pyd2ke::SimdLevel l : pyd2ke::supported_simd_levels()) names.push_back(pyd2ke::simd_level_name(l));
        return names;
    }

private:
    template <class T>
    void check_out(const py::array_t<T, py::array::c_style>& out, std::size_t n) const {
        if (out.ndim() != 2 || static_cast<std::size_t>(out.shape(0)) != n ||
            static_cast<std::size_t>(out.shape(1)) != batch_->size())
            throw py::value_error("out must have shape (" + std::to_string(n) + ", " +
                                  std::to_string(batch_->size()) + ")");
        if (!out.writeable()) throw py::value_error("out must be writeable");
    }

    std::unique_ptr<pyd2ke::LevenshteinBatch> batch_;
};

std::size_t levenshtein_pair(py::object a, py::object b, const std::string& algorithm) {
    py::list both;
    both.append(a);
    both.append(b);
    const std::vector<pyd2ke::TextView> v = text_views(both, "strings").views;
    if (algorithm == "reference") return pyd2ke::levenshtein_reference(v[0], v[1]);
    if (algorithm == "blocked") return pyd2ke::levenshtein(v[0], v[1], pyd2ke::MyersVariant::blocked);
    if (algorithm == "auto") return pyd2ke::levenshtein(v[0], v[1]);
    throw py::value_error("algorithm must be 'auto', 'blocked' or 'reference', got '" + algorithm + "'");
}

}  // namespace

void bind_strings(py::module_& m) {
    m.def("levenshtein", &levenshtein_pair, py::arg("a"), py::arg("b"), py::arg("algorithm") = "auto",
          "Levenshtein distance of two str or two bytes objects.");

    py::class_<PyLevenshteinBatch>(m, "LevenshteinBatch")
        .def(py::init<py::list, const std::string&>(), py::arg("patterns"), py::arg("simd") = "auto")
        .def("__len__", &PyLevenshteinBatch::size)
        .def_property_readonly("simd_level", &PyLevenshteinBatch::simd_level)
        .def("distances_into", &PyLevenshteinBatch::distances_into<double>, py::arg("texts"), py::arg("out").noconvert(),
             py::arg("n_threads"))
        .def("distances_into", &PyLevenshteinBatch::distances_into<float>, py::arg("texts"), py::arg("out").noconvert(),
             py::arg("n_threads"))
        .def("features_into", &PyLevenshteinBatch::features_into<double>, py::arg("texts"), py::arg("gamma"),
             py::arg("kernel"), py::arg("out").noconvert(), py::arg("n_threads"))
        .def("features_into", &PyLevenshteinBatch::features_into<float>, py::arg("texts"), py::arg("gamma"),
             py::arg("kernel"), py::arg("out").noconvert(), py::arg("n_threads"))
        .def_static("supported_simd_levels", &PyLevenshteinBatch::supported);
}
