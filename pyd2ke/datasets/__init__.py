"""Small real datasets bundled with pyd2ke (provenance in data/README.md)."""

from importlib import resources

import numpy as np
from sklearn.utils import Bunch

__all__ = [
    "load_basic_motions",
    "load_bbc_news",
    "load_digits_chaincode",
    "load_digits_sift",
    "load_japanese_vowels",
    "load_mutag",
    "load_statlog_dna",
]


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


def _read_npz(filename):
    with _data_path(filename).open("rb") as f, np.load(f) as d:
        return {key: d[key] for key in d.files}  # read each key once


def _split_ragged(values, lengths):
    return np.split(values, np.cumsum(lengths)[:-1])


def load_bbc_news():
    """BBC News articles (5 topics) as bags of words with 50-d GloVe vectors.

    2127 documents (exact duplicates removed), 26591-word vocabulary, seeded
    stratified 70/30 split (1488 / 639).

    Returns
    -------
    data : sklearn.utils.Bunch
        With the keys:

        - embeddings: ndarray (26591, 50) float32, the GloVe vector of each word;
        - vocabulary: list of str;
        - bow_train, bow_test: scipy.sparse.csr_matrix (n_documents, 26591) of
          word counts, the input of ``WordMoversEmbedding(embeddings=...)``;
        - X_train, X_test: lists of (word vectors, counts) pairs, the same
          documents in the pair form;
        - y_train, y_test: lists of str; classes; description.
    """
    import scipy.sparse as sp

    d = _read_npz("bbc_news.npz")
    lengths = d["doc_lengths"]
    offsets = np.r_[0, np.cumsum(lengths)]
    embeddings = d["embeddings"]
    bow = sp.csr_matrix(
        (d["doc_counts"].astype(np.float64), d["doc_word_ids"].astype(np.int32), offsets),
        shape=(len(lengths), len(embeddings)),
    )
    classes = d["classes"].tolist()
    labels = [classes[i] for i in d["y"]]
    train = np.flatnonzero(d["is_train"])
    test = np.flatnonzero(~d["is_train"])

    def pairs(rows):
        return [(embeddings[bow.indices[bow.indptr[i] : bow.indptr[i + 1]]],
                 bow.data[bow.indptr[i] : bow.indptr[i + 1]].copy()) for i in rows]

    return Bunch(
        embeddings=embeddings,
        vocabulary=np.char.decode(d["vocab"], "ascii").tolist(),
        bow_train=bow[train],
        bow_test=bow[test],
        X_train=pairs(train),
        X_test=pairs(test),
        y_train=[labels[i] for i in train],
        y_test=[labels[i] for i in test],
        classes=classes,
        description="BBC News: 2127 articles, 5 topics, 50-d GloVe bags of words, seeded 70/30 split",
    )


def load_digits_sift():
    """OpenCV's 5000 handwritten digits (20x20, 500 per class), each as the
    set of its 128-d SIFT descriptors (1-36 per image), seeded stratified
    70/30 split (3500 / 1500).

    Returns
    -------
    data : sklearn.utils.Bunch with X_train, X_test (lists of float32 arrays
        of shape (n_descriptors, 128), values 0..236 as computed by OpenCV),
        y_train, y_test (lists of str), classes, description
    """
    d = _read_npz("digits_sift.npz")
    sets = _split_ragged(d["X_values"].astype(np.float32), d["X_lengths"])  # stored as uint8, lossless
    classes = d["classes"].tolist()
    labels = [classes[i] for i in d["y"]]
    train = np.flatnonzero(d["is_train"])
    test = np.flatnonzero(~d["is_train"])
    return Bunch(
        X_train=[sets[i] for i in train],
        X_test=[sets[i] for i in test],
        y_train=[labels[i] for i in train],
        y_test=[labels[i] for i in test],
        classes=classes,
        description="Digits as SIFT descriptor sets: 5000 images, 10 classes, seeded 70/30 split",
    )


def load_digits_chaincode():
    """The same 1797 scikit-learn digits as Freeman 8-direction chain codes of
    their outlines (strings over 01234567, lengths 45-106), with the seeded
    stratified 70/30 split.

    Returns
    -------
    data : sklearn.utils.Bunch with X_train, X_test (lists of str), y_train,
        y_test (lists of str), classes, description
    """
    from sklearn.model_selection import train_test_split

    rows = [line.split("\t") for line in _data_path("digits_chaincode.tsv").read_text(encoding="ascii").splitlines()]
    labels = [r[0] for r in rows]
    codes = [r[1] for r in rows]
    train, test = train_test_split(np.arange(len(rows)), test_size=0.3, stratify=labels, random_state=0)
    return Bunch(
        X_train=[codes[i] for i in train],
        X_test=[codes[i] for i in test],
        y_train=[labels[i] for i in train],
        y_test=[labels[i] for i in test],
        classes=sorted(set(labels)),
        description="Digits as chain codes: 1797 strings over 01234567, seeded 70/30 split",
    )


def load_mutag():
    """MUTAG: 188 nitro-aromatic compounds as graphs (atoms as nodes labelled
    by element, bonds as edges), two classes: mutagenic on Salmonella
    typhimurium (125, label 1) or not (63, label -1). No published split:
    use cross-validation (10-fold is the custom).

    Returns
    -------
    data : sklearn.utils.Bunch
        With the keys:

        - graphs: list of (adjacency scipy.sparse.csr_matrix (n, n) of 0/1,
          node labels int64 (n,)) pairs, 10-28 nodes; the input of
          ``RandomGraphEmbedding``;
        - edge_labels: list of csr_matrix (n, n) of the bond types + 1
          (1 aromatic, 2 single, 3 double, 4 triple; 0: no bond);
        - y: ndarray of int (188,), 1 or -1;
        - node_label_names, edge_label_names: list of str;
        - classes: list of int; description: str.
    """
    import scipy.sparse as sp

    d = _read_npz("mutag.npz")
    sizes = d["graph_sizes"].astype(np.int64)
    labels = _split_ragged(d["node_labels"].astype(np.int64), sizes)
    edges = _split_ragged(d["edges"].astype(np.int64), d["edge_graph_counts"].astype(np.int64))
    bonds = _split_ragged(d["edge_labels"].astype(np.int64), d["edge_graph_counts"].astype(np.int64))
    graphs, edge_labels = [], []
    for n, lab, e, b in zip(sizes, labels, edges, bonds):
        graphs.append((sp.csr_matrix((np.ones(len(e)), (e[:, 0], e[:, 1])), shape=(n, n)), lab))
        edge_labels.append(sp.csr_matrix((b + 1, (e[:, 0], e[:, 1])), shape=(n, n)))
    return Bunch(
        graphs=graphs,
        edge_labels=edge_labels,
        y=d["y"].astype(np.int64),
        node_label_names=["C", "N", "O", "F", "I", "Cl", "Br"],
        edge_label_names=["aromatic", "single", "double", "triple"],
        classes=[-1, 1],
        description="MUTAG: 188 molecules (10-28 atoms), 2 classes (125 mutagenic / 63 not), 7 atom labels",
    )
