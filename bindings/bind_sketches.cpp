// String sketches (ESP characteristic vectors, CGK walks) and the
// space-efficient hashed random Fourier features that consume them.

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cstdint>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include <pyd2ke/features/hashed_fourier.hpp>
#include <pyd2ke/sketch/cgk.hpp>
#include <pyd2ke/sketch/esp.hpp>

#include "conversions.hpp"

namespace py = pybind11;
using pyd2ke_bindings::text_views;

namespace {

// A numpy array that takes over a vector's buffer (no copy).
template <class T>
py::array_t<T> take(std::vector<T>&& v) {
    auto* owner = new std::vector<T>(std::move(v));
    py::capsule free_owner(owner, [](void* p) { delete static_cast<std::vector<T>*>(p); });
    return py::array_t<T>(static_cast<py::ssize_t>(owner->size()), owner->data(), free_owner);
}

py::tuple esp_sketches(py::list strings, int n_threads) {
    const pyd2ke_bindings::TextList texts = text_views(strings, "X");
    pyd2ke::EspSketches s;
    {
        pyd2ke_bindings::InterruptibleRelease release;
        s = pyd2ke::esp_sketch_batch(texts.views, n_threads);
    }
    return py::make_tuple(take(std::move(s.labels)), take(std::move(s.counts)), take(std::move(s.offsets)));
}

using Labels = py::array_t<std::uint64_t, py::array::c_style>;
using Counts = py::array_t<double, py::array::c_style>;
using Offsets = py::array_t<std::int64_t, py::array::c_style>;

void check_sketch(const Labels& l, const Counts& c, const Offsets& o, const char* name) {
    if (l.ndim() != 1 || c.ndim() != 1 || o.ndim() != 1 || l.shape(0) != c.shape(0) || o.shape(0) < 1 ||
        o.data()[0] != 0 || o.data()[o.shape(0) - 1] != l.shape(0))
        throw py::value_error(std::string(name) + ": labels, counts and offsets do not form a sketch");
}

template <class T>
void esp_l1_into(Labels xl, Counts xc, Offsets xo, Labels yl, Counts yc, Offsets yo,
                 py::array_t<T, py::array::c_style> out, int n_threads) {
    check_sketch(xl, xc, xo, "X");
    check_sketch(yl, yc, yo, "Y");
    const std::size_t nx = static_cast<std::size_t>(xo.shape(0) - 1), ny = static_cast<std::size_t>(yo.shape(0) - 1);
    if (out.ndim() != 2 || static_cast<std::size_t>(out.shape(0)) != nx || static_cast<std::size_t>(out.shape(1)) != ny)
        throw py::value_error("out must have shape (len(X), len(Y))");
    T* o = out.mutable_data();
    pyd2ke_bindings::InterruptibleRelease release;
    pyd2ke::esp_l1_distances(xl.data(), xc.data(), xo.data(), nx, yl.data(), yc.data(), yo.data(), ny, o, n_threads);
}

py::tuple cgk_walks(py::list strings, std::uint64_t seed, std::size_t fixed_length, int n_threads) {
    const pyd2ke_bindings::TextList texts = text_views(strings, "X");
    std::vector<std::int64_t> offsets;
    std::vector<std::uint32_t> symbols;
    {
        pyd2ke_bindings::InterruptibleRelease release;
        symbols = pyd2ke::cgk_embed_batch(texts.views, seed, fixed_length, offsets, n_threads);
    }
    return py::make_tuple(take(std::move(symbols)), take(std::move(offsets)));
}

pyd2ke::FourierKernel kernel_from_name(const std::string& name) {
    if (name == "laplacian") return pyd2ke::FourierKernel::laplacian;
    if (name == "rbf") return pyd2ke::FourierKernel::rbf;
    throw py::value_error("kernel must be 'laplacian' or 'rbf', got '" + name + "'");
}

class PyHashedFourier {
public:
    PyHashedFourier(const std::string& kernel, double bandwidth, std::size_t n_components, std::uint64_t seed,
                    const std::string& simd)
        : f_(kernel_from_name(kernel), bandwidth, n_components, seed, pyd2ke_bindings::checked_simd_level(simd)) {}

    double weight(std::uint64_t j, std::size_t k) const { return f_.weight(j, k); }

    py::array_t<double> weights(std::uint64_t first, std::size_t count, int n_threads) const {
        py::array_t<double> W({static_cast<py::ssize_t>(count), static_cast<py::ssize_t>(f_.half())});
        double* w = W.mutable_data();
        pyd2ke_bindings::InterruptibleRelease release;
        f_.weights(first, count, w, n_threads);
        return W;
    }

    template <class T>
    void cos_sin_into(py::array_t<double, py::array::c_style> P, py::array_t<T, py::array::c_style> out,
                      int n_threads) const {
        const std::size_t rows = check_out(out);
        if (P.ndim() != 2 || static_cast<std::size_t>(P.shape(0)) != rows ||
            static_cast<std::size_t>(P.shape(1)) != f_.half())
            throw py::value_error("P must have shape (rows, n_components / 2)");
        const double* p = P.data();
        T* o = out.mutable_data();
        pyd2ke_bindings::InterruptibleRelease release;
        f_.cos_sin(p, rows, o, n_threads);
    }

    template <class Index, class T>
    void sparse_into(py::array_t<Index, py::array::c_style> ids, py::array_t<double, py::array::c_style> values,
                     Offsets indptr, py::array_t<T, py::array::c_style> out, int n_threads) const {
        const std::size_t rows = check_out(out);
        if (ids.ndim() != 1 || values.ndim() != 1 || ids.shape(0) != values.shape(0) || indptr.ndim() != 1 ||
            static_cast<std::size_t>(indptr.shape(0)) != rows + 1 || indptr.data()[0] != 0 ||
            indptr.data()[rows] > ids.shape(0))
            throw py::value_error("indices, values and indptr do not describe out.shape[0] sparse rows");
        for (std::size_t i = 0; i < rows; ++i)
            if (indptr.data()[i + 1] < indptr.data()[i]) throw py::value_error("indptr must be non-decreasing");
        const Index* id = ids.data();
        const double* v = values.data();
        const std::int64_t* ip = indptr.data();
        T* o = out.mutable_data();
        pyd2ke_bindings::InterruptibleRelease release;
        f_.transform_sparse(id, v, ip, rows, o, n_threads);
    }

private:
    template <class T>
    std::size_t check_out(py::array_t<T, py::array::c_style>& out) const {
        if (out.ndim() != 2 || static_cast<std::size_t>(out.shape(1)) != f_.n_components())
            throw py::value_error("out must have shape (rows, n_components)");
        if (!out.writeable()) throw py::value_error("out must be writeable");
        return static_cast<std::size_t>(out.shape(0));
    }

    pyd2ke::HashedRandomFourier f_;
};

}  // namespace

void bind_sketches(py::module_& m) {
    m.def("esp_sketches", &esp_sketches, py::arg("strings"), py::arg("n_threads"),
          "ESP characteristic vectors: (labels uint64, counts float64, offsets int64), labels sorted per string.");
    m.def("esp_l1_into", &esp_l1_into<double>, py::arg("xl").noconvert(), py::arg("xc").noconvert(),
          py::arg("xo").noconvert(), py::arg("yl").noconvert(), py::arg("yc").noconvert(), py::arg("yo").noconvert(),
          py::arg("out").noconvert(), py::arg("n_threads"));
    m.def("esp_l1_into", &esp_l1_into<float>, py::arg("xl").noconvert(), py::arg("xc").noconvert(),
          py::arg("xo").noconvert(), py::arg("yl").noconvert(), py::arg("yc").noconvert(), py::arg("yo").noconvert(),
          py::arg("out").noconvert(), py::arg("n_threads"));
    m.def("cgk_walks", &cgk_walks, py::arg("strings"), py::arg("seed"), py::arg("fixed_length"), py::arg("n_threads"),
          "CGK walks: (symbols uint32, offsets int64); 3 n symbols per string when fixed_length == 0.");
    m.attr("CGK_PAD") = py::int_(pyd2ke::kCgkPad);
    py::class_<PyHashedFourier>(m, "HashedFourier")
        .def(py::init<const std::string&, double, std::size_t, std::uint64_t, const std::string&>(), py::arg("kernel"),
             py::arg("bandwidth"), py::arg("n_components"), py::arg("seed"), py::arg("simd") = "auto")
        .def("weight", &PyHashedFourier::weight, py::arg("j"), py::arg("k"))
        .def("weights", &PyHashedFourier::weights, py::arg("first"), py::arg("count"), py::arg("n_threads"))
        .def("cos_sin_into", &PyHashedFourier::cos_sin_into<double>, py::arg("P").noconvert(),
             py::arg("out").noconvert(), py::arg("n_threads"))
        .def("cos_sin_into", &PyHashedFourier::cos_sin_into<float>, py::arg("P").noconvert(),
             py::arg("out").noconvert(), py::arg("n_threads"))
        .def("sparse_into", &PyHashedFourier::sparse_into<std::uint64_t, double>, py::arg("ids").noconvert(),
             py::arg("values").noconvert(), py::arg("indptr").noconvert(), py::arg("out").noconvert(),
             py::arg("n_threads"))
        .def("sparse_into", &PyHashedFourier::sparse_into<std::uint64_t, float>, py::arg("ids").noconvert(),
             py::arg("values").noconvert(), py::arg("indptr").noconvert(), py::arg("out").noconvert(),
             py::arg("n_threads"))
        .def("sparse_into", &PyHashedFourier::sparse_into<std::int32_t, double>, py::arg("ids").noconvert(),
             py::arg("values").noconvert(), py::arg("indptr").noconvert(), py::arg("out").noconvert(),
             py::arg("n_threads"))
        .def("sparse_into", &PyHashedFourier::sparse_into<std::int32_t, float>, py::arg("ids").noconvert(),
             py::arg("values").noconvert(), py::arg("indptr").noconvert(), py::arg("out").noconvert(),
             py::arg("n_threads"))
        .def("sparse_into", &PyHashedFourier::sparse_into<std::int64_t, double>, py::arg("ids").noconvert(),
             py::arg("values").noconvert(), py::arg("indptr").noconvert(), py::arg("out").noconvert(),
             py::arg("n_threads"))
        .def("sparse_into", &PyHashedFourier::sparse_into<std::int64_t, float>, py::arg("ids").noconvert(),
             py::arg("values").noconvert(), py::arg("indptr").noconvert(), py::arg("out").noconvert(),
             py::arg("n_threads"));
}
