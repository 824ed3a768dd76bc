"""Train a linear model on more objects than their features fit in memory.

:func:`fit_streamed` runs the loop a user would otherwise write by hand:
objects arrive in chunks (from a reader of :mod:`pyd2ke.readers`, a
generator, a list), each chunk is turned into features by a fitted pyd2ke
transformer, standardised with running statistics, and handed to a
scikit-learn learner's ``partial_fit`` (``SGDClassifier``, ``SGDRegressor``,
``PassiveAggressiveClassifier``, ``Perceptron``, ...; ``MultinomialNB``
needs non-negative features: ``standardize=False`` and ``scale=False``).
The features of the next piece are computed on pyd2ke's threads (which
release the GIL) while the learner consumes the current one, and only
those two pieces are held in memory, sized from a memory budget. The
learner and the scaler see the rows in batches of a fixed size, cut
across pieces and chunks, so the model does not depend on the memory
budget or on how the objects were cut into chunks. The result is an
ordinary fitted scikit-learn ``Pipeline`` (transformer, scaler, learner):
it predicts, scores and pickles like one.
"""

import sys
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np
import scipy.sparse as sp
from sklearn.base import clone, is_classifier
from sklearn.exceptions import NotFittedError
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.utils.validation import check_is_fitted

from ._parallel import errors_named_from
from ._running_scaler import RunningStandardScaler
from ._validation import check_positive_int, check_real, warn_user

# Copies of one piece's features alive at once: the transformer's output and
# the scaler's float64 copy for the piece being learned, the output of the
# piece being computed, and the learner's own float64 copy.
_COPIES_PER_ROW = 4
# Objects transformed once to learn the width of the features.
_PROBE_ROWS = 4
# Fewer fit objects than this in the first chunk get a warning: gamma="auto"
# and the standardisation are read from a sample of up to 256 fit objects.
_FEW_FIT_OBJECTS = 32


class StreamedFitReport:
    """What a streamed fit did: rows and pieces seen, rows per piece, seconds,
    and the validation score after each epoch (when validation was given)."""

    def __init__(self, rows_per_piece):
        self.rows_per_piece = rows_per_piece
        self.rows_seen = 0
        self.pieces = 0
        self.epochs = 0
        self.scores = []
        self.seconds = 0.0
        self.stopped_early = False

    def __repr__(self):
        return (f"StreamedFitReport(epochs={self.epochs}, rows_seen={self.rows_seen}, pieces={self.pieces}, "
                f"rows_per_piece={self.rows_per_piece}, scores={self.scores}, seconds={self.seconds:.1f}, "
                f"stopped_early={self.stopped_early})")


def _is_fitted(estimator):
    try:
        check_is_fitted(estimator[-1] if isinstance(estimator, Pipeline) else estimator)
        return True
    except NotFittedError:
        return False


def _pieces(chunks, rows, first_number=0):
    """Every (X, y) chunk cut into pieces of at most `rows` objects (none for
    an empty chunk), as (X, y, chunk number, first item's index in the
    chunk); errors name a chunk by its number from first_number."""
    for number, chunk in enumerate(chunks, start=first_number):
        if not (isinstance(chunk, tuple) and len(chunk) == 2):
            raise TypeError(f"chunk {number} is {type(chunk).__name__}; chunks must be (objects, labels) pairs")
        X, y = chunk
        y = np.asarray(y)
        if len(X) != len(y):
            raise ValueError(f"chunk {number} has {len(X)} objects but {len(y)} labels")
        for start in range(0, len(y), rows):
            yield X[start:start + rows], y[start:start + rows], number, start


def _named_in_chunk(method, X, number, start):
    """method(X) for the piece of chunk `number` that starts at its item
    `start`: an error naming X[i] of the piece names X[start + i] of that
    chunk (a piece's own index meant nothing to the caller)."""
    try:
        with errors_named_from(start):
            return method(X)
    except (ValueError, TypeError) as error:
        if type(error) not in (ValueError, TypeError):
            raise
        raise type(error)(f"chunk {number}: {error}") from None


def _rows_per_piece(transformer, X_probe, memory_budget, batch_size):
    """Objects per piece, a multiple of batch_size, such that the features of
    the pieces alive at once stay within memory_budget bytes (counted as
    float64); ValueError when not even one batch fits."""
    Z = transformer.transform(X_probe)
    row_bytes = Z.shape[1] * 8 * _COPIES_PER_ROW
    rows = int(memory_budget // row_bytes)
    if rows < batch_size:
        raise ValueError(f"memory_budget={memory_budget} holds {rows} rows of these {Z.shape[1]} features (two "
                         f"pieces and two float64 copies of one, {row_bytes} bytes a row), fewer than "
                         f"batch_size={batch_size}: raise memory_budget to at least {batch_size * row_bytes}, or "
                         f"lower batch_size")
    return rows // batch_size * batch_size


def _check_labels(y, classes, where):
    """A piece's labels against `classes` (when given): an unknown label is
    named with its piece's place, before the learner has learned anything
    from it (scikit-learn's own error names neither)."""
    if classes is None or len(y) == 0:
        return
    unknown = ~np.isin(y, classes)
    if not unknown.any():
        return
    i = int(np.flatnonzero(unknown)[0])
    hint = ""
    if y.dtype.kind in "US" and classes.dtype.kind not in "USO":
        hint = (f"; these labels are strings (readers give labels as str) and classes are "
                f"{classes.dtype.name}: pass classes as strings, e.g. classes={[str(c) for c in classes[:3]]}")
    raise ValueError(f"{where} has the label {y[i].item()!r} (at item {i}), which is not in classes "
                     f"{classes.tolist()[:10]}{hint}")


def fit_streamed(transformer, learner, chunks, *, classes=None, epochs=1, validation=None, patience=2, tol=1e-4,
                 memory_budget=256 * 2**20, batch_size=512, scale=True, verbose=0):
    """Train ``learner`` on the features of objects that arrive in chunks.

    Parameters
    ----------
    transformer : pyd2ke transformer or scikit-learn Pipeline of them
        Fitted (used as it is), or not: then a clone of it is fitted here on
        the objects of the first chunk.
    learner : scikit-learn estimator with ``partial_fit``
        Cloned, as scikit-learn's meta-estimators do: the returned model
        holds a fresh learner, and ``learner`` itself is left as it was.
    chunks : iterable of (objects, labels) pairs
        Re-iterable for several epochs (a list, or a reader of
        :mod:`pyd2ke.readers` with labels); any chunk size: chunks are cut
        into pieces that fit ``memory_budget``.
    classes : array-like or None, default=None
        Every class label; required for classifiers (``partial_fit`` must
        know them from the first piece on).
    epochs : int, default=1
        Passes over the chunks. The scaler learns its statistics during the
        first pass and stays fixed after it.
    validation : (objects, labels) or None, default=None
        Held-out objects: the learner's score on them after every epoch
        (``report.scores``); training stops when it has not improved by
        ``tol`` for ``patience`` epochs (the model is the last epoch's, as
        with scikit-learn's early stopping).
    patience : int, default=2
    tol : float, default=1e-4
    memory_budget : int, default=256 MiB
        Bytes for the features in flight (two pieces, the scaler's and the
        learner's float64 copies); sets the objects per piece, a multiple of
        ``batch_size``. It changes the speed, not the model.
    batch_size : int, default=512
        Rows per ``partial_fit`` call (and per update of the running
        scaler), cut across pieces and chunks; the last batch of an epoch
        may be shorter. The model depends on it (as on the order of the
        rows), not on ``memory_budget`` or on the chunks' sizes. (Each call
        costs about 0.7 ms more than its rows: SGDClassifier on 256
        features learned 2.8 us a row in batches of 512, 1.7 in one call.)
    scale : bool, default=True
        Standardise the features with running means and variances
        (``StandardScaler.partial_fit``) before the learner.
    verbose : int, default=0
        When > 0, one stderr line per epoch (and per 100 pieces).

    Returns
    -------
    model : sklearn.pipeline.Pipeline
        ``(transformer, scaler, learner)`` fitted (``"passthrough"`` for the
        scaler when ``scale=False``), with the attribute
        ``streamed_fit_report_`` (:class:`StreamedFitReport`).
    """
    settings = check_settings(learner, classes, epochs, patience, tol, memory_budget, batch_size, validation)
    learner = clone(learner)
    if settings["epochs"] > 1 and iter(chunks) is chunks:
        raise TypeError("epochs > 1 needs chunks that can be read again (a list or a reader), not an iterator")
    t0 = time.perf_counter()
    # The first chunk with objects fits the transformer (when it is not
    # fitted) and sizes the pieces; empty chunks before it are skipped, as
    # anywhere else.
    first_pass = iter(chunks)
    head = X_head = None
    for head_number, chunk in enumerate(first_pass):
        X_head = next(_pieces([chunk], 2**62, first_number=head_number), (None,))[0]
        if X_head is not None:
            head = chunk
            break
    if head is None:
        raise ValueError("chunks holds no objects")
    if not _is_fitted(transformer):
        transformer = fit_on_first(transformer, X_head, "chunk",
                                   lambda fit, X: _named_in_chunk(fit, X, head_number, 0))
    rows = _rows_per_piece(transformer, X_head[:_PROBE_ROWS], settings["memory_budget"], settings["batch_size"])
    classes = settings["fit_kwargs"].get("classes")

    def feature_pieces(epoch, pool):
        source, first = (_chain([head], first_pass), head_number) if epoch == 0 else (iter(chunks), 0)
        for X, y, number, start in _pieces(source, rows, first):
            _check_labels(y, classes, f"chunk {number}" if start == 0 else f"chunk {number} from its item {start}")
            # On pyd2ke's threads, GIL released.
            yield pool.submit(_named_in_chunk, transformer.transform, X, number, start), y

    return learn_pieces(transformer, learner, feature_pieces, rows, settings, validation=validation, scale=scale,
                        verbose=verbose, t0=t0)


def fit_on_first(transformer, X, kind, call=lambda fit, X: fit(X)):
    """A clone of the unfitted transformer fitted on the objects X of the
    first chunk (kind: "chunk" or "partition") with objects, through
    call(fit, X); a warning when they are few."""
    transformer = clone(transformer)
    if len(X) < _FEW_FIT_OBJECTS:
        warn_user(f"the transformer is fitted on the first {kind} with objects, {len(X)} of them: its automatic "
                  f"settings (gamma, the standardisation) come from so few; fit it on more objects first, or make "
                  f"the first {kind} larger")
    call(transformer.fit, X)
    return transformer


def check_settings(learner, classes, epochs, patience, tol, memory_budget, batch_size, validation=None):
    """The checked settings of a streamed fit, as a dict (validation is
    checked here too: before the learner learns anything)."""
    if not hasattr(learner, "partial_fit"):
        raise TypeError(f"learner must have partial_fit (SGDClassifier, SGDRegressor, ...), got "
                        f"{type(learner).__name__}")
    if classes is not None and not is_classifier(learner):
        raise ValueError(f"classes is for classifiers; {type(learner).__name__} is not one: leave classes out")
    if is_classifier(learner) and classes is None:
        raise ValueError("classes is required for a classifier: partial_fit must know every class from the "
                         "first piece on (e.g. classes=numpy.unique(all_labels))")
    if validation is not None:
        if not (isinstance(validation, (tuple, list)) and len(validation) == 2):
            raise TypeError("validation must be an (objects, labels) pair")
        n_objects, n_labels = len(validation[0]), len(np.asarray(validation[1]))
        if n_objects != n_labels or n_objects == 0:
            raise ValueError(f"validation has {n_objects} objects and {n_labels} labels; it needs as many of each, "
                             f"at least one")
    return {
        "epochs": check_positive_int(epochs, "epochs"),
        "patience": check_positive_int(patience, "patience"),
        "tol": check_real(tol, "tol", non_negative=True),
        "memory_budget": _check_memory_budget(memory_budget),
        "batch_size": check_positive_int(batch_size, "batch_size", maximum=None),
        "fit_kwargs": {} if classes is None else {"classes": np.asarray(classes)},
    }


def _check_memory_budget(memory_budget):
    """Bytes, an int >= 1 (a float is rounded down once it is checked: 0.5
    said "got 0")."""
    if isinstance(memory_budget, float):
        if not (np.isfinite(memory_budget) and memory_budget >= 1):
            raise ValueError(f"memory_budget must be a number of bytes >= 1, got {memory_budget!r}")
        memory_budget = int(memory_budget)
    return check_positive_int(memory_budget, "memory_budget", maximum=None)


def learn_pieces(transformer, learner, feature_pieces, rows, settings, *, validation, scale, verbose, t0):
    """The learning loop shared by the local and the Dask streamed fits.

    feature_pieces(epoch, pool) yields (job, labels) per piece, ``job.result()``
    being the piece's features; it may use pool (one worker thread) to compute
    the next piece while the learner consumes the current one. The pieces'
    rows reach the scaler and the learner in batches of settings["batch_size"]."""
    scaler = _PieceScaler() if scale else None
    report = StreamedFitReport(rows)
    Z_valid, best, since_best = None, -np.inf, 0
    with ThreadPoolExecutor(max_workers=1) as pool:
        for epoch in range(settings["epochs"]):
            batches = _Batches(settings["batch_size"],
                               lambda Z, y: _learn(Z, y, learner, scaler, epoch, settings["fit_kwargs"]))
            pending = None
            for job, y in feature_pieces(epoch, pool):
                if pending is not None:
                    batches.add(pending[0].result(), pending[1])
                    report.pieces += 1
                    if verbose and report.pieces % 100 == 0:
                        _say(report, epoch, t0, with_score=False)
                pending = (job, y)
                report.rows_seen += len(y)
            if pending is not None:
                batches.add(pending[0].result(), pending[1])
                report.pieces += 1
            batches.finish()
            report.epochs = epoch + 1
            if validation is not None:
                if Z_valid is None:
                    Z_valid = transformer.transform(validation[0])
                score = float(learner.score(Z_valid if scaler is None else scaler.transform(Z_valid),
                                            np.asarray(validation[1])))
                report.scores.append(score)
                since_best = 0 if score > best + settings["tol"] else since_best + 1
                best = max(best, score)
            if verbose:
                _say(report, epoch, t0)
            if validation is not None and since_best >= settings["patience"] and epoch + 1 < settings["epochs"]:
                report.stopped_early = True
                break
    report.seconds = time.perf_counter() - t0
    model = Pipeline([("features", transformer),
                      ("scaler", scaler.fitted() if scaler is not None else "passthrough"), ("learner", learner)])
    model.streamed_fit_report_ = report
    return model


class _Batches:
    """Pieces' features and labels re-cut into batches of exactly `size`
    rows, across piece and chunk boundaries (the epoch's last batch may be
    shorter), each handed to learn(Z, y): the learner then sees the same
    calls whatever the memory budget and the chunks."""

    def __init__(self, size, learn):
        self.size, self.learn = size, learn
        self.held = None  # (features, labels) of fewer than `size` rows, waiting for the next piece

    def add(self, Z, y):
        start = 0
        if self.held is not None:
            start = min(self.size - self.held[1].shape[0], len(y))
            Z_head = sp.vstack([self.held[0], Z[:start]], format="csr") if sp.issparse(Z) else \
                np.concatenate([self.held[0], Z[:start]])
            self.held = (Z_head, np.concatenate([self.held[1], y[:start]]))
            if len(self.held[1]) < self.size:
                return
            self.learn(*self.held)
            self.held = None
        whole = start + (len(y) - start) // self.size * self.size
        for a in range(start, whole, self.size):
            self.learn(Z[a:a + self.size], y[a:a + self.size])
        if whole < len(y):  # a copy: a view would keep the whole piece alive
            self.held = (Z[whole:].copy(), y[whole:].copy())

    def finish(self):
        if self.held is not None:
            self.learn(*self.held)
            self.held = None


def _chain(*iterables):
    for iterable in iterables:
        yield from iterable


class _PieceScaler:
    """Running standardisation: RunningStandardScaler for dense features,
    scikit-learn's StandardScaler (partial_fit) for anything else."""

    def __init__(self):
        self._scaler = None

    def partial_fit(self, Z):
        if self._scaler is None:
            self._scaler = RunningStandardScaler() if RunningStandardScaler.takes(Z) else StandardScaler()
        if isinstance(self._scaler, RunningStandardScaler):
            self._scaler.update(Z)
        else:
            self._scaler.partial_fit(Z)

    def transform(self, Z, reuse=False):
        if isinstance(self._scaler, RunningStandardScaler):
            return self._scaler.transform(Z, reuse=reuse)
        return self._scaler.transform(Z)

    def fitted(self):
        """The statistics as a fitted StandardScaler (for the returned Pipeline)."""
        if isinstance(self._scaler, RunningStandardScaler):
            return self._scaler.to_standard_scaler()
        return self._scaler if self._scaler is not None else StandardScaler()


def _learn(Z, y, learner, scaler, epoch, fit_kwargs):
    if scaler is not None:
        if epoch == 0:  # running statistics in the first pass, fixed after it
            scaler.partial_fit(Z)
        Z = scaler.transform(Z, reuse=True)  # partial_fit is done with it before the next piece
    learner.partial_fit(Z, y, **fit_kwargs)


def _say(report, epoch, t0, with_score=True):
    seconds = time.perf_counter() - t0
    score = f", validation score {report.scores[-1]:.4f}" if report.scores and with_score else ""
    print(f"fit_streamed: epoch {epoch + 1}, {report.rows_seen} rows in {report.pieces} pieces of at most "
          f"{report.rows_per_piece}, {seconds:.1f} s ({report.rows_seen / max(seconds, 1e-9):.0f} rows/s){score}",
          file=sys.stderr, flush=True)


__all__ = ["StreamedFitReport", "fit_streamed"]
