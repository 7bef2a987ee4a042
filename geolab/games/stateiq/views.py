"""State IQ at the keyboard (`geolab.game.Views`), for `geolab play state-iq`.

Every screen starts with the game line: the phase, who guesses whose state, the Power card
and its clue order, the person's own card. **Guessing** (``guess``), the screen lists the clues
given so far in words and the person's guesses; a guess is typed as a postal code or a state's
name (``VT``, ``vermont``, ``new york``). A state that cannot be the other's card by the rules
(the person's own, one already guessed) is a one-line `MoveError` unless the rules allow futile
guesses; a state that does not fit the clues is a legal guess (knowing the facts is the game).
**Giving a border clue** (``clue``), the screen lists the person's state's border states not
named yet, numbered; one is typed by number, postal code or name.

**The story** (`events`, `ending`): the Power card, who guesses first and why, then each
clue and guess as it came, each phase's end (found in n guesses, missed, or the second team
stopping once it can no longer win or tie), and the verdict.
"""

from __future__ import annotations

from geolab.cards import CAPITALS, NAMES, POSTAL, POWER_DECK, RANKS, STATEHOOD
from geolab.common.text import WIDTH, fit, ordinal, wrapped
from geolab.game import Decision, MoveError, Views, typed_number
from geolab.games.stateiq import clues as facts
from geolab.games.stateiq.reference import GUESSES, SIDES, Played, View, seen
from geolab.maps import RED, states_map
from geolab.scene import Fact, Picture, Scene, pile
from geolab.scene import moves as scene_moves

BLUE, AMBER = "#1c7ed6", "#f59f00"  # a State IQ map's clue states and wrong guesses (the answer red)
#: A state's name in lower case, without spaces -> its card ("newyork", "new york")
BY_NAME = {" ".join(n.lower().split()): c for c, n in enumerate(NAMES)}
ORDER_WORDS = {"AAA": "postal code letters 1 and 2, then no clue", "BBB": "three border states",
               "CCC": "capital letters 1, 2 and 3"}


def _who(side: int, me: int, capital: bool = False) -> str:
    if side == me:
        return "You" if capital else "you"
    return SIDES[side]


def _whose(side: int, me: int) -> str:
    return "your" if side == me else f"{SIDES[side]}'s"


def state(c: int) -> str:
    return f"{POSTAL[c]} ({NAMES[c]})"


def order_words(order: str) -> str:
    """A clue order in words: "B, A, C: a border state, the postal code's first letter, ..."."""
    if order in ORDER_WORDS:
        return ORDER_WORDS[order]
    parts = []
    for kind, index in facts.program(order):
        nth = ("first", "second", "third")[index]
        parts.append({"A": f"postal code letter {index + 1}", "B": f"{nth} border state",
                      "C": f"capital letter {index + 1}"}[kind])
    return ", ".join(parts)


def power_line(view: View) -> str:
    card = POWER_DECK[view.power]
    fixed = "" if view.order == card.clues else f" (the rules fix the order {view.order})"
    return f"Power card {view.power + 1}: {card.clues}{fixed}, so the clues are {order_words(view.order)}."


def first_line(view: View, me: int) -> str:
    who = _who(view.first, me, True)
    verb = "guess" if view.first == me else "guesses"
    if view.draw is None:
        return f"{who} {verb} first (given: it won Border-Up)."
    a, b = view.draw
    return (f"Statehood draw: A drew {POSTAL[a]} ({ordinal(int(RANKS[a, STATEHOOD]))}), B drew {POSTAL[b]} "
            f"({ordinal(int(RANKS[b, STATEHOOD]))}): {who.lower() if who == 'You' else who} {verb} first.")


def guesses_word(n: int) -> str:
    return f"{n} guess" if n == 1 else f"{n} guesses"


def stakes(view: View, n: int) -> str:
    """What guess `n` of the second phase decides, from the first team's result (the second
    team stops once it can no longer win or tie); nothing in the first phase."""
    if len(view.phases) < 2:
        return ""
    found, them = view.phases[0].found, SIDES[1 - view.phase.guesser]
    if found is None:
        return f" ({them} missed yours: right wins)"
    if n < found:
        return f" ({them} found yours in {guesses_word(found)}: right now wins; guess {found} is your last)"
    return f" (your last: {them} found yours in {guesses_word(found)}, so right ties, wrong loses)"


def phase_lines(me: int, p: int, phase, over: bool, first_found) -> list[str]:
    """A phase's story as seat `me` saw it: its clues and guesses, and (`over`) how it ended."""
    guesser, giver = phase.guesser, 1 - phase.guesser
    out = [f"Phase {p + 1}: {_who(guesser, me)} {'guess' if guesser == me else 'guesses'} "
           f"{_whose(giver, me)} state."]
    for k, clue in enumerate(phase.clues):
        out.append(f"  Clue {k + 1} from {_who(giver, me)}: {clue.words()}.")
        if k < len(phase.guesses):
            right = phase.found == k + 1
            verdict = "right" if right else "wrong"
            out.append(f"  {_who(guesser, me, True)} guessed {state(phase.guesses[k])}: {verdict}.")
    if over:
        name = _who(guesser, me, True)
        made = len(phase.guesses)
        if phase.found is not None:
            out.append(f"  {name} found {_whose(giver, me)} state in {guesses_word(phase.found)}.")
        elif made < GUESSES:
            out.append(f"  {name} {'stop' if guesser == me else 'stops'} after {guesses_word(made)}: the first team "
                       f"found its state in {guesses_word(first_found)}, so one more cannot win or tie.")
        else:
            out.append(f"  {name} missed: {GUESSES} wrong guesses.")
    return out


def story(view: View, me: int, finished: bool) -> list[str]:
    out = [power_line(view), first_line(view, me)]
    for p, phase in enumerate(view.phases):
        over = finished or p < len(view.phases) - 1
        out += phase_lines(me, p, phase, over, view.phases[0].found)
    return out


def fitting(view: View) -> tuple[int, ...]:
    """The states that fit every clue of the phase now, and that the guesser may still be
    holding the answer to: not its own, not guessed, not a state the other team guessed (a team
    never guesses its own)."""
    phase = view.phase
    rules = view.rules
    mask = facts.consistent(phase.clues, rules.four_corners, rules.water) & ~(1 << view.card)
    mask &= ~facts.mask_of(phase.guesses)
    if len(view.phases) == 2 and not rules.futile_guesses:
        mask &= ~facts.mask_of(view.phases[0].guesses)
    return facts.cards_of(mask)


def _kind_words(kind: str, index: int) -> str:
    if kind == "B":
        return "a border state"
    if kind == "A" and index >= 2:
        return "none"
    return f"{'postal code' if kind == 'A' else 'capital'} letter {index + 1}"


def _company(view: View, fit_now, c: int, kind: str, index: int) -> int:
    """The most states of `fit_now` (c too) the next clue could leave together with c."""
    rules = view.rules
    if kind != "B":
        mine = facts.letter(c, kind, index)
        return sum(facts.letter(x, kind, index) == mine for x in fit_now)
    nbr = facts.neighbours(rules.four_corners, rules.water)
    left = nbr[c] & ~facts.named(view.phase.clues)
    if not left:
        return sum(not nbr[x] & ~facts.named(view.phase.clues) for x in fit_now)
    return max(sum(bool(nbr[x] >> t & 1) for x in fit_now) for t in facts.cards_of(left))


class StateIQViews(Views):
    """`geolab.game.Views` for State IQ: ``guess`` and ``clue``."""

    def screen(self, decision: Decision) -> list[str]:
        view: View = decision.observation
        me, phase = view.seat, view.phase
        guesser, giver = phase.guesser, 1 - phase.guesser
        k = len(phase.guesses)
        verb = "guess" if guesser == me else "guesses"
        head = f"State IQ, phase {len(view.phases)} of 2: {_who(guesser, me)} {verb} {_whose(giver, me)} state. " \
               f"You hold {state(view.card)}."
        lines = wrapped(head, 2) + wrapped(power_line(view), 2)
        if decision.kind == "guess":
            lines.append(f"Clues from {SIDES[giver]}:")
            lines += [f"  {n + 1}. {clue.words()}" for n, clue in enumerate(phase.clues)]
            made = ", ".join(f"{POSTAL[g]} (wrong)" for g in phase.guesses) or "none"
            lines.append(f"Your guesses so far: {made}.")
            lines += wrapped(f"Guess {k + 1} of {view.limit()}{stakes(view, k + 1)}: name a state, by postal code "
                             "or name.", 2)
        else:
            kind, index = facts.program(view.order)[k]
            named = [c.value for c in phase.clues if c.kind == "B" and c.value is not None]
            lines.append(f"Clue {k + 1} is border state number {index + 1} of {state(view.card)}; named so far: "
                         f"{' '.join(POSTAL[c] for c in named) or 'none'}.")
            lines.append("Name one of:")
            lines += self._menu(decision.legal)
            made = ", ".join(POSTAL[g] for g in phase.guesses) or "none"
            lines.append(f"{SIDES[guesser]}'s wrong guesses so far: {made}.")
        return fit(lines)

    def scene(self, decision: Decision) -> Scene:
        """Your own card, the wrong guesses, and at a clue the border states you may name
        (picked as cards); a guess names a state (an option, never a card: its ranks would
        answer the clues). The Power card and the clues so far are facts."""
        view: View = decision.observation
        me, phase = view.seat, view.phase
        guesser, giver = phase.guesser, 1 - phase.guesser
        k = len(phase.guesses)
        facts = [Fact("round", f"Phase {len(view.phases)} of 2: {_who(guesser, me)} "
                               f"{'guess' if guesser == me else 'guesses'} {_whose(giver, me)} state"),
                 Fact("power", power_line(view))]
        facts += [Fact("clue", f"Clue {n + 1}: {clue.words()}") for n, clue in enumerate(phase.clues)]
        piles = [pile("hand", "Your state", (view.card,), "own", marks=lambda c: ("yours",))]
        if phase.guesses:
            piles.append(pile("table", f"{SIDES[guesser] if guesser != me else 'Your'} wrong guesses", phase.guesses,
                              "guessed", marks=lambda c: ("lost",)))
        if decision.kind == "guess":
            facts.append(Fact("round", f"Guess {k + 1} of {view.limit()}{stakes(view, k + 1)}"))
            return Scene("State IQ", "guess", self.prompt(decision), tuple(piles), tuple(facts),
                         moves=scene_moves(decision, self.label, lambda c: ((), (f"{NAMES[c]} ({POSTAL[c]})",))),
                         options=("state",))
        piles.append(pile("row", f"Name one border state of {NAMES[view.card]} as clue {k + 1}", decision.legal,
                          "border", selectable=decision.legal))
        return Scene("State IQ", "clue", self.prompt(decision), tuple(piles), tuple(facts),
                     moves=scene_moves(decision, self.label, lambda c: ((f"border-{POSTAL[c]}",), ())))

    def prompt(self, decision: Decision) -> str:
        return "guess STATE > " if decision.kind == "guess" else "clue BORDER > "

    def help(self, decision: Decision) -> list[str]:
        view: View = decision.observation
        if decision.kind == "guess":
            them = SIDES[1 - view.seat]
            return fit([f"Type the state you think {them} holds: its postal code ('VT') or its name ('Vermont', "
                        "'new york').",
                        "A state that does not fit the clues is allowed, and wrong; "
                        + ("any state may be guessed." if view.rules.futile_guesses else
                           "your own state and states you already guessed are not (they cannot be right)."),
                        f"Fewer guesses than {them} wins; the same number, or neither finding, is a tie."], WIDTH - 2)
        first = decision.legal[0]
        return fit([f"Type a border state of yours not yet named: its number on the list, its postal code "
                    f"('{POSTAL[first]}') or its name ('{NAMES[first]}').",
                    "The guesser hears it before its next guess: name the one that leaves it most in doubt."],
                   WIDTH - 2)

    def label(self, decision: Decision, action) -> str:
        return POSTAL[action]

    def parse(self, decision: Decision, text: str):
        view: View = decision.observation
        words = " ".join(text.strip().lower().split())
        n = typed_number(words) if decision.kind == "clue" else None
        if n is not None:
            if not 1 <= n <= len(decision.legal):
                raise MoveError(f"{n} is not on the list: 1 to {len(decision.legal)}")
            return decision.legal[n - 1]
        c = POSTAL.index(words.upper()) if words.upper() in POSTAL else BY_NAME.get(words)
        if c is None:
            raise MoveError(f"'{text.strip()[:30]}' is not a state: type a postal code (TX) or a name (Texas)")
        if c in decision.legal:
            return c
        if decision.kind == "clue":
            if c == view.card:
                raise MoveError(f"{POSTAL[c]} is your own state: name one of its border states")
            if c in facts.cards_of(facts.named(view.phase.clues)):
                raise MoveError(f"{POSTAL[c]} is named already: name another border state")
            raise MoveError(f"{POSTAL[c]} does not border {POSTAL[view.card]}: name one of "
                            f"{' '.join(POSTAL[x] for x in decision.legal)}")
        if c == view.card:
            raise MoveError(f"{POSTAL[c]} is your own state: guess {SIDES[1 - view.seat]}'s")
        raise MoveError(f"{POSTAL[c]} is guessed already: guess another state")

    def events(self, decision: Decision) -> list[str]:
        view: View = decision.observation
        return fit(story(view, view.seat, False))

    def ending(self, played: Played, seat: int) -> list[str]:
        deal = played.deal
        view = View(played.rules, seat, deal.cards[seat], deal.power, played.order, deal.draw, played.first,
                    tuple(map(seen, played.phases)))
        return fit(story(view, seat, True) + self._verdict(played, seat))

    def pictures(self, played: Played, seat: int) -> list[Picture]:
        """After the game, each phase whose clues named border states: the state guessed in
        red, the border states named as clues in blue, the wrong guesses in amber, on the
        real map (the cards are public once the game is over)."""
        out = []
        for n, phase in enumerate(played.phases, start=1):
            named = [c.value for c in phase.clues if c.kind == "B" and c.value is not None]
            if not named:
                continue
            giver, answer = 1 - phase.guesser, played.deal.cards[1 - phase.guesser]
            wrong = [c for c in phase.guesses if c != answer]
            caption = (f"Phase {n}, {_who(phase.guesser, seat)} guessing: {_whose(giver, seat)} state "
                       f"{state(answer)} in red; the border states named as clues in blue: "
                       f"{', '.join(state(c) for c in named)}")
            also = " (a clue state stays blue)" if set(wrong) & set(named) else ""
            caption += f"; wrong guesses in amber: {' '.join(POSTAL[c] for c in wrong)}{also}." if wrong else "."
            groups = {AMBER: [POSTAL[c] for c in wrong if c not in named], BLUE: [POSTAL[c] for c in named],
                      RED: [POSTAL[answer]]}
            out.append(Picture(caption, states_map(groups, title=caption)))
        return out

    def reason(self, decision: Decision, action) -> str:
        view: View = decision.observation
        rules = view.rules
        if decision.kind == "clue":
            nbr = facts.neighbours(rules.four_corners, rules.water)
            around = {t: facts.cards_of(nbr[t] & ~(1 << view.card)) for t in decision.legal}
            them = SIDES[1 - view.seat]
            others = " ".join(POSTAL[c] for c in around[action]) or "no other state"
            most = max(len(a) for a in around.values())
            if len(around) == 1:
                return f"it is the only border left to name; {them} must tell yours from {others}"
            if len(around[action]) == most:
                return f"{POSTAL[action]} borders {len(around[action]) + 1} states, yours among them, the most of " \
                       f"your borders: {them} must tell yours from {others}"
            return f"of your borders it leaves {them} the most guesses to expect (yours against {others}, and the " \
                   "clues to come)"
        fit_now = fitting(view)
        if action not in fit_now:
            return f"{POSTAL[action]} does not fit every clue, but any guess is allowed"
        others = [POSTAL[c] for c in fit_now if c != action]
        if not others:
            return f"{POSTAL[action]} is the only state left that fits every clue"
        listed = " ".join(others[:10]) + (" ..." if len(others) > 10 else "")
        verb = "does" if len(others) == 1 else "do"
        head = f"{POSTAL[action]} fits every clue, as {verb} {len(others)} more ({listed})"
        k = len(view.phase.guesses)
        if k + 1 >= view.limit():
            return f"{head}: your last guess, so the likeliest of them"
        kind, index = facts.program(view.order)[k + 1]
        company = {c: _company(view, fit_now, c, kind, index) for c in fit_now}
        nxt = f"the next clue ({_kind_words(kind, index)})"
        if len(set(company.values())) == 1:
            n = company[action]
            if n == 1:
                return f"{head}; {nxt} will single out each of them, so any is as good now"
            return f"{head}; {nxt} may leave each of them among {n}, so any is as good now"
        if company[action] == max(company.values()):
            return f"{head}; {nxt} may leave it among {company[action]}, the most of any: try it now and let " \
                   "the clue sort the rest"
        return f"{head}; of them it leaves the fewest guesses to expect, clue by clue"

    @staticmethod
    def _menu(cards) -> list[str]:
        cells = [f"{n + 1:>2} {POSTAL[c]} {NAMES[c]:<14}" for n, c in enumerate(cards)]
        return [("  " + "  ".join(cells[i:i + 3])).rstrip() for i in range(0, len(cells), 3)]

    @staticmethod
    def _verdict(played: Played, seat: int) -> list[str]:
        deal = played.deal
        other = 1 - seat
        mine, theirs = played.found(seat), played.found(other)

        def how(n) -> str:
            return "missed" if n is None else f"found it in {guesses_word(n)}"

        lines = [f"{SIDES[other]} held {state(deal.cards[other])}, capital {CAPITALS[deal.cards[other]]}; you "
                 f"{how(mine)}.", f"{SIDES[other]} {how(theirs).replace('found it', 'found yours')}."]
        if played.winner is None:
            return lines + ["A tie: " + ("neither team found the other's state." if mine is None else
                                         f"both found it in {guesses_word(mine)}.")]
        return lines + ["You won." if played.winner == seat else "You lost."]


VIEWS = StateIQViews()
