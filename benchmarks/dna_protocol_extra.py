"""StatLog DNA beyond the grids of ``python -m pyd2ke reproduce``: longer
random strings for rf / rfd (the full run's CV chose D_max = 200, the top of
its grid) and ss / bss with D_max = 120, twice the 60-symbol inputs (then
about half of the ss random strings are whole training strings, which makes
the row partly RSM). Same code path as reproduce (distance_rows: R = 4096,
gamma factor and C by 3-fold CV on the training part, one test score), with
the gamma grid widened to 16 x auto (and, since reproduce's grids grow
past an end CV picks, grown further when CV picks an end). The *8192 plans
double R (the RSE paper searches R up to 8192) at the D_max the full run
chose.

    python benchmarks/dna_protocol_extra.py rf ss120 rfd
    python benchmarks/dna_protocol_extra.py rfd8192 ss8192
    python benchmarks/dna_protocol_extra.py rfd16384 rfd32768   # beyond both papers' R
"""

import sys
import time
import warnings

from sklearn.exceptions import ConvergenceWarning

from pyd2ke import RandomStringEmbedding
from pyd2ke.datasets import load_statlog_dna
from pyd2ke.reports.reproduce_protocol import FULL
from pyd2ke.reports.reproduce_render import results_table
from pyd2ke.reports.reproduce_runner import distance_rows

PLANS = {"rf": ("rf", [400, 800], 4096), "rfd": ("rfd", [400, 800], 4096), "ss120": ("ss", [120], 4096),
         "bss120": ("bss", [120], 4096), "rfd8192": ("rfd", [200], 8192), "ss8192": ("ss", [60], 8192),
         "rfd16384": ("rfd", [200], 16384), "rfd32768": ("rfd", [200], 32768)}


def main(names):
    warnings.simplefilter("ignore", ConvergenceWarning)
    dna = load_statlog_dna()
    data = (dna.X_train, dna.y_train, dna.X_test, dna.y_test)
    grids = dict(FULL, gamma_factors=[0.25, 1.0, 4.0, 16.0], C=[1.0, 10.0, 100.0])
    for name in names:
        sampler, lengths, R = PLANS[name]

        def make(R, kernel, gamma, max_length, sampler=sampler):
            return RandomStringEmbedding(R, sampler=sampler, kernel=kernel, gamma=gamma, max_length=max_length,
                                         random_state=0, n_jobs=2)

        t0 = time.perf_counter()
        rows = distance_rows("StatLog DNA", f"RSE (R={R}, {sampler})", make,
                             [{"max_length": m} for m in lengths], data, grids, R=R)
        print(results_table(rows), f"\n{name}: {time.perf_counter() - t0:.0f} s", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:] or list(PLANS))
