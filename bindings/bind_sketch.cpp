// sketch/: string sketches, ESP characteristic vectors and CGK walks (the
// hashed random Fourier features that consume them are in bind_features.cpp).

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <cstdint>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include <pyd2ke/sketch/cgk.hpp>
#include <pyd2ke/sketch/esp.hpp>

#include "conversions.hpp"

namespace py = pybind11;
using namespace pyd2ke_bindings;

namespace {

// A numpy array that takes over a vector's buffer (no copy).
template <class T>
py::array_t<T> take(std::vector<T>&& v) {
    auto* owner = new std::vector<T>(std::move(v));
    py::capsule free_owner(owner, [](void* p) { delete static_cast<std::vector<T>*>(p); });
    return py::array_t<T>(static_cast<py::ssize_t>(owner->size()), owner->data(), free_owner);
}

py::tuple esp_sketches(py::list strings, int n_threads) {
    const TextList texts = text_views(strings, "X");
    pyd2ke::EspSketches s;
    {
        InterruptibleRelease release;
        s = pyd2ke::esp_sketch_batch(texts.views, n_threads);
    }
    return py::make_tuple(take(std::move(s.labels)), take(std::move(s.counts)), take(std::move(s.offsets)));
}

using Labels = CArray<std::uint64_t>;
using Counts = CArray<double>;

void check_sketch(const Labels& l, const Counts& c, const Offsets& o, const char* name) {
    if (l.ndim() != 1 || c.ndim() != 1 || o.ndim() != 1 || l.shape(0) != c.shape(0) || o.shape(0) < 1 ||
        o.data()[0] != 0 || o.data()[o.shape(0) - 1] != l.shape(0))
        throw py::value_error(std::string(name) + ": labels, counts and offsets do not form a sketch");
}

template <class T>
void esp_l1_into(Labels xl, Counts xc, Offsets xo, Labels yl, Counts yc, Offsets yo,
                 CArray<T> out, int n_threads) {
    check_sketch(xl, xc, xo, "X");
    check_sketch(yl, yc, yo, "Y");
    const std::size_t nx = static_cast<std::size_t>(xo.shape(0) - 1), ny = static_cast<std::size_t>(yo.shape(0) - 1);
    check_out(out, nx, ny);
    T* o = out.mutable_data();
    InterruptibleRelease release;
    pyd2ke::esp_l1_distances(xl.data(), xc.data(), xo.data(), nx, yl.data(), yc.data(), yo.data(), ny, o, n_threads);
}

py::tuple esp_hashed_csr(Labels l, Counts c, Offsets o, std::int64_t n_features, int n_threads) {
    check_sketch(l, c, o, "sketches");
    if (n_features < 1) throw py::value_error("n_features must be >= 1");
    const std::size_t n = static_cast<std::size_t>(o.shape(0) - 1);
    pyd2ke::HashedCsr csr;
    {
        InterruptibleRelease release;
        csr = pyd2ke::esp_hashed_csr(l.data(), c.data(), o.data(), n, static_cast<std::uint64_t>(n_features),
                                     n_threads);
    }
    return py::make_tuple(take(std::move(csr.indptr)), take(std::move(csr.indices)), take(std::move(csr.data)));
}

py::tuple cgk_walks(py::list strings, std::uint64_t seed, std::size_t fixed_length, int n_threads) {
    const TextList texts = text_views(strings, "X");
    std::vector<std::int64_t> offsets;
    std::vector<std::uint32_t> symbols;
    {
        InterruptibleRelease release;
        symbols = pyd2ke::cgk_embed_batch(texts.views, seed, fixed_length, offsets, n_threads);
    }
    return py::make_tuple(take(std::move(symbols)), take(std::move(offsets)));
}

}  // namespace

void bind_sketch(py::module_& m) {
    m.def("esp_sketches", &esp_sketches, py::arg("strings"), py::arg("n_threads"),
          "ESP characteristic vectors: (labels uint64, counts float64, offsets int64), labels sorted per string.");
    m.def("esp_l1_into", &esp_l1_into<double>, py::arg("xl").noconvert(), py::arg("xc").noconvert(),
          py::arg("xo").noconvert(), py::arg("yl").noconvert(), py::arg("yc").noconvert(), py::arg("yo").noconvert(),
          py::arg("out").noconvert(), py::arg("n_threads"));
    m.def("esp_l1_into", &esp_l1_into<float>, py::arg("xl").noconvert(), py::arg("xc").noconvert(),
          py::arg("xo").noconvert(), py::arg("yl").noconvert(), py::arg("yc").noconvert(), py::arg("yo").noconvert(),
          py::arg("out").noconvert(), py::arg("n_threads"));
    m.def("esp_hashed_csr", &esp_hashed_csr, py::arg("labels").noconvert(), py::arg("counts").noconvert(),
          py::arg("offsets").noconvert(), py::arg("n_features"), py::arg("n_threads"),
          "Sketches as a hashed-column CSR matrix: (indptr, indices, data), columns ascending per row.");
    m.def("cgk_walks", &cgk_walks, py::arg("strings"), py::arg("seed"), py::arg("fixed_length"), py::arg("n_threads"),
          "CGK walks: (symbols uint32, offsets int64); 3 n symbols per string when fixed_length == 0.");
    m.attr("CGK_PAD") = py::int_(pyd2ke::kCgkPad);
}
