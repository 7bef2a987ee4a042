"""Modules imported when first used, so the command line reads its arguments before it pays for
numpy, pandas, matplotlib, numba or any game (``geolab --help`` in a fraction of a second)."""

from __future__ import annotations

import importlib.util
import sys
from types import ModuleType


def lazy_module(name: str) -> ModuleType:
    """The module `name`, to be executed on its first attribute access (the standard library's
    `importlib.util.LazyLoader`); the module itself where it is imported already."""
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.find_spec(name)
    if spec is None or spec.loader is None:
        raise ImportError(f"no module named {name!r}")
    spec.loader = importlib.util.LazyLoader(spec.loader)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module
