"""The report code behind ``python -m pyd2ke``, shared with ``benchmarks/``.

It sits on top of the library and imports it only through the public API
(``pyd2ke``, ``pyd2ke.datasets``, ``pyd2ke.distances``); the library never
imports it. It ships in the wheel so that ``pyd2ke reproduce`` and the other
commands check the published numbers on a user's machine. One concept per
module.

The commands, one module each:

- ``tasks``: the main job, ``python -m pyd2ke [--task ...]``
- ``reproduce``: ``python -m pyd2ke reproduce``, every method on every bundled
  dataset against the papers' baselines; its docstring states the protocol
- ``scaling``: ``python -m pyd2ke scaling``, embedding time against N and L,
  log-log slopes, plots
- ``defaults_panel``: ``python -m pyd2ke defaults``, every estimator with its
  defaults against the tool a user already has
- ``timeseries_panel``: ``python -m pyd2ke timeseries``, Random Warping Series
  against aeon's MiniRocket and 1-NN DTW on aeon's UCR/UEA datasets

What ``reproduce`` is made of:

- ``reproduce_protocol``: the grids (FULL, QUICK, how each grows) and the
  papers' published numbers
- ``reproduce_runner``: the linear SVM, the row builders and each task's plan
- ``reproduce_render``: the results and R-sweep tables, the sweep plot, the
  comparison notes

What the commands share:

- ``command``: ``ReportCommand``, the options of a report subcommand, which
  each report module declares beside its ``main``
- ``tables``: the one Markdown table renderer and its cell formatting
- ``baselines``: 1-NN, k-NN and exp(-gamma d) + SVC on exact distance matrices
- ``grid``: cross-validation over a grid that grows past the end CV picked
- ``peers``: k-mer spectrum, one-hot positions, bag of visual words: what a
  user would pick instead
- ``graphs``: MUTAG by 10-fold CV and graph embedding time, against GraKeL
- ``data``: fixed-seed synthetic objects of every input type; SIFT sets at unit scale
- ``provenance``: the command, date and versions lines that head a report
- ``progress``: the one-line progress display of long runs
- ``timing``: wall-clock timing of one call
"""
