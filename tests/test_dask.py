"""pyd2ke.dask on a distributed LocalCluster of two worker processes: the
result has the same bits as a local transform, also when a worker dies
mid-run and Dask retries its task."""

import os

import numpy as np
import pytest
import scipy.sparse as sp

pytest.importorskip("dask", reason="Dask is optional: pip install '.[dask]'")
pytest.importorskip("distributed", reason="Dask is optional: pip install '.[dask]'")
import dask.array as da  # noqa: E402
import dask.bag as db  # noqa: E402
from distributed import Client, LocalCluster  # noqa: E402
from sklearn.pipeline import make_pipeline  # noqa: E402
from sklearn.preprocessing import FunctionTransformer, StandardScaler  # noqa: E402

import pyd2ke  # noqa: E402
from pyd2ke.dask import transform  # noqa: E402
from cases import CASES, as_dense  # noqa: E402

N = 120


@pytest.fixture(scope="module")
def client():
    cluster = LocalCluster(
        n_workers=2, threads_per_worker=1, processes=True, dashboard_address=":0", silence_logs=40
    )
    with cluster, Client(cluster) as client:
        yield client


def fitted(name):
    make, data = CASES[name]
    X = data(N)
    return make(0, 1).fit(X), X  # n_jobs=1: one thread per task on one-thread workers


@pytest.mark.parametrize("name", ["rse-bss", "rws", "sets", "wme-pairs", "sfmedm", "cgk"])
def test_bag_matches_local_transform(client, name):
    estimator, X = fitted(name)
    bag = db.from_sequence(X, npartitions=7)
    Z = transform(estimator, bag, lengths=True)
    assert Z.shape == (N, estimator.transform(X[:1]).shape[1])
    assert Z.chunks[0] == tuple(bag.map_partitions(lambda p: [len(p)]).compute()) and len(Z.chunks[1]) == 1
    assert np.array_equal(as_dense(Z.compute()), as_dense(estimator.transform(X)))


def test_wrong_lengths_are_named(client):
    # Sizes that do not match the partitions put rows at the wrong places:
    # each partition checks its own count.
    estimator, X = fitted("rse-bss")
    bag = db.from_sequence(X[:60], npartitions=4)
    sizes = bag.map_partitions(lambda p: [len(p)]).compute()
    wrong = transform(estimator, bag, lengths=[sizes[0] - 1, sizes[1] + 1, *sizes[2:]])
    # Either wrong partition may fail first on the cluster.
    with pytest.raises(ValueError, match=f"partition (0 has {sizes[0]} objects, but lengths says {sizes[0] - 1}|"
                                         f"1 has {sizes[1]} objects, but lengths says {sizes[1] + 1})"):
        wrong.compute()


@pytest.mark.parametrize("name", ["maclaurin", "fourier-rbf", "maclaurin-exp-h01-f32"])
def test_dense_array_matches_local_transform(client, name):
    estimator, X = fitted(name)
    # Odd row chunks and split columns: the helper merges columns, rows stay.
    Z = transform(estimator, da.from_array(X, chunks=(17, 5)))
    assert Z.chunks[0] == da.from_array(X, chunks=17).chunks[0]
    local = estimator.transform(X)
    assert Z.dtype == local.dtype
    assert np.array_equal(Z.compute(), local)


def test_sparse_array_and_pipeline(client):
    estimator, X = fitted("fourier-sparse")
    Z = transform(estimator, da.from_array(X, chunks=(25, X.shape[1]), asarray=False))
    assert np.array_equal(Z.compute(), estimator.transform(X))
    strings = CASES["rse-bss"][1](N)
    model = make_pipeline(pyd2ke.RandomStringEmbedding(16, random_state=0, n_jobs=1), StandardScaler()).fit(strings)
    Z = transform(model, db.from_sequence(strings, npartitions=3))
    assert np.isnan(Z.shape[0]) and Z.shape[1] == 16  # lengths=None: row chunks unknown
    assert np.array_equal(Z.compute(), model.transform(strings))


def test_estimator_is_one_graph_key(client):
    estimator, X = fitted("rse-bss")
    Z = transform(estimator, db.from_sequence(X, npartitions=5))
    keys = [k for k in Z.__dask_graph__() if isinstance(k, str) and k.startswith("pyd2ke-estimator-")]
    assert len(keys) == 1


def dying_once_before(estimator, X, victim, marker):
    """A Pipeline whose first step kills the worker process that first sees
    the victim object (it creates the marker and dies); the retried task
    finds the marker and goes on. Fitted on X[:5], which spares the test
    process."""

    def die_once(objects):
        if victim in objects:
            try:
                os.close(os.open(marker, os.O_CREAT | os.O_EXCL))
            except FileExistsError:
                return objects
            os._exit(1)
        return objects

    return make_pipeline(FunctionTransformer(die_once).fit(X[:5]), estimator)


def test_worker_killed_mid_run_is_retried(client, tmp_path):
    estimator, X = fitted("rse-bss")
    marker = str(tmp_path / "killed")
    model = dying_once_before(estimator, X, X[60], marker)  # an object in the middle of the run
    workers_before = set(client.scheduler_info()["workers"])
    Z = transform(model, db.from_sequence(X, npartitions=8), lengths=[15] * 8)
    result = Z.compute()
    assert os.path.exists(marker)
    assert set(client.scheduler_info()["workers"]) != workers_before  # a worker really died
    assert np.array_equal(result, estimator.transform(X))


def test_type_errors():
    estimator, X = fitted("rse-bss")
    bag = db.from_sequence(X, npartitions=2)
    with pytest.raises(TypeError, match="not fitted"):
        transform(pyd2ke.RandomStringEmbedding(), bag)
    with pytest.raises(TypeError, match="not fitted"):
        transform(make_pipeline(pyd2ke.RandomStringEmbedding(), StandardScaler()), bag)
    with pytest.raises(TypeError, match="dask.bag.Bag .* or a dask.array.Array"):
        transform(estimator, X)
    with pytest.raises(TypeError, match="pass a dask.array.Array"):
        transform(fitted("maclaurin")[0], db.from_sequence([[0.1] * 12], npartitions=1))
    with pytest.raises(TypeError, match="ESPSketches"):
        transform(pyd2ke.ESPVectorizer(output="sketch").fit(X), bag)
    with pytest.raises(TypeError, match="not a transformer"):
        from sklearn.linear_model import LinearRegression

        transform(LinearRegression().fit(np.ones((3, 1)), np.ones(3)), da.ones((3, 1)))


def test_local_scheduler_and_empty_partitions():
    estimator, X = fitted("sets")
    # Partitions of a filtered Bag can be empty; estimators reject empty input.
    bag = db.from_sequence(list(range(N)), npartitions=6).filter(lambda i: i < 30).map(lambda i: X[i])
    Z = transform(estimator, bag).compute(scheduler="sync")
    assert np.array_equal(Z, estimator.transform(X[:30]))
    esp = transform(fitted("esp")[0], db.from_sequence(["ACGT", "GA", "T"], npartitions=2))
    assert sp.issparse(esp.compute(scheduler="sync"))


def _streamed_pair(client, transformer, tmp_path=None):
    """The local streamed fit over the partitions as chunks, and the Dask one."""
    from sklearn.linear_model import SGDClassifier

    from pyd2ke.dask import fit_streamed as dask_fit
    from pyd2ke.streaming import fit_streamed as local_fit

    rse, X = fitted("rse-bss")
    y = np.array([len(s) % 3 for s in X])
    budget = 7 * rse.n_components_ * 8 * 4  # pieces of 7 objects: partitions of 15 cut 7, 7, 1
    chunks = [(X[i:i + 15], y[i:i + 15]) for i in range(0, N, 15)]
    local = local_fit(rse, SGDClassifier(random_state=0), chunks, classes=[0, 1, 2], epochs=2, memory_budget=budget,
                      batch_size=7)
    remote = dask_fit(transformer(rse, X), SGDClassifier(random_state=0), db.from_sequence(X, npartitions=8),
                      da.from_array(y, chunks=15), classes=[0, 1, 2], epochs=2, memory_budget=budget, batch_size=7)
    return local, remote, X


def test_streamed_fit_on_the_cluster_equals_the_local_one(client):
    local, remote, X = _streamed_pair(client, lambda rse, X: rse)
    assert remote.streamed_fit_report_.pieces == local.streamed_fit_report_.pieces == 48
    np.testing.assert_array_equal(remote[-1].coef_, local[-1].coef_)
    np.testing.assert_array_equal(remote.predict(X), local.predict(X))


def test_streamed_fit_survives_a_killed_worker(client, tmp_path):
    marker = str(tmp_path / "killed")
    workers_before = set(client.scheduler_info()["workers"])

    local, remote, X = _streamed_pair(client, lambda rse, X: dying_once_before(rse, X, X[70], marker))
    assert os.path.exists(marker)
    assert set(client.scheduler_info()["workers"]) != workers_before  # a worker really died
    np.testing.assert_array_equal(remote[-1].coef_, local[-1].coef_)


class _RecordingRSE(pyd2ke.RandomStringEmbedding):
    """Records how many objects each transform call gets."""

    calls = []

    def transform(self, X):
        _RecordingRSE.calls.append(len(X))
        return super().transform(X)


def test_streamed_fit_computes_a_partition_a_piece_at_a_time():
    """A trial: each partition's whole feature matrix was computed and
    brought back at once (410 MB for one partition of 200000 strings at a
    16 MiB budget). Now a partition's features come a piece at a time."""
    import dask
    from sklearn.linear_model import SGDClassifier

    from pyd2ke.dask import fit_streamed as dask_fit
    from pyd2ke.streaming import fit_streamed as local_fit

    rse, X = fitted("rse-bss")
    y = np.array([len(s) % 3 for s in X])
    recording = _RecordingRSE(**rse.get_params()).fit(X)
    budget = 7 * rse.n_components_ * 8 * 4
    with dask.config.set(scheduler="sync"):
        _RecordingRSE.calls = []
        remote = dask_fit(recording, SGDClassifier(random_state=0), db.from_sequence(X, npartitions=1),
                          da.from_array(y, chunks=N), classes=[0, 1, 2], memory_budget=budget, batch_size=7)
    assert max(_RecordingRSE.calls) == 7 and sum(_RecordingRSE.calls[1:]) == N  # [0]: the width probe
    local = local_fit(rse, SGDClassifier(random_state=0), [(X, y)], classes=[0, 1, 2], memory_budget=budget,
                      batch_size=7)
    np.testing.assert_array_equal(remote[-1].coef_, local[-1].coef_)


def test_streamed_fit_skips_empty_partitions_and_merges_column_chunks():
    """Trials: an empty first partition (normal after Bag.filter) failed
    with "X is empty"; an array chunked by columns was fitted on its first
    column block ("X has 10 features, but ... expecting 5")."""
    import dask
    from sklearn.linear_model import SGDClassifier

    from pyd2ke.dask import fit_streamed as dask_fit
    from pyd2ke.streaming import fit_streamed as local_fit

    _, X = fitted("rse-bss")
    y = np.array([len(s) % 3 for s in X])
    with dask.config.set(scheduler="sync"):
        objects = db.from_sequence(list(enumerate(X)), npartitions=4).filter(lambda p: p[0] >= 30).map(lambda p: p[1])
        labels = db.from_sequence(list(enumerate(y)), npartitions=4).filter(lambda p: p[0] >= 30).map(lambda p: p[1])
        assert objects.map_partitions(lambda p: [len(list(p))]).compute()[0] == 0
        with pytest.warns(UserWarning, match="fitted on the first partition with objects, 30 of them"):
            model = dask_fit(pyd2ke.RandomStringEmbedding(8, random_state=0), SGDClassifier(random_state=0),
                             objects, labels, classes=[0, 1, 2])
        # Fitted on the first partition with objects, X[30:60], in both (with a warning: 30 objects).
        with pytest.warns(UserWarning, match="fitted on the first chunk with objects, 30 of them"):
            local = local_fit(pyd2ke.RandomStringEmbedding(8, random_state=0), SGDClassifier(random_state=0),
                              [(X[30:60], y[30:60]), (X[60:], y[60:])], classes=[0, 1, 2])
        np.testing.assert_array_equal(model[-1].coef_, local[-1].coef_)

        V = np.random.default_rng(0).normal(size=(400, 10))
        t = (V[:, 0] > 0).astype(int)
        fourier = pyd2ke.HashedRandomFourier(n_components=32, random_state=0)
        model = dask_fit(fourier, SGDClassifier(random_state=0), da.from_array(V, chunks=(100, 5)),
                         da.from_array(t, chunks=100), classes=[0, 1])
        local = local_fit(fourier, SGDClassifier(random_state=0), [(V[:100], t[:100]), (V[100:], t[100:])],
                          classes=[0, 1])
        assert model[0].n_features_in_ == 10
        np.testing.assert_array_equal(model[-1].coef_, local[-1].coef_)
