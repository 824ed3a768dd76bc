"""``python -m pyd2ke scaling``: embedding time against the number of objects
N and their length L for each method with its default parameters, the
fitted log-log slope (1 = linear), and plots in the style of Figure 2 of
the RSE paper (measured times with linear and quadratic reference lines).

Only ``transform`` is timed: the median of five rounds, each timing every
size of a sweep once. Sizes are chosen so that the smallest measurement takes
tens of milliseconds: below that, fixed per-call overhead flattens the slope.

Each sweep fits one model, on 50 objects of its first size, and transforms
every size with it, as a user embeds objects of any length with one fitted
model. Refitting at each length would change the random objects along with
L: RSE's default sampler cuts its random strings from the fit strings, and
the lengths it drew (hence the SIMD lane groups each symbol passes through)
differed from one L to the next. Two methods are refitted at every size
because their fitted shape follows L: SFMCGK (walks of 3 x the longest fit
string) and RandomMaclaurin (L is the input dimension).
"""

import statistics
import time
from functools import partial
from pathlib import Path

import numpy as np

from pyd2ke import (RandomMaclaurin, RandomSetEmbedding, RandomStringEmbedding, RandomWarpingSeries,
                    WordMoversEmbedding, make_sfmcgk, make_sfmedm)

from .command import ReportCommand
from .data import random_documents, random_series, random_sets, random_strings, random_vectors
from .progress import Progress
from .provenance import header_lines
from .tables import cell, markdown_table


def _models():
    """Method name -> estimator factory (a function, so tests can swap it)."""
    # Random strings and series of at most 10: the lengths these sweeps were
    # first measured with, fixed (the "auto" defaults grow with L, which
    # would change what an L sweep measures).
    return {
        "RSE": partial(RandomStringEmbedding, max_length=10),
        "RWS": partial(RandomWarpingSeries, max_length=10, derivative=False),
        "RandomSetEmbedding": RandomSetEmbedding,
        "WME": WordMoversEmbedding,
        "SFMEDM": make_sfmedm,
        "SFMCGK": make_sfmcgk,
        "RandomMaclaurin": RandomMaclaurin,
    }


# method: (data maker (n, length), what L is, L for the N sweep, N for the
# L sweep, whether the fitted model's shape follows L). The fixed sizes make
# the smallest point take roughly 50-100 ms on one core, so that per-call
# overhead does not flatten the slope.
N_GRID = [1000, 10000, 100000]
L_GRID = [128, 512, 2048, 8192]
METHODS = {
    "RSE": (random_strings, "string length", 4096, 10000, False),
    "RWS": (random_series, "series length, 3 channels", 32, 300, False),
    "RandomSetEmbedding": (random_sets, "set size, 16-d vectors", 16, 200, False),
    "WME": (random_documents, "words per document, 16-d vectors", 4, 40, False),
    "SFMEDM": (random_strings, "string length", 16, 300, False),
    "SFMCGK": (random_strings, "string length", 8, 60, True),
    "RandomMaclaurin": (random_vectors, "input dimension", 1024, 10000, True),
}


def loglog_slope(sizes, times):
    """Least-squares slope of log(time) against log(size): 1 linear, 2 quadratic."""
    return float(np.polyfit(np.log(sizes), np.log(times), 1)[0])


ROUNDS = 5


def measure(method, sizes, make_data, n_jobs, progress=None, rounds=ROUNDS, refit=False):
    """Transform times of `method` (default parameters) on make_data(size) for
    each size: the median over `rounds` rounds, each of which times every
    size once. Interleaved rounds make a drift in the speed of a shared
    machine (20 % from minute to minute on the VMs this ran on) hit all sizes
    alike, where timing one size after the other would bend the slope;
    rounds alternate between ascending and descending order. The model is
    fitted on 50 objects of the first size, or of each size when `refit`."""
    factory = _models()[method]
    setups = []
    model = None
    for size in sizes:
        X = make_data(size)
        if model is None or refit:
            model = factory(random_state=0, n_jobs=n_jobs).fit(X[:50])
        setups.append((X, model))
    times = [[] for _ in sizes]
    for round_ in range(rounds):
        # Ascending, then descending, ...: in ascending order only, the
        # smallest size always ran right after the largest one had swept
        # the caches and freed its pages.
        order = range(len(sizes)) if round_ % 2 == 0 else reversed(range(len(sizes)))
        for i in order:
            size, (X, model), size_times = sizes[i], setups[i], times[i]
            if progress is not None:
                progress.step(f"{method} size {size}, round {round_ + 1} of {rounds}")
            t0 = time.perf_counter()
            model.transform(X)
            size_times.append(time.perf_counter() - t0)
    return [statistics.median(t) for t in times]


def sweeps(method, quick):
    make, what, l_for_n, n_for_l, sized_model = METHODS[method]
    # --quick drops the largest size of each sweep.
    n_grid, l_grid = (N_GRID[:-1], L_GRID[:-1]) if quick else (N_GRID, L_GRID)
    refit_note = "; refitted at each L" if sized_model else ""
    return [("N", n_grid, lambda n: make(n, l_for_n), f"L={l_for_n} ({what})", False),
            ("L", l_grid, lambda length: make(n_for_l, length), f"N={n_for_l}; L = {what}{refit_note}", sized_model)]


def run(methods, quick=False, n_jobs=1):
    """Rows {method, sweep, fixed, sizes, times, slope}."""
    rows = []
    total = ROUNDS * sum(len(sizes) for m in methods for _, sizes, _, _, _ in sweeps(m, quick))
    progress = Progress("scaling", total)
    for method in methods:
        for sweep, sizes, make, fixed, refit in sweeps(method, quick):
            times = measure(method, sizes, make, n_jobs, progress, refit=refit)
            rows.append({"method": method, "sweep": sweep, "fixed": fixed, "sizes": sizes, "times": times,
                         "slope": loglog_slope(sizes, times),
                         "upper_slope": loglog_slope(sizes[1:], times[1:]) if len(sizes) > 2 else None})
    progress.close()
    return rows


COLUMNS = ["method", "sweep", "other size fixed", "sizes", "transform s", "log-log slope",
           "slope without the smallest"]


def slopes_table(rows):
    """One line per sweep: its sizes, the times measured and their log-log slopes."""
    return markdown_table(COLUMNS, [[r["method"], r["sweep"], r["fixed"], ", ".join(f"{s:g}" for s in r["sizes"]),
                                     ", ".join(f"{t:.3g}" for t in r["times"]), cell(r["slope"], ".3f"),
                                     cell(r["upper_slope"], ".3f")] for r in rows])


def plot(rows, sweep, path):
    """One log-log panel per method: measured times, linear and quadratic
    reference lines through the first point (RSE paper, Figure 2)."""
    import matplotlib
    import matplotlib.ticker

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    rows = [r for r in rows if r["sweep"] == sweep]
    cols = min(4, len(rows))
    nrows = -(-len(rows) // cols)
    fig, axes = plt.subplots(nrows, cols, figsize=(3.2 * cols, 2.9 * nrows), squeeze=False)
    for ax, r in zip(axes.flat, rows):
        x, t = np.asarray(r["sizes"], float), np.asarray(r["times"])
        ax.loglog(x, t, "o-", color="C0", label=f"measured (slope {r['slope']:.2f})")
        ax.loglog(x, t[0] * x / x[0], "--", color="C2", label="linear")
        ax.loglog(x, t[0] * (x / x[0]) ** 2, ":", color="C3", label="quadratic")
        ax.set_title(r["method"], fontsize=10)
        ax.set_xticks(x, [f"{v:g}" for v in x])
        ax.xaxis.set_minor_formatter(matplotlib.ticker.NullFormatter())
        ax.set_xlabel(f"{sweep} ({r['fixed']})", fontsize=8)
        ax.set_ylabel("transform time (s)", fontsize=8)
        ax.set_ylim(t.min() / 2, t.max() * 3)
        ax.tick_params(labelsize=7)
        ax.legend(fontsize=7, loc="upper left")
    for ax in list(axes.flat)[len(rows):]:
        ax.axis("off")
    fig.suptitle(f"Embedding time against {'the number of objects N' if sweep == 'N' else 'the object length L'}",
                 fontsize=11)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


COMMAND = ReportCommand(
    description="Embedding time against N and L for each method (default parameters), log-log slopes, and PNG "
                "plots with --out (needs matplotlib: pip install 'pyd2ke[plots]'). One thread unless --n-jobs "
                "says otherwise, for clean slopes.",
    quick="drop the largest size of each sweep",
    select="--method", choices=METHODS, report_file="scaling.md", n_jobs=1,
)


def main(args, argv):
    methods = args.method or list(METHODS)
    rows = run(methods, quick=args.quick, n_jobs=args.n_jobs)
    report = "\n".join([
        *header_lines("scaling", argv),
        f"n_jobs={args.n_jobs}; transform time only (median of {ROUNDS} interleaved rounds); one model per sweep, "
        "fitted on 50 objects of its first size (refitted at each size where noted)",
        "",
        slopes_table(rows),
        "",
    ])
    print(report)
    if args.out is None:
        return 0
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "scaling.md").write_text(report)
    try:
        import matplotlib  # noqa: F401
    except ImportError:
        print("matplotlib is not installed, so no plots were drawn: pip install 'pyd2ke[plots]' "
              "(or pip install matplotlib) and run again.")
        return 0
    for sweep in ("N", "L"):
        plot(rows, sweep, out / f"scaling_{sweep}.png")
        print(f"wrote {out / f'scaling_{sweep}.png'}")
    return 0
