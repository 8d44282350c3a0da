"""still.upper_median picks exactly what np.partition picks (the change measure's noise level
must not move by being computed faster)."""

from __future__ import annotations

import numpy as np
from dialtray.vision.still import upper_median


def test_upper_median_is_the_partitions_pick() -> None:
    rng = np.random.default_rng(0)
    for i in range(400):
        n = int(rng.integers(1, 9000))
        a = (rng.random(n) ** int(rng.integers(1, 8))).astype(np.float32)
        a *= np.float32(rng.choice([1e-6, 1.0, 1e4]))
        if i % 4 == 1:
            a[: n // 2] = 0  # half of it nothing at all
        elif i % 4 == 2:
            a = np.round(a * 5).astype(np.float32)  # a few values, many ties
        elif i % 4 == 3:
            a = np.full(n, 3.5, np.float32)
        k = n // 2
        assert upper_median(a.reshape(1, -1)) == float(np.partition(a, k)[k]), (i, n)
    for a in (np.array([-1e-9, -2e-9, 0, 5, 3], np.float32), np.array([-0.0, 1, 2], np.float32)):
        assert upper_median(a) == float(np.partition(a, a.size // 2)[a.size // 2])
