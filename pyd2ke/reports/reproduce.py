"""``python -m pyd2ke reproduce``: every method on every bundled real dataset,
each paper's method under that paper's own protocol, next to the exact-kernel
baselines and the tools a user would pick instead, as one Markdown table.

Protocol (the D2KE and RSE papers'):

- D2KE-family embeddings (RSE with the samplers rf, rfd, ss, bss, each with
  soft (SF, exp(-gamma d)) and direct (DF, d) features; RWS; the random-set
  embedding; WME) at R up to 4096. The random-object length (D_max, set
  size) and gamma (a factor times the "auto" gamma, one over the median
  distance to the random objects) are chosen by cross-validation.
- RSM, the representative-set method, with R in [32, 512] chosen by
  cross-validation (the D2KE paper caps it at R in [4, 512]), gamma or the
  direct kernel also by cross-validation. An R sweep beyond the cap is
  printed and plotted (the RSE paper's Figure 1) for the string datasets.
- SFMEDM / SFMCGK: beta in the SFM paper's grid {1, 10, 100, 1000, 10000}
  searched at D = 1024, the chosen beta refitted at the largest D (16384 in
  the full run, as the paper's largest) with C chosen again there.
- Exact-kernel baselines with SVC(kernel="precomputed"): k-NN, the
  Laplacian distance-substitution kernel exp(-gamma d), DSK_RBF
  exp(-gamma d^2) (the D2KE paper's), and on strings the SFM paper's exact
  ESP and CGK kernels exp(-||V(x) - V(y)||_1 / beta).
- Peers a user would pick (pyd2ke/reports/peers.py): k-mer spectrum and
  per-position one-hot for strings, tf-idf for documents, a bag of visual
  words for sets; each + a linear SVM.

Every hyper-parameter is chosen by 3-fold cross-validation on the training
part only; the test part is scored once per row. The embeddings are
unsupervised: each transformer setting is fitted once on the whole training
part and its features reused by the folds (the random objects of "ss",
"bss" and RSM may then come from the validation fold, which can only
flatter the CV score, never the test score). The soft-feature candidates
come from one direct-kernel fit per setting: soft features are exp(-gamma d)
of its distances, and RSM's smaller R are prefixes of its representatives.
The chosen model is then refitted from scratch and timed.

The linear SVM on dense features is StandardScaler + libsvm's SVC on the
linear kernel matrix Z Z^T / R: the same model as a linear SVM on the
standardised features (hinge loss, one-vs-one), but its cost does not grow
with R beyond the matrix product, which makes R = 4096 and wide grids
affordable (LinearSVC took 72 s per fit on DNA at R = 4096). Sparse peer
features (k-mers, one-hot, tf-idf) use LinearSVC, as a user would.

In the full run every grid grows past an end that cross-validation picks
(pyd2ke/reports/grid.py; FULL["axes"] gives each parameter's step and
range): the next value beyond that end is tried, and so on until the choice
sits inside the grid; the "chosen by CV" cell then names the range the grid
reached. When a choice still sits at the lowest or highest value of a grid
of three or more values (the range or the step budget stopped the growth),
other than at a natural bound (the input length for substring samplers, the
protocol's cap of R for RSM), a WARNING row says so.

Timing: "fit+transform s" is fitting the chosen model on the training part
(embedding the training objects, or computing their exact distance matrix,
plus the classifier); "predict s" is embedding (or computing distances to)
the test objects plus predicting. The search itself is in "CV search s".

This module is the command (run, main). The grids and the papers' numbers
are in reproduce_protocol, the linear SVM, the row builders and each task's
plan in reproduce_runner, the tables, plot and notes in reproduce_render.
"""

import sys
import time
import warnings
from pathlib import Path

from sklearn.exceptions import ConvergenceWarning

from .command import ReportCommand
from .progress import Progress
from .provenance import header_lines, publish
from .reproduce_protocol import FULL, QUICK
from .reproduce_render import comparison_notes, plot_sweeps, results_table, sweep_table
from .reproduce_runner import TASKS
from .timing import timed


def run(tasks, quick=False, n_jobs=None, out=None, argv=None, stream=None):
    """Run the tasks, print the report to stream (stdout) and write it to
    out/results.md (and the R sweep to out/r_sweep.png when matplotlib is
    installed) when out is given. Returns the rows."""
    stream = sys.stdout if stream is None else stream
    grids = QUICK if quick else FULL
    t_start = time.perf_counter()
    rows = []
    with warnings.catch_warnings():
        # liblinear stops at max_iter short of full convergence at the small
        # C values; the grid and the test score are measured with that default.
        warnings.simplefilter("ignore", ConvergenceWarning)
        for task in tasks:
            plan = TASKS[task](grids, n_jobs)
            progress = Progress(task, len(plan))
            for label, step in plan:
                progress.step(label)
                new_rows, seconds = timed(step)
                rows.extend(new_rows)
                # A line per step on stderr, and the rows so far in
                # out/partial.md: a long run can be followed and survives a stop.
                print(f"{task}: {label}: {seconds:.0f} s", file=sys.stderr, flush=True)
                if out is not None:
                    Path(out).mkdir(parents=True, exist_ok=True)
                    (Path(out) / "partial.md").write_text(results_table(rows) + "\n")
            progress.close()
    wall = time.perf_counter() - t_start
    sweeps = sweep_table(rows)
    report = "\n".join([
        *header_lines("reproduce", argv),
        f"Mode: {'--quick (stratified subsamples, small R and short grids)' if quick else 'full'}; "
        f"n_jobs={n_jobs}; wall time {wall:.0f} s",
        "",
        results_table(rows),
        "",
        comparison_notes(rows),
        "",
        *(["Test accuracy against R (prefixes of the chosen model; its setting, gamma and C kept):", "", sweeps, ""]
          if sweeps else []),
    ])
    out = publish(report, stream, out, "results.md")
    if out is not None:
        if sweeps:
            try:
                plot_sweeps(rows, out / "r_sweep.png")
            except ImportError:
                pass
    return rows


COMMAND = ReportCommand(
    description="Every method on every bundled dataset under its paper's protocol, against the papers' baselines "
                "(k-NN with the exact distance, RSM with R <= 512, exact-kernel SVMs: DSK_RBF, exp(-gamma d), ESP, "
                "CGK) and the tools a user would pick instead (k-mer spectrum, one-hot positions, bag of visual "
                "words, tf-idf); hyper-parameters by CV on the training part; prints a Markdown table.",
    quick="a smoke run: subsamples of every dataset, small R and small grids; far shorter than the full run, and "
          "not the numbers to publish",
    select="--task", choices=TASKS, report_file="results.md",
)


def main(args, argv):
    tasks = args.task or list(TASKS)
    run(tasks, quick=args.quick, n_jobs=args.n_jobs, out=args.out, argv=argv)
    return 0
