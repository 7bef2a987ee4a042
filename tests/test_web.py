"""`geolab serve` (`geolab.web`): every registered game played through its pages, as a browser
would post them (Starlette's TestClient), and a few through a real headless Chromium. The
server's state is the session file, so every check that a bad request left the game unharmed
reads the page (and the file) again."""

from __future__ import annotations

import html
import json
import re
import shutil
import socket
import tempfile
import threading
import time
from contextlib import contextmanager
from pathlib import Path

import pytest

from geolab import maps, records, registry
from geolab.cards import NAMES, POSTAL
from geolab.cli import main
from geolab.errors import GeolabError
from geolab.lab.play import called_first, first_claim, replay_session

try:
    import warnings

    with warnings.catch_warnings():  # Starlette asks for httpx2; its TestClient works with httpx
        warnings.simplefilter("ignore")
        from starlette.testclient import TestClient

    from geolab.web import pages
    from geolab.web.app import create_app
    from geolab.web.sessions import Store
except ImportError:  # the web extra (or httpx, of the test extra) is not installed
    TestClient = None
needs_web = pytest.mark.skipif(TestClient is None, reason="the web extra and httpx are not installed "
                                                          "(pip install -e '.[web,test]')")

GAMES = [e.name for e in registry.entries() if e.seat is not None]
#: Where a game's default is long: a short preset (only games whose default takes long).
SHORT = {"combo1": "final", "geodouble": "short"}
MAX_PAGES = 600


def client(folder) -> TestClient:
    return TestClient(create_app(Path(folder)))


def start(c: TestClient, game: str, seed: int = 7, **fields) -> str:
    data = {"seed": str(seed), **fields}
    if game in SHORT and "preset" not in data:
        data["preset"] = SHORT[game]
    r = c.post(f"/new/{game}", data=data, follow_redirects=False)
    assert r.status_code == 303, r.text[-600:]
    return r.headers["location"]


def length(text: str) -> int:
    return int(re.search(r'name="n" value="(\d+)"', text).group(1))


def over(text: str) -> bool:
    return 'id="over"' in text


def screen(text: str) -> str:
    return re.search(r'<pre class="screen" id="screen">(.*?)</pre>', text, re.S).group(1)


def notes(text: str) -> list[str]:
    """The notices a page shows."""
    return [html.unescape(n) for n in re.findall(r'<p class="note">(.*?)</p>', text)]


def race(text: str) -> bool:
    return 'class="race-page"' in text


def scene_data(text: str) -> dict:
    """What the page's script knows: the scene's moves (none at a race), its options, the race's shape."""
    return json.loads(html.unescape(re.search(r'<script type="application/json" id="scene-data">(.*?)</script>',
                                              text, re.S).group(1)))


def hint_label(text: str) -> str | None:
    found = re.search(r'id="hint">Hint: <b>(.*?)</b>', text)
    return html.unescape(found.group(1)) if found else None


def step(c: TestClient, loc: str, text: str, use_hint: bool) -> None:
    """One move as a person might make it: the first button, or the hint's move (typed where
    there are no buttons), or pass at a race without buttons."""
    n = length(text)
    if use_hint and not race(text):
        hinted = c.get(loc + "?hint=1").text
        label = hint_label(hinted)
        if label is not None:
            r = c.post(loc + "/move", data={"n": n, "text": label}, follow_redirects=False)
            assert r.status_code == 303, re.findall(r'id="error">(.*?)<', r.text)
            return
    data = {"n": n, "pass": "1"} if race(text) else {"n": n, "index": str(scene_data(text)["moves"][0][0])}
    r = c.post(loc + "/move", data=data, follow_redirects=False)
    assert r.status_code == 303, re.findall(r'id="error">(.*?)<', r.text)


def play_out(c: TestClient, loc: str, use_hint: bool = True) -> str:
    text = c.get(loc).text
    for k in range(MAX_PAGES):
        if over(text):
            return text
        step(c, loc, text, use_hint and k % 2 == 1)
        text = c.get(loc).text
    raise AssertionError(f"not over after {MAX_PAGES} moves")


# ----- the command ---------------------------------------------------------------------------
def test_serve_without_the_web_extra_is_one_line_and_exit_code_2(monkeypatch, capsys):
    monkeypatch.setitem(__import__("sys").modules, "uvicorn", None)  # as if it were not installed
    assert main(["serve", "--folder", "unused"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and 'pip install -e ".[web]"' in err


@needs_web
def test_serve_prints_its_address_and_serves_the_folder(monkeypatch, capsys, tmp_path):
    import uvicorn

    seen = {}
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: seen.update(kw, app=app))
    assert main(["serve", "--cold", "--port", "8123", "--folder", str(tmp_path / "games")]) == 0
    out = capsys.readouterr().out
    assert "http://127.0.0.1:8123/" in out and "ready" not in out
    assert seen["host"] == "127.0.0.1" and seen["port"] == 8123 and (tmp_path / "games").is_dir()
    assert main(["serve", "--port", "99999"]) == 2


@needs_web
def test_serve_plays_a_game_of_each_before_it_prints_its_address(monkeypatch, capsys, tmp_path):
    """Warming goes through the pages' own path (so play's kernels are built) in a scratch
    folder: the person's folder stays empty, and the address comes after every game is ready."""
    import uvicorn

    from geolab.web import sessions

    cheap = [e for e in sessions.entries() if e.name in ("border-up", "state-iq")]
    monkeypatch.setattr(sessions, "entries", lambda: cheap)
    monkeypatch.setattr(uvicorn, "run", lambda app, **kw: None)
    assert main(["serve", "--folder", str(tmp_path / "games")]) == 0
    lines = capsys.readouterr().out.splitlines()
    ready = [k for k, line in enumerate(lines) if line.endswith(" s") and "ready in" in line]
    address = next(k for k, line in enumerate(lines) if "http://127.0.0.1:8765/" in line)
    assert len(ready) == 2 and max(ready) < address
    assert list((tmp_path / "games").iterdir()) == []


def test_warming_reports_a_game_that_fails_and_goes_on(monkeypatch):
    from geolab.web import sessions, warm

    cheap = [e for e in sessions.entries() if e.name in ("border-up", "state-iq")]
    real = warm.play_one

    def broken(store, entry):
        if entry.name == "border-up":
            raise GeolabError("a broken kernel")
        return real(store, entry)

    monkeypatch.setattr(warm, "play_one", broken)
    said = []
    took = warm.warm(cheap, said.append)
    assert said[0] == "  border-up: not warmed (a broken kernel)" and "state-iq" in took
    assert "border-up" not in took and 0 <= took["state-iq/most"] <= took["state-iq"]


# ----- every game, through the pages ---------------------------------------------------------
@needs_web
@pytest.mark.parametrize("game", GAMES)
def test_a_whole_game_is_played_by_clicking_and_hints_and_its_files_replay(game, tmp_path):
    c = client(tmp_path)
    index = c.get("/").text
    assert game in index and registry.definition(game).about in html.unescape(index)
    assert c.get(f"/new/{game}").status_code == 200
    loc = start(c, game)
    end = play_out(c, loc)
    assert "download the record" in end
    gid = loc.rsplit("/", 1)[1]
    session = records.load(tmp_path / f"{gid}.json")
    assert session["format"] == "geolab-session/1" and session["finished"] is True
    match, stopped = replay_session(session)  # what geolab replay FILE checks, move by move
    assert match.finished and stopped is None
    entry = registry.get(game)
    for k, played in enumerate(match.played, 1):
        record = json.loads(c.get(f"{loc}/record/{k}").text)
        assert record == json.loads(json.dumps(entry.game.to_record(played)))
        entry.game.replay(record)  # geolab replay FILE accepts the record
    lines = entry.game.views.ending(match.played[-1], match.you)
    assert html.escape(lines[-1], quote=True) in end or lines[-1] in html.unescape(end)


@needs_web
@pytest.mark.parametrize("game", GAMES)
def test_bad_requests_are_refused_and_leave_the_game_as_it_was(game, tmp_path):
    c = client(tmp_path)
    loc = start(c, game, seed=11)
    gid = loc.rsplit("/", 1)[1]
    before = c.get(loc).text
    n, table = length(before), screen(before)
    saved = (tmp_path / f"{gid}.json").read_text()
    bad = [
        (loc + "/move", {"n": n, "index": "100000"}, 400),  # no such legal move
        (loc + "/move", {"n": n, "index": "-1"}, 400),
        (loc + "/move", {"n": n, "text": "no such move xyz"}, 400),
        (loc + "/move", {"n": n, "text": "\u00b2"}, 400),  # a digit to str.isdigit, not to int
        (loc + "/move", {"n": n, "text": "9" * 300}, 400),
        (loc + "/move", {"n": n + 1, "index": "0"}, 409),  # a stale (or future) page
        (loc + "/move", {"index": "0"}, 400),  # no length
        (loc + "/move", {"n": "many", "index": "0"}, 400),
        (loc + "/move", {"n": n}, 400),  # no move
        ("/g/0123456789abcdef/move", {"n": n, "index": "0"}, 404),  # a well-formed id of no game
        ("/g/..%2F..%2Fetc%2Fpasswd/move", {"n": n, "index": "0"}, 404),
        ("/g/ZZZ/move", {"n": n, "index": "0"}, 404),
    ]
    for url, data, status in bad:
        r = c.post(url, data=data, follow_redirects=False)
        assert r.status_code == status, (url, data, r.status_code)
        assert re.search(r'id="error">[^<\n]+<', r.text), "a one-line reason"
    malformed = [
        (b"n=1&n=2&index=0", "application/x-www-form-urlencoded", 400),  # a field twice
        (b"\xff\xfe=\xff", "application/x-www-form-urlencoded", 400),  # not UTF-8
        (b'{"n": 0, "index": 0}', "application/json", 400),
        (b"x" * 100_000, "application/x-www-form-urlencoded", 413),  # a huge body
    ]
    for body, kind, status in malformed:
        r = c.post(loc + "/move", content=body, headers={"content-type": kind}, follow_redirects=False)
        assert r.status_code == status, (body[:20], r.status_code)
    assert c.get("/g/0123456789abcdef").status_code == 404
    assert c.get(f"{loc}/record/1").status_code == 404  # not over yet
    after = c.get(loc).text
    assert (length(after), screen(after)) == (n, table)
    assert (tmp_path / f"{gid}.json").read_text() == saved
    assert sorted(p.name for p in tmp_path.iterdir() if not p.name.startswith(gid)) == []


@needs_web
@pytest.mark.parametrize("game", GAMES)
def test_a_reload_and_a_restarted_server_rebuild_the_game_from_its_file(game, tmp_path):
    c = client(tmp_path)
    loc = start(c, game, seed=3)
    text = c.get(loc).text
    if not over(text):
        step(c, loc, text, use_hint=False)
        if not race(text):  # the same click again, from a second tab or a double click: stale
            r = c.post(loc + "/move", data={"n": length(text), "index": "0"}, follow_redirects=False)
            assert r.status_code == 409 and "out of date" in r.text
    first = c.get(loc).text
    assert c.get(loc).text == first  # a reload (a second tab) shows the same page
    again = client(tmp_path).get(loc).text  # a new server over the same folder
    if over(first):
        assert over(again)
        return
    assert (length(again), screen(again)) == (length(first), screen(first))
    session = records.load(tmp_path / f"{loc.rsplit('/', 1)[1]}.json")
    match, stopped = replay_session(session)  # what geolab play --resume FILE checks before playing on
    assert not match.finished and stopped is not None and stopped.seat == session["you"]


@needs_web
@pytest.mark.parametrize("game", GAMES)
def test_hint_and_undo(game, tmp_path):
    c = client(tmp_path)
    for seed in range(5, 9):
        loc = start(c, game, seed=seed)
        text = c.get(loc).text
        for _ in range(60):  # to a decision that is not a race
            if over(text) or not race(text):
                break
            step(c, loc, text, use_hint=False)
            text = c.get(loc).text
        if not over(text):
            break
    else:
        # Border-Up and Dashing States ask the person nothing but a race, and a race claim is never
        # taken back: there is no move to undo (refusing undo at a race is tested above)
        pytest.skip(f"{game}: every game ended in races only (seeds 5-8): nothing to take back")
    n, table = length(text), screen(text)
    entry = registry.get(game)
    hinted = c.get(loc + "?hint=1").text
    if entry.hint is not None:
        assert hint_label(hinted) and "because" in hinted
    assert length(hinted) == n
    step(c, loc, text, use_hint=False)
    moved = c.get(loc).text
    if over(moved):  # a finished game's page offers no undo; one sent from the page before it is stale
        r = c.post(loc + "/undo", data={"n": n}, follow_redirects=False)
        assert r.status_code == 409 and "out of date" in r.text
        return
    r = c.post(loc + "/undo", data={"n": length(moved)}, follow_redirects=False)
    if race(moved):
        assert r.status_code == 400 and "race" in r.text
        return
    assert r.status_code == 303
    back = c.get(loc).text
    assert (length(back), screen(back)) == (n, table)
    assert c.post(loc + "/undo", data={"n": length(moved)}, follow_redirects=False).status_code == 409


def races(game: str) -> bool:
    return game in ("border-up", "geodouble", "dashing-states", "combo1")


def to_race(c: TestClient, loc: str) -> str | None:
    text = c.get(loc).text
    for _ in range(80):
        if over(text):
            return None
        if race(text):
            return text
        step(c, loc, text, use_hint=False)
        text = c.get(loc).text
    return None


def deadline(folder: Path, loc: str) -> float | None:
    """The rival's claim time at the race the game stands at: the server's, never the page's."""
    first = first_claim(Store(folder).page(loc.rsplit("/", 1)[1]).rivals)
    return None if first is None else float(first[1].seconds)


def person_claims(path: Path, you: int) -> list:
    session = json.loads(path.read_text())
    return [m for g in session["games"] for m in g if m[0] == you and len(m) == 5]


def claim_of(page, action) -> tuple[list[list[str]], str]:
    """A race claim as a person selects it: the scene's card ids of each group of `action`
    (read from its words) and the option's word."""
    scene = page.views.scene(page.decision)
    by_word = {c.word: c.id for c in scene.cards().values() if c.selectable}
    groups, option = [], ""
    for part in page.views.label(page.decision, action).split("/"):
        groups.append([by_word[w] for w in part.split() if w in by_word])
        option = " ".join(w for w in part.split() if w not in by_word) or option
    return groups, option


def claim_form(tmp_path: Path, loc: str, text: str) -> dict:
    """A claim of the race's first legal move as the page posts it: the cards a person selects
    (the scene's card ids, in the claim's groups) and the option's word, from its words."""
    page = Store(tmp_path).page(loc.rsplit("/", 1)[1])
    groups, option = claim_of(page, page.decision.legal[0])
    return {"n": length(text), "cards": "|".join(",".join(g) for g in groups), "option": option}


@needs_web
@pytest.mark.parametrize("game", GAMES)
def test_a_race_claimed_before_the_bots_deadline_counts_and_one_after_it_is_no_claim(game, tmp_path):
    c = client(tmp_path)
    for seed in range(1, 12 if races(game) else 2):
        loc = start(c, game, seed=seed)
        text = to_race(c, loc)
        if text is not None and deadline(tmp_path, loc) is not None and deadline(tmp_path, loc) > 0.5:
            break
    else:
        if races(game):
            pytest.fail(f"{game}: no race with a rival's claim in 11 seeds")
        # a game without timed decisions (State IQ, Play the Ranks ...) has no race to test; a game
        # with races that met none fails just above
        pytest.skip(f"{game}: no race (a timed decision) met in a game")
    gid = loc.rsplit("/", 1)[1]
    you = json.loads((tmp_path / f"{gid}.json").read_text())["you"]
    limit = deadline(tmp_path, loc)
    r = c.post(loc + "/move", data=claim_form(tmp_path, loc, text), follow_redirects=False)  # at once: in time
    assert r.status_code == 303
    claim = person_claims(tmp_path / f"{gid}.json", you)[-1]
    assert claim[2] == 0 and claim[4] < limit
    # another race, answered after the bot's claim: the server's clock says it came too late
    for seed in range(20, 40):
        loc = start(c, game, seed=seed)
        text = to_race(c, loc)
        if text is not None and deadline(tmp_path, loc) is not None:
            break
    gid = loc.rsplit("/", 1)[1]
    clock = tmp_path / f"{gid}.clock.json"
    kept = json.loads(clock.read_text())
    limit = deadline(tmp_path, loc)
    kept["served"] -= limit + 1  # as if the page had been served limit + 1 seconds ago
    clock.write_text(json.dumps(kept))
    claims = len(person_claims(tmp_path / f"{gid}.json", you))
    page = Store(tmp_path).page(gid)
    told = called_first(page.views, page.decision, first_claim(page.rivals))
    r = c.post(loc + "/move", data=claim_form(tmp_path, loc, text), follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == loc
    late = person_claims(tmp_path / f"{gid}.json", you)
    assert len(late) == claims + 1 and late[-1][2] == -1 and late[-1][3] == "pass" and late[-1][4] >= limit
    assert set(told) <= set(notes(c.get(loc).text))  # who claimed first, told on the next page


@needs_web
def test_dashing_states_map_cards_are_drawn_as_real_maps_that_name_no_state(tmp_path):
    """The race page draws each Map card (the scene's card picture) as an SVG map with the
    card's state, and only it, in red; no title, label or other text of the cards names a state."""
    c = client(tmp_path)
    loc = start(c, "dashing-states", seed=3)
    text = c.get(loc).text
    assert race(text)
    hand = Store(tmp_path).page(loc.rsplit("/", 1)[1]).decision.observation.hand
    cards = re.findall(r'<button class="card kind-map[^>]*>.*?</button>', text, re.S)
    pictures = "".join(cards)
    svgs = re.findall(r"<svg .*?</svg>", pictures, re.S)
    assert len(svgs) == len(hand) == 5
    for n, (svg, card) in enumerate(zip(svgs, hand), start=1):
        assert 'role="img"' in svg and "viewBox=" in svg and f"<title>Map card {n}:" in svg
        red = re.findall(rf'<path d="([^"]*)" fill="{maps.RED}"', svg)
        assert red == [maps.outlines()["states"][POSTAL[card]]]
    words = re.sub(r'd="[^"]*"', "", pictures)
    assert not any(name in words for name in NAMES) and not re.search(r"\b(" + "|".join(POSTAL) + r")\b", words)
    assert re.findall(r'<span class="code" aria-hidden="true">(.*?)</span>', pictures) == [str(n) for n in range(1, 6)]


RACES = {"border-up": None, "geodouble": "short", "dashing-states": None, "combo1": "final"}


@needs_web
@pytest.mark.parametrize("game", sorted(RACES))
def test_nothing_served_during_a_race_tells_a_solution_a_count_of_them_or_the_bots_time(game, tmp_path):
    """Issue 34: race pages listed every winning claim as a button (and, with none, only "wrong
    claim") and carried the bot's deadline. Every page and answer served while a race runs is
    checked against the exact finder (the race's legal claims are its hand's solutions)."""
    c = client(tmp_path)
    met = 0
    for seed in range(1, 9):
        loc = start(c, game, seed=seed, **({"preset": RACES[game]} if RACES[game] else {}))
        text = to_race(c, loc)
        if text is None:
            continue
        page = Store(tmp_path).page(loc.rsplit("/", 1)[1])
        decision, views = page.decision, page.views
        served = [text, c.get(loc + "?hint=1").text, c.get(f"{loc}/race?n={length(text)}").text,
                  c.post(loc + "/move", data={"n": length(text), "text": "ZZ"}).text]
        assert json.loads(served[2]) == {"race": "open"}
        for forged in ({"index": "0"}, {"cards": "hand-ZZ|nothing"}, {"cards": ""}):  # a solution's index, junk
            r = c.post(loc + "/move", data={"n": length(text), **forged}, follow_redirects=False)
            assert r.status_code == 400 and re.search(r'id="error">[^<\n]+<', r.text), forged
            served.append(r.text)
        assert scene_data(text)["moves"] == [] and scene_data(text)["hint"] is None
        claims = [views.label(decision, a) for a in decision.legal]
        said = [a for a in decision.legal if "/" in views.label(decision, a)]  # the solutions, not a wrong claim
        groups = {" ".join(POSTAL[x] for x in g) for a in said for g in a}
        hand = [c_ for c_ in decision.observation.inner.hand] if hasattr(decision.observation, "inner") and \
            hasattr(decision.observation.inner, "hand") else getattr(decision.observation, "hand", ())
        first = first_claim(page.rivals)
        for body in served:
            words = html.unescape(body)
            assert not any(claim in words for claim in claims if "/" in claim), "a solution is on the page"
            assert not any(group in words for group in groups), "a group of a solution is on the page"
            assert not re.search(r"\d+ (solutions?|winning claims?|ways)\b", words), "a count of solutions"
            assert "wrong claim</button>" not in words and "deadline" not in words
            if first is not None:
                t = float(first[1].seconds)
                assert not any(f in words for f in (repr(t), f"{t:.3f}", f"{t:.2f}", f"{t:.1f} s")), "the bot's time"
            if game == "dashing-states" or decision.kind == "claim" and not groups:
                assert not any(NAMES[x] in words or f">{POSTAL[x]}<" in words for x in hand), "a Map card's name"
        met += 1
    assert met >= 4, f"{game}: only {met} races met in 8 seeds"


SERIES = [(g, p) for g in GAMES for p in registry.get(g).game.Rules.PRESETS
          if registry.get(g).game.series_target(registry.get(g).game.Rules.preset(p)) is not None]


@needs_web
# Play the Ranks' battle presets play series, so this runs; it skips only in a registry without them
@pytest.mark.skipif(not SERIES, reason="no registered game plays a series")
def test_a_series_is_played_game_after_game_and_each_game_is_saved_as_a_record(tmp_path):
    game, preset = SERIES[0]
    c = client(tmp_path)
    loc = start(c, game, seed=3, preset=preset)
    text = c.get(loc).text
    assert "series:" in text
    for _ in range(MAX_PAGES):  # a page's notices name its own game of the series, not every earlier
        if over(text):          # one's too, and hold no blank line or "== ... ==" rule of the keyboard's
            break
        game_now = re.search(r"game (\d+); series:", text).group(1)
        told = notes(text)
        assert [n for n in told if n.endswith(" of the series")] == [f"game {game_now} of the series"], told
        assert all(n and "==" not in n for n in told), told
        step(c, loc, text, use_hint=False)
        text = c.get(loc).text
    assert game_now != "1", "the series ended in one game"
    end = text
    assert "won the series." in re.search(r'id="over">(.*?)<', end).group(1)
    gid = loc.rsplit("/", 1)[1]
    match, _ = replay_session(records.load(tmp_path / f"{gid}.json"))
    assert len(match.played) > 1
    for k in range(1, len(match.played) + 1):
        registry.get(game).game.replay(json.loads(c.get(f"{loc}/record/{k}").text))


@needs_web
def test_the_setup_form_takes_a_preset_fields_a_seat_and_bots_and_refuses_bad_ones(tmp_path):
    c = client(tmp_path)
    game = GAMES[0]
    entry = registry.get(game)
    rules = entry.game.Rules.preset(entry.game.Rules.DEFAULT)
    seats = [entry.game.seat_name(rules, s) for s in range(entry.game.seats(rules))]
    number = next(row["field"] for row in rules.describe() if row["type"] == "int")
    loc = start(c, game, seat=seats[-1])
    session = json.loads((tmp_path / f"{loc.rsplit('/', 1)[1]}.json").read_text())
    assert session["you"] == len(seats) - 1
    for data, words in [({"preset": "no-such"}, "preset"), ({"seat": "Q9"}, "seat"), ({"bots": "nobody"}, "bot"),
                        ({"seed": "-4"}, "seed"), ({"set." + number: "99999999999"}, number)]:
        r = c.post(f"/new/{game}", data=data, follow_redirects=False)
        assert r.status_code == 400 and words in r.text.lower()
    assert c.get("/new/no-such-game").status_code == 404


@needs_web
def test_every_number_a_request_carries_is_read_once_and_refused_in_one_line(tmp_path):
    """A move index, a length, a seed, a record's number, a Content-Length: thousands of digits
    (past Python's int-string limit), a superscript, another script's digit, a sign, a
    fraction are each a 400 with one line, never a 500, and the game goes on as it was."""
    c = TestClient(create_app(tmp_path), raise_server_exceptions=False)
    game = "state-iq"
    loc = start(c, game)
    gid = loc.rsplit("/", 1)[1]
    before = c.get(loc).text
    n, saved = length(before), (tmp_path / f"{gid}.json").read_text()
    for text in ("9" * 5000, "\u00b2", "\u0661", "-1", "1.0", " "):
        requests = [("post", loc + "/move", {"n": text, "index": "0"}, {}),
                    ("post", loc + "/move", {"n": n, "index": text}, {}),
                    ("post", loc + "/undo", {"n": text}, {})]
        if text.strip():
            requests += [("post", f"/new/{game}", {"seed": text}, {}), ("get", f"{loc}/record/{text}", None, {})]
        if text.isascii() and text.strip():
            requests.append(("post", loc + "/move", {"n": n, "index": "0"}, {"content-length": text}))
        for method, url, data, headers in requests:
            r = getattr(c, method)(url, follow_redirects=False, headers=headers, **({"data": data} if data else {}))
            reason = re.search(r'id="error">([^<\n]+)<', r.text)
            assert r.status_code == 400 and reason and "expected a whole number" in reason.group(1), \
                (url[-30:], data, headers, r.status_code)
            assert len(reason.group(1)) < 200
    after = c.get(loc).text
    assert (length(after), screen(after)) == (n, screen(before))
    assert (tmp_path / f"{gid}.json").read_text() == saved
    assert [p.name for p in tmp_path.glob("*.json") if not p.name.startswith(gid)] == []


@needs_web
def test_a_long_text_echoed_in_a_refusal_does_not_hide_the_reason_after_it(tmp_path):
    """A bot's spec (or a preset's name) of thousands of characters is echoed in its error: the
    page's line cuts that word, not the reason."""
    c = client(tmp_path)
    for data, words in [({"bots": "counter:concede=" + "9" * 5000}, "concede must be a whole number"),
                        ({"preset": "x" * 5000}, "(known: ")]:
        r = c.post("/new/ranks", data=data, follow_redirects=False)
        reason = re.search(r'id="error">([^<\n]+)<', r.text).group(1)
        assert r.status_code == 400 and words in html.unescape(reason) and len(reason) < 700


@needs_web
@pytest.mark.parametrize("field", ["nosuch", "ranks.nosuch", "nosuch.x", ""])
def test_an_unknown_rules_field_in_the_setup_is_refused_in_the_words_of_the_cli(field, tmp_path, capsys):
    """``set.FIELD=1`` in the setup form is ``--set FIELD=1``: a field the rules lack (or a
    stage they lack) is one line, the CLI's own, and no game starts."""
    game = "combo1" if "." in field.strip() else "ranks"
    assert main(["rules", game, "--set", f"{field}=1"]) == 2
    cli = capsys.readouterr().err.strip()
    r = client(tmp_path).post(f"/new/{game}", data={"seed": "1", f"set.{field}": "1"}, follow_redirects=False)
    assert r.status_code == 400
    assert cli == "geolab: error: " + html.unescape(re.search(r'id="error">([^<\n]+)<', r.text).group(1))
    assert list(tmp_path.iterdir()) == []


@needs_web
def test_a_notice_is_only_ever_the_servers_own_and_an_undo_still_says_so(tmp_path):
    """The page's notices are what the server told (kept beside the game), never a URL's text;
    the notice of an undo shows on the page it redirects to, and on a reload, until the next move."""
    c = client(tmp_path)
    loc = start(c, "ranks")
    forged = "Official notice: your games are deleted, sign in again at example.com"
    assert forged not in c.get(loc + "?note=" + forged).text
    text = c.get(loc).text
    step(c, loc, text, use_hint=False)
    r = c.post(loc + "/undo", data={"n": length(c.get(loc).text)}, follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"] == loc
    undone = "taken back: your last move and the replies to it"
    assert undone in notes(c.get(loc).text) and undone in notes(c.get(loc).text)  # and on a reload
    page = c.get(loc + "?note=" + forged).text
    assert forged not in page and undone in notes(page)
    step(c, loc, page, use_hint=False)
    assert undone not in notes(c.get(loc).text)  # told once: the next move has its own


@needs_web
def test_any_seat_with_bots_in_all_the_others(tmp_path):
    """A class game on one screen: the person at any seat, bots as every classmate."""
    c = client(tmp_path)
    many = max(GAMES, key=lambda g: registry.get(g).game.seats(registry.get(g).game.Rules.preset(
        registry.get(g).game.Rules.DEFAULT)))
    entry = registry.get(many)
    rules = entry.game.Rules.preset(entry.game.Rules.DEFAULT)
    middle = entry.game.seat_name(rules, entry.game.seats(rules) // 2)
    loc = start(c, many, seat=middle)
    assert f"you are {middle}" in c.get(loc).text
    assert over(play_out(c, loc, use_hint=False))


# ----- a real browser -------------------------------------------------------------------------
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")
DRIVER = shutil.which("chromedriver") or ("/usr/bin/chromedriver" if Path("/usr/bin/chromedriver").exists() else None)


@contextmanager
def served_chromium():
    """A server over a fresh folder and a headless Chromium (`driver.base`, its address;
    `driver.folder`, the folder), both ended on leaving; skips where the browser is absent."""
    if CHROMIUM is None or DRIVER is None:  # the issue: browser tests skip only where the browser is absent
        pytest.skip("no Chromium and chromedriver here (apt-get install chromium chromium-driver)")
    webdriver = pytest.importorskip("selenium.webdriver", reason="selenium is not installed (the test extra)")
    import uvicorn
    from selenium.webdriver.chrome.service import Service

    folder = Path(tempfile.mkdtemp(prefix="geolab-web-"))
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(create_app(folder), host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    for _ in range(200):
        if server.started:
            break
        time.sleep(0.05)
    options = webdriver.ChromeOptions()
    for flag in ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run",
                 f"--user-data-dir={tempfile.mkdtemp(prefix='geolab-chromium-')}", "--window-size=1000,900"):
        options.add_argument(flag)
    options.binary_location = CHROMIUM
    driver = webdriver.Chrome(service=Service(DRIVER), options=options)
    driver.implicitly_wait(0)
    driver.base = f"http://127.0.0.1:{port}"
    driver.folder = folder
    try:
        yield driver
    finally:
        driver.quit()
        server.should_exit = True
        thread.join(timeout=5)
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="module")
def browser():
    with served_chromium() as driver:
        yield driver


def by(driver, css: str):
    from selenium.webdriver.common.by import By

    return driver.find_elements(By.CSS_SELECTOR, css)


def click(driver, element, timeout: float = 20) -> None:
    """Click, and wait for the next page (a form's answer or a link's page) to replace this one:
    a mark left on this page's window is gone from the next one's."""
    from selenium.common.exceptions import WebDriverException
    from selenium.webdriver.support.ui import WebDriverWait

    driver.execute_script("window.geolabLeft = true")
    try:
        element.click()
    except WebDriverException:  # the page moved on by itself (a race's clock ran out)
        pass
    # polled often: the default half second was most of a page's time
    WebDriverWait(driver, timeout, poll_frequency=0.05, ignored_exceptions=(WebDriverException,)).until(
        lambda d: d.execute_script("return !window.geolabLeft && document.readyState === 'complete'"))


def confirmable(driver) -> bool:
    return driver.execute_script("return !document.getElementById('confirm').disabled")


def begin(driver, game: str, seed: int, preset: str | None = None, bots: str | None = None,
          level: str | None = None, fields: dict | None = None) -> str:
    """The setup page filled in as a person fills it: a preset chosen (its rules shown), rules
    fields typed, an opponent level chosen (its name) or bots typed, the seed; then Start."""
    from selenium.webdriver.support.ui import Select

    driver.get(f"{driver.base}/new/{game}")
    if preset:
        Select(by(driver, "#preset")[0]).select_by_value(preset)
        click(driver, by(driver, "#show-preset")[0])
    for name, value in (fields or {}).items():
        box = by(driver, f'input[id="set-{name}"]')[0]
        if not box.is_displayed():  # a long list of fields starts folded
            by(driver, "#setup details summary")[0].click()
        box.clear()
        box.send_keys(value)
    if level:  # the entry named so ("beginner (search speed 0.12)")
        Select(by(driver, "#level")[0]).select_by_value(driver.execute_script(
            "var name = arguments[0]; return Array.from(document.querySelectorAll('#level option')).find("
            "function (o) { return o.textContent.indexOf(name + ' ') === 0; }).value", level))
    if bots:
        by(driver, "#bots")[0].clear()
        by(driver, "#bots")[0].send_keys(bots)
    by(driver, "#seed")[0].send_keys(str(seed))
    click(driver, by(driver, "#start")[0])
    return driver.current_url


def click_on(driver) -> None:
    """The scene's first legal move, made as a person makes it: its cards clicked, its option
    chosen, then Confirm; at a race, pass."""
    if by(driver, ".race-page"):
        click(driver, by(driver, "#pass")[0])
        return
    move = json.loads(driver.execute_script("return document.getElementById('scene-data').textContent"))["moves"][0]
    pick(driver, move[1], move[2])
    assert confirmable(driver)
    click(driver, by(driver, "#confirm")[0])


def claim_on(driver) -> str | None:
    """At a race, the first legal claim that lays cards (the server knows them; a person finds
    them), selected card by card in its groups' order with its option, then Confirm; pass
    where the hand holds none. Returns the status line the page showed before Confirm."""
    page = Store(driver.folder).page(driver.current_url.split("?")[0].rsplit("/", 1)[1])
    claims = (claim_of(page, a) for a in page.decision.legal)
    groups, option = next(((g, o) for g, o in claims if any(g)), (None, ""))
    if groups is None:
        click(driver, by(driver, "#pass")[0])
        return None
    pick(driver, [c for g in groups for c in g])
    for radio in by(driver, f'input[name="option"][value="{option}"]'):  # a claim's option (Dashing States)
        radio.click()
    said = by(driver, "#status")[0].text
    assert confirmable(driver), said
    click(driver, by(driver, "#confirm")[0])
    return said


def pick(driver, cards, option=()) -> None:
    """Click these cards (by the scene's ids), then each part of the option (a button, or a
    drop-down's entry), as the page shows them for the cards selected."""
    from selenium.webdriver.support.ui import Select

    for cid in cards:
        by(driver, f'button.card[data-id="{cid}"]')[0].click()
    for part, value in enumerate(option):
        button = driver.execute_script(
            "var part = arguments[0], value = arguments[1]; return Array.from(document.querySelectorAll("
            "'.option')).find(function (b) { return b.dataset.part === part && b.textContent === value; }) || null",
            str(part), value)
        if button is not None:
            button.click()
        else:
            Select(by(driver, f'select[data-part="{part}"]')[0]).select_by_value(value)


#: How a person sets up each game for a short whole game that still plays all of it (preset,
#: rules fields typed). Every game that races is played at the beginner level, so a person's
#: clicks come before the bot's claim; Border-Up's seed deals a hand with groups to claim.
SHORTEST = {
    "ranks": ("battle2", {"target_points": "none"}),  # one deal: discard, declare, hidden lead, base, category
    "jumbled": ("standard", {"players": "3", "target": "10"}),
    "class": ("small-class", {}),
    "geodouble": ("short", {"max_rounds": "1"}),
    "combo1": ("final", {}),  # the four games once (an early stop, a tie-breaker)
}
SEEDS = {"border-up": 1}


@needs_web
def test_a_person_plays_every_game_to_its_end_by_clicking_cards_and_options(browser):
    """Issue 34: every registered game (the test-only ones too), set up on its page, played to
    its verdict by clicking cards, options and Confirm (no typed move, no form posted by hand);
    at every race the person selects a claim's cards (Border-Up: six, won against the beginner)
    or passes where the hand holds none. Then a Border-Up race against the expert level, left
    to its clock: the page ends by itself when the bot claims, and the end page teaches the
    race (both clocks, the hand's solutions, the hand on a map)."""
    for game in GAMES:
        entry = registry.get(game)
        preset, fields = SHORTEST.get(game, (None, {}))
        races = bool(pages.levels(entry))
        begin(browser, game, seed=SEEDS.get(game, 3), preset=preset, fields=fields,
              level="beginner" if races else None)
        said = []
        for _ in range(MAX_PAGES):
            now = browser.execute_script("return document.getElementById('over') ? 'over' : "
                                         "document.querySelector('.race-page') ? 'race' : 'play'")
            if now == "over":
                break
            if now == "race":
                said.append(claim_on(browser))
            else:
                click_on(browser)
        verdict = by(browser, "#over")[0].text if by(browser, "#over") else ""
        assert re.fullmatch(r"The game is over: \S.{3,}", verdict, re.S), (game, verdict)
        assert by(browser, "#record-1") and by(browser, "#session"), game
        assert said or not races, f"{game}: no race met"
        if game == "border-up":  # the race won by selecting six cards
            assert said and said[0].startswith("6 of 6"), said
            assert "You won" in verdict, verdict

    from selenium.webdriver.support.ui import WebDriverWait

    url = begin(browser, "border-up", seed=12, level="expert")  # the expert claims at about 4 s
    limit = deadline(browser.folder, url)
    assert limit is not None and limit < 10, limit
    assert by(browser, ".race-page") and by(browser, "#clock") and "deadline" not in browser.page_source
    shown = float(by(browser, "#clock")[0].text)
    WebDriverWait(browser, 5).until(lambda d: not by(d, "#clock") or float(by(d, "#clock")[0].text) > shown)
    # the person waits: the page asks the server, which says the race is over, and it sends no claim
    WebDriverWait(browser, limit + 10).until(lambda d: by(d, "#over"))
    WebDriverWait(browser, 10).until(lambda d: "You lost" in by(d, "#over")[0].text)
    told = by(browser, ".new-events")[0].get_attribute("textContent")
    assert "called GeoPlunge at" in told and "The clock: you: no claim" in told, told
    assert "Your hand held" in told, told
    assert by(browser, ".picture-map svg"), "the hand on a map"


@needs_web
def test_a_game_of_play_the_ranks_is_played_by_clicking_cards_and_confirm(browser):
    """Issue 34: cards are picked by a click (or Space on a focused card); Confirm is enabled
    only for a legal selection (two cards to discard, not one; a card and a category to lead)."""
    from selenium.webdriver.common.keys import Keys

    begin(browser, "ranks", seed=5, preset="geodouble")
    hand = by(browser, ".pile-hand button.card")
    assert len(hand) == 8 and by(browser, "#confirm")[0].get_attribute("disabled")
    hand[0].send_keys(Keys.SPACE)  # the keyboard picks a card as a click does
    assert hand[0].get_attribute("aria-pressed") == "true"
    assert not by(browser, "#confirm")[0].is_enabled()  # one card: not a discard of two
    hand[1].click()
    assert by(browser, "#confirm")[0].is_enabled()
    hand[2].click()
    assert not by(browser, "#confirm")[0].is_enabled()  # three: not legal either
    hand[2].click()
    click(browser, by(browser, "#confirm")[0])
    for _ in range(60):
        if by(browser, "#over"):
            break
        click_on(browser)
    assert by(browser, "#over")


@needs_web
def test_in_the_browser_an_illegal_move_is_refused_undo_hint_and_a_reload(browser):
    url = begin(browser, "geodouble", seed=6, preset="short")
    for _ in range(40):  # past the race, to a trick
        if not by(browser, ".race-page") or by(browser, "#over"):
            break
        click_on(browser)
    assert by(browser, "button.card")
    screen_before = by(browser, "#screen")[0].get_attribute("textContent")
    by(browser, "#text")[0].send_keys("ZZ nonsense")
    click(browser, by(browser, "#send")[0])
    assert by(browser, "#error") and by(browser, "#screen")[0].get_attribute("textContent") == screen_before
    browser.get(url)
    click(browser, by(browser, "#ask-hint")[0])
    assert "because" in by(browser, "#hint")[0].text and by(browser, "#confirm")[0].is_enabled()  # selected
    click(browser, by(browser, "#confirm")[0])
    assert by(browser, "#screen")[0].get_attribute("textContent") != screen_before
    click(browser, by(browser, "#undo")[0])
    assert by(browser, "#screen")[0].get_attribute("textContent") == screen_before
    assert "taken back" in browser.page_source
    browser.refresh()
    assert by(browser, "#screen")[0].get_attribute("textContent") == screen_before


@needs_web
@pytest.mark.usefixtures("rigs")
def test_a_damaged_session_file_is_one_line_and_left_out_of_the_list(tmp_path):
    """Issue 37: the folder's files were read with a plain json.loads (a file nested 100,000
    deep was a RecursionError) and listed unchecked (a list, or ``games`` of numbers, was a
    TypeError or an AttributeError: the whole list of games failed)."""
    c = client(tmp_path)
    gid = start(c, "toy").rsplit("/", 1)[1]
    good = json.loads((tmp_path / f"{gid}.json").read_text())
    damaged = {
        "0000000000000001": b"[" * 100_000 + b"]" * 100_000,
        "0000000000000002": b"[1, 2]",
        "0000000000000003": json.dumps({**good, "games": [1, 2]}).encode(),
        "0000000000000004": json.dumps({**good, "game": ["toy"]}).encode(),
        "0000000000000005": json.dumps({**good, "rules": {"preset": ["standard"]}}).encode(),
        "0000000000000006": b'{"format": NaN}',
    }
    store = Store(tmp_path)
    for bad, text in damaged.items():
        (tmp_path / f"{bad}.json").write_bytes(text)
        for read in (store.page, store.summary):
            with pytest.raises(GeolabError) as caught:
                read(bad)
            assert "\n" not in str(caught.value) and str(caught.value).startswith(bad), str(caught.value)
        r = c.get(f"/g/{bad}")
        assert r.status_code == 400 and re.search(r'id="error">[^<\n]+<', r.text)
    listed = c.get("/")
    assert listed.status_code == 200 and gid in listed.text
    assert not any(bad in listed.text for bad in damaged)


@needs_web
def test_a_follow_typed_with_a_category_is_played_and_the_page_says_whose_category_it_is(tmp_path):
    """As at the keyboard (issue 37, item 11): a card and a category typed to follow plays the
    card, and the next page says the category is the leader's."""
    from geolab.web.sessions import Store

    c = client(tmp_path)
    for seed in range(20):
        loc = start(c, "ranks", seed=seed, seat="B")
        text = c.get(loc).text
        for _ in range(6):  # B's discards and answers, to B's first follow
            decision = Store(tmp_path).page(loc.rpartition("/")[2]).decision
            if decision is None or decision.kind == "follow":
                break
            step(c, loc, text, use_hint=False)
            text = c.get(loc).text
        if decision is None or decision.kind != "follow":
            continue
        card = POSTAL[decision.legal[0]]
        r = c.post(loc + "/move", data={"n": length(text), "text": f"{card} size"}, follow_redirects=True)
        assert r.status_code == 200
        said = [n for n in notes(r.text) if n.startswith(f"{card}: the category is")]
        assert said and "the leader's" in said[0], notes(r.text)
        return
    pytest.fail("no follow met in 20 seeds")
