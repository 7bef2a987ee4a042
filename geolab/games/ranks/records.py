"""Play the Ranks game records: write any reference-engine game, replay and check any record.

The format (the envelope every game shares, and this game's body) is in `docs/records.md`.
Replay steps the reference engine with the record's actions (the one driver, seats that read
their decisions from the record), so every legality check is the engine's own; each problem
becomes one `RecordError` line that names the place.
"""

from __future__ import annotations

from geolab.cards import CATEGORIES, POSTAL, POWER_DECK, category
from geolab.errors import GeolabError, RecordError
from geolab.game import RECORD_FORMAT as FORMAT
from geolab.game import (
    Decision,
    record_cards,
    record_choice,
    record_object,
    record_rules,
    record_whole,
    replayed,
    shown,
)
from geolab.games.ranks.reference import ENGINE, Deal, Game, Lead, View
from geolab.games.ranks.rules import SIDES, Rules
from geolab.recorded import record_sides, replay_seats

GAME = "play-the-ranks"
#: The record's own top-level keys (besides the envelope's): any other is refused.
BODY_KEYS = ("deal", "discards", "first_lead", "power_bases", "declarations", "tricks")
#: The keys of one trick.
TRICK_KEYS = ("leader", "lead", "category", "base", "follow")


def to_record(game: Game, result: bool = True) -> dict:
    """The JSON-ready record of a played game (with its `result`, unless asked not to)."""
    rules = game.rules
    record: dict = {
        "format": FORMAT,
        "game": GAME,
        "rules": rules.to_spec(),
        "deal": {SIDES[s]: [POSTAL[c] for c in game.hands[s]] for s in (0, 1)},
        "discards": {SIDES[s]: [POSTAL[c] for c in game.discards[s]] for s in (0, 1)},
    }
    if rules.first_lead == "given":
        record["first_lead"] = SIDES[game.first_lead]
    if game.power_bases is not None:
        record["power_bases"] = list(game.power_bases)
    if game.declarations is not None:
        record["declarations"] = {SIDES[s]: game.declarations[s] for s in (0, 1)}
    tricks = []
    for t in game.tricks:
        entry = {"lead": POSTAL[t.lead], "category": CATEGORIES[t.category]}
        if rules.base_mode == "lead":
            entry["base"] = t.base
        entry["follow"] = POSTAL[t.follow]
        tricks.append(entry)
    record["tricks"] = tricks
    if result:
        record["result"] = report(game)
    return record


def report(game: Game) -> dict:
    """What happened, as `geolab replay --json` prints it."""
    winner = game.winner
    won = game.tricks_won
    pts = game.points
    return {
        "winner": None if winner is None else SIDES[winner],
        "tricks_won": {"A": won[0], "B": won[1]},
        "trick_winners": [SIDES[w] for w in game.trick_winners],
        "tricks_played": len(game.tricks),
        "first_lead": SIDES[game.first_lead],
        "points": {"A": pts[0], "B": pts[1]},
    }


def _side_map(record: dict, key: str, required: bool = True) -> dict | None:
    value = record.get(key)
    if value is None:
        if required:
            raise RecordError(f"{key}: missing")
        return None
    return record_sides(value, key, SIDES)


def _side(value, where: str) -> int:
    return SIDES.index(record_choice(value, SIDES, where, "'A' or 'B'"))


class _RecordedSeat:
    """A seat (`geolab.game.Seat`) that plays what the record says, and says where the record
    runs out. A discard is a set: the engine takes it in card order, and `discarded` keeps
    the record's order for the game."""

    def __init__(self, record: dict, side: int):
        self.record, self.side, self.name = record, side, SIDES[side]
        self.discarded: tuple[int, ...] = ()

    def act(self, decision: Decision):
        return getattr(self, decision.kind)(decision.observation)

    def discard(self, view: View):
        self.discarded = tuple(record_cards(self.record["discards"][self.name], f"discards.{self.name}"))
        return tuple(sorted(self.discarded))

    def declare(self, view: View) -> bool:
        said = _side_map(self.record, "declarations")[self.name]
        if not isinstance(said, bool):
            raise RecordError(f"declarations.{self.name}: expected true or false")
        return said

    def _trick(self, view: View) -> dict:
        number = view.trick + 1
        tricks = self.record["tricks"]
        if view.trick >= len(tricks):
            raise RecordError(f"trick {number}: missing; the game is not over after {view.trick} trick(s)")
        return record_object(tricks[view.trick], f"trick {number}", TRICK_KEYS, "a trick")

    def lead(self, view: View) -> Lead:
        number = view.trick + 1
        entry = self._trick(view)
        if "leader" in entry and _side(entry["leader"], f"trick {number}.leader") != self.side:
            raise RecordError(f"trick {number}: {entry['leader']} led out of turn; {self.name} has the lead")
        for key in ("lead", "category"):
            if key not in entry:
                raise RecordError(f"trick {number}: missing {key!r}")
        lead_card = record_cards([entry["lead"]], f"trick {number}.lead")[0]
        try:
            cat = category(entry["category"] if isinstance(entry["category"], str) else shown(entry["category"]))
        except GeolabError as error:
            raise RecordError(f"trick {number}: {error}") from None
        base = entry.get("base")
        if "base" in entry:
            base = record_whole(base, f"trick {number}.base", 1, 50)  # a state's rank
        if base is not None and view.rules.base_mode != "lead":
            fixed = view.allowed_bases()[0]
            if base != fixed:
                raise RecordError(f"trick {number}: base {base!r} given, but these rules fix the base at {fixed}")
        if view.rules.base_mode == "lead" and base is None:
            raise RecordError(f"trick {number}: missing 'base' (the lead chooses it under these rules)")
        return Lead(lead_card, cat, view.allowed_bases()[0] if base is None else base)

    def follow(self, view: View) -> int:
        number = view.trick + 1
        entry = self._trick(view)
        if "follow" not in entry:
            raise RecordError(f"trick {number}: missing 'follow'")
        return record_cards([entry["follow"]], f"trick {number}.follow")[0]


def replay_game(record: dict) -> Game:
    """Parse and replay a record with the reference engine; any problem is a `RecordError`."""
    rules = record_rules(Rules, record)
    deal = _side_map(record, "deal")
    hands = [record_cards(deal[s], f"deal.{s}") for s in SIDES]
    _side_map(record, "discards")
    tricks = record.get("tricks")
    if not isinstance(tricks, list):
        raise RecordError("tricks: expected a list")
    if "declarations" in record and not rules.declarations:
        raise RecordError(f"declarations: rules {rules.name} have no declarations")
    first_lead = record.get("first_lead")
    if "first_lead" in record:
        first_lead = _side(first_lead, "first_lead")
    elif rules.first_lead == "given":
        raise RecordError(f"first_lead: missing (rules {rules.name} take the first lead from outside the deal)")
    power = record.get("power_bases")
    if rules.base_mode == "power":
        allowed = sorted({c.base for c in POWER_DECK})
        if not (isinstance(power, list) and len(power) == 2
                and all(not isinstance(b, bool) and isinstance(b, int) and b in allowed for b in power)):
            raise RecordError(f"power_bases: expected two Power-card bases from {allowed}")
    elif "power_bases" in record:
        raise RecordError(f"power_bases: rules {rules.name} do not use Power-card bases")
    seats = [_RecordedSeat(record, 0), _RecordedSeat(record, 1)]
    deal = Deal((tuple(hands[0]), tuple(hands[1])), None, None if power is None else tuple(power), first_lead)
    game = replay_seats(ENGINE, rules, deal, seats)
    game.discards = (seats[0].discarded, seats[1].discarded)
    if len(tricks) > len(game.tricks):
        raise RecordError(
            f"trick {len(game.tricks) + 1}: the game was over after {len(game.tricks)} tricks, "
            f"but the record has {len(tricks)}"
        )
    return game


def replay_record(record: dict) -> dict:
    """What a valid record's game did (`report`), its claimed `result` checked."""
    return report(replayed(record, GAME, replay_game, report, BODY_KEYS))
