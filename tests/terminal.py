"""A person at a pseudo-terminal (pexpect): the terminal tests drive `geolab play` this way."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pexpect

TESTS = Path(__file__).resolve().parent
TIMEOUT = 120  # the first game of a session may compile kernels


def _command(args, home: Path, toy: bool):
    program = [str(TESTS / "toy_cli.py")] if toy else ["-m", "geolab"]
    path = os.pathsep.join(filter(None, [str(TESTS.parent), os.environ.get("PYTHONPATH")]))
    env = {**os.environ, "HOME": str(home), "PYTHONPATH": path, "COLUMNS": "80", "TERM": "dumb"}
    return [*program, *args], env


def spawn(*args: str, home: Path, toy: bool = False) -> pexpect.spawn:
    """`geolab ARGS` (or the command line with the test-only game, ``toy``) on a terminal of
    80 columns, with HOME at `home` so saved matches land there."""
    argv, env = _command(args, home, toy)
    return pexpect.spawn(sys.executable, argv, env=env, encoding="utf-8", timeout=TIMEOUT, dimensions=(40, 80),
                         cwd=str(home))


def run(*args: str, home: Path, toy: bool = False) -> subprocess.CompletedProcess:
    """`geolab ARGS` without a terminal: its exit code and output."""
    argv, env = _command(args, home, toy)
    return subprocess.run([sys.executable, *argv], env=env, cwd=str(home), capture_output=True, text=True,
                          timeout=TIMEOUT)


def finish(child: pexpect.spawn) -> int:
    """Wait for the program to end; its exit code."""
    child.expect(pexpect.EOF)
    child.close()
    return child.exitstatus


#: the input line of a game's decision (each game's `Views.prompt` ends so); the loop's own
#: questions end in "[y/N] " or name Enter
PROMPT_END = r"> $"


def play_by_hints(child: pexpect.spawn, confirm: bool = False, limit: int = 3000) -> int:
    """Play a whole match as a person who asks for a hint at every decision and plays it
    (a game-blind player: the hint's words are a move the game reads back). Returns the number
    of moves made."""
    moves = 0
    while moves < limit:
        if child.expect([PROMPT_END, pexpect.EOF]) == 1:
            return moves
        child.sendline("hint")
        child.expect(r"  hint: ([^\r\n]+)\r\n")
        move = child.match.group(1)
        child.expect(PROMPT_END)
        child.sendline(move)
        if confirm:
            child.expect_exact("Enter: confirm, undo: choose again > ")
            child.sendline("")
        moves += 1
    raise AssertionError(f"no end after {limit} moves")
