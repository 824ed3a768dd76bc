"""The built documentation site, opened in headless Chromium.

Build the site first (``sphinx-build -W -b html docs docs/_build/html``).
Without a build these tests skip, unless PYD2KE_DOCS_BUILT names the build
folder (``.ci/docs`` sets it): then a missing build or a missing browser is a
failure, so CI cannot pass without having looked at the pages.
"""

import os
import re
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

REQUIRED = os.environ.get("PYD2KE_DOCS_BUILT")
SITE = Path(REQUIRED or Path(__file__).resolve().parents[1] / "docs" / "_build" / "html").resolve()
# The example whose page is opened in the browser; every gallery page is
# checked for figures on disk.
GALLERY_PAGE = "auto_examples/plot_kernel_approximation.html"
MIN_EXAMPLES = 6


def _site():
    if not (SITE / "index.html").is_file():
        if REQUIRED:
            pytest.fail(f"PYD2KE_DOCS_BUILT={REQUIRED}, but {SITE / 'index.html'} does not exist")
        pytest.skip(f"no built documentation at {SITE}")
    return SITE


def _chromium():
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    if REQUIRED:
        pytest.fail("PYD2KE_DOCS_BUILT is set but no chromium is installed (apt-get install chromium)")
    pytest.skip("chromium is not installed")


def _image(path):
    from PIL import Image

    with Image.open(path) as image:
        return np.asarray(image.convert("L"), dtype=np.float64)


def _assert_not_blank(pixels, what):
    # A rendered page or a figure has text and lines: many pixels away from
    # the background colour, and a spread of grey levels.
    background = np.median(pixels)
    drawn = np.mean(np.abs(pixels - background) > 32)
    assert pixels.std() > 10 and drawn > 0.005, (
        f"{what} looks blank: std {pixels.std():.1f}, {100 * drawn:.2f} % drawn pixels"
    )


def _screenshot(page, tmp_path):
    out = tmp_path / (page.replace("/", "_") + ".png")
    command = [
        _chromium(),
        "--headless",
        "--no-sandbox",  # CI runs as root in a container
        "--disable-gpu",
        "--hide-scrollbars",
        f"--user-data-dir={tmp_path / 'profile'}",
        "--window-size=1280,1600",
        "--virtual-time-budget=5000",
        f"--screenshot={out}",
        (_site() / page).as_uri(),
    ]
    result = subprocess.run(command, capture_output=True, text=True, timeout=180)
    assert out.is_file(), f"chromium wrote no screenshot (exit {result.returncode}):\n{result.stderr[-2000:]}"
    return out


def _figures(page):
    html = (_site() / page).read_text(encoding="utf-8")
    sources = re.findall(r'<img[^>]+src="([^"]+sphx_glr_[^"]+\.png)"', html)
    return [(_site() / page).parent / src for src in sources if "thumb" not in src]


def test_index_renders(tmp_path):
    _assert_not_blank(_image(_screenshot("index.html", tmp_path)), "the screenshot of index.html")


def test_gallery_page_renders_with_its_figures(tmp_path):
    _assert_not_blank(_image(_screenshot(GALLERY_PAGE, tmp_path)), f"the screenshot of {GALLERY_PAGE}")
    figures = _figures(GALLERY_PAGE)
    assert figures, f"{GALLERY_PAGE} shows no figure"
    for figure in figures:
        assert figure.is_file(), f"{GALLERY_PAGE} shows {figure}, which does not exist"
        _assert_not_blank(_image(figure), str(figure))


def test_every_example_ran_and_drew():
    pages = sorted((_site() / "auto_examples").glob("plot_*.html"))
    assert len(pages) >= MIN_EXAMPLES, f"{len(pages)} gallery pages, expected at least {MIN_EXAMPLES}"
    for page in pages:
        figures = _figures(str(page.relative_to(_site())))
        assert figures, f"{page.name} has no figure: did its example run?"
        for figure in figures:
            assert figure.is_file(), f"{page.name} shows {figure}, which does not exist"
            _assert_not_blank(_image(figure), str(figure))


def test_every_public_name_has_a_page():
    import pyd2ke
    import pyd2ke.datasets
    import pyd2ke.distances

    names = [f"pyd2ke.{n}" for n in pyd2ke.__all__]
    names += [f"pyd2ke.distances.{n}" for n in pyd2ke.distances.__all__]
    names += [f"pyd2ke.datasets.{n}" for n in pyd2ke.datasets.__all__]
    names += ["pyd2ke.dask.transform"]  # pyd2ke.dask.__all__, without importing dask here
    api = (_site() / "api.html").read_text(encoding="utf-8")
    missing = []
    for name in names:
        if (_site() / "generated" / f"{name}.html").is_file():
            continue
        if f'id="{name}"' in api:  # data (METRICS, __version__) documented on the API page
            continue
        missing.append(name)
    assert not missing, f"public names without a page: {missing}"
