"""Class GeoPower Double Choice game records: write a played game, replay and check any
record with the reference engine (docs/records-classroom.md).
"""

from __future__ import annotations

from geolab.cards import CATEGORIES, POSTAL
from geolab.errors import RecordError, RulesError
from geolab.game import envelope, json_equal, replayed, shown
from geolab.games.classroom.reference import GameLog, play
from geolab.games.classroom.rules import CALLS, Rules

GAME = "class-double-choice"
#: The record's own top-level keys (besides the envelope's), and a round's keys.
BODY_KEYS = ("rounds",)
ROUND_KEYS = ("stage", "call", "deal", "discards", "geopower")


def student_name(s: int) -> str:
    return f"S{s + 1}"


def to_record(log: GameLog, with_result: bool = True) -> dict:
    """A `geolab-record/1` object for one played game."""
    record = envelope(GAME, log.rules.to_spec(), {
        "rounds": [
            {
                "stage": r.stage,
                "call": CALLS[r.call],
                "deal": {student_name(s): [POSTAL[c] for c in h] for s, h in sorted(r.hands.items())},
                "discards": {student_name(s): POSTAL[c] for s, c in sorted(r.discards.items())},
                "geopower": CATEGORIES[r.category],
            }
            for r in log.rounds
        ],
    })
    if with_result:
        record["result"] = result(log)
    return record


def result(log: GameLog) -> dict:
    """A record's ``result``: the group winners (a list per group) and the champions."""
    names = lambda ss: [student_name(s) for s in ss]  # noqa: E731
    return {
        "group_winners": [names(w) for w in log.group_winners],
        "champions": names(log.champions),
    }


class RecordSource:
    """Replays a record's rounds, checking each against the rules; errors name the place."""

    def __init__(self, rules: Rules, rounds):
        if not isinstance(rounds, list):
            raise RecordError("rounds: expected a list of rounds")
        self.rules, self.rounds = rules, rounds
        self.names = {student_name(s): s for s in range(rules.students)}

    def _round(self, index, stage) -> dict:
        if index >= len(self.rounds):
            raise RecordError(f"rounds: round {index + 1} ({stage}) is missing")
        rnd = self.rounds[index]
        if not isinstance(rnd, dict):
            raise RecordError(f"round {index + 1}: expected an object")
        for key in rnd:
            if key not in ROUND_KEYS:
                raise RecordError(f"round {index + 1}: unknown key {shown(key)} (a round holds {', '.join(ROUND_KEYS)})")
        if rnd.get("stage") != stage:
            raise RecordError(f"round {index + 1}: stage should be {stage!r}, got {shown(rnd.get('stage'))}")
        return rnd

    def _student(self, index, name) -> int:
        if name not in self.names:
            raise RecordError(f"round {index + 1}: unknown student {shown(name)} (S1-S{self.rules.students})")
        return self.names[name]

    def call(self, index, stage):
        value = self._round(index, stage).get("call")
        if not isinstance(value, str) or value not in CALLS:
            raise RecordError(f"round {index + 1}: call {shown(value)} is not one of {', '.join(CALLS)}")
        if self.rules.call != "random" and value != self.rules.call:
            raise RecordError(f"round {index + 1}: call {value!r} but the rules fix {self.rules.call!r}")
        return CALLS.index(value)

    def deal(self, index, stage, decks):
        deal = self._round(index, stage).get("deal")
        if not isinstance(deal, dict):
            raise RecordError(f"round {index + 1}: deal must map students to cards")
        expected = {s for d in decks for s in d}
        got = {self._student(index, name) for name in deal}
        if got != expected:
            who = ", ".join(student_name(s) for s in sorted(got ^ expected))
            raise RecordError(f"round {index + 1}: the deal should be for {_names(expected)}; check {who}")
        hands = {}
        for deck in decks:
            holder = {}
            for s in deck:
                cards = deal[student_name(s)]
                if not isinstance(cards, list) or len(cards) != self.rules.dealt:
                    raise RecordError(f"round {index + 1}: {student_name(s)} must be dealt {self.rules.dealt} cards")
                hand = []
                for postal in cards:
                    c = _card(postal, f"round {index + 1}: {student_name(s)}")
                    if c in holder:
                        raise RecordError(f"round {index + 1}: {postal} dealt twice ({student_name(holder[c])} and {student_name(s)})")
                    holder[c] = s
                    hand.append(c)
                hands[s] = tuple(hand)
        self.hands = hands
        return hands

    def discard(self, index, student, hand, call, opponents):
        discards = self.rounds[index].get("discards")
        name = student_name(student)
        if not isinstance(discards, dict) or name not in discards:
            raise RecordError(f"round {index + 1}: {name}'s discard is missing")
        c = _card(discards[name], f"round {index + 1}: {name}")
        if c not in hand:
            raise RecordError(f"round {index + 1}: {name} discarded {discards[name]}, which is not in {name}'s hand")
        return c

    def geopower(self, index, stage):
        rnd = self.rounds[index]
        extra = set(rnd.get("discards", {})) - {student_name(s) for s in self.hands}
        if extra:
            raise RecordError(f"round {index + 1}: discards for students not in the round: {', '.join(sorted(extra))}")
        value = rnd.get("geopower")
        if not isinstance(value, str) or value not in CATEGORIES:
            raise RecordError(f"round {index + 1}: geopower {shown(value)} is not one of {', '.join(CATEGORIES)}")
        if self.rules.geopower[CATEGORIES.index(value)] == 0:
            raise RecordError(f"round {index + 1}: the GeoPower deck has no {value} card")
        return CATEGORIES.index(value)


def _names(students) -> str:
    return ", ".join(student_name(s) for s in sorted(students))


def _card(postal, place: str) -> int:
    """A postal code as `to_record` writes it (upper case), as a card number."""
    if not isinstance(postal, str) or postal not in POSTAL:
        raise RecordError(f"{place} holds {shown(postal)}, which is not a postal code")
    return POSTAL.index(postal)


def rules_of(record: dict) -> Rules:
    """A record's rules (a preset name or an object of fields); a problem is a RecordError."""
    try:
        return Rules.from_spec(record.get("rules", Rules.DEFAULT))
    except RulesError as error:
        text = str(error)
        raise RecordError(text if text.startswith("rules:") else f"rules: {text}") from None


def replay_game(record: dict) -> GameLog:
    """Replay a class-double-choice record with the reference engine, checking every round
    and the stated result; any problem is one RecordError line naming its place."""
    rules = rules_of(record)
    source = RecordSource(rules, record.get("rounds"))
    log = play(rules, source, source.discard)
    if len(source.rounds) > len(log.rounds):
        raise RecordError(f"round {len(log.rounds) + 1}: the game was over after round {len(log.rounds)}")
    stated = record.get("result")
    if stated is not None:
        if not isinstance(stated, dict):
            raise RecordError("result: expected an object")
        actual = result(log)
        for key, value in stated.items():
            if key not in actual:
                raise RecordError(f"result: unknown key {key!r} ({', '.join(actual)})")
            if not json_equal(value, actual[key]):
                raise RecordError(f"result: {key} is {shown(value)}, but the game gives {actual[key]}")
    return log


def report(log: GameLog) -> dict:
    """What happened, JSON-ready: the groups, every round's scores and winners, the group
    winners, the champions and how many Championship Rounds it took."""
    rules = log.rules
    return {
        "groups": [[student_name(s) for s in g] for g in rules.groups_of()],
        "rounds": [
            {
                "stage": r.stage,
                "call": CALLS[r.call],
                "geopower": CATEGORIES[r.category],
                "scores": {student_name(s): v for s, v in sorted(r.scores.items())},
                "winners": [student_name(s) for s in r.winners],
            }
            for r in log.rounds
        ],
        **result(log),
        "championship_rounds": log.championship_rounds,
    }


def replay_record(record: dict) -> dict:
    """Validate a class-double-choice record (envelope, body, result) with the reference
    engine; a JSON-ready report."""
    return report(replayed(record, GAME, replay_game, report, BODY_KEYS))
