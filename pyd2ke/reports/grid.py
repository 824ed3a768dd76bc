"""Cross-validation over an ordered grid that grows past its ends.

When the lowest or highest value of a grid has the best cross-validation
score, and a better one than its neighbour, the optimum may lie outside the
grid. ``grow`` then evaluates the next value beyond that end (one step of
the parameter's ``Axis``) and repeats until no end is best in that way, or
the next step would leave the axis's range, or ``max_steps`` steps were
taken on that side. The report prints a WARNING row only for a choice
still at an end after that.
"""

import math
from dataclasses import dataclass

import numpy as np
from sklearn.model_selection import cross_val_score


@dataclass(frozen=True)
class Axis:
    """How one parameter's grid grows: each step multiplies by ``factor`` (or
    adds ``step`` when factor is None) within [low, high]; ``integer`` rounds
    to whole numbers."""

    factor: float = None
    step: float = None
    low: float = -math.inf
    high: float = math.inf
    integer: bool = False

    def beyond(self, value, direction):
        """The next value past ``value`` (direction -1 below, +1 above), or
        None when it would leave [low, high] or not move."""
        if self.factor is not None:
            new = value * self.factor ** direction
        else:
            new = value + self.step * direction
        if self.integer:
            new = int(math.floor(new) if direction < 0 else math.ceil(new))
        if new == value or not self.low <= new <= self.high:
            return None
        return new


def mean_cv_score(estimator, X, y, cv):
    """The mean accuracy of estimator over the folds of cv: the score that
    grow() compares."""
    return float(np.mean(cross_val_score(estimator, X, y, cv=cv)))


def _score(results, value, key):
    result = results[value] if key is None else results[value][key]
    return result["score"] if isinstance(result, dict) else result


def best_value(results, key=None):
    """The value with the highest score in results (value -> result, or value
    -> {key: result} with key given; a result is a score or a dict with a
    "score"). Ties go to the value nearest the middle of the grid (then the
    smaller): the choice leans inside a plateau of equal scores."""
    values = sorted(results)
    middle = (len(values) - 1) / 2
    ranked = max(enumerate(values), key=lambda iv: (_score(results, iv[1], key), -abs(iv[0] - middle), -iv[0]))
    return ranked[1]


def grow(evaluate, values, axis=None, keys=(None,), max_steps=4):
    """Evaluate every value of the grid, then grow it past an end while, for
    some key, that end has the best score and beats its neighbour inside the
    grid (a plateau of equal scores that reaches an end does not say the
    optimum lies beyond it: soft features exp(-gamma d) standardise to the
    direct features d as gamma -> 0, for one).

    evaluate(value) returns a result (a score, or a dict holding "score"),
    or a dict key -> result for several choices made on the same grid (keys
    lists them). Returns value -> what evaluate returned, for every value
    evaluated. A grid of one value, or no axis, is not grown.
    """
    results = {value: evaluate(value) for value in values}
    if axis is None or len(results) < 2:
        return results

    def best_at(end, key):
        # end scores at least as high as every value and strictly higher than
        # its neighbour inside the grid
        grid = sorted(results)
        neighbour = grid[1] if end == grid[0] else grid[-2]
        score = _score(results, end, key)
        return score >= max(_score(results, v, key) for v in grid) and score > _score(results, neighbour, key)

    steps = {-1: 0, 1: 0}
    while True:
        grid = sorted(results)
        # both ends are judged on the same results before either grows
        ends = [(direction, end) for direction, end in ((-1, grid[0]), (1, grid[-1]))
                if steps[direction] < max_steps and any(best_at(end, key) for key in keys)]
        grown = False
        for direction, end in ends:
            new = axis.beyond(end, direction)
            if new is not None and new not in results:
                results[new] = evaluate(new)
                steps[direction] += 1
                grown = True
        if not grown:
            return results
