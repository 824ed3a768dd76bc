"""What every input type (domain) tells D2KE and pairwise_distances.

A domain owns everything format-specific about one kind of object: how user
input is validated and packed for the compiled core (and the error messages
when it cannot be), which built-in distances apply and their parameters, how
an engine computing them is built, the distribution of random objects with
its default parameters, and its "flavour": the property of a collection
that later collections must share (str or bytes, channel count, dimension).
"""

from dataclasses import dataclass

import numpy as np


@dataclass(frozen=True)
class Metric:
    """A built-in distance of a domain."""

    name: str
    # Names of the keyword parameters it takes (e.g. DTW's window).
    params: tuple = ()
    # True when distances and features cannot overflow whatever the input (edit
    # distances are whole numbers no larger than the longer string): callers
    # skip the pass over the output that looks for inf and NaN.
    always_finite: bool = False
    # True when d(a, b) and d(b, a) are the same bits (the same arithmetic
    # in the same order): pairwise_distances(X) then computes each pair once.
    symmetric: bool = False
    # What it computes, one sentence: the metric lists of the docstrings
    # (metrics_doc) are generated from it.
    summary: str = ""


class Domain:
    """Base of the domains; each subclass fills in these members."""

    name = ""
    # metric name -> Metric
    metrics = {}
    # The form of one object, for the generated docstrings (metrics_doc).
    input_format = ""
    # True when a list of objects is packed into one contiguous copy for the
    # core: transforms then check and pack it a chunk at a time, so they need
    # O(chunk) memory above their output.
    packs_lists = False
    # Keyword defaults of draw_random_objects: the generic D2KE's random
    # objects; the domain's estimator exposes them as parameters.
    sampler_defaults = {}
    # True when an object may come as a table whose columns are its
    # coordinates (a set's or a series' DataFrame): their names must agree
    # from object to object and with the fit data's (Pyd2keTransformer).
    items_are_tables = False
    # Whether its objects may be strings (scikit-learn's input tag).
    takes_strings = False
    # What to try when the fit objects' features have no spread (D2KEBase).
    far_from_random_hint = "check that the objects differ, or compare them with the random objects' distribution"

    def check(self, X, name="X", dtype=None):
        """(objects in the form engines take, flavour), or ValueError/TypeError naming `name`."""
        raise NotImplementedError

    def flavour_error(self, name, got, expected):
        """The exception for input whose flavour differs from the fit data's (or X's)."""
        raise NotImplementedError

    def encode_pairwise(self, X, Y):
        """X and Y (Y may be None) in the form check takes, where objects
        carry categories that must be coded alike across both (graph node
        labels); most domains have none."""
        return X, Y

    def settle_layout(self, X, flavour):
        """X as check should read it, given the flavour already known (the
        fit data's, or X's for Y), where the shape alone leaves the layout
        open; most domains have no such doubt."""
        return X

    def check_layout(self, X, name="X"):
        """Warn when checked objects X (fit data, or pairwise_distances'
        input) look like another library's layout read the wrong way round;
        most domains have no such doubt."""

    def check_params(self, metric, params):
        """The metric's keyword parameters, validated (unknown names are
        rejected by check_metric_params before this is called)."""
        return params

    def make_engine(self, metric, objects, params, dtype):
        """The compiled batch holding `objects` (random objects, or pairwise_distances'
        Y): distances_into(X, out, n_threads) and features_into(X, gamma, kernel,
        out, n_threads) from every object of a checked X to all of them."""
        raise NotImplementedError

    def draw_random_objects(self, X, flavour, n, rng, **params):
        """n random objects in the input format, drawn with numpy RandomState rng;
        X is the checked fit data. params override sampler_defaults."""
        raise ValueError(
            f"sampler='random' needs a built-in metric with a random-object distribution; the {self.name} "
            "domain has none: use sampler='representative' or a callable"
        )

    def is_packable_list(self, X):
        """True when X is a list this domain would pack (see packs_lists)."""
        return self.packs_lists and isinstance(X, (list, tuple)) and len(X) > 0


class RaggedDomain(Domain):
    """A domain whose objects are rows of numbers (time steps, points, word
    vectors), packed into one Ragged; its flavour is the row width."""

    packs_lists = True

    def check_ragged(self, X, name, dtype):
        """X checked and packed into a Ragged of dtype."""
        raise NotImplementedError

    def check(self, X, name="X", dtype=np.float64):
        packed = self.check_ragged(X, name, dtype)
        return packed, packed.dim

    def flavour_error(self, name, got, expected):
        return ValueError(
            f"{name} has points of dimension {got}, but {expected} was expected (as in X or the fit data)"
        )


def check_metric_params(domain, metric, params, name="metric_params"):
    """The keyword parameters of `metric`, validated; unknown names are errors."""
    params = {} if params is None else dict(params)
    allowed = domain.metrics[metric].params if metric in domain.metrics else ()
    unknown = set(params) - set(allowed)
    if unknown:
        label = metric if isinstance(metric, str) else domain.name
        raise ValueError(
            f"{name}: metric={label!r} does not take {sorted(unknown)} "
            f"(it takes {list(allowed) or 'none'})"
        )
    return domain.check_params(metric, params)


def soft_or_direct(distances, gamma, kernel, out):
    """D2KE features from distances, for engines that compute distances only:
    exp(-gamma d) / sqrt(R) (soft) or d / sqrt(R) (direct)."""
    scale = 1.0 / np.sqrt(out.shape[1])
    if kernel != "soft":
        out[...] = distances * scale
        return
    with np.errstate(invalid="ignore"):
        # An overflowed distance gives NaN, not exp(-inf) = 0, so that the
        # finite check names the object (as the compiled engines do).
        out[...] = np.where(np.isfinite(distances), np.exp(-gamma * distances) * scale, np.nan)
