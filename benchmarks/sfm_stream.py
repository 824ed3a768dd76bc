"""The SFM paper's Compound and Sports jobs, streamed (issue 30, item 1).

    python benchmarks/sfm_stream.py [--rows 274000] [--length 53] [--budget-mb 256]

By default one fifth of Compound: 274,000 SMILES-like strings (two classes
of mutated 53-letter prototypes over 44 symbols, as in
benchmarks/streamed_fit.py) in chunks of 5,000 through
``make_sfmedm(n_components=16384, dtype=numpy.float32)`` into
``SGDClassifier.partial_fit`` with ``pyd2ke.streaming.fit_streamed``
(pieces sized from --budget-mb). ``--rows 1367074`` is the whole of
Compound; ``--rows 296337 --length 307`` is Sports' size and length.
Prints wall time, strings/s, the transform's own rate (the median of
three timings of the first chunk alone) and its share of the run, peak
RSS and accuracy on 20,000 held-out strings.
"""

import argparse
import resource
import time

import numpy as np
from sklearn.linear_model import SGDClassifier

import pyd2ke
from pyd2ke.readers import Lines
from pyd2ke.streaming import fit_streamed

from streamed_fit import read_test, write_strings
from timing import median_time


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rows", type=int, default=274_000)
    parser.add_argument("--length", type=int, default=53, help="prototype length (Compound 53, Sports 307)")
    parser.add_argument("--budget-mb", type=int, default=256)
    parser.add_argument("--dir", default="/tmp/pyd2ke_sfm_stream")
    args = parser.parse_args()
    import os
    from pathlib import Path

    directory = Path(args.dir)
    directory.mkdir(parents=True, exist_ok=True)
    write_strings(directory / "train.tsv", args.rows, seed=1, length=args.length)
    write_strings(directory / "test.tsv", 20_000, seed=2, length=args.length)
    chunks = Lines(directory / "train.tsv", 5000, label_separator="\t")
    sfm = pyd2ke.make_sfmedm(n_components=16384, random_state=0, dtype=np.float32)
    first = next(iter(chunks))[0]
    sfm.fit(first)
    per_chunk = median_time(lambda: sfm.transform(first), repeats=3)
    t0 = time.perf_counter()
    model = fit_streamed(sfm, SGDClassifier(random_state=0), chunks, classes=["0", "1"],
                         memory_budget=args.budget_mb * 2**20)
    seconds = time.perf_counter() - t0
    X_test, y_test = read_test(directory / "test.tsv")
    # Scored 2,000 at a time: 20,000 x 16,384 features would be 1.3 GB at once.
    predicted = np.concatenate([model.predict(X_test[i:i + 2000]) for i in range(0, len(X_test), 2000)])
    accuracy = float(np.mean(predicted == y_test.astype(str)))
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"{args.rows} strings in {seconds:.1f} s ({args.rows / seconds:.0f} strings/s; the transform alone: "
          f"{5000 / per_chunk:.0f} strings/s, {args.rows / 5000 * per_chunk:.1f} s of the run), pieces of "
          f"{model.streamed_fit_report_.rows_per_piece}, peak RSS {peak:.0f} MB, test accuracy {accuracy:.4f}; "
          f"OMP threads {os.environ.get('OMP_NUM_THREADS', 'all')}")


if __name__ == "__main__":
    main()
