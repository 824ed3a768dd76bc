"""The distances the compiled core computes, by name.

Each metric knows how to validate its objects and how to build a batch
engine: the compiled object that holds a fixed set of objects (random objects,
or the Y of pairwise_distances) and computes distances or D2KE features from
every input object to all of them, in parallel, without the GIL.
"""

from dataclasses import dataclass
from typing import Callable

from . import _core
from ._validation import check_strings


@dataclass(frozen=True)
class Metric:
    name: str
    # check(X, name) -> (canonical objects, flavour); flavour tells apart
    # inputs a metric accepts but cannot mix (str vs bytes).
    check: Callable
    # make_engine(objects) -> object with distances_into / features_into
    make_engine: Callable


def _levenshtein_engine(strings):
    return _core.LevenshteinBatch(list(strings))


METRICS = {
    "levenshtein": Metric("levenshtein", check_strings, _levenshtein_engine),
}


def get_metric(name):
    if not isinstance(name, str) or name not in METRICS:
        raise ValueError(f"metric must be one of {sorted(METRICS)}, got {name!r}")
    return METRICS[name]
