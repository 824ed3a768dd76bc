"""The main job: embed a bundled real dataset, train a linear model, and
compare accuracy and time with the exact-distance nearest-neighbour baseline.

    python -m pyd2ke                    # StatLog DNA with Random String Embedding
    python -m pyd2ke --search           # re-choose the parameters by CV on the training set
    python -m pyd2ke --task timeseries  # JapaneseVowels with Random Warping Series
    python -m pyd2ke --task documents   # BBC News with Word Mover's Embedding
    python -m pyd2ke --task sets        # digits as SIFT descriptor sets with RandomSetEmbedding
    python -m pyd2ke --n-components 1024 --n-jobs 1

Reports (each with its own --help):

    python -m pyd2ke reproduce [--quick] [--task ...] [--out DIR]   # every method vs the papers' baselines
    python -m pyd2ke scaling [--quick] [--out DIR]                  # embedding time against N and L, plots
    python -m pyd2ke timeseries [--quick] [--out DIR]               # RWS vs 1-NN DTW and MiniRocket (aeon)
"""

import argparse
import sys

# The report code lives in pyd2ke.reports (shared with benchmarks/); it is
# imported only when a command runs, so the library never imports it.


def _reproduce_main(argv):
    from .reports import reproduce

    parser = argparse.ArgumentParser(
        prog="python -m pyd2ke reproduce",
        description="Every method on every bundled dataset against the papers' baselines (k-NN with the exact "
                    "distance, RSM, exp(-gamma d) + SVC), hyper-parameters by CV on the training part; "
                    "prints a Markdown table.")
    parser.add_argument("--quick", action="store_true", help="subsamples, small R and grids (a few minutes)")
    parser.add_argument("--task", choices=sorted(reproduce.TASKS), nargs="+", default=None,
                        help="tasks to run (default: all)")
    parser.add_argument("--out", default=None, metavar="DIR", help="also write the report to DIR/results.md")
    parser.add_argument("--n-jobs", type=int, default=None, help="threads (default: all cores)")
    return reproduce.main(parser.parse_args(argv), argv)


def _scaling_main(argv):
    from .reports import scaling

    parser = argparse.ArgumentParser(
        prog="python -m pyd2ke scaling",
        description="Embedding time against N and L for each method (default parameters), log-log slopes, "
                    "and PNG plots with --out (needs matplotlib: pip install 'pyd2ke[plots]').")
    parser.add_argument("--quick", action="store_true", help="smaller sizes (a minute or two)")
    parser.add_argument("--method", choices=sorted(scaling.METHODS), nargs="+", default=None,
                        help="methods to measure (default: all)")
    parser.add_argument("--out", default=None, metavar="DIR", help="write scaling.md and the PNG plots to DIR")
    parser.add_argument("--n-jobs", type=int, default=1, help="threads (default: 1, for clean slopes)")
    return scaling.main(parser.parse_args(argv), argv)


def _timeseries_main(argv):
    from .reports import timeseries_panel

    parser = argparse.ArgumentParser(
        prog="python -m pyd2ke timeseries",
        description="Random Warping Series against 1-NN DTW and aeon's MiniRocket on the UCR/UEA datasets aeon "
                    "ships (needs aeon: pip install 'pyd2ke[timeseries-compare]').")
    parser.add_argument("--quick", action="store_true", help="subsamples, R=64, one RWS setting (a minute or two)")
    parser.add_argument("--dataset", choices=timeseries_panel.DATASETS, nargs="+", default=None,
                        help="datasets to run (default: all)")
    parser.add_argument("--out", default=None, metavar="DIR",
                        help="also write the report to DIR/results_timeseries.md")
    parser.add_argument("--n-jobs", type=int, default=1, help="threads for RWS, DTW and MiniRocket (default: 1)")
    return timeseries_panel.main(parser.parse_args(argv), argv)


SUBCOMMANDS = {"reproduce": _reproduce_main, "scaling": _scaling_main, "timeseries": _timeseries_main}


def main(argv=None):
    argv = sys.argv[1:] if argv is None else list(argv)
    # The reports are subcommands; without one, the main job runs with its
    # original flags (`pyd2ke`, `pyd2ke --task sets`, ...).
    if argv and argv[0] in SUBCOMMANDS:
        return SUBCOMMANDS[argv[0]](argv[1:])
    from .reports import tasks

    parser = argparse.ArgumentParser(prog="python -m pyd2ke", description=__doc__.splitlines()[0],
                                     epilog="Reports: python -m pyd2ke reproduce --help, python -m pyd2ke scaling "
                                            "--help, python -m pyd2ke timeseries --help",
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--task", choices=sorted(tasks.TASKS), default="strings")
    parser.add_argument("--n-components", type=int, default=None,
                        help="number of random objects R (default: 4096 for strings, 512 for time series, "
                             "2048 for documents, 1024 for sets)")
    parser.add_argument("--n-jobs", type=int, default=None, help="threads (default: all cores)")
    parser.add_argument("--search", action="store_true", help="choose parameters by CV on the training set")
    args = parser.parse_args(argv)
    return tasks.main(args.task, n_components=args.n_components, n_jobs=args.n_jobs, search=args.search)


if __name__ == "__main__":
    sys.exit(main())
