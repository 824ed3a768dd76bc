"""pyd2ke: random-feature embeddings of strings, time series, sets and
distributions, so that a linear model approximates a kernel in time linear in
the number of objects and their length."""

from pathlib import Path

try:
    from ._openmp_wait import short_spin

    with short_spin():  # libgomp reads it when the core loads it
        from . import _core
except ImportError:
    if any(Path(__file__).parent.glob("_core*")):
        raise  # a compiled core that does not load: its own error says why
    # The source folder, not an installed package. Python's own error here
    # ("partially initialized module ... circular import") misleads, so it is
    # not chained; name= lets `python -m pyd2ke` print this as one line.
    raise ImportError(
        f"pyd2ke's compiled core is missing from {Path(__file__).parent}: this is the source folder, "
        "not an installed package. Install it (pip install .) and run from another folder, or use "
        "the `pyd2ke` command, which works from anywhere.",
        name=__name__,
    ) from None
from ._domains.point_sets import SetLayoutWarning
from ._domains.series import SeriesLayoutWarning
from ._parallel import chunking
from ._show_config import show_config
from .baselines import RepresentativeSetEmbedding
from .d2ke import D2KE
from .density import DensityKernelFeatures, MeanEmbeddingFeatures
from .documents import WordMoversEmbedding
from .graphs import RandomGraphEmbedding
from .fourier import HashedRandomFourier, make_sfmcgk, make_sfmedm
from .kernel_approximation import RandomMaclaurin
from .sets import RandomSetEmbedding
from .sketches import CGKEmbedding, ESPSketches, ESPVectorizer
from .strings import RandomStringEmbedding
from .timeseries import RandomWarpingSeries, znormalize

__version__ = _core.build_info()["version"]


def build_info():
    """The compiled core: version, OpenMP, the SIMD level in use (``simd``),
    the compiled levels this CPU runs (``simd_levels``), every compiled level
    (``simd_compiled``) and the compiler. :func:`show_config` reports more."""
    return dict(_core.build_info())


def _installed_folder(relative, marker):
    """The installed folder pyd2ke/<relative> that holds <marker>: beside
    this file in a wheel install; in an editable install, where this file is
    the source tree's, the installed copy that the distribution's file list
    names."""
    folder = Path(__file__).parent / relative
    if (folder / marker).is_file():
        return str(folder)
    from importlib.metadata import PackageNotFoundError, files

    try:
        listed = files("pyd2ke") or []
    except PackageNotFoundError:
        listed = []
    wanted = f"pyd2ke/{relative}/{marker}"
    for path in listed:
        if path.as_posix() == wanted:
            return str(Path(path.locate()).parents[len(Path(marker).parts) - 1])
    return str(folder)


def get_include():
    """Folder holding the C++ headers (``#include <pyd2ke/pyd2ke.hpp>``)."""
    return _installed_folder("include", "pyd2ke/pyd2ke.hpp")


def get_cmake_dir():
    """Folder holding pyd2keConfig.cmake, for ``-Dpyd2ke_DIR=...``."""
    return _installed_folder("share/cmake/pyd2ke", "pyd2keConfig.cmake")


__all__ = [
    "CGKEmbedding",
    "ESPSketches",
    "ESPVectorizer",
    "HashedRandomFourier",
    "make_sfmcgk",
    "make_sfmedm",
    "D2KE",
    "DensityKernelFeatures",
    "MeanEmbeddingFeatures",
    "RandomSetEmbedding",
    "RandomGraphEmbedding",
    "WordMoversEmbedding",
    "RandomMaclaurin",
    "RandomStringEmbedding",
    "RandomWarpingSeries",
    "znormalize",
    "SeriesLayoutWarning",
    "SetLayoutWarning",
    "RepresentativeSetEmbedding",
    "build_info",
    "chunking",
    "get_cmake_dir",
    "get_include",
    "show_config",
    "__version__",
]
