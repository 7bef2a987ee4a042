"""The layering contract, read from the source: imports flow one way (facts -> games -> bots
-> lab -> surfaces), nothing imports a private name of another module, and no module imports
form a circle. Also one rule of shape read the same way: no function takes more than
`MAX_PARAMETERS` parameters (the numba kernels group related arrays into tuples instead)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: module prefix -> layer; the longest matching prefix wins
LAYERS = {
    "geolab": 0, "geolab.errors": 0, "geolab.cards": 0, "geolab.common": 0, "geolab.game": 0,
    "geolab.games": 1,
    "geolab.solvers": 2,
    # the learned bot's features and model files sit with the bots; training plays bots
    "geolab.bots": 3, "geolab.learn": 3,
    "geolab.registry": 4, "geolab.learn.training": 4,
    "geolab.lab": 5, "geolab.records": 5,
    # the adapters to OpenSpiel and PettingZoo: over the registry, beside the lab
    "geolab.interop": 5,
    "geolab.cli": 6, "geolab.__main__": 6, "geolab.web": 6,
}


def layer(module: str) -> int:
    best = max((p for p in LAYERS if module == p or module.startswith(p + ".")), key=len)
    return LAYERS[best]


def modules() -> dict[str, Path]:
    out = {}
    for path in sorted((ROOT / "geolab").rglob("*.py")):
        parts = path.relative_to(ROOT).with_suffix("").parts
        out[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return out


def imports(path: Path, module: str, top_level_only: bool = False):
    """(imported module, names, line) for every import in a file."""
    tree = ast.parse(path.read_text())
    nodes = tree.body if top_level_only else ast.walk(tree)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in nodes:
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, [], node.lineno
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                base = ".".join(package.split(".")[: len(package.split(".")) - node.level + 1] + ([base] if base else []))
            yield base, [a.name for a in node.names], node.lineno


def test_imports_flow_one_way():
    wrong = []
    known = modules()
    for module, path in known.items():
        for target, names, line in imports(path, module):
            if not target.startswith("geolab"):
                continue
            for full in [target] + [f"{target}.{n}" for n in names if f"{target}.{n}" in known]:
                if layer(full) > layer(module):
                    wrong.append(f"{path.relative_to(ROOT)}:{line} ({module}, layer {layer(module)}) imports "
                                 f"{full} (layer {layer(full)})")
    assert not wrong, "\n".join(wrong)


def test_no_private_names_imported_across_modules():
    wrong = []
    for base in ("geolab", "experiments"):
        for path in sorted((ROOT / base).rglob("*.py")):
            module = ".".join(path.relative_to(ROOT).with_suffix("").parts)
            for target, names, line in imports(path, module):
                for name in names:
                    if name.startswith("_") and not name.startswith("__"):
                        wrong.append(f"{path.relative_to(ROOT)}:{line} imports {name} from {target}")
    assert not wrong, "\n".join(wrong)


def test_no_import_circles():
    known = modules()
    graph = {m: set() for m in known}
    for module, path in known.items():
        for target, names, _ in imports(path, module, top_level_only=True):
            for full in [target] + [f"{target}.{n}" for n in names]:
                if full in known and full != module:
                    graph[module].add(full)
    state: dict[str, int] = {}
    cycles = []

    def visit(m, stack):
        state[m] = 1
        for n in sorted(graph[m]):
            if state.get(n) == 1:
                cycles.append(" -> ".join(stack[stack.index(n):] + [n]))
            elif n not in state:
                visit(n, stack + [n])
        state[m] = 2

    for m in sorted(graph):
        if m not in state:
            visit(m, [m])
    # a package's __init__ importing its own submodules is not a circle of logic
    cycles = [c for c in cycles if not all(p.startswith(c.split(" -> ")[0]) for p in c.split(" -> "))]
    assert not cycles, "\n".join(cycles)


def _type_checking_lines(path: Path) -> set[int]:
    """The lines under ``if TYPE_CHECKING:``: imports for type checkers, never run."""
    lines = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.If) and getattr(node.test, "id", getattr(node.test, "attr", None)) == "TYPE_CHECKING":
            lines |= {n.lineno for child in node.body for n in ast.walk(child) if hasattr(n, "lineno")}
    return lines


def test_no_two_modules_import_each_other_even_inside_functions():
    """A lazy import (inside a function) still couples two modules: none goes both ways."""
    known = modules()
    graph = {m: set() for m in known}
    for module, path in known.items():
        typing_only = _type_checking_lines(path)
        for target, names, line in imports(path, module):
            if line in typing_only:
                continue
            submodules = [f"{target}.{n}" for n in names if f"{target}.{n}" in known]
            for full in submodules or [target]:  # from a package import its modules: those, not the package
                if full in known and full != module:
                    graph[module].add(full)
    both = sorted({tuple(sorted((a, b))) for a in graph for b in graph[a] if a in graph.get(b, ())})
    assert not both, f"modules that import each other: {both}"


#: The most parameters a function in geolab/ may take (issue 37, item 9): past this, group
#: related arguments into a tuple or named tuple (numba takes both at no measured cost).
MAX_PARAMETERS = 16


def parameter_count(fn: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda) -> int:
    a = fn.args
    return len(a.posonlyargs) + len(a.args) + len(a.kwonlyargs) + (a.vararg is not None) + (a.kwarg is not None)


def test_no_function_takes_more_than_sixteen_parameters():
    long = [f"{path.relative_to(ROOT)}:{node.lineno} {getattr(node, 'name', 'lambda')} ({parameter_count(node)})"
            for path in modules().values() for node in ast.walk(ast.parse(path.read_text()))
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda))
            and parameter_count(node) > MAX_PARAMETERS]
    assert not long, "more than 16 parameters: " + "; ".join(long)
