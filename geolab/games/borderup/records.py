"""Border-Up records: write any reference-engine game, replay and check any record.

A record's body is ``deals``: each deal's hands (``{"A": [...], "B": [...]}``, postal codes in
card order; every deal before the last held no solution in either hand, so the cards were
dealt again), and ``claims`` where a race was run: each team's ``[claim, seconds]``, the claim
its two border groups as two lists of three postal codes (the smaller group first, each in
card order), ``"wrong"`` for a wrong claim (``{"wrong": [...]}`` with the cards it laid, where
they were kept), or null for none (`geolab.games.race.claim_record`).
Replay steps the reference engine with the record's claims, so every check is the engine's
own; each problem is one `RecordError` line that names the place (``claims.A: ...``). A record
has one form for one game (the orders above, seconds as real numbers), so an accepted record
is the record of the game it replays to.
"""

from __future__ import annotations

from geolab.cards import POSTAL
from geolab.errors import RecordError
from geolab.game import record_rules
from geolab.games.borderup.reference import ENGINE, SIDES, WRONG, Deal, Played, Solution, has_solution, solutions
from geolab.games.borderup.rules import Rules
from geolab.games.race import claim_record, read_claim, read_hand
from geolab.recorded import Scripted, record_sides, replay_seats, written

GAME = "border-up"
BODY_KEYS = ("deals", "claims")


# ----- writing ---------------------------------------------------------------------------------
def to_record(played: Played, seed: int | None = None, players=None) -> dict:
    body: dict = {"deals": [{SIDES[s]: [POSTAL[c] for c in hands[s]] for s in (0, 1)} for hands in played.deals]}
    if played.claims is not None:
        body["claims"] = {SIDES[s]: claim_record(played.claims[s], WRONG, tuple) for s in (0, 1)}
    return written(GAME, played, body, report, seed, players)


def report(played: Played) -> dict:
    """What happened, as `geolab replay --json` prints it."""
    last = played.deals[-1]
    return {
        "winner": None if played.winner < 0 else SIDES[played.winner],
        "outcome": played.outcome,
        "deals": len(played.deals),
        "solutions": {SIDES[s]: len(solutions(played.rules, last[s])) for s in (0, 1)},
        "first": [SIDES[s] for s in played.first],
    }


# ----- reading -----------------------------------------------------------------------------------
def _solution(groups: list[tuple[int, ...]]) -> Solution:
    """A claim's two groups as the record lists them, the smaller first (the one order written)."""
    first, second = groups
    if first >= second:
        raise RecordError(f"the smaller group comes first in a claim ({' '.join(POSTAL[c] for c in second)} before "
                          f"{' '.join(POSTAL[c] for c in first)}, in card order)")
    return Solution(first, second)


def _claims(record: dict, hands) -> dict | None:
    if "claims" not in record:
        return None
    claims = record_sides(record["claims"], "claims")
    out = {}
    for s, side in enumerate(SIDES):
        where = f"claims.{side}"
        try:
            out[s] = read_claim(claims[side], where, WRONG, _solution, hand=hands[s])
        except RecordError as error:
            text = str(error)
            raise RecordError(text if text.startswith(where) else f"{where}: {text}") from None
    return out


def replay_game(record: dict) -> Played:
    """Parse and replay a record with the reference engine; any problem is a `RecordError`."""
    rules = record_rules(Rules, record)
    listed = record.get("deals")
    if not isinstance(listed, list) or not listed:
        raise RecordError("deals: expected the game's deals (each {\"A\": [...], \"B\": [...]})")
    if len(listed) > rules.redeals + 1:
        raise RecordError(f"deals: {len(listed)} recorded, the rules deal at most {rules.redeals + 1} times")
    deals = []
    for k, entry in enumerate(listed):
        hands = record_sides(entry, f"deals[{k}]")
        deals.append(tuple(read_hand(hands[side], f"deals[{k}].{side}", rules.cards) for side in SIDES))
        both = set(deals[-1][0]) & set(deals[-1][1])
        if both:
            raise RecordError(f"deals[{k}]: {POSTAL[min(both)]} is dealt to both A and B")
        if k < len(listed) - 1 and has_solution(rules, deals[-1]):
            raise RecordError(f"deals[{k}]: a hand holds two border groups, so the cards are not dealt again")
    if not has_solution(rules, deals[-1]) and len(deals) <= rules.redeals:
        raise RecordError(f"deals[{len(deals) - 1}]: neither hand holds two border groups, so the cards are dealt "
                          f"again ({len(deals)} deals recorded)")
    claims = _claims(record, deals[-1])
    if claims is not None and not has_solution(rules, deals[-1]):
        raise RecordError("claims: no race was run (no deal held two border groups)")
    missing = "claims: missing; a race was run (a hand held two border groups)"
    teams = [Scripted([] if claims is None else [claims[s]], missing) for s in (0, 1)]
    # a claim the hand does not allow is named by the race
    return replay_seats(ENGINE, rules, Deal(tuple(deals)), teams,
                        lambda text: f"claims: {text}" if text.startswith("race") else text)

