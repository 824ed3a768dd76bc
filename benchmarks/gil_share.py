"""The share of each transform's time that holds Python's GIL, at one thread
(issue 29): what bounds a transform whose threads run Python code.

    pip install py-spy        # the sampler; Linux, and permission to trace the process
    python benchmarks/gil_share.py [--seconds 8] [--rate 200] [--scale 1.0] [--only "density js" ...]

A transform whose blocks run on Python threads (DensityKernelFeatures,
RandomMaclaurin, HashedRandomFourier, RGE's graphs over 300 nodes) scales
only as far as the GIL lets it: whatever share f of its time holds the GIL runs
one thread at a time, so n threads gain at most 1 / (f + (1 - f) / n), less
once the threads queue for it ("bound at 16 threads"). That share can be
measured on any machine, two cores included, where the 16-core speed-ups of
benchmarks/thread_scaling.py cannot. The core's OpenMP transforms are
another matter: their one Python thread holds the GIL while the core reads
the Python inputs, on several threads for long string lists (CGK, ESP), so
for them the share is no bound; their serial fraction is thread_scaling.py's.

Each transform of thread_scaling.py's cases runs with n_jobs=1 in a loop for
--seconds twice: once sampled by py-spy in full, once with ``--gil`` (only
the samples of a thread that holds the GIL). The share is the ratio of the
two sample counts taken inside the loop. Both runs are sampled without
pausing the process (``--nonblocking``). Read the shares to a few percent:
the density features gave 5.6, 7.2 and 9.3 % in three runs on a 2-core
machine that was busy with other work.
"""

import argparse
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from thread_scaling import cases, set_threads  # noqa: E402

# The frame that marks a sample as taken inside the timed loop.
_LOOP = "transform_loop"


def transform_loop(estimator, X, seconds):
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < seconds:
        Z = estimator.transform(X)
        del Z


def loop_samples(py_spy, estimator, X, seconds, rate, gil):
    """Samples py-spy took inside transform_loop while it ran for seconds."""
    with tempfile.TemporaryDirectory() as folder:
        out = os.path.join(folder, "samples.txt")
        command = [py_spy, "record", "--pid", str(os.getpid()), "--nonblocking", "--rate", str(rate),
                   "--format", "raw", "--output", out, *(["--gil"] if gil else [])]
        sampler = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(1.0)  # py-spy attaches
        transform_loop(estimator, X, seconds)
        sampler.send_signal(signal.SIGINT)
        sampler.wait(timeout=60)
        if not os.path.exists(out):
            raise RuntimeError(f"py-spy wrote no samples (exit {sampler.returncode}): can it trace this process?")
        with open(out) as f:
            # raw format: one line per distinct stack, "frame;frame;... count"
            return sum(int(line.rsplit(" ", 1)[1]) for line in f if _LOOP in line)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=8.0)
    parser.add_argument("--rate", type=int, default=200)
    parser.add_argument("--scale", type=float, default=1.0)
    parser.add_argument("--only", nargs="+", default=None)
    args = parser.parse_args()
    py_spy = shutil.which("py-spy")
    if py_spy is None:
        sys.exit("needs py-spy on PATH: pip install py-spy")
    print(f"GIL share at 1 thread: py-spy --gil samples / all samples over {args.seconds:g} s each, "
          f"{args.rate} Hz; scale {args.scale}")
    print("| transform | samples | holding the GIL | GIL share | bound at 16 threads |\n|---|---|---|---|---|")
    for name, (estimator, X) in cases(args.scale).items():
        if args.only and name not in args.only:
            continue
        estimator.fit(X[:200] if name != "density js" else X[:300])
        set_threads(estimator, 1).transform(X)  # warm
        every = loop_samples(py_spy, estimator, X, args.seconds, args.rate, gil=False)
        holding = loop_samples(py_spy, estimator, X, args.seconds, args.rate, gil=True)
        share = holding / every if every else float("nan")
        bound = 1.0 / (share + (1.0 - share) / 16)
        print(f"| {name} | {every} | {holding} | {100 * share:.1f} % | {bound:.1f}x |", flush=True)


if __name__ == "__main__":
    main()
