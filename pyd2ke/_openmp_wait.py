"""How long the core's OpenMP threads spin after a parallel region.

libgomp's threads spin for GOMP_SPINCOUNT iterations (300000 by default,
about 6 ms on the 2-core AMD EPYC machine) before they sleep. Several
transforms run an OpenMP region (packing their input, checking it) and
then blocks on Python threads, which found those cores busy spinning: the
density features' first blocks ran at half speed, x2 1.66-1.81 on two
cores against 1.76-1.89 with 3000 iterations, with RSE, RWS, RGE and the
ESP sketches, OpenMP from end to end, unchanged (two alternating runs of
benchmarks/thread_scaling.py each). The runtime reads the variable once,
when it is loaded with the core, so it is set only for that import and
removed again: the variable is in no other library's environment, and a
user who chose OMP_WAIT_POLICY or GOMP_SPINCOUNT keeps that choice. Two
things it cannot change: a libgomp loaded before pyd2ke (by another
library) has read its setting already, and show_config says so; and
libraries that share the core's libgomp (one copy, as in a conda
environment) run their regions with the same short spin.
"""

import os
from contextlib import contextmanager

SPIN_COUNT = "3000"
_USER_SETTINGS = ("OMP_WAIT_POLICY", "GOMP_SPINCOUNT")

# What the core's runtime was started with, for show_config.
started_with = None


@contextmanager
def short_spin():
    """Inside the block (the core's import), GOMP_SPINCOUNT is SPIN_COUNT
    unless the user set OMP_WAIT_POLICY or GOMP_SPINCOUNT."""
    global started_with
    chosen = {name: os.environ[name] for name in _USER_SETTINGS if name in os.environ}
    if chosen:
        started_with = ", ".join(f"{name}={value} (yours)" for name, value in chosen.items())
        yield
        return
    if _libgomp_loaded():
        started_with = ("the setting of the libgomp another library loaded before pyd2ke (it read its variables "
                        "then; pyd2ke's GOMP_SPINCOUNT=3000 did not apply)")
        yield
        return
    os.environ["GOMP_SPINCOUNT"] = SPIN_COUNT
    started_with = f"GOMP_SPINCOUNT={SPIN_COUNT} (pyd2ke's; set OMP_WAIT_POLICY or GOMP_SPINCOUNT to choose)"
    try:
        yield
    finally:
        os.environ.pop("GOMP_SPINCOUNT", None)


def _libgomp_loaded():
    """Whether a libgomp is mapped into this process already (Linux; False
    where /proc/self/maps cannot be read)."""
    try:
        with open("/proc/self/maps") as maps:
            return any("libgomp" in line for line in maps)
    except OSError:
        return False
