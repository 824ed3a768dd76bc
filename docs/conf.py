"""Sphinx configuration of the pyd2ke documentation.

Build (from the repository root, with the package installed):
    pip install ".[docs]" && sphinx-build -W -b html docs docs/_build/html
"""

import pyd2ke

project = "pyd2ke"
author = "pyd2ke developers"
copyright = "2026, pyd2ke developers"
version = release = pyd2ke.__version__

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.mathjax",
    "sphinx.ext.viewcode",
    "numpydoc",
    "myst_parser",
    "sphinx_gallery.gen_gallery",
]

source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
templates_path = ["_templates"]
# Files in docs/ that are not pages of the site.
exclude_patterns = ["_build", "generated/*.md", "**/README.md", "**/README.rst", "**/README.txt"]

# API reference: one page per public name, written at build time into
# docs/generated/ (gitignored) from the lists in api.rst.
autosummary_generate = True
autodoc_default_options = {"member-order": "bysource"}
autodoc_typehints = "none"
numpydoc_show_class_members = False
numpydoc_class_members_toctree = False
numpydoc_validation_checks = set()
numpydoc_xref_param_type = False

# Markdown pages (architecture, results, usage) use $...$ math and
# GitHub-style anchors to headings.
myst_enable_extensions = ["dollarmath"]
myst_heading_anchors = 3

html_theme = "pydata_sphinx_theme"
html_title = f"pyd2ke {release}"
html_theme_options = {
    "navigation_with_keys": False,
    "show_toc_level": 2,
}
html_static_path = ["_static"]
html_css_files = ["pyd2ke.css"]
# Pages without sub-pages need no left sidebar.
html_sidebars = {"index": [], "results*": [], "architecture": []}

# The gallery: every examples/plot_*.py runs during the build (each passes
# n_jobs=2 itself).
sphinx_gallery_conf = {
    "examples_dirs": ["../examples"],
    "gallery_dirs": ["auto_examples"],
    "filename_pattern": r"/plot_",
    "download_all_examples": False,
    "remove_config_comments": True,
    "within_subsection_order": "FileNameSortKey",
    "matplotlib_animations": False,
    "image_scrapers": ("matplotlib",),
    "reset_modules": ("matplotlib",),
    "show_memory": False,
    "abort_on_example_error": True,
    "plot_gallery": "True",
    # "Examples using X" on each API page.
    "doc_module": ("pyd2ke",),
    "backreferences_dir": "generated/backreferences",
}


def _skip_scikit_learn_members(app, what, name, obj, skip, options):
    """Leave out the methods estimators inherit from scikit-learn
    (set_output, get_params, ...): scikit-learn documents them, and their
    docstrings link to pages of its own site."""
    module = getattr(obj, "__module__", None) or ""
    if module.startswith("sklearn."):
        return True
    return None


def setup(app):
    app.connect("autodoc-skip-member", _skip_scikit_learn_members)
