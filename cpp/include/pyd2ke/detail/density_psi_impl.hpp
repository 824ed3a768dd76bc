#pragma once
// The loop behind features/density_psi.hpp: per set, log and square root
// of the floored densities once, then for each lambda the phases and their
// cos and sin by the SIMD kernels of the hashed Fourier features, scaled by
// the square root. Everything stays in a set's rows (n_e values each).

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <vector>

#include "../core/cpu_features.hpp"
#include "hashed_fourier_impl.hpp"

namespace pyd2ke::detail {

inline void density_psi_rows(const double* F, std::size_t n_sets, std::size_t n_e, const double* lambdas,
                             std::size_t n_lambdas, double floor, double* out, SimdLevel level) {
    const auto cos_sin = simd_table<FourierCosSinKernel<double>>(level).cos_sin;
    std::vector<double> log_f(n_e), root(n_e), phase(n_e);
    for (std::size_t s = 0; s < n_sets; ++s) {
        const double* f = F + s * n_e;
        for (std::size_t k = 0; k < n_e; ++k) {
            const double v = std::max(f[k], floor);
            log_f[k] = std::log(v);
            root[k] = std::sqrt(v);
        }
        double* rows = out + s * 2 * n_lambdas * n_e;
        for (std::size_t j = 0; j < n_lambdas; ++j) {
            for (std::size_t k = 0; k < n_e; ++k) phase[k] = lambdas[j] * log_f[k];
            double* re = rows + j * n_e;
            double* im = rows + (n_lambdas + j) * n_e;
            cos_sin(phase.data(), n_e, 1.0, re, im);
            for (std::size_t k = 0; k < n_e; ++k) {
                re[k] *= root[k];
                im[k] *= root[k];
            }
        }
    }
}

}  // namespace pyd2ke::detail
