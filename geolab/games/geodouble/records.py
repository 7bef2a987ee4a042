"""GeoDouble match records: write any reference-engine match, replay and check any record.

A record holds the match's rounds, each: its race deals (``races``: A's and B's cards, every
deal before the last dealt again for want of a solution), the ``coin`` (who wins a tied race
and deals when it is void), the ``claims`` of the race (each seat's ``[claim, seconds]``: the
two groups laid down as two lists of three postal codes, ``"wrong"`` for a wrong claim, null
for none; absent where no race was run) and the ``stage``: a whole Play the Ranks record
without a result of its own (absent where the race ended the match). Replay steps the match's
reference engine with the record's claims and the stages' decisions, so every check is the
engine's own; each problem is one `RecordError` line that names the place
(``rounds[1].stage.trick 3: ...``).
"""

from __future__ import annotations

import numpy as np

from geolab.cards import POSTAL
from geolab.errors import RecordError
from geolab.game import Decision, record_choice, record_object, record_rules, replayed
from geolab.games.geodouble.reference import ENGINE, WRONG, Deal, Played, RoundDeal, Solution, deal_round
from geolab.games.geodouble.rules import Rules
from geolab.games.race import claim_record, read_claim, read_hand
from geolab.games.ranks import records as ranks_records
from geolab.games.ranks.reference import Game, Lead
from geolab.recorded import record_sides, replay_seats, written

GAME = "geodouble"
BODY_KEYS = ("rounds",)
ROUND_KEYS = ("races", "coin", "claims", "stage")
SIDES = ("A", "B")


# ----- writing ---------------------------------------------------------------------------------
def to_record(played: Played, seed: int | None = None, players=None) -> dict:
    rounds = []
    for r in played.rounds:
        entry: dict = {"races": [{SIDES[s]: [POSTAL[c] for c in hands[s]] for s in (0, 1)} for hands in r.race.races],
                       "coin": SIDES[r.race.coin]}
        if r.race.claims is not None:
            entry["claims"] = {SIDES[s]: claim_record(r.race.claims[s], WRONG, tuple) for s in (0, 1)}
        if r.stage is not None:
            entry["stage"] = ranks_records.to_record(r.stage, result=False)  # the match's result says it
        rounds.append(entry)
    return written(GAME, played, {"rounds": rounds}, report, seed, players)


def report(played: Played) -> dict:
    """What happened, as `geolab replay --json` prints it."""
    score = played.score
    return {
        "winner": None if played.winner is None else SIDES[played.winner],
        "score": {"A": score[0], "B": score[1]},
        "rounds_played": len(played.rounds),
        "race_winners": [None if r.race.winner < 0 else SIDES[r.race.winner] for r in played.rounds],
        "stage_winners": [None if r.stage is None or r.stage.winner is None else SIDES[r.stage.winner]
                          for r in played.rounds],
        "points": [list(r.points) for r in played.rounds],
    }


# ----- reading -----------------------------------------------------------------------------------
class _Round:
    """One round as the record tells it."""

    def __init__(self, entry, k: int, rules: Rules):
        where = f"rounds[{k}]"
        entry = record_object(entry, where, ROUND_KEYS, "a round")
        races = entry.get("races")
        if not isinstance(races, list) or not races:
            raise RecordError(f"{where}.races: expected the race deals")
        self.races = tuple(tuple(read_hand(record_sides(h, f"{where}.races[{i}]")[s], f"{where}.races[{i}].{s}")
                                 for s in SIDES) for i, h in enumerate(races))
        self.coin = SIDES.index(record_choice(entry.get("coin"), SIDES, f"{where}.coin", "'A' or 'B'"))
        self.claims = None
        if "claims" in entry:
            claims = record_sides(entry["claims"], f"{where}.claims")
            self.claims = {s: read_claim(claims[SIDES[s]], f"{where}.claims.{SIDES[s]}", WRONG, _solution,
                                         hand=self.races[-1][s]) for s in (0, 1)}
        self.stage: Game | None = None
        if "stage" in entry:
            if isinstance(entry["stage"], dict) and "result" in entry["stage"]:
                raise RecordError(f"{where}.stage.result: a stage holds no result (the match's result says what "
                                  "happened)")
            try:
                self.stage = replayed(entry["stage"], ranks_records.GAME, ranks_records.replay_game,
                                      ranks_records.report, ranks_records.BODY_KEYS)
            except RecordError as error:
                raise RecordError(f"{where}.stage.{error}") from None
            if self.stage.rules != rules.stage:
                raise RecordError(f"{where}.stage.rules: not the match's stage rules")
        self.where = where

    def deal(self, rules: Rules) -> RoundDeal:
        stage = self.stage.hands if self.stage is not None else _unplayed(rules).stage
        return RoundDeal(self.races, self.coin, stage)


def _solution(groups: list[tuple[int, ...]]) -> Solution:
    """A claim's two groups as the record lists them: the border group, then the capital group."""
    return Solution(groups[0], groups[1])


def _unplayed(rules: Rules) -> RoundDeal:
    """A round's cards where the record holds none (a round it never reaches, a stage never
    played): any cards of the right sizes."""
    return deal_round(rules, np.random.default_rng(0))


class _Recorded:
    """A seat that plays what the record says, and says where the record runs out."""

    def __init__(self, rounds: list[_Round], seat: int):
        self.rounds, self.seat = rounds, seat

    def act(self, decision: Decision):
        view = decision.observation
        if view.round >= len(self.rounds):
            raise RecordError(f"rounds: {len(self.rounds)} recorded, the match is not over")
        rnd = self.rounds[view.round]
        if decision.timed:
            if rnd.claims is None:
                raise RecordError(f"{rnd.where}.claims: missing; a race was run")
            return rnd.claims[self.seat]
        if rnd.stage is None:
            raise RecordError(f"{rnd.where}.stage: missing; the match went on to stage 2")
        game, stage = rnd.stage, view.stage
        if decision.kind == "discard":
            return tuple(sorted(game.discards[self.seat]))
        if decision.kind == "declare":
            return game.declarations[self.seat]
        if stage.trick >= len(game.tricks):
            raise RecordError(f"{rnd.where}.stage.tricks: {len(game.tricks)} recorded, the match plays on")
        trick = game.tricks[stage.trick]
        if decision.kind == "lead" and trick.leader != decision.seat:
            raise RecordError(f"{rnd.where}.stage: trick {stage.trick + 1} is led by {SIDES[trick.leader]}, but in the "
                              f"match {SIDES[decision.seat]} leads it (the race winner deals and leads first)")
        if decision.kind == "lead":
            return Lead(trick.lead, trick.category, trick.base)
        return trick.follow


def replay_game(record: dict) -> Played:
    """Parse and replay a record with the reference engine; any problem is a `RecordError`."""
    rules = record_rules(Rules, record)
    listed = record.get("rounds")
    if not isinstance(listed, list) or not listed:
        raise RecordError("rounds: expected the match's rounds")
    if len(listed) > rules.max_rounds:
        raise RecordError(f"rounds: {len(listed)} recorded, the rules play {rules.max_rounds} at most")
    rounds = [_Round(entry, k, rules) for k, entry in enumerate(listed)]
    padded = [r.deal(rules) for r in rounds] + [_unplayed(rules)] * (rules.max_rounds - len(rounds))
    played = replay_seats(ENGINE, rules, Deal(tuple(padded)), [_Recorded(rounds, s) for s in (0, 1)])
    for k, (mine, theirs) in enumerate(zip(played.rounds, rounds)):
        if (mine.race.claims is None) != (theirs.claims is None):
            raise RecordError(f"rounds[{k}].claims: no race was run (no deal held a solution)")
        if (mine.stage is None) != (theirs.stage is None):
            raise RecordError(f"rounds[{k}].stage: the race ended the match; there is no stage 2")
        if mine.stage is not None:
            if theirs.stage.first_lead != mine.stage.first_lead:
                raise RecordError(f"rounds[{k}].stage.first_lead: {SIDES[theirs.stage.first_lead]} given, but "
                                  f"{SIDES[mine.stage.first_lead]} deals")
            if len(theirs.stage.tricks) != len(mine.stage.tricks):
                raise RecordError(f"rounds[{k}].stage.tricks: not the tricks the match plays")
            mine.stage.discards = theirs.stage.discards  # the record's order
    if len(rounds) > len(played.rounds):
        raise RecordError(f"rounds[{len(played.rounds)}]: played after the match ended")
    return played
