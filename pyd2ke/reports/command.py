"""What a report subcommand (``pyd2ke defaults``, ``reproduce``, ``scaling``,
``timeseries``) takes on its command line. Each report module declares its
``COMMAND`` next to its ``main(args, argv)``; ``pyd2ke.__main__`` builds the
parser from it when that subcommand runs.

Every report takes the same four options: ``--quick``, a choice of what to
run (``--task``, ``--method`` or ``--dataset``), ``--out DIR`` (where the
report is written too) and ``--n-jobs``.
"""

import argparse
from dataclasses import dataclass
from typing import Collection, Optional


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
        parser.add_argument("--out", default=None, metavar="DIR", help=f"also write the report to DIR/{self.report_file}")
        parser.add_argument("--n-jobs", type=int, default=self.n_jobs, help=f"threads (default: {threads})")
        return parser
