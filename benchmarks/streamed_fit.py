"""A streamed fit on a file larger than the memory the process may use (issue 30).

    python benchmarks/streamed_fit.py --dir DIR [--rows 20000000] [--limit-mb 300]

1. Writes DIR/train.tsv (``label<TAB>string`` lines: two classes of
   SMILES-like strings, each a mutated copy of its class's 53-letter
   prototype over 44 symbols: every letter substituted with probability
   0.85 and deleted with probability 0.05) and DIR/test.tsv (20,000 lines).
2. The check on a problem that fits: the first 20,000 lines, in memory
   (``RandomStringEmbedding`` features, StandardScaler, ``SGDClassifier``
   fitted on the whole matrix) against ``fit_streamed`` over the same lines
   in chunks; both scored on the test file.
3. The large run in a child process confined by a cgroup (v1 memory
   controller: ``memory.limit_in_bytes`` = --limit-mb, and the same for
   memory + swap when the kernel accounts swap): ``fit_streamed`` over
   every line of train.tsv with ``pyd2ke.readers.Lines``. It prints the
   file size against the limit, rows/s, the child's peak resident memory
   and the cgroup's peak usage, and the test accuracy.

Needs root (to make the cgroup); without it the large run is skipped with a
message.
"""

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

ALPHABET = np.frombuffer(bytes(range(ord("!"), ord("!") + 44)), dtype=np.uint8)
DELETED = ord("~")  # not in the alphabet
CGROUP = Path("/sys/fs/cgroup/memory/pyd2ke_streamed_fit")


def write_strings(path, n, seed, length=53, substitute=0.85, delete=0.05, block=500_000):
    """n labelled lines of mutated prototype strings (labels 0 and 1 alternate)."""
    prototypes = np.random.default_rng(12345).choice(ALPHABET, size=(2, length))
    rng = np.random.default_rng(seed)
    with open(path, "wb") as f:
        for start in range(0, n, block):
            m = min(block, n - start)
            labels = (np.arange(start, start + m) % 2).astype(np.int64)
            codes = prototypes[labels].copy()
            u = rng.random((m, length))
            swap = u < substitute
            codes[swap] = rng.choice(ALPHABET, size=int(swap.sum()))
            codes[u > 1 - delete] = DELETED
            lines = [b"%d\t%s\n" % (label, row.tobytes().replace(b"~", b"")) for label, row in zip(labels, codes)]
            f.write(b"".join(lines))


def model_parts():
    from sklearn.linear_model import SGDClassifier

    import pyd2ke

    return pyd2ke.RandomStringEmbedding(256, random_state=0, dtype=np.float32), SGDClassifier(random_state=0)


def read_test(path):
    from pyd2ke.readers import Lines

    X, y = [], []
    for strings, labels in Lines(path, 100_000, label_separator="\t"):
        X += strings
        y += labels
    return X, np.asarray(y, dtype=np.int64)


def check_in_memory(directory, n=20_000):
    from sklearn.preprocessing import StandardScaler

    from pyd2ke.readers import Lines
    from pyd2ke.streaming import fit_streamed

    chunk = next(iter(Lines(directory / "train.tsv", n, label_separator="\t")))
    X, y = chunk[0], np.asarray(chunk[1], dtype=np.int64)
    X_test, y_test = read_test(directory / "test.tsv")
    rse, sgd = model_parts()
    Z = rse.fit(X).transform(X)
    scaler = StandardScaler().fit(Z)
    sgd.fit(scaler.transform(Z), y)
    memory = sgd.score(scaler.transform(rse.transform(X_test)), y_test)
    rse, sgd = model_parts()
    chunks = [(X[i:i + 2000], y[i:i + 2000]) for i in range(0, n, 2000)]
    streamed = fit_streamed(rse, sgd, chunks, classes=[0, 1], epochs=5).score(X_test, y_test)
    print(f"check, {n} lines: in memory (SGDClassifier.fit) {memory:.4f}, fit_streamed (5 epochs) {streamed:.4f}, "
          f"difference {streamed - memory:+.4f}", flush=True)


def child(directory, budget_mb):
    """The large run (inside the cgroup)."""
    import resource

    from pyd2ke.readers import Lines
    from pyd2ke.streaming import fit_streamed

    rse, sgd = model_parts()
    t0 = time.perf_counter()
    model = fit_streamed(rse, sgd, Lines(directory / "train.tsv", 20_000, label_separator="\t"),
                         classes=["0", "1"], memory_budget=budget_mb * 2**20, verbose=1)
    seconds = time.perf_counter() - t0
    X_test, y_test = read_test(directory / "test.tsv")
    accuracy = model.score(X_test, y_test.astype(str))
    report = model.streamed_fit_report_
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    status = dict(line.split(":", 1) for line in Path("/proc/self/status").read_text().splitlines() if ":" in line)
    anonymous = int(status.get("RssAnon", "0 kB").split()[0]) / 1024
    print(f"large run: {report.rows_seen} rows in {seconds:.1f} s ({report.rows_seen / seconds:.0f} rows/s), "
          f"pieces of {report.rows_per_piece}, peak RSS {peak:.0f} MB (shared library pages, charged to the "
          f"cgroup that first read them, included), anonymous memory at the end {anonymous:.0f} MB, "
          f"test accuracy {accuracy:.4f}", flush=True)


def confined_run(directory, limit_mb, budget_mb):
    try:
        CGROUP.mkdir(exist_ok=True)
        (CGROUP / "memory.limit_in_bytes").write_text(str(limit_mb * 2**20))
        swap = CGROUP / "memory.memsw.limit_in_bytes"
        if swap.exists():
            swap.write_text(str(limit_mb * 2**20))
        (CGROUP / "memory.max_usage_in_bytes").write_text("0")
    except OSError as error:
        print(f"large run skipped: cannot make a memory cgroup ({error}); run as root on a cgroup-v1 machine")
        return
    size = (directory / "train.tsv").stat().st_size
    print(f"train.tsv: {size / 2**20:.0f} MB = {size / (limit_mb * 2**20):.1f} x the {limit_mb} MB the process may "
          "use (cgroup memory.limit_in_bytes, memory + swap the same)", flush=True)
    command = [sys.executable, __file__, "--child", "--dir", str(directory), "--budget-mb", str(budget_mb)]
    start = f"echo $$ > {CGROUP}/cgroup.procs && exec " + " ".join(map(_quote, command))
    result = subprocess.run(["bash", "-c", start])
    peak = int((CGROUP / "memory.max_usage_in_bytes").read_text()) / 2**20
    failures = int((CGROUP / "memory.failcnt").read_text())
    print(f"cgroup peak usage {peak:.0f} MB (page cache of the file included; limit {limit_mb} MB), "
          f"{failures} times at the limit (the kernel reclaimed page cache), exit status {result.returncode}")


def _quote(text):
    return "'" + text.replace("'", "'\\''") + "'"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dir", required=True, type=Path)
    parser.add_argument("--rows", type=int, default=20_000_000)
    parser.add_argument("--limit-mb", type=int, default=300)
    parser.add_argument("--budget-mb", type=int, default=64)
    parser.add_argument("--child", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        return child(args.dir, args.budget_mb)
    args.dir.mkdir(parents=True, exist_ok=True)
    if not (args.dir / "train.tsv").exists():
        t0 = time.perf_counter()
        write_strings(args.dir / "train.tsv", args.rows, seed=1)
        write_strings(args.dir / "test.tsv", 20_000, seed=2)
        print(f"wrote {args.rows} + 20000 lines in {time.perf_counter() - t0:.0f} s", flush=True)
    check_in_memory(args.dir)
    confined_run(args.dir, args.limit_mb, args.budget_mb)


if __name__ == "__main__":
    os.environ.setdefault("OMP_NUM_THREADS", str(os.cpu_count()))
    main()
