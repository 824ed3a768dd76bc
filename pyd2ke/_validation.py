"""Validation that is not about one input type: parameters (counts, reals,
choices, dtypes, n_jobs), computed outputs (overflow), and the pieces every
domain's input check starts from (a non-empty list, a real array). Each
raises ValueError/TypeError naming the argument. The checks of strings,
series, sets and documents are in their domains (pyd2ke/_domains/).
"""

import numbers
import os
import re
import sys
import warnings
from collections.abc import Mapping
from collections.abc import Set as AbstractSet
from contextlib import contextmanager

import numpy as np
import scipy.sparse as sp

from . import _core


def _inside(frame):
    """A frame of pyd2ke, or of scikit-learn calling it (fit_transform, the
    set_output wrapper, a Pipeline's steps)."""
    module = frame.f_globals.get("__name__", "")
    return module.split(".")[0] in ("pyd2ke", "sklearn")


def warn_user(message, category=UserWarning):
    """warnings.warn pointed at the caller's line: the first frame outside
    pyd2ke, however deep in the package the warning arises."""
    frame, level = sys._getframe(1), 2  # stacklevel 2: the caller of warn_user
    while frame is not None and _inside(frame):
        frame, level = frame.f_back, level + 1
    warnings.warn(message, category, stacklevel=level)


# Counts (random objects, lengths, sizes) above this cannot be meant: they
# would exhaust memory or run for days rather than fail.
MAX_COUNT = 1 << 24


def check_positive_int(value, name, minimum=1, maximum=MAX_COUNT):
    """An integer in [minimum, maximum] (maximum None: no upper bound)."""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Integral):
        raise TypeError(f"{name} must be an integer, got {value!r}")
    if value < minimum:
        raise ValueError(f"{name} must be >= {minimum}, got {value}")
    if maximum is not None and value > maximum:
        raise ValueError(f"{name} must be <= {maximum}, got {value}")
    return int(value)


def check_size_range(minimum, maximum, min_name, max_name):
    """The bounds of the random objects' sizes: both positive integers, and
    minimum <= maximum."""
    check_positive_int(minimum, min_name)
    check_positive_int(maximum, max_name)
    if minimum > maximum:
        raise ValueError(f"{min_name} ({minimum}) must be <= {max_name} ({maximum})")


def is_auto(value):
    """True for the string "auto" (a parameter decided at fit from the data)."""
    return isinstance(value, str) and value == "auto"


def check_positive_int_or_auto(value, name, minimum=1, maximum=MAX_COUNT):
    """"auto", or an integer in [minimum, maximum]."""
    if is_auto(value):
        return value
    if isinstance(value, str):
        raise ValueError(f"{name} must be 'auto' or an integer, got {value!r}")
    return check_positive_int(value, name, minimum, maximum)


def check_real(value, name, *, positive=False, non_negative=False):
    """A finite real number (not bool), optionally > 0 or >= 0; returned as float."""
    sign = "positive and " if positive else "non-negative and " if non_negative else ""
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, numbers.Real):
        kind = "positive" if positive else "non-negative" if non_negative else "finite"
        raise TypeError(f"{name} must be a {kind} number, got {value!r}")
    value = float(value)
    if not np.isfinite(value) or (positive and value <= 0) or (non_negative and value < 0):
        raise ValueError(f"{name} must be {sign}finite, got {value!r}")
    return value


def check_positive_real(value, name):
    return check_real(value, name, positive=True)


def check_non_negative_real(value, name):
    return check_real(value, name, non_negative=True)


def check_gamma(gamma, name="gamma"):
    """'auto' or a positive finite number."""
    if isinstance(gamma, str):
        if gamma != "auto":
            raise ValueError(f"{name} must be 'auto' or a positive number, got {gamma!r}")
        return gamma
    if isinstance(gamma, (bool, np.bool_)) or not isinstance(gamma, numbers.Real):
        raise TypeError(f"{name} must be 'auto' or a positive number, got {gamma!r}")
    return check_positive_real(gamma, name)


def check_choice(value, name, choices):
    if not isinstance(value, str) or value not in choices:
        raise ValueError(f"{name} must be one of {sorted(choices)}, got {value!r}")
    return value


def check_dtype(dtype, name="dtype"):
    try:
        dt = np.dtype(dtype)
    except TypeError:
        raise TypeError(f"{name} must be numpy.float32 or numpy.float64, got {dtype!r}") from None
    if dt not in (np.dtype(np.float32), np.dtype(np.float64)):
        raise ValueError(f"{name} must be numpy.float32 or numpy.float64, got {dt}")
    return dt


_CPU_COUNT = os.cpu_count() or 1  # read once: a system call each time took 40 us per chunk


def effective_n_threads(n_jobs, name="n_jobs"):
    """Threads for the compiled core, following scikit-learn's convention.

    None and -1: every core OpenMP may use (OMP_NUM_THREADS is honoured);
    a positive n: n threads; -2, -3, ...: all but 1, 2, ... cores; 0: error.
    """
    available = max(1, _core.max_threads())
    if n_jobs is None:
        return available
    if isinstance(n_jobs, (bool, np.bool_)) or not isinstance(n_jobs, numbers.Integral):
        raise TypeError(f"{name} must be None or an integer, got {n_jobs!r}")
    if n_jobs == 0:
        raise ValueError(f"{name} == 0 is not allowed; use None, -1 or a positive integer")
    if n_jobs < 0:
        return max(1, available + 1 + int(n_jobs))
    # More threads than a few per core only add overhead, and millions would
    # abort the OpenMP runtime; the output does not depend on the count.
    return int(min(n_jobs, 4 * max(available, _CPU_COUNT)))


def real_array(a, label, why_real):
    """a as an array of real numbers (or booleans); TypeError naming label otherwise."""
    if isinstance(a, (str, bytes)):
        raise TypeError(f"{label} is {type(a).__name__}, expected a numeric array")
    if hasattr(a, "tocsr") and hasattr(a, "toarray"):  # scipy.sparse: np.asarray makes an object scalar of it
        raise TypeError(f"{label} is a scipy.sparse matrix, expected a dense numeric array ({label}.toarray())")
    table = a
    a = _nullable_as_float(a)
    try:
        a = np.asarray(a)
    except ValueError as error:  # ragged nested lists: numpy names no item
        raise ValueError(f"{label} is not a rectangular array of numbers: {error}") from None
    # By dtype kind (bool, int, uint, float, complex): np.issubdtype took
    # most of the Python time of checking 30,000 series.
    kind = a.dtype.kind
    if kind not in "biufc":
        column = _first_non_numeric_column(table)
        if column is not None:
            raise TypeError(f"{label} has the column {column[0]!r} of dtype {column[1]}, expected numbers in "
                            f"every column (select the numeric ones, or encode this one)")
        raise TypeError(f"{label} has dtype {a.dtype}, expected a numeric array")
    if kind == "c":
        raise TypeError(f"{label} is complex; {why_real}")
    return a


def _nullable_as_float(a):
    """A pandas Series or DataFrame of nullable numbers (Float64, Int64,
    boolean), or of columns of several numeric dtypes (float and bool), which
    numpy turns into objects, as float64 with NaN for NA; anything else as
    it is."""
    dtypes = getattr(a, "dtypes", None)
    if dtypes is None or not hasattr(a, "to_numpy"):
        return a
    dtypes = list(dtypes) if hasattr(a, "columns") else [dtypes]  # a DataFrame's, or a Series' one
    if not all(getattr(d, "kind", "O") in "biuf" for d in dtypes):
        return a
    if all(isinstance(d, np.dtype) for d in dtypes) and len(set(dtypes)) == 1:
        return a  # one numpy dtype: numpy reads it as it is
    return a.to_numpy(dtype=np.float64, na_value=np.nan)


def _first_non_numeric_column(table):
    """(name, dtype) of a DataFrame's first column that is not numbers or
    booleans, else None."""
    columns, dtypes = table_columns(table), getattr(table, "dtypes", None)
    if columns is None or dtypes is None:
        return None
    for name, dtype in zip(columns, dtypes):
        if getattr(dtype, "kind", "O") not in "biuf":
            return name, dtype
    return None


def item_rows(a, label, layout, empty, no_columns):
    """One item's real array as 2-D rows (a 1-D one: one column); ValueError
    naming `label` for another number of dimensions (`layout` says the
    right one), no rows (`empty` says why one is needed) or no columns."""
    if a.ndim == 1:
        a = a[:, None]
    if a.ndim != 2:
        raise ValueError(f"{label} has {a.ndim} dimensions; {layout}")
    if a.shape[0] == 0:
        raise ValueError(f"{label} is empty: {empty}")
    if a.shape[1] == 0:
        raise ValueError(f"{label} {no_columns}")
    return a


def is_missing(item):
    """None, a float NaN, pandas' NA or NaT: a missing value where an object belongs."""
    return (item is None or (isinstance(item, (float, np.floating)) and item != item)
            or type(item).__name__ in ("NAType", "NaTType"))


def _can_be_missing(kind):
    return kind is type(None) or issubclass(kind, (float, np.floating)) or kind.__name__ in ("NAType", "NaTType")


def table_columns(X):
    """The column names of a table (pandas or polars DataFrame), else None."""
    columns, shape = getattr(X, "columns", None), getattr(X, "shape", None)
    return None if columns is None or shape is None or len(shape) != 2 else columns


def one_column_name(X):
    """[name] of a one-column pandas or polars table (whose column holds the
    objects), else None."""
    columns = table_columns(X)
    return [columns[0]] if columns is not None and len(columns) == 1 else None


def item_columns(X, name="X"):
    """The column names of X's items that are tables (a DataFrame a set or a
    series), the same for every one; None when none is a table. Tables are
    read by position, so one whose columns differ from the first table's is
    a ValueError naming it (errors_labelled adds a pandas label)."""
    series = getattr(X, "ndim", 0) == 1 and hasattr(X, "iloc")  # a pandas Series of objects
    if not (isinstance(X, (list, tuple)) or series):
        return None
    items = list(X) if series else X
    # One pass over the types at C speed: a list of arrays costs no Python loop.
    if not any(hasattr(t, "columns") for t in set(map(type, items))):
        return None
    first = first_at = None
    for i, item in enumerate(items):
        columns = table_columns(item)
        if columns is None:
            continue
        if first is None:
            first, first_at = list(columns), i
        elif list(columns) != first:
            raise ValueError(f"{name}[{i}] has the columns {list(columns)}, but {name}[{first_at}] has {first}: "
                             f"tables are read by position, so select the same columns, in one order, from each "
                             f"(table[{first}])")
    return first


def row_labels(X):
    """The row labels of a pandas Series or DataFrame, else None (a list's
    `index` is a method)."""
    labels = getattr(X, "index", None)
    return None if callable(labels) else labels


@contextmanager
def errors_labelled(X, name="X"):
    """Inside the block, a ValueError or TypeError that names ``X[i]`` of a
    pandas Series or DataFrame X names its row label too, ``X[2] (index
    label 'c')``, unless the label is i itself (a default index)."""
    labels = row_labels(X)
    try:
        yield
    except (ValueError, TypeError) as error:
        message = str(error)
        found = re.search(rf"\b{re.escape(name)}\[(\d+)\]", message) if labels is not None else None
        if (found is None or type(error) not in (ValueError, TypeError) or int(found.group(1)) >= len(labels)
                or message[found.end():].startswith(" (index label")):
            raise
        label = labels[int(found.group(1))]
        label = label.item() if isinstance(label, np.generic) else label  # 20, not np.int64(20)
        if isinstance(label, numbers.Integral) and label == int(found.group(1)):
            raise
        raise type(error)(f"{message[:found.end()]} (index label {label!r}){message[found.end():]}") from None


def table_column(X, name, rows_of=None):
    """A one-column table (pandas or polars DataFrame) as its column, so that
    its rows are the objects; several columns are refused, naming them (and,
    where a row may be one `rows_of` of an object, how to group a long
    table into objects). Anything else is returned as it is."""
    columns = table_columns(X)
    if columns is None:
        return X
    names = [str(c) for c in columns]
    if len(names) != 1:
        shown = ", ".join(repr(c) for c in names[:6]) + (", ..." if len(names) > 6 else "")
        grouped = "" if rows_of is None else (
            f"; if each row is one {rows_of}, group the rows into objects: "
            f"[g[value_columns].to_numpy() for _, g in {name}.groupby(key_column)]")
        if rows_of == "time step":
            first = X.iloc[0, 0] if hasattr(X, "iloc") and len(X) else None
            grouped += (f"; if it is sktime's nested DataFrame (one cell a series), use pyd2ke.sktime"
                        if hasattr(first, "iloc") else
                        f"; if each row is one series (a wide table, one column a time step, as pandas reads "
                        f"UCR files), pass {name}.to_numpy()")
        raise ValueError(
            f"{name} is a table of {len(names)} columns ({shown}); pyd2ke embeds one column of objects: "
            f"pass that column ({name}[[column]] or {name}[column]), or use a ColumnTransformer{grouped}"
        )
    return X.iloc[:, 0] if hasattr(X, "iloc") else X.to_series(0)


def as_list(X, name, what, item="item", rows_of=None):
    """X (any iterable of items, e.g. an array whose first axis runs over
    them, a pandas Series or a one-column DataFrame) as a non-empty list;
    TypeError/ValueError naming `name` otherwise, and a ValueError saying
    "missing" for a None, NaN or NA item."""
    return check_none_missing(listed(X, name, what, item, rows_of=rows_of), name, item)


def listed(X, name, what, item="item", container=list, rows_of=None):
    """The first half of as_list: X as a non-empty list (a new `container`,
    a list or a subclass)."""
    if isinstance(X, (str, bytes)):
        raise TypeError(f"{name} must be a sequence of {what}, got a single {type(X).__name__}")
    if isinstance(X, (Mapping, AbstractSet)):
        # A dict iterates over its keys, a set in an order that changes from run to run.
        raise TypeError(f"{name} must be a sequence of {what} (a list, tuple, array or pandas Series), "
                        f"got a {type(X).__name__}")
    if type(X).__name__.endswith("GroupBy"):  # iterating one gives (key, group) pairs
        raise TypeError(f"{name} is a pandas {type(X).__name__}: pass one object per group, e.g. "
                        f"[g[value_columns].to_numpy() for _, g in {name}]")
    X = table_column(X, name, rows_of)
    try:
        X = container(X)
    except TypeError:
        raise TypeError(f"{name} must be a sequence of {what}, got {type(X).__name__}") from None
    if len(X) == 0:
        raise ValueError(f"{name} is empty: at least one {item} is required")
    return X


def check_none_missing(X, name, item="item"):
    """The second half of as_list: X (a list), or a ValueError naming its
    first None, NaN or NA item (errors_labelled adds a pandas label)."""
    # One pass over the types at C speed; the Python loop runs only when a
    # type that can be missing is there.
    if not any(_can_be_missing(kind) for kind in set(map(type, X))):
        return X
    for i, value in enumerate(X):
        if is_missing(value):
            raise ValueError(f"{name}[{i}] is missing ({value!r}): every {item} must be present; "
                             f"drop or fill the missing ones first")
    return X


# Floats whose finite values stay finite as float64: a longer float (1e400
# as numpy.longdouble) may overflow when scikit-learn casts it.
_CHECKED_FLOATS = (np.dtype(np.float16), np.dtype(np.float32), np.dtype(np.float64))


def check_no_missing_rows(X, name="X", all_finite=None):
    """For matrices of vectors (dense, scipy.sparse, DataFrame): a ValueError
    naming the first row with a NaN (a missing value) or an infinity,
    before scikit-learn's validation (which names no row). Returns whether
    it checked every value (a real matrix), so that the caller can skip
    scikit-learn's own pass over them. A C-contiguous float matrix is
    checked by all_finite(A) (default: the core, on one thread; the
    transforms pass pyd2ke._parallel.all_rows_finite on their threads)."""
    if sp.issparse(X):
        if X.dtype.kind not in "fc":
            return False
        csr = X.tocsr()
        if not np.isfinite(csr.data).all():
            row = int(np.searchsorted(csr.indptr, int(np.argmin(np.isfinite(csr.data))), side="right") - 1)
            raise ValueError(f"{name}[{row}] has a missing (NaN) or infinite value; drop or impute it first")
        return X.dtype in _CHECKED_FLOATS
    column = _first_non_numeric_column(X)
    if column is not None:  # scikit-learn's message names neither X nor the column
        raise TypeError(f"{name} has the column {column[0]!r} of dtype {column[1]}, expected numbers in every "
                        f"column (select the numeric ones, or encode this one, e.g. with OneHotEncoder)")
    A = np.asarray(X)  # no copy for an array; a DataFrame's values
    if A.dtype.kind in "US":
        raise TypeError(f"{name} holds strings (dtype {A.dtype}), expected numbers")
    if A.dtype.kind not in "fc" or A.ndim != 2:
        return False  # integers cannot be NaN; anything else: scikit-learn's validation says what is wrong
    core_checks = A.dtype in (np.float64, np.float32) and A.dtype.isnative and A.flags.c_contiguous
    if core_checks:
        finite = all_finite(A) if all_finite is not None else _core.all_finite(A, 1)
    else:
        finite = bool(np.isfinite(A).all())
    if not finite:
        row, col = np.argwhere(~np.isfinite(A))[0]
        raise ValueError(f"{name}[{row}] has a missing (NaN) or infinite value in column {col}; "
                         f"drop or impute it first")
    return A.dtype in _CHECKED_FLOATS


def check_finite_output(out, name="X", offset=0, arithmetic=None):
    """Raise ValueError if a computed block holds NaN or infinity.

    Finite inputs can still overflow: distances between values near the
    float64 (or float32) limit, or projections of them. Row r of `out` comes
    from item `offset + r` of the input called `name`; `arithmetic` is the
    dtype the values were computed in (default: out's).
    """
    values = out.data if hasattr(out, "data") and not isinstance(out, np.ndarray) else out
    if values.size == 0 or np.isfinite(values).all():
        return out
    finite = np.isfinite(out).all(axis=1) if isinstance(out, np.ndarray) and out.ndim == 2 else None
    where = f" ({name}[{offset + int(np.argmin(finite))}])" if finite is not None else ""
    arithmetic = np.dtype(np.asarray(values).dtype if arithmetic is None else arithmetic)
    wider = " (or z-normalise it), or compute in float64 (dtype=np.float64, where the estimator takes it)" \
        if arithmetic == np.float32 else ""
    raise ValueError(
        f"the result overflowed to infinity or NaN{where}: the values of {name} are too large for "
        f"{arithmetic} arithmetic; rescale the input{wider}"
    )
