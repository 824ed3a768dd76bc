"""The report code behind ``python -m pyd2ke``, shared with ``benchmarks/``.

It sits on top of the library and imports it only through the public API
(``pyd2ke``, ``pyd2ke.datasets``, ``pyd2ke.distances``); the library never
imports it. One concept per module:

- ``reproduce``: every method on every bundled dataset against the papers' baselines
- ``scaling``: embedding time against N and L, log-log slopes, plots
- ``progress``: the one-line progress display of long runs
"""
