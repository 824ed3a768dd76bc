"""Seeds of the counter-based hashes (CGK walk bits, hashed Fourier weights)."""

import numpy as np
from sklearn.utils import check_random_state


def draw_seed(random_state):
    """A 63-bit seed for the counter-based hashes, from a numpy RandomState."""
    return int(check_random_state(random_state).randint(np.iinfo(np.int64).max, dtype=np.int64))
