"""State IQ records: write any reference-engine game, replay and check any record.

A record's body:

- ``cards``: each side's card, ``{"A": "TX", "B": "ME"}``;
- ``power``: the Power card turned, by its number 1-15 (``geolab/data/power_cards.csv``);
- ``draw``: the statehood draw, ``{"A": "OH", "B": "NY"}``, or ``first``: the first guessing
  side ("A" or "B") when it was given from outside (the tournament's Border-Up winner);
- ``phases``: each team's guessing, in order: ``{"guesser": "B", "clues": [...], "guesses":
  [...]}``, a clue before each guess: a letter (``"T"``), a border state (``"NH"``),
  ``"none"`` (no more border states) or null (no clue: AAA's third).

Replay steps the reference engine with the record's border clues and guesses, then checks
every clue the record writes against the clue the game gives; each problem is one
`RecordError` line that names the place (``phases[1].guesses[2]: ...``).
"""

from __future__ import annotations

from geolab.cards import POSTAL, POWER_DECK
from geolab.errors import RecordError
from geolab.game import CARD_OF, Decision, record_choice, record_rules, shown
from geolab.games.stateiq.reference import ENGINE, SIDES, STATES, Deal, Played
from geolab.games.stateiq.rules import Rules
from geolab.recorded import record_sides, replay_seats, written

GAME = "state-iq"
NAMES = ("A", "B")  # the sides as records write them
BODY_KEYS = ("cards", "power", "draw", "first", "phases")
PHASE_KEYS = ("guesser", "clues", "guesses")


# ----- writing ---------------------------------------------------------------------------------
def _sides(pair) -> dict:
    return {SIDES[s]: POSTAL[pair[s]] for s in (0, 1)}


def to_record(played: Played, seed: int | None = None, players=None) -> dict:
    deal = played.deal
    body: dict = {"cards": _sides(deal.cards), "power": deal.power + 1}
    if deal.first is not None:
        body["first"] = SIDES[deal.first]
    else:
        body["draw"] = _sides(deal.draw)
    body["phases"] = [{"guesser": SIDES[p.guesser], "clues": [None if c.label() == "-" else c.label() for c in p.clues],
                       "guesses": [POSTAL[g] for g in p.guesses]} for p in played.phases]
    return written(GAME, played, body, report, seed, players)


def report(played: Played) -> dict:
    """What happened, as `geolab replay --json` prints it."""
    return {
        "winner": None if played.winner is None else SIDES[played.winner],
        "first": SIDES[played.first],
        "clue_order": played.order,
        "found_in": {SIDES[s]: played.found(s) for s in (0, 1)},
        "guesses_made": {SIDES[p.guesser]: len(p.guesses) for p in played.phases},
    }


# ----- reading -----------------------------------------------------------------------------------
def _card(value, where: str) -> int:
    if not isinstance(value, str) or value not in CARD_OF:
        raise RecordError(f"{where}: unknown postal code {shown(value)}")
    return CARD_OF[value]


def _pair(value, where: str) -> tuple[int, int]:
    value = record_sides(value, where, SIDES)
    a, b = (_card(value[s], f"{where}.{s}") for s in SIDES)
    if a == b:
        raise RecordError(f"{where}: A and B hold the same card {POSTAL[a]}")
    return a, b


def _deal(record: dict) -> Deal:
    if "cards" not in record:
        raise RecordError("cards: missing")
    cards = _pair(record["cards"], "cards")
    power = record.get("power")
    if isinstance(power, bool) or not isinstance(power, int) or not 1 <= power <= len(POWER_DECK):
        raise RecordError(f"power: expected the Power card's number 1-{len(POWER_DECK)}, got {shown(power)}")
    if ("draw" in record) == ("first" in record):
        raise RecordError("draw: give either the statehood draw or the first guesser (first), not both or neither")
    if "first" in record:
        return Deal(cards, power - 1, None, NAMES.index(record_choice(record["first"], NAMES, "first", "'A' or 'B'")))
    draw = record_sides(record["draw"], "draw", SIDES)
    d = tuple(_card(draw[s], f"draw.{s}") for s in SIDES)
    if d[0] == d[1]:
        raise RecordError(f"draw: A and B drew the same card {POSTAL[d[0]]}")
    return Deal(cards, power - 1, (d[0], d[1]))


class _Phase:
    """One phase as the record tells it."""

    def __init__(self, entry, p: int):
        self.where = where = f"phases[{p}]"
        if not isinstance(entry, dict):
            raise RecordError(f"{where}: expected an object")
        for key in entry:
            if key not in PHASE_KEYS:
                raise RecordError(f"{where}: unknown key {shown(key)} (it holds {', '.join(PHASE_KEYS)})")
        for key in PHASE_KEYS:
            if key not in entry:
                raise RecordError(f"{where}.{key}: missing")
        self.guesser = NAMES.index(record_choice(entry["guesser"], NAMES, f"{where}.guesser", "'A' or 'B'"))
        clues, guesses = entry["clues"], entry["guesses"]
        if not isinstance(clues, list) or not all(c is None or isinstance(c, str) for c in clues):
            raise RecordError(f"{where}.clues: expected a list of clues (a letter, a postal code, 'none' or null)")
        if not isinstance(guesses, list):
            raise RecordError(f"{where}.guesses: expected a list of postal codes")
        self.clues = clues
        self.guesses = [_card(g, f"{where}.guesses[{k}]") for k, g in enumerate(guesses)]
        if len(clues) != len(guesses):
            raise RecordError(f"{where}: {len(clues)} clues for {len(guesses)} guesses (a clue comes before each "
                              "guess)")


class _Recorded:
    """A seat that plays what the record says, and says where the record runs out."""

    def __init__(self, phases: list[_Phase], seat: int):
        self.phases, self.seat = phases, seat

    def act(self, decision: Decision):
        view = decision.observation
        p = len(view.phases) - 1
        if p >= len(self.phases):
            raise RecordError(f"phases: {len(self.phases)} recorded, the game is not over")
        phase, now = self.phases[p], view.phases[p]
        if phase.guesser != now.guesser:
            raise RecordError(f"{phase.where}.guesser: the record says {SIDES[phase.guesser]}, but "
                              f"{SIDES[now.guesser]} guesses {'first' if p == 0 else 'second'}")
        k = len(now.guesses)
        if decision.kind == "guess":
            if k >= len(phase.guesses):
                raise RecordError(f"{phase.where}.guesses: {len(phase.guesses)} recorded, the phase goes on")
            return STATES[phase.guesses[k]]
        if k >= len(phase.clues):
            raise RecordError(f"{phase.where}.clues: {len(phase.clues)} recorded, the phase goes on")
        text = phase.clues[k]
        if text not in CARD_OF:
            raise RecordError(f"{phase.where}.clues[{k}]: clue {k + 1} is a border state {SIDES[1 - now.guesser]} "
                              f"names, got {shown(text)}")
        return STATES[CARD_OF[text]]


def replay_game(record: dict) -> Played:
    """Parse and replay a record with the reference engine; any problem is a `RecordError`."""
    rules = record_rules(Rules, record)
    deal = _deal(record)
    listed = record.get("phases")
    if not isinstance(listed, list) or not listed:
        raise RecordError("phases: expected the game's phases")
    if len(listed) > 2:
        raise RecordError(f"phases: {len(listed)} recorded, a game has 2")
    phases = [_Phase(entry, p) for p, entry in enumerate(listed)]
    played = replay_seats(ENGINE, rules, deal, [_Recorded(phases, s) for s in (0, 1)])
    if len(phases) > len(played.phases):
        raise RecordError(f"phases[{len(played.phases)}]: played after the game ended")
    for mine, theirs in zip(played.phases, phases):
        if len(theirs.guesses) > len(mine.guesses):
            why = "the card was found" if mine.found is not None else "the team could no longer win or tie"
            raise RecordError(f"{theirs.where}.guesses: {len(theirs.guesses)} recorded, the phase ended after "
                              f"{len(mine.guesses)} ({why})")
        for k, (clue, text) in enumerate(zip(mine.clues, theirs.clues)):
            want = None if clue.label() == "-" else clue.label()
            if text != want:
                raise RecordError(f"{theirs.where}.clues[{k}]: the record says {shown(text)}, the game gives "
                                  f"{shown(want)} ({clue.words()})")
    return played
