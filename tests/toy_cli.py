"""geolab's command line with the test-only game registered, for the terminal tests
(``python tests/toy_cli.py play toy ...``)."""

import sys

import toy_game

from geolab.cli import main

toy_game.install()
sys.exit(main())
