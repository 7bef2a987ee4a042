"""Every test session registers the test-only game (tests/toy_game.py) beside the real ones."""

import os

import toy_game

toy_game.install()


def pytest_configure(config):
    """``pytest -m fuzz`` runs the bad-input fuzzing at its large size (tests/test_fuzz.py)."""
    if (config.getoption("markexpr", "") or "").strip() == "fuzz":
        os.environ.setdefault("GEOLAB_FUZZ", "large")
