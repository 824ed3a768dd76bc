// require_simd_level and simd_table (core/): every level this CPU runs is
// accepted, any other is refused with std::invalid_argument, and every
// public class that takes a level goes through the same check.

#include <pyd2ke/pyd2ke.hpp>

#include <cstdio>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "check.hpp"

namespace {

template <class F>
bool refused(F&& construct, const char* expected_words) {
    try {
        construct();
    } catch (const std::invalid_argument& e) {
        return std::string(e.what()).find(expected_words) != std::string::npos;
    }
    return false;
}

void test_require() {
    for (pyd2ke::SimdLevel level : pyd2ke::supported_simd_levels()) CHECK(pyd2ke::require_simd_level(level) == level);
    const auto unknown = static_cast<pyd2ke::SimdLevel>(-1);
    CHECK(refused([&] { pyd2ke::require_simd_level(unknown); }, "unknown SIMD level"));
    CHECK(refused([&] { pyd2ke::require_simd_level(static_cast<pyd2ke::SimdLevel>(4)); }, "unknown SIMD level"));
    CHECK(pyd2ke::simd_level_from_name("auto") == pyd2ke::detect_simd_level());
    CHECK(refused([&] { pyd2ke::require_simd_level(pyd2ke::simd_level_from_name("neon")); }, "unknown"));
    if (pyd2ke::detect_simd_level() < pyd2ke::SimdLevel::avx512)
        CHECK(refused([&] { pyd2ke::require_simd_level(pyd2ke::SimdLevel::avx512); }, "not available on this CPU"));

    // Every constructor that takes a level refuses an invalid one.
    const std::vector<pyd2ke::TextView> texts{pyd2ke::TextView(std::string_view("ab"))};
    const double values[] = {1.0, 2.0};
    const std::vector<pyd2ke::SeriesView<double>> series{pyd2ke::SeriesView<double>(values, 2, 1)};
    const std::vector<pyd2ke::PointSetView<double>> sets{pyd2ke::PointSetView<double>(values, 2, 1)};
    CHECK(refused([&] { pyd2ke::LevenshteinBatch(texts, unknown); }, "SIMD level"));
    CHECK(refused([&] { pyd2ke::DtwBatch<double>(series, -1, unknown); }, "SIMD level"));
    CHECK(refused([&] { pyd2ke::SetDistanceBatch<double>(sets, pyd2ke::SetMetric::hausdorff, unknown); },
                  "SIMD level"));
    CHECK(refused([&] { pyd2ke::EmdBatch<double>(sets, unknown); }, "SIMD level"));
    CHECK(refused([&] { pyd2ke::HashedRandomFourier(pyd2ke::FourierKernel::rbf, 1.0, 4, 1, unknown); },
                  "SIMD level"));
}

// Each level's tables are built once: the same object on every call.
void test_tables() {
    using pyd2ke::detail::simd_table;
    for (pyd2ke::SimdLevel level : pyd2ke::supported_simd_levels()) {
        const auto& lanes = simd_table<pyd2ke::detail::LanesKernels>(level);
        CHECK(&lanes == &simd_table<pyd2ke::detail::LanesKernels>(level));
        CHECK(lanes.group_bytes >= pyd2ke::detail::kPortableGroupBytes);
        CHECK(simd_table<pyd2ke::detail::SqdistKernelInfo<float>>(level).panel >= 8);
        std::printf("level %s: lane groups of %zu bytes, sqdist panels of %zu doubles\n",
                    pyd2ke::simd_level_name(level), lanes.group_bytes,
                    simd_table<pyd2ke::detail::SqdistKernelInfo<double>>(level).panel);
    }
#if PYD2KE_X86_DISPATCH
    // The transport simplex has two builds: portable (also SSE2's) and AVX2
    // (also AVX-512's; see emd_simplex_simd.inl).
    using Simplex = pyd2ke::detail::TransportSimplexTable;
    using pyd2ke::SimdLevel;
    CHECK(simd_table<Simplex>(SimdLevel::sse2).make == simd_table<Simplex>(SimdLevel::scalar).make);
    // Only the levels this CPU runs have their own tables.
    if (pyd2ke::detect_simd_level() >= SimdLevel::avx2)
        CHECK(simd_table<Simplex>(SimdLevel::avx2).make != simd_table<Simplex>(SimdLevel::scalar).make);
    if (pyd2ke::detect_simd_level() >= SimdLevel::avx512)
        CHECK(simd_table<Simplex>(SimdLevel::avx512).make == simd_table<Simplex>(SimdLevel::avx2).make);
#endif
}

}  // namespace

int main() {
    test_require();
    test_tables();
    return test_verdict();
}
