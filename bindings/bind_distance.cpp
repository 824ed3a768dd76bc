// distance/: Levenshtein, DTW, Hausdorff and Earth Mover's distances, as
// pair functions and as batches of random objects (with the D2KE methods of
// bind_embed.hpp). Strings arrive as a list of str or bytes; series and sets
// arrive packed, values (total_rows, width) C-contiguous and offsets (n + 1,)
// int64, and for documents weights (total_points,) float64. The Python layer
// validates them (finite values, no empty objects, non-negative weights)
// before they get here.

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <pyd2ke/distance/dtw.hpp>
#include <pyd2ke/distance/emd.hpp>
#include <pyd2ke/distance/emd_batch.hpp>
#include <pyd2ke/distance/emd_vocabulary.hpp>
#include <pyd2ke/distance/hausdorff.hpp>
#include <pyd2ke/distance/levenshtein.hpp>
#include <pyd2ke/distance/subsequence_dtw.hpp>

#include "bind_embed.hpp"
#include "conversions.hpp"

namespace py = pybind11;
using namespace pyd2ke_bindings;

namespace {

// The objects a batch takes, from what Input::read returned.
inline const std::vector<pyd2ke::TextView>& objects_of(const TextList& texts) { return texts.views; }
template <class View>
const std::vector<View>& objects_of(const std::vector<View>& views) {
    return views;
}

// The number of values per row of packed inputs must be the batch's.
template <class T>
void check_row_width(const CArray<T>& values, std::size_t expected, const std::string& what) {
    if (static_cast<std::size_t>(values.shape(1)) != expected)
        throw py::value_error(what + " " + std::to_string(values.shape(1)) + ", expected " + std::to_string(expected));
}

// A batch bound to Python. The batch copies its random objects, so the
// Python arguments it was built from need not outlive it. Input::read(batch,
// inputs...) turns a method's input arguments (types Inputs...) into the
// batch's objects.
template <class Batch, class Input, class... Inputs>
class PyBatch {
public:
    explicit PyBatch(std::unique_ptr<Batch> batch) : batch_(std::move(batch)) {}

    std::size_t size() const { return batch_->size(); }
    const Batch& batch() const { return *batch_; }

    template <class Out>
    void distances_into(Inputs... inputs, CArray<Out> out, int n_threads) const {
        const auto x = Input::read(*batch_, inputs...);
        d2ke_distances_into(*batch_, objects_of(x), out, n_threads);
    }

    template <class Out>
    void features_into(Inputs... inputs, double gamma, const std::string& kernel, CArray<Out> out,
                       int n_threads) const {
        const auto x = Input::read(*batch_, inputs...);
        d2ke_features_into(*batch_, objects_of(x), gamma, kernel, out, n_threads);
    }

private:
    std::unique_ptr<Batch> batch_;
};

// --- strings ------------------------------------------------------------------------

struct TextInput {
    static TextList read(const pyd2ke::LevenshteinBatch&, const py::list& texts) { return text_views(texts, "X"); }
};
using PyLevenshteinBatch = PyBatch<pyd2ke::LevenshteinBatch, TextInput, py::list>;

std::vector<std::string> supported_simd_levels() {
    std::vector<std::string> names;
    for (pyd2ke::SimdLevel l : pyd2ke::supported_simd_levels()) names.push_back(pyd2ke::simd_level_name(l));
    return names;
}

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

void bind_levenshtein(py::module_& m) {
    m.def("levenshtein", &levenshtein_pair, py::arg("a"), py::arg("b"), py::arg("algorithm") = "auto",
          "Levenshtein distance of two str or two bytes objects.");
    py::class_<PyLevenshteinBatch> cls(m, "LevenshteinBatch");
    cls.def(py::init([](py::list patterns, const std::string& simd) {
                const pyd2ke::SimdLevel level = checked_simd_level(simd);
                const TextList texts = text_views(patterns, "patterns");
                return PyLevenshteinBatch(std::make_unique<pyd2ke::LevenshteinBatch>(texts.views, level));
            }),
            py::arg("patterns"), py::arg("simd") = "auto")
        .def("__len__", &PyLevenshteinBatch::size)
        .def_property_readonly("simd_level", [](const PyLevenshteinBatch& self) -> std::string {
            return pyd2ke::simd_level_name(self.batch().simd_level());
        });
    def_d2ke_methods(cls, py::arg("texts"));
    cls.def_static("supported_simd_levels", &supported_simd_levels);
}

// --- time series ------------------------------------------------------------------

template <class T>
struct SeriesInput {
    static std::vector<pyd2ke::SeriesView<T>> read(const pyd2ke::DtwBatch<T>& batch, const CArray<T>& values,
                                                   const Offsets& offsets) {
        auto x = series_views(values, offsets);
        check_row_width(values, batch.channels(), "number of channels");
        return x;
    }
};

// T is the arithmetic precision.
template <class T>
void bind_dtw_batch(py::module_& m, const char* name) {
    using Py = PyBatch<pyd2ke::DtwBatch<T>, SeriesInput<T>, CArray<T>, Offsets>;
    py::class_<Py> cls(m, name);
    cls.def(py::init([](CArray<T> values, Offsets offsets, long window, const std::string& simd) {
                return Py(std::make_unique<pyd2ke::DtwBatch<T>>(series_views(values, offsets), window,
                                                                checked_simd_level(simd)));
            }),
            py::arg("values"), py::arg("offsets"), py::arg("window") = -1, py::arg("simd") = "auto")
        .def("__len__", &Py::size);
    def_d2ke_methods(cls, py::arg("values").noconvert(), py::arg("offsets").noconvert());
}

template <class T>
double dtw_pair(CArray<T> x, CArray<T> y, long window, const std::string& algorithm) {
    if (x.ndim() != 2 || y.ndim() != 2) throw py::value_error("series must be 2-D (length, channels)");
    const pyd2ke::SeriesView<T> a(x.data(), x.shape(0), x.shape(1)), b(y.data(), y.shape(0), y.shape(1));
    if (algorithm == "reference") return pyd2ke::dtw_reference(a, b, window);
    if (algorithm == "auto") return static_cast<double>(pyd2ke::dtw(a, b, window));
    throw py::value_error("algorithm must be 'auto' or 'reference'");
}

template <class T>
py::array_t<T> subsequence_end_costs(CArray<T> x, CArray<T> w, std::size_t dilation, const std::string& algorithm) {
    if (x.ndim() != 2 || w.ndim() != 2) throw py::value_error("series must be 2-D (length, channels)");
    if (x.shape(1) != w.shape(1)) throw py::value_error("x and w must have the same number of channels");
    const pyd2ke::SeriesView<T> a(x.data(), x.shape(0), x.shape(1)), b(w.data(), w.shape(0), w.shape(1));
    if (algorithm == "reference") {
        const std::vector<double> costs = pyd2ke::subsequence_end_costs_reference(a, b, dilation);
        py::array_t<T> out(static_cast<py::ssize_t>(costs.size()));
        std::copy(costs.begin(), costs.end(), out.mutable_data());
        return out;
    }
    if (algorithm != "auto") throw py::value_error("algorithm must be 'auto' or 'reference'");
    py::array_t<T> out(x.shape(0));
    pyd2ke::subsequence_end_costs(a, b, dilation, out.mutable_data());
    return out;
}

// Local features of packed inputs against packed shapes (local_series_features).
template <class T>
void local_series_features_into(CArray<T> values, Offsets offsets, CArray<T> shape_values, Offsets shape_offsets,
                                Offsets dilations, std::size_t n_match, CArray<T> thresholds, double gamma,
                                const std::string& kernel, double factor, CArray<T> out, int n_threads) {
    if (kernel != "soft" && kernel != "direct") throw py::value_error("kernel must be 'soft' or 'direct'");
    const auto inputs = series_views(values, offsets);
    const auto shapes = series_views(shape_values, shape_offsets);
    check_row_width(values, static_cast<std::size_t>(shape_values.shape(1)), "number of channels");
    const std::size_t R = shapes.size();
    if (static_cast<std::size_t>(dilations.size()) != R)
        throw py::value_error("dilations must have one value per shape");
    if (n_match > R || static_cast<std::size_t>(thresholds.size()) != R - n_match)
        throw py::value_error("thresholds must have one value per occurrence shape");
    if (out.ndim() != 2 || static_cast<std::size_t>(out.shape(0)) != inputs.size() ||
        static_cast<std::size_t>(out.shape(1)) != R || !out.writeable())
        throw py::value_error("out must be a writeable (inputs, shapes) array");
    std::vector<std::size_t> steps(R);
    for (std::size_t j = 0; j < R; ++j) {
        if (dilations.data()[j] < 1) throw py::value_error("dilations must be >= 1");
        steps[j] = static_cast<std::size_t>(dilations.data()[j]);
    }
    T* target = out.mutable_data();
    InterruptibleRelease release;
    pyd2ke::local_series_features(inputs, shapes, steps.data(), n_match, thresholds.data(), static_cast<T>(gamma),
                                  kernel == "soft", static_cast<T>(factor), target, n_threads);
}

template <class T>
void bind_local_series(py::module_& m) {
    m.def("subsequence_end_costs", &subsequence_end_costs<T>, py::arg("x").noconvert(), py::arg("w").noconvert(),
          py::arg("dilation"), py::arg("algorithm") = "auto",
          "Subsequence DTW cost of all of w against x ending at each step of x (both (length, channels)).");
    m.def("local_series_features_into", &local_series_features_into<T>, py::arg("values").noconvert(),
          py::arg("offsets").noconvert(), py::arg("shape_values").noconvert(), py::arg("shape_offsets").noconvert(),
          py::arg("dilations").noconvert(), py::arg("n_match"), py::arg("thresholds").noconvert(), py::arg("gamma"),
          py::arg("kernel"), py::arg("factor"), py::arg("out").noconvert(), py::arg("n_threads"),
          "Best-match (first n_match shapes) and occurrence features of packed series, times factor, into out.");
}

void bind_dtw(py::module_& m) {
    bind_local_series<double>(m);
    bind_local_series<float>(m);
    bind_dtw_batch<double>(m, "DtwBatch64");
    bind_dtw_batch<float>(m, "DtwBatch32");
    m.def("dtw", &dtw_pair<double>, py::arg("x").noconvert(), py::arg("y").noconvert(), py::arg("window") = -1,
          py::arg("algorithm") = "auto", "DTW of two float64 series shaped (length, channels).");
    m.def("dtw", &dtw_pair<float>, py::arg("x").noconvert(), py::arg("y").noconvert(), py::arg("window") = -1,
          py::arg("algorithm") = "auto", "DTW of two float32 series shaped (length, channels).");
}

// --- sets and documents ------------------------------------------------------------

// Sets with optional weights (None: uniform), against a SetDistanceBatch or
// an EmdBatch.
template <class T>
struct SetInput {
    template <class Batch>
    static std::vector<pyd2ke::PointSetView<T>> read(const Batch& batch, const CArray<T>& values,
                                                     const std::optional<Weights>& weights, const Offsets& offsets) {
        auto x = set_views(values, offsets, weights ? &*weights : nullptr);
        check_row_width(values, batch.dim(), "number of coordinates");
        return x;
    }
};

template <class Batch, class T>
using PySetBatch = PyBatch<Batch, SetInput<T>, CArray<T>, std::optional<Weights>, Offsets>;

template <class Batch, class T>
void def_set_methods(py::class_<PySetBatch<Batch, T>>& cls) {
    cls.def("__len__", &PySetBatch<Batch, T>::size);
    def_d2ke_methods(cls, py::arg("values").noconvert(), py::arg("weights").noconvert(),
                     py::arg("offsets").noconvert());
}

template <class T>
void bind_hausdorff_batch(py::module_& m, const char* name) {
    using Batch = pyd2ke::SetDistanceBatch<T>;
    py::class_<PySetBatch<Batch, T>> cls(m, name);
    cls.def(py::init([](CArray<T> values, Offsets offsets, const std::string& metric, const std::string& simd) {
                const pyd2ke::SetMetric set_metric = pyd2ke::set_metric_from_name(metric);
                return PySetBatch<Batch, T>(
                    std::make_unique<Batch>(set_views(values, offsets, nullptr), set_metric, checked_simd_level(simd)));
            }),
            py::arg("values"), py::arg("offsets"), py::arg("metric"), py::arg("simd") = "auto");
    def_set_methods<Batch, T>(cls);
}

// Documents as word ids into a vocabulary (vocabulary_size, dim), with
// weights and offsets as for packed documents (emd_vocabulary.hpp).
template <class T, class Out>
pyd2ke::VocabularyDocuments<T> vocabulary_documents(const CArray<T>& vocabulary, const Offsets& word_ids,
                                                    const Weights& weights, const Offsets& offsets,
                                                    const CArray<Out>& out, std::size_t n_random) {
    if (vocabulary.ndim() != 2) throw py::value_error("vocabulary must be 2-D (vocabulary_size, dim)");
    if (offsets.ndim() != 1 || offsets.shape(0) < 1) throw py::value_error("offsets must be 1-D and non-empty");
    const std::size_t n = static_cast<std::size_t>(offsets.shape(0)) - 1;
    if (word_ids.ndim() != 1 || weights.ndim() != 1 || word_ids.shape(0) != weights.shape(0) ||
        offsets.data()[n] != word_ids.shape(0))
        throw py::value_error("word_ids and weights must be 1-D, one per word, as offsets say");
    check_out(out, n, n_random);
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

template <class T, class Out>
void def_vocabulary_methods(py::class_<PySetBatch<pyd2ke::EmdBatch<T>, T>>& cls) {
    using Py = PySetBatch<pyd2ke::EmdBatch<T>, T>;
    cls.def(
           "vocabulary_distances_into",
           [](const Py& self, CArray<T> vocabulary, Offsets word_ids, Weights weights, Offsets offsets,
              CArray<Out> out, int n_threads) {
               const auto docs = vocabulary_documents(vocabulary, word_ids, weights, offsets, out, self.size());
               Out* data = out.mutable_data();
               InterruptibleRelease release;
               pyd2ke::emd_vocabulary_distances(self.batch(), docs, data, n_threads);
           },
           py::arg("vocabulary").noconvert(), py::arg("word_ids").noconvert(), py::arg("weights").noconvert(),
           py::arg("offsets").noconvert(), py::arg("out").noconvert(), py::arg("n_threads"))
        .def(
            "vocabulary_features_into",
            [](const Py& self, CArray<T> vocabulary, Offsets word_ids, Weights weights, Offsets offsets,
               double gamma, const std::string& kernel, CArray<Out> out, int n_threads) {
                const auto docs = vocabulary_documents(vocabulary, word_ids, weights, offsets, out, self.size());
                const pyd2ke::D2KEKernel k = d2ke_kernel_from_name(kernel);
                Out* data = out.mutable_data();
                InterruptibleRelease release;
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
    cls.def(py::init([](CArray<T> values, Weights weights, Offsets offsets, const std::string& simd) {
                return PySetBatch<Batch, T>(
                    std::make_unique<Batch>(set_views(values, offsets, &weights), checked_simd_level(simd)));
            }),
            py::arg("values"), py::arg("weights"), py::arg("offsets"), py::arg("simd") = "auto");
    def_set_methods<Batch, T>(cls);
    def_vocabulary_methods<T, double>(cls);
    def_vocabulary_methods<T, float>(cls);
}

// EMD of one transportation problem given its cost matrix (n, m).
double emd_cost(CArray<double> cost, Weights a, Weights b) {
    if (cost.ndim() != 2) throw py::value_error("cost must be 2-D");
    if (a.ndim() != 1 || b.ndim() != 1 || a.shape(0) != cost.shape(0) || b.shape(0) != cost.shape(1))
        throw py::value_error("a and b must be 1-D and match the cost matrix's shape");
    pyd2ke::EmdWorkspace ws;
    return pyd2ke::emd_from_cost(cost.data(), static_cast<std::size_t>(cost.shape(0)),
                                 static_cast<std::size_t>(cost.shape(1)), a.data(), b.data(), ws);
}

template <class T>
double set_distance_pair(CArray<T> x, CArray<T> y, const std::string& metric) {
    if (x.ndim() != 2 || y.ndim() != 2) throw py::value_error("sets must be 2-D (size, dim)");
    const pyd2ke::PointSetView<T> a(x.data(), x.shape(0), x.shape(1)), b(y.data(), y.shape(0), y.shape(1));
    return pyd2ke::set_distance_reference(a, b, pyd2ke::set_metric_from_name(metric));
}

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

}  // namespace

void bind_distance(py::module_& m) {
    bind_levenshtein(m);
    bind_dtw(m);
    bind_sets(m);
}
