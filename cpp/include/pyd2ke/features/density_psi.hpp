#pragma once
// The psi functions of DensityKernelFeatures' Jensen-Shannon-type
// divergences (pyd2ke/density/features.py): for densities F at the
// integration points, floored at `floor`, and the lambdas l_1 .. l_M,
//
//   psi(set, j)     = cos(l_j log F) sqrt F,   j < M,
//   psi(set, M + j) = sin(l_j log F) sqrt F,
//
// rows (n_sets, 2M, n_e). One pass per set without Python, on the calling
// thread (the estimator runs blocks of sets on its threads): as numpy code
// (float64 cos and sin at 16 ns a value, each step a temporary array) this
// was over half of the transform's time, with the GIL taken between steps.

#include <cstddef>
#include <limits>
#include <stdexcept>

#include "../core/cpu_features.hpp"
#include "../detail/density_psi_impl.hpp"

namespace pyd2ke {

// F: (n_sets, n_e) row-major; out: (n_sets, 2 * n_lambdas, n_e) row-major.
inline void density_psi(const double* F, std::size_t n_sets, std::size_t n_e, const double* lambdas,
                        std::size_t n_lambdas, double floor, double* out, SimdLevel level = detect_simd_level()) {
    // Normal: the vector log reads the exponent from the bits.
    if (!(floor >= std::numeric_limits<double>::min()))
        throw std::invalid_argument("density_psi: the density floor must be a positive normal number (>= 2.2e-308)");
    detail::density_psi_rows(F, n_sets, n_e, lambdas, n_lambdas, floor, out, require_simd_level(level));
}

}  // namespace pyd2ke
