"""The examples in the docstrings (what ``help()`` and the API pages show)
run and print what they say, without a warning."""

import doctest
import importlib
import pkgutil
import warnings

import pytest

import pyd2ke

# Modules whose examples need an optional package.
NEEDS = {"pyd2ke.dask": "dask", "pyd2ke.sktime": "sktime"}


def _modules_with_examples():
    names = []
    for info in pkgutil.walk_packages(pyd2ke.__path__, "pyd2ke."):
        if ".reports" in info.name or info.name.endswith("__main__"):
            continue
        spec = importlib.util.find_spec(info.name)
        source = spec.loader.get_source(info.name) if spec and spec.loader else None
        if source and ">>> " in source:
            names.append(info.name)
    return sorted(names)


MODULES = _modules_with_examples()


def test_the_examples_are_found():
    # The estimators' modules carry examples; an empty list would pass vacuously.
    assert {"pyd2ke.strings", "pyd2ke.timeseries", "pyd2ke.sets", "pyd2ke.d2ke"} <= set(MODULES)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name):
    if name in NEEDS:
        pytest.importorskip(NEEDS[name])
    module = importlib.import_module(name)
    finder = doctest.DocTestFinder(exclude_empty=True)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    tests = [t for t in finder.find(module, name) if t.examples]
    assert tests, f"{name} has '>>> ' in its source but no example was found"
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        for test in tests:
            runner.run(test)
    result = runner.summarize(verbose=False)
    assert result.failed == 0, f"{result.failed} of {result.attempted} examples of {name} failed (printed above)"
