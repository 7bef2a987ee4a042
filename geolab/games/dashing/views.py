"""Dashing States at the keyboard (`geolab.game.Views`): the race and the announcement, for
`geolab play dashing-states`.

**The Map cards.** A page that shows pictures draws each card as a small map of the United
States with its state in red (`scene`'s Map cards: `geolab.maps.state_map`, the states' real outlines).
A terminal gets one map in characters drawn from the same outlines (`card_map`): card n's state
is filled with the digit n, every other state's land is dots, Alaska and Hawaii at the lower
left as on the drawn map. Recognising a state from its shape and place is the race; neither
the screen, the pictures' titles nor the help names a card's state, and the hand is shown in
the order dealt, never sorted (cards are numbered in alphabetical order).

**The race** (``claim``, a timed decision). The person types the card numbers left to right,
``3 1 5 2``: the card left out is turned face-down; ``3 1 5 2 face-up`` leaves it face-up (a
wrong claim, but one a person can make). ``pass`` (read by the play loop) is no claim. The
clock runs from the moment the map is shown; a bot's shout before the Enter ends the race.

**The announcement** (``announce``, one a place, not timed: the text has it after the shout).
The person names the state and the capital of each card of the row, left to right: ``ID
Boise`` or ``Idaho Boise`` (a postal code or a name, then the capital), ``?`` for one not
known. A word that is not a state or a capital is a `MoveError` (a judge would ask "which?"),
so a typo is caught rather than judged.

**The story** (`events`, `ending`): who shouted first and when, the rows laid (by card number:
the names are the teams' to say), every announcement as it is made; the ending adds each first
claim's cards and why it holds or not, and the verdict.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence

from geolab.cards import CAPITALS, NAMES, POSTAL
from geolab.common.text import WIDTH, fit, wrapped
from geolab.game import Decision, MoveError, Views, typed_number
from geolab.games.dashing.reference import (
    SIDES,
    Played,
    Row,
    Said,
    View,
    final_view,
    placed_cards,
    row_fault,
    unused,
)
from geolab.games.race_views import FIRST, clock_line, hand_map
from geolab.maps import state_map, text_map
from geolab.scene import Card, Fact, Picture, Pile, Race, Scene, hidden
from geolab.scene import moves as scene_moves
from geolab.stepwise import Claim

MAP_COLUMNS = 72  # the character map's width; indented by MAP_INDENT, it fits the 79 of a screen
MAP_INDENT = "  "
FACE_UP = ("face-up", "faceup", "up")
FACE_DOWN = ("face-down", "facedown", "down")
UNKNOWN = ("?", "none", "-")
ORDINAL = ("1st", "2nd", "3rd", "4th", "5th", "6th", "7th")
CAPITAL_OF = {c.lower(): i for i, c in enumerate(CAPITALS)}
STATE_OF = {n.lower(): i for i, n in enumerate(NAMES)}


# ----- small pieces of text -----------------------------------------------------------------
def card_map(hand: Sequence[int]) -> list[str]:
    """The map in characters with card n (1-based, in the order dealt) filled with the digit
    n, every other state's land as dots (`geolab.maps.text_map`)."""
    marks = {POSTAL[c]: str(n) for n, c in enumerate(hand, start=1)}
    return [(MAP_INDENT + line).rstrip() for line in text_map(marks, MAP_COLUMNS)]


def map_card(hand: Sequence[int], n: int, selectable: bool = False, marks=()) -> Card:
    """Map card n (0-based, in the order dealt) as a scene's card: face up, its picture a small
    map of the United States with its state in red (`geolab.maps.state_map`), titled by its
    number only; its word the number a claim types; never its state's name."""
    title = f"Map card {n + 1}: a state in red on a map of the United States"
    return Card(f"map-{n + 1}", selectable=selectable, marks=tuple(marks), word=str(n + 1), kind="map",
                picture=state_map(POSTAL[hand[n]], title=title))


def _who(seat: int, me: int, capital: bool = False) -> str:
    return ("You" if capital else "you") if seat == me else SIDES[seat]


def _seconds(s: float) -> str:
    return f"{s:.1f} s"


def _cards(row: Row) -> str:
    return " ".join(str(p + 1) for p in row.order)


def _left_out(rules, row: Row) -> str:
    out = [str(p + 1) for p in unused(rules, row)]
    card = f"card{'s' if len(out) > 1 else ''} {' '.join(out)}"
    return f"{card} {'face-down' if row.face_down else 'left face-up'}"


def row_label(row: Row) -> str:
    """A row as a person types it: ``3 1 5 2`` (the card left out face-down), or ``3 1 5 2
    face-up``."""
    return _cards(row) + ("" if row.face_down else " face-up")


def said_label(said: Said, capitals: bool = True) -> str:
    """An announced place as a person types it: ``ID Boise``, ``? ?`` for nothing named."""
    state = "?" if said.state is None else POSTAL[said.state]
    if not capitals:
        return state
    return f"{state} {'?' if said.capital is None else CAPITALS[said.capital]}"


def said_words(said: Said, capitals: bool = True) -> str:
    """An announced place in words: ``Idaho, Boise``."""
    state = "no state" if said.state is None else NAMES[said.state]
    if not capitals:
        return state
    return f"{state}, {'no capital' if said.capital is None else CAPITALS[said.capital]}"


def _ordinal(k: int) -> str:
    return ORDINAL[k] if k < len(ORDINAL) else f"{k + 1}th"


# ----- the story -----------------------------------------------------------------------------
def story(view: View) -> list[str]:
    """Every public happening so far as seat `view.seat` saw it: the shouts, then each
    announced place (A's before B's)."""
    rules, me = view.rules, view.seat
    if not view.settled:
        return []
    out = []
    if not view.shouts:
        out.append("Nobody shouted GeoPlunge.")
    elif len(view.shouts) == 2:
        out.append(f"You and {SIDES[1 - me]} shouted GeoPlunge at the same time, {_seconds(view.shouts[0].seconds)}.")
    else:
        shout = view.shouts[0]
        out.append(f"{_who(shout.seat, me, True)} shouted GeoPlunge first, at {_seconds(shout.seconds)}.")
    for shout in view.shouts:
        if shout.seat == me:
            out.append(f"  You laid cards {_cards(shout.row)}, {_left_out(rules, shout.row)}.")
        else:  # the other team's card numbers mean nothing here: its cards are its own
            rest = "face-down" if shout.row.face_down else "left face-up"
            out.append(f"  {SIDES[shout.seat]} laid {len(shout.row.order)} cards, the rest {rest}.")
    if me not in [s.seat for s in view.shouts]:
        own = view.own
        if own.action is None:
            out.append(f"  You did not shout (you searched {_seconds(own.seconds)}).")
        elif view.shouts:
            out.append(f"  Your shout, at {_seconds(own.seconds)}, came too late.")
    capitals = rules.announce == "capitals"
    for k in range(max(len(view.said[0]), len(view.said[1]))):
        for s in (0, 1):
            if k < len(view.said[s]):
                row = next(x.row for x in view.shouts if x.seat == s)
                card = f", card {row.order[k] + 1}" if s == me else ""
                out.append(f"  {_who(s, me, True)}, {_ordinal(k)}{card}: {said_words(view.said[s][k], capitals)}.")
    return out


def judgement(played: Played, seat: int, me: int) -> list[str]:
    """A first claim's cards revealed and why it holds or not."""
    rules = played.rules
    hand, row = played.hands[seat], played.claims[seat].action
    who = _who(seat, me, True)
    cards = placed_cards(hand, row)
    if rules.announce == "capitals":
        truth = ", ".join(f"{NAMES[c]} ({CAPITALS[c]})" for c in cards)
    else:
        truth = ", ".join(NAMES[c] for c in cards)
    head = "Your row:" if seat == me else f"{who}'s row:"
    out = wrapped(f"{head} {truth}.")
    fault = played.fault(seat)
    said = played.said[seat]
    if fault == "face-up":
        left = ", ".join(NAMES[hand[p]] for p in unused(rules, row))
        out += wrapped(f"  The unused card ({left}) was left face-up: a wrong claim.")
    elif fault == "order":
        out += wrapped(f"  That is not alphabetical order: {out_of_order(rules, hand, row)}: a wrong claim.")
    elif fault == "state":
        k = next(k for k, (x, c) in enumerate(zip(said, cards)) if x.state != c)
        named = "no state" if said[k].state is None else NAMES[said[k].state]
        out += wrapped(f"  The {_ordinal(k)} card is {NAMES[cards[k]]}, named as {named}: a wrong claim.")
    elif fault == "capital":
        k = next(k for k, (x, c) in enumerate(zip(said, cards)) if x.capital != c)
        named = "no capital" if said[k].capital is None else CAPITALS[said[k].capital]
        out += wrapped(f"  {NAMES[cards[k]]}'s capital is {CAPITALS[cards[k]]}, not {named}: a wrong claim.")
    else:
        what = {"none": "in alphabetical order", "names": "in alphabetical order, every state named",
                "capitals": "in alphabetical order, every state and capital named"}[rules.announce]
        if seat in played.first and len(played.first) == 2 and not played.judged(seat) and rules.announce != "none":
            what = "in alphabetical order (at the same time, the row alone is judged)"
        out += wrapped(f"  {what[0].upper() + what[1:]}: the claim holds.")
    return out


def out_of_order(rules, hand: Sequence[int], row: Row) -> str:
    """Where a row breaks alphabetical order: the first card that comes before its left
    neighbour in the alphabet (``"card 5, Nevada, comes before card 1, Ohio"``)."""
    cards = placed_cards(hand, row)
    for k in range(1, len(cards)):
        if cards[k] < cards[k - 1]:
            a, b = row.order[k] + 1, row.order[k - 1] + 1
            return f"card {a}, {NAMES[cards[k]]}, comes before card {b}, {NAMES[cards[k - 1]]}"
    return "the order goes neither up nor down"  # pragma: no cover - an order fault has a pair out of order


def lesson(played: Played, me: int) -> list[str]:
    """After the race: both clocks, the person's cards in alphabetical order (every correct row
    is `placed` of them in this order), and what was wrong with a row of theirs the table never
    judged (it came after the first shout)."""
    rules = played.rules
    hand = played.hands[me]
    out = [clock_line(me, SIDES, played.claims, played.first)]
    own = played.claims[me].action
    if own is not None and me not in played.first:
        fault = row_fault(rules, hand, own)
        if fault == "order":
            out += wrapped(f"Your row, never judged, was out of order: {out_of_order(rules, hand, own)}.")
        elif fault == "face-up":
            out += wrapped("Your row, never judged, left its unused card face-up: a wrong claim.")
    sorted_hand = sorted(range(len(hand)), key=lambda p: hand[p])
    words = ", ".join(f"{p + 1} {NAMES[hand[p]]}" for p in sorted_hand)
    either = " (or the reverse)" if rules.either_direction else ""
    out += wrapped(f"Your cards in alphabetical order: {words}; any {rules.placed} of them in this order{either} was "
                   f"a correct row (for example {' '.join(str(p + 1) for p in sorted_hand[:rules.placed])}).")
    return out


def verdict(played: Played, me: int) -> list[str]:
    w, first = played.winner, played.first
    them = SIDES[1 - me]
    if not first:
        return ["A tie: nobody shouted."]
    if len(first) == 2:
        if w is None:
            both = "both claims hold" if played.fault(0) is None else "both claims are wrong"
            return [f"A tie: you shouted at the same time and {both}."]
        return ["You won: only your claim holds." if w == me else f"{them} won: only {them}'s claim holds."]
    if w == me:
        return ["You won: your claim holds." if first == (me,) else f"You won: {them}'s claim is wrong."]
    return [f"{them} won: {them}'s claim holds." if first == (1 - me,) else f"{them} won: your claim is wrong."]


# ----- the views ----------------------------------------------------------------------------
class DashingViews(Views):
    """`geolab.game.Views` for Dashing States: ``claim`` (the race), then ``announce``."""

    def screen(self, decision: Decision) -> list[str]:
        view: View = decision.observation
        rules, them = view.rules, SIDES[1 - view.seat]
        n = rules.cards
        if decision.timed:
            lines = wrapped(f"Dashing States: your {n} Map cards are the states drawn 1-{n} on this map of the "
                            "states' outlines (two insets at the lower left):", indent=0)
            lines += card_map(view.hand)
            lines += wrapped(f"Lay {rules.placed} in alphabetical order of state name, the rest face-down, and "
                             f"shout: type the card numbers left to right (e.g. '{self._example(rules)}'). "
                             f"{them} is racing too.", indent=0)
            then = {"none": "", "names": "Then you name each card's state. ",
                    "capitals": "Then you name each card's state and capital. "}[rules.announce]
            lines += wrapped(f"{then}A wrong claim gives {them} the game.", indent=0)
            return fit(lines)
        row = view.own.action
        lines = wrapped(f"GeoPlunge! Your row: cards {_cards(row)}, {_left_out(rules, row)}.")
        lines += card_map(view.hand)
        card = row.order[view.place] + 1
        what = "state and its capital" if rules.announce == "capitals" else "state"
        lines += wrapped(f"Announce the {_ordinal(view.place)} card of your row, card {card}: its {what}.")
        return fit(lines)

    def scene(self, decision: Decision) -> Scene:
        """The Map cards in the order dealt, each a picture (a map with its state in red) and
        never a name; the race's claim is `placed` of them in order; after the
        shout, the row with the card being announced marked, and the state (and capital)
        named as options."""
        view: View = decision.observation
        rules, them = view.rules, SIDES[1 - view.seat]
        facts = [Fact("rule", f"Lay {rules.placed} in alphabetical order of state name, the rest face-down; "
                              f"a wrong claim gives {them} the game")]
        if decision.timed:
            hand = Pile("hand", f"Your {rules.cards} Map cards", tuple(
                map_card(view.hand, n, selectable=True) for n in range(len(view.hand))))
            race = Race((rules.placed,), f"{rules.placed} Map cards, left to right in alphabetical order of their "
                                         "states' names", ordered=True,
                        options=(("the rest turned face-down", ""), ("the rest left face-up", "face-up")))
            return Scene("Dashing States", "claim", self.prompt(decision), (hand,), tuple(facts), race=race)
        row = view.own.action
        laid = tuple(map_card(view.hand, p, marks=("now",) if k == view.place else ())
                     for k, p in enumerate(row.order))
        left = tuple(hidden(f"left-{p + 1}") if row.face_down else map_card(view.hand, p)
                     for p in unused(rules, row))
        capitals = rules.announce == "capitals"
        facts.append(Fact("round", f"Announce the {_ordinal(view.place)} card of your row, card "
                                   f"{row.order[view.place] + 1}: its {'state and capital' if capitals else 'state'}"))

        def option(said: Said) -> tuple[str, ...]:
            state = "not known" if said.state is None else NAMES[said.state]
            return (state, "not known" if said.capital is None else CAPITALS[said.capital]) if capitals else (state,)

        return Scene("Dashing States", "announce", self.prompt(decision),
                     (Pile("row", "Your row", laid), Pile("table", "Left out", left)), tuple(facts),
                     moves=scene_moves(decision, self.label, lambda a: ((), option(a))),
                     options=("state", "capital") if capitals else ("state",))

    def prompt(self, decision: Decision) -> str:
        view: View = decision.observation
        if decision.timed:
            return f"GeoPlunge! {view.rules.placed} CARD NUMBERS (or pass) > "
        card = view.own.action.order[view.place] + 1
        return f"card {card}: STATE CAPITAL > " if view.rules.announce == "capitals" else f"card {card}: STATE > "

    def help(self, decision: Decision) -> list[str]:
        view: View = decision.observation
        rules, them = view.rules, SIDES[1 - view.seat]
        if decision.timed:
            return fit([
                f"Type the numbers of {rules.placed} cards, left to right in alphabetical order of their states' "
                f"names: '{self._example(rules)}'. The cards you leave out are turned face-down.",
                f"'{self._example(rules)} face-up' shouts with them still face-up: a wrong claim.",
                f"pass: no shout. If {them} shouts before your Enter, your time is up.",
                "moves and hint are off in a race.",
            ], WIDTH - 2)
        if rules.announce == "capitals":
            return fit(["Type the state, a postal code or its name, then its capital: 'ID Boise' or "
                        "'New Mexico Santa Fe'; '?' for one you do not know ('ID ?').",
                        "A word that is neither a state nor a capital is asked again."], WIDTH - 2)
        return fit(["Type the state, a postal code or its name: 'ID' or 'New Mexico'; '?' if you do not know."],
                   WIDTH - 2)

    def label(self, decision: Decision, action) -> str:
        if decision.timed:
            return row_label(action)
        return said_label(action, decision.observation.rules.announce == "capitals")

    def parse(self, decision: Decision, text: str):
        view: View = decision.observation
        if decision.timed:
            return self._row(view.rules, text)
        return self._said(view.rules, text)

    def events(self, decision: Decision) -> list[str]:
        return fit(story(decision.observation))

    def ending(self, played: Played, seat: int) -> list[str]:
        lines = story(final_view(played, seat))
        for s in played.first:
            lines += judgement(played, s, seat)
        return fit(lines + lesson(played, seat) + verdict(played, seat))

    def pictures(self, played: Played, seat: int) -> list[Picture]:
        """The person's Map cards on one map after the race, named, the row they laid in blue."""
        hand = played.hands[seat]
        own = played.claims[seat].action
        row = placed_cards(hand, own) if own is not None else ()
        names = ", ".join(f"{p + 1} {NAMES[c]}" for p, c in enumerate(hand))
        text = f"Your Map cards: {names}" + (" (your row in blue)" if row else "")
        return [Picture(text, hand_map(hand, [(FIRST, row)], text))]

    def reason(self, decision: Decision, action) -> str:
        view: View = decision.observation
        if decision.timed:
            return f"a row of {len(action.order)} cards, the rest {'face-down' if action.face_down else 'face-up'}"
        card = view.own.action.order[view.place] + 1
        if action.state is None:
            return f"the hint team does not recognise card {card}"
        known = "" if view.rules.announce != "capitals" else (
            ", and does not know its capital" if action.capital is None else
            f", whose capital it takes to be {CAPITALS[action.capital]}")
        return f"the hint team takes card {card} for {NAMES[action.state]}{known}"

    # ----- the play loop's race words (optional parts of the Views, `geolab.lab.play`) -----
    def echo(self, decision: Decision, action, text: str) -> str:
        view: View = decision.observation
        if decision.timed:
            return f"-> cards {_cards(action)}, {_left_out(view.rules, action)}"
        return f"-> {said_words(action, view.rules.announce == 'capitals')}"

    def called(self, decision: Decision, seat: int, claim: Claim, words: str) -> list[str]:
        return [f"{SIDES[seat]} shouted GeoPlunge at {_seconds(claim.seconds)}.", "Your time is up: no shout from you."]

    def race_note(self, decision: Decision) -> str:
        return "the cards are named at the end"

    # ----- parts ----------------------------------------------------------------------------
    @staticmethod
    def _example(rules) -> str:
        """A fixed example row (the same for every hand, so it hands over nothing)."""
        return " ".join(str(n) for n in (2, 4, 1, 3, 6, 5, 7) if n <= rules.cards)[: 2 * rules.placed - 1]

    @staticmethod
    def _row(rules, text: str) -> Row:
        words = text.replace(",", " ").lower().split()
        face_down = True
        numbers = []
        for w in words:
            if w in FACE_UP:
                face_down = False
            elif w in FACE_DOWN:
                continue
            elif w.isdigit():
                n = typed_number(w)
                if n is None or not 1 <= n <= rules.cards:
                    raise MoveError(f"card {w}: your cards are 1-{rules.cards}")
                numbers.append(n - 1)
            else:
                raise MoveError(f"'{w}' is not a card number: type the numbers of {rules.placed} cards, left to right")
        if len(set(numbers)) != len(numbers):
            raise MoveError("a card is named twice: each card is laid once")
        if len(numbers) != rules.placed:
            raise MoveError(f"lay {rules.placed} cards, not {len(numbers)}: the rest are turned face-down")
        return Row(tuple(numbers), face_down)

    @staticmethod
    def _said(rules, text: str) -> Said:
        words = re.sub(r"[,.;]", " ", text).split()
        if not words:
            raise MoveError("name the state (a postal code or its name), or ?")
        state, rest = _state(words)
        if rules.announce != "capitals":
            if rest:
                raise MoveError(f"'{' '.join(rest)}': name the state only ('ID' or 'Idaho'), or ?")
            return Said(state, None)
        if not rest:
            raise MoveError("name the capital too ('ID Boise'), or ? for one you do not know ('ID ?')")
        return Said(state, _capital(rest))


def _state(words: list[str]) -> tuple[int | None, list[str]]:
    """The state the first words name (a postal code, a name, or ?) and the words after."""
    first = words[0]
    if first.lower() in UNKNOWN:
        return None, words[1:]
    if first.upper() in POSTAL and len(first) == 2:
        return POSTAL.index(first.upper()), words[1:]
    for size in (3, 2, 1):  # the longest name first: West Virginia before Virginia
        name = " ".join(words[:size]).lower()
        if len(words) >= size and name in STATE_OF:
            return STATE_OF[name], words[size:]
    raise MoveError(f"'{first}' is not a state: type its postal code or name (or ?)")


def _capital(words: list[str]) -> int | None:
    text = " ".join(words).lower()
    if text in UNKNOWN:
        return None
    if text in CAPITAL_OF:
        return CAPITAL_OF[text]
    if text.replace("st ", "saint ", 1) in CAPITAL_OF:
        return CAPITAL_OF[text.replace("st ", "saint ", 1)]
    close = difflib.get_close_matches(text, CAPITAL_OF, n=1, cutoff=0.75)
    hint = f" (did you mean {CAPITALS[CAPITAL_OF[close[0]]]}?)" if close else ""
    raise MoveError(f"'{' '.join(words)}' is not a state capital{hint}: type a capital, or ?")


VIEWS = DashingViews()
