"""The `reproduce` rows that the fidelity fixes of issue 22 change, on the
full grids: RSE `bss` (a block is never drawn twice, the RSE paper's
Algorithm 2) on StatLog DNA and the digit chain codes, and RWS on
JapaneseVowels (random series of U{2..max_length} steps, the D2KE paper's
range). Prints the rows and their R sweeps as Markdown.

    python benchmarks/rerun_fixed_rows.py
"""

import time

from pyd2ke.datasets import load_digits_chaincode, load_statlog_dna
from pyd2ke.reports.reproduce_protocol import FULL
from pyd2ke.reports.reproduce_render import results_table, sweep_table
from pyd2ke.reports.reproduce_runner import _split, string_plan, task_timeseries


def main(n_jobs=2):
    grids, rows = FULL, []
    start = time.perf_counter()
    for load, name in ((load_statlog_dna, "StatLog DNA"), (load_digits_chaincode, "digit chain codes")):
        d = load()
        data = _split(d.X_train, d.y_train, d.X_test, d.y_test, grids)
        rows += dict(string_plan(name, data, grids, n_jobs))["RSE bss"]()
    rows += dict(task_timeseries(grids, n_jobs))["RWS"]()
    print(results_table(rows))
    print()
    print(sweep_table(rows))
    print(f"\nwall time {time.perf_counter() - start:.0f} s, n_jobs={n_jobs}")


if __name__ == "__main__":
    main()
