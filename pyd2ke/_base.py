"""The one skeleton every public pyd2ke estimator derives from.

``Pyd2keTransformer`` owns, once, what every estimator shares:

- ``fit`` checks the parameters before it reads any data: first the
  estimator's own checks (``_check_params``: pyd2ke's messages, which say
  the rule, and the rules that tie parameters together), then every entry
  of ``_parameter_constraints`` (scikit-learn's declarative validation, which
  covers every parameter); then ``_fit`` learns. Parameters are checked
  there only, as in scikit-learn.
- ``transform`` raises NotFittedError before fit; checks the input whole or
  a chunk at a time (``_check_input``); cuts it into the chunks of
  ``pyd2ke.chunking()``; has each chunk's rows computed by
  ``_transform_chunk`` into one output (``_allocate``: an array, or an
  appender that the core grows chunk by chunk; handed back by
  ``_finish``); checks for overflow (``_check_output``). An error that
  names an item of a chunk names it in the whole input, and ``verbose > 0``
  reports progress per chunk.
- both read the column names of objects given as tables (a DataFrame a
  set or a series, where ``_items_are_tables``): they must be the same from
  object to object, and at transform the fit data's.
- both run with ``n_jobs`` as the threads of work below them that has no
  n_jobs of its own (``using_threads``: packing a list of arrays).
- feature names (``ClassNamePrefixFeaturesOutMixin``, from
  ``_n_features_out``), ``set_output`` (``TransformerMixin``), pickling and
  ``get_params`` (``BaseEstimator``).

An estimator writes its parameters with ``_parameter_constraints``,
``_fit`` and ``_transform_chunk``, and overrides a hook only where its input
or output needs it. Chunks change no row: every estimator computes a row the
same way whatever chunk it is in (tests/test_skeleton.py).
"""

import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from numbers import Integral

import numpy as np
from sklearn.base import BaseEstimator, ClassNamePrefixFeaturesOutMixin, TransformerMixin
from sklearn.utils import _param_validation
from sklearn.utils._param_validation import StrOptions
from sklearn.utils.validation import check_is_fitted

from ._parallel import chunk_bounds, errors_named_from, reused_threads, using_threads
from ._validation import (
    MAX_COUNT,
    check_dtype,
    check_finite_output,
    effective_n_threads,
    errors_labelled,
    item_columns,
    one_column_name,
)

__all__ = ["COUNT", "DTYPE", "N_JOBS", "Interval", "Pyd2keTransformer", "StrOptions", "store_parameters",
           "string_input_tags"]


class Interval(_param_validation.Interval):
    """scikit-learn's Interval without bools: True is no count or width."""

    def is_satisfied_by(self, val):
        return not isinstance(val, (bool, np.bool_)) and super().is_satisfied_by(val)


# What every estimator's n_jobs and dtype may be. The checks of
# _check_params add what a constraint cannot say: n_jobs=0 is no thread
# count, and a dtype is any spelling of float32 or float64.
N_JOBS = [Integral, None]
DTYPE = [type, str, np.dtype]
# Counts (random objects, lengths, sizes): see MAX_COUNT.
COUNT = Interval(Integral, 1, MAX_COUNT, closed="both")


def store_parameters(estimator, values):
    """Store every parameter of an ``__init__`` on the estimator, unchanged:
    ``store_parameters(self, locals())``, the first statement of the ``__init__``.

    One line per estimator instead of one ``self.x = x`` per parameter.
    scikit-learn requires ``__init__`` to store each parameter, under its own
    name, as it was given (no checks, no copies: fit checks them), and
    ``get_params`` reads them back by the names of the signature. As the first
    statement, ``locals()`` holds the parameters only, with ``self`` and (where
    the ``__init__`` calls ``super()``) ``__class__``, which are not stored.
    """
    for name, value in values.items():
        if name not in ("self", "__class__"):
            setattr(estimator, name, value)


def string_input_tags(tags):
    """scikit-learn's tags (``super().__sklearn_tags__()``) made those of an
    estimator whose X is a list of strings, not a 2-D array."""
    tags.input_tags.two_d_array = False
    tags.input_tags.string = True
    return tags


def _report_progress(name, done, total, seconds):
    """One stderr line per transform chunk (verbose > 0)."""
    print(f"{name}.transform: {done}/{total} objects ({100 * done / max(total, 1):.0f}%), {seconds:.1f} s",
          file=sys.stderr, flush=True)


class SizeMemoryError(MemoryError):
    """A MemoryError of a pyd2ke estimator, with the parameters that size its
    work (numpy's own says how much it asked for, not why)."""


# Integer parameters that are not sizes.
_NOT_SIZES = ("n_jobs", "random_state", "verbose", "seed")


@contextmanager
def size_parameters_named(estimator, method):
    """Re-raises a MemoryError naming the estimator's integer parameters above
    1, largest first (output_length=2**31 - 1 ended in numpy's "Unable to
    allocate 48.0 GiB" alone)."""
    try:
        yield
    except SizeMemoryError:
        raise
    except MemoryError as error:
        sizes = sorted(((value, name) for name, value in estimator.get_params(deep=False).items()
                        if isinstance(value, Integral) and not isinstance(value, bool) and value > 1
                        and name not in _NOT_SIZES), reverse=True)
        named = ", ".join(f"{name}={value}" for value, name in sizes)
        raise SizeMemoryError(f"{type(estimator).__name__}.{method} ran out of memory ({error})"
                              + (f"; the parameters that size it: {named}" if named else "")) from error


class Pyd2keTransformer(ClassNamePrefixFeaturesOutMixin, TransformerMixin, BaseEstimator):
    """Base class of the pyd2ke estimators: parameter checks, the chunked
    transform and the scikit-learn contract (see the module docstring).

    Subclasses define ``_parameter_constraints`` (every constructor
    parameter), ``_fitted_attribute``, ``_fit(X, y)``,
    ``_transform_chunk(X, out)`` and ``_n_features_out``.
    """

    _parameter_constraints: dict = {"n_jobs": N_JOBS, "dtype": DTYPE}
    # The attribute whose absence means "not fitted" (None: any attribute
    # ending in "_").
    _fitted_attribute = None

    def fit(self, X, y=None):
        """Check the parameters, then learn from X what transform needs.

        Parameters
        ----------
        X : the estimator's input (see the class docstring)
        y : ignored

        Returns
        -------
        self
        """
        self._check_params()
        self._validate_params()
        column = one_column_name(X)
        # Packing the input too.
        with using_threads(effective_n_threads(self.n_jobs)), errors_labelled(X), size_parameters_named(self, "fit"):
            columns = item_columns(X) if self._items_are_tables() else None
            self._fit(X, y)
        self.__dict__.pop("_item_columns", None)
        if columns is not None:
            self._item_columns = columns
        if not self.__sklearn_tags__().input_tags.two_d_array:  # vector estimators: scikit-learn's own check
            self.__dict__.pop("feature_names_in_", None)
            if column is not None:
                self.feature_names_in_ = np.asarray(column, dtype=object)
        return self

    def fit_transform(self, X, y=None, **fit_params):
        """fit(X), then transform(X); an iterator (a generator, say) is read
        once, into a list, since both read X."""
        if isinstance(X, Iterator):
            X = list(X)
        return super().fit_transform(X, y, **fit_params)

    def _check_params(self):
        """The checks with pyd2ke's own messages; they run before the
        constraints, so their messages win. Subclasses extend them."""
        check_dtype(self.dtype)
        effective_n_threads(self.n_jobs)

    def _fit(self, X, y):
        raise NotImplementedError

    def transform(self, X):
        """Features of X, computed a chunk at a time (see ``pyd2ke.chunking``).

        Parameters
        ----------
        X : the estimator's input (see the class docstring)

        Returns
        -------
        Z : one row per object of X: a C-contiguous ndarray, or a
            scipy.sparse matrix or ESPSketches where the class says so
        """
        check_is_fitted(self, self._fitted_attribute)
        self._check_column(X)
        # Packing the input too.
        with using_threads(effective_n_threads(self.n_jobs)), errors_labelled(X), \
                size_parameters_named(self, "transform"):
            self._check_item_columns(X)
            return self._transform_chunks(X)

    def _items_are_tables(self):
        """Whether an object of X may be a table whose columns are its
        coordinates (a set's or a series' DataFrame), named alike in every
        object and, at transform, as in the fit data."""
        return False

    def _check_item_columns(self, X):
        """Objects given as tables with other column names, or another
        order, than the fit data's are refused: they are read by position."""
        if not self._items_are_tables():
            return
        columns, fitted = item_columns(X), self.__dict__.get("_item_columns")
        if columns is not None and fitted is not None and columns != fitted:
            raise ValueError(f"X's objects are tables with the columns {columns}, but the fit data's had {fitted}: "
                             f"tables are read by position, so select the fit columns, in their order "
                             f"(table[{fitted}])")

    def _check_column(self, X):
        """Fitted on a one-column table, transform refuses a table whose
        column has another name (scikit-learn's feature-name check): a
        DataFrame's other column of strings would be embedded silently."""
        fitted = self.__dict__.get("feature_names_in_")
        column = one_column_name(X)
        if fitted is None or column is None or self.__sklearn_tags__().input_tags.two_d_array:
            return
        if list(column) != list(fitted):
            raise ValueError(f"X has the column {column[0]!r}, but {type(self).__name__} was fitted on the "
                             f"column {fitted[0]!r}")

    def _transform_chunks(self, X):
        X, check = self._check_input(X)
        n = X.shape[0] if hasattr(X, "shape") else len(X)
        out = self._allocate(n)
        t0 = time.perf_counter()
        with reused_threads():  # chunks that run blocks on threads start them once
            for start, stop in self._chunk_bounds(X):
                with errors_named_from(start):
                    chunk = X[start:stop] if check is None else check(X[start:stop])
                    Z = self._transform_chunk(chunk, out[start:stop])
                self._check_output(Z, start)
                if getattr(self, "verbose", 0):
                    _report_progress(type(self).__name__, stop, n, time.perf_counter() - t0)
        return self._finish(out)

    def _check_input(self, X):
        """(X ready to be cut into chunks, check): check is None when X is
        checked whole here, else a function that checks (and packs) one
        chunk of it, so that a transform needs O(chunk) memory above its
        output."""
        return X, None

    def _chunk_bounds(self, X):
        """The (start, stop) chunks of the checked X that transform works in:
        pyd2ke.chunking's. An estimator whose chunks would need no memory of
        their own (rows read in place, blocks written straight into the
        output) returns one: the end of each chunk leaves threads idle."""
        return chunk_bounds(X)

    def _allocate(self, n):
        """The output for n objects, which chunks write their rows into (in
        order: ESPVectorizer's appends them)."""
        return np.empty((n, self._n_features_out), dtype=check_dtype(self.dtype))

    def _transform_chunk(self, X, out):
        """The rows of one chunk X, written into out (its rows of the
        output), which it returns."""
        raise NotImplementedError

    def _finish(self, out):
        """The output _allocate made, once every chunk has written its rows
        (CGKEmbedding's one-hot: the CSR matrix over the filled arrays)."""
        return out

    def _output_type(self):
        """(kind, dtype) of what transform returns: kind "dense" (an
        ndarray), "sparse" (CSR) or "sketch" (ESPSketches); what pyd2ke.dask
        promises for each partition before computing it."""
        return "dense", np.dtype(check_dtype(self.dtype))

    def _check_output(self, Z, start):
        """ValueError naming the first row that overflowed; Z holds the rows
        of X[start:]. Estimators whose core checks as it writes override it."""
        check_finite_output(Z, "X", start)
