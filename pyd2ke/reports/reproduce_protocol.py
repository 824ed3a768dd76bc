"""What ``python -m pyd2ke reproduce`` holds fixed: the grids of the full and
the quick run (FULL, QUICK, with how each grid grows past its ends), the
papers' published numbers (PAPER) and the papers' raw features
(RAW_FEATURES). Kept apart from the code that runs them so that the numbers
a reader checks against the papers sit in one short file."""

from .grid import Axis

# Grids. "quick" subsamples every dataset and shrinks R and the grids so the
# whole run stays within a few minutes on two cores; its grids are too short
# to show that CV stays off their edges.
FULL = {
    "max_train": None, "max_test": None,
    "R": {"strings": 4096, "timeseries": 1024, "documents": 1024, "sets": 2048, "graphs": 256},
    "rsm_R": [32, 64, 128, 256, 512], "rsm_documents": [8, 16, 32],
    # gamma of the soft features: these factors times the "auto" gamma
    "gamma_factors": [0.25, 1.0, 4.0],
    # C of the linear SVM on standardised features (kernel matrix Z Z^T / R)
    "C": [0.1, 1.0, 10.0, 100.0],
    # exact kernels: gamma factors over the median d (or d^2), SVC's C
    "dsk_factors": [0.0625, 0.25, 1.0, 4.0, 16.0], "svc_C": [0.1, 1.0, 10.0, 100.0, 1000.0],
    "k": [1, 3, 5, 9, 15, 25, 45, 85],
    "rf_lengths": [25, 50, 100, 200], "ss_fractions": [1 / 4, 1 / 2, 1.0],
    "rws_lengths": [5, 10, 25, 50], "set_sizes": [5, 15, 30],
    "sfm_beta": [1.0, 10.0, 100.0, 1000.0, 10000.0], "sfm_search_D": 1024, "sfm_D": 16384,
    "kmer_k": [1, 2, 3, 4, 5, 6, 8], "onehot": True, "bovw_words": [64, 256, 1024],
    "liblinear_C": [0.001, 0.01, 0.1, 1.0, 10.0], "tfidf_C": [0.1, 1.0, 10.0, 100.0],
    "sweep": [16, 64, 256, 512, 1024, 2048, 4096],
    # When CV picks an end of a grid, the grid grows past it by these steps
    # (pyd2ke/reports/grid.py) until the choice is inside, within the ranges.
    "axes": {
        "C": Axis(factor=10, low=1e-4, high=1e5), "svc C": Axis(factor=10, low=1e-3, high=1e5),
        "liblinear C": Axis(factor=10, low=1e-6, high=1e3),
        "gamma factor": Axis(factor=4, low=4.0 ** -6, high=4.0 ** 6),
        "beta": Axis(factor=10, low=1e-6, high=1e2),  # 1 / beta: beta in [0.01, 1e6]
        "k": Axis(factor=1.9, low=1, integer=True),
        "random length": Axis(factor=2, low=1, high=3200, integer=True),
        "set size": Axis(factor=2, low=1, high=240, integer=True),
        "sfm beta": Axis(factor=10, low=1e-2, high=1e6),
        "kmer k": Axis(step=1, low=1, high=12, integer=True),
        "bovw words": Axis(factor=4, low=4, high=4096, integer=True),
    },
}
QUICK = {
    "max_train": 600, "max_test": 400,
    "R": {"strings": 256, "timeseries": 128, "documents": 128, "sets": 256, "graphs": 128},
    "rsm_R": [64, 128], "rsm_documents": [],
    "gamma_factors": [0.35, 1.0, 2.8], "C": [0.1, 1.0, 10.0],
    "dsk_factors": [0.25, 1.0, 4.0], "svc_C": [1.0, 10.0, 100.0],
    "k": [1, 5, 15],
    "rf_lengths": [25, 100], "ss_fractions": [1.0],
    "rws_lengths": [25], "set_sizes": [15],
    "sfm_beta": [10.0, 100.0, 1000.0], "sfm_search_D": 256, "sfm_D": 256,
    "kmer_k": [2, 4, 6], "onehot": True, "bovw_words": [64],
    "liblinear_C": [0.1, 1.0], "tfidf_C": [1.0],
    "sweep": [16, 64, 256],
    "axes": {},  # the quick grids stay as they are
}

# The papers' own numbers where the dataset is the same: StatLog DNA is the
# splice data set of both papers (their split: 2233 / 957 strings, ours the
# StatLog one: 2000 / 1186). Percent test accuracy.
PAPER = {
    ("StatLog DNA", "RSE rf SF"): "86.31 (RSE T2); 90.03 (D2KE T3)",
    ("StatLog DNA", "RSE rf DF"): "86.72 (RSE T2)",
    ("StatLog DNA", "RSE rfd SF"): "82.86 (RSE T2)",
    ("StatLog DNA", "RSE rfd DF"): "86.20 (RSE T2)",
    ("StatLog DNA", "RSE ss SF"): "88.08 (RSE T2)",
    ("StatLog DNA", "RSE ss DF"): "88.71 (RSE T2)",
    ("StatLog DNA", "RSE bss SF"): "90.17 (RSE T2)",
    ("StatLog DNA", "RSE bss DF"): "89.76 (RSE T2)",
    ("StatLog DNA", "RSM"): "86.10 (D2KE T3)",
    ("StatLog DNA", "k-NN"): "79.41 (D2KE T3)",
    ("StatLog DNA", "DSK_RBF"): "87.88 (D2KE T3)",
}

# The papers' raw features d / sqrt(R) and exp(-gamma d) / sqrt(R): the rows
# turn direct features back into distances (times sqrt(R)).
RAW_FEATURES = {"standardize": False}
