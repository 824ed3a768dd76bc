// sketch/: string sketches, ESP characteristic vectors and CGK walks (the
// hashed random Fourier features that consume them are in bind_features.cpp).

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <tuple>
#include <variant>
#include <vector>

#include <pyd2ke/sketch/cgk.hpp>
#include <pyd2ke/sketch/esp.hpp>

#include "conversions.hpp"

namespace py = pybind11;
using namespace pyd2ke_bindings;

namespace {

// A numpy array that takes over a vector's buffer (no copy).
template <class T, class Allocator>
py::array_t<T> take(std::vector<T, Allocator>&& v) {
    using Vector = std::vector<T, Allocator>;
    auto* owner = new Vector(std::move(v));
    py::capsule free_owner(owner, [](void* p) { delete static_cast<Vector*>(p); });
    return py::array_t<T>(static_cast<py::ssize_t>(owner->size()), owner->data(), free_owner);
}

py::tuple esp_sketches(py::list strings, int n_threads) {
    const TextList texts = text_views(strings, "X", n_threads);
    pyd2ke::EspSketches s;
    {
        InterruptibleRelease release;
        s = pyd2ke::esp_sketch_batch(texts.views, n_threads);
    }
    return py::make_tuple(take(std::move(s.labels)), take(std::move(s.counts)), take(std::move(s.offsets)));
}

// A numpy array that takes over a GrowableArray's buffer (no copy).
template <class T>
py::array_t<T> take(pyd2ke::GrowableArray<T>&& a) {
    if (a.size() == 0) return py::array_t<T>(0);
    a.shrink_to_fit();
    auto* owner = new pyd2ke::GrowableArray<T>(std::move(a));
    py::capsule free_owner(owner, [](void* p) { delete static_cast<pyd2ke::GrowableArray<T>*>(p); });
    return py::array_t<T>(static_cast<py::ssize_t>(owner->size()), owner->data(), free_owner);
}

// ESP sketches appended chunk by chunk into one set of arrays (see
// pyd2ke::EspSketchAppender); finish() hands them to numpy.
class EspSketchAppender {
public:
    void append(py::list strings, int n_threads) {
        if (finished_) throw py::value_error("EspSketchAppender: finish() was called already");
        const TextList texts = text_views(strings, "X", n_threads);
        InterruptibleRelease release;
        sketches_.append(texts.views, n_threads);
    }

    py::tuple finish() {
        if (finished_) throw py::value_error("EspSketchAppender: finish() was called already");
        finished_ = true;
        auto& s = sketches_;
        return py::make_tuple(take(std::move(s.labels)), take(std::move(s.counts)), take(std::move(s.offsets)));
    }

private:
    pyd2ke::EspSketchAppender sketches_;
    bool finished_ = false;
};

// Hashed CSR rows of ESP sketches appended chunk by chunk (see
// pyd2ke::EspCsrAppender): int32 column indices where n_features fits them,
// float32 or float64 values; finish() -> (indptr, indices, data).
class EspCsrAppender {
    template <class Index, class T>
    using Rows = pyd2ke::EspCsrAppender<Index, T>;
    using Impl = std::variant<Rows<std::int32_t, double>, Rows<std::int32_t, float>, Rows<std::int64_t, double>,
                              Rows<std::int64_t, float>>;

    static Impl make(std::int64_t n_features, bool single) {
        if (n_features < 1) throw py::value_error("n_features must be >= 1");
        const auto n = static_cast<std::uint64_t>(n_features);
        if (n_features <= 2147483647)
            return single ? Impl(std::in_place_index<1>, n) : Impl(std::in_place_index<0>, n);
        return single ? Impl(std::in_place_index<3>, n) : Impl(std::in_place_index<2>, n);
    }

public:
    EspCsrAppender(std::int64_t n_features, bool single) : impl_(make(n_features, single)) {}

    void append(py::list strings, int n_threads) {
        if (finished_) throw py::value_error("EspCsrAppender: finish() was called already");
        const TextList texts = text_views(strings, "X", n_threads);
        InterruptibleRelease release;
        std::visit([&](auto& rows) { rows.append(texts.views, n_threads); }, impl_);
    }

    py::tuple finish() {
        if (finished_) throw py::value_error("EspCsrAppender: finish() was called already");
        finished_ = true;
        return std::visit(
            [](auto& rows) -> py::tuple {
                return py::make_tuple(take(std::move(rows.indptr)), take(std::move(rows.indices)),
                                      take(std::move(rows.data)));
            },
            impl_);
    }

private:
    Impl impl_;
    bool finished_ = false;
};

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

template <class Index>
py::tuple hashed_csr(const Labels& l, const Counts& c, const Offsets& o, std::int64_t n_features, int n_threads) {
    const std::size_t n = static_cast<std::size_t>(o.shape(0) - 1);
    pyd2ke::HashedCsrOf<Index> csr;
    {
        InterruptibleRelease release;
        csr = pyd2ke::esp_hashed_csr<Index>(l.data(), c.data(), o.data(), n, static_cast<std::uint64_t>(n_features),
                                            n_threads);
    }
    return py::make_tuple(take(std::move(csr.indptr)), take(std::move(csr.indices)), take(std::move(csr.data)));
}

// int32 indptr and indices where they fit, as scipy would store them.
py::tuple esp_hashed_csr(Labels l, Counts c, Offsets o, std::int64_t n_features, int n_threads) {
    check_sketch(l, c, o, "sketches");
    if (n_features < 1) throw py::value_error("n_features must be >= 1");
    constexpr std::int64_t int32_max = 2147483647;
    if (n_features <= int32_max && l.shape(0) <= int32_max)
        return hashed_csr<std::int32_t>(l, c, o, n_features, n_threads);
    return hashed_csr<std::int64_t>(l, c, o, n_features, n_threads);
}

py::tuple cgk_walks(py::list strings, std::uint64_t seed, std::size_t fixed_length, int n_threads) {
    const TextList texts = text_views(strings, "X", n_threads);
    std::vector<std::int64_t> offsets;
    std::vector<std::uint32_t> symbols;
    {
        InterruptibleRelease release;
        symbols = pyd2ke::cgk_embed_batch(texts.views, seed, fixed_length, offsets, n_threads);
    }
    return py::make_tuple(take(std::move(symbols)), take(std::move(offsets)));
}

// One-hot CGK walks of fixed length T as the CSR columns and values of
// (n_strings, T * (len(alphabet) + 2)): columns (int32 or int64) and data
// (float32 or float64, every value 0.5) are filled on the threads.
template <class Column, class T>
void cgk_onehot_into(py::list strings, std::uint64_t seed, std::size_t out_len, CArray<std::uint32_t> alphabet,
                     CArray<Column> columns, CArray<T> data, int n_threads) {
    const TextList texts = text_views(strings, "X", n_threads);
    const std::size_t n = texts.views.size() * out_len;
    if (alphabet.ndim() != 1 || columns.ndim() != 1 || data.ndim() != 1 ||
        static_cast<std::size_t>(columns.shape(0)) != n || static_cast<std::size_t>(data.shape(0)) != n)
        throw py::value_error("columns and data must be 1-D of len(strings) * output_length values");
    const std::vector<std::uint32_t> symbols(alphabet.data(), alphabet.data() + alphabet.shape(0));
    for (std::size_t j = 0; j < symbols.size(); ++j)
        if ((j > 0 && symbols[j] <= symbols[j - 1]) || symbols[j] == pyd2ke::kCgkPad)
            throw py::value_error("alphabet must be sorted, distinct and without the pad symbol");
    const pyd2ke::CgkSlots slots(symbols);
    Column* c = columns.mutable_data();
    T* d = data.mutable_data();
    InterruptibleRelease release;
    pyd2ke::cgk_onehot_columns(texts.views, seed, out_len, slots, c, n_threads);
    pyd2ke::parallel_for_blocks(n, n_threads, 1 << 16, [&](std::size_t begin, std::size_t end) {
        std::fill(d + begin, d + end, T(0.5));
    });
}

template <class Column, class T>
void def_cgk_onehot_into(py::module_& m) {
    m.def("cgk_onehot_into", &cgk_onehot_into<Column, T>, py::arg("strings"), py::arg("seed"),
          py::arg("output_length"), py::arg("alphabet").noconvert(), py::arg("columns").noconvert(),
          py::arg("data").noconvert(), py::arg("n_threads"));
}

}  // namespace

void bind_sketch(py::module_& m) {
    m.def("esp_sketches", &esp_sketches, py::arg("strings"), py::arg("n_threads"),
          "ESP characteristic vectors: (labels uint64, counts float64, offsets int64), labels sorted per string.");
    py::class_<EspSketchAppender>(m, "EspSketchAppender",
                                  "ESP sketches appended chunk by chunk: append(strings, n_threads), then finish() "
                                  "-> (labels, counts, offsets) as esp_sketches gives them.")
        .def(py::init<>())
        .def("append", &EspSketchAppender::append, py::arg("strings"), py::arg("n_threads"))
        .def("finish", &EspSketchAppender::finish);
    py::class_<EspCsrAppender>(m, "EspCsrAppender",
                               "Hashed CSR rows of ESP sketches appended chunk by chunk: append(strings, n_threads), "
                               "then finish() -> (indptr int64, indices, data).")
        .def(py::init<std::int64_t, bool>(), py::arg("n_features"), py::arg("single"))
        .def("append", &EspCsrAppender::append, py::arg("strings"), py::arg("n_threads"))
        .def("finish", &EspCsrAppender::finish);
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
    def_cgk_onehot_into<std::int32_t, double>(m);
    def_cgk_onehot_into<std::int32_t, float>(m);
    def_cgk_onehot_into<std::int64_t, double>(m);
    def_cgk_onehot_into<std::int64_t, float>(m);
    m.attr("CGK_PAD") = py::int_(pyd2ke::kCgkPad);
}
