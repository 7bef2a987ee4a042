"""A human at the keyboard, as a reference-engine `Seat` for Play the Ranks.

It shows only what its side may see (the `View`), reads a move as text, and asks again after
any mistake — a typo never ends or corrupts the game. Moves are typed the way records write
them: postal codes, category names (or their first letter), bases as numbers.
"""

from __future__ import annotations

import sys
from collections.abc import Callable

from geolab.cards import CATEGORIES, POSTAL, RANKS, card
from geolab.errors import GeolabError
from geolab.games.ranks.reference import Lead, View
from geolab.games.ranks.rules import SIDES


def describe(c: int) -> str:
    size, state, pop = (int(x) for x in RANKS[c])
    return f"{POSTAL[c]} (size {size}, statehood {state}, population {pop})"


class HumanSeat:
    """Prompts on `output`, reads from `read` (default: input())."""

    name = "human"

    def __init__(self, read: Callable[[str], str] | None = None, output=None):
        self.read = read or (lambda prompt: input(prompt))
        self.out = output or sys.stdout

    def say(self, text: str = "") -> None:
        print(text, file=self.out)

    def _show(self, view: View) -> None:
        won = view.tricks_won
        me, them = SIDES[view.side], SIDES[1 - view.side]
        self.say(f"\n-- you are {me}; tricks {me} {won[view.side]} - {them} {won[1 - view.side]}; trick {view.trick + 1}")
        if view.history:
            t = view.history[-1]
            self.say(f"   last trick: {SIDES[t.leader]} led {POSTAL[t.lead]} ({CATEGORIES[t.category]}, base {t.base}), "
                     f"answered {POSTAL[t.follow]}: {SIDES[t.winner]} won")
        if view.opponent_discards is not None:
            self.say(f"   {them} discarded {' '.join(POSTAL[c] for c in view.opponent_discards)}")
        self.say("   your hand: " + "; ".join(describe(c) for c in view.hand))

    def _ask(self, prompt: str, parse):
        while True:
            text = self.read(prompt).strip()
            try:
                return parse(text)
            except (GeolabError, ValueError) as error:
                self.say(f"   {error}; try again")

    def _held(self, view: View, text: str) -> int:
        c = card(text)
        if c not in view.hand:
            raise GeolabError(f"{POSTAL[c]} is not in your hand")
        return c

    def discard(self, view: View):
        self._show(view)
        n = view.rules.discards

        def parse(text):
            cards = [self._held(view, t) for t in text.replace(",", " ").split()]
            if len(cards) != n or len(set(cards)) != n:
                raise GeolabError(f"name {n} different card(s)")
            return cards

        return self._ask(f"discard {n} card(s) (postal codes): ", parse)

    def declare(self, view: View) -> bool:
        def parse(text):
            if text.lower() in ("y", "yes"):
                return True
            if text.lower() in ("n", "no"):
                return False
            raise GeolabError("answer y or n")

        return self._ask("declare GeoPlunging? [y/n] ", parse)

    def lead(self, view: View) -> Lead:
        self._show(view)
        bases = view.allowed_bases()
        base_hint = f" BASE ({'/'.join(map(str, bases))})" if len(bases) > 1 else ""
        self.say(f"   you lead; base {'chosen by you' if len(bases) > 1 else bases[0]}")

        def parse(text):
            parts = text.split()
            if len(parts) != (3 if len(bases) > 1 else 2):
                raise GeolabError(f"type CARD CATEGORY{base_hint}, e.g. 'TX size'")
            c = self._held(view, parts[0])
            matches = [i for i, name in enumerate(CATEGORIES) if name.startswith(parts[1].lower())]
            if len(matches) != 1:
                raise GeolabError(f"category {parts[1]!r}: type size, statehood or population (or si / st / p)")
            k = matches[0]
            base = int(parts[2]) if len(bases) > 1 else bases[0]
            if base not in bases:
                raise GeolabError(f"base must be one of {', '.join(map(str, bases))}")
            return Lead(c, k, base)

        return self._ask(f"lead: CARD CATEGORY{base_hint} > ", parse)

    def follow(self, view: View) -> int:
        self._show(view)
        shown = "face-down" if view.lead_card is None else POSTAL[view.lead_card]
        self.say(f"   {SIDES[1 - view.side]} led {shown}: {CATEGORIES[view.lead_category]}, base {view.lead_base}")
        return self._ask("answer with CARD > ", lambda text: self._held(view, text))
