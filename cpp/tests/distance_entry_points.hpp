#pragma once
// The entry points of each distance (entry_points.hpp), shared by its test
// and by fuzz_distances: the pair functions, the batch at every SIMD level,
// and the paths that promise the batch's bits (d2ke_distances, which the
// Python bindings call, and EMD's word tables).

#include <pyd2ke/distance/emd_batch.hpp>
#include <pyd2ke/distance/emd_vocabulary.hpp>
#include <pyd2ke/pyd2ke.hpp>

#include "entry_points.hpp"

#include <cstddef>
#include <cstdint>
#include <numeric>
#include <string>
#include <vector>

namespace pyd2ke_test {

// d2ke_distances of one object: the batch's distances(), row by row.
template <class Batch, class Object>
void d2ke_row(const Batch& batch, const Object& x, double* out) {
    pyd2ke::d2ke_distances(batch, std::vector<Object>{x}, out, 1);
}

// --- Levenshtein: whole numbers, the same everywhere --------------------------------

using Text = std::u32string;

inline EntryPoints<Text, Text> levenshtein_entry_points() {
    using pyd2ke::LevenshteinBatch;
    auto batch_of = [](pyd2ke::SimdLevel level, const std::vector<Text>& targets) {
        return LevenshteinBatch(std::vector<pyd2ke::TextView>(targets.begin(), targets.end()), level);
    };
    EntryPoints<Text, Text> e("levenshtein", "levenshtein_reference", [](const Text& a, const Text& b) {
        return static_cast<double>(pyd2ke::levenshtein_reference(a, b));
    });
    e.pair("levenshtein", [](const Text& a, const Text& b) { return static_cast<double>(pyd2ke::levenshtein(a, b)); },
           kSameBits)
        .pair("levenshtein (swapped)",
              [](const Text& a, const Text& b) { return static_cast<double>(pyd2ke::levenshtein(b, a)); }, kSameBits)
        .pair("levenshtein (blocked)",
              [](const Text& a, const Text& b) {
                  return static_cast<double>(pyd2ke::levenshtein(a, b, pyd2ke::MyersVariant::blocked));
              },
              kSameBits)
        .pair("levenshtein (iterators)",
              [](const Text& a, const Text& b) {
                  return static_cast<double>(pyd2ke::levenshtein(a.begin(), a.end(), b.begin(), b.end()));
              },
              kSameBits)
        .batch("LevenshteinBatch::distances",
               [=](pyd2ke::SimdLevel level, const Text& x, const std::vector<Text>& targets, double* out) {
                   batch_of(level, targets).distances(x, out);
               },
               kSameBits)
        .batch("LevenshteinBatch::for_each_distance",
               [=](pyd2ke::SimdLevel level, const Text& x, const std::vector<Text>& targets, double* out) {
                   const LevenshteinBatch batch = batch_of(level, targets);
                   LevenshteinBatch::Scratch scratch;
                   batch.for_each_distance(x, scratch, [&](std::size_t j, std::size_t d) {
                       out[j] = static_cast<double>(d);
                   });
               },
               kSameBits)
        .batch("d2ke_distances",
               [=](pyd2ke::SimdLevel level, const Text& x, const std::vector<Text>& targets, double* out) {
                   d2ke_row(batch_of(level, targets), pyd2ke::TextView(x), out);
               },
               kSameBits);
    return e;
}

// --- DTW -------------------------------------------------------------------------

template <class T>
using Series = pyd2ke::SeriesView<T>;

// tol: of every path in T against the reference in double precision.
template <class T>
EntryPoints<Series<T>, Series<T>> dtw_entry_points(long window, Tolerance tol) {
    using Batch = pyd2ke::DtwBatch<T>;
    EntryPoints<Series<T>, Series<T>> e("dtw (window " + std::to_string(window) + ")", "dtw_reference",
                                        [=](const Series<T>& x, const Series<T>& y) {
                                            return pyd2ke::dtw_reference(x, y, window);
                                        });
    e.pair("dtw", [=](const Series<T>& x, const Series<T>& y) { return static_cast<double>(pyd2ke::dtw(x, y, window)); },
           tol)
        .pair("dtw (swapped)",
              [=](const Series<T>& x, const Series<T>& y) { return static_cast<double>(pyd2ke::dtw(y, x, window)); },
              tol)
        .batch("DtwBatch::distances",
               [=](pyd2ke::SimdLevel level, const Series<T>& x, const std::vector<Series<T>>& targets, double* out) {
                   Batch(targets, window, level).distances(x, out);
               },
               tol)
        .batch("d2ke_distances",
               [=](pyd2ke::SimdLevel level, const Series<T>& x, const std::vector<Series<T>>& targets, double* out) {
                   d2ke_row(Batch(targets, window, level), x, out);
               },
               tol)
        .same_bits_as("DtwBatch::distances");
    return e;
}

// --- Hausdorff ---------------------------------------------------------------------

template <class T>
using Points = pyd2ke::PointSetView<T>;

template <class T>
EntryPoints<Points<T>, Points<T>> hausdorff_entry_points(pyd2ke::SetMetric metric, Tolerance tol) {
    using Batch = pyd2ke::SetDistanceBatch<T>;
    EntryPoints<Points<T>, Points<T>> e(
        metric == pyd2ke::SetMetric::hausdorff ? "hausdorff" : "modified_hausdorff", "set_distance_reference",
        [=](const Points<T>& x, const Points<T>& y) { return pyd2ke::set_distance_reference(x, y, metric); });
    e.batch("SetDistanceBatch::distances",
            [=](pyd2ke::SimdLevel level, const Points<T>& x, const std::vector<Points<T>>& targets, double* out) {
                Batch(targets, metric, level).distances(x, out);
            },
            tol)
        .batch("d2ke_distances",
               [=](pyd2ke::SimdLevel level, const Points<T>& x, const std::vector<Points<T>>& targets, double* out) {
                   d2ke_row(Batch(targets, metric, level), x, out);
               },
               tol)
        .same_bits_as("SetDistanceBatch::distances");
    return e;
}

// --- EMD ---------------------------------------------------------------------------

// x as the one document of a vocabulary made of its own words.
template <class T>
pyd2ke::VocabularyDocuments<T> as_vocabulary(const Points<T>& x, const std::vector<std::int64_t>& word_ids,
                                             const std::vector<double>& weights, const std::int64_t* offsets) {
    pyd2ke::VocabularyDocuments<T> docs;
    docs.vocabulary = x.data;
    docs.vocabulary_size = x.size;
    docs.dim = x.dim;
    docs.word_ids = word_ids.data();
    docs.weights = weights.data();
    docs.offsets = offsets;
    docs.count = 1;
    return docs;
}

// tol: of the batch (costs from |a|^2 + |b|^2 - 2ab in T) against the
// reference (costs from differences in double, the portable simplex);
// simplex_tol: of emd_reference_costs with another level's simplex.
template <class T>
EntryPoints<Points<T>, Points<T>> emd_entry_points(Tolerance tol, Tolerance simplex_tol) {
    using Batch = pyd2ke::EmdBatch<T>;
    using Targets = std::vector<Points<T>>;
    EntryPoints<Points<T>, Points<T>> e("emd", "emd_reference_costs (scalar simplex)",
                                        [](const Points<T>& x, const Points<T>& y) {
                                            pyd2ke::EmdWorkspace ws(pyd2ke::SimdLevel::scalar);
                                            return pyd2ke::emd_reference_costs(x, y, ws);
                                        });
    e.batch("emd_reference_costs",
            [](pyd2ke::SimdLevel level, const Points<T>& x, const Targets& targets, double* out) {
                pyd2ke::EmdWorkspace ws(level);
                for (std::size_t j = 0; j < targets.size(); ++j) out[j] = pyd2ke::emd_reference_costs(x, targets[j], ws);
            },
            simplex_tol)
        .same_bits_per_build([](pyd2ke::SimdLevel a, pyd2ke::SimdLevel b) {
            using Simplex = pyd2ke::detail::TransportSimplexTable;
            return pyd2ke::detail::simd_table<Simplex>(a).make == pyd2ke::detail::simd_table<Simplex>(b).make;
        })
        .batch("EmdBatch::distances",
               [](pyd2ke::SimdLevel level, const Points<T>& x, const Targets& targets, double* out) {
                   Batch(targets, level).distances(x, out);
               },
               tol)
        .batch("EmdBatch::distances_from_table",
               [](pyd2ke::SimdLevel level, const Points<T>& x, const Targets& targets, double* out) {
                   // The table of x's own words: word i in row i.
                   const Batch batch(targets, level);
                   std::vector<T> norms(x.size), table(x.size * batch.word_table_stride());
                   for (std::size_t i = 0; i < x.size; ++i) norms[i] = pyd2ke::detail::squared_norm(x.point(i), x.dim);
                   batch.fill_word_table(x.data, norms.data(), 0, x.size, table.data());
                   std::vector<std::uint32_t> rows(x.size);
                   std::iota(rows.begin(), rows.end(), 0u);
                   typename Batch::Scratch scratch;
                   batch.distances_from_table(table.data(), rows.data(), x.weights, x.size, out, scratch);
               },
               tol)
        .same_bits_as("EmdBatch::distances")
        // Its choice between word tables and the path above is
        // test_emd_vocabulary's; either way, the same bits.
        .batch("emd_vocabulary_distances",
               [](pyd2ke::SimdLevel level, const Points<T>& x, const Targets& targets, double* out) {
                   std::vector<std::int64_t> word_ids(x.size);
                   std::iota(word_ids.begin(), word_ids.end(), std::int64_t{0});
                   const std::vector<double> weights =
                       x.weights ? std::vector<double>(x.weights, x.weights + x.size) : std::vector<double>(x.size, 1.0);
                   const std::int64_t offsets[] = {0, static_cast<std::int64_t>(x.size)};
                   pyd2ke::emd_vocabulary_distances(Batch(targets, level), as_vocabulary(x, word_ids, weights, offsets),
                                                    out, 1);
               },
               tol)
        .same_bits_as("EmdBatch::distances")
        .batch("d2ke_distances",
               [](pyd2ke::SimdLevel level, const Points<T>& x, const Targets& targets, double* out) {
                   d2ke_row(Batch(targets, level), x, out);
               },
               tol)
        .same_bits_as("EmdBatch::distances");
    return e;
}

}  // namespace pyd2ke_test
