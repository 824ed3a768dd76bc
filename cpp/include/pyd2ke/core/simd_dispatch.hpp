// The one SIMD dispatch of the core, used by every kernel (Levenshtein and
// DTW lanes, squared-distance blocks, hashed Fourier features, the EMD
// transport simplex).
//
// Compiling: a kernel's ISA-specific part lives in a body file
// (detail/*_simd.inl). Its header names the body and includes this header,
//
//     #define PYD2KE_SIMD_KERNEL_BODY "../detail/levenshtein_lanes_simd.inl"
//     #include "../core/simd_dispatch.hpp"
//
// and the body is compiled once per instruction set, each time inside that
// ISA's namespace (detail::simd_scalar, simd_sse2, simd_avx2, simd_avx512)
// and, on x86, under that ISA's target pragma. Code built for one ISA thus
// has its own symbols and can never be linked in place of another's, the
// rest of the build stays portable, and the bodies need no macro per ISA.
// In a body, PYD2KE_SIMD_VECTOR_BYTES (preprocessor) and Isa::vector_bytes
// give the vector width: 0 in simd_scalar, the portable reference build.
//
// Dispatching: each body defines, in its ISA namespace, the kernel table of
// that ISA, `Table kernel_table(SimdTableTag<Table>, Isa)`. simd_table<Table>
// builds the table of every level the CPU runs once and returns the one of
// the level asked for; a body may map a level to another ISA's table when its own
// build would not pay (it says why).
//
// The first part of this file is guarded; the second runs for every kernel
// header that defines PYD2KE_SIMD_KERNEL_BODY.

#ifndef PYD2KE_CORE_SIMD_DISPATCH_HPP
#define PYD2KE_CORE_SIMD_DISPATCH_HPP

#include <cstddef>

#include "config.hpp"
#include "cpu_features.hpp"

#if PYD2KE_X86_DISPATCH
#include <immintrin.h>
#endif

// Target pragmas around a region of code (every function defined in it,
// templates included, is compiled for the ISA).
#define PYD2KE_PRAGMA(x) _Pragma(#x)
#if defined(__clang__)
#define PYD2KE_BEGIN_TARGET(isa) PYD2KE_PRAGMA(clang attribute push(__attribute__((target(isa))), apply_to = function))
#define PYD2KE_END_TARGET PYD2KE_PRAGMA(clang attribute pop)
#else
#define PYD2KE_BEGIN_TARGET(isa) PYD2KE_PRAGMA(GCC push_options) PYD2KE_PRAGMA(GCC target(isa))
#define PYD2KE_END_TARGET PYD2KE_PRAGMA(GCC pop_options)
#endif

namespace pyd2ke {
namespace detail {

// One tag per instruction set: the level it serves and its vector width in
// bytes (0: the portable build, no vector types).
namespace simd_scalar {
struct Isa {
    static constexpr SimdLevel level = SimdLevel::scalar;
    static constexpr std::size_t vector_bytes = 0;
};
}  // namespace simd_scalar
#if PYD2KE_X86_DISPATCH
namespace simd_sse2 {
struct Isa {
    static constexpr SimdLevel level = SimdLevel::sse2;
    static constexpr std::size_t vector_bytes = 16;
};
}  // namespace simd_sse2
namespace simd_avx2 {
struct Isa {
    static constexpr SimdLevel level = SimdLevel::avx2;
    static constexpr std::size_t vector_bytes = 32;
};
}  // namespace simd_avx2
namespace simd_avx512 {
struct Isa {
    static constexpr SimdLevel level = SimdLevel::avx512;
    static constexpr std::size_t vector_bytes = 64;
};
}  // namespace simd_avx512
#endif

// Names a kernel table type in the kernel_table overloads of the bodies.
template <class Table>
struct SimdTableTag {};

// The kernel table of Isa if this CPU runs Isa, else `fallback`. A
// kernel_table is compiled for its ISA, so even building the table may use
// that ISA's instructions (GCC fills it with VEX moves under the AVX2 target:
// an illegal instruction on a CPU without AVX).
template <class Table, class Isa>
Table runnable_kernel_table(const Table& fallback) {
    return detect_simd_level() >= Isa::level ? kernel_table(SimdTableTag<Table>{}, Isa{}) : fallback;
}

// The kernel table of `level` (a level require_simd_level accepted). The
// tables of the levels this CPU runs are built on first use, the others hold
// the scalar table and are never asked for; kernel_table is found by
// argument-dependent lookup in the ISA's namespace.
template <class Table>
const Table& simd_table(SimdLevel level) {
    static const Table scalar = kernel_table(SimdTableTag<Table>{}, simd_scalar::Isa{});
    static const Table tables[] = {
        scalar,
#if PYD2KE_X86_DISPATCH
        runnable_kernel_table<Table, simd_sse2::Isa>(scalar),
        runnable_kernel_table<Table, simd_avx2::Isa>(scalar),
        runnable_kernel_table<Table, simd_avx512::Isa>(scalar),
#endif
    };
    constexpr int count = static_cast<int>(sizeof(tables) / sizeof(tables[0]));
    const int index = static_cast<int>(level);
    return tables[index < 0 ? 0 : (index < count ? index : count - 1)];
}

}  // namespace detail
}  // namespace pyd2ke

#endif  // PYD2KE_CORE_SIMD_DISPATCH_HPP

// --- one kernel body, compiled per instruction set ----------------------------------
#ifdef PYD2KE_SIMD_KERNEL_BODY

// Vector types pass by value between always-inlined helpers; GCC's notes on
// the ABI of such calls (and its AVX-512 headers' uninitialised-variable
// noise) do not apply.
#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wpsabi"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#endif

namespace pyd2ke {
namespace detail {
namespace simd_scalar {
#define PYD2KE_SIMD_VECTOR_BYTES 0
#include PYD2KE_SIMD_KERNEL_BODY
#undef PYD2KE_SIMD_VECTOR_BYTES
}  // namespace simd_scalar
}  // namespace detail
}  // namespace pyd2ke

#if PYD2KE_X86_DISPATCH
PYD2KE_BEGIN_TARGET("sse2")
namespace pyd2ke {
namespace detail {
namespace simd_sse2 {
#define PYD2KE_SIMD_VECTOR_BYTES 16
#include PYD2KE_SIMD_KERNEL_BODY
#undef PYD2KE_SIMD_VECTOR_BYTES
}  // namespace simd_sse2
}  // namespace detail
}  // namespace pyd2ke
PYD2KE_END_TARGET

PYD2KE_BEGIN_TARGET("avx2,fma")
namespace pyd2ke {
namespace detail {
namespace simd_avx2 {
#define PYD2KE_SIMD_VECTOR_BYTES 32
#include PYD2KE_SIMD_KERNEL_BODY
#undef PYD2KE_SIMD_VECTOR_BYTES
}  // namespace simd_avx2
}  // namespace detail
}  // namespace pyd2ke
PYD2KE_END_TARGET

PYD2KE_BEGIN_TARGET("avx512f,avx512bw,avx512dq,fma")
namespace pyd2ke {
namespace detail {
namespace simd_avx512 {
#define PYD2KE_SIMD_VECTOR_BYTES 64
#include PYD2KE_SIMD_KERNEL_BODY
#undef PYD2KE_SIMD_VECTOR_BYTES
}  // namespace simd_avx512
}  // namespace detail
}  // namespace pyd2ke
PYD2KE_END_TARGET
#endif  // PYD2KE_X86_DISPATCH

#if defined(__GNUC__) && !defined(__clang__)
#pragma GCC diagnostic pop
#endif

#undef PYD2KE_SIMD_KERNEL_BODY
#endif  // PYD2KE_SIMD_KERNEL_BODY
