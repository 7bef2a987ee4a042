"""Issue 34, races after the race: what a race teaches once it is over (both clocks, the bot's
claim, the hand's solutions from the exact finder, why a wrong claim failed, the hand on a
map), a wrong claim's cards kept in records and sessions, the opponent levels, and the fit of
a person's race speed to their own timed claims (`geolab race-fit`)."""

from __future__ import annotations

import html
import json

import numpy as np
import pytest

from geolab import registry
from geolab.cards import POSTAL, card
from geolab.cli import main
from geolab.errors import RecordError
from geolab.game import Decision
from geolab.games.borderup import records as bu_records
from geolab.games.borderup.reference import ENGINE as BU
from geolab.games.borderup.reference import WRONG, Deal, solutions
from geolab.games.borderup.rules import Rules as BURules
from geolab.games.borderup.views import VIEWS as BU_VIEWS
from geolab.games.combo1.game import GAME as COMBO1
from geolab.games.combo1.reference import deal_one as combo1_deal
from geolab.games.combo1.rules import Rules as Combo1Rules
from geolab.games.dashing.reference import ENGINE as DS
from geolab.games.dashing.reference import Deal as DSDeal
from geolab.games.dashing.reference import Row, Said
from geolab.games.dashing.rules import Rules as DSRules
from geolab.games.dashing.views import VIEWS as DS_VIEWS
from geolab.games.geodouble.reference import ENGINE as GD
from geolab.games.geodouble.reference import WRONG as GD_WRONG
from geolab.games.geodouble.reference import Deal as GDDeal
from geolab.games.geodouble.reference import RoundDeal
from geolab.games.geodouble.reference import solutions as gd_solutions
from geolab.games.geodouble.rules import Rules as GDRules
from geolab.games.geodouble.views import VIEWS as GD_VIEWS
from geolab.games.race import LEVELS, RaceModel, fit_speed
from geolab.lab.racefit import Races
from geolab.stepwise import Claim, State, play


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


def typed(text: str, seconds: float, views=BU_VIEWS):
    """A person's claim as the play loop makes it: the views read the words, and keep the
    cards a wrong claim laid."""
    def answer(decision):
        action = views.parse(decision, text)
        return Claim(action, seconds, views.laid(decision, action, text))
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


# ----- GeoDouble ------------------------------------------------------------------------------
#: A holds MD NC VA / ME NY TX (Augusta, Albany, Austin) among 7 solutions; B holds 13.
GD_A = cards("MD VA NC ME NY TX AL AK AZ CO DE FL HI ID IL IN IA KS")
GD_B = cards("AR CA CT GA KY LA MA MI MN MS MO MT NE NV NH NJ NM ND")


def gd_deal(*races) -> GDDeal:
    """A match's deal, one round a race deal (A's hand, B's), every stage dealt cards 0-15."""
    return GDDeal(tuple(RoundDeal((hands,), 0, (tuple(range(8)), tuple(range(8, 16)))) for hands in races))


def geodouble(a, b):
    """One race that ends the match (a target of 10: the race's points), so its story ends there."""
    rules = GDRules().replace(target=10, max_rounds=1)
    return play(GD, rules, gd_deal((GD_A, GD_B)), [Seat(a), Seat(b)])


def joined(lines) -> str:
    return " ".join(" ".join(lines).split())  # wrapped lines read as one text


def test_geodouble_after_the_race_won_lost_and_wrong_groups_named():
    won = geodouble(typed("MD VA NC / ME NY TX", 5.0, GD_VIEWS), first(20.0))
    lines = GD_VIEWS.ending(won, 0)
    assert "  The clock: you: called at 5.0 s; B: would have called at 20.0 s." in lines
    assert "  B's claim would have been AR KY MO / CA MN NM." in lines  # the bot's claim, never made
    found = gd_solutions(won.rules, GD_A)
    assert f"  Your hand held {len(found)} solutions; the first 3:" in lines and len(found) == 7
    assert "DE MD VA / ME NY TX (MD borders DE and VA; Augusta, Albany and Austin begin with A)" in joined(lines)
    lost = geodouble(first(30.0), first(12.0))
    lines = GD_VIEWS.ending(lost, 0)
    assert "  The clock: you: would have called at 30.0 s; B: called at 12.0 s." in lines
    assert not any("claim would have been" in line for line in lines)  # B's claim was made: told above
    wrong = geodouble(typed("MD VA NC / ME NY DE", 4.0, GD_VIEWS), first(12.0))  # Dover: a D among A's
    text = joined(GD_VIEWS.ending(wrong, 0))
    assert "Round 1, the race: You called GeoPlunge at 4.0 s with a wrong claim: DE ME NY / MD NC VA." in text
    assert "Your claim DE ME NY / MD NC VA was wrong: MD NC VA is a border group: VA borders MD and NC. " \
           "DE ME NY is no capital group: Augusta and Albany begin with A; Dover's D does not match." in text
    border = geodouble(typed("MD VA AK / ME NY TX", 4.0, GD_VIEWS), first(12.0))  # a border group failing
    assert "AK MD VA is no border group: only MD and VA border; AK borders neither. ME NY TX is a capital " \
           "group: Augusta, Albany and Austin begin with A." in joined(GD_VIEWS.ending(border, 0))
    six = geodouble(typed("AK HI FL CO ID KS", 4.0, GD_VIEWS), first(12.0))
    assert "No three of AK CO FL HI ID KS are a border group, nor a capital group (their capitals: Juneau, " \
           "Denver, Tallahassee, Honolulu, Boise, Topeka)." in joined(GD_VIEWS.ending(six, 0))
    overlap = geodouble(typed("MD VA NC ME NY AL", 4.0, GD_VIEWS), first(12.0))  # MD in both groups
    assert "Among AL ME MD NY NC VA the border groups are MD NC VA and the capital groups ME MD NY; each border " \
           "group shares a card with each capital group." in joined(GD_VIEWS.ending(overlap, 0))
    for played, maps in ((won, 1), (lost, 1), (wrong, 2)):  # the hand's groups, and a wrong claim's cards
        pictures = GD_VIEWS.pictures(played, 0)
        assert len(pictures) == maps and all(p.svg.startswith("<svg") and p.caption.startswith("Round 1, your")
                                             for p in pictures)
    assert "MD NC VA / ME NY TX (blue, green)" in GD_VIEWS.pictures(won, 0)[0].caption


def seat_zero(state: State, answer) -> Decision:
    """Step the state (every other seat: its first legal move; seat 0 too, until `answer`
    says stop) to the next decision of seat 0 that `answer` returns None for."""
    while not state.is_over():
        asked = state.decisions()
        mine = next((d for d in asked if d.seat == 0), None)
        if mine is not None and answer(mine) is None:
            return mine
        state.apply({d.seat: answer(d) if d.seat == 0 else Claim(d.legal[0], 12.0) if d.timed else d.legal[0]
                     for d in asked})
    raise AssertionError("the match ended first")


def pictures(scene) -> list:
    return [f for f in scene.facts if f.picture]


def test_geodouble_teaches_each_race_at_the_next_decision_and_never_during_the_next_race():
    rules = GDRules().replace(max_rounds=2)
    state = State(GD, rules, gd_deal((GD_A, GD_B), (A_HAND, B_HAND)))
    wrong = typed("MD VA NC / ME NY DE", 4.0, GD_VIEWS)
    d = seat_zero(state, lambda d: wrong(d) if d.timed and d.observation.round == 0 else None)
    assert not d.timed and d.kind == "discard"  # the race is over: stage 2's first decision
    events = GD_VIEWS.events(d)
    assert "  Your claim DE ME NY / MD NC VA was wrong:" in events and \
        "  The clock: you: called at 4.0 s; B: would have called at 12.0 s." in events
    maps = pictures(GD_VIEWS.scene(d))
    assert [f.text.split(":")[0] for f in maps] == ["Round 1, your hand on the map",
                                                     "Round 1, your wrong claim on the map"]
    later = seat_zero(state, lambda d: None if d.timed else d.legal[0])  # on to round 2's race
    assert later.observation.round == 1
    scene, events = GD_VIEWS.scene(later), GD_VIEWS.events(later)
    assert not pictures(scene) and sum(line.startswith("  The clock:") for line in events) == 1  # round 1's only
    words = joined(events) + " " + " ".join(f.text for f in scene.facts)
    assert not any(GD_VIEWS.label(later, a) in words for a in later.legal if a != GD_WRONG)  # no solution of round 2's


def test_combo1_teaches_each_race_at_the_next_games_table_and_not_at_a_race():
    rules = Combo1Rules(round="morning")  # Border-Up, State IQ, Dashing States, Play the Ranks
    state = State(COMBO1, rules, combo1_deal(rules, np.random.default_rng(3)))
    d = seat_zero(state, lambda d: None if d.observation.game == 1 else Claim(d.legal[0], 30.0) if d.timed
                  else d.legal[0])  # to State IQ, Border-Up over
    told = d.observation.told[-1]
    assert "The clock: you: would have called at 30.0 s; B: called at 12.0 s." in told.lines
    assert all(line in COMBO1.views.events(d) for line in told.lines)  # told at the keyboard too
    assert pictures(COMBO1.views.scene(d)) == list(told.facts) and told.facts[0].text.startswith("Your hand on")
    dashing_race = seat_zero(state, lambda d: None if d.timed else d.legal[0])
    assert dashing_race.observation.game == 2 and not pictures(COMBO1.views.scene(dashing_race))
    d = seat_zero(state, lambda d: None if d.observation.game == 3 else Claim(d.legal[0], 30.0) if d.timed
                  else d.legal[0])  # to Play the Ranks, Dashing States over
    (fact,) = pictures(COMBO1.views.scene(d))
    assert d.observation.past[-1].game == 2 and fact == d.observation.told[-1].facts[0]
    assert fact.text.startswith("Your Map cards: 1 ")  # Dashing States' own map, as its end page draws it


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


def test_the_page_after_a_race_teaches_it_folds_its_map_after_and_the_next_race_shows_none(tmp_path):
    """Mid-match races at the web: GeoDouble's first race is taught on the next page (the
    events and the hand on a map), the map is folded on the page after, and round 2's race page
    carries no map and nothing of its own hand's solutions; Combo 1's Border-Up is taught at
    the next game's first page."""
    pytest.importorskip("starlette")
    from test_web import claim_form, client, over, race, start, step, to_race

    from geolab.web.sessions import Store

    c = client(tmp_path)
    loc = start(c, "geodouble", seed=3, preset="short", bots="player:level=beginner")
    text = to_race(c, loc)
    assert Store(tmp_path).page(loc.rsplit("/", 1)[1]).decision.legal[0] != GD_WRONG  # a hand with a solution
    assert c.post(loc + "/move", data=claim_form(tmp_path, loc, text), follow_redirects=False).status_code == 303
    after = c.get(loc).text
    assert not race(after) and "The clock: you: called at " in after and "Your hand held " in after
    open_map = after.split('<details class="pictures">')[0]
    assert 'class="picture-map"' in open_map and "Round 1, your hand on the map" in open_map
    step(c, loc, after, use_hint=False)
    folded = c.get(loc).text
    assert "Round 1, your hand on the map" in folded.split('<details class="pictures">')[1]  # shown before: folded
    text = to_race(c, loc)
    page = Store(tmp_path).page(loc.rsplit("/", 1)[1])
    assert text is not None and page.decision.observation.round == 1
    words = html.unescape(text)
    assert "picture-map" not in words and words.count("The clock: ") == 1  # round 1's lesson, in the events
    assert not any(page.views.label(page.decision, a) in words for a in page.decision.legal if a != GD_WRONG)
    loc = start(c, "combo1", seed=3, preset="morning", bots="team:level=beginner")
    text = to_race(c, loc)
    assert "Border-Up" in text
    assert c.post(loc + "/move", data=claim_form(tmp_path, loc, text), follow_redirects=False).status_code == 303
    after = c.get(loc).text
    assert not over(after) and "State IQ" in after and "The clock: you: called at " in after
    assert "Your hand on the map" in after.split('<details class="pictures">')[0]
