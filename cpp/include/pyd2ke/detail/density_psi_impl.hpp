#pragma once
// The loop behind features/density_psi.hpp: per set, log and square root
// of the floored densities once (density_psi_simd.inl: the log on whole
// vectors; one call of std::log per value took a third of the step), then
// for each lambda the phases and their cos and sin by the SIMD kernels of
// the hashed Fourier features, scaled by the square root. Everything stays
// in a set's rows (n_e values each).

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <vector>

#include "../core/config.hpp"
#include "../core/cpu_features.hpp"
#include "hashed_fourier_impl.hpp"

namespace pyd2ke::detail {

struct DensityPsiKernel {
    // log_out[k] = log(max(f[k], floor)), root_out[k] = sqrt(max(f[k], floor)), for k < n (floor > 0 normal).
    void (*log_and_root)(const double* f, std::size_t n, double floor, double* log_out, double* root_out);
};

}  // namespace pyd2ke::detail

// The kernel tables, one per instruction set: simd_table<DensityPsiKernel>(level).
#define PYD2KE_SIMD_KERNEL_BODY "../detail/density_psi_simd.inl"
#include "../core/simd_dispatch.hpp"

namespace pyd2ke::detail {

inline void density_psi_rows(const double* F, std::size_t n_sets, std::size_t n_e, const double* lambdas,
                             std::size_t n_lambdas, double floor, double* out, SimdLevel level) {
    const auto cos_sin = simd_table<FourierCosSinKernel<double>>(level).cos_sin;
    const auto log_and_root = simd_table<DensityPsiKernel>(level).log_and_root;
    std::vector<double> log_f(n_e), root(n_e), phase(n_e);
    for (std::size_t s = 0; s < n_sets; ++s) {
        log_and_root(F + s * n_e, n_e, floor, log_f.data(), root.data());
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
