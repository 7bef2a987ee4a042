"""Issue 34, races after the race: what a race teaches once it is over (both clocks, the bot's
claim, the hand's solutions from the exact finder, why a wrong claim failed, the hand on a
map), a wrong claim's cards kept in records and sessions, the opponent levels, and the fit of
a person's race speed to their own timed claims (`geolab race-fit`)."""

from __future__ import annotations

import json

import numpy as np
import pytest

from geolab import registry
from geolab.cards import POSTAL, card
from geolab.cli import main
from geolab.errors import RecordError
from geolab.games.borderup import records as bu_records
from geolab.games.borderup.reference import ENGINE as BU
from geolab.games.borderup.reference import WRONG, Deal, solutions
from geolab.games.borderup.rules import Rules as BURules
from geolab.games.borderup.views import VIEWS as BU_VIEWS
from geolab.games.dashing.reference import ENGINE as DS
from geolab.games.dashing.reference import Deal as DSDeal
from geolab.games.dashing.reference import Row, Said
from geolab.games.dashing.rules import Rules as DSRules
from geolab.games.dashing.views import VIEWS as DS_VIEWS
from geolab.games.race import LEVELS, RaceModel, fit_speed
from geolab.lab.racefit import Races
from geolab.stepwise import Claim, play


def cards(text: str) -> tuple[int, ...]:
    return tuple(sorted(card(c) for c in text.split()))


#: A holds AL GA MS / DE MD WV among others; B's hand too holds solutions.
A_HAND = cards("AL GA MS DE MD WV AK HI ME FL OR NV ID IA KS ND SD NE")
B_HAND = cards("AZ AR CO CT IL LA MI MO NJ NC PA TX UT VT VA WI OK NM")


class Seat:
    def __init__(self, answer):
        self.answer = answer

    def act(self, decision):
        return self.answer(decision)


def typed(text: str, seconds: float):
    """A person's claim as the play loop makes it: the views read the words, and keep the
    cards a wrong claim laid."""
    def answer(decision):
        action = BU_VIEWS.parse(decision, text)
        return Claim(action, seconds, BU_VIEWS.laid(decision, action, text))
    return answer


def first(seconds: float):
    return lambda d: Claim(d.legal[0], seconds)


def border_up(a, b):
    return play(BU, BURules(), Deal(((A_HAND, B_HAND),)), [Seat(a), Seat(b)])


def test_border_up_after_the_race_won_lost_and_wrong():
    won = border_up(typed("AL GA MS / DE MD WV", 9.5), first(20.0))
    lines = BU_VIEWS.ending(won, 0)
    assert "The clock: you: called at 9.5 s; B: would have called at 20.0 s." in lines
    assert any(line.startswith("B's claim would have been ") for line in lines)  # the bot's claim, never made
    count = len(solutions(BURules(), A_HAND))
    assert f"Your hand held {count} solutions; the first 3:" in lines and lines[-1] == "You won: your groups hold."
    lost = border_up(first(30.0), first(12.0))
    lines = BU_VIEWS.ending(lost, 0)
    assert "The clock: you: would have called at 30.0 s; B: called at 12.0 s." in lines
    assert lines[-1] == "You lost: B's groups hold first."
    wrong = border_up(typed("AL GA AK / DE MD WV", 4.0), first(12.0))
    lines = BU_VIEWS.ending(wrong, 0)
    assert "You called GeoPlunge at 4.0 s with a wrong claim: AL AK GA / DE MD WV." in lines
    assert "  AL AK GA: only AL and GA border; AK borders neither." in lines  # which group fails and why
    assert lines[-1] == "You lost: your claim was wrong."
    six = border_up(typed("AK HI ME FL OR NV", 4.0), first(12.0))
    assert "  No three of AK FL HI ME NV OR are a border group." in BU_VIEWS.ending(six, 0)
    for played, maps in ((won, 1), (lost, 1), (wrong, 2)):  # the hand's groups, and a wrong claim's cards
        pictures = BU_VIEWS.pictures(played, 0)
        assert len(pictures) == maps and all(p.svg.startswith("<svg") and "<title>" in p.svg for p in pictures)
    assert "AL GA MS / DE MD WV" in BU_VIEWS.pictures(won, 0)[0].caption
    assert "(red)" in BU_VIEWS.pictures(wrong, 0)[1].caption


def test_a_wrong_claims_cards_round_trip_through_a_record_and_old_records_still_read():
    wrong = border_up(typed("AL GA AK / DE MD WV", 4.0), first(12.0))
    record = bu_records.to_record(wrong)
    assert record["claims"]["A"] == [{"wrong": [["AL", "AK", "GA"], ["DE", "MD", "WV"]]}, 4.0]
    again = bu_records.replay_game(json.loads(json.dumps(record)))
    assert again.claims[0].laid == wrong.claims[0].laid and bu_records.to_record(again) == record
    old = json.loads(json.dumps(record))
    old["claims"]["A"] = ["wrong", 4.0]  # before cards were kept (and a bot's wrong claim)
    assert bu_records.replay_game(old).claims[0] == Claim(WRONG, 4.0)
    for laid, words in (([["DE", "MD", "WV"], ["AL", "AK", "GA"]], "smaller group comes first"),
                        ([["AL", "AK", "TX"], ["DE", "MD", "WV"]], "TX is not in the team's hand"),
                        ([["AK", "AL"]], "two lists of three postal codes or one of six")):
            bad = json.loads(json.dumps(record))
            bad["claims"]["A"] = [{"wrong": laid}, 4.0]
            with pytest.raises(RecordError, match=words) as error:
                bu_records.replay_game(bad)
            assert "\n" not in str(error.value) and str(error.value).startswith("claims.A")


# ----- Dashing States -------------------------------------------------------------------------
#: A's five Map cards in the order dealt: Ohio, Nevada, Texas, Alabama, Maine (card numbers are
#: in alphabetical order of state name, so 4 2 1 3 is a correct row: AL, NV, OH, TX).
DS_HANDS = (tuple(card(c) for c in "OH NV TX AL ME".split()), tuple(card(c) for c in "UT IA KY GA NY".split()))


def dashing(order_a, seconds_a, order_b, seconds_b):
    def seat(order, seconds):
        def answer(d):
            if d.timed:
                return Claim(Row(order), seconds)
            view = d.observation
            c = view.hand[view.own.action.order[view.place]]
            return Said(c, c)
        return Seat(answer)
    return play(DS, DSRules(), DSDeal(DS_HANDS), [seat(order_a, seconds_a), seat(order_b, seconds_b)])


def test_dashing_after_the_race_won_lost_and_wrong():
    won = dashing((3, 4, 1, 0), 6.0, (3, 1, 2, 4), 9.0)  # AL ME NV OH: in order
    lines = DS_VIEWS.ending(won, 0)
    assert "The clock: you: called at 6.0 s; B: would have called at 9.0 s." in lines
    assert any(line.startswith("Your cards in alphabetical order: 4 Alabama, 5 Maine, 2 Nevada, 1 Ohio,")
               for line in lines) and lines[-1] == "You won: your claim holds."
    lost = dashing((3, 4, 1, 0), 12.0, (3, 1, 2, 4), 5.0)
    assert DS_VIEWS.ending(lost, 0)[-1] == "B won: B's claim holds."
    wrong = dashing((3, 1, 0, 4), 6.0, (3, 1, 2, 4), 9.0)  # AL NV OH ME: Maine out of order
    text = " ".join(" ".join(DS_VIEWS.ending(wrong, 0)).split())  # wrapped lines joined
    assert "card 5, Maine, comes before card 1, Ohio" in text and DS_VIEWS.ending(wrong, 0)[-1] == \
        "B won: your claim is wrong."
    late = dashing((0, 1, 2, 3), 12.0, (3, 1, 2, 4), 5.0)  # a row the table never judged
    assert "Your row, never judged, was out of order: card 2, Nevada, comes before card 1, Ohio." in \
        " ".join(" ".join(DS_VIEWS.ending(late, 0)).split())
    for played in (won, lost, wrong):
        (picture,) = DS_VIEWS.pictures(played, 0)
        assert picture.svg.startswith("<svg") and "1 Ohio" in picture.caption


# ----- opponent levels ----------------------------------------------------------------------
def test_levels_build_for_every_race_game_and_are_ordered_on_the_same_hands():
    rng = np.random.default_rng(0)
    k = rng.integers(0, 80, 200)
    specs = {"border-up": "racer:level={}", "geodouble": "player:level={}", "dashing-states": "team:race={}",
             "combo1": "team:level={}"}
    for game, spec in specs.items():
        entry = registry.get(game)
        means = []
        for level in LEVELS:
            bot = entry.bots.make(spec.format(level), entry.game.Rules())
            model = bot.games[0].race_model if game == "combo1" else bot.race_model
            means.append(float(np.mean(model.mean_seconds(18, k))))
        assert means[0] > means[1] > means[2], (game, means)
    # beginner is beatable by a newcomer: a median claim of 40-60 s on an 18-card Border-Up hand
    hands = registry.get("border-up").game
    assert hands is not None
    found = [len(solutions(BURules(), tuple(sorted(rng.choice(50, 18, replace=False))))) for _ in range(300)]
    seconds, _ = RaceModel.named("beginner").sample(np.random.default_rng(1), np.full(300, 18), np.array(found))
    assert 40 <= float(np.median(seconds[np.isfinite(seconds)])) <= 60
    with pytest.raises(Exception, match="level must be one of beginner, club, expert"):
        registry.get("border-up").bots.make("racer:level=nope", BURules())


# ----- the fit ----------------------------------------------------------------------------------
def test_the_fit_recovers_a_known_speed_within_its_interval_and_refuses_bad_input():
    rng = np.random.default_rng(11)
    for truth in (0.12, 0.5):
        k = rng.integers(1, 60, 60)
        seconds, _ = RaceModel(speed=truth).sample(rng, np.full(60, 18), k)
        deadline = rng.uniform(10, 90, 60)  # a rival's claim cuts some searches short: censored
        fitted = fit_speed(np.full(60, 18), k, np.minimum(seconds, deadline), seconds <= deadline)
        assert fitted.low < truth < fitted.high and fitted.low < fitted.speed < fitted.high
        assert fitted.claims + fitted.censored <= 60 and fitted.claims == int((seconds <= deadline).sum())
    with pytest.raises(ValueError, match="no timed claims"):
        fit_speed([18], [3], [20.0], [False])
    with pytest.raises(ValueError, match="one length"):
        fit_speed([18, 18], [3], [20.0], [True])
    with pytest.raises(ValueError, match="finite"):
        fit_speed([18], [3], [float("nan")], [True])


def test_race_fit_command_is_one_line_and_exit_2_without_claims_or_for_a_bad_file(tmp_path, capsys):
    assert main(["race-fit", "--folder", str(tmp_path)]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and "no timed claims of yours in 0 sessions" in err
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "geolab-session/1", "game": "border-up"}')
    assert main(["race-fit", str(bad)]) == 2
    err = capsys.readouterr().err.strip()
    assert "\n" not in err and err.startswith(f"geolab: error: {bad}")
    races = Races()
    assert races.sessions == 0 and POSTAL  # nothing read: nothing fitted


# ----- in the browser's server -----------------------------------------------------------------
def test_a_wrong_claim_posted_as_cards_is_kept_taught_on_the_end_page_and_fitted(tmp_path, capsys):
    """Border-Up at the web: six cards that are not two border groups, posted as the page posts
    them. The session logs their cards, the record keeps them, the end page says which group
    fails and draws the hand on a map, and `geolab race-fit` reads the claim from the folder."""
    pytest.importorskip("starlette")
    from itertools import combinations

    from test_web import client, length, over, start, to_race

    from geolab.games import groups
    from geolab.web.sessions import Store

    c = client(tmp_path)
    loc = start(c, "border-up", seed=3, bots="racer:level=beginner")
    text = to_race(c, loc)
    gid = loc.rsplit("/", 1)[1]
    page = Store(tmp_path).page(gid)
    hand = page.decision.observation.hand
    bad = next(g for g in combinations(hand, 3) if not groups.centers(g))
    rest = [x for x in hand if x not in bad][:3]
    ids = {cd.code: cd.id for cd in page.views.scene(page.decision).cards().values()}
    form = {"n": length(text), "cards": "|".join(",".join(ids[POSTAL[x]] for x in g) for g in (bad, rest))}
    assert c.post(loc + "/move", data=form, follow_redirects=False).status_code == 303
    session = json.loads((tmp_path / f"{gid}.json").read_text())
    (mine,) = [m for m in session["games"][0] if m[0] == session["you"]]
    assert mine[3] == "wrong claim" and len(mine) == 6 and set(mine[5].replace("/", " ").split()) == \
        {POSTAL[x] for x in (*bad, *rest)}
    end = c.get(loc).text
    assert over(end) and "Your claim " in end and "border" in end and end.count("<svg") >= 2
    record = json.loads((tmp_path / f"{gid}-1.record.json").read_text())
    claimed = record["claims"]["AB"[session["you"]]][0]
    assert isinstance(claimed, dict) and sorted(c for g in claimed["wrong"] for c in g) == \
        sorted(POSTAL[x] for x in (*bad, *rest))
    assert main(["race-fit", "--folder", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "from 1 timed claim" in out and "racer:speed=" in out
