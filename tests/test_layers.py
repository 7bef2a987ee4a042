"""The layering contract, read from the source: imports flow one way (facts -> games -> bots
-> lab -> surfaces), nothing imports a private name of another module, no module imports form a
circle, and nothing above the games layer imports or names a game: what a game offers there
lives in its own package (``offers``), reached through its definition. Also one rule of shape
read the same way: no function takes more than `MAX_PARAMETERS` parameters (the numba kernels
group related arrays into tuples instead)."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: module prefix -> layer; the longest matching prefix wins
LAYERS = {
    "geolab": 0, "geolab.errors": 0, "geolab.cards": 0, "geolab.common": 0, "geolab.game": 0,
    "geolab.definition": 0, "geolab.scene": 0,
    "geolab.games": 1,
    # the learned bot's features, model files and training sit with the bots they serve
    "geolab.bots": 3,
    "geolab.registry": 4,
    "geolab.lab": 5, "geolab.records": 5,
    # the adapters to OpenSpiel and PettingZoo: over the registry, beside the lab
    "geolab.interop": 5,
    "geolab.cli": 6, "geolab.__main__": 6, "geolab.web": 6,
}


#: A game's ``offers`` package (its benches, studies and commands) sits with the surfaces: it may
#: use the game's bots, the lab and the command line's helpers, and nothing below reaches it.
OFFERS_LAYER = 6
GAME_PACKAGES = sorted(p.name for p in (ROOT / "geolab" / "games").iterdir() if (p / "__init__.py").exists())
#: What sits above the games layer and must name no game: the lab, the surfaces, the adapters.
ABOVE = ("geolab.lab", "geolab.cli", "geolab.web", "geolab.interop")


def layer(module: str) -> int:
    parts = module.split(".")
    if parts[:2] == ["geolab", "games"] and len(parts) > 3 and parts[3] == "offers":
        return OFFERS_LAYER
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
                base = ".".join(package.split(".")[: len(package.split(".")) - node.level + 1]
                                + ([base] if base else []))
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


def test_nothing_above_the_games_imports_a_game_or_its_bots():
    """The lab, the command line, the web and the adapters reach every game through the registry;
    shared modules of the games layer (``geolab.games.groups``: the referee's border groups) are
    not a game."""
    wrong = []
    for module, path in modules().items():
        if not module.startswith(ABOVE):
            continue
        for target, names, line in imports(path, module):
            for full in [target] + [f"{target}.{n}" for n in names]:
                parts = full.split(".")
                if parts[:2] == ["geolab", "bots"] and len(parts) > 2 or \
                        parts[:2] == ["geolab", "games"] and len(parts) > 2 and parts[2] in GAME_PACKAGES:
                    wrong.append(f"{path.relative_to(ROOT)}:{line} imports {full}")
    assert not wrong, "\n".join(sorted(set(wrong)))


def test_nothing_above_the_games_names_a_game():
    """No string in the lab, the surfaces or the adapters is a game's name or one of its modules."""
    from geolab import registry

    names = set(registry.builtin())
    wrong = []
    for module, path in modules().items():
        if not module.startswith(ABOVE):
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and (
                    node.value in names or any(f"geolab.games.{g}" in node.value or f"geolab.bots.{g}" in node.value
                                               for g in GAME_PACKAGES)):
                wrong.append(f"{path.relative_to(ROOT)}:{node.lineno} {node.value!r}")
    assert not wrong, "\n".join(wrong)


def test_the_registry_names_no_module_above_it():
    """`geolab.registry` imports definitions from the game packages and names nothing else:
    each game's definition names its own parts."""
    text = (ROOT / "geolab" / "registry.py").read_text()
    named = {node.value for node in ast.walk(ast.parse(text)) if isinstance(node, ast.Constant)
             and isinstance(node.value, str) and node.value.startswith("geolab.")}
    assert named <= {"geolab.games."} | {f"geolab.games.{g}" for g in GAME_PACKAGES}, named
    assert all(f"geolab.{layer}" not in text for layer in ("lab", "cli", "web", "interop", "bots"))


def test_every_offer_lives_in_its_own_games_package():
    from geolab import registry

    for name, definition in registry.builtin().items():
        package = definition.game.rpartition(".game:")[0]
        for what, target in definition.offers.items():
            assert target.startswith(f"{package}.offers."), \
                f"{name}: its {what} offer {target} is not in {package}.offers"


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


#: The official rule texts and their notes live outside the repository, so nothing in it may
#: point there: the docs/rules*.md pages say what a reader needs. Built from parts so this file
#: does not name them itself.
OUTSIDE_REFERENCES = ("shared" + "/rules", "shared" + "/design", "NOTES" + ".md")
DOCUMENTED = ("geolab", "docs", "tests", "notebooks", "experiments", "README.md")


def tracked_files(*tops: str) -> list[Path]:
    """The files git tracks under `tops` (every file there when the tree is not a git checkout)."""
    import subprocess

    try:
        out = subprocess.run(["git", "-C", str(ROOT), "ls-files", "-z", "--", *tops],
                             capture_output=True, check=True).stdout.decode()
        return [ROOT / name for name in out.split("\0") if name]
    except (OSError, subprocess.CalledProcessError):
        return [p for top in tops for p in ([ROOT / top] if (ROOT / top).is_file()
                                             else sorted((ROOT / top).rglob("*"))) if p.is_file()]


def test_nothing_points_at_the_rule_texts_outside_the_repository():
    wrong = []
    for path in tracked_files(*DOCUMENTED):
        if not path.exists():
            continue
        data = path.read_bytes()
        if b"\0" in data:
            continue  # binary
        for number, line in enumerate(data.decode("utf-8", "replace").splitlines(), 1):
            wrong += [f"{path.relative_to(ROOT)}:{number} names {ref}" for ref in OUTSIDE_REFERENCES if ref in line]
    assert not wrong, "\n".join(wrong)
