"""The human seat: shows only its side's view, asks again after every mistake."""

import io
import json

import numpy as np
import pytest

import geolab.games.ranks.batch as rb
from geolab.bots.ranks.human import HumanSeat
from geolab.bots.ranks.seats import GreedySeat
from geolab.cards import POSTAL
from geolab.cli import main
from geolab.games.ranks.reference import deal_one, play
from geolab.games.ranks.rules import Rules
from geolab.records import replay


def scripted(answers):
    out = io.StringIO()
    answers = iter(answers)
    return HumanSeat(read=lambda prompt: (out.write(prompt), next(answers))[1], output=out), out


def test_mistakes_are_refused_and_the_game_goes_on():
    rules = Rules.preset("battle2")
    deal = deal_one(rules, np.random.default_rng(3))
    hand = [POSTAL[c] for c in deal.hands[0]]
    # Leads are "CARD si 1" (size, base 1); follows the plain card; each preceded by a mistake.
    plays = [x for c in hand[1:] for x in ("oops", f"{c} s 1", f"{c} si 20", f"{c} si 1", c)]
    seat, out = scripted(["XX", hand[0], "maybe", "y", *plays])
    game = play(rules, deal.hands, [seat, GreedySeat()], None, None)
    text = out.getvalue()
    assert "unknown postal code 'XX'; try again" in text and "answer y or n; try again" in text
    assert game.discards[0] == (deal.hands[0][0],) and game.declarations[0] is True
    assert sum(game.tricks_won) == len(game.tricks) >= 5
    # The opponent's hand is never shown: none of B's unplayed cards appear in the transcript.
    unplayed_b = set(deal.hands[1]) - {t.lead for t in game.tricks} - {t.follow for t in game.tricks} - set(game.discards[1])
    assert not any(f" {POSTAL[c]} (" in text for c in unplayed_b)


@pytest.mark.parametrize("side", ["A", "B"])
def test_play_cli_writes_a_record_that_replays(side, tmp_path, monkeypatch, capsys):
    hand = [POSTAL[c] for c in rb.deal(Rules.combo1(), 11, 0, 1).hands[0, "AB".index(side)]]
    # Whatever is asked, offer each card in turn (as a lead "CARD p", as an answer "CARD").
    answers = iter([hand[0]] + [x for c in hand[1:] for x in (f"{c} p", c)])
    monkeypatch.setattr("builtins.input", lambda prompt="": next(answers))
    path = tmp_path / "game.json"
    assert main(["play", "ranks", "--seed", "11", "--side", side, "--bot", "counter", "--record", str(path)]) == 0
    assert "winner:" in capsys.readouterr().out
    record = json.loads(path.read_text())
    assert replay(record) == record["result"]
