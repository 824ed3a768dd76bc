"""Soak: 10^7 objects through fitted estimators, chunk by chunk; resident
memory must stay flat (issue 30).

    python benchmarks/soak.py [--objects 10000000] [--chunk 20000]

Strings (40 letters over ACGT, RandomStringEmbedding R=64) and series (20
steps x 2 channels, RandomWarpingSeries R=64) are made a chunk at a time,
transformed and dropped. Resident memory (from /proc/self/statm) is read
after a warm-up of 10 chunks and then every 50 chunks; the report gives
its growth after the warm-up. tests/test_streaming.py runs a reduced form.
"""

import argparse
import os
import time

import numpy as np

import pyd2ke


def rss_mb():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


def strings(rng, n):
    codes = np.frombuffer(b"ACGT", dtype=np.uint8)[rng.integers(0, 4, size=(n, 40))]
    return [row.tobytes().decode("ascii") for row in codes]


def series(rng, n):
    return list(rng.standard_normal((n, 20, 2)))


def soak(name, estimator, make, objects, chunk, warmup=10):
    rng = np.random.default_rng(0)
    estimator.fit(make(rng, 1000))
    samples, t0 = [], time.perf_counter()
    chunks = objects // chunk
    for i in range(chunks):
        estimator.transform(make(rng, chunk))
        if i == warmup - 1 or (i >= warmup and (i - warmup) % 50 == 49) or i == chunks - 1:
            samples.append(rss_mb())
    seconds = time.perf_counter() - t0
    growth = samples[-1] - samples[0]
    print(f"{name}: {chunks * chunk} objects in {seconds:.0f} s ({chunks * chunk / seconds:.0f}/s); resident "
          f"memory {samples[0]:.0f} MB after warm-up, {samples[-1]:.0f} MB at the end (growth {growth:+.1f} MB; "
          f"min {min(samples):.0f}, max {max(samples):.0f} over {len(samples)} readings)", flush=True)
    return growth


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--objects", type=int, default=10_000_000)
    parser.add_argument("--chunk", type=int, default=20_000)
    args = parser.parse_args()
    growth = [
        soak("strings, RandomStringEmbedding(64)", pyd2ke.RandomStringEmbedding(64, sampler="rf", random_state=0),
             strings, args.objects, args.chunk),
        soak("series, RandomWarpingSeries(64)", pyd2ke.RandomWarpingSeries(64, random_state=0, dtype=np.float32),
             series, args.objects, args.chunk),
    ]
    print(f"largest growth after warm-up: {max(growth):+.1f} MB (< 20 MB asked)")


if __name__ == "__main__":
    main()
