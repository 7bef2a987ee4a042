"""Outputs, atomicity, interrupts and permissions (docs/reliability.md): an output path is
checked before any work; a result set appears whole or not at all, under a unique run id; a
game at the keyboard is never lost; Ctrl-C exits 130 and says what it kept; files get
ordinary permissions."""

from __future__ import annotations

import errno
import json
import os
import signal
import stat
import subprocess
import sys
import textwrap
import time
from datetime import datetime
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from geolab.cli import main
from geolab.lab import arena, benches, results, tables
from geolab.records import replay

#: Top Rank and its match (the rigs: tests/conftest.py) are registered for every test here.
pytestmark = pytest.mark.usefixtures("rigs")

ROOT = Path(__file__).resolve().parents[1]
ARENA_FILES = {"pairs.csv", "pairs.parquet", "ratings.csv", "ratings.parquet", "win_rates.png", "ladder.png",
               "meta.json"}
TOY_ARENA = ["arena", "toy", "--bots", "first,best", "--games", "40", "--json"]


@pytest.fixture(autouse=True)
def usual_umask():
    old = os.umask(0o022)
    yield
    os.umask(old)


def one_line_error(capsys, *words) -> str:
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err, err
    for word in words:
        assert word in err, err
    return err


def no_work(*_, **__):
    raise AssertionError("the work started before the output path was checked")


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def temps(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".tmp"))


def scripted_game(monkeypatch, side="A", seed=11):
    """Answer every prompt of `geolab play ranks` with the first card of the hand (and, for a
    lead, its population)."""
    monkeypatch.setattr("builtins.input", lambda prompt="": "1 pop" if prompt.startswith("lead") else "1")
    return ["play", "ranks", "--seed", str(seed), "--side", side, "--bot", "counter", "--no-confirm"]


# ----- output paths are checked before any work ----------------------------------------------


def bad_paths(tmp_path: Path) -> dict[str, Path]:
    (tmp_path / "a_file").write_text("x")
    (tmp_path / "full").mkdir()
    (tmp_path / "full" / "old.csv").write_text("x")
    return {"under_a_file": tmp_path / "a_file" / "out", "a_folder": tmp_path / "full",
            "a_file": tmp_path / "a_file"}


@pytest.mark.parametrize("case,words", [("under_a_file", "not a folder"), ("a_folder", "not empty"),
                                        ("a_file", "not a folder")])
def test_arena_refuses_a_bad_out_before_playing(case, words, tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(arena, "run", no_work)
    monkeypatch.setattr(arena, "pair_runner", no_work)
    assert main([*TOY_ARENA, "--out", str(bad_paths(tmp_path)[case])]) == 2
    one_line_error(capsys, "--out", words)
    assert (tmp_path / "full" / "old.csv").read_text() == "x"  # an old set is never merged into or replaced


@pytest.mark.parametrize("case,words", [("under_a_file", "not a folder"), ("a_folder", "not empty")])
def test_simulate_refuses_a_bad_out_before_playing(case, words, tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(tables, "simulate", no_work)
    assert main(["simulate", "toy", "--games", "10", "--out", str(bad_paths(tmp_path)[case])]) == 2
    one_line_error(capsys, "--out", words)


@pytest.mark.parametrize("case,words", [("under_a_file", "not a folder"), ("a_folder", "is a folder")])
def test_bench_solver_refuses_a_bad_out_before_timing(case, words, tmp_path, monkeypatch, capsys):
    monkeypatch.setattr("geolab.games.ranks.offers.solve.OracleSolver", no_work)
    assert main(["bench", "solver", "--deals", "2", "--batch", "2", "--out", str(bad_paths(tmp_path)[case])]) == 2
    one_line_error(capsys, "--out", words)


def test_bench_game_refuses_a_bad_out_before_timing(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(benches, "run", no_work)
    assert main(["bench", "ranks", "--out", str(bad_paths(tmp_path)["a_folder"])]) == 2
    one_line_error(capsys, "--out", "is a folder")


@pytest.mark.parametrize("case,words", [("under_a_file", "not a folder"), ("a_folder", "is a folder")])
def test_play_refuses_a_bad_record_path_before_the_game(case, words, tmp_path, monkeypatch, capsys):
    monkeypatch.setattr("builtins.input", no_work)
    monkeypatch.setattr("geolab.cli.play.play_match", no_work)
    assert main(["play", "ranks", "--record", str(bad_paths(tmp_path)[case])]) == 2
    one_line_error(capsys, "--record", words)


def test_play_refuses_a_special_file(monkeypatch, capsys):
    """Written by rename, /dev/full (or /dev/null) would be replaced by a file: refused."""
    monkeypatch.setattr("geolab.cli.play.play_match", no_work)
    assert main(["play", "ranks", "--record", os.devnull]) == 2
    one_line_error(capsys, "not a regular file")


def test_train_refuses_a_bad_out_before_training(tmp_path, monkeypatch, capsys):
    from geolab.bots.ranks.learning import training

    monkeypatch.setattr(training, "fit", no_work)
    assert main(["train", "ranks", "--samples", "100", "--out", str(bad_paths(tmp_path)["under_a_file"])]) == 2
    one_line_error(capsys, "--out", "not a folder")


def test_a_folder_that_cannot_be_written_is_refused(tmp_path, monkeypatch):
    """The check writes (and removes) a probe file: modes alone mislead root and read-only mounts."""
    def refused(*_, **__):
        raise OSError(errno.EROFS, "Read-only file system")

    monkeypatch.setattr(results.tempfile, "mkstemp", refused)
    with pytest.raises(results.WriteError, match="Read-only file system"):
        results.check_writable(tmp_path / "new" / "deeper" / "out.json", "file", "--out")
    assert not (tmp_path / "new").exists()  # nothing is created by the check


# Justified skip: root may write into a 0o555 folder, so this real-permissions check can only
# run as another user; the test above fakes the same refusal (a failing mkstemp) and runs always.
@pytest.mark.skipif(os.geteuid() == 0, reason="root writes in read-only folders")
def test_a_read_only_folder_is_refused(tmp_path):
    locked = tmp_path / "locked"
    locked.mkdir(mode=0o555)
    with pytest.raises(results.WriteError, match="cannot write in"):
        results.check_writable(locked / "run", "folder")


def test_missing_folders_are_fine_and_created_only_when_writing(tmp_path):
    target = tmp_path / "a" / "b" / "record.json"
    assert results.check_writable(target, "file") == target and not (tmp_path / "a").exists()
    assert results.check_writable(tmp_path / "empty_is_fine", "folder")
    (tmp_path / "empty").mkdir()
    assert results.check_writable(tmp_path / "empty", "folder")
    assert not temps(tmp_path)  # the probe is gone


# ----- result sets: whole or nothing, never overwritten ---------------------------------------


def test_two_arena_runs_in_the_same_second_keep_both(tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(results, "now", lambda: datetime(2026, 1, 2, 3, 4, 5))
    outs = []
    for _ in range(2):
        assert main(TOY_ARENA) == 0
        outs.append(Path(json.loads(capsys.readouterr().out)["out"]))
    assert outs[0] != outs[1] and all(o.name.startswith(f"20260102-030405-{os.getpid()}-") for o in outs)
    folders = sorted((tmp_path / "results" / "arena").iterdir())
    assert len(folders) == 2 and all({p.name for p in f.iterdir()} == ARENA_FILES for f in folders)
    ids = {json.loads((f / "meta.json").read_text())["run_id"] for f in folders}
    assert len(ids) == 2


def test_even_colliding_run_ids_never_overwrite(tmp_path, monkeypatch, capsys):
    """Same second, same pid, same random suffix: the second set is moved aside, not lost."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(results, "now", lambda: datetime(2026, 1, 2, 3, 4, 5))
    monkeypatch.setattr(results.secrets, "token_hex", lambda n: "abcdef")
    for _ in range(2):
        assert main(TOY_ARENA) == 0
    err = capsys.readouterr().err
    assert "was taken while this run wrote" in err
    folders = sorted((tmp_path / "results" / "arena").iterdir())
    assert len(folders) == 2 and all({p.name for p in f.iterdir()} == ARENA_FILES for f in folders)


def test_a_failing_write_leaves_no_folder_and_no_temp(tmp_path, monkeypatch, capsys):
    def full(self, fig, name):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(results.ResultSet, "figure", full)
    out = tmp_path / "run"
    assert main([*TOY_ARENA, "--out", str(out)]) == 2
    captured = capsys.readouterr()
    assert json.loads(captured.out)["pairs"]  # the numbers are still printed
    assert "No space left on device" in captured.err and len(captured.err.strip().splitlines()) == 1
    assert not out.exists() and not temps(tmp_path)


def test_simulate_out_is_one_result_set(tmp_path, capsys):
    out = tmp_path / "sim"
    assert main(["simulate", "toy", "--games", "20", "--out", str(out), "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["out"] == str(out)
    assert {p.name for p in out.iterdir()} == {"games.csv", "games.parquet", "meta.json"}
    assert json.loads((out / "meta.json").read_text())["run_id"]
    assert not temps(tmp_path)


KILLED_WRITER = textwrap.dedent("""
    import sys, time
    sys.path.insert(0, {tests!r})
    import toy_game
    toy_game.install()
    from geolab.cli import main
    from geolab.lab import results

    figure = results.ResultSet.figure
    def slow(self, fig, name):  # a slow disk: the set is half-written for a long time
        figure(self, fig, name)
        print("half-written", flush=True)
        time.sleep(float({pause!r}))
    results.ResultSet.figure = slow
    sys.exit(main(["arena", "toy", "--bots", "first,best", "--games", "40", "--out", sys.argv[1]]))
""")


def run_writer(out: Path, pause: float) -> subprocess.Popen:
    script = KILLED_WRITER.format(tests=str(ROOT / "tests"), pause=pause)
    return subprocess.Popen([sys.executable, "-c", script, str(out)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, cwd=ROOT)


def test_sigkill_while_writing_leaves_the_whole_set_or_none(tmp_path):
    out = tmp_path / "run"
    writer = run_writer(out, pause=60)
    for line in writer.stdout:
        if "half-written" in line:
            break
    writer.send_signal(signal.SIGKILL)
    writer.wait(timeout=30)
    assert not out.exists()  # none of it
    stale = temps(tmp_path)
    assert len(stale) == 1 and stale[0].startswith(f".run.geolab-{writer.pid}-")
    # The rerun removes the killed run's temporary folder (its pid is dead) and writes the whole set.
    rerun = run_writer(out, pause=0)
    _, err = rerun.communicate(timeout=120)
    assert rerun.returncode == 0, err
    assert {p.name for p in out.iterdir()} == ARENA_FILES and not temps(tmp_path)


def test_sigkill_at_any_moment_leaves_the_whole_set_or_none(tmp_path):
    for i, delay in enumerate([1.0, 1.8, 2.6, 4.0]):
        out = tmp_path / f"run{i}"
        writer = run_writer(out, pause=0.4)
        time.sleep(delay)
        writer.send_signal(signal.SIGKILL)
        writer.wait(timeout=30)
        if out.exists():
            assert {p.name for p in out.iterdir()} == ARENA_FILES
            json.loads((out / "meta.json").read_text())


def test_stale_temporaries_are_removed_on_the_next_write(tmp_path):
    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    dead = int(gone.stdout)
    (tmp_path / f".run.geolab-{dead}-abcd1234.tmp").mkdir()  # a killed run's half-written set
    (tmp_path / f".run.geolab-{dead}-abcd1234.tmp" / "pairs.csv").write_text("half")
    old = tmp_path / ".pairs.csv.k2j4h5g6.tmp"  # an orphan of an older geolab
    old.write_text("half")
    two_hours_ago = time.time() - 7200
    os.utime(old, (two_hours_ago, two_hours_ago))
    live = tmp_path / f".other.geolab-{os.getpid()}-abcd1234.tmp"  # a run still writing: kept
    live.mkdir()
    unrelated = tmp_path / ".notes.tmp"
    unrelated.write_text("mine")
    with results.ResultSet(tmp_path / "new") as written:
        written.json({"x": 1}, "meta.json")
    assert temps(tmp_path) == sorted([live.name, unrelated.name])
    # single files clean up too, and an hour-old temporary of a live pid counts as stale
    os.utime(live, (two_hours_ago, two_hours_ago))
    results.write_json({"x": 1}, tmp_path / "one.json")
    assert temps(tmp_path) == [unrelated.name]


def test_a_single_file_is_replaced_whole_or_not_at_all(tmp_path):
    target = tmp_path / "ladder.png"
    target.write_bytes(b"old picture")

    class Broken:
        def savefig(self, path, **_):
            Path(path).write_bytes(b"half a pic")
            raise OSError(errno.ENOSPC, "No space left on device")

    with pytest.raises(OSError):
        results.save_figure(Broken(), target)
    assert target.read_bytes() == b"old picture" and not temps(tmp_path)


# ----- a game at the keyboard is never lost ---------------------------------------------------


def test_play_record_goes_to_a_missing_folder(tmp_path, monkeypatch, capsys):
    path = tmp_path / "new" / "folder" / "game.json"
    assert main([*scripted_game(monkeypatch), "--record", str(path)]) == 0
    session = json.loads(path.read_text())
    assert replay(session)["finished"] is True and mode(path) == 0o644
    assert not temps(path.parent)


def test_play_record_that_fails_at_the_end_is_saved_to_a_fallback(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    wanted = tmp_path / "game.json"
    write_json = results.write_json

    def full_disk(obj, path):
        if Path(path) == wanted:
            raise OSError(errno.ENOSPC, "No space left on device")
        return write_json(obj, path)

    monkeypatch.setattr("geolab.cli.play.write_json", full_disk)
    assert main([*scripted_game(monkeypatch), "--record", str(wanted)]) == 2
    err = one_line_error(capsys, str(wanted), "No space left on device", "saved it to")
    saved = list((tmp_path / "home" / ".geolab" / "unsaved").glob("session-*.json"))
    assert len(saved) == 1 and str(saved[0]) in err and not wanted.exists()
    session = json.loads(saved[0].read_text())
    assert replay(session)["finished"] is True and mode(saved[0]) == 0o644


def test_play_record_with_nowhere_to_go_is_printed(tmp_path, monkeypatch, capsys):
    def failing(obj, path):
        raise OSError(errno.EIO, "Input/output error")

    monkeypatch.setattr("geolab.cli.play.write_json", failing)
    monkeypatch.setattr("geolab.cli.play.rescue", lambda record, stem: None)
    assert main([*scripted_game(monkeypatch), "--record", str(tmp_path / "game.json")]) == 2
    captured = capsys.readouterr()
    start = captured.out.index("\n{\n") + 1
    session = json.loads(captured.out[start:captured.out.index("\n}\n", start) + 2])
    assert replay(session)["finished"] is True and "printed above" in captured.err


# ----- interrupts ------------------------------------------------------------------------------


def interrupting_runner(interrupt_at):
    """Coin-flip games, fast at any size; Ctrl-C on call `interrupt_at`."""
    calls = []

    def make(entry, rules, built, chunk=None, threads=None):
        def run(a, b, n, seed):
            calls.append((a, b, n))
            if len(calls) == interrupt_at:
                raise KeyboardInterrupt
            rng = np.random.default_rng(seed)
            score = (rng.random((n, 2)) < 0.6).astype(float)
            return arena.Duplicate(score, (rng.random((n, 2)) < 0.5).astype(float), np.full((n, 2), 5))
        return run

    return make


def test_interrupted_arena_exits_130_and_keeps_finished_blocks(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(arena, "pair_runner", interrupting_runner(interrupt_at=4))
    out = tmp_path / "run"
    argv = ["arena", "toy", "--bots", "first,best,best:greed=0.5", "--games", str(3 * arena.BLOCK), "--out", str(out)]
    assert main(argv) == 130
    captured = capsys.readouterr()
    assert "INTERRUPTED" in captured.out
    assert "interrupted" in captured.err and str(out) in captured.err and "Traceback" not in captured.err
    meta = json.loads((out / "meta.json").read_text())
    assert meta["interrupted"] is True and meta["games"] == 3 * arena.BLOCK * 2 < meta["games_planned"]
    assert (pd.read_csv(out / "pairs.csv")["deals"] == arena.BLOCK).all()
    assert {p.name for p in out.iterdir()} == ARENA_FILES


def test_arena_interrupted_before_any_block_exits_130_and_writes_nothing(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(arena, "pair_runner", interrupting_runner(interrupt_at=1))
    out = tmp_path / "run"
    assert main(["arena", "toy", "--bots", "first,best", "--games", "10", "--out", str(out)]) == 130
    one_line_error(capsys, "nothing to report")
    assert not out.exists() and not temps(tmp_path)


def test_ctrl_c_while_writing_leaves_no_folder_and_exits_130(tmp_path, monkeypatch, capsys):
    def interrupted(self, fig, name):
        raise KeyboardInterrupt

    monkeypatch.setattr(results.ResultSet, "figure", interrupted)
    out = tmp_path / "run"
    assert main([*TOY_ARENA, "--out", str(out)]) == 130
    one_line_error(capsys, "interrupted")
    assert not out.exists() and not temps(tmp_path)


def test_finished_arena_says_not_interrupted(tmp_path, capsys):
    out = tmp_path / "run"
    assert main([*TOY_ARENA, "--out", str(out)]) == 0
    assert json.loads((out / "meta.json").read_text())["interrupted"] is False


def test_interrupted_simulate_exits_130_without_a_traceback(tmp_path, monkeypatch, capsys):
    def interrupted(*_, **__):
        raise KeyboardInterrupt

    monkeypatch.setattr(tables, "simulate", interrupted)
    out = tmp_path / "sim"
    assert main(["simulate", "toy", "--games", "10", "--out", str(out)]) == 130
    one_line_error(capsys, "interrupted")
    assert not out.exists() and not temps(tmp_path)


def test_ctrl_c_on_a_real_arena_process(tmp_path):
    """A real SIGINT in the middle of play: exit 130, finished blocks written, meta says so."""
    out = tmp_path / "run"
    script = textwrap.dedent(f"""
        import sys, time
        sys.path.insert(0, {str(ROOT / "tests")!r})
        import toy_game
        toy_game.install()
        from geolab.cli import main
        from geolab.lab import arena
        real = arena.pair_runner
        def slow(*args, **kwargs):
            run = real(*args, **kwargs)
            def pair(a, b, n, seed):
                result = run(a, b, n, seed)
                print("block", flush=True)
                time.sleep(0.3)
                return result
            return pair
        arena.pair_runner = slow
        arena.run.__defaults__ = (20, *arena.run.__defaults__[1:])  # blocks of 20 deals (BLOCK is a default)
        sys.exit(main(["arena", "toy", "--bots", "first,best", "--games", "100000", "--out", sys.argv[1]]))
    """)
    proc = subprocess.Popen([sys.executable, "-c", script, str(out)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, cwd=ROOT)
    seen = 0
    for line in proc.stdout:
        seen += line.startswith("block")
        if seen == 3:
            break
    proc.send_signal(signal.SIGINT)
    rest, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert "Traceback" not in err and "interrupted" in err
    meta = json.loads((out / "meta.json").read_text())
    assert meta["interrupted"] is True and meta["games"] < meta["games_planned"]


# ----- permissions -----------------------------------------------------------------------------


def test_result_files_get_ordinary_permissions(tmp_path, capsys):
    out = tmp_path / "run"
    assert main([*TOY_ARENA, "--out", str(out)]) == 0
    assert mode(out) == 0o755 and all(mode(p) == 0o644 for p in out.iterdir())
    single = results.write_json({"x": 1}, tmp_path / "deeper" / "one.json")
    assert mode(single) == 0o644 and mode(single.parent) == 0o755
    tables_ = results.write_table(pd.DataFrame({"x": [1]}), tmp_path / "t", "x")
    assert all(mode(p) == 0o644 for p in tables_)


def test_permissions_follow_the_umask(tmp_path):
    """Ordinary means what any new file gets: a private umask keeps results private."""
    os.umask(0o077)
    with results.ResultSet(tmp_path / "private") as written:
        written.json({"x": 1}, "meta.json")
    assert mode(written.path) == 0o700 and mode(written.path / "meta.json") == 0o600


def test_bench_solver_out_is_written_atomically_with_ordinary_permissions(tmp_path, capsys):
    out = tmp_path / "bench" / "solver.json"
    assert main(["bench", "solver", "--deals", "3", "--batch", "3", "--out", str(out)]) == 0
    assert json.loads(out.read_text())["deals"] == 3 and mode(out) == 0o644 and not temps(out.parent)
