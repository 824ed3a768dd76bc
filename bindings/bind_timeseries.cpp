// Time series: DTW distances and D2KE features. Series arrive packed:
// values (total_steps, channels), C-contiguous, and offsets (n + 1,) int64,
// series i being rows offsets[i]..offsets[i+1]; the Python layer validates
// them (finite values, no empty series) before they get here.

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <memory>
#include <string>
#include <vector>

#include <pyd2ke/distance/dtw.hpp>
#include <pyd2ke/embed/d2ke.hpp>

#include "conversions.hpp"

namespace py = pybind11;

namespace {

template <class T>
using Values = py::array_t<T, py::array::c_style>;
using Offsets = py::array_t<std::int64_t, py::array::c_style>;

template <class T>
std::vector<pyd2ke::SeriesView<T>> series_views(const Values<T>& values, const Offsets& offsets) {
    if (values.ndim() != 2) throw py::value_error("values must be 2-D (total_steps, channels)");
    if (offsets.ndim() != 1 || offsets.shape(0) < 1) throw py::value_error("offsets must be 1-D and non-empty");
    const std::size_t channels = static_cast<std::size_t>(values.shape(1));
    const std::int64_t* off = offsets.data();
    const std::size_t n = static_cast<std::size_t>(offsets.shape(0)) - 1;
    if (off[0] != 0 || off[n] != values.shape(0)) throw py::value_error("offsets do not match values");
    std::vector<pyd2ke::SeriesView<T>> views;
    views.reserve(n);
    for (std::size_t i = 0; i < n; ++i) {
        if (off[i + 1] <= off[i]) throw py::value_error("series " + std::to_string(i) + " is empty");
        views.emplace_back(values.data() + off[i] * channels, static_cast<std::size_t>(off[i + 1] - off[i]),
                           channels);
    }
    return views;
}

// A DtwBatch over packed series; T is the arithmetic precision.
template <class T>
class PyDtwBatch {
public:
    // The batch copies the series, so values and offsets need not outlive it.
    PyDtwBatch(Values<T> values, Offsets offsets, long window, const std::string& simd) {
        batch_ = std::make_unique<pyd2ke::DtwBatch<T>>(series_views(values, offsets), window,
                                                       pyd2ke_bindings::checked_simd_level(simd));
    }

    std::size_t size() const { return batch_->size(); }

    template <class Out>
    void distances_into(Values<T> values, Offsets offsets, py::array_t<Out, py::array::c_style> out,
                        int n_threads) const {
        const auto x = checked_input(values, offsets, out);
        Out* data = out.mutable_data();
        pyd2ke_bindings::InterruptibleRelease release;
        pyd2ke::d2ke_distances(*batch_, x, data, n_threads);
    }

    template <class Out>
    void features_into(Values<T> values, Offsets offsets, double gamma, const std::string& kernel,
                       py::array_t<Out, py::array::c_style> out, int n_threads) const {
        const auto x = checked_input(values, offsets, out);
        const pyd2ke::D2KEKernel k = pyd2ke_bindings::d2ke_kernel_from_name(kernel);
        Out* data = out.mutable_data();
        pyd2ke_bindings::InterruptibleRelease release;
        pyd2ke::d2ke_features(*batch_, x, gamma, k, data, n_threads);
    }

private:
    template <class Out>
    std::vector<pyd2ke::SeriesView<T>> checked_input(const Values<T>& values, const Offsets& offsets,
                                                    const py::array_t<Out, py::array::c_style>& out) const {
        auto x = series_views(values, offsets);
        if (static_cast<std::size_t>(values.shape(1)) != batch_->channels())
            throw py::value_error("series have " + std::to_string(values.shape(1)) + " channels, expected " +
                                  std::to_string(batch_->channels()));
        if (out.ndim() != 2 || static_cast<std::size_t>(out.shape(0)) != x.size() ||
            static_cast<std::size_t>(out.shape(1)) != batch_->size())
            throw py::value_error("out must have shape (" + std::to_string(x.size()) + ", " +
                                  std::to_string(batch_->size()) + ")");
        if (!out.writeable()) throw py::value_error("out must be writeable");
        return x;
    }

    std::unique_ptr<pyd2ke::DtwBatch<T>> batch_;
};

template <class T>
void bind_dtw_batch(py::module_& m, const char* name) {
    py::class_<PyDtwBatch<T>>(m, name)
        .def(py::init<Values<T>, Offsets, long, const std::string&>(), py::arg("values"), py::arg("offsets"),
             py::arg("window") = -1, py::arg("simd") = "auto")
        .def("__len__", &PyDtwBatch<T>::size)
        .def("distances_into", &PyDtwBatch<T>::template distances_into<double>, py::arg("values").noconvert(),
             py::arg("offsets").noconvert(), py::arg("out").noconvert(), py::arg("n_threads"))
        .def("distances_into", &PyDtwBatch<T>::template distances_into<float>, py::arg("values").noconvert(),
             py::arg("offsets").noconvert(), py::arg("out").noconvert(), py::arg("n_threads"))
        .def("features_into", &PyDtwBatch<T>::template features_into<double>, py::arg("values").noconvert(),
             py::arg("offsets").noconvert(), py::arg("gamma"), py::arg("kernel"), py::arg("out").noconvert(),
             py::arg("n_threads"))
        .def("features_into", &PyDtwBatch<T>::template features_into<float>, py::arg("values").noconvert(),
             py::arg("offsets").noconvert(), py::arg("gamma"), py::arg("kernel"), py::arg("out").noconvert(),
             py::arg("n_threads"));
}

template <class T>
double dtw_pair(Values<T> x, Values<T> y, long window, const std::string& algorithm) {
    if (x.ndim() != 2 || y.ndim() != 2) throw py::value_error("series must be 2-D (length, channels)");
    const pyd2ke::SeriesView<T> a(x.data(), x.shape(0), x.shape(1)), b(y.data(), y.shape(0), y.shape(1));
    if (algorithm == "reference") return pyd2ke::dtw_reference(a, b, window);
    if (algorithm == "auto") return static_cast<double>(pyd2ke::dtw(a, b, window));
    throw py::value_error("algorithm must be 'auto' or 'reference'");
}

}  // namespace

void bind_timeseries(py::module_& m) {
    bind_dtw_batch<double>(m, "DtwBatch64");
    bind_dtw_batch<float>(m, "DtwBatch32");
    m.def("dtw", &dtw_pair<double>, py::arg("x").noconvert(), py::arg("y").noconvert(), py::arg("window") = -1,
          py::arg("algorithm") = "auto", "DTW of two float64 series shaped (length, channels).");
    m.def("dtw", &dtw_pair<float>, py::arg("x").noconvert(), py::arg("y").noconvert(), py::arg("window") = -1,
          py::arg("algorithm") = "auto", "DTW of two float32 series shaped (length, channels).");
}
