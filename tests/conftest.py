"""Every test session registers the test-only game (tests/toy_game.py) beside the real ones."""

import toy_game

toy_game.install()
