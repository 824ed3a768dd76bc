"""Side by side, in one process: pyd2ke's set and document features against
their usual Python formulations, at 1 and 2 threads; medians and ratios.

- WordMoversEmbedding: N = 500 documents of 50..200 words (d = 50 and 300)
  against R = 128 random documents of 1..21 words, against POT's exact
  ``ot.emd2`` on the same pairs with the cost matrices precomputed (POT's
  time excludes the costs; it runs on a sample of pairs and is given as
  pairs per second, so the ratio is of pairs per second). Two kinds of
  documents:
  - "BBC": the first 500 BBC News articles of 50..200 distinct words, as a
    bag-of-words matrix with embeddings (the input form of real corpora;
    the ground costs are computed once per distinct word). d = 50 are the
    bundled GloVe vectors; d = 300 gives each vocabulary word a random
    normal vector (no 300-d vectors are bundled).
  - "unique": every word a fresh random normal vector (no two documents
    share a word: the worst case, ground costs per occurrence).
- RandomSetEmbedding: N = 500 sets of 50..500 vectors in R^128 against
  R = 128 random sets, float32, against the numpy GEMM formulation
  (||a||^2 + ||b||^2 - 2 A B' for all random points at once, mins, roots),
  BLAS limited to the same thread count.

    python benchmarks/compare_sets.py [--repeats 5] [--pot-pairs 3000]
"""

import argparse
import statistics
import time

import numpy as np
from threadpoolctl import threadpool_limits

import pyd2ke
from pyd2ke import RandomSetEmbedding, WordMoversEmbedding
from pyd2ke.datasets import load_bbc_news
from timing import median_time  # benchmarks/timing.py


def wall_time(fn):
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def random_documents(rng, n, dim, low, high):
    docs = []
    for _ in range(n):
        m = int(rng.integers(low, high + 1))
        docs.append((rng.standard_normal((m, dim)), rng.random(m) + 0.1))
    return docs


def bbc_documents(rng, n, dim):
    """(bag of words, embeddings, the same documents as (vectors, weights) pairs)."""
    bbc = load_bbc_news()
    bow = bbc.bow_train
    lengths = np.diff(bow.indptr)
    bow = bow[np.flatnonzero((lengths >= 50) & (lengths <= 200))[:n]]
    E = bbc.embeddings.astype(np.float64) if dim == 50 else rng.standard_normal((bow.shape[1], dim))
    pairs = [(E[bow.indices[a:b]], bow.data[a:b]) for a, b in zip(bow.indptr[:-1], bow.indptr[1:])]
    return bow, E, pairs


def compare_documents(args, ot):
    rng = np.random.default_rng(0)
    for dim in (50, 300):
        bow, E, bbc_pairs = bbc_documents(rng, args.n, dim)
        cases = [
            ("BBC", WordMoversEmbedding(args.n_components, embeddings=E, min_words=1, max_words=21,
                                        standardize=False, random_state=0).fit(bow[:50]), bow, bbc_pairs),
        ]
        unique = random_documents(rng, args.n, dim, 50, 200)
        cases.append(("unique", WordMoversEmbedding(args.n_components, min_words=1, max_words=21,
                                                    standardize=False, random_state=0).fit(unique[:50]), unique, unique))
        for kind, wme, X, pairs_of_X in cases:
            compare_one(args, ot, f"d={dim} {kind}", wme, X, pairs_of_X)


def compare_one(args, ot, label, wme, X, documents):
    """WME on X against POT on the same pairs; documents: X as (vectors, weights) pairs."""
    W = wme.random_objects_
    n_pairs = len(documents) * len(W)
    # POT on a sample of pairs, costs precomputed outside the timing.
    pairs = [(documents[i % len(documents)], W[(i * 7) % len(W)]) for i in range(args.pot_pairs)]
    problems = []
    for (a, wa), (b, wb) in pairs:
        cost = np.sqrt(np.maximum((a * a).sum(1)[:, None] + (b * b).sum(1)[None, :] - 2 * a @ b.T, 0))
        problems.append((wa / wa.sum(), wb / wb.sum(), cost))
    # Both compute the same distances.
    check = wme.set_params(kernel="direct").transform(X[:3])
    check = check * np.sqrt(wme.n_components_)
    wme.set_params(kernel="soft")
    for i in range(3):
        for j in (0, 1):
            a, wa = documents[i]
            b, wb = W[j]
            cost = np.sqrt(np.maximum(((a[:, None, :] - b[None, :, :]) ** 2).sum(-1), 0))
            assert np.isclose(ot.emd2(wa / wa.sum(), wb / wb.sum(), cost), check[i, j], rtol=1e-9), label

    def pot():
        for pa, pb, cost in problems:
            ot.emd2(pa, pb, cost)

    # Interleaved: each round times POT and then every configuration, and
    # the ratio is taken within the round, so that drift of this VM's
    # speed between rounds cancels; medians over the rounds.
    configs = [(n_jobs, dtype) for n_jobs in (1, 2) for dtype in (np.float64, np.float32)]
    pot()
    for n_jobs, dtype in configs:
        wme.set_params(n_jobs=n_jobs, dtype=dtype).transform(X)
    t_pot, times = [], {c: [] for c in configs}
    for _ in range(args.repeats):
        t_pot.append(wall_time(pot))
        for n_jobs, dtype in configs:
            wme.set_params(n_jobs=n_jobs, dtype=dtype)
            times[(n_jobs, dtype)].append(wall_time(lambda: wme.transform(X)))
    pot_rate = len(problems) / statistics.median(t_pot)
    print(f"{label}: POT ot.emd2 {pot_rate:.3g} pairs/s on one core ({len(problems)} pairs, "
          f"{statistics.median(t_pot):.3f} s)")
    for n_jobs, dtype in configs:
        # float32: word distances in single precision, transport in double
        t = times[(n_jobs, dtype)]
        ratios = [(n_pairs / ti) / (len(problems) / tp * n_jobs) for ti, tp in zip(t, t_pot)]
        rate = n_pairs / statistics.median(t)
        print(f"  n_jobs={n_jobs} {np.dtype(dtype).name}: WordMoversEmbedding {statistics.median(t):.3f} s for "
              f"{n_pairs} pairs = {rate:.3g} pairs/s; {statistics.median(ratios):.1f}x POT's rate on {n_jobs} "
              f"core(s) (rounds: {min(ratios):.1f}x..{max(ratios):.1f}x)")


def numpy_modified_hausdorff(X, W):
    points = np.concatenate(W)
    starts = np.r_[0, np.cumsum([len(w) for w in W])[:-1]]
    sizes = np.array([len(w) for w in W])
    norms = (points * points).sum(1)
    out = np.empty((len(X), len(W)), dtype=np.float32)
    for i, x in enumerate(X):
        g = x @ points.T
        g *= -2
        g += norms
        g += (x * x).sum(1)[:, None]
        rows = np.sqrt(np.maximum(np.minimum.reduceat(g, starts, axis=1), 0)).mean(0)
        cols = np.add.reduceat(np.sqrt(np.maximum(g.min(0), 0)), starts) / sizes
        out[i] = np.maximum(rows, cols)
    return out


def compare_sets(args):
    rng = np.random.default_rng(1)
    X = [rng.standard_normal((int(rng.integers(50, 501)), 128)).astype(np.float32) for _ in range(args.n)]
    X = [x / np.linalg.norm(x, axis=1, keepdims=True) for x in X]
    est = RandomSetEmbedding(args.n_components, kernel="direct", standardize=False, random_state=0,
                             dtype=np.float32).fit(X[:50])
    W = [w.astype(np.float32) for w in est.random_objects_]
    n_pairs = sum(len(x) for x in X) * sum(len(w) for w in W)
    check = numpy_modified_hausdorff(X[:5], W)
    ours = est.transform(X[:5]) * np.sqrt(est.n_components_)
    assert np.allclose(check, ours, rtol=1e-3, atol=1e-4), "the two formulations disagree"
    for n_jobs in (1, 2):
        with threadpool_limits(n_jobs):
            t_np = median_time(lambda: numpy_modified_hausdorff(X, W), args.repeats)
        est.set_params(n_jobs=n_jobs)
        t = median_time(lambda: est.transform(X), args.repeats)
        print(f"n_jobs={n_jobs}: RandomSetEmbedding {t:.3f} s ({n_pairs / t:.3g} vector pairs/s), numpy GEMM "
              f"{t_np:.3f} s ({n_pairs / t_np:.3g}/s): {t_np / t:.2f}x")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=500)
    parser.add_argument("--n-components", type=int, default=128)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--pot-pairs", type=int, default=3000)
    parser.add_argument("--only", choices=["documents", "sets"], default=None)
    args = parser.parse_args()
    print(f"pyd2ke {pyd2ke.__version__} {pyd2ke.build_info()}, numpy {np.__version__}; median of {args.repeats}")
    if args.only != "sets":
        import ot

        print(f"POT {ot.__version__}")
        compare_documents(args, ot)
    if args.only != "documents":
        compare_sets(args)


if __name__ == "__main__":
    main()
