"""The report code behind ``python -m pyd2ke``, shared with ``benchmarks/``.

It sits on top of the library and imports it only through the public API
(``pyd2ke``, ``pyd2ke.datasets``, ``pyd2ke.distances``); the library never
imports it. One concept per module:

- ``tasks``: the main job, ``python -m pyd2ke [--task ...]``
- ``reproduce``: every method on every bundled dataset against the papers' baselines
- ``scaling``: embedding time against N and L, log-log slopes, plots
- ``baselines``: 1-NN, k-NN and exp(-gamma d) + SVC on exact distance matrices
- ``data``: fixed-seed synthetic objects of every input type; SIFT sets at unit scale
- ``provenance``: the command, date and versions lines that head a report
- ``progress``: the one-line progress display of long runs
- ``timing``: wall-clock timing of one call
"""
