"""benchmarks/thread_scaling.py is what a session runs on the lent 16-core
machine, whose minutes are few: a broken script wastes them. This runs it
on tiny inputs and checks that it prints a row per transform and the
floating-point roof."""

import re
import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "thread_scaling.py"


def test_thread_scaling_prints_every_transform_and_the_roof(tmp_path):
    result = subprocess.run([sys.executable, str(SCRIPT), "--threads", "1", "2", "--repeats", "1", "--scale", "0.002"],
                            capture_output=True, text=True, cwd=tmp_path, timeout=600)
    assert result.returncode == 0, result.stderr
    rows = [line for line in result.stdout.splitlines() if line.startswith("| ") and not line.startswith("| transform")]
    names = [row.split(" | ")[0][2:] for row in rows]
    assert {"RSE", "RWS", "density js", "ESP csr", "ESP sketch", "HashedRandomFourier rbf"} <= set(names)
    for row in rows:
        cells = row.strip("| ").split(" | ")
        assert len(cells) == 10, row
        assert float(cells[3]) > 0  # x2
    roof = re.search(r"Floating-point roof .*: x2 (\d+\.\d+)", result.stdout)
    assert roof and float(roof.group(1)) > 0
