"""Where a report came from: the command that made it, when, and the
versions it ran with (the first lines of every report)."""

import datetime
import platform
import shlex
import sys
from pathlib import Path

import numpy as np
import scipy
import sklearn

from pyd2ke import build_info


def build_summary():
    """``pyd2ke VERSION (SIMD LEVEL, OpenMP on|off)``: the compiled module in use."""
    info = build_info()
    return f"pyd2ke {info['version']} (SIMD {info['simd']}, OpenMP {'on' if info['openmp'] else 'off'})"


def versions():
    """The build summary, then the versions of the libraries the numbers depend on."""
    return (f"{build_summary()}, numpy {np.__version__}, scipy {scipy.__version__}, "
            f"scikit-learn {sklearn.__version__}, Python {platform.python_version()}, {platform.machine()}")


def header_lines(subcommand, argv):
    """Command, Date and Versions lines of a report made by ``python -m pyd2ke
    SUBCOMMAND *argv``; argv None means it was called from Python."""
    # As the user typed it: the `pyd2ke` console script, or `python -m pyd2ke`.
    program = "pyd2ke" if Path(sys.argv[0]).name == "pyd2ke" else "python -m pyd2ke"
    command = ("Command: (called from Python)" if argv is None
               else f"Command: `{program} {shlex.join([subcommand, *argv])}`")
    return [
        command,
        f"Date: {datetime.datetime.now().astimezone().strftime('%Y-%m-%d %H:%M %Z')}",
        f"Versions: {versions()}",
    ]


def publish(report, stream, out, filename):
    """Write a finished report to the stream and, with an output folder, to
    out/filename too (the folder made if needed); returns that folder or None."""
    stream.write(report)
    stream.flush()
    if out is None:
        return None
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    (out / filename).write_text(report)
    return out
