"""A script of experiments/ loaded as a module, for the tests of the studies: the scripts are
not a package, so each is loaded from its path (registered in sys.modules, which dataclasses
need while a class is made; with experiments/ on the path while it loads, as when it runs as a
script and imports a sibling)."""

import importlib.util
import sys
from pathlib import Path

EXPERIMENTS = Path(__file__).resolve().parents[1] / "experiments"


def load(name: str):
    """experiments/NAME.py as a module named NAME_study."""
    spec = importlib.util.spec_from_file_location(f"{name}_study", EXPERIMENTS / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    sys.path.insert(0, str(EXPERIMENTS))
    try:
        spec.loader.exec_module(module)
    finally:
        sys.path.remove(str(EXPERIMENTS))
    return module
