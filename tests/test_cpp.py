"""Builds and runs the C++ tests (ctest) and the find_package consumer example.

Needs a C++ compiler and cmake (the test extra installs cmake and ninja).
"""

import math
import os
import shutil
import subprocess
from pathlib import Path

import pytest

import pyd2ke

ROOT = Path(__file__).resolve().parents[1]


def _cmake():
    exe = shutil.which("cmake")
    if exe is None:
        pytest.fail("cmake is not on PATH: install the test extra (pip install .[test])")
    return exe


def _generator_args():
    return ["-G", "Ninja"] if shutil.which("ninja") else []


def _run(cmd, **kw):
    result = subprocess.run(cmd, capture_output=True, text=True, **kw)
    assert result.returncode == 0, f"{' '.join(map(str, cmd))}\n{result.stdout}\n{result.stderr}"
    return result.stdout


@pytest.mark.parametrize("openmp", ["ON", "OFF"])
def test_cpp_unit_tests(tmp_path, openmp):
    """The C++ tests, with OpenMP and without it (the serial build must work too)."""
    cmake = _cmake()
    build = tmp_path / "build"
    _run([cmake, "-S", str(ROOT), "-B", str(build), *_generator_args(), "-DCMAKE_BUILD_TYPE=Release",
          "-DPYD2KE_BUILD_TESTS=ON", "-DPYD2KE_INSTALL=OFF", f"-DPYD2KE_OPENMP={openmp}"])
    _run([cmake, "--build", str(build), "--parallel", "2"])
    out = _run(["ctest", "--output-on-failure"], cwd=build) if shutil.which("ctest") else _run(
        [str(build / "cpp" / "tests" / "test_levenshtein")]
    )
    assert "100% tests passed" in out or "all checks passed" in out
    log = _run([str(build / "cpp" / "tests" / "test_levenshtein")])
    assert f"openmp: {'yes' if openmp == 'ON' else 'no'}" in log


def test_installed_folders_exist():
    # In an editable install pyd2ke/__init__.py is the source tree's, and
    # folders beside it (where a wheel puts them) do not exist.
    from pathlib import Path

    assert (Path(pyd2ke.get_include()) / "pyd2ke" / "pyd2ke.hpp").is_file()
    assert (Path(pyd2ke.get_cmake_dir()) / "pyd2keConfig.cmake").is_file()


def test_find_package_consumer(tmp_path):
    cmake = _cmake()
    build = tmp_path / "consumer"
    _run([cmake, "-S", str(ROOT / "cpp" / "examples" / "levenshtein_consumer"), "-B", str(build),
          *_generator_args(), "-DCMAKE_BUILD_TYPE=Release", f"-Dpyd2ke_DIR={pyd2ke.get_cmake_dir()}"])
    _run([cmake, "--build", str(build)])
    exe = build / ("levenshtein_consumer.exe" if os.name == "nt" else "levenshtein_consumer")
    out = _run([str(exe), "kitten", "sitting"])
    assert "levenshtein(kitten, sitting) = 3" in out
    # d(ACGTACGT, ACG) = 5, so the first feature is exp(-2.5) / sqrt(3).
    first = float(out.split("features(ACGTACGT) =")[1].split()[0])
    assert first == pytest.approx(math.exp(-2.5) / math.sqrt(3), abs=1e-6)


def _clang():
    return next(filter(None, map(shutil.which, ["clang++", *(f"clang++-{v}" for v in range(30, 10, -1))])), None)


def _sanitizers_link(compiler, folder):
    """clang's sanitizer runtimes may be missing where clang is installed."""
    probe = folder / "probe.cpp"
    probe.write_text("int main() { return 0; }\n")
    flags = ["-fsanitize=address,undefined"]
    built = subprocess.run([compiler, *flags, str(probe), "-o", str(folder / "probe")], capture_output=True)
    return built.returncode == 0


@pytest.mark.parametrize("kind", ["gcc", "clang"])
def test_a_program_builds_with_each_compiler_here(tmp_path, kind):
    """cpp/tests/compiler_smoke.cpp as a user's program, with default flags
    (every SIMD level through the target pragmas): g++ with the headers as
    system headers and -Werror (its ABI warnings about vector arguments had
    landed in the user's file), clang with its sanitizers (it refused the
    hashed Fourier weights; its UBSan saw Levenshtein groups indexed past a
    cache line)."""
    compiler = shutil.which("g++") if kind == "gcc" else _clang()
    if compiler is None:
        pytest.skip(f"no {kind} C++ compiler here")
    flags = ["-std=c++17", "-O1", "-Wall", "-Wextra", "-isystem", pyd2ke.get_include()]
    if kind == "gcc":
        flags.append("-Werror")
    elif _sanitizers_link(compiler, tmp_path):
        flags += ["-g", "-fsanitize=address,undefined", "-fno-sanitize-recover=all"]
    exe = tmp_path / "smoke"
    _run([compiler, *flags, str(ROOT / "cpp" / "tests" / "compiler_smoke.cpp"), "-o", str(exe)])
    assert "all checks passed" in _run([str(exe)])


def test_the_usage_guide_cpp_example_runs(tmp_path):
    """docs/usage.md's C++ block, verbatim inside a main()."""
    compiler = shutil.which("g++") or _clang()
    if compiler is None:
        pytest.skip("no C++ compiler here")
    text = (ROOT / "docs" / "usage.md").read_text(encoding="utf-8")
    block = text.split("```cpp\n", 1)[1].split("```", 1)[0]
    includes = [line for line in block.splitlines() if line.startswith("#include")]
    body = [line for line in block.splitlines() if not line.startswith("#include")]
    source = tmp_path / "example.cpp"
    source.write_text("\n".join([*includes, "#include <cstdio>", "int main() {", *body,
                                 '    std::printf("%zu %.6f\\n", d, Z[0]);', "}", ""]))
    exe = tmp_path / "example"
    _run([compiler, "-std=c++17", "-O1", "-isystem", pyd2ke.get_include(), str(source), "-o", str(exe)])
    d, first = _run([str(exe)]).split()
    # d(ACGTACGT, ACG) = 5: the first feature is exp(-2.5) / sqrt(3).
    assert d == "3" and float(first) == pytest.approx(math.exp(-2.5) / math.sqrt(3), abs=1e-6)
