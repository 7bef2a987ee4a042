"""The slow tier's table (`conftest.SLOW`) names only tests that exist, so a renamed test cannot
slip into the fast tier, or out of both, unseen."""

import ast
from pathlib import Path

from conftest import SLOW

TESTS = Path(__file__).resolve().parent


def test_every_slow_entry_names_a_test_that_exists():
    for entry in SLOW:
        path, _, function = entry.partition("::")
        assert (TESTS / path).exists(), entry
        if function:
            tree = ast.parse((TESTS / path).read_text())
            names = {node.name for node in ast.walk(tree) if isinstance(node, ast.FunctionDef)}
            assert function in names, f"{entry}: no such test"
        assert SLOW[entry].strip(), f"{entry}: say why it is slow"
