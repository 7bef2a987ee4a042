"""Dashing States at a pseudo-terminal, as a person plays it: the map read off the screen (the
cards' shapes, nothing else), the row typed against the clock, every card announced (a typo
asked again), the verdict, the session replayed; and a race lost to a faster bot's shout."""

from __future__ import annotations

import json
import re

import pexpect
from terminal import run, spawn

from geolab import maps
from geolab.cards import CAPITALS, NAMES, POSTAL
from geolab.games.dashing.views import MAP_COLUMNS, MAP_INDENT

ROW_PROMPT = "4 CARD NUMBERS (or pass) > "
SAY_PROMPT = r"card (\d): STATE CAPITAL > "


def read_map(screen: str) -> dict[int, str]:
    """Card number -> the postal code of the state drawn in its digit on the last map on the
    screen, read by the outlines' grid (`geolab.maps.raster`), as a person reads a shape."""
    lines = screen.replace("\r", "").split("\n")
    grid = maps.raster(MAP_COLUMNS)
    top = max(i for i, line in enumerate(lines) if "lower left):" in line or "Your row:" in line)
    cards = {}
    for r, line in enumerate(lines[top + 1: top + 1 + len(grid)]):
        for found in re.finditer(r"\d", line[len(MAP_INDENT):]):
            cards[int(found.group())] = grid[r][found.start()]
    return cards


def test_a_person_reads_the_map_lays_the_row_announces_and_wins(tmp_path):
    record = tmp_path / "match.json"
    child = spawn("play", "dashing-states", "--seed", "4", "--vs", "team:speed=0.1", "--record", str(record),
                  home=tmp_path)
    child.expect_exact(ROW_PROMPT)
    cards = read_map(child.before)
    assert sorted(cards) == [1, 2, 3, 4, 5]
    assert not any(NAMES[POSTAL.index(code)] in child.before for code in cards.values())  # no state named
    row = sorted(cards, key=lambda n: POSTAL.index(cards[n]))[:4]  # cards are numbered alphabetically
    child.sendline(" ".join(map(str, row)))
    child.expect(SAY_PROMPT)
    child.sendline("ZZ Nowhere")  # not a state: asked again, not judged
    child.expect(SAY_PROMPT)
    for k, n in enumerate(row):
        if k:
            child.expect(SAY_PROMPT)
        assert int(child.match.group(1)) == n
        code = cards[n]
        child.sendline(f"{code} {CAPITALS[POSTAL.index(code)]}")
    child.expect(pexpect.EOF)
    screen = child.before
    child.close()
    assert child.exitstatus == 0 and "the claim holds" in screen and "You won: your claim holds." in screen
    session = json.loads(record.read_text())
    assert session["finished"] is True and session["games"][0][0][:2] == [0, "claim"]
    replayed = run("replay", str(record), home=tmp_path)
    assert replayed.returncode == 0 and "winner: A" in replayed.stdout, replayed.stderr


def test_a_faster_bots_shout_ends_the_race_at_the_keyboard(tmp_path):
    child = spawn("play", "dashing-states", "--seed", "5", "--vs", "team:race=perfect,speed=50", home=tmp_path)
    child.expect_exact(ROW_PROMPT)
    child.expect("Your time is up: no shout from you.", timeout=30)
    child.expect(pexpect.EOF)
    screen = child.before
    child.close()
    assert child.exitstatus == 0 and "B won: B's claim holds." in screen and "Traceback" not in screen
