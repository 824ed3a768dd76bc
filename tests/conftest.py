import os
import sys
from pathlib import Path

import pytest
from hypothesis import settings

# Test the installed package: the source folder has no compiled _core, and
# `python -m pytest` would put it first on sys.path.
_ROOT = Path(__file__).resolve().parents[1]
sys.path[:] = [p for p in sys.path if Path(p or ".").resolve() != _ROOT]
sys.path.insert(0, os.path.dirname(__file__))

# Bounded example counts keep CI fast; PYD2KE_HYPOTHESIS_PROFILE=long for soak runs.
settings.register_profile("ci", max_examples=60, deadline=None)
settings.register_profile("long", max_examples=5000, deadline=None)
settings.load_profile(os.environ.get("PYD2KE_HYPOTHESIS_PROFILE", "ci"))


@pytest.fixture(scope="session")
def dna():
    from pyd2ke.datasets import load_statlog_dna

    return load_statlog_dna()
