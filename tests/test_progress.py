"""The first run explains itself: compiling is announced before it starts, with progress, on a
terminal or not; a warm cache prints nothing; rates leave the compilation out; every printed
table says what its columns mean; the ladder plot measures the bots from the best heuristic."""

from __future__ import annotations

import io
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from numba import njit

from geolab import registry
from geolab.cli import lab as cli_lab
from geolab.cli import main
from geolab.lab import arena, plots, progress, tables

#: Top Rank and its match (the rigs: tests/conftest.py) are registered for every test here.
pytestmark = pytest.mark.usefixtures("rigs")

ROOT = Path(__file__).resolve().parents[1]


def fresh_kernel():
    """A kernel numba has never compiled (a new function object each call)."""

    @njit
    def twice(x):
        return 2 * x

    return twice


def test_a_compiling_step_is_announced_first_then_one_line_a_kernel_when_not_a_terminal():
    stream = io.StringIO()  # not a terminal
    kernel = fresh_kernel()
    warm = progress.warm_up([("plain", lambda: None), ("tiny", lambda: kernel(3))], stream=stream)
    lines = stream.getvalue().splitlines()
    assert lines[0] == f"geolab: {progress.NOTICE}"
    assert "1/2" in lines[1] and "tiny: " in lines[1] and "twice" in lines[1]  # tqdm's meter: step 2 of 2
    assert lines[-1].startswith("geolab: compiled 1 kernels")
    assert warm.kernels == 1 and warm.compile_seconds > 0 and warm.steps == 2
    assert warm.note.startswith("compilation excluded: ")


def test_nothing_is_printed_when_nothing_compiles():
    kernel = fresh_kernel()
    kernel(1)
    stream = io.StringIO()
    warm = progress.warm_up([("cached", lambda: kernel(2))], stream=stream)
    assert stream.getvalue() == "" and warm.kernels == 0
    assert warm.note.startswith("warm-up excluded: ")


def test_the_command_wide_notice_counts_kernels_outside_warm_ups():
    stream = io.StringIO()
    first, second = fresh_kernel(), fresh_kernel()
    with progress.compile_notice(stream=stream) as notice:
        progress.warm_up([("tiny", lambda: first(1))], stream=io.StringIO())  # shown by the warm-up itself
        second(1)
    lines = stream.getvalue().splitlines()
    assert lines[0] == f"geolab: {progress.NOTICE}" and notice.kernels == 1
    assert "compiling kernel 1:" in lines[1] and lines[-1].startswith("geolab: compiled 1 kernels")


def test_a_cold_cache_is_announced_on_stderr_and_a_warm_one_is_silent(tmp_path):
    """A real on-disk cache (cache=True, NUMBA_CACHE_DIR empty) in a fresh process, stderr a pipe."""
    (tmp_path / "tinykernels.py").write_text(textwrap.dedent("""
        from numba import njit

        @njit(cache=True)
        def add(a, b):
            return a + b
    """))
    script = ("import sys; sys.path.insert(0, sys.argv[1]); import tinykernels; "
              "from geolab.lab.progress import warm_up; warm_up([('add', lambda: tinykernels.add(1, 2))])")
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / "cache"),
           "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")]))}
    cold = subprocess.run([sys.executable, "-c", script, str(tmp_path)], env=env, capture_output=True, text=True,
                          timeout=120)
    assert cold.returncode == 0, cold.stderr
    assert cold.stderr.startswith(f"geolab: {progress.NOTICE}\n")
    assert "tinykernels.add" in cold.stderr and f"cached in {tmp_path / 'cache'}" in cold.stderr
    warm = subprocess.run([sys.executable, "-c", script, str(tmp_path)], env=env, capture_output=True, text=True,
                          timeout=120)
    assert warm.returncode == 0 and warm.stderr == ""


def test_two_processes_share_the_steps_from_both_ends(tmp_path, monkeypatch):
    """The helper takes the shared steps from the last one backwards; this process still runs
    every step, waiting where they meet; nothing is left behind."""
    marks = tmp_path / "marks"
    marks.mkdir()
    helper = [sys.executable, "-c", textwrap.dedent(f"""
        import sys, pathlib
        from geolab.lab.progress import run_helper
        marks = pathlib.Path({str(marks)!r})
        steps = [(str(i), (lambda i=i: (marks / f"helper-{{i}}").touch())) for i in range(4)]
        run_helper(steps, 4, sys.argv[-1])
    """)]
    kernel = fresh_kernel()
    ran = []

    def first():
        kernel(1)  # a compilation: the helper starts now
        deadline = time.monotonic() + 60
        while not (marks / "helper-3").exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        ran.append(0)

    steps = [("0", first)] + [(str(i), (lambda i=i: ran.append(i))) for i in range(1, 6)]
    needs = [[0], [1], [2], [3], [0], [3]]  # step 4 needs none of the helper's steps, step 5 its last
    if progress._cores() < 2:  # the helper process is only started with a second core; CI has two
        pytest.skip("one core: no second process")
    folders = []
    real_mkdtemp = progress.tempfile.mkdtemp
    monkeypatch.setattr(progress.tempfile, "mkdtemp", lambda **kw: folders.append(real_mkdtemp(**kw)) or folders[-1])
    progress.warm_up(steps, stream=io.StringIO(), helper=helper, shared=4, needs=needs)
    assert sorted(ran) == [0, 1, 2, 3, 4, 5] and ran[0] == 0 and ran[-1] == 5
    assert ran.index(4) < ran.index(3)  # step 3 is the helper's: step 4 went first, while it worked
    by_helper = sorted(int(p.name.split("-")[1]) for p in marks.iterdir())
    assert by_helper and by_helper == list(range(by_helper[0], 4)) and 0 not in by_helper
    assert len(folders) == 1 and not Path(folders[0]).exists()


def test_warm_steps_refuse_a_bad_bot_before_any_step_and_build_their_own_bots():
    entry = registry.get("toy")
    rules = entry.game.Rules.preset(entry.game.Rules.DEFAULT)
    with pytest.raises(Exception, match="unknown toy bot"):
        tables.warm_steps(entry, rules, [["best", "nobody"]])
    steps = tables.warm_steps(entry, rules, [["best", "first"]])
    assert [label for label, _ in steps] == ["best v itself", "first v itself", "best v first"]
    for _, call in steps:
        turns, played = call()
        assert len(played[0]) == tables.WARM_DEALS


def test_every_lab_table_says_what_its_columns_mean(capsys, tmp_path):
    assert main(["simulate", "toy", "--games", "20"]) == 0
    out = capsys.readouterr().out
    assert cli_lab.SIMULATE_BOTS_COLUMNS in out and cli_lab.SIMULATE_SEATS_COLUMNS in out
    assert "games/s (" in out and "excluded: " in out
    assert main(["arena", "toy", "--games", "30", "--out", str(tmp_path / "a")]) == 0
    out = capsys.readouterr().out
    for column in ("win_rate_a:", "ci_low-ci_high", "avg_rounds:", "rating:", "Elo points", "anchor", "score:"):
        assert column in out
    assert "excluded: " in out and "ratings relative to" in out


def test_bench_says_what_its_measures_are(capsys, monkeypatch):
    monkeypatch.setitem(registry.get("toy").offers, "bench", "toy_bots:bench")
    assert main(["bench", "toy", "--runs", "1"]) == 0
    assert cli_lab.BENCH_COLUMNS in capsys.readouterr().out


def ratings_of(scores: dict) -> arena.ArenaResult:
    """An arena result whose pairs scored these shares (a's wins out of 400 games a pair)."""
    bots = list(dict.fromkeys(b for pair in scores for b in pair))
    result = arena.ArenaResult(bots)
    for (a, b), share in scores.items():
        score = np.zeros((200, 2))
        score.ravel()[: int(share * 400)] = 1
        result.deals[(a, b)] = arena.Duplicate(score, score, score)
    return result


def test_the_ladder_is_measured_from_the_best_heuristic_with_random_apart():
    result = ratings_of({("random", "greedy"): 0.02, ("random", "counter"): 0.02, ("random", "search"): 0.01,
                         ("greedy", "counter"): 0.45, ("greedy", "search"): 0.40, ("counter", "search"): 0.45})
    table = result.ratings_table()
    assert table.set_index("bot").loc["random", "anchor"]  # the printed table keeps random = 0
    family = {"random": "random", "greedy": "heuristic", "counter": "heuristic", "search": "search"}.get
    reference = arena.ladder_reference(table, family)
    assert reference == "counter"  # the best heuristic, not the best bot (search)
    relative = result.ratings_table(anchor=reference).set_index("bot")
    absolute = table.set_index("bot")
    for bot in absolute.index:  # the same differences, measured from counter
        assert relative.loc[bot, "rating"] \
            == pytest.approx(absolute.loc[bot, "rating"] - absolute.loc["counter", "rating"])
    assert relative.loc["counter", "rating"] == 0 \
        and relative.loc["search", "rating"] > 0 > relative.loc["greedy", "rating"]
    # the interval of a difference to counter is narrower than that of a difference to random
    assert relative.loc["search", "ci_high"] - relative.loc["search", "ci_low"] < (
        absolute.loc["search", "ci_high"] - absolute.loc["search", "ci_low"])
    fig = plots.rating_ladder(relative.reset_index(), "test", "the best heuristic")
    try:
        far, rest = fig.axes[:2]
        assert "far below" in far.get_title()
        low, high = rest.get_xlim()
        assert low <= relative.loc["greedy", "ci_low"] and high >= relative.loc["search", "ci_high"]
        assert low > relative.loc["random", "ci_high"]  # random is off the main scale, in its own panel
        texts = [t.get_text() for t in rest.texts]
        assert "0 (the best heuristic)" in texts
    finally:
        plots.close(fig)


def test_a_ladder_without_a_far_bot_has_one_panel():
    result = ratings_of({("a", "b"): 0.45, ("a", "c"): 0.40, ("b", "c"): 0.45})
    table = result.ratings_table(anchor=arena.ladder_reference(result.ratings_table(), lambda b: "heuristic"))
    fig = plots.rating_ladder(table, "test")
    try:
        assert len(fig.axes) == 1
    finally:
        plots.close(fig)
    assert isinstance(table, pd.DataFrame)


# pseudo-terminals are POSIX only; CI (Linux) always runs it
@pytest.mark.skipif(not hasattr(os, "fork") or sys.platform == "win32", reason="needs a pseudo-terminal")
def test_on_a_terminal_the_steps_are_a_tqdm_bar():
    """stderr a pseudo-terminal nobody sized (as in some containers): tqdm still draws."""
    import pty

    script = ("import sys; sys.path.insert(0, sys.argv[1]); from numba import njit; from geolab.lab import progress\n"
              "@njit\ndef f(x):\n    return x + 1\n"
              "progress.warm_up([('first', lambda: f(1)), ('second', lambda: None)])\n")
    pid, fd = pty.fork()
    if pid == 0:  # the child: stdin, stdout and stderr are the terminal
        os.execv(sys.executable, [sys.executable, "-c", script, str(ROOT)])
    out = b""
    while True:
        try:
            data = os.read(fd, 4096)
        except OSError:
            break
        if not data:
            break
        out += data
    _, status = os.waitpid(pid, 0)
    text = out.decode(errors="replace")
    assert os.waitstatus_to_exitcode(status) == 0, text
    assert f"geolab: {progress.NOTICE}" in text
    assert "\rgeolab: kernels:" in text and "0/2" in text and "first: __main__.f" in text  # a bar, redrawn in place
    assert "geolab: compiled 1 kernels" in text
