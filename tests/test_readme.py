"""Every ```python block of README.md and docs/usage.md, and every
``.. code-block:: python`` of the docs home page (docs/index.rst) and of
the "your own data" and streaming pages (docs/user_guide/) runs, as copied, as
its own script, quietly, and prints what its comments promise.

The promise convention (stated in docs/usage.md): a comment line

    # prints <text>

says what the block prints, one such line per printed line, in order. If
<text> ends in `± <tolerance>`, the printed line must be a number within that
tolerance of the number before it; otherwise it must equal <text> exactly.
A block's printed lines and its `# prints` lines must pair up one to one.

Each block runs with the current interpreter from a temporary folder, so
that the repository's source folder does not shadow the installed package
(PYTHONPATH is passed through). It must exit 0 with nothing on stderr: no
warning either. Blocks that import an optional extra that is missing (dask)
are skipped; the test extra installs it, so CI runs them.
"""

import importlib.util
import os
import re
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCUMENTS = ["README.md", "docs/usage.md", "docs/index.rst", "docs/user_guide/your_data.rst",
             "docs/user_guide/streaming.rst"]
FENCE = re.compile(r"^```python\n(.*?)^```", re.MULTILINE | re.DOTALL)
# An reStructuredText code block: the directive, a blank line, indented lines.
RST_BLOCK = re.compile(r"^\.\. code-block:: python\n\n((?:(?:   .*)?\n)+)", re.MULTILINE)
PROMISE = re.compile(r"^\s*# prints (.*?)\s*$")
TOLERANCE = re.compile(r"^(.*\S)\s*±\s*(\S+)$")
# Top-level modules a block may import that come from optional extras.
OPTIONAL = ("dask", "distributed", "pandas")


def python_blocks(document):
    """(first line number, code) of every ```python block of a document."""
    text = (ROOT / document).read_text(encoding="utf-8")
    if document.endswith(".rst"):
        return [(text[:m.start()].count("\n") + 3, textwrap.dedent(m.group(1))) for m in RST_BLOCK.finditer(text)]
    return [(text[:m.start()].count("\n") + 2, m.group(1)) for m in FENCE.finditer(text)]


def promises(code):
    """The `# prints` texts of a block, in order."""
    return [m.group(1) for m in map(PROMISE.match, code.splitlines()) if m]


def check_line(printed, promised):
    """Assert one printed line keeps its promise."""
    tolerance = TOLERANCE.match(promised)
    if tolerance is None:
        assert printed == promised, f"printed {printed!r}, promised {promised!r}"
        return
    expected, tol = float(tolerance.group(1)), float(tolerance.group(2))
    try:
        value = float(printed)
    except ValueError:
        pytest.fail(f"printed {printed!r}, promised a number: {promised!r}")
    assert abs(value - expected) <= tol, f"printed {value}, promised {expected} ± {tol}"


CASES = [pytest.param(document, code, id=f"{document}:{line}")
         for document in DOCUMENTS for line, code in python_blocks(document)]


def test_the_documents_have_blocks():
    assert len(python_blocks("README.md")) >= 1
    assert len(python_blocks("docs/usage.md")) >= 6
    assert len(python_blocks("docs/index.rst")) >= 1


@pytest.mark.parametrize("document, code", CASES)
def test_block_runs_as_a_script_and_keeps_its_promises(document, code, tmp_path):
    imported = set(re.findall(r"^\s*(?:import|from)\s+(\w+)", code, re.MULTILINE))
    for module in sorted(imported & set(OPTIONAL)):
        if importlib.util.find_spec(module) is None:
            # The test extra installs every optional module: CI must run every block.
            message = f"needs the optional {module} (pip install '.[test]')"
            if os.environ.get("CI"):
                pytest.fail(message)
            pytest.skip(message)
    script = tmp_path / "block.py"
    script.write_text(code, encoding="utf-8")
    env = {key: value for key, value in os.environ.items() if key != "PYTHONWARNINGS"}
    result = subprocess.run([sys.executable, str(script)], cwd=tmp_path, env=env, capture_output=True, text=True,
                            timeout=900)
    assert result.returncode == 0, f"{document} block failed:\n{result.stderr[-3000:]}"
    assert result.stderr == "", f"{document} block wrote to stderr (a warning?):\n{result.stderr[-3000:]}"
    printed, promised = result.stdout.splitlines(), promises(code)
    assert len(printed) == len(promised), (
        f"{document} block printed {len(printed)} lines but promises {len(promised)}:\n{result.stdout}")
    for line, promise in zip(printed, promised):
        check_line(line.strip(), promise)


@pytest.mark.parametrize("printed, promised, ok", [
    ("0.8828", "0.8828 ± 0.01", True),
    ("0.8700", "0.8828 ± 0.01", False),
    ("(5, 270)", "(5, 270)", True),
    ("(5, 271)", "(5, 270)", False),
    ("n/a", "0.5 ± 0.1", False),
])
def test_promise_convention(printed, promised, ok):
    if ok:
        check_line(printed, promised)
    else:
        with pytest.raises((AssertionError, pytest.fail.Exception)):
            check_line(printed, promised)
