"""Small real datasets bundled with pyd2ke (provenance in data/README.md)."""

from importlib import resources

from sklearn.utils import Bunch

__all__ = ["load_statlog_dna"]


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
