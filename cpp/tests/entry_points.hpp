#pragma once
// Every entry point of a kernel asked the same question, in the manner of
// rapidfuzz-cpp's tests: the one-pair functions, and each one-against-many
// batch at every SIMD level this CPU runs, on one input against a list of
// targets. Each must agree with the reference (the definition, one pair at
// a time): bit for bit where the code promises it, within a stated
// tolerance elsewhere. check() returns the reference's answers, so a test
// that wants known values states them once for every entry point.
//
//   EntryPoints<Input, Target> e("dtw", "dtw_reference", reference);
//   e.pair("dtw", dtw_fn, tol).batch("DtwBatch::distances", batch_fn, tol);
//   e.batch("d2ke_distances", d2ke_fn, tol).same_bits_as("DtwBatch::distances");
//   const std::vector<double> d = e.check(x, targets, "lengths 7 x 64");

#include <pyd2ke/core/cpu_features.hpp>

#include "check.hpp"

#include <cmath>
#include <cstddef>
#include <cstdio>
#include <cstring>
#include <functional>
#include <limits>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace pyd2ke_test {

// Lengths at the edges of SIMD lanes, machine words (64 symbols) and the
// kernels' panels, and past them (0 only where empty inputs are allowed).
inline const std::vector<std::size_t> kEdgeLengths = {0, 1, 7, 8, 9, 15, 16, 17, 63, 64, 65, 128, 129, 200};

// How closely an entry point must agree: |value - expected| <= abs + rel *
// |expected|. Both zero (kSameBits): the same bits.
struct Tolerance {
    double rel = 0, abs = 0;
};
inline constexpr Tolerance kSameBits{};

inline bool agrees(double value, double expected, Tolerance tol) {
    if (tol.rel == 0 && tol.abs == 0) return std::memcmp(&value, &expected, sizeof value) == 0;
    return std::abs(value - expected) <= tol.abs + tol.rel * std::abs(expected);
}

// "<what> at SIMD levels scalar, sse2, ...": the levels check() runs.
inline void print_simd_levels(const char* what) {
    std::string names;
    for (pyd2ke::SimdLevel level : pyd2ke::supported_simd_levels())
        names += (names.empty() ? "" : ", ") + std::string(pyd2ke::simd_level_name(level));
    std::printf("%s at SIMD levels %s\n", what, names.c_str());
}

template <class Input, class Target>
class EntryPoints {
public:
    // The distance of one pair.
    using Pair = std::function<double(const Input& x, const Target& y)>;
    // out[j] = the distance of x to targets[j], computed at `level`.
    using Batch = std::function<void(pyd2ke::SimdLevel level, const Input& x, const std::vector<Target>& targets,
                                     double* out)>;
    // Whether the same compiled build serves two levels (the same kernel
    // table, say): such levels give the same bits.
    using SameBuild = std::function<bool(pyd2ke::SimdLevel a, pyd2ke::SimdLevel b)>;

    EntryPoints(std::string kernel, std::string reference_name, Pair reference)
        : kernel_(std::move(kernel)), reference_name_(std::move(reference_name)), reference_(std::move(reference)) {}

    // A one-pair entry point, within `tol` of the reference.
    EntryPoints& pair(std::string name, Pair f, Tolerance tol) {
        pairs_.push_back({std::move(name), std::move(f), tol});
        return *this;
    }

    // A one-against-many entry point, run at every supported SIMD level,
    // within `tol` of the reference.
    EntryPoints& batch(std::string name, Batch f, Tolerance tol) {
        batches_.push_back({std::move(name), std::move(f), tol, npos, nullptr});
        return *this;
    }

    // The last batch gives the same bits as the earlier batch `other`, level by level.
    EntryPoints& same_bits_as(const std::string& other) {
        for (std::size_t b = 0; b + 1 < batches_.size(); ++b)
            if (batches_[b].name == other) {
                batches_.back().twin = b;
                return *this;
            }
        throw std::logic_error("entry points of " + kernel_ + ": no batch named " + other);
    }

    // The last batch gives the same bits at levels that share a build.
    EntryPoints& same_bits_per_build(SameBuild same_build) {
        batches_.back().same_build = std::move(same_build);
        return *this;
    }

    // Runs every entry point on x against every target and checks them;
    // returns the reference's distances. `label` names the input in reports.
    std::vector<double> check(const Input& x, const std::vector<Target>& targets, const std::string& label = "") const {
        const std::size_t n = targets.size();
        std::vector<double> expected(n);
        for (std::size_t j = 0; j < n; ++j) expected[j] = reference_(x, targets[j]);
        for (const NamedPair& p : pairs_)
            for (std::size_t j = 0; j < n; ++j)
                expect(p.f(x, targets[j]), expected[j], p.tol, p.name, "", reference_name_, j, label);

        const std::vector<pyd2ke::SimdLevel> levels = pyd2ke::supported_simd_levels();
        // results[b][l]: batch b's distances at levels[l].
        std::vector<std::vector<std::vector<double>>> results(batches_.size());
        for (std::size_t b = 0; b < batches_.size(); ++b) {
            const NamedBatch& batch = batches_[b];
            for (std::size_t l = 0; l < levels.size(); ++l) {
                const char* level = pyd2ke::simd_level_name(levels[l]);
                std::vector<double> out(n, std::numeric_limits<double>::quiet_NaN());
                batch.f(levels[l], x, targets, out.data());
                for (std::size_t j = 0; j < n; ++j) {
                    expect(out[j], expected[j], batch.tol, batch.name, level, reference_name_, j, label);
                    if (batch.twin != npos)
                        expect(out[j], results[batch.twin][l][j], kSameBits, batch.name, level,
                               batches_[batch.twin].name + " at the same level", j, label);
                }
                if (batch.same_build)
                    for (std::size_t k = 0; k < l; ++k)
                        if (batch.same_build(levels[k], levels[l]))
                            for (std::size_t j = 0; j < n; ++j)
                                expect(out[j], results[b][k][j], kSameBits, batch.name, level,
                                       "itself at " + std::string(pyd2ke::simd_level_name(levels[k])) +
                                           " (the same build)",
                                       j, label);
                results[b].push_back(std::move(out));
            }
        }
        return expected;
    }

private:
    static constexpr std::size_t npos = static_cast<std::size_t>(-1);

    struct NamedPair {
        std::string name;
        Pair f;
        Tolerance tol;
    };
    struct NamedBatch {
        std::string name;
        Batch f;
        Tolerance tol;
        std::size_t twin;  // a batch whose bits this one repeats, or npos
        SameBuild same_build;  // empty: no promise between levels
    };

    void expect(double value, double expected, Tolerance tol, const std::string& entry, const char* level,
                const std::string& against, std::size_t target, const std::string& label) const {
        if (agrees(value, expected, tol)) return;
        if (++failures <= 20)
            std::printf("%s: %s%s%s gives %.17g for target %zu%s%s; %s gives %.17g (wanted: %s)\n", kernel_.c_str(),
                        entry.c_str(), *level ? " at " : "", level, value, target, label.empty() ? "" : " of ",
                        label.c_str(), against.c_str(), expected,
                        tol.rel == 0 && tol.abs == 0 ? "the same bits" : "agreement within the tolerance");
    }

    std::string kernel_, reference_name_;
    Pair reference_;
    std::vector<NamedPair> pairs_;
    std::vector<NamedBatch> batches_;
};

}  // namespace pyd2ke_test
