"""Play the Ranks at the keyboard (`geolab.game.Views`): the screens, the moves in words and
the story of a deal, for `geolab play ranks` under every form (Combo 1, the battles of
Levels 1-3, GeoDouble's second stage).

Everything is read from the seat's `View` (its hand, its own and any public discards, the
declarations, every finished trick, the lead on the table unless it is face-down) or, at the
end, from the finished `Game`'s public facts: a hidden discard stays hidden, and so do the
cards nobody played. Cards are shown in postal-code order, one a line with their three ranks,
numbered for menu input. Moves: ``TX NY`` or ``1 4`` (discard), ``y``/``n`` (declare),
``TX size`` or ``3 size`` (lead; ``TX pop 50`` where the lead chooses the base), ``CA`` or
``2`` (follow).
"""

from __future__ import annotations

from dataclasses import dataclass
from math import comb

from geolab.cards import CATEGORIES, N_CARDS, NAMES, POSTAL, RANKS, STATEHOOD
from geolab.common.text import WIDTH, fit, ordinal, percent, plural, sorted_codes, wrapped
from geolab.game import Decision, MoveError, Views, typed_number
from geolab.games.ranks.reference import Game, Lead, Trick, View, trick_winner
from geolab.games.ranks.rules import SIDES, Rules
from geolab.scene import Fact, Pile, Scene, hidden, pile, state_card
from geolab.scene import moves as scene_moves

#: The category words of a move (and of labels): size, state, pop.
SHORT = ("size", "state", "pop")


def _prefixes(word: str, shortest: int) -> set[str]:
    return {word[:n] for n in range(shortest, len(word) + 1)}


#: What a person may type for each category: any start of its name ("s" is size; statehood
#: needs "st"), and "state" / "pop".
CATEGORY_WORDS = {**{w: 0 for w in _prefixes("size", 1) | {"area"}},
                  **{w: 1 for w in _prefixes("statehood", 2)},
                  **{w: 2 for w in _prefixes("population", 1)}}
YES, NO = {"y", "yes", "declare"}, {"n", "no", "pass"}
#: A discard's statehood this close to 1 is worth naming in a hint: it often takes the first lead.
LEAD_STATEHOOD = 12
SEPARATORS = str.maketrans({",": " ", "@": " ", ";": " ", "+": " "})


# ----- small pieces of text (the shared ones: geolab.common.text) ---------------------------
def rank(c: int, k: int) -> int:
    return int(RANKS[c, k])


def who(side: int, me: int) -> str:
    return "you" if side == me else SIDES[side]


def lead_label(rules: Rules, lead: Lead, trick: int, power_bases=None) -> str:
    """A lead in the words a person types: "TX size", or "TX pop 50" where the lead chooses
    the base."""
    text = f"{POSTAL[lead.card]} {SHORT[lead.category]}"
    return text + f" {lead.base}" if len(rules.allowed_bases(trick, power_bases)) > 1 else text


def closer(rules: Rules) -> str:
    """What an answer needs to beat the lead: equal distance goes to the lead or the reply."""
    return "strictly closer" if rules.equal_distance == "lead" else "as close or closer"


def base_means(base: int) -> str:
    return f"base {base}: the rank closer to {base} wins"


def schedule(rules: Rules, power_bases) -> str | None:
    """The bases of the deal, where they are fixed: "tricks 1-4 at base 1, 5-8 at base 50"."""
    if rules.base_mode == "lead":
        return None
    bases = [rules.base_of(t, power_bases) for t in range(rules.tricks)]
    runs: list[list[int]] = []  # [base, first, last]
    for t, b in enumerate(bases):
        if runs and runs[-1][0] == b:
            runs[-1][2] = t
        else:
            runs.append([b, t, t])
    if len(runs) == 1:
        return f"every trick at base {bases[0]}"
    parts = [f"{'tricks ' if i == 0 else ''}{a + 1}-{z + 1} at base {b}" if a != z else
             f"{'trick ' if i == 0 else ''}{a + 1} at base {b}" for i, (b, a, z) in enumerate(runs)]
    return ", ".join(parts)


def win_rule(rules: Rules) -> str:
    """How a deal is won, in one line: "first to 5 tricks wins; at 4-4 the last trick decides"."""
    half = rules.tricks // 2
    if rules.end_at == rules.win_tricks:
        text = f"first to {rules.win_tricks} tricks wins"
    elif rules.end_at is None:
        text = f"{rules.win_tricks} tricks win, all {rules.tricks} are played"
    else:
        text = f"{rules.win_tricks} tricks win, play stops when a side has {rules.end_at}"
    if 2 * half == rules.tricks and rules.win_tricks == half + 1:
        text += f"; at {half}-{half} " + ("the last trick decides" if rules.last_trick_breaks_tie else
                                          f"it is a tie, {plural(rules.tie_points, 'point')} each")
    return text


def win_short(rules: Rules) -> str:
    """`win_rule`'s first words, for the head of every trick's screen."""
    return f"first to {rules.win_tricks} wins" if rules.end_at == rules.win_tricks else f"{rules.win_tricks} tricks win"


def open_points(rules: Rules, other: bool | None) -> tuple[int, ...]:
    """What a win may still score at a declaration, in order, given the other side's answer
    (None: not given yet): every level; after a no, without and with yours; after a yes, the
    same with one level up. A level the other's answer has ruled out is never offered."""
    levels = rules.win_points
    return levels if other is None else levels[1:] if other else levels[:2]


def stakes(rules: Rules, declarations=(None, None), me: int = 0) -> str | None:
    """What a win is worth, where points count (a series, a bonus or points above 1); at the
    second declaration, only what the first answer left open."""
    if rules.target_points is None and rules.bonus == "none" and max(rules.win_points) <= 1:
        return None
    one, two, three = rules.win_points
    if rules.bonus == "declaration":
        other = declarations[1 - me]
        if declarations[me] is None and other is not None:
            now, more = open_points(rules, other)
            them = SIDES[1 - me]
            said = f"{them} declared GeoPlunging" if other else f"{them} did not declare"
            if now == more:
                return f"A win scores {now} points ({said}), whether or not you declare"
            return f"A win scores {now} points ({said}), {more} if you declare{' too' if other else ''}"
        if all(d is not None for d in declarations):
            said = [s for s in (me, 1 - me) if declarations[s]]
            names = {0: "nobody declared", 2: "both declared"}.get(len(said)) or \
                f"{who(said[0], me)} declared"
            return f"A win scores {rules.win_points[len(said)]} points ({names} GeoPlunging)"
        if two == three:
            return f"A win scores {one} points, {two} if anyone declares GeoPlunging"
        return f"A win scores {one} points, {two} if one side declares GeoPlunging, {three} if both do"
    if rules.bonus == "shutout":
        return f"A win scores {one} points, {two} for a shutout"
    return f"A win scores {plural(one, 'point')}"


def unseen_cards(view: View) -> list[int]:
    """The cards this seat has not seen: the opponent's hand (and a face-down lead) among them."""
    known = set(view.hand) | set(view.discards) | set(view.opponent_discards or ())
    for t in view.history:
        known |= {t.lead, t.follow}
    if view.lead_card is not None:
        known.add(view.lead_card)
    return [c for c in range(view.rules.deck) if c not in known]


def opponent_holds(view: View, kind: str) -> int:
    """Cards the opponent holds now (a face-down lead on the table counted as held)."""
    if kind == "discard":
        return view.rules.hand_size
    if kind == "follow" and view.lead_card is not None:
        return len(view.hand) - 1
    return len(view.hand)


def beaten_by(rules: Rules, card: int, k: int, base: int) -> list[int]:
    """The cards that beat `card` led in category k at `base`."""
    return [c for c in range(N_CARDS) if c != card and trick_winner(rules, 0, card, c, k, base) == 1]


def usefulness(c: int, bases) -> tuple[int, int, int]:
    """(distance, category, base) of the card's rank nearest one of `bases`."""
    return min((abs(rank(c, k) - b), k, b) for k in range(3) for b in sorted(set(bases)))


# ----- the story ----------------------------------------------------------------------------
@dataclass(frozen=True)
class Story:
    """The public facts of a deal as one seat knows them: its own discards, the opponent's
    where the rules turn them up (None: hidden or not made), the first lead, the
    declarations and the finished tricks."""

    rules: Rules
    me: int
    discarded: bool
    discards: tuple[int, ...]
    opponent_discards: tuple[int, ...] | None
    first_lead: int | None
    declarations: tuple[bool | None, bool | None]
    tricks: tuple[Trick, ...]

    @staticmethod
    def of_view(decision: Decision) -> Story:
        view: View = decision.observation
        return Story(view.rules, view.side, decision.kind != "discard", view.discards, view.opponent_discards,
                     view.first_lead, view.declarations, view.history)

    @staticmethod
    def of_game(game: Game, me: int) -> Story:
        rules = game.rules
        return Story(rules, me, True, game.discards[me], game.discards[1 - me] if rules.discards_public else None,
                     game.first_lead, game.declarations or (None, None), tuple(game.tricks))

    def lines(self) -> list[str]:
        """One entry a happening (a trick is two lines), in order; each depends only on what
        came before it, so the list only grows at its end."""
        rules, me = self.rules, self.me
        out: list[str] = []
        if not self.discarded:
            return out
        out += self._discard_lines()
        if rules.declarations:
            first = self.first_lead
            for side in (first, 1 - first):
                said = self.declarations[side]
                if said is None:
                    break
                name = "You" if side == me else SIDES[side]
                out.append(f"{name} declared GeoPlunging." if said else f"{name} did not declare GeoPlunging.")
            if all(d is not None for d in self.declarations):
                out.append(stakes(rules, self.declarations, me) + ".")
        won = [0, 0]
        for n, t in enumerate(self.tricks, 1):
            won[t.winner] += 1
            out += trick_lines(rules, me, n, t, won)
        return out

    def _discard_lines(self) -> list[str]:
        rules, me, opp = self.rules, self.me, 1 - self.me
        them = SIDES[opp]
        first = "You lead" if self.first_lead == me else f"{them} leads"
        if not rules.discards:
            return [f"{first} the first trick."]
        if self.opponent_discards is None:
            return [f"You discarded {sorted_codes(self.discards)}; {them} discarded "
                    f"{plural(rules.discards, 'card')} face-down.", f"{first} the first trick."]
        mine, theirs = self.discards, self.opponent_discards
        lines = [f"Discards, face-up: you {sorted_codes(mine)}, {them} {sorted_codes(theirs)}."]
        if rules.first_lead == "discard-statehood":
            best = {s: min(cards, key=lambda c: rank(c, STATEHOOD)) for s, cards in ((me, mine), (opp, theirs))}
            w, x = best[self.first_lead], best[1 - self.first_lead]
            lines.append(f"{first} first: {POSTAL[w]}'s statehood ({ordinal(rank(w, STATEHOOD))}) is closer "
                         f"to 1 than {POSTAL[x]}'s ({ordinal(rank(x, STATEHOOD))}).")
        else:
            lines.append(f"{first} the first trick.")
        return lines


def trick_lines(rules: Rules, me: int, n: int, t: Trick, won) -> list[str]:
    """A finished trick in two lines: who led what, who played what; then why it was won and
    the tricks count."""
    cat = CATEGORIES[t.category]
    hidden = " face-down" if rules.hidden_lead else ""
    lw, fw = who(t.leader, me), who(1 - t.leader, me)
    head = f"Trick {n}, base {t.base}: {lw} led {POSTAL[t.lead]} for {cat}{hidden}, " \
           f"{fw} played {POSTAL[t.follow]}."
    lr, fr = rank(t.lead, t.category), rank(t.follow, t.category)
    w, x = (t.lead, t.follow) if t.winner == t.leader else (t.follow, t.lead)
    win = "you win" if t.winner == me else f"{SIDES[t.winner]} wins"
    if abs(lr - t.base) == abs(fr - t.base):
        why = f"{POSTAL[t.lead]} ({ordinal(lr)}) and {POSTAL[t.follow]} ({ordinal(fr)}) tie at base {t.base}: " \
              f"the {'lead' if t.winner == t.leader else 'reply'} wins"
    else:
        why = f"{POSTAL[w]} ({ordinal(rank(w, t.category))}) is closer to base {t.base} than " \
              f"{POSTAL[x]} ({ordinal(rank(x, t.category))}): {win}"
    tally = f"Tricks: you {won[me]}, {SIDES[1 - me]} {won[1 - me]}."
    return [head, f"  {why}. {tally}"]


def verdict(game: Game, me: int) -> list[str]:
    """The last lines of a deal: an early stop, then who won, the tricks and the points."""
    rules = game.rules
    won, winner, points = game.tricks_won, game.winner, game.points
    noun = "battle" if rules.name.startswith("battle") else "game"
    lines = []
    left = rules.tricks - len(game.tricks)
    if left:
        side = 0 if won[0] > won[1] else 1
        lines.append(f"{'You have' if side == me else SIDES[side] + ' has'} {won[side]} tricks: the {noun} stops "
                     f"with {plural(left, 'trick')} unplayed.")
    score = f"{won[me]}-{won[1 - me]}"
    counted = stakes(rules) is not None
    if winner is None:
        return lines + [f"Tie, {score}" + (f": {plural(points[0], 'point')} each." if counted else ".")]
    how = " on the last trick" if won[0] == won[1] else ""
    if winner == me:
        gain = f"{',' if how else ''} and {plural(points[me], 'point')}" if counted else ""
        return lines + [f"You won the {noun} {score}{how}{gain}."]
    gain = f"; {SIDES[winner]} scores {plural(points[winner], 'point')}" if counted else ""
    return lines + [f"You lost the {noun} {score}{how}{gain}."]


# ----- the views ----------------------------------------------------------------------------
class RanksViews(Views):
    """`geolab.game.Views` for Play the Ranks: ``discard``, ``declare``, ``lead``, ``follow``."""

    # ----- what the seat sees ---------------------------------------------------------------
    def screen(self, decision: Decision) -> list[str]:
        view: View = decision.observation
        rules, kind = view.rules, decision.kind
        me, them = view.side, SIDES[1 - view.side]
        if kind in ("discard", "declare"):  # the start of a deal: the whole of its rules
            what = f"a new deal, {len(view.hand)} cards" if kind == "discard" else "GeoPlunging?"
            lines = [f"Play the Ranks ({rules.name}), you are {SIDES[me]} against {them}: {what}"]
            lines += wrapped(win_rule(rules).capitalize() + ".")
            plan = schedule(rules, view.power_bases)
            choice = f"The lead chooses each trick's base, {' or '.join(map(str, rules.lead_bases))}"
            lines += wrapped(f"Bases: {plan}; the rank closer to the base wins." if plan else
                             choice + (", and plays its card face-down." if rules.hidden_lead else "."))
            pays = stakes(rules, view.declarations, me)
            if pays and kind == "discard":
                lines += wrapped(pays + ".")
        else:
            won = view.tricks_won
            lines = [f"Trick {view.trick + 1} of {rules.tricks} ({rules.name}): tricks you {won[me]}, "
                     f"{them} {won[1 - me]}; {win_short(rules)}."]
            pays = stakes(rules, view.declarations, me)
            if pays:
                lines += wrapped(pays + ".")
        lines += self._known(decision)
        lines += self._table(decision)
        lines += self._ask(decision)
        return fit(lines)

    def prompt(self, decision: Decision) -> str:
        view: View = decision.observation
        kind = decision.kind
        if kind == "discard":
            n = view.rules.discards
            return f"discard {'CARD' if n == 1 else f'{n} CARDS'} > " if n else "no discards: type none > "
        if kind == "declare":
            return "declare GeoPlunging? y/n > "
        if kind == "lead":
            return "lead CARD CATEGORY BASE > " if len(view.allowed_bases()) > 1 else "lead CARD CATEGORY > "
        return "answer CARD > "

    def help(self, decision: Decision) -> list[str]:
        return fit(self._help(decision), WIDTH - 2)  # the play loop indents help by two

    def _help(self, decision: Decision) -> list[str]:
        view: View = decision.observation
        cards = self._cards(view)
        a, b = POSTAL[cards[0]], POSTAL[cards[-1]]
        kind, rules = decision.kind, view.rules
        if kind == "discard":
            if not rules.discards:
                return ["These rules have no discards: type none."]
            pick = cards[: rules.discards]
            return [f"Discard {plural(rules.discards, 'card')}: postal codes ('{sorted_codes(pick)}') or the numbers "
                    f"beside them ('{' '.join(str(i) for i in range(1, rules.discards + 1))}').",
                    "Keep cards whose ranks lie near the bases to come; " + (
                        "the face-up discard with the better statehood leads first." if
                        rules.first_lead == "discard-statehood" else "discards are never shown.")]
        if kind == "declare":
            return ["Type y to declare GeoPlunging, n not to.",
                    "A declaration raises what the deal's winner scores, whoever wins it: declare when "
                    "you expect to win."]
        if kind == "lead":
            bases = view.allowed_bases()
            if len(bases) > 1:
                return [f"Type a card, a category and a base: '{a} size {bases[0]}' or '{b} pop {bases[-1]}';",
                        f"a card's number works too: '1 state {bases[0]}'.",
                        "Categories: size (s), statehood (state, st), population (pop, p).",
                        f"Your card stays face-down: {SIDES[1 - view.side]} answers without seeing it and "
                        f"wins only with a card {closer(rules)} to your base."]
            return [f"Type a card and a category: '{a} size', '{b} pop', or a number: '1 state'.",
                    "Categories: size (s), statehood (state, st), population (pop, p).",
                    f"{base_means(bases[0]).capitalize()}. The 'best' column: the category each card "
                    "is nearest the base in."]
        lines = [f"Type one card: '{a}' or its number '1'. The lead chose the category and base."]
        if view.lead_card is None:
            lines.append("The lead card is face-down: the 'rank' column is each card's rank in the named "
                         "category.")
        else:
            lines.append("The 'vs' column says which of your cards beat the lead card.")
        return lines

    def label(self, decision: Decision, action) -> str:
        view: View = decision.observation
        kind = decision.kind
        if kind == "discard":
            return sorted_codes(action) if action else "none"
        if kind == "declare":
            return "yes" if action else "no"
        if kind == "lead":
            return lead_label(view.rules, action, view.trick, view.power_bases)
        return POSTAL[action]

    def parse(self, decision: Decision, text: str):
        kind = decision.kind
        words = text.translate(SEPARATORS).lower().split()
        if kind == "declare":
            return self._parse_declare(words)
        if kind == "discard":
            return self._parse_discard(decision, words)
        if kind == "lead":
            return self._parse_lead(decision, words)
        return self._parse_follow(decision, words)

    def note(self, decision: Decision, action, text: str) -> str | None:
        """A line shown as a move is played, for words it ignored: an answer that names a
        category plays the card (the intent is clear) in the leader's category."""
        if decision.kind != "follow":
            return None
        said = {CATEGORY_WORDS[w] for w in text.translate(SEPARATORS).lower().split() if w in CATEGORY_WORDS}
        if not said:
            return None
        view: View = decision.observation
        led = CATEGORIES[view.lead_category]
        other = "".join(f", not {CATEGORIES[k]}" for k in sorted(said - {view.lead_category}))
        return f"{POSTAL[action]}: the category is {SIDES[1 - view.side]}'s, the leader's: {led}{other}"

    # ----- the story ----------------------------------------------------------------------
    def events(self, decision: Decision) -> list[str]:
        return fit(Story.of_view(decision).lines())

    def ending(self, played: Game, seat: int) -> list[str]:
        return fit(Story.of_game(played, seat).lines() + verdict(played, seat))

    def reason(self, decision: Decision, action) -> str:
        view: View = decision.observation
        kind = decision.kind
        if kind == "discard":
            return self._reason_discard(view, action)
        if kind == "declare":
            return self._reason_declare(view, action)
        if kind == "lead":
            return self._reason_lead(view, action)
        return self._reason_follow(view, action)

    # ----- the scene (geolab.scene) -----------------------------------------------------------
    def scene(self, decision: Decision) -> Scene:
        """The table as objects: the hand (the cards a legal move plays are selectable), the
        lead on the table (face-down where the rules hide it), the discards and the last
        trick; the trick, score, base and stakes as facts; the lead's category stands out."""
        view: View = decision.observation
        rules, kind, me = view.rules, decision.kind, view.side
        them = SIDES[1 - me]
        playable = {c for a in decision.legal for c in self._played(kind, a)}
        piles = []
        if kind == "follow":
            lead = hidden("lead", ("led",)) if view.lead_card is None else \
                state_card(view.lead_card, f"lead-{POSTAL[view.lead_card]}", marks=("led",))
            piles.append(Pile("trick", f"{them} led", (lead,)))
        piles.append(pile("hand", "Your cards", self._cards(view), "hand", selectable=playable))
        if view.history:
            t = view.history[-1]
            marks = {t.lead: ["led"], t.follow: []}
            marks[t.lead if t.winner == t.leader else t.follow].append("won")
            piles.append(pile("trick", f"Trick {len(view.history)}: {who(t.winner, me)} won", (t.lead, t.follow),
                              "last", marks=lambda c: marks[c]))
        if kind != "discard" and rules.discards:
            theirs = pile("discards", f"{them}'s discards", sorted(view.opponent_discards, key=POSTAL.__getitem__),
                          "theirs") if view.opponent_discards is not None else \
                Pile("discards", f"{them}'s discards", tuple(hidden(f"theirs-{i}") for i in range(rules.discards)))
            piles += [pile("discards", "Your discards", sorted(view.discards, key=POSTAL.__getitem__), "mine"), theirs]
        facts = [Fact("round", f"{rules.name}: you are {SIDES[me]}, against {them}")]
        if kind in ("lead", "follow"):
            won = view.tricks_won
            facts += [Fact("round", f"Trick {view.trick + 1} of {rules.tricks}"),
                      Fact("score", f"Tricks: you {won[me]}, {them} {won[1 - me]}; {win_short(rules)}")]
        else:
            facts.append(Fact("rule", win_rule(rules).capitalize()))
        if kind == "follow":
            facts.append(Fact("base", f"{CATEGORIES[view.lead_category]}, {base_means(view.lead_base)}"))
        elif kind == "lead" and len(view.allowed_bases()) == 1:
            facts.append(Fact("base", base_means(view.allowed_bases()[0]).capitalize()))
        elif kind == "lead":
            facts.append(Fact("base", f"You choose the base, {' or '.join(map(str, view.allowed_bases()))}"))
        pays = stakes(rules, view.declarations, me)
        if pays:
            facts.append(Fact("rule", pays))
        several = kind == "lead" and len(view.allowed_bases()) > 1
        options = {"declare": ("GeoPlunging",), "lead": ("category", "base") if several else ("category",)}
        return Scene("Play the Ranks", kind, self.prompt(decision), tuple(piles), tuple(facts),
                     view.lead_category if kind == "follow" else None,
                     scene_moves(decision, self.label, lambda a: self._move(kind, a, several)),
                     options=options.get(kind, ()))

    @staticmethod
    def _played(kind: str, action) -> tuple[int, ...]:
        return tuple(action) if kind == "discard" else (action.card,) if kind == "lead" else \
            () if kind == "declare" else (action,)

    def _move(self, kind: str, action, several: bool):
        cards = tuple(f"hand-{POSTAL[c]}" for c in self._played(kind, action))
        if kind == "declare":
            return cards, ("declare" if action else "do not declare",)
        if kind == "lead":
            return cards, (CATEGORIES[action.category], *([f"base {action.base}"] if several else []))
        return cards, ()

    # ----- screen parts -------------------------------------------------------------------
    @staticmethod
    def _cards(view: View) -> list[int]:
        """The hand in the screen's (postal-code) order: menu numbers index it."""
        return sorted(view.hand, key=lambda c: POSTAL[c])

    @staticmethod
    def _known(decision: Decision) -> list[str]:
        """The discards, the first lead, what the opponent may hold; the trick's base."""
        view: View = decision.observation
        rules, kind, me = view.rules, decision.kind, view.side
        them = SIDES[1 - me]
        lines = []
        if kind == "discard":
            if rules.first_lead == "given":
                lines.append(f"{'You lead' if view.first_lead == me else them + ' leads'} the first trick.")
            else:
                lines.append("The face-up discard with the better statehood (closer to 1) leads first.")
        elif kind == "declare":
            first = view.first_lead
            lines.append(f"{'You lead' if first == me else them + ' leads'} the first trick.")
            other = view.declarations[1 - me]
            if other is not None:
                lines.append(f"{them} {'declared' if other else 'did not declare'} GeoPlunging.")
            else:
                lines.append(f"{them} answers after you, knowing your answer.")
            lines += wrapped(stakes(rules, view.declarations, me) + "; the bonus goes to whoever wins the deal.")
        if kind in ("lead", "follow") and rules.discards:
            if view.opponent_discards is not None:
                lines.append(f"Discards (face-up): you {sorted_codes(view.discards)}, {them} "
                             f"{sorted_codes(view.opponent_discards)}.")
            else:
                lines.append(f"You discarded {sorted_codes(view.discards)}; {them}'s "
                             f"{'discard is' if rules.discards == 1 else 'discards are'} hidden.")
        unseen = len(unseen_cards(view))
        holds = opponent_holds(view, kind)
        if kind == "follow" and view.lead_card is None:
            lines.append(f"{them}'s face-down card and its other {holds - 1} are among the {unseen} cards you "
                         "have not seen.")
        else:
            lines.append(f"{them} holds {plural(holds, 'card')}, from the {unseen} you have not seen.")
        if kind == "lead":
            bases = view.allowed_bases()
            if len(bases) > 1:
                lines.append(f"You lead face-down and choose the base, {' or '.join(map(str, bases))}: the rank "
                             "closer to it wins.")
                lines.append(f"{them} answers without seeing your card and wins only if {closer(rules)}.")
            else:
                later = [(t, rules.base_of(t, view.power_bases)) for t in range(view.trick + 1, rules.tricks)]
                change = next(((t, b) for t, b in later if b != bases[0]), None)
                lines.append(f"You lead at {base_means(bases[0])}" +
                             (f"; base {change[1]} from trick {change[0] + 1}." if change else "."))
                if bases[0] not in (1, N_CARDS):
                    lines.append(f"Equal distance goes to the {'lead' if rules.equal_distance == 'lead' else 'reply'}.")
        if kind == "follow":
            cat, base = CATEGORIES[view.lead_category], view.lead_base
            if view.lead_card is None:
                lines.append(f"{them} led a card FACE-DOWN for {cat} at base {base}: you see it after you answer.")
                lines.append(f"{them} wins unless your card is {closer(rules)} to {base} in {cat}.")
            else:
                c = view.lead_card
                lines.append(f"{them} led {POSTAL[c]} {NAMES[c]} for {cat}: it is "
                             f"{ordinal(rank(c, view.lead_category))} in {cat}.")
                lines.append(f"{base_means(base).capitalize()}; the 'vs {POSTAL[c]}' column shows your winners.")
        return lines

    def _table(self, decision: Decision) -> list[str]:
        view: View = decision.observation
        column = self._column(decision)
        head = f"   {column[0]}" if column else ""
        lines = [f"  #  {'your cards':<17} {'size':>4} {'statehood':>9} {'population':>10}{head}"]
        for i, c in enumerate(self._cards(view), 1):
            ranks = [rank(c, k) for k in range(3)]
            row = f"{i:>3}  {POSTAL[c]} {NAMES[c]:<14} {ranks[0]:>4} {ranks[1]:>9} {ranks[2]:>10}"
            lines.append(row + (f"   {column[1](c)}" if column else ""))
        return lines

    @staticmethod
    def _column(decision: Decision):
        """The table's last column, (heading, card -> text), for trick decisions: a lead's
        best category (and base), whether a card beats the lead card, or its rank in the
        category of a face-down lead."""
        view: View = decision.observation
        rules, side = view.rules, view.side
        if decision.kind == "lead":
            bases = view.allowed_bases()

            def best(c):
                _, k, b = usefulness(c, bases)
                return f"{SHORT[k]} {ordinal(rank(c, k))}" + (f" at {b}" if len(bases) > 1 else "")
            return "best", best
        if decision.kind != "follow":
            return None
        lead, k, b = view.lead_card, view.lead_category, view.lead_base
        if lead is None:
            return "rank", lambda c: ordinal(rank(c, k))

        def against(c):
            return "wins" if trick_winner(rules, 1 - side, lead, c, k, b) == side else "loses"
        return f"vs {POSTAL[lead]}", against

    def _ask(self, decision: Decision) -> list[str]:
        view: View = decision.observation
        kind, rules = decision.kind, view.rules
        cards = self._cards(view)
        if kind == "discard":
            n = rules.discards
            if not n:
                return ["No discards under these rules: type none."]
            return [f"Discard {plural(n, 'card')}: postal code{'s' if n > 1 else ''} or number"
                    f"{'s' if n > 1 else ''}, e.g. '{sorted_codes(cards[:n])}' or "
                    f"'{' '.join(str(i) for i in range(1, n + 1))}'."]
        if kind == "declare":
            return ["Declare GeoPlunging? y or n."]
        if kind == "lead":
            bases = view.allowed_bases()
            if len(bases) > 1:
                return [f"Lead a card, a category and a base, e.g. '{POSTAL[cards[-1]]} pop {bases[-1]}' or "
                        f"'1 size {bases[0]}'."]
            return [f"Lead a card and a category, e.g. '{POSTAL[cards[-1]]} size' or '1 pop'."]
        return [f"Answer with one card, e.g. '{POSTAL[cards[-1]]}' or '1'."]

    # ----- reading moves ------------------------------------------------------------------
    def _card(self, view: View, word: str) -> int | None:
        """The card a word names (a held postal code or a menu number); None if the word is
        neither a number nor a postal code."""
        cards = self._cards(view)
        holding = " ".join(POSTAL[c] for c in cards)
        n = typed_number(word)
        if n is not None:
            if not 1 <= n <= len(cards):
                raise MoveError(f"there is no card {word}: your cards are numbered 1 to {len(cards)}")
            return cards[n - 1]
        if word.upper() in POSTAL:
            c = POSTAL.index(word.upper())
            if c not in view.hand:
                raise MoveError(f"{POSTAL[c]} is not in your hand (you hold {holding})")
            return c
        return None

    def _cards_only(self, decision: Decision, words: list[str], what: str) -> list[int]:
        view: View = decision.observation
        chosen = []
        for w in words:
            if w in CATEGORY_WORDS:
                raise MoveError(f"{what}: name cards only, no category ('{w}')")
            c = self._card(view, w)
            if c is None:
                raise MoveError(f"'{w}' is not one of your cards: type a postal code or a number "
                                f"1-{len(view.hand)}")
            if c in chosen:
                raise MoveError(f"{POSTAL[c]} is named twice")
            chosen.append(c)
        return chosen

    def _parse_discard(self, decision: Decision, words: list[str]):
        view: View = decision.observation
        n = view.rules.discards
        if not n:
            if words in ([], ["none"]):
                return ()
            raise MoveError("these rules have no discards: type none")
        chosen = self._cards_only(decision, words, "discard")
        if len(chosen) != n:
            cards = self._cards(view)
            raise MoveError(f"discard {plural(n, 'card')}, not {len(chosen)}: e.g. '{sorted_codes(cards[:n])}' or "
                            f"'{' '.join(str(i) for i in range(1, n + 1))}'")
        return tuple(sorted(chosen))

    @staticmethod
    def _parse_declare(words: list[str]) -> bool:
        if len(words) == 1 and words[0] in YES:
            return True
        if len(words) == 1 and words[0] in NO:
            return False
        raise MoveError("answer y (declare GeoPlunging) or n")

    def _parse_follow(self, decision: Decision, words: list[str]) -> int:
        view: View = decision.observation
        if not words:
            raise MoveError("answer with one card, e.g. " + POSTAL[self._cards(view)[0]] + " or 1")
        chosen = self._cards_only(decision, [w for w in words if w not in CATEGORY_WORDS], "answer")
        if len(chosen) != 1:
            raise MoveError(f"answer with one card, not {len(chosen)}")
        return chosen[0]

    def _parse_lead(self, decision: Decision, words: list[str]) -> Lead:
        view: View = decision.observation
        bases = view.allowed_bases()
        cards: list[int] = []
        cats: list[int] = []
        numbers: list[int] = []
        for w in words:
            if w in CATEGORY_WORDS:
                cats.append(CATEGORY_WORDS[w])
            elif (n := typed_number(w)) is not None:
                numbers.append(n)
            else:
                c = self._card(view, w)
                if c is None:
                    raise MoveError(f"'{w}' is not a postal code, a category or a number")
                cards.append(c)
        if not cards and numbers:
            cards.append(self._card(view, str(numbers.pop(0))))
        example = POSTAL[cards[0]] if cards else POSTAL[self._cards(view)[0]]
        if not cards:
            raise MoveError(f"name a card and a category, e.g. {example} size (or 1 size)")
        if len(cards) > 1:
            raise MoveError(f"lead one card, not {len(cards)}")
        if len(set(cats)) != 1:
            if not cats:
                raise MoveError(f"say the category: {example} size, {example} state or {example} pop")
            raise MoveError("name one category: size, state or pop")
        if len(bases) > 1:
            options = " or ".join(f"{example} {SHORT[cats[0]]} {b}" for b in bases)
            if len(numbers) != 1:
                raise MoveError(f"say the base too: {options}" if not numbers else f"one base: {options}")
            if numbers[0] not in bases:
                raise MoveError(f"base {numbers[0]} is not allowed: choose {' or '.join(map(str, bases))}")
        elif numbers and numbers != [bases[0]]:
            raise MoveError(f"this trick's base is {bases[0]}: type just {example} {SHORT[cats[0]]}")
        return Lead(cards[0], cats[0], numbers[0] if len(bases) > 1 else bases[0])

    # ----- hints' reasons -----------------------------------------------------------------
    @staticmethod
    def _none_held(view: View, kind: str, threats: int) -> float:
        """The chance the opponent holds none of `threats` unseen cards (under a face-down
        lead: that the card on the table is none of them), its cards being a random draw."""
        unseen, holds = len(unseen_cards(view)), opponent_holds(view, kind)
        if kind == "follow" and view.lead_card is None:
            holds = 1
        return comb(unseen - threats, holds) / comb(unseen, holds)

    def _reason_lead(self, view: View, lead: Lead) -> str:
        """A lead B likely cannot beat is a trick taken; one B almost surely beats is a card
        given away, and the reason says so and why that card (the least useful one, keeping
        the cards that can still win)."""
        rules, c, k, b = view.rules, lead.card, lead.category, lead.base
        them = SIDES[1 - view.side]
        head = f"{POSTAL[c]} is {ordinal(rank(c, k))} in {CATEGORIES[k]}"
        every = beaten_by(rules, c, k, b)
        unseen = set(unseen_cards(view))
        live = sorted((x for x in every if x in unseen), key=lambda x: abs(rank(x, k) - b))
        if not every:
            return f"{head}: no card beats it at base {b}, a sure trick"
        if not live:
            return f"{head}: every card that beats it at base {b} ({sorted_codes(every)}) is seen: a sure trick"
        names = ", ".join(f"{POSTAL[x]} ({ordinal(rank(x, k))})" for x in live[:3])
        more = f" and {len(live) - 3} more" if len(live) > 3 else ""
        safe = self._none_held(view, "lead", len(live))
        if safe >= 0.5:
            beat = "beats" if len(live) == 1 else "beat"
            only = "only " if len(live) <= 2 else ""
            none = "it" if len(live) == 1 else "none of them"
            likely = "likely takes the trick" if safe >= 0.8 else "takes the trick more often than not"
            return (f"{head}: {only}{plural(len(live), 'unseen card')} {beat} it at base {b} ({names}{more}); "
                    f"{them} holds {none} with chance {percent(safe)}, so it {likely}")
        surely = "surely" if safe == 0 else "almost surely" if safe < 0.05 else "probably"
        do = "does" if len(live) == 1 else "do"
        one = "it" if len(live) == 1 else "one of them"
        held = f"{them} must hold {one}" if safe == 0 else f"{them} holds {one} with chance {percent(1 - safe)}"
        return (f"{head}: {them} {surely} beats it at base {b} ({plural(len(live), 'unseen card')} {do}: "
                f"{names}{more}; {held}), so it is {self._given_away(view, c)}")

    @staticmethod
    def _given_away(view: View, card: int) -> str:
        """Why a lead that likely loses is worth making, as a card given away: the least useful
        card for the tricks to come is a cheap one; any other is called only a card to give
        away, with how far it and the least useful one lie from a base (never "cheap" beside
        "not your least useful"), and the cards kept that can still win."""
        bases = view.rules.future_bases(view.trick, view.power_bases)
        rest = sorted((x for x in view.hand if x != card), key=lambda x: (usefulness(x, bases), x))
        worst = max(view.hand, key=lambda x: (usefulness(x, bases)[0], -x))
        if card == worst:
            why = "a cheap card to give away: losing the trick costs only your least useful card for the tricks to come"
        else:
            far, least = usefulness(card, bases)[0], usefulness(worst, bases)[0]
            why = (f"a card to give away: its best rank is {far} from a base to come, against {least} for "
                   f"{POSTAL[worst]}, your least useful card")
        if not rest:
            return why
        kept = []
        for x in rest[:3]:
            _, k, b = usefulness(x, bases)
            kept.append(f"{POSTAL[x]} ({ordinal(rank(x, k))} in {CATEGORIES[k]}, base {b})")
        return f"{why}, and you keep {', '.join(kept)}, your nearest to a base, for the tricks they can win"

    def _reason_follow(self, view: View, card: int) -> str:
        rules, k, b = view.rules, view.lead_category, view.lead_base
        cat = CATEGORIES[k]
        mine = f"{POSTAL[card]} ({ordinal(rank(card, k))})"
        if view.lead_card is None:
            unseen = unseen_cards(view)
            threats = [x for x in unseen if trick_winner(rules, 1 - view.side, x, card, k, b) == 1 - view.side]
            if not threats:
                return f"{mine} wins at base {b} in {cat} whatever the face-down card is"
            best = min(view.hand, key=lambda x: (abs(rank(x, k) - b), x))
            if card != best:
                return (f"{mine} is not your best in {cat} ({POSTAL[best]} is): it gives the trick up "
                        "cheaply and keeps your strong cards")
            return (f"{mine} is your nearest to {b} in {cat}: it loses only to {plural(len(threats), 'unseen card')}"
                    f", so it wins with chance {percent(self._none_held(view, 'follow', len(threats)))} if the "
                    "lead is random")
        lead = view.lead_card
        theirs = f"{POSTAL[lead]} ({ordinal(rank(lead, k))})"
        winners = [x for x in view.hand if trick_winner(rules, 1 - view.side, lead, x, k, b) == view.side]
        if card in winners:
            cheapest = max(winners, key=lambda x: (abs(rank(x, k) - b), -x))
            tail = ", your cheapest winner" if card == cheapest else ""
            return f"{mine} is closer to base {b} than {theirs} in {cat}: it takes the trick{tail}"
        later = rules.future_bases(view.trick + 1, view.power_bases)
        weakest = max(view.hand, key=lambda x: (usefulness(x, later)[0], -x))
        spare = f"{POSTAL[card]} is your least useful card for the tricks to come" if card == weakest else \
            f"{POSTAL[card]} is given up to keep your better cards"
        if not winners:
            return f"none of your cards beats {theirs} at base {b} in {cat}; {spare}"
        return f"{sorted_codes(winners)} would beat {theirs}, but may be worth more later; {spare}"

    @staticmethod
    def _reason_discard(view: View, action) -> str:
        if not action:
            return "these rules have no discards"
        rules = view.rules
        bases = rules.future_bases(0, view.power_bases)
        parts = []
        for c in action:
            d, k, b = usefulness(c, bases)
            parts.append(f"{POSTAL[c]}'s best rank ({ordinal(rank(c, k))} in {CATEGORIES[k]}) is {d} from base {b}")
        text = "; ".join(parts)
        best = min(action, key=lambda c: rank(c, STATEHOOD))
        if rules.first_lead == "discard-statehood" and rank(best, STATEHOOD) <= LEAD_STATEHOOD:
            return f"{text}; its statehood ({ordinal(rank(best, STATEHOOD))}) may also win you the first lead"
        return text

    @staticmethod
    def _reason_declare(view: View, declare: bool) -> str:
        bases = view.rules.future_bases(0, view.power_bases)
        near = [c for c in view.hand if usefulness(c, bases)[0] <= 3]
        need = view.rules.win_tricks
        held = f"{plural(len(near), 'card')} within 3 of a base" + (f" ({sorted_codes(near)})" if near else "")
        if declare:
            return f"you hold {held}: a strong hand, and the bonus goes to the winner"
        return f"you hold {held} and need {need} tricks: the bonus would more likely go to {SIDES[1 - view.side]}"


VIEWS = RanksViews()
