"""Every test session registers the test-only games (tests/toy_game.py, and the match made of
its games, tests/toy_match.py) beside the real ones."""

import os

import toy_game
import toy_match

toy_game.install()
toy_match.install()


def pytest_configure(config):
    """``pytest -m fuzz`` runs the bad-input fuzzing at its large size (tests/test_fuzz.py)."""
    if (config.getoption("markexpr", "") or "").strip() == "fuzz":
        os.environ.setdefault("GEOLAB_FUZZ", "large")
