"""Seeds: every engine takes an int or a `SeedSequence` and turns it into its own streams here."""

from __future__ import annotations

import numpy as np


def int_seed(seed) -> int:
    """A non-negative 63-bit integer seed from an int or a `SeedSequence` (an arena block's)."""
    if isinstance(seed, np.random.SeedSequence):
        return int(seed.generate_state(1, np.uint64)[0] >> np.uint64(1))
    return int(seed)


def sequence(seed) -> np.random.SeedSequence:
    """A fresh `SeedSequence` equal to `seed` (an int, or a SeedSequence copied, never spawned
    from, so asking twice gives the same children)."""
    if isinstance(seed, np.random.SeedSequence):
        return np.random.SeedSequence(seed.entropy, spawn_key=seed.spawn_key)
    return np.random.SeedSequence(seed)
