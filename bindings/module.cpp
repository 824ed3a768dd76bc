// pyd2ke._core: the compiled core. Holds no algorithm; see cpp/include/pyd2ke.

#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <new>
#include <stdexcept>
#include <string>

#include <pyd2ke/pyd2ke.hpp>

namespace py = pybind11;

// One binding file per folder of cpp/include/pyd2ke (embed/ is in
// bind_embed.hpp: the D2KE methods every batch class of bind_distance.cpp has;
// and bind_graphs.cpp: embed/graph_spectral.hpp, the graph domain's own).
void bind_core(py::module_& m);
void bind_distance(py::module_& m);
void bind_features(py::module_& m);
void bind_graphs(py::module_& m);
void bind_sketch(py::module_& m);

// The compiler that built this module (and so the header-only core in it).
static std::string compiler_name() {
#if defined(__clang__)
    return std::string("clang ") + __clang_version__;
#elif defined(__GNUC__)
    return std::string("gcc ") + __VERSION__;
#elif defined(_MSC_VER)
    return "MSVC " + std::to_string(_MSC_VER);
#else
    return "unknown";
#endif
}

PYBIND11_MODULE(_core, m) {
    m.doc() = "pyd2ke compiled core (C++17, header-only library pyd2ke::pyd2ke)";
    // C++ argument errors surface as ValueError, not RuntimeError.
    py::register_exception_translator([](std::exception_ptr p) {
        try {
            if (p) std::rethrow_exception(p);
        } catch (const std::invalid_argument& e) {
            PyErr_SetString(PyExc_ValueError, e.what());
        } catch (const std::length_error& e) {
            PyErr_SetString(PyExc_ValueError, e.what());
        } catch (const std::bad_alloc&) {
            // pybind11's own translation says only "std::bad_alloc".
            PyErr_SetString(PyExc_MemoryError,
                            "pyd2ke's core could not allocate the memory this call needs: the objects are too "
                            "large for it (exact transport distances take memory proportional to the product of "
                            "two objects' sizes), or a parameter asks for too much");
        } catch (const pyd2ke::Interrupted&) {
            // Python's signal handler already set the error (KeyboardInterrupt).
            if (!PyErr_Occurred()) PyErr_SetNone(PyExc_KeyboardInterrupt);
        }
    });
    m.def("max_threads", &pyd2ke::max_threads, "Threads OpenMP would use by default (1 without OpenMP).");
    m.def("forked_after_threads", &pyd2ke::forked_after_threads,
          "Whether this process was forked after the core's OpenMP threads had started (its loops then run on "
          "one thread: GNU OpenMP cannot start them again in a forked child).");
    m.def("parallel_region_seconds", &pyd2ke::parallel_region_seconds,
          "Seconds spent so far inside the core's outermost parallel loops (benchmarks/thread_scaling.py).");
    m.def("build_info", [] {
        py::dict info;
        info["version"] = PYD2KE_VERSION_STRING;
        info["openmp"] = pyd2ke::has_openmp();
        info["simd"] = pyd2ke::simd_level_name(pyd2ke::detect_simd_level());
        py::list levels, compiled;
        for (pyd2ke::SimdLevel l : pyd2ke::supported_simd_levels()) levels.append(pyd2ke::simd_level_name(l));
        for (pyd2ke::SimdLevel l : pyd2ke::compiled_simd_levels()) compiled.append(pyd2ke::simd_level_name(l));
        info["simd_levels"] = levels;       // the compiled levels this CPU runs
        info["simd_compiled"] = compiled;   // every level the build carries
        info["compiler"] = compiler_name();
        return info;
    });
    bind_core(m);
    bind_distance(m);
    bind_features(m);
    bind_graphs(m);
    bind_sketch(m);
}
