"""Jumbled GeoPower Choice records: write reference games and traced batch games as
``geolab-record/1`` objects, and replay and check any record with the reference engine
(``docs/records-jumbled.md``).

`replay_game` turns a record into a played reference `Game` (the record's deal stepped on
the reference engine's state with the recorded decisions, each checked), `report` says what
happened in it, `to_record` writes a played game back; `replay_record` is all three checks at
once and returns the report.
"""

from __future__ import annotations

import numpy as np

from geolab.cards import CATEGORIES, POSTAL, category
from geolab.errors import IllegalActionError, RecordError
from geolab.game import envelope, record_cards, record_rules, replayed, shown
from geolab.games.jumbled.batch import GameBatch
from geolab.games.jumbled.reference import Deal, Engine, Game, RoundDeal, deck_order, illegal_reason
from geolab.games.jumbled.rules import CALLS, GAME, SEAT_LETTERS, Rules
from geolab.stepwise import State

#: The record's own top-level keys (besides the envelope's), a round's and a set's keys.
BODY_KEYS = ("rounds",)
ROUND_KEYS = ("dealer", "call", "deal", "sets")
SET_KEYS = ("plays", "geopower")


def _mask_cards(hand, mask: int) -> list[int]:
    return [int(hand[i]) for i in range(len(hand)) if mask >> i & 1]


def batch_to_records(rules: Rules, batch: GameBatch, games: list[int]) -> list[dict]:
    """geolab-record/1 objects for some games of a traced batch (cards by postal code)."""
    out = []
    for g in games:
        rounds = []
        for act, rnd, r in batch.trace:
            hit = np.flatnonzero(act == g)
            if not len(hit):
                continue
            i = int(hit[0])
            seats = range(rules.players)  # the round is over, so `turned` shows every set's card
            rounds.append({
                "dealer": SEAT_LETTERS[r % rules.players],
                "call": CALLS[int(rnd.calls[i])],
                "deal": {SEAT_LETTERS[p]: [POSTAL[c] for c in rnd.hands[i, p]] for p in seats},
                "sets": [
                    {"plays": {SEAT_LETTERS[p]: [POSTAL[c] for c in _mask_cards(rnd.hands[i, p],
                                                                                int(rnd.actions[i, s, p]))]
                               for p in seats},
                     "geopower": CATEGORIES[int(rnd.turned[i, s])]}
                    for s in range(rules.sets_per_round)
                ],
            })
        w = int(batch.winner[g])
        record = envelope(GAME, rules.to_spec(), {"rounds": rounds})
        record["result"] = {"winner": rules.team_name(w) if w >= 0 else None, "finished": True,
                            "scores": {SEAT_LETTERS[p]: int(batch.scores[g, p]) for p in range(rules.players)},
                            "rounds_played": len(rounds)}
        out.append(record)
    return out


def to_record(game: Game) -> dict:
    """The record of a reference game (finished or not), with its ``result``: winner,
    finished, scores and rounds played."""
    rules = game.rules
    seats = range(rules.players)
    rounds = [{
        "dealer": SEAT_LETTERS[r % rules.players],
        "call": CALLS[rnd.call],
        "deal": {SEAT_LETTERS[p]: [POSTAL[c] for c in rnd.hands[p]] for p in seats},
        "sets": [{"plays": {SEAT_LETTERS[p]: [POSTAL[c] for c in st.plays[p]] for p in seats},
                  "geopower": CATEGORIES[st.category]} for st in rnd.sets],
    } for r, rnd in enumerate(game.rounds)]
    full = report(game)
    record = envelope(GAME, rules.to_spec(), {"rounds": rounds})
    record["result"] = {k: full[k] for k in ("winner", "finished", "scores", "rounds_played")}
    return record


def _known_keys(where: str, obj: dict, keys) -> None:
    for key in obj:
        if key not in keys:
            raise RecordError(f"{where} unknown key {shown(key)} (it holds {', '.join(keys)})")


def _seat_map(where: str, obj, rules: Rules) -> list:
    letters = SEAT_LETTERS[: rules.players]
    if not isinstance(obj, dict):
        raise RecordError(f"{where}: expected an object keyed by seat letters {', '.join(letters)}")
    extra = sorted(set(obj) - set(letters))
    if extra:
        raise RecordError(f"{where}: unknown seat {extra[0]!r} (seats are {', '.join(letters)})")
    missing = [s for s in letters if s not in obj]
    if missing:
        raise RecordError(f"{where}: seat {missing[0]} is missing")
    return [obj[s] for s in letters]


def _record_deck(rules: Rules, where: str, turned: list[int]) -> tuple[int, ...]:
    """A GeoPower deck order that turns exactly the recorded cards, or a RecordError."""
    D = rules.deck_size
    first = turned[: min(D, len(turned))]
    left = list(rules.geopower_deck)
    for s, c in enumerate(first):
        if left[c] == 0:
            raise RecordError(f"{where} set {s + 1}: a {CATEGORIES[c]} GeoPower card was turned more often than the "
                              "deck holds")
        left[c] -= 1
    for s in range(D, len(turned)):
        if turned[s] != turned[s - D]:
            raise RecordError(f"{where} set {s + 1}: the reused GeoPower deck must turn {CATEGORIES[turned[s - D]]} "
                              "again")
    return deck_order(rules, first)


def _round_deal(rules: Rules, r: int, rd) -> RoundDeal:
    """Round r of a record up to its plays (dealer, call, deal, the GeoPower cards turned),
    checked, as the round's deal; a RecordError names the first problem."""
    where = f"round {r + 1}:"
    if not isinstance(rd, dict):
        raise RecordError(f"{where} expected an object")
    _known_keys(where, rd, ROUND_KEYS)
    dealer = SEAT_LETTERS[r % rules.players]  # the deal passes left
    if rd.get("dealer", dealer) != dealer:
        raise RecordError(f"{where} dealer is {dealer} (the deal passes left), record says {shown(rd.get('dealer'))}")
    if not isinstance(rd.get("call"), str) or rd.get("call") not in rules.calls:
        raise RecordError(f"{where} call must be one of {', '.join(rules.calls)}, got {shown(rd.get('call'))}")
    hands = [record_cards(h, f"{where} deal {SEAT_LETTERS[p]}")
             for p, h in enumerate(_seat_map(f"{where} deal", rd.get("deal"), rules))]
    seen = {}
    for p, h in enumerate(hands):
        if len(h) != rules.cards_dealt:
            raise RecordError(f"{where} deal: {SEAT_LETTERS[p]} holds {len(h)} cards, expected {rules.cards_dealt}")
        for c in h:
            if c in seen:
                raise RecordError(f"{where} deal: {POSTAL[c]} is dealt twice ({seen[c]} and {SEAT_LETTERS[p]})")
            seen[c] = SEAT_LETTERS[p]
    sets = rd.get("sets")
    if not isinstance(sets, list) or len(sets) != rules.sets_per_round:
        raise RecordError(f"{where} sets: expected a list of {rules.sets_per_round} sets")
    turned = []
    for s, st in enumerate(sets):
        if not isinstance(st, dict):
            raise RecordError(f"{where} set {s + 1}: expected an object with plays and geopower")
        _known_keys(f"{where} set {s + 1}:", st, SET_KEYS)
        if not isinstance(st.get("geopower"), str) or st["geopower"] not in CATEGORIES:
            raise RecordError(f"{where} set {s + 1}: geopower must be one of {', '.join(CATEGORIES)}, "
                              f"got {shown(st.get('geopower'))}")
        turned.append(category(st["geopower"]))
    return RoundDeal(tuple(tuple(h) for h in hands), _record_deck(rules, where, turned))


def replay_game(record: dict) -> Game:
    """The reference game a Jumbled record describes, every deal and decision checked (its
    ``result`` is not: see `replay_record`). Raises `RecordError` with one line naming the
    place of the first problem, in the order play meets them: a round's problem only once
    the rounds before it are played and the game goes on."""
    if not isinstance(record, dict):
        raise RecordError(f"record: expected a JSON object, got {type(record).__name__}")
    rules = record_rules(Rules, record)
    rounds = record.get("rounds")
    if not isinstance(rounds, list) or not rounds:
        raise RecordError("rounds: expected a non-empty list of rounds")
    fixed, problem = [], None
    for r, rd in enumerate(rounds):
        try:
            fixed.append(_round_deal(rules, r, rd))
        except RecordError as error:
            problem = error
            break
    state = State(Engine(), rules, Deal(0, tuple(fixed), stop_after=len(fixed)))
    laid = []  # each set's plays as recorded: a record may list a seat's cards in any order
    for r, rd in enumerate(rounds):
        where = f"round {r + 1}:"
        if state.is_over() and state.played.over:
            raise RecordError(f"{where} the game was already over after round {r}")
        if r == len(fixed):
            raise problem
        state.apply({r % rules.players: rd["call"]})
        hands = fixed[r].hands
        for s, st in enumerate(rd["sets"]):
            plays = [tuple(record_cards(x, f"{where} set {s + 1} {SEAT_LETTERS[p]}"))
                     for p, x in enumerate(_seat_map(f"{where} set {s + 1} plays", st.get("plays"), rules))]
            try:
                state.apply({p: _dealt_order(hands[p], cards) for p, cards in enumerate(plays)})
            except IllegalActionError:  # refused: say why, in the rule's words
                for p, cards in enumerate(plays):
                    view = state.observe(p)
                    why = illegal_reason(rules, s, view.hand, view.left, cards)
                    if why is not None:
                        raise RecordError(f"{where} set {s + 1}: {SEAT_LETTERS[p]} {why}") from None
                raise
            laid.append(plays)
    game = state.played
    for x, plays in zip((x for rnd in game.rounds for x in rnd.sets), laid):
        x.plays = plays
    return game


def _dealt_order(hand, cards: tuple[int, ...]) -> tuple[int, ...]:
    """A recorded choice in the order its cards were dealt, as the engine lists choices."""
    slot = {c: i for i, c in enumerate(hand)}
    return tuple(sorted(cards, key=lambda c: slot.get(c, -1)))


def report(game: Game) -> dict:
    """What happened in a reference game, JSON-ready: winner (a team name, or None while
    nobody has won or after a draw), finished, scores, team_scores, rounds_played and per
    round the dealer, the call, each set's winners and totals, and the points."""
    rules = game.rules
    rounds = [{
        "dealer": SEAT_LETTERS[r % rules.players], "call": CALLS[rnd.call],
        "set_winners": [[SEAT_LETTERS[w] for w in x.winners] for x in rnd.sets],
        "totals": [{SEAT_LETTERS[p]: t for p, t in enumerate(x.totals)} for x in rnd.sets],
        "points": {SEAT_LETTERS[p]: v for p, v in enumerate(rnd.points())},
    } for r, rnd in enumerate(game.rounds)]
    return {
        "winner": None if game.winner in (None, -1) else rules.team_name(game.winner),
        "finished": game.over,
        "scores": {SEAT_LETTERS[p]: v for p, v in enumerate(game.scores)},
        "team_scores": {rules.team_name(t): v for t, v in enumerate(game.team_scores())},
        "rounds_played": len(game.rounds),
        "rounds": rounds,
    }


def replay_record(record: dict) -> dict:
    """Validate a Jumbled record with the reference engine, check its claimed ``result``, and
    report what happened. Raises `RecordError` with one line naming the place of the first
    problem."""
    return report(replayed(record, GAME, replay_game, report, BODY_KEYS))
