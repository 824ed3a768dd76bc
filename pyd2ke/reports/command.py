"""What a report subcommand (``pyd2ke defaults``, ``reproduce``, ``scaling``,
``timeseries``) takes on its command line. Each report module declares its
``COMMAND`` next to its ``main(args, argv)``; ``pyd2ke.__main__`` builds the
parser from it when that subcommand runs.

Every report takes the same four options: ``--quick``, a choice of what to
run (``--task``, ``--method`` or ``--dataset``), ``--out DIR`` (where the
report is written too) and ``--n-jobs``.
"""

import argparse
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Collection, Optional


# Option types: a bad value is an argparse error (usage, exit 2) when the
# command line is read, not a traceback, or a surprise, after the run.
def positive_int(text):
    """An integer >= 1."""
    value = _int(text)
    if value < 1:
        raise argparse.ArgumentTypeError(f"{text} is not a positive integer")
    return value


def thread_count(text):
    """A thread count: >= 1, or negative for all cores (-1) but some."""
    value = _int(text)
    if value == 0:
        raise argparse.ArgumentTypeError("0 threads: pass a positive number, or -1 for all cores")
    return value


def writable_folder(text):
    """A folder the report can be written to, made now if missing."""
    folder = Path(text)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise argparse.ArgumentTypeError(f"cannot make the folder {text}: {error.strerror}") from None
    if not os.access(folder, os.W_OK):
        raise argparse.ArgumentTypeError(f"cannot write to the folder {text}")
    return text


def _int(text):
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not an integer") from None


@dataclass(frozen=True)
class ReportCommand:
    description: str
    quick: str  # the help of --quick: what it leaves out
    select: str  # the option that picks what to run: "--task", "--method", "--dataset"
    choices: Collection[str]  # what it may pick
    report_file: str  # the report's file name under --out DIR
    n_jobs: Optional[int] = None  # the default of --n-jobs; None: all cores

    def parser(self, prog):
        what = self.select.lstrip("-") + "s"
        threads = "all cores" if self.n_jobs is None else self.n_jobs
        parser = argparse.ArgumentParser(prog=prog, description=self.description)
        parser.add_argument("--quick", action="store_true", help=self.quick)
        parser.add_argument(self.select, choices=sorted(self.choices), nargs="+", default=None,
                            help=f"{what} to run (default: all)")
        parser.add_argument("--out", type=writable_folder, default=None, metavar="DIR",
                            help=f"also write the report to DIR/{self.report_file}")
        parser.add_argument("--n-jobs", type=thread_count, default=self.n_jobs, help=f"threads (default: {threads})")
        return parser
