"""Small real datasets bundled with pyd2ke (provenance in data/README.md)."""

from importlib import resources

import numpy as np
from sklearn.utils import Bunch

__all__ = ["load_basic_motions", "load_japanese_vowels", "load_statlog_dna"]


def _data_path(name):
    return resources.files(__name__).joinpath("data", name)


def load_statlog_dna():
    """StatLog DNA splice-junction strings with the published train/test split.

    Returns
    -------
    data : sklearn.utils.Bunch with
        X_train, X_test : list of str (2000 and 1186 strings of length 60)
        y_train, y_test : list of str labels ("ei", "ie", "n")
        classes : list of str
        description : str
    """
    rows = _data_path("statlog_dna.tsv").read_text(encoding="ascii").splitlines()
    X_train, y_train, X_test, y_test = [], [], [], []
    for line in rows:
        label, seq, split = line.split("\t")
        if split == "train":
            X_train.append(seq)
            y_train.append(label)
        else:
            X_test.append(seq)
            y_test.append(label)
    return Bunch(
        X_train=X_train,
        y_train=y_train,
        X_test=X_test,
        y_test=y_test,
        classes=sorted(set(y_train)),
        description="StatLog DNA splice junctions (60-mers over ACGT), StatLog 2000/1186 split",
    )


def _load_uea(filename, description):
    with _data_path(filename).open("rb") as f, np.load(f) as d:
        arrays = {key: d[key] for key in d.files}  # read each key once
    classes = arrays["classes"].tolist()

    def split(part):
        values = np.ascontiguousarray(arrays[f"X_{part}_values"])  # stored column-major
        lengths = arrays[f"X_{part}_lengths"]
        series = np.split(values, np.cumsum(lengths)[:-1])
        return series, [classes[i] for i in arrays[f"y_{part}"]]

    X_train, y_train = split("train")
    X_test, y_test = split("test")
    return Bunch(X_train=X_train, y_train=y_train, X_test=X_test, y_test=y_test, classes=classes,
                 description=description)


def load_japanese_vowels():
    """JapaneseVowels (UEA archive): 12-channel LPC cepstra of nine speakers,
    series of 7-29 steps, published 270/370 train/test split.

    Returns
    -------
    data : sklearn.utils.Bunch with X_train, X_test (lists of float32 arrays of
        shape (length, 12)), y_train, y_test (lists of str), classes, description
    """
    return _load_uea("japanese_vowels.npz", "JapaneseVowels: 9 speakers, 12 channels, lengths 7-29, 270/370 split")


def load_basic_motions():
    """BasicMotions (UEA archive): 6-channel smart-watch accelerometer and
    gyroscope series of 100 steps, four activities, published 40/40 split.

    Returns
    -------
    data : sklearn.utils.Bunch with X_train, X_test (lists of float32 arrays of
        shape (100, 6)), y_train, y_test (lists of str), classes, description
    """
    return _load_uea("basic_motions.npz", "BasicMotions: 4 activities, 6 channels, length 100, 40/40 split")
