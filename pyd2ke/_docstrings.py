"""Docstring paragraphs that several public classes share, written once.

A line of a docstring that is only a placeholder, ``<standardize>`` say, is
replaced at import by the paragraph of that name, at the line's indentation
(fill_doc): help() and the API pages show the whole text, the source holds it
once. The built-in metric list is filled the same way
(``pyd2ke._domains.fill_metrics_doc``).
"""

import textwrap

# placeholder -> its text (numpydoc, indented from column 0)
PARAGRAPHS = {
    # the estimators on D2KEBase
    "<standardize>": """\
standardize : bool, default=True
    Centre every feature on its fit-data mean and divide all by one
    common factor (unit variance on average), so that a linear model with
    its default regularisation learns without a scaler; Z Z' is then the
    centred kernel over ``feature_scale_ ** 2``. Both are estimated from
    the same sample of at most 256 fit objects as ``gamma="auto"``, so the
    fit data's own means are near 0, not exactly 0. False: the raw
    features.""",
    "<verbose>": """\
verbose : int, default=0
    When > 0, ``transform`` reports its progress over the objects to
    stderr, one line per chunk (useful for large N).""",
    "<feature_mean_, feature_scale_>": """\
feature_mean_, feature_scale_ : ndarray (one value per feature) and float, or None
    The standardisation (None when ``standardize=False``).""",
    # the RWS classifiers of pyd2ke.aeon and pyd2ke.sktime
    "<the RWS classifier's max_length to local>": '''\
max_length : int or "auto", default="auto"
derivative : bool, default=True
estimator : scikit-learn classifier or None, default=None
    None: ``RidgeClassifierCV(alphas=np.logspace(-3, 3, 10))``.
random_state : int, RandomState instance or None, default=None
n_jobs : int, default=1
local : float in [0, 1) or "auto", default="auto"''',
}


def fill_doc(obj, paragraphs=PARAGRAPHS):
    """obj (a class or function) with every line of its docstring that is a
    placeholder of paragraphs replaced by that paragraph at the line's
    indentation. A paragraph is its text, or a function of the indentation
    that returns the indented text."""
    if obj.__doc__:  # None under python -OO
        obj.__doc__ = "\n".join(_filled(line, paragraphs) for line in obj.__doc__.split("\n"))
    return obj


def _filled(line, paragraphs):
    paragraph = paragraphs.get(line.strip())
    if paragraph is None:
        return line
    indent = len(line) - len(line.lstrip())
    return paragraph(indent) if callable(paragraph) else textwrap.indent(paragraph, " " * indent)


__all__ = ["PARAGRAPHS", "fill_doc"]
