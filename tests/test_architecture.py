"""docs/architecture.md names things that exist: every module, class,
function, constant, file and C++ symbol in backticks in its walk-through
and in its module table is found where the code is."""

import importlib
import importlib.util
import inspect
import re
from pathlib import Path

import pytest

import pyd2ke

ROOT = Path(__file__).resolve().parents[1]
DOC = (ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
IDENTIFIER = re.compile(r"^[A-Za-z_][\w.:/<>-]*$")


def _package_modules():
    out = []
    for path in (ROOT / "pyd2ke").rglob("*.py"):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        name = ".".join(parts)
        if name in ("pyd2ke.aeon", "pyd2ke.sktime") and importlib.util.find_spec(name.split(".")[1]) is None:
            continue  # an optional extra
        if name not in ("pyd2ke.__main__",):
            out.append(importlib.import_module(name))
    return out


MODULES = _package_modules()


def _python_names():
    """Every module-level name and class member of the package."""
    names = set()
    for module in MODULES:
        names.add(module.__name__)
        names.add(module.__name__.removeprefix("pyd2ke."))
        for attr, value in vars(module).items():
            names.add(attr)
            if inspect.isclass(value):
                names.update(f"{attr}.{member}" for member in dir(value))
    return names


PYTHON = _python_names()
PY_SOURCE = "\n".join(p.read_text(encoding="utf-8") for p in (ROOT / "pyd2ke").rglob("*.py"))
CPP = "\n".join(p.read_text(encoding="utf-8") for folder in ("cpp/include", "bindings")
                for p in (ROOT / folder).rglob("*") if p.suffix in (".hpp", ".cpp", ".inl"))


def _tokens(section_start, section_end):
    text = DOC[DOC.index(section_start): DOC.index(section_end)]
    return sorted({t for t in re.findall(r"`([^`]+)`", text) if IDENTIFIER.match(t)})


def _exists(token):
    if "<" in token:  # a pattern such as distance/<name>.hpp
        return True
    if "/" in token or token.endswith((".py", ".hpp", ".cpp", ".md")):
        return any((base / token).exists() for base in (ROOT, ROOT / "pyd2ke", ROOT / "pyd2ke" / "_domains", ROOT / "pyd2ke" / "density",
                                                         ROOT / "cpp/include/pyd2ke"))
    if "::" in token:  # C++: Class::member or namespace::function
        owner, _, member = token.rpartition("::")
        owner = owner.split("::")[-1]
        return bool(re.search(rf"\b{re.escape(owner)}\b", CPP)) and bool(re.search(rf"\b{re.escape(member)}\b", CPP))
    if token.startswith("pyd2ke."):
        module, _, rest = token.partition(".")
        obj = pyd2ke
        for part in rest.split("."):
            if not hasattr(obj, part):
                try:
                    obj = importlib.import_module(f"{obj.__name__}.{part}")
                    continue
                except (ImportError, AttributeError):
                    return False
            obj = getattr(obj, part)
        return True
    if "." in token:  # Class.member
        return token in PYTHON
    # A bare name: a module-level name, or a parameter, fitted attribute or
    # method the sources use.
    return token in PYTHON or bool(re.search(rf"\b{re.escape(token)}\b", PY_SOURCE + CPP))


WALK = _tokens("## One fit and one transform", "## How to add a domain")
TABLE = _tokens("### The Python package, by role", "### The C++ core")
SKELETON = _tokens("## One skeleton for every estimator", "## One fit and one transform")


@pytest.mark.parametrize("token", sorted(set(WALK + TABLE + SKELETON)))
def test_named_thing_exists(token):
    assert _exists(token), f"docs/architecture.md names {token!r}, which the code does not have"


def test_the_walk_through_names_enough():
    assert len(WALK) > 30


def test_the_skeleton_section_names_its_hooks():
    from pyd2ke._base import Pyd2keTransformer

    hooks = {name for name in vars(Pyd2keTransformer)
             if name.startswith("_") and not name.startswith(("__", "_sklearn"))}  # not scikit-learn's own
    assert hooks <= set(SKELETON), hooks - set(SKELETON)
