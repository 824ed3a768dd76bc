// Sets of vectors and documents: Hausdorff / modified Hausdorff and Earth
// Mover's distances, and their D2KE features. Sets arrive packed: values
// (total_points, dim), C-contiguous, offsets (n + 1,) int64, and for
// documents weights (total_points,) float64; the Python layer validates
// them (finite values, non-empty sets, non-negative weights) first.

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <pyd2ke/distance/emd.hpp>
#include <pyd2ke/distance/emd_batch.hpp>
#include <pyd2ke/distance/emd_vocabulary.hpp>
#include <pyd2ke/distance/hausdorff.hpp>
#include <pyd2ke/embed/d2ke.hpp>

#include "conversions.hpp"

namespace py = pybind11;

namespace {

template <class T>
using Values = py::array_t<T, py::array::c_style>;
using Weights = py::array_t<double, py::array::c_style>;
using Offsets = py::array_t<std::int64_t, py::array::c_style>;

// Views of packed sets; weights may be None (uniform).
template <class T>
std::vector<pyd2ke::PointSetView<T>> set_views(const Values<T>& values, const Offsets& offsets,
                                               const Weights* weights) {
    if (values.ndim() != 2) throw py::value_error("values must be 2-D (total_points, dim)");
    if (offsets.ndim() != 1 || offsets.shape(0) < 1) throw py::value_error("offsets must be 1-D and non-empty");
    const std::size_t dim = static_cast<std::size_t>(values.shape(1));
    const std::int64_t* off = offsets.data();
    const std::size_t n = static_cast<std::size_t>(offsets.shape(0)) - 1;
    if (off[0] != 0 || off[n] != values.shape(0)) throw py::value_error("offsets do not match values");
    if (weights && (weights->ndim() != 1 || weights->shape(0) != values.shape(0)))
        throw py::value_error("weights must be 1-D with one weight per point");
    std::vector<pyd2ke::PointSetView<T>> views;
    views.reserve(n);
    for (std::size_t i = 0; i < n; ++i) {
        if (off[i + 1] <= off[i]) throw py::value_error("set " + std::to_string(i) + " is empty");
        views.emplace_back(values.data() + off[i] * dim, static_cast<std::size_t>(off[i + 1] - off[i]), dim,
                           weights ? weights->data() + off[i] : nullptr);
    }
    return views;
}

// A batch (SetDistanceBatch or EmdBatch) over packed sets. The batch copies
// the sets, so the arrays need not outlive it.
template <class Batch, class T>
class PySetBatch {
public:
    explicit PySetBatch(std::unique_ptr<Batch> batch) : batch_(std::move(batch)) {}

    std::size_t size() const { return batch_->size(); }
    const Batch& batch() const { return *batch_; }

    template <class Out>
    void distances_into(Values<T> values, std::optional<Weights> weights, Offsets offsets,
                        py::array_t<Out, py::array::c_style> out, int n_threads) const {
        const auto x = checked_input(values, weights, offsets, out);
        Out* data = out.mutable_data();
        pyd2ke_bindings::InterruptibleRelease release;
        pyd2ke::d2ke_distances(*batch_, x, data, n_threads);
    }

    template <class Out>
    void features_into(Values<T> values, std::optional<Weights> weights, Offsets offsets, double gamma,
                       const std::string& kernel, py::array_t<Out, py::array::c_style> out, int n_threads) const {
        const auto x = checked_input(values, weights, offsets, out);
        const pyd2ke::D2KEKernel k = pyd2ke_bindings::d2ke_kernel_from_name(kernel);
        Out* data = out.mutable_data();
        pyd2ke_bindings::InterruptibleRelease release;
        pyd2ke::d2ke_features(*batch_, x, gamma, k, data, n_threads);
    }

private:
    template <class Out>
    std::vector<pyd2ke::PointSetView<T>> checked_input(const Values<T>& values, const std::optional<Weights>& weights,
                                                       const Offsets& offsets,
                                                       const py::array_t<Out, py::array::c_style>& out) const {
        auto x = set_views(values, offsets, weights ? &*weights : nullptr);
        if (static_cast<std::size_t>(values.shape(1)) != batch_->dim())
            throw py::value_error("points have " + std::to_string(values.shape(1)) + " coordinates, expected " +
                                  std::to_string(batch_->dim()));
        if (out.ndim() != 2 || static_cast<std::size_t>(out.shape(0)) != x.size() ||
            static_cast<std::size_t>(out.shape(1)) != batch_->size())
            throw py::value_error("out must have shape (" + std::to_string(x.size()) + ", " +
                                  std::to_string(batch_->size()) + ")");
        if (!out.writeable()) throw py::value_error("out must be writeable");
        return x;
    }

    std::unique_ptr<Batch> batch_;
};

template <class Batch, class T>
void add_batch_methods(py::class_<PySetBatch<Batch, T>>& cls) {
    using Py = PySetBatch<Batch, T>;
    cls.def("__len__", &Py::size)
        .def("distances_into", &Py::template distances_into<double>, py::arg("values").noconvert(),
             py::arg("weights").noconvert(), py::arg("offsets").noconvert(), py::arg("out").noconvert(),
             py::arg("n_threads"))
        .def("distances_into", &Py::template distances_into<float>, py::arg("values").noconvert(),
             py::arg("weights").noconvert(), py::arg("offsets").noconvert(), py::arg("out").noconvert(),
             py::arg("n_threads"))
        .def("features_into", &Py::template features_into<double>, py::arg("values").noconvert(),
             py::arg("weights").noconvert(), py::arg("offsets").noconvert(), py::arg("gamma"), py::arg("kernel"),
             py::arg("out").noconvert(), py::arg("n_threads"))
        .def("features_into", &Py::template features_into<float>, py::arg("values").noconvert(),
             py::arg("weights").noconvert(), py::arg("offsets").noconvert(), py::arg("gamma"), py::arg("kernel"),
             py::arg("out").noconvert(), py::arg("n_threads"));
}

template <class T>
void bind_hausdorff_batch(py::module_& m, const char* name) {
    using Batch = pyd2ke::SetDistanceBatch<T>;
    py::class_<PySetBatch<Batch, T>> cls(m, name);
    cls.def(py::init([](Values<T> values, Offsets offsets, const std::string& metric, const std::string& simd) {
                const pyd2ke::SetMetric set_metric = pyd2ke::set_metric_from_name(metric);
                auto batch = std::make_unique<Batch>(set_views(values, offsets, nullptr), set_metric,
                                                     pyd2ke_bindings::checked_simd_level(simd));
                return PySetBatch<Batch, T>(std::move(batch));
            }),
            py::arg("values"), py::arg("offsets"), py::arg("metric"), py::arg("simd") = "auto");
    add_batch_methods<Batch, T>(cls);
}

// Documents as word ids into a vocabulary (vocabulary_size, dim), with
// weights and offsets as for packed documents (emd_vocabulary.hpp).
template <class T, class Out>
pyd2ke::VocabularyDocuments<T> vocabulary_documents(const Values<T>& vocabulary, const Offsets& word_ids,
                                                    const Weights& weights, const Offsets& offsets,
                                                    const py::array_t<Out, py::array::c_style>& out,
                                                    std::size_t n_random) {
    if (vocabulary.ndim() != 2) throw py::value_error("vocabulary must be 2-D (vocabulary_size, dim)");
    if (offsets.ndim() != 1 || offsets.shape(0) < 1) throw py::value_error("offsets must be 1-D and non-empty");
    const std::size_t n = static_cast<std::size_t>(offsets.shape(0)) - 1;
    if (word_ids.ndim() != 1 || weights.ndim() != 1 || word_ids.shape(0) != weights.shape(0) ||
        offsets.data()[n] != word_ids.shape(0))
        throw py::value_error("word_ids and weights must be 1-D, one per word, as offsets say");
    if (out.ndim() != 2 || static_cast<std::size_t>(out.shape(0)) != n ||
        static_cast<std::size_t>(out.shape(1)) != n_random)
        throw py::value_error("out must have shape (" + std::to_string(n) + ", " + std::to_string(n_random) + ")");
    if (!out.writeable()) throw py::value_error("out must be writeable");
    pyd2ke::VocabularyDocuments<T> docs;
    docs.vocabulary = vocabulary.data();
    docs.vocabulary_size = static_cast<std::size_t>(vocabulary.shape(0));
    docs.dim = static_cast<std::size_t>(vocabulary.shape(1));
    docs.word_ids = word_ids.data();
    docs.weights = weights.data();
    docs.offsets = offsets.data();
    docs.count = n;
    return docs;
}

template <class T, class Out, class Cls>
void add_vocabulary_methods(Cls& cls) {
    using Py = PySetBatch<pyd2ke::EmdBatch<T>, T>;
    using OutArray = py::array_t<Out, py::array::c_style>;
    cls.def(
           "vocabulary_distances_into",
           [](const Py& self, Values<T> vocabulary, Offsets word_ids, Weights weights, Offsets offsets, OutArray out,
              int n_threads) {
               const auto docs = vocabulary_documents(vocabulary, word_ids, weights, offsets, out, self.size());
               Out* data = out.mutable_data();
               pyd2ke_bindings::InterruptibleRelease release;
               pyd2ke::emd_vocabulary_distances(self.batch(), docs, data, n_threads);
           },
           py::arg("vocabulary").noconvert(), py::arg("word_ids").noconvert(), py::arg("weights").noconvert(),
           py::arg("offsets").noconvert(), py::arg("out").noconvert(), py::arg("n_threads"))
        .def(
            "vocabulary_features_into",
            [](const Py& self, Values<T> vocabulary, Offsets word_ids, Weights weights, Offsets offsets,
               double gamma, const std::string& kernel, OutArray out, int n_threads) {
                const auto docs = vocabulary_documents(vocabulary, word_ids, weights, offsets, out, self.size());
                const pyd2ke::D2KEKernel k = pyd2ke_bindings::d2ke_kernel_from_name(kernel);
                Out* data = out.mutable_data();
                pyd2ke_bindings::InterruptibleRelease release;
                pyd2ke::emd_vocabulary_features(self.batch(), docs, gamma, k, data, n_threads);
            },
            py::arg("vocabulary").noconvert(), py::arg("word_ids").noconvert(), py::arg("weights").noconvert(),
            py::arg("offsets").noconvert(), py::arg("gamma"), py::arg("kernel"), py::arg("out").noconvert(),
            py::arg("n_threads"));
}

template <class T>
void bind_emd_batch(py::module_& m, const char* name) {
    using Batch = pyd2ke::EmdBatch<T>;
    py::class_<PySetBatch<Batch, T>> cls(m, name);
    cls.def(py::init([](Values<T> values, Weights weights, Offsets offsets, const std::string& simd) {
                auto batch = std::make_unique<Batch>(set_views(values, offsets, &weights),
                                                     pyd2ke_bindings::checked_simd_level(simd));
                return PySetBatch<Batch, T>(std::move(batch));
            }),
            py::arg("values"), py::arg("weights"), py::arg("offsets"), py::arg("simd") = "auto");
    add_batch_methods<Batch, T>(cls);
    add_vocabulary_methods<T, double>(cls);
    add_vocabulary_methods<T, float>(cls);
}

// EMD of one transportation problem given its cost matrix (n, m).
double emd_cost(py::array_t<double, py::array::c_style> cost, Weights a, Weights b) {
    if (cost.ndim() != 2) throw py::value_error("cost must be 2-D");
    if (a.ndim() != 1 || b.ndim() != 1 || a.shape(0) != cost.shape(0) || b.shape(0) != cost.shape(1))
        throw py::value_error("a and b must be 1-D and match the cost matrix's shape");
    pyd2ke::EmdWorkspace ws;
    return pyd2ke::emd_from_cost(cost.data(), static_cast<std::size_t>(cost.shape(0)),
                                 static_cast<std::size_t>(cost.shape(1)), a.data(), b.data(), ws);
}

template <class T>
double set_distance_pair(Values<T> x, Values<T> y, const std::string& metric) {
    if (x.ndim() != 2 || y.ndim() != 2) throw py::value_error("sets must be 2-D (size, dim)");
    const pyd2ke::PointSetView<T> a(x.data(), x.shape(0), x.shape(1)), b(y.data(), y.shape(0), y.shape(1));
    return pyd2ke::set_distance_reference(a, b, pyd2ke::set_metric_from_name(metric));
}

}  // namespace

void bind_sets(py::module_& m) {
    bind_hausdorff_batch<double>(m, "SetDistanceBatch64");
    bind_hausdorff_batch<float>(m, "SetDistanceBatch32");
    bind_emd_batch<double>(m, "EmdBatch64");
    bind_emd_batch<float>(m, "EmdBatch32");
    m.def("emd_from_cost", &emd_cost, py::arg("cost").noconvert(), py::arg("a").noconvert(),
          py::arg("b").noconvert(), "Exact EMD of one transportation problem (weights normalised inside).");
    m.def("set_distance_reference", &set_distance_pair<double>, py::arg("x").noconvert(), py::arg("y").noconvert(),
          py::arg("metric"), "Hausdorff / modified Hausdorff from differences (the slow definition).");
}
