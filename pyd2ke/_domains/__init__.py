"""Input types, one module each, and the registry from metric names to them.

Adding an input type: a module here with a Domain subclass (validation,
packing, engines, random objects), its instance in DOMAINS below, then its
estimator module; docs/architecture.md walks through it.
"""

import textwrap

from .._docstrings import fill_doc
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


# The line of a docstring that fill_metrics_doc replaces by the metric list.
METRICS_DOC_TOKEN = "<the built-in metrics>"


def metrics_doc(indent, width=79):
    """Every built-in metric as docstring lines: its name, the form of its
    objects and what it computes, from the registry (so that no docstring
    forgets a metric)."""
    lines = []
    for domain in DOMAINS:
        for name, metric in domain.metrics.items():
            text = f'- "{name}": {domain.name}, each {domain.input_format}. {metric.summary[:1].upper()}{metric.summary[1:]}.'
            lines += textwrap.wrap(text, width, initial_indent=" " * indent, subsequent_indent=" " * (indent + 2),
                                   break_on_hyphens=False)
    return "\n".join(lines)


def fill_metrics_doc(obj):
    """obj (a class or function) with the line METRICS_DOC_TOKEN of its
    docstring replaced by metrics_doc at that line's indentation."""
    return fill_doc(obj, {METRICS_DOC_TOKEN: metrics_doc})


__all__ = ["DOMAINS", "METRICS", "Domain", "Metric", "check_metric_params", "domain_for", "fill_metrics_doc",
           "metrics_doc"]
