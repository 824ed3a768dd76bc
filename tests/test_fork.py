"""A process forked after the core's OpenMP threads had started (a
multiprocessing 'fork' pool, os.fork in a server) runs its loops on one
thread: GNU OpenMP keeps the parent's team, whose threads the child does
not have, and a parallel region there waited for them for ever (a
deployment trial: RandomStringEmbedding().transform hung in every forked
child)."""

import os
import subprocess
import sys
import textwrap

import pytest

pytestmark = pytest.mark.skipif(not hasattr(os, "fork"), reason="no fork on this platform")

SCRIPT = textwrap.dedent("""
    import multiprocessing, os, sys
    import numpy as np
    import pyd2ke
    from pyd2ke import _core

    rng = np.random.default_rng(0)
    strings = ["".join(rng.choice(list("ACGT"), size=60)) for _ in range(400)]
    series = [rng.normal(size=(int(n), 2)) for n in rng.integers(20, 40, 400)]
    estimators = [pyd2ke.RandomStringEmbedding(64, random_state=0, n_jobs=2).fit(strings),
                  pyd2ke.RandomWarpingSeries(64, random_state=0, n_jobs=2).fit(series),
                  pyd2ke.ESPVectorizer(n_jobs=2)]
    data = [strings, series, strings]
    # The parent's transforms start the core's OpenMP team.
    expected = [e.transform(X) for e, X in zip(estimators, data)]
    assert not _core.forked_after_threads()

    def child(i):
        Z = estimators[i].transform(data[i])
        same = (Z != expected[i]).nnz == 0 if hasattr(Z, "nnz") else np.array_equal(Z, expected[i])
        return same, _core.forked_after_threads()

    with multiprocessing.get_context("fork").Pool(2) as pool:
        print(pool.map_async(child, range(3)).get(timeout=60))
    pid = os.fork()
    if pid == 0:
        same, forked = child(0)
        os._exit(0 if same and forked else 3)
    print(os.waitpid(pid, 0)[1])
""")


def test_a_forked_child_transforms_on_one_thread_instead_of_hanging(tmp_path):
    # From another folder than the repository's: its pyd2ke/ is the source, without the compiled core.
    result = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, timeout=180,
                            cwd=tmp_path)
    assert result.returncode == 0, result.stderr[-2000:]
    pool_results, status = result.stdout.split("\n")[:2]
    assert pool_results == "[(True, True), (True, True), (True, True)]"
    assert status == "0"
