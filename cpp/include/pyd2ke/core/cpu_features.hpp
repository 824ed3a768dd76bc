#pragma once
// Run-time choice of the SIMD instruction set. The CPU is asked once; a user
// may force a lower level (tests do, to run every kernel on one machine).

#include <stdexcept>
#include <string>
#include <vector>

#include "config.hpp"

namespace pyd2ke {

enum class SimdLevel { scalar = 0, sse2 = 1, avx2 = 2, avx512 = 3 };

inline const char* simd_level_name(SimdLevel level) {
    switch (level) {
        case SimdLevel::scalar: return "scalar";
        case SimdLevel::sse2: return "sse2";
        case SimdLevel::avx2: return "avx2";
        case SimdLevel::avx512: return "avx512";
    }
    return "unknown";
}

// The best level this CPU runs and this build has kernels for.
inline SimdLevel detect_simd_level() {
#if PYD2KE_X86_DISPATCH
    static const SimdLevel level = [] {
        __builtin_cpu_init();
        if (__builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") && __builtin_cpu_supports("avx512dq"))
            return SimdLevel::avx512;
        if (__builtin_cpu_supports("avx2")) return SimdLevel::avx2;
        return SimdLevel::sse2;  // baseline of every x86-64 CPU
    }();
    return level;
#else
    return SimdLevel::scalar;
#endif
}

// Every level this build has kernels for, lowest first (the x86 levels only
// where PYD2KE_X86_DISPATCH compiles them), whatever this CPU runs.
inline std::vector<SimdLevel> compiled_simd_levels() {
#if PYD2KE_X86_DISPATCH
    return {SimdLevel::scalar, SimdLevel::sse2, SimdLevel::avx2, SimdLevel::avx512};
#else
    return {SimdLevel::scalar};
#endif
}

// Every level this machine can run, lowest first.
inline std::vector<SimdLevel> supported_simd_levels() {
    std::vector<SimdLevel> levels{SimdLevel::scalar};
    for (int l = 1; l <= static_cast<int>(detect_simd_level()); ++l)
        levels.push_back(static_cast<SimdLevel>(l));
    return levels;
}

// `level` itself if it is a level this machine runs; std::invalid_argument
// otherwise. Every constructor that takes a SimdLevel checks it here.
inline SimdLevel require_simd_level(SimdLevel level) {
    const int value = static_cast<int>(level);
    if (value < static_cast<int>(SimdLevel::scalar) || value > static_cast<int>(SimdLevel::avx512))
        throw std::invalid_argument("unknown SIMD level " + std::to_string(value));
    if (level > detect_simd_level()) {
        std::string available;
        for (SimdLevel l : supported_simd_levels())
            available += (available.empty() ? "" : ", ") + std::string(simd_level_name(l));
        throw std::invalid_argument(std::string("SIMD level '") + simd_level_name(level) +
                                    "' is not available on this CPU (it runs " + available + ")");
    }
    return level;
}

// A level's name, or "auto" for detect_simd_level(); an invalid SimdLevel
// (that require_simd_level rejects) for any other name.
inline SimdLevel simd_level_from_name(const std::string& name) {
    if (name == "auto") return detect_simd_level();
    for (SimdLevel level : {SimdLevel::scalar, SimdLevel::sse2, SimdLevel::avx2, SimdLevel::avx512})
        if (name == simd_level_name(level)) return level;
    return static_cast<SimdLevel>(-1);
}

}  // namespace pyd2ke
