"""Fixed-seed data for the benchmarks. Generators only ever grow: existing
calls keep returning the same data, so results stay comparable over time."""

import os

import numpy as np

# .ci/run sets PYD2KE_ASV_SMOKE=1: its --quick run then keeps only the
# smallest sizes of the scaling grids (it checks that every benchmark runs),
# so CI stays short; tracking runs use the full grids.
SMOKE = os.environ.get("PYD2KE_ASV_SMOKE") == "1"


def grid(full, smoke):
    """The full parameter list, or `smoke` in the CI smoke run."""
    return smoke if SMOKE else full

# The same data as pyd2ke.reports.data.random_strings, but not imported from
# it: asv runs this suite against builds of older commits too, which may not
# have pyd2ke.reports.
PROTEIN = b"ACDEFGHIKLMNPQRSTVWY"


def random_strings(n, length, alphabet=PROTEIN, seed=0):
    """n random str of exactly `length` symbols."""
    rng = np.random.default_rng(seed)
    table = np.frombuffer(alphabet, dtype=np.uint8)
    codes = table[rng.integers(0, len(table), size=n * length, dtype=np.uint8)]
    blob = codes.tobytes().decode("ascii")
    return [blob[i * length : (i + 1) * length] for i in range(n)]


def random_short_strings(n, max_length=10, alphabet=PROTEIN, seed=1):
    """n random str with lengths uniform on {1..max_length}."""
    rng = np.random.default_rng(seed)
    table = np.array(list(alphabet.decode("ascii")))
    return ["".join(rng.choice(table, rng.integers(1, max_length + 1))) for _ in range(n)]


SIMD_LEVELS = {"scalar": 0, "sse2": 1, "avx2": 2, "avx512": 3}
