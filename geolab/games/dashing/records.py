"""Dashing States records: write any reference-engine game, replay and check any record.

A record's body holds the ``hands`` (each team's Map cards by postal code, in the order dealt),
the ``claims`` (each team's ``[claim, seconds]``: the claim ``{"row": [codes left to right],
"face_down": true}``, or null for no shout, with the seconds it took or searched) and ``said``
(what each announcing team said, place by place: ``[state code, capital]``, null for nothing
named; only the teams that announced). So a record holds what was claimed, wrong claims
included, and the replay judges it again. Replay steps the reference engine with them, so
every check is the engine's own; each problem is one `RecordError` line that names the place
(``claims.A.row: ID is not one of A's cards``).
"""

from __future__ import annotations

from geolab.cards import CAPITALS, POSTAL
from geolab.errors import IllegalActionError, RecordError
from geolab.game import CARD_OF, record_cards, record_object, record_rules, shown
from geolab.games.dashing.reference import ENGINE, SIDES, Deal, Played, Row, Said, checked_hands, placed_cards
from geolab.games.dashing.rules import Rules
from geolab.games.race import read_seconds
from geolab.recorded import Scripted, record_sides, replay_seats, written
from geolab.stepwise import Claim

GAME = "dashing-states"
BODY_KEYS = ("hands", "claims", "said")
CAPITAL_OF = {name: c for c, name in enumerate(CAPITALS)}


# ----- writing ---------------------------------------------------------------------------------
def _claim(hand, claim: Claim) -> list:
    if claim.action is None:
        return [None, claim.seconds]
    row = claim.action
    return [{"row": [POSTAL[c] for c in placed_cards(hand, row)], "face_down": bool(row.face_down)}, claim.seconds]


def _said(said: Said) -> list:
    return [None if said.state is None else POSTAL[said.state],
            None if said.capital is None else CAPITALS[said.capital]]


def to_record(played: Played, seed: int | None = None, players=None) -> dict:
    body = {"hands": {SIDES[s]: [POSTAL[c] for c in played.hands[s]] for s in (0, 1)},
            "claims": {SIDES[s]: _claim(played.hands[s], played.claims[s]) for s in (0, 1)},
            "said": {SIDES[s]: [_said(x) for x in played.said[s]] for s in (0, 1) if played.said[s]}}
    return written(GAME, played, body, report, seed, players)


def report(played: Played) -> dict:
    """What happened, as `geolab replay --json` prints it: the winner (null: a tie), the first
    shout(s), each team's seconds (null: no shout) and, for each first shout, why its claim is
    wrong (null: correct)."""
    w = played.winner
    return {
        "winner": None if w is None else SIDES[w],
        "first": [SIDES[s] for s in played.first],
        "seconds": {SIDES[s]: None if c.action is None else c.seconds for s, c in enumerate(played.claims)},
        "faults": {SIDES[s]: played.fault(s) for s in played.first},
    }


# ----- reading -----------------------------------------------------------------------------------
def _parse_claim(value, hand: tuple[int, ...], rules: Rules, where: str) -> Claim:
    if not isinstance(value, list) or len(value) != 2:
        raise RecordError(f"{where}: expected [claim, seconds]")
    claim, seconds = value[0], read_seconds(value[1], where)
    if claim is None:
        return Claim(None, seconds)
    claim = record_object(claim, where, ("row", "face_down"), "a claim")
    if set(claim) != {"row", "face_down"}:
        raise RecordError(f"{where}: a claim is {{\"row\": [codes], \"face_down\": true or false}} or null, "
                          f"got {shown(claim)}")
    if not isinstance(claim["face_down"], bool):
        raise RecordError(f"{where}.face_down: expected true or false, got {shown(claim['face_down'])}")
    cards = record_cards(claim["row"], f"{where}.row")
    if len(cards) != rules.placed:
        raise RecordError(f"{where}.row: {len(cards)} cards, a row holds {rules.placed}")
    for c in cards:
        if c not in hand:
            raise RecordError(f"{where}.row: {POSTAL[c]} is not one of {where.split('.')[-1]}'s cards")
    if len(set(cards)) != len(cards):
        raise RecordError(f"{where}.row: a card is laid twice")
    return Claim(Row(tuple(hand.index(c) for c in cards), claim["face_down"]), seconds)


def _parse_said(value, where: str) -> Said:
    if not isinstance(value, list) or len(value) != 2:
        raise RecordError(f"{where}: expected [state code or null, capital or null]")
    state, capital = value
    if state is not None and (not isinstance(state, str) or state not in CARD_OF):
        raise RecordError(f"{where}: unknown postal code {shown(state)}")
    if capital is not None and (not isinstance(capital, str) or capital not in CAPITAL_OF):
        raise RecordError(f"{where}: {shown(capital)} is not a state capital")
    return Said(None if state is None else CARD_OF[state], None if capital is None else CAPITAL_OF[capital])


def replay_game(record: dict) -> Played:
    """Parse and replay a record with the reference engine; any problem is a `RecordError`."""
    rules = record_rules(Rules, record)
    hands_in = record_sides(record.get("hands"), "hands", SIDES)
    hands = tuple(tuple(record_cards(hands_in[side], f"hands.{side}")) for side in SIDES)
    claims_in = record_sides(record.get("claims"), "claims", SIDES)
    said_in = record.get("said", {})
    if not isinstance(said_in, dict) or not set(said_in) <= set(SIDES):
        raise RecordError("said: expected an object with keys A or B")
    deal = Deal((hands[0], hands[1]))
    try:
        checked_hands(rules, deal)
    except IllegalActionError as error:
        raise RecordError(str(error).replace("deal:", "hands:", 1)) from None
    claims = [_parse_claim(claims_in[side], hands[s], rules, f"claims.{side}") for s, side in enumerate(SIDES)]
    said: list[list[Said] | None] = [None, None]
    for s, side in enumerate(SIDES):
        if side in said_in:
            if not isinstance(said_in[side], list):
                raise RecordError(f"said.{side}: expected a list of [state, capital]")
            said[s] = [_parse_said(x, f"said.{side}[{i}]") for i, x in enumerate(said_in[side])]
    teams = [Scripted([claims[s], *(said[s] or ())], f"said.{side}: missing; {side} announces" if said[s] is None
                      else f"said.{side}: {len(said[s])} recorded, {side} announces {rules.placed}")
             for s, side in enumerate(SIDES)]
    played = replay_seats(ENGINE, rules, deal, teams)
    for s, side in enumerate(SIDES):
        if said[s] is not None and len(said[s]) != len(played.said[s]):
            if not played.said[s]:
                raise RecordError(f"said.{side}: {side} did not announce (only a first shout announces)")
            raise RecordError(f"said.{side}: {len(said[s])} recorded, {side} announces {len(played.said[s])}")
    return played
