"""The report's grids grow past an end that cross-validation picked
(pyd2ke/reports/grid.py), and the baselines that use them."""

import numpy as np
import pytest
from sklearn.model_selection import StratifiedKFold, cross_val_score
from sklearn.neighbors import KNeighborsClassifier

from pyd2ke.reports.baselines import distance_substitution_svc, knn_baseline
from pyd2ke.reports.grid import Axis, best_value, grow
from pyd2ke.reports.reproduce_protocol import FULL, QUICK
from pyd2ke.reports.reproduce_runner import cv_linear_svm, note_growth


def test_axis_steps_within_its_range():
    axis = Axis(factor=10, low=1e-3, high=1e3)
    assert axis.beyond(1.0, 1) == 10.0 and axis.beyond(1.0, -1) == 0.1
    assert axis.beyond(1e3, 1) is None and axis.beyond(1e-3, -1) is None
    lengths = Axis(factor=2, low=2, high=60, integer=True)
    assert lengths.beyond(5, -1) == 2 and lengths.beyond(2, -1) is None  # 5/2 rounds down; 1 is below low
    assert lengths.beyond(25, 1) == 50 and lengths.beyond(50, 1) is None  # 100 is above high
    assert Axis(factor=1.9, low=1, integer=True).beyond(1, 1) == 2  # a step that rounds up still moves
    assert Axis(step=1, low=1, high=12, integer=True).beyond(12, 1) is None


def test_best_value_takes_the_most_central_of_equal_scores():
    assert best_value({3: 0.5, 1: 0.9, 2: 0.9}) == 2  # 2 is the grid's middle
    assert best_value({1: 0.9, 2: 0.9, 3: 0.9, 4: 0.9}) == 2  # two middles: the smaller
    assert best_value({1: 0.9, 2: 0.5, 3: 0.9}) == 1  # no tie in the middle: the smaller end
    assert best_value({1: {"a": 0.1, "b": {"score": 0.7}}, 2: {"a": 0.2, "b": {"score": 0.3}}}, "b") == 1


def test_a_plateau_reaching_an_end_does_not_grow_the_grid():
    results = grow(lambda x: min(x, 4), [1, 4, 16], Axis(factor=4, low=1 / 64, high=64))
    assert sorted(results) == [1, 4, 16] and best_value(results) == 4
    # strictly best at the top: it grows
    assert max(grow(lambda x: x, [1, 4, 16], Axis(factor=4, high=64))) == 64
    # both ends tie for the best, above the middle: both grow
    valley = grow(lambda x: abs(np.log(x) / np.log(4) - 1), [1, 4, 16], Axis(factor=4, low=1 / 4, high=64),
                  max_steps=1)
    assert sorted(valley) == [1 / 4, 1, 4, 16, 64]


def test_grow_follows_a_peak_outside_the_grid_and_stops_inside():
    calls = []

    def score(x):  # peak at x = 64
        calls.append(x)
        return -abs(np.log2(x) - 6)

    results = grow(score, [1, 2, 4], Axis(factor=2, low=1, high=1e6), max_steps=10)
    assert best_value(results) == 64 and max(results) == 128  # one step past the peak shows it is inside
    assert calls == [1, 2, 4, 8, 16, 32, 64, 128][: len(calls)] and len(set(calls)) == len(calls)
    # below the grid: the same, downwards
    assert best_value(grow(lambda x: -abs(np.log10(x) + 3), [1.0, 10.0], Axis(factor=10, low=1e-9, high=1e9))) \
        == pytest.approx(1e-3)


def test_grow_stops_at_the_range_and_after_max_steps_and_without_an_axis():
    rising = lambda x: x  # noqa: E731
    assert max(grow(rising, [1, 2, 4], Axis(factor=2, high=16))) == 16  # the range's end
    assert max(grow(rising, [1, 2, 4], Axis(factor=2), max_steps=2)) == 16  # two steps: 8, 16
    assert sorted(grow(rising, [1, 2, 4])) == [1, 2, 4]  # no axis: the grid as given
    assert sorted(grow(rising, [4], Axis(factor=2))) == [4]  # one value is a fixed choice, not a grid


def test_grow_serves_several_choices_on_one_grid():
    # key "a" peaks inside the grid, key "b" at its top: the grid grows for "b" only
    results = grow(lambda x: {"a": -abs(x - 2), "b": -abs(x - 16)}, [1, 2, 4], Axis(factor=2), keys=("a", "b"))
    assert best_value(results, "a") == 2 and best_value(results, "b") == 16 and max(results) == 32


def test_cv_linear_svm_grows_c_past_the_top():
    rng = np.random.default_rng(0)
    Z = rng.standard_normal((90, 5))
    y = (Z[:, 0] > 0).astype(int)  # separable: the largest C ties or wins, so the grid climbs
    score, C, tried = cv_linear_svm(Z, y, [1e-3, 1e-2, 1e-1], Axis(factor=10, high=1e2))
    assert tried[-1] > 1e-1 and C in tried and score > 0.9
    assert score == pytest.approx(cv_linear_svm(Z, y, [C])[0])


def test_knn_baseline_grows_k_and_scores_as_cross_validation_does():
    rng = np.random.default_rng(1)
    x = rng.standard_normal(150)
    y = (x + 0.8 * rng.standard_normal(150) > 0).astype(int)  # noisy labels: large k is best
    D = np.abs(x[:, None] - x[None, :])
    cv = StratifiedKFold(3, shuffle=True, random_state=0)
    result = knn_baseline(D, y, D[:20], y[:20], [2, 3, 4], cv, k_axis=Axis(factor=2, low=1, high=99, integer=True))
    k = result.chosen["k"]
    assert result.grids["k"][-1] > 4 and k == 16  # the CV optimum, three steps past the grid
    expected = np.mean(cross_val_score(KNeighborsClassifier(k, metric="precomputed"), D, y, cv=cv))
    others = [np.mean(cross_val_score(KNeighborsClassifier(j, metric="precomputed"), D, y, cv=cv))
              for j in result.grids["k"]]
    assert expected == pytest.approx(max(others))


def test_distance_substitution_svc_reports_the_grids_it_searched():
    rng = np.random.default_rng(2)
    x = rng.standard_normal(80)
    y = (x > 0).astype(int)
    D = np.abs(x[:, None] - x[None, :])
    result = distance_substitution_svc(D, y, D, y, [1.0, 4.0], [0.1, 1.0], StratifiedKFold(3, shuffle=True,
                                                                                               random_state=0),
                                       factor_axis=Axis(factor=4, low=1 / 64, high=64),
                                       C_axis=Axis(factor=10, high=1e3))
    assert result.chosen["factor"] in result.grids["gamma factor"] and result.chosen["C"] in result.grids["C"]
    assert set(result.grids["gamma factor"]) >= {1.0, 4.0} and set(result.grids["C"]) >= {0.1, 1.0}


def test_full_grids_grow_and_quick_grids_do_not():
    assert set(FULL["axes"]) >= {"C", "gamma factor", "random length", "k"}
    assert QUICK["axes"] == {}


def test_note_growth_names_the_grids_that_grew():
    row = {"chosen": "C=10"}
    note_growth(row, {"C": [0.1, 1.0, 10.0], "k": [1, 3], "R": [32]}, {"C": [0.1, 1.0, 10.0, 100.0], "k": [1, 3],
                                                                      "R": [32]})
    assert row["chosen"] == "C=10; grids grown to C 0.1..100"
    untouched = note_growth({"chosen": "k=3"}, {"k": [1, 3]}, {"k": [1, 3]})
    assert untouched["chosen"] == "k=3"
