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
removed again: nothing else in the process inherits it, and a user who
chose OMP_WAIT_POLICY or GOMP_SPINCOUNT keeps that choice.
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
    os.environ["GOMP_SPINCOUNT"] = SPIN_COUNT
    started_with = f"GOMP_SPINCOUNT={SPIN_COUNT} (pyd2ke's; set OMP_WAIT_POLICY or GOMP_SPINCOUNT to choose)"
    try:
        yield
    finally:
        os.environ.pop("GOMP_SPINCOUNT", None)
