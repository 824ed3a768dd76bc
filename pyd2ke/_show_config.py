"""``show_config()``: the build and the machine in one report, the first thing
a bug report needs (like ``sklearn.show_versions()`` and ``numpy.show_config()``)."""

import os
import platform
import sys
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

from . import _core, _openmp_wait

# The libraries pyd2ke's numbers depend on, by distribution name.
DEPENDENCIES = ("numpy", "scipy", "scikit-learn", "threadpoolctl")


def _distribution_version(name):
    try:
        return version(name)
    except PackageNotFoundError:
        return None


def _thread_pools():
    """BLAS and OpenMP runtimes loaded in this process, from threadpoolctl.

    scipy.linalg is imported first so that its BLAS is loaded (and listed)
    when it differs from numpy's."""
    import scipy.linalg  # noqa: F401
    from threadpoolctl import threadpool_info

    keys = ("internal_api", "version", "num_threads", "threading_layer", "architecture", "filepath")
    pools = {"blas": [], "openmp": []}
    for pool in threadpool_info():
        if pool.get("user_api") in pools:
            pools[pool["user_api"]].append({key: pool.get(key) for key in keys if pool.get(key) is not None})
    return pools


def config():
    """The report of :func:`show_config` as nested dicts of plain values."""
    info = _core.build_info()
    pools = _thread_pools()
    return {
        "pyd2ke": {"version": info["version"], "location": str(Path(__file__).parent)},
        "core": {
            "simd_in_use": info["simd"],
            "simd_compiled": list(info["simd_compiled"]),
            "simd_cpu_runs": list(info["simd_levels"]),
            "openmp": bool(info["openmp"]),
            "openmp_threads": int(_core.max_threads()),
            "openmp_wait": _openmp_wait.started_with if info["openmp"] else None,
            "forked_after_threads": bool(_core.forked_after_threads()),
            "compiler": info["compiler"],
        },
        "blas": pools["blas"],
        "openmp_runtimes": pools["openmp"],
        "python": {"version": platform.python_version(), "implementation": platform.python_implementation(),
                   "executable": sys.executable},
        "dependencies": {name: _distribution_version(name) for name in DEPENDENCIES},
        "platform": {"system": platform.platform(), "machine": platform.machine(), "cpu_count": os.cpu_count()},
    }


def _pool_line(pool):
    details = [pool.get("internal_api", "?") + " " + str(pool.get("version") or "")]
    if "threading_layer" in pool:
        details.append(f"threading {pool['threading_layer']}")
    if "architecture" in pool:
        details.append(f"arch {pool['architecture']}")
    return f"{', '.join(d.strip() for d in details)}: {pool.get('num_threads')} threads, {pool.get('filepath')}"


def config_text(report=None):
    """The report of :func:`show_config` as the text it prints."""
    report = config() if report is None else report
    core = report["core"]
    lines = [
        f"pyd2ke {report['pyd2ke']['version']} ({report['pyd2ke']['location']})",
        "",
        "core:",
        f"  SIMD level in use:  {core['simd_in_use']}",
        f"  SIMD compiled in:   {', '.join(core['simd_compiled'])}",
        f"  SIMD this CPU runs: {', '.join(core['simd_cpu_runs'])}",
        f"  OpenMP:             {'yes' if core['openmp'] else 'no'} ({core['openmp_threads']} threads)",
        *([f"  OpenMP wait:        {core['openmp_wait']}"] if core["openmp_wait"] else []),
        *(["  OpenMP in this process: one thread (forked after the core's threads had started; use the "
           "'spawn' or 'forkserver' start method for threads in child processes)"]
          if core["forked_after_threads"] else []),
        f"  compiler:           {core['compiler']}",
        "",
        "BLAS (threadpoolctl):",
        *(f"  {_pool_line(pool)}" for pool in report["blas"] or [{"internal_api": "none found"}]),
        "OpenMP runtimes (threadpoolctl):",
        *(f"  {_pool_line(pool)}" for pool in report["openmp_runtimes"] or [{"internal_api": "none loaded"}]),
        "",
        f"Python {report['python']['version']} ({report['python']['implementation']}, "
        f"{report['python']['executable']})",
        *(f"{name} {found or 'not installed'}" for name, found in report["dependencies"].items()),
        f"platform: {report['platform']['system']}, {report['platform']['machine']}, "
        f"{report['platform']['cpu_count']} CPUs",
    ]
    return "\n".join(lines)


def show_config(mode="stdout"):
    """Print the build and the machine pyd2ke runs on; paste it into bug reports.

    Lists the pyd2ke version, the SIMD level in use and every level compiled
    in, OpenMP and its thread count, the compiler that built the core, the
    BLAS libraries and their threads (threadpoolctl), the versions of
    Python, numpy, scipy, scikit-learn and the platform. ``pyd2ke info``
    prints the same from the command line.

    Parameters
    ----------
    mode : {"stdout", "dicts"}, default="stdout"
        ``"stdout"`` prints the report and returns None; ``"dicts"`` returns
        it as nested dicts (keys ``pyd2ke``, ``core``, ``blas``,
        ``openmp_runtimes``, ``python``, ``dependencies``, ``platform``)
        without printing.
    """
    if mode not in ("stdout", "dicts"):
        raise ValueError(f"mode must be 'stdout' or 'dicts', got {mode!r}")
    report = config()
    if mode == "dicts":
        return report
    print(config_text(report))
    return None
