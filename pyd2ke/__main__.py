"""The ``pyd2ke`` command (also ``python -m pyd2ke``): the main job, the
reports and the build report.

    pyd2ke                    # StatLog DNA: Random String Embedding against exact k-NN
    pyd2ke --search           # re-choose the parameters by CV on the training set
    pyd2ke --task timeseries  # JapaneseVowels with Random Warping Series
    pyd2ke --task documents   # BBC News with Word Mover's Embedding
    pyd2ke --task sets        # digits as SIFT descriptor sets with RandomSetEmbedding
    pyd2ke --n-components 1024 --n-jobs 1
    pyd2ke reproduce [--quick] [--task ...] [--out DIR]   # every method vs the papers' baselines
    pyd2ke scaling [--quick] [--out DIR]                  # embedding time against N and L, plots
    pyd2ke timeseries [--quick] [--out DIR]               # RWS vs 1-NN DTW and MiniRocket (aeon)
    pyd2ke info               # the build and the machine (pyd2ke.show_config())
    pyd2ke --version
"""

import argparse
import importlib
import sys
from functools import partial
from pathlib import Path

# The report code lives in pyd2ke.reports (shared with benchmarks/); it is
# imported only when a command runs, so the library never imports it.

DESCRIPTION = """\
The main job: embed a bundled real dataset with random features, train a
linear model on them, compare accuracy and time with an exact-distance
baseline and say which one is the better choice there. For strings (the
default) it also times both on growing numbers of strings, to show from
which number on the method is the faster.

Subcommands (each with its own --help):
  defaults    the first try: every estimator with its defaults against the tool a
              user already has, with and without a scaler
  reproduce   every method on every bundled dataset against the papers' baselines
  scaling     embedding time against the number of objects N and their length L
  timeseries  Random Warping Series against 1-NN DTW and aeon's MiniRocket on
              the UCR/UEA datasets aeon ships (pip install 'pyd2ke[timeseries-compare]')
  info        the build and the machine: versions, SIMD levels, OpenMP, BLAS
              (the same as pyd2ke.show_config(); paste it into bug reports)"""


def _prog():
    """The name the user typed: `python -m pyd2ke`, or the `pyd2ke` command."""
    return "python -m pyd2ke" if Path(sys.argv[0]).name == "__main__.py" else "pyd2ke"


def _info_main(argv):
    from . import show_config

    argparse.ArgumentParser(
        prog=f"{_prog()} info",
        description="Print the build and the machine: the pyd2ke version, the SIMD level in use and every level "
                    "compiled in, OpenMP and its threads, the compiler, the BLAS libraries and their threads, the "
                    "versions of Python, numpy, scipy and scikit-learn, and the platform (pyd2ke.show_config()).",
    ).parse_args(argv)
    show_config()
    return 0


# The report subcommands: the pyd2ke.reports module of each, which declares
# its options (COMMAND, a reports.command.ReportCommand) beside its
# main(args, argv).
REPORTS = {"defaults": "defaults_panel", "reproduce": "reproduce", "scaling": "scaling",
           "timeseries": "timeseries_panel"}


def _report_main(name, argv):
    """Parse the options of the report subcommand name (REPORTS) and run it."""
    report = importlib.import_module(f".reports.{REPORTS[name]}", __package__)
    parser = report.COMMAND.parser(prog=f"{_prog()} {name}")
    return report.main(parser.parse_args(argv), argv)


SUBCOMMANDS = {**{name: partial(_report_main, name) for name in REPORTS}, "info": _info_main}


def main(argv=None):
    argv = sys.argv[1:] if argv is None else list(argv)
    # The reports are subcommands; without one, the main job runs with its
    # original flags (`pyd2ke`, `pyd2ke --task sets`, ...).
    if argv and argv[0] in SUBCOMMANDS:
        return SUBCOMMANDS[argv[0]](argv[1:])
    from . import __version__
    from .reports import tasks
    from .reports.command import positive_int, thread_count

    parser = argparse.ArgumentParser(prog=_prog(), description=DESCRIPTION,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=f"pyd2ke {__version__}")
    parser.add_argument("--task", choices=sorted(tasks.TASKS), default="strings",
                        help="the dataset and method (default: strings, StatLog DNA with Random String Embedding)")
    parser.add_argument("--n-components", type=positive_int, default=None,
                        help="number of random objects R, the length of each feature vector "
                             f"(default: {tasks.DEFAULT_COMPONENTS_HELP})")
    parser.add_argument("--n-jobs", type=thread_count, default=None, help="threads (default: all cores)")
    parser.add_argument("--search", action="store_true", help="choose the parameters by CV on the training set (strings task only)")
    args = parser.parse_args(argv)
    if args.search and args.task != "strings":
        parser.error(f"--search applies to the strings task only, not to --task {args.task}")
    return tasks.main(args.task, n_components=args.n_components, n_jobs=args.n_jobs, search=args.search)


if __name__ == "__main__":
    sys.exit(main())
