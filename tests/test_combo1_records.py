"""Combo 1 match records: every preset's matches write and replay to the same record, and a
malformed record is refused in one line that names the place."""

from __future__ import annotations

import copy
import json

import numpy as np
import pytest

from geolab import registry
from geolab.cards import RANKS, STATEHOOD
from geolab.cli import main
from geolab.errors import RecordError
from geolab.game import CARD_OF
from geolab.games.combo1.rules import Rules

GAME = registry.get("combo1").game


def _record(preset: str | Rules, seed: int, specs=("team", "team:speed=1.5")) -> dict:
    entry = registry.get("combo1")
    rules = Rules.preset(preset) if isinstance(preset, str) else preset
    seats = [entry.seated(entry.bots.make(spec, rules), rules, np.random.default_rng([seed, s]))
             for s, spec in enumerate(specs)]
    played = GAME.play(rules, GAME.deal(rules, np.random.default_rng(seed)), seats)
    return json.loads(json.dumps(GAME.to_record(played)))


@pytest.fixture(scope="module")
def morning() -> dict:
    return _record("morning", 1)


@pytest.fixture(scope="module")
def afternoon() -> dict:
    return _record("afternoon", 2)


@pytest.mark.parametrize("preset", ["morning", "afternoon", "final", "playoff"])
def test_a_match_record_replays_to_itself(preset):
    for seed in range(2):
        record = _record(preset, seed)
        assert record["game"] == "combo1" and [g["game"] for g in record["games"]]
        assert ("draw" in record) == ("picks" in record) == (preset == "afternoon")
        assert all("result" not in g for g in record["games"])
        again = GAME.replay(copy.deepcopy(record))
        assert json.loads(json.dumps(GAME.to_record(again))) == record
        result = record["result"]
        assert len(result["games"]) == len(record["games"]) == result["games_played"]
        assert sum(g["counted"] and g["winner"] == "A" and not g["tiebreak"] for g in result["games"]) == \
            result["wins"]["A"]


def _refused(record: dict, words: str) -> str:
    with pytest.raises(RecordError) as error:
        GAME.replay(record)
    text = str(error.value)
    assert "\n" not in text and words in text, text
    return text


def _game(record: dict, kind: str) -> int:
    return next(k for k, g in enumerate(record["games"]) if g["game"] == kind)


def test_a_malformed_game_is_refused_naming_its_place(morning):
    bad = copy.deepcopy(morning)
    bad["games"][0] = "border-up"
    _refused(bad, "games[0]: expected a game's record")
    bad = copy.deepcopy(morning)
    bad["games"][0]["game"] = "geodouble"
    _refused(bad, "games[0].game: expected one of border-up, state-iq, dashing-states, play-the-ranks")
    bad = copy.deepcopy(morning)
    bad["games"][0]["result"] = {}
    _refused(bad, "games[0].result: a game of the match holds no result")
    k = _game(morning, "state-iq")
    bad = copy.deepcopy(morning)
    bad["games"][k]["phases"][0]["guesses"][0] = "XX"
    _refused(bad, f"games[{k}].phases[0].guesses[0]: unknown postal code 'XX'")
    bad = copy.deepcopy(morning)
    bad["games"][0]["rules"] = {"redeals": 5}
    _refused(bad, "games[0].rules: not the match's rules of Border-Up")


def test_games_out_of_the_matchs_order_or_number_are_refused(morning):
    bad = copy.deepcopy(morning)
    bad["games"][0], bad["games"][1] = bad["games"][1], bad["games"][0]
    _refused(bad, "games[0]: a State IQ game, but the match plays Border-Up here")
    bad = copy.deepcopy(morning)
    del bad["games"][-1]
    del bad["result"]
    _refused(bad, f"games: {len(bad['games'])} recorded, the match is not over")
    bad = copy.deepcopy(morning)
    bad["games"].append(copy.deepcopy(bad["games"][-4]))
    del bad["result"]
    _refused(bad, f"games[{len(morning['games'])}]: played after the match ended")
    bad = copy.deepcopy(morning)
    bad["games"] = []
    _refused(bad, "games: expected the match's games")


def _other(side: str) -> str:
    return "B" if side == "A" else "A"


def _mirrored(game: dict) -> dict:
    """A State IQ or Play the Ranks record with the sides swapped: a valid game of its own,
    whose first turn is the other side's."""
    game = copy.deepcopy(game)
    swap = ("cards", "first") if game["game"] == "state-iq" else ("deal", "discards", "first_lead")
    for key in swap:
        value = game[key]
        game[key] = _other(value) if isinstance(value, str) else {"A": value["B"], "B": value["A"]}
    for phase in game.get("phases", ()):
        phase["guesser"] = _other(phase["guesser"])
    return game


def test_a_first_turn_the_match_does_not_give_is_refused(morning):
    result = morning["result"]["games"]
    for kind, key, decider in (("state-iq", "first", "Border-Up"), ("play-the-ranks", "first_lead", "Dashing States")):
        k = _game(morning, kind)
        winner = result[k - 1]["winner"]
        assert winner is not None and morning["games"][k][key] == winner, "the fixture's deciding game is won"
        bad = copy.deepcopy(morning)
        bad["games"][k] = _mirrored(bad["games"][k])
        del bad["result"]
        _refused(bad, f"games[{k}].{key}: the record says {_other(winner)}, but {winner} won the {decider}")
    bad = copy.deepcopy(morning)
    k = _game(morning, "state-iq")
    bad["games"][k]["first"] = _other(bad["games"][k]["first"])  # the game itself then disagrees
    _refused(bad, f"games[{k}].phases[0].guesser: the record says")


def test_a_state_iq_given_its_first_guesser_where_the_match_draws_is_refused():
    record = _record("final", 3)
    assert record["games"][1]["game"] == "state-iq" and "first" in record["games"][1]
    record["games"][0]["claims"] = {"A": [None, 5.0], "B": [None, 5.0]}  # nobody claims: a tie
    del record["result"]
    _refused(record, "games[1].first: given, but no Border-Up winner gives it here: a statehood draw does")


def test_the_afternoons_draw_and_picks_are_checked(afternoon, morning):
    bad = copy.deepcopy(afternoon)
    del bad["draw"]
    _refused(bad, "draw: missing")
    bad = copy.deepcopy(afternoon)
    bad["draw"] = {"A": "TX", "B": "TX"}
    _refused(bad, "draw: A and B drew the same card TX")
    bad = copy.deepcopy(afternoon)
    bad["picks"] = ["ranks", "chess"]
    _refused(bad, "picks[1]: expected one of border-up, state-iq, dashing-states, ranks")
    bad = copy.deepcopy(afternoon)
    bad["picks"] = [bad["picks"][0]] * 2
    _refused(bad, "is not legal")
    bad = copy.deepcopy(morning)
    bad["picks"] = ["ranks", "border-up"]
    _refused(bad, "picks: only an afternoon match has one")


def test_the_claimed_result_and_the_envelope_are_checked(morning):
    bad = copy.deepcopy(morning)
    bad["result"]["wins"]["A"] += 1
    _refused(bad, "result.wins: the record says")
    bad = copy.deepcopy(morning)
    bad["result"]["games"][0]["seconds"] = 1.0
    _refused(bad, "result.games: the record says")
    bad = copy.deepcopy(morning)
    bad["rounds"] = []
    _refused(bad, "rounds: unknown key")
    bad = copy.deepcopy(morning)
    bad["rules"] = {"round": "evening"}
    _refused(bad, "rules: round must be one of")


def test_a_final_played_on_after_two_wins_and_a_tie_is_refused_unless_its_rules_say_literal():
    """A final recorded under the literal reading (game 3 not the tie, a fourth game played)
    replays under its own rules (early_stop=literal); under the default reading the fourth game
    comes after the final ended, and the line says which rules such a record needs."""
    for seed in range(40):
        record = _record(Rules(round="final", early_stop="literal"), seed)
        assert record["rules"] == {"preset": "final", "early_stop": "literal"}
        won = [g["winner"] for g in record["result"]["games"][:3]]
        if won[1] is None and won[0] == won[2] is not None and len(record["games"]) == 4:
            break
    else:
        pytest.fail("no final went win-tie-win")
    assert json.loads(json.dumps(GAME.to_record(GAME.replay(copy.deepcopy(record))))) == record
    old = copy.deepcopy(record)
    old["rules"] = "final"
    del old["result"]
    _refused(old, "games[3]: played after the final ended (two wins and a tie among its first three games end it, "
                  "early_stop=decided; a final played on with game 3 not the tie says so in its rules: "
                  "early_stop=literal)")


def test_play_the_ranks_keeps_the_statehood_draw_that_gave_its_first_lead(afternoon, morning):
    """No Dashing States before an afternoon's Play the Ranks: the statehood draw gives the
    first lead, and the record keeps it next to the lead; a lead the draw does not give, a
    missing draw, or a draw where Dashing States gave the lead, is refused in one line."""
    k = _game(afternoon, "play-the-ranks")
    entry = afternoon["games"][k]
    assert all(g["game"] != "dashing-states" for g in afternoon["games"][:k])
    assert list(entry)[list(entry).index("draw") + 1] == "first_lead"
    cards = [CARD_OF[entry["draw"][s]] for s in "AB"]
    lead = "A" if RANKS[cards[0], STATEHOOD] < RANKS[cards[1], STATEHOOD] else "B"
    assert entry["first_lead"] == lead and afternoon["result"]["games"][k]["first"] is None  # a draw, not a game
    bad = copy.deepcopy(afternoon)
    bad["games"][k] = _mirrored(entry)  # a whole game of its own, the other team leading, the draw kept
    del bad["result"]
    _refused(bad, f"games[{k}].first_lead: the record says {_other(lead)}, but the statehood draw "
                  f"(A {entry['draw']['A']} v B {entry['draw']['B']}) gives {lead}")
    bad = copy.deepcopy(afternoon)
    del bad["games"][k]["draw"]  # as a record made before the match kept the draw
    _refused(bad, f"games[{k}].draw: missing: no Dashing States winner gives the first lead here")
    bad = copy.deepcopy(afternoon)
    bad["games"][k]["draw"] = {"A": "TX"}
    _refused(bad, f"games[{k}].draw: expected the first lead's statehood draw, an object with keys A and B")
    k = _game(morning, "play-the-ranks")
    assert "draw" not in morning["games"][k] and morning["result"]["games"][k - 1]["winner"] is not None
    bad = copy.deepcopy(morning)
    bad["games"][k]["draw"] = {"A": "DE", "B": "PA"}
    _refused(bad, f"games[{k}].draw: no draw here: {morning['games'][k]['first_lead']} won the Dashing States")


@pytest.mark.parametrize("name", [["border-up"], {"game": "border-up"}, [], {}], ids=["list", "object", "[]", "{}"])
def test_a_game_name_that_is_a_list_or_an_object_is_one_line(morning, name, tmp_path, capsys):
    """Issue 37: a nested game's ``game`` was looked up in a dict unchecked (TypeError: unhashable)."""
    bad = copy.deepcopy(morning)
    bad["games"][0]["game"] = name
    _refused(copy.deepcopy(bad), "games[0].game: expected one of border-up, state-iq, dashing-states, play-the-ranks")
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(bad))
    assert main(["replay", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "games[0].game: expected one of" in err and "Traceback" not in err


def test_a_nested_game_without_rules_is_refused(morning):
    """Issue 37: a game of the match without ``rules`` was read under its default preset."""
    bad = copy.deepcopy(morning)
    del bad["games"][0]["rules"]
    _refused(bad, "games[0].rules: missing")
