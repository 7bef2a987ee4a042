"""The keyboard's words for a race of groups, shared by GeoDouble's stage 1 and Border-Up
(`geolab.game.Views`): the hand as a person sees it, a claim as a person types it, why a
border group holds, and what a race teaches once it is over (`Lesson`).

A claim is typed as two groups of three postal codes (``MD VA NC / ME NH VT``, split by ``/``,
``+`` or ``|``; commas are spaces) or as the six codes in any order, in any case. `claimed`
reads the text against the seat's hand and refuses, in one `MoveError` line, anything that is
not six different cards of the hand (two groups of three, where two are given); which split
holds is the game's to find, since only it knows what a group is there. Nothing a race
screen shows reads the hand's solutions; only the lesson, once the race is over, is handed them.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from geolab.cards import NAMES, POSTAL
from geolab.common.text import codes
from geolab.game import MoveError
from geolab.games import groups
from geolab.maps import states_map
from geolab.scene import Fact, Race, Scene, pile

#: Words a person may type for a claim known to be wrong.
WRONG_WORDS = ("wrong", "wrong claim")
GROUP_BREAK = re.compile(r"[/+|]")
#: Cards a claim lays down: two groups of three.
CLAIM_CARDS = 6
#: Solutions the lesson after a race lists by name (the rest are counted).
SHOWN_SOLUTIONS = 3
#: The after-race map's colours: the rest of the hand, a solution's two groups, a wrong claim.
HAND, FIRST, SECOND, WRONG_COLOUR = "#f3d27a", "#1f77b4", "#2ca02c", "#d62728"


def seconds_text(s: float) -> str:
    return f"{s:.1f} s"


def why_border(group: Sequence[int], four_corners: bool = False, water: bool = False) -> str:
    """``"VA borders MD and NC"`` (or ``"each of ... borders the other two"``)."""
    hubs = groups.centers(group, four_corners, water)
    if len(hubs) == 3:
        return f"each of {codes(group)} borders the other two"
    others = [POSTAL[c] for c in group if c != hubs[0]]
    return f"{POSTAL[hubs[0]]} borders {others[0]} and {others[1]}"


def hand_grid(hand: Sequence[int]) -> list[str]:
    """The hand in three columns, by postal code, each card its code and its state's name
    (never its capital or borders: recalling those is the race)."""
    cards = sorted(hand, key=lambda c: POSTAL[c])
    rows = (len(cards) + 2) // 3
    return [("  " + "  ".join(f"{POSTAL[c]} {NAMES[c]:<15}" for c in cards[i::rows])).rstrip() for i in range(rows)]


def fewest_shared(examples: Sequence[str], hand: Sequence[int]) -> str:
    """Of fixed example claims (``"MD VA NC / ME NY TX"``), the one sharing the fewest cards
    with the hand, so an example never hands over a claim."""
    held = {POSTAL[c] for c in hand}
    return min(examples, key=lambda e: sum(code in held for code in e.split() if code != "/"))


def hand_cards(hand: Sequence[int], text: str) -> list[int]:
    """The cards a part of a claim names, each a postal code of the hand."""
    out = []
    for word in text.split():
        code = word.upper()
        if code not in POSTAL:
            tail = ": type the cards' postal codes" if word.isdigit() else ""
            raise MoveError(f"'{word}' is not a postal code{tail}")
        c = POSTAL.index(code)
        if c not in hand:
            raise MoveError(f"{code} is not in your hand")
        out.append(c)
    return out


def typed_cards(hand: Sequence[int], text: str) -> list[int]:
    """Every card a claim's text names, in the order typed (`hand_cards` of each part)."""
    return [c for part in GROUP_BREAK.split(text.replace(",", " ")) for c in hand_cards(hand, part)]


def is_wrong_words(text: str) -> bool:
    return " ".join(text.lower().split()) in WRONG_WORDS


def claimed(hand: Sequence[int], text: str, example: str) -> list[tuple[int, ...]]:
    """A claim's text as its parts, each a sorted tuple of cards: two groups of three, or one
    part of six cards in any order. Anything else is a one-line `MoveError` (`example` shows
    how to type one)."""
    parts = [hand_cards(hand, part) for part in GROUP_BREAK.split(text.replace(",", " "))]
    cards = [c for part in parts for c in part]
    if len(parts) > 2:
        raise MoveError(f"two groups at most: '{example}', or six codes in any order")
    seen: set[int] = set()
    for c in cards:
        if c in seen:
            raise MoveError(f"{POSTAL[c]} is named twice: a claim is six different cards")
        seen.add(c)
    if len(cards) != CLAIM_CARDS:
        raise MoveError(f"a claim is six cards, two groups of three, not {len(cards)} (or pass)")
    if len(parts) == 2 and len(parts[0]) != 3:
        raise MoveError(f"each group is three cards, not {len(parts[0])} and {len(parts[1])}")
    return [tuple(sorted(p)) for p in parts]


def laid_groups(hand: Sequence[int], text: str, example: str) -> tuple[tuple[int, ...], ...]:
    """The cards a wrong claim's text laid (`geolab.stepwise.Claim.laid`), as records keep
    them: two groups of three, the smaller first, or six cards, each in card order; () for the
    words of a wrong claim (``wrong``), which lay no cards."""
    if is_wrong_words(text):
        return ()
    return tuple(sorted(claimed(hand, text, example)))


def race_scene(title: str, hand: Sequence[int], prompt: str, facts: Sequence[Fact], what: str) -> Scene:
    """A race of groups as a scene (`geolab.scene`): the hand by postal code, every card
    selectable and read back by its code, a claim two groups of three; no moves, so nothing of
    the hand's solutions (nor whether there is one) is in it."""
    cards = pile("hand", f"Your {len(hand)} cards", sorted(hand, key=POSTAL.__getitem__), "hand", selectable=hand)
    return Scene(title, "claim", prompt, (cards,), tuple(facts), race=Race((3, 3), what))


# ----- after the race: the lesson --------------------------------------------------------------
def laid_text(laid: Sequence[Sequence[int]]) -> str:
    """A wrong claim's cards as laid (`geolab.stepwise.Claim.laid`): ``"AL AK GA / DE MD WV"``."""
    return " / ".join(codes(g) for g in laid)


def not_border(group: Sequence[int], four_corners: bool = False, water: bool = False) -> str:
    """Why three cards are not a border group (no state borders both others): ``"no two of
    them border each other"`` or ``"only AL and GA border; TX borders neither"``."""
    near = groups.neighbours(four_corners, water)
    pairs = [(a, b) for i, a in enumerate(group) for b in group[i + 1:] if b in near[a]]
    if not pairs:
        return "no two of them border each other"
    if len(pairs) == 1:
        a, b = pairs[0]
        (c,) = [x for x in group if x not in pairs[0]]
        return f"only {POSTAL[a]} and {POSTAL[b]} border; {POSTAL[c]} borders neither"
    return "a border group"  # pragma: no cover - a claim of two groups that hold is no wrong claim


def why_not_border(group: Sequence[int], four_corners: bool = False, water: bool = False) -> str:
    """``"AK AL AZ: no two of them border each other"`` (`not_border`)."""
    return f"{codes(group)}: {not_border(group, four_corners, water)}"


def clock_line(me: int, sides: str, claims: Sequence, first: Sequence[int]) -> str:
    """Both sides' clocks after a race: each claim's seconds and whether it was the first, a
    later one never made at the table, or none (the seconds searched)."""
    parts = []
    for s, claim in enumerate(claims):
        who = "you" if s == me else sides[s]
        if claim.action is None:
            parts.append(f"{who}: no claim (searched {seconds_text(claim.seconds)})")
        elif s in first:
            parts.append(f"{who}: called at {seconds_text(claim.seconds)}")
        else:
            parts.append(f"{who}: would have called at {seconds_text(claim.seconds)}")
    return "The clock: " + "; ".join(parts) + "."


def solutions_lines(found: Sequence, label, why, kind: str) -> list[str]:
    """The hand's solutions after a race, from the exact finder: how many, the first few by
    name with why each holds."""
    if not found:
        return [f"Your hand held no {kind}: every claim on it was wrong (pass was right)."]
    head = f"Your hand held {len(found)} solution{'s' if len(found) != 1 else ''}"
    lines = [head + (f"; the first {SHOWN_SOLUTIONS}:" if len(found) > SHOWN_SOLUTIONS else ":")]
    for solution in found[:SHOWN_SOLUTIONS]:
        lines.append(f"  {label(solution)} ({why(solution)})")
    return lines


def hand_map(hand: Sequence[int], shown: Sequence[tuple[str, Sequence[int]]], title: str) -> str:
    """A race hand on the map: each of `shown` (colour, cards) in its colour, the rest of the
    hand in sand (`geolab.maps.states_map`)."""
    coloured = {c for _, cards in shown for c in cards}
    layers = {HAND: [POSTAL[c] for c in hand if c not in coloured]}
    for colour, cards in shown:
        layers.setdefault(colour, []).extend(POSTAL[c] for c in cards)
    return states_map(layers, title=title)


@dataclass(frozen=True)
class Lesson:
    """What a race of groups teaches once it is over, in one game's words (Border-Up's two
    border groups, GeoDouble's border group and capital group): both clocks, the rival's claim
    (one never made at the table too: the race is over), why a wrong claim of the person's
    failed, the hand's solutions from the exact finder, and the hand on a map.

    ``wrong`` is the game's wrong claim; ``label(action)`` a claim in the words a person
    types; ``why(solution, rules)`` why a solution holds; ``why_wrong(laid, rules)`` the lines
    saying why a wrong claim's cards fail; ``kind`` what a solution is, in words."""

    sides: str
    wrong: object
    label: Callable
    why: Callable
    why_wrong: Callable
    kind: str

    def lines(self, rules, me: int, claims: Sequence, first: Sequence[int], found: Sequence) -> list[str]:
        """The lesson of a race whose `claims` (one a seat) were settled with `first` (the seats
        that called first), seat `me`'s hand holding `found` (its solutions, in order)."""
        them = 1 - me
        out = [clock_line(me, self.sides, claims, first)]
        other = claims[them]
        if them not in first and other.action not in (None, self.wrong):
            out.append(f"{self.sides[them]}'s claim would have been {self.label(other.action)}.")
        own = claims[me]
        if own.action == self.wrong:
            if own.laid:
                out.append(f"Your claim {laid_text(own.laid)} was wrong:")
                out += self.why_wrong(own.laid, rules)
            else:
                out.append("Your claim was wrong.")
        return out + solutions_lines(found, self.label, lambda s: self.why(s, rules), self.kind)

    def maps(self, hand: Sequence[int], found: Sequence, own, whose: str = "Your") -> tuple[Fact, ...]:
        """The hand on a map after the race: the two groups (blue, green) of the seat's own
        claim where it held, else of the hand's first solution, the rest of the hand in sand;
        and a wrong claim's cards (red) where they were kept. `whose` starts each caption."""
        solution = own.action if own.action not in (None, self.wrong) else found[0] if found else None
        facts = []
        if solution is not None:
            a, b = solution
            text = f"{whose} hand on the map: {self.label(solution)} (blue, green), the rest of your cards in sand"
            facts.append(Fact("map", text, hand_map(hand, [(FIRST, a), (SECOND, b)], text)))
        if own.laid:
            cards = [c for g in own.laid for c in g]
            text = f"{whose} wrong claim on the map: {laid_text(own.laid)} (red)"
            facts.append(Fact("map", text, hand_map(hand, [(WRONG_COLOUR, cards)], text)))
        return tuple(facts)
