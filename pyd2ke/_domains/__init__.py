"""Input types, one module each, and the registry from metric names to them.

Adding an input type: a module here with a Domain subclass (validation,
packing, engines, random objects), its instance in DOMAINS below, then its
estimator module; docs/architecture.md walks through it.
"""

from .base import Domain, Metric, check_metric_params
from .callable_metric import CallableDomain
from .documents import DOCUMENTS
from .graphs import GRAPHS
from .point_sets import POINT_SETS
from .series import SERIES
from .strings import STRINGS

DOMAINS = (STRINGS, SERIES, POINT_SETS, DOCUMENTS, GRAPHS)
# metric name -> the domain that computes it
METRICS = {metric: domain for domain in DOMAINS for metric in domain.metrics}


def domain_for(metric):
    """The domain of a built-in metric name, or a callable-metric domain for a function."""
    if callable(metric) and not isinstance(metric, str):
        return CallableDomain(metric)
    if not isinstance(metric, str) or metric not in METRICS:
        raise ValueError(f"metric must be one of {sorted(METRICS)} or a callable d(a, b), got {metric!r}")
    return METRICS[metric]


__all__ = ["DOMAINS", "METRICS", "Domain", "Metric", "check_metric_params", "domain_for"]
