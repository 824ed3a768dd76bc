"""Transform Dask collections with a fitted pyd2ke estimator, partition by partition.

Needs the optional extra: ``pip install "pyd2ke[dask]"``.

A fitted estimator holds only its random objects, seeds and a few numbers
(a few kB, whatever the number of fit objects), so it is cheap to ship: it
enters the task graph once, as its own key, and every partition task depends
on that key. Dask (or the distributed scheduler) moves it to each worker once
instead of pickling it into every task. Each partition is transformed with
the estimator's own ``transform``, whose rows do not depend on which other
objects share the call, so the result has the same bits as a local
transform of all objects at once.

Example
-------
>>> import dask.bag as db
>>> from pyd2ke import RandomStringEmbedding
>>> from pyd2ke.dask import transform
>>> rse = RandomStringEmbedding(8, random_state=0, n_jobs=1).fit(["ACGT", "GATTACA"])
>>> Z = transform(rse, db.from_sequence(["ACG", "TTA", "GATTACA"], npartitions=2), lengths=True)
>>> Z.chunks
((2, 1), (8,))
"""

import time

import numpy as np
import scipy.sparse as sp
from sklearn.base import clone
from sklearn.exceptions import NotFittedError
from sklearn.pipeline import Pipeline
from sklearn.utils import get_tags
from sklearn.utils.validation import check_is_fitted

try:
    import dask
    import dask.array as da
    import dask.bag as db
except ImportError as error:  # pragma: no cover - depends on the environment
    raise ImportError('pyd2ke.dask needs dask: pip install "pyd2ke[dask]"') from error

from ._base import Pyd2keTransformer
from .streaming import (_PROBE_ROWS, _check_labels, _is_fitted, _rows_per_piece, check_settings, fit_on_first,
                        learn_pieces)

__all__ = ["fit_streamed", "transform"]


def transform(estimator, objects, *, lengths=None):
    """Transform a Dask collection of objects with a fitted estimator.

    Parameters
    ----------
    estimator : fitted pyd2ke transformer, or a fitted scikit-learn Pipeline of
        transformers (e.g. RSE followed by StandardScaler, or ``make_sfmedm()``)
    objects : dask.bag.Bag or dask.array.Array
        A Bag of objects in the estimator's input format (strings, time
        series, sets, (word vectors, weights) pairs, ...), or a 2-D Dask
        array for estimators that take vectors (RandomMaclaurin,
        HashedRandomFourier, WordMoversEmbedding with ``embeddings``). Array
        chunks along the columns are merged first: every task needs whole rows.
    lengths : None, True or sequence of int, default=None
        Only for a Bag, whose partition sizes Dask does not know. None: the
        row chunks of the result are unknown (NaN, as for any Bag);
        ``dask.array.Array.compute_chunk_sizes`` can find them later. True:
        count the objects of every partition now (one pass over the Bag).
        A sequence: the partition sizes, when you know them.

    Returns
    -------
    dask.array.Array of shape (n_objects, n_features_out): one row chunk per
    partition (or array row chunk) and a single column chunk. Its blocks are
    numpy arrays, or scipy.sparse CSR matrices for ESPVectorizer and
    CGKEmbedding (one-hot).
    """
    input_dtype = objects.dtype if isinstance(objects, da.Array) else None
    columns, dtype, sparse = _output_spec(estimator, input_dtype)
    if isinstance(objects, db.Bag):
        if _takes_only_vectors(estimator):
            raise TypeError(
                f"{_name(estimator)} transforms 2-D arrays of numbers: pass a dask.array.Array, not a dask.bag.Bag"
            )
        return _transform_bag(estimator, objects, lengths, columns, dtype, sparse)
    if isinstance(objects, da.Array):
        if lengths is not None:
            raise TypeError("lengths applies to a dask.bag.Bag only: a dask array knows its row chunks")
        return _transform_array(estimator, objects, columns, dtype, sparse)
    raise TypeError(
        f"objects must be a dask.bag.Bag (strings, series, sets, documents) or a dask.array.Array "
        f"(vectors), got {type(objects).__module__}.{type(objects).__name__}"
    )


def _steps(estimator):
    """The estimators that run, in order (Pipelines flattened, passthrough skipped)."""
    if isinstance(estimator, Pipeline):
        for _, step in estimator.steps:
            if step is not None and step != "passthrough":
                yield from _steps(step)
    else:
        yield estimator


def _name(estimator):
    return type(estimator).__name__


def _output_spec(estimator, dtype):
    """(number of columns, dtype, sparse?) of the estimator's output for
    input of this dtype (None for objects), from its fitted state;
    TypeError when it is not a fitted transformer."""
    steps = list(_steps(estimator))
    if not steps:
        raise TypeError("the Pipeline has no steps to run")
    sparse = False
    for i, step in enumerate(steps):
        if not hasattr(step, "transform"):
            raise TypeError(f"{_name(step)} is not a transformer (it has no transform method)")
        try:
            check_is_fitted(step)
        except NotFittedError:
            raise TypeError(
                f"{_name(step)} is not fitted: call fit on it (or on the Pipeline) before transforming "
                "a Dask collection"
            ) from None
        dtype, sparse = _step_output_type(step, dtype, sparse, last=i == len(steps) - 1)
    return _n_columns(estimator, steps[-1]), dtype, sparse


def _step_output_type(step, dtype, sparse, last):
    """Output (dtype, sparse?) of one step, given those of its input."""
    if isinstance(step, Pyd2keTransformer):  # each estimator says what it returns
        kind, out_dtype = step._output_type()
        if kind == "sketch" and last:
            raise TypeError(
                f"{_name(step)}(output='sketch') returns ESPSketches, not an array: put it in a Pipeline with "
                "HashedRandomFourier (e.g. make_sfmedm()), or use output='csr'"
            )
        return out_dtype, kind == "sparse"
    # Other scikit-learn transformers keep the dtypes they list as preserved.
    preserved = get_tags(step).transformer_tags
    preserved = preserved.preserves_dtype if preserved is not None else []
    if dtype is not None and dtype.name in preserved:
        return dtype, sparse
    return np.dtype(np.float64), sparse


def _n_columns(estimator, last):
    n = getattr(last, "_n_features_out", None)
    if isinstance(n, (int, np.integer)):
        return int(n)
    try:
        return len(estimator.get_feature_names_out())
    except Exception as error:  # noqa: BLE001 - any failure means "unknown"
        raise TypeError(
            f"cannot tell how many columns {_name(last)} outputs (get_feature_names_out failed: {error})"
        ) from None


def _is_pyd2ke(step):
    return type(step).__module__.startswith("pyd2ke.")


def _takes_only_vectors(estimator):
    first = next(_steps(estimator))
    if not _is_pyd2ke(first):  # a user's step may take anything
        return False
    if getattr(first, "embeddings", None) is not None:  # WordMoversEmbedding on bag-of-words rows
        return True
    tags = get_tags(first).input_tags
    return tags.two_d_array and not tags.string


def _transform_part(part, estimator, columns, dtype, sparse, expected=None, number=0):
    """Transform one partition; check that it matches the promised metadata
    (and its row count, `expected`, when the caller gave one)."""
    if not isinstance(part, np.ndarray) and not sp.issparse(part):
        part = list(part)  # Bag partitions may be lazy iterators
    n = part.shape[0] if hasattr(part, "shape") else len(part)
    if expected is not None and n != expected:
        raise ValueError(f"partition {number} has {n} objects, but lengths says {expected}")
    if n == 0:
        return _empty(columns, dtype, sparse)  # estimators reject empty input
    out = estimator.transform(part)
    if sp.issparse(out) != sparse or out.ndim != 2 or out.shape[1] != columns or out.dtype != dtype:
        kind = "sparse" if sp.issparse(out) else "dense"
        raise TypeError(
            f"{_name(estimator)} returned a {kind} {out.dtype} array of shape {out.shape}, but "
            f"{'sparse' if sparse else 'dense'} {dtype} with {columns} columns was expected"
        )
    return out.tocsr() if sparse else out


def _empty(columns, dtype, sparse):
    return sp.csr_matrix((0, columns), dtype=dtype) if sparse else np.empty((0, columns), dtype=dtype)


def _shared(estimator):
    # One graph key holding the estimator: tasks depend on it instead of
    # carrying their own pickled copy.
    return dask.delayed(estimator, name="pyd2ke-estimator-" + dask.base.tokenize(estimator), traverse=False)


def _transform_bag(estimator, bag, lengths, columns, dtype, sparse):
    if lengths is True:
        lengths = bag.map_partitions(lambda part: [sum(1 for _ in part)]).compute()
    if lengths is None:
        expected = [None] * bag.npartitions
        lengths = [np.nan] * bag.npartitions
    else:
        lengths = expected = [int(n) for n in lengths]
        if len(lengths) != bag.npartitions:
            raise ValueError(f"lengths has {len(lengths)} entries, but the Bag has {bag.npartitions} partitions")
    # Each partition task checks its row count against the one the array
    # promises: a wrong count gave rows at the wrong places, without an error.
    shared, transform_part = _shared(estimator), dask.delayed(_transform_part, pure=True)
    parts = [transform_part(part, shared, columns, dtype, sparse, n, number)
             for number, (part, n) in enumerate(zip(bag.to_delayed(), expected))]
    meta = _empty(columns, dtype, sparse)
    blocks = [da.from_delayed(p, shape=(n, columns), dtype=dtype, meta=meta) for p, n in zip(parts, lengths)]
    return da.concatenate(blocks, axis=0)


def _transform_array(estimator, array, columns, dtype, sparse):
    if array.ndim != 2:
        raise TypeError(f"a dask array of objects must be 2-D (one row per object), got {array.ndim}-D")
    array = array.rechunk({1: -1})
    return array.map_blocks(
        _transform_part,
        _shared(estimator),
        columns,
        dtype,
        sparse,
        chunks=(array.chunks[0], (columns,)),
        dtype=dtype,
        meta=_empty(columns, dtype, sparse),
    )


def _label_blocks(labels, npartitions):
    """The labels as one delayed block per partition."""
    if isinstance(labels, db.Bag):
        if labels.npartitions != npartitions:
            raise ValueError(f"labels has {labels.npartitions} partitions, but objects has {npartitions}")
        return [dask.delayed(np.asarray)(part) for part in labels.to_delayed()]
    if isinstance(labels, da.Array):
        if labels.ndim != 1 or len(labels.chunks[0]) != npartitions:
            raise ValueError(f"labels must be a 1-D dask array with one chunk per partition of objects "
                             f"({npartitions}), got chunks {labels.chunks}")
        return list(labels.to_delayed().ravel())
    raise TypeError(f"labels must be a dask.bag.Bag or a 1-D dask.array.Array, got {type(labels).__name__}")


def fit_streamed(transformer, learner, objects, labels, *, classes=None, epochs=1, validation=None, patience=2,
                 tol=1e-4, memory_budget=256 * 2**20, batch_size=512, scale=True, verbose=0):
    """:func:`pyd2ke.streaming.fit_streamed` with the features computed by Dask.

    Each partition's objects are kept where Dask computed them (persisted:
    objects are far smaller than their features), and its features are
    computed on the workers a piece at a time, the next piece while the
    learner consumes the current one, so no more than two pieces of
    features exist at once, whatever the partitions' sizes. The pieces are
    learned in order on the calling machine, in the same batches as the
    local streamed fit: with the same seeds and settings the two give the
    same model. A partition lost with a worker is computed again by Dask,
    with the same bits, so the model does not change either.

    Parameters
    ----------
    transformer : pyd2ke transformer (or Pipeline of them)
        Fitted, or a clone of it fitted here on the first partition with
        objects (computed locally).
    learner : scikit-learn estimator with ``partial_fit``
    objects : dask.bag.Bag or dask.array.Array
        As for :func:`transform`.
    labels : dask.bag.Bag or 1-D dask.array.Array
        One partition (chunk) per partition of objects, of the same sizes.
    classes, epochs, validation, patience, tol, memory_budget, batch_size, scale, verbose
        As for :func:`pyd2ke.streaming.fit_streamed`.

    Returns
    -------
    model : sklearn.pipeline.Pipeline (transformer, scaler, learner)
    """
    settings = check_settings(learner, classes, epochs, patience, tol, memory_budget, batch_size, validation)
    learner = clone(learner)
    t0 = time.perf_counter()
    if isinstance(objects, da.Array):
        if objects.ndim != 2:
            raise TypeError(f"a dask array of objects must be 2-D (one row per object), got {objects.ndim}-D")
        objects = objects.rechunk({1: -1})  # whole rows in every block, as transform reads them
        object_parts = list(objects.to_delayed()[:, 0])
    elif isinstance(objects, db.Bag):
        object_parts = objects.to_delayed()
    else:
        raise TypeError(f"objects must be a dask.bag.Bag or a dask.array.Array, got {type(objects).__name__}")
    label_parts = _label_blocks(labels, len(object_parts))
    # The first partition with objects fits the transformer (when it is not
    # fitted) and sizes the pieces; empty ones before it are skipped.
    head = None
    for part in object_parts:
        head = _as_objects(part.compute())
        if len(head):
            break
    if head is None or not len(head):
        raise ValueError("objects holds no objects")
    if not _is_fitted(transformer):
        transformer = fit_on_first(transformer, head, "partition")
    rows = _rows_per_piece(transformer, head[:_PROBE_ROWS], settings["memory_budget"], settings["batch_size"])
    columns, dtype, sparse = _output_spec(transformer, objects.dtype if isinstance(objects, da.Array) else None)
    shared, as_objects = _shared(transformer), dask.delayed(_as_objects, pure=True)
    classes = settings["fit_kwargs"].get("classes")

    def load(i):
        """Partition i's objects persisted, their count, and its labels here."""
        (kept,) = dask.persist(as_objects(object_parts[i]))
        n, y = dask.compute(dask.delayed(len)(kept), label_parts[i])
        y = np.asarray(y)
        if n != len(y):
            raise ValueError(f"partition {i} has {n} objects but {len(y)} labels")
        _check_labels(y, classes, f"partition {i}")
        return kept, y

    def piece(kept, start, stop):
        return dask.compute(_transform_slice(kept, start, stop, shared, columns, dtype, sparse))[0]

    def feature_pieces(epoch, pool):
        loading = pool.submit(load, 0)
        for i in range(len(object_parts)):
            kept, y = loading.result()
            starts = range(0, len(y), rows)
            if i + 1 < len(object_parts) and not len(starts):
                loading = pool.submit(load, i + 1)
            for start in starts:
                job = pool.submit(piece, kept, start, start + rows)
                if i + 1 < len(object_parts) and start + rows >= len(y):
                    loading = pool.submit(load, i + 1)  # after the partition's last piece, on the same thread
                yield job, y[start:start + rows]

    return learn_pieces(transformer, learner, feature_pieces, rows, settings, validation=validation, scale=scale,
                        verbose=verbose, t0=t0)


def _as_objects(part):
    """A partition as something sliceable: arrays as they are, a Bag's
    (possibly lazy) partition as a list."""
    return part if isinstance(part, np.ndarray) or sp.issparse(part) else list(part)


@dask.delayed(pure=True)
def _transform_slice(objects, start, stop, estimator, columns, dtype, sparse):
    return _transform_part(objects[start:stop], estimator, columns, dtype, sparse)
