#pragma once
// Earth Mover's distances of one weighted point set (a document: word
// vectors and their weights) to a fixed collection of weighted point sets
// (D2KE's random documents), with Euclidean ground cost. The ground costs
// come from register-tiled squared distances between the input's words and
// the words of a few random documents at a time, or from a word table when
// the input's words come from a shared vocabulary (emd_vocabulary.hpp); each
// document pair is then one exact transportation problem (the simplex of
// emd.hpp).

#include <cstddef>
#include <cstdint>
#include <vector>

#include "../core/cpu_features.hpp"
#include "../core/point_set.hpp"
#include "../detail/emd_batch_impl.hpp"
#include "emd.hpp"

namespace pyd2ke {

// EMD between two weighted point sets, ground costs from differences in
// double precision. Weights need not be normalised; nullptr means uniform.
template <class T>
double emd_reference_costs(const PointSetView<T>& a, const PointSetView<T>& b, EmdWorkspace& ws) {
    return detail::emd_from_differences(a, b, ws);
}

template <class T>
class EmdBatch {
public:
    using Scratch = typename detail::PackedDocuments<T>::Scratch;

    EmdBatch(const std::vector<PointSetView<T>>& documents, SimdLevel level = detect_simd_level())
        : packed_(documents, require_simd_level(level)) {}

    std::size_t size() const { return packed_.size(); }
    std::size_t dim() const { return packed_.dim(); }

    // out[j] = EMD(x, document j) for j < size(). The input's weights are
    // validated and normalised once per call, the random documents' ones at
    // construction.
    template <class Out>
    void distances(const PointSetView<T>& x, Out* out, Scratch& s) const {
        packed_.distances(x, out, s);
    }

    // Word tables, for documents whose words come from one vocabulary (see
    // emd_vocabulary.hpp): row v holds the squared distances of a word to
    // every random word, at a stride of word_table_stride().
    std::size_t word_table_stride() const { return packed_.word_table_stride(); }

    // Rows [begin, end) of the word table of `words` (row-major, dim()
    // coordinates; norms[v] = ||words[v]||^2). Each entry is computed as in
    // distances() (the same products in the same order), so both paths give
    // the same bits.
    void fill_word_table(const T* words, const T* norms, std::size_t begin, std::size_t end, T* table) const {
        packed_.fill_word_table(words, norms, begin, end, table);
    }

    // out[j] = EMD(x, document j), where word i of x (weight weights[i],
    // nullptr for uniform) has its squared distances in row rows[i] of
    // `table`: the same bits as distances() on the expanded document.
    template <class Out>
    void distances_from_table(const T* table, const std::uint32_t* rows, const double* weights, std::size_t n,
                              Out* out, Scratch& s) const {
        packed_.distances_from_table(table, rows, weights, n, out, s);
    }

    template <class Out>
    void distances(const PointSetView<T>& x, Out* out) const {
        Scratch scratch;
        distances(x, out, scratch);
    }

private:
    detail::PackedDocuments<T> packed_;
};

}  // namespace pyd2ke
