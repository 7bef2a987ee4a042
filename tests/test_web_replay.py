"""Replays and tournaments in `geolab serve` (issue 34, items 6 and 7 in the browser, and
State IQ's clue map): a record of every registered game stepped to its end and back, each
step the deciding seat's own scene and nothing of another seat's hidden cards; a web game's
end page opening its replay; malformed uploads refused in one line; a saved tournament's page
listing every round and opening every match; one real Chromium stepping with the keyboard."""

from __future__ import annotations

import html
import json
import re

import numpy as np
import pytest

from geolab import registry
from geolab.cards import POSTAL
from geolab.lab.moves import judged, stepped
from geolab.stepwise import RandomSeat
from tests.test_web import SHORT, browser, by, click, client, needs_web, play_out, start  # noqa: F401 (a fixture)

#: Every registered game whose record replay steps its own game (the test-only Top Rank Match
#: replays only its inner games: its upload is refused in one line, below).
STEPPED = [n for n in registry.names() if n != "toy-match"]
CODE = re.compile(r"\b[A-Z]{2}\b")


def record_of(name: str, seed: int = 1) -> dict:
    """A record of one game of random legal play (a short preset where the default is long)."""
    entry = registry.get(name)
    rules = entry.game.Rules.preset(SHORT.get(name, entry.game.Rules.DEFAULT))
    rng = np.random.default_rng(seed)
    played = entry.game.play(rules, entry.game.deal(rules, rng), [RandomSeat(rng) for _ in
                                                                  range(entry.game.seats(rules))])
    return json.loads(json.dumps(entry.game.to_record(played)))


def upload(c, record, status: int = 303):
    r = c.post("/replay", data={"record": record if isinstance(record, str) else json.dumps(record)},
               follow_redirects=False)
    assert r.status_code == status, r.text[-400:]
    return r


def error_line(text: str) -> str:
    found = re.search(r'<p class="error" id="error">(.*?)</p>', text, re.S)
    assert found, text[-400:]
    return html.unescape(found.group(1))


def codes(lines) -> set[str]:
    return {w for line in lines for w in CODE.findall(line) if w in POSTAL}


@pytest.mark.parametrize("name", STEPPED)
@needs_web
def test_a_replay_steps_through_a_record_of_every_game_to_its_end_and_back(name, tmp_path):
    record = record_of(name)
    entry, (game,) = stepped(record)
    views = entry.game.views
    c = client(tmp_path)
    loc = upload(c, record).headers["location"]
    total = len(game.moves) + 1  # every decision, then the end
    values = judged(entry, game)
    # what each seat's scene shows face up anywhere in the game: a card hidden from one seat
    # at a step is one another seat shows face up
    faces = {s: set() for s in range(entry.game.seats(game.rules))}
    for d, _ in game.moves:
        faces[d.seat] |= {x.code for x in views.scene(d).cards().values() if x.face_up and x.code}
    forward, hidden_checked = [], 0
    for n in range(1, total + 1):
        r = c.get(f"{loc}?step={n}")
        assert r.status_code == 200, r.text[-400:]
        text = html.unescape(r.text)
        assert f"step {n} of {total}" in text
        assert ('id="next"' in text) == (n < total) and ('id="prev"' in text) == (n > 1)
        if n == total:
            first = entry.game.seat_name(game.rules, 0)
            assert f"the end, as {first} saw it" in text and views.ending(game.played, 0)[-1] in text
            assert text.count('class="picture-map"') == len(views.pictures(game.played, 0))
            forward.append(r.text)
            break
        d, action = game.moves[n - 1]
        scene = views.scene(d)
        for card in scene.cards().values():  # the deciding seat's own scene, read-only
            assert f'data-id="{card.id}"' in r.text
            assert card.code is None or card.code in text
        assert 'id="confirm"' not in r.text and "<button" not in r.text.split("<main>")[1]
        assert f"{entry.game.seat_name(game.rules, d.seat)} played: <b>" in r.text
        if n - 1 in values:
            assert values[n - 1] in text
        # nothing of another seat's hidden cards: a code another seat holds face up that this
        # seat's view (its scene, screen, events, the move played, the judge) does not name
        mine = codes(views.screen(d) + views.events(d) + [r.text.split('id="played"')[1].split("</p>")[0]]
                     + [values.get(n - 1, "")]) | {x.code for x in scene.cards().values() if x.code}
        others = set().union(*(faces[s] for s in faces if s != d.seat)) - mine
        body = text.split("<main>")[1]
        leaked = {code for code in others if re.search(rf"\b{code}\b", body)}
        assert not leaked, f"step {n}: {sorted(leaked)} shown to {d.seat}"
        hidden_checked += len(others)
        forward.append(r.text)
    if any(not x.face_up for d, _ in game.moves for x in views.scene(d).cards().values()):
        assert hidden_checked > 0  # where cards lie face down, the check above looked at real ones
    for n in range(total, 0, -1):  # and back: each step as it was
        assert c.get(f"{loc}?step={n}").text == forward[n - 1]


@needs_web
def test_one_seats_steps_a_played_card_marked_and_the_oracles_value(tmp_path):
    record = record_of("ranks", 4)
    entry, (game,) = stepped(record)
    c = client(tmp_path)
    loc = upload(c, record).headers["location"]
    first = c.get(f"{loc}?seat=B").text
    b_moves = [i for i, (d, _) in enumerate(game.moves) if d.seat == 1]
    assert f"step 1 of {len(b_moves) + 1}" in first and "decision 1 of" in first and "B&#39;s" in first
    played = game.moves[b_moves[0]][1]
    card = f"hand-{POSTAL[played[0]]}"  # the discard played, marked on its card (a class the style sheet draws)
    assert re.search(rf'class="[^"]*mark-played[^"]*" data-id="{card}"', first)
    values = judged(entry, game)
    i = next(i for i in b_moves if i in values)
    page = c.get(f"{loc}?seat=B&step={b_moves.index(i) + 1}").text
    assert 'id="value"' in page and "oracle (sees both hands)" in html.unescape(page)
    for bad, words in [("seat=Z", "seat: 'Z' is not a seat"), ("step=0", "step: expected"),
                       ("step=999", "step: expected"), ("step=-1", "step: expected"), ("match=1", "match:")]:
        r = c.get(f"{loc}?{bad}")
        assert r.status_code == 400 and words in error_line(r.text), (bad, r.text[-300:])
    assert c.get("/replay/u/0123456789abcdef").status_code == 404
    assert c.get("/replay/x/0123456789abcdef").status_code == 400
    assert c.get("/replay/u/..%2F..%2Fetc").status_code == 404


@needs_web
def test_malformed_uploads_are_one_line_refusals(tmp_path):
    c = client(tmp_path)
    good = record_of("ranks")
    bad_move = json.loads(json.dumps(good))
    bad_move["tricks"] = [["ZZ", "size"]] if "tricks" in bad_move else 5
    cases = ["", "not json", "[1, 2]", '{"format": "geolab-record/1", "game": "nosuch"}',
             "[" * 5000 + "]" * 5000, '{"a": 1, "a": 2}', json.dumps(bad_move),
             json.dumps({"format": "geolab-records/1", "records": []}),
             json.dumps({"format": "geolab-records/1", "records": [{"label": "x", "record": good}], "rounds": 3})]
    if "toy-match" in registry.names():
        cases.append(json.dumps(record_of("toy-match")))
    for text in cases:
        r = upload(c, text, 400)
        line = error_line(r.text)
        assert "\n" not in line.strip() and "Traceback" not in r.text and len(line) < 400, line
    assert c.post("/replay", content=b"record=" + b"x" * 9_000_000,
                  headers={"content-type": "application/x-www-form-urlencoded"}).status_code == 413
    assert c.post("/replay", content=b"{}", headers={"content-type": "application/json"}).status_code == 400
    assert c.post("/replay", content=b"record=1&record=2",
                  headers={"content-type": "application/x-www-form-urlencoded"}).status_code == 400
    assert not (tmp_path / "replays").exists() or not list((tmp_path / "replays").iterdir())  # nothing kept


@needs_web
def test_a_web_games_end_page_opens_its_replay_and_a_state_iq_game_draws_its_clue_map(tmp_path):
    c = client(tmp_path)
    playing = start(c, "ranks", seed=3)
    r = c.get(playing.replace("/g/", "/replay/g/"))  # a game being played: no replay yet (the bot's hand)
    assert r.status_code == 400 and "not over" in error_line(r.text)
    assert playing.replace("/g/", "/replay/g/") not in c.get("/replay").text
    for seed in range(1, 12):  # a game whose clues named a border state
        loc = start(c, "state-iq", seed=seed)
        end = play_out(c, loc)
        if "picture-map" in end:
            break
    assert 'class="picture-map"' in end and "<svg" in end and "border states named as clues in blue" in end
    replay = re.search(r'href="(/replay/g/[0-9a-f]{16})" id="replay"', end).group(1)
    first = c.get(replay)
    assert first.status_code == 200 and "step 1 of" in first.text
    total = int(re.search(r"step 1 of (\d+)", first.text).group(1))
    last = c.get(f"{replay}?step={total}").text
    assert "the end, as A saw it" in html.unescape(last) and 'class="picture-map"' in last
    assert '<a href="/replay/g/' in c.get("/replay").text  # listed among the games played here


def tournament_file() -> dict:
    from geolab.games.combo1.offers import tournament as lab
    from geolab.games.combo1.tournament import TournamentRules

    rules = TournamentRules.preset("short")
    profiles = [lab.Profile(n, s) for n, s in [("Hawks", "team:speed=1.3"), ("Owls", "team"),
                                                ("Doves", "team:tricks=random")]]
    return json.loads(json.dumps(lab.saved(lab.reference(rules, profiles, 2), profiles, rules, 2)))


@needs_web
def test_the_tournament_page_lists_every_round_and_opens_every_match(tmp_path):
    book = tournament_file()
    c = client(tmp_path)
    loc = upload(c, book).headers["location"]
    assert loc.startswith("/tournament/")
    page = c.get(loc)
    assert page.status_code == 200
    text = html.unescape(page.text)
    for stage in book["rounds"]:
        assert stage["stage"][1:] in text
        for m in stage["matches"]:
            assert m["text"] in text  # the lab's own words: pairings, results, tie-breakers
    for team in book["teams"]:
        assert team["name"] in text and team["team"] in text
    for row in book["standings"]:
        assert "".join(f'<td data-label="{c}">{v}</td>' for c, v in row.items()) in text  # the lab's table
    assert book["final"]["text"] in text and book["points"] in text
    links = re.findall(r'href="(/replay/u/[0-9a-f]{16}\?match=(\d+))"', page.text)
    assert sorted(int(k) for _, k in links) == list(range(1, len(book["records"]) + 1))
    for href, _ in links:
        r = c.get(html.unescape(href))
        assert r.status_code == 200 and "Combo 1" in r.text and "step 1 of" in r.text, r.text[-300:]
        assert 'class="parts"' in r.text  # a match replays game by game
    assert c.get(html.unescape(links[0][0]).replace("match=1", "match=99")).status_code == 400


@needs_web
def test_in_the_browser_the_arrow_keys_step_and_the_back_button_returns(browser):  # noqa: F811 (the fixture)
    from selenium.webdriver.common.keys import Keys

    path = browser.folder / "chosen.json"
    path.write_text(json.dumps(record_of("ranks", 2)))
    browser.get(f"{browser.base}/replay")
    by(browser, "#file")[0].send_keys(str(path))  # the file chosen is read into the form
    wait_for(browser, lambda d: by(d, "#record")[0].get_attribute("value").startswith("{"))
    click(browser, by(browser, "#open")[0])
    assert "step 1 of" in by(browser, "#where")[0].text
    total = int(by(browser, "#where")[0].text.split()[-1])
    def press(key, n: int) -> None:
        before = by(browser, "html")[0]
        by(browser, "body")[0].send_keys(key)
        wait_for(browser, lambda d: stale(before) and at(d, n, total))
        assert browser.current_url.endswith(f"step={n}")  # the step is in the URL

    press(Keys.ARROW_RIGHT, 2)
    press(Keys.ARROW_RIGHT, 3)
    press(Keys.ARROW_LEFT, 2)
    browser.back()  # the browser's own back: the step before
    wait_for(browser, lambda d: at(d, 3, total))
    assert by(browser, ".card.mark-played")  # the move played is marked on its card


def at(driver, n: int, total: int) -> bool:
    where = by(driver, "#where")
    return bool(where) and where[0].text == f"step {n} of {total}"


def stale(element) -> bool:
    from selenium.common.exceptions import WebDriverException

    try:
        element.is_enabled()
        return False
    except WebDriverException:
        return True


def wait_for(driver, condition, timeout: float = 20) -> None:
    from selenium.webdriver.support.ui import WebDriverWait

    WebDriverWait(driver, timeout).until(condition)
