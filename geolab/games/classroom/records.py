"""Class GeoPower Double Choice game records: write a played game, replay and check any
record with the reference engine (docs/records-classroom.md): a record's rounds are the log
of a `geolab.stepwise.State` stepped by chance, its events the chance outcomes, its discards
the students' answers.
"""

from __future__ import annotations

from geolab.cards import CATEGORIES, POSTAL
from geolab.errors import RecordError
from geolab.game import envelope, json_equal, record_rules, replayed, shown
from geolab.games.classroom.reference import CALL_OUTCOME, CATEGORY_OUTCOME, ENGINE, GameLog
from geolab.games.classroom.rules import CALLS, Rules, student_name
from geolab.stepwise import State

GAME = "class-double-choice"
#: The record's own top-level keys (besides the envelope's), and a round's keys.
BODY_KEYS = ("rounds",)
ROUND_KEYS = ("stage", "call", "deal", "discards", "geopower")


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


def _round(rounds: list, index: int, stage: str) -> dict:
    """Round `index` of the record, there and of the `stage` the game has reached."""
    if index >= len(rounds):
        raise RecordError(f"rounds: round {index + 1} ({stage}) is missing")
    rnd = rounds[index]
    if not isinstance(rnd, dict):
        raise RecordError(f"round {index + 1}: expected an object")
    for key in rnd:
        if key not in ROUND_KEYS:
            raise RecordError(f"round {index + 1}: unknown key {shown(key)} (a round holds {', '.join(ROUND_KEYS)})")
    if rnd.get("stage") != stage:
        raise RecordError(f"round {index + 1}: stage should be {stage!r}, got {shown(rnd.get('stage'))}")
    return rnd


def _one_of(rnd: dict, index: int, key: str, names: tuple[str, ...]) -> int:
    """A round's `key`, one of `names`, as its place among them."""
    value = rnd.get(key)
    if not isinstance(value, str) or value not in names:
        raise RecordError(f"round {index + 1}: {key} {shown(value)} is not one of {', '.join(names)}")
    return names.index(value)


def _hands(rules: Rules, rnd: dict, index: int, decks) -> dict[int, tuple[int, ...]]:
    """The round's deal: exactly the students the game deals to, `rules.dealt` postal codes
    each, no card twice in one deck."""
    deal = rnd.get("deal")
    if not isinstance(deal, dict):
        raise RecordError(f"round {index + 1}: deal must map students to cards")
    names = {student_name(s): s for s in range(rules.students)}
    got = set()
    for name in deal:
        if name not in names:
            raise RecordError(f"round {index + 1}: unknown student {shown(name)} (S1-S{rules.students})")
        got.add(names[name])
    expected = {s for d in decks for s in d}
    if got != expected:
        who = ", ".join(student_name(s) for s in sorted(got ^ expected))
        raise RecordError(f"round {index + 1}: the deal should be for {_names(expected)}; check {who}")
    hands = {}
    for deck in decks:
        holder = {}
        for s in deck:
            cards = deal[student_name(s)]
            if not isinstance(cards, list) or len(cards) != rules.dealt:
                raise RecordError(f"round {index + 1}: {student_name(s)} must be dealt {rules.dealt} cards")
            hand = []
            for postal in cards:
                c = _card(postal, f"round {index + 1}: {student_name(s)}")
                if c in holder:
                    raise RecordError(f"round {index + 1}: {postal} dealt twice ({student_name(holder[c])} and "
                                      f"{student_name(s)})")
                holder[c] = s
                hand.append(c)
            hands[s] = tuple(hand)
    return hands


def _discards(rnd: dict, index: int, hands, contests) -> dict[int, int]:
    """Every student's discard, a card of its hand, in the order the game asks them."""
    discards = rnd.get("discards")
    out = {}
    for s in (s for contest in contests for s in contest):
        name = student_name(s)
        if not isinstance(discards, dict) or name not in discards:
            raise RecordError(f"round {index + 1}: {name}'s discard is missing")
        c = _card(discards[name], f"round {index + 1}: {name}")
        if c not in hands[s]:
            raise RecordError(f"round {index + 1}: {name} discarded {discards[name]}, which is not in {name}'s hand")
        out[s] = c
    extra = set(discards) - {student_name(s) for s in hands}
    if extra:
        raise RecordError(f"round {index + 1}: discards for students not in the round: {', '.join(sorted(extra))}")
    return out


def round_log(rules: Rules, rounds: list, index: int, plan) -> list:
    """Round `index` of a record, checked in the order it is played (the call, the deal,
    the discards, the GeoPower card) against `plan` (`Rules.next_round`: who the game deals
    to), as the `geolab.stepwise.State` log entries that play it."""
    stage, decks, contests = plan
    rnd = _round(rounds, index, stage)
    call = _one_of(rnd, index, "call", CALLS)
    if rules.call != "random" and CALLS[call] != rules.call:
        raise RecordError(f"round {index + 1}: call {CALLS[call]!r} but the rules fix {rules.call!r}")
    hands = _hands(rules, rnd, index, decks)
    discards = _discards(rnd, index, hands, contests)
    category = _one_of(rnd, index, "geopower", CATEGORIES)
    if rules.geopower[category] == 0:
        raise RecordError(f"round {index + 1}: the GeoPower deck has no {CATEGORIES[category]} card")
    said = [("chance", CALL_OUTCOME + call)] if rules.call == "random" else []
    dealt = [("chance", c) for deck in decks for s in deck for c in hands[s]]
    return [*said, *dealt, ("ask", discards), ("chance", CATEGORY_OUTCOME + category)]


def _names(students) -> str:
    return ", ".join(student_name(s) for s in sorted(students))


def _card(postal, place: str) -> int:
    """A postal code as `to_record` writes it (upper case), as a card number."""
    if not isinstance(postal, str) or postal not in POSTAL:
        raise RecordError(f"{place} holds {shown(postal)}, which is not a postal code")
    return POSTAL.index(postal)


def replay_state(record: dict) -> State:
    """A class-double-choice record stepped on the reference engine: each round read and
    checked when the game reaches it (`round_log`), its chance outcomes and discards applied to
    the state; any problem is one RecordError line naming its place."""
    rules = record_rules(Rules, record)
    rounds = record.get("rounds")
    if not isinstance(rounds, list):
        raise RecordError("rounds: expected a list of rounds")
    state = ENGINE.state(rules)
    history: tuple = ()
    while (plan := rules.next_round(history)) is not None:
        for kind, value in round_log(rules, rounds, len(history), plan):
            if kind == "ask":
                state.apply(value)
            else:
                state.apply_chance(value)
        history = state.observe(0).history
    return state


def replay_game(record: dict) -> GameLog:
    """Replay a class-double-choice record with the reference engine (`replay_state`),
    checking every round and the stated result; any problem is one RecordError line naming
    its place."""
    log = replay_state(record).played
    rounds = record["rounds"]
    if len(rounds) > len(log.rounds):
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
