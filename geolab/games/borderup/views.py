"""Border-Up at the keyboard (`geolab.game.Views`): the race and its story, for
`geolab play border-up`.

**The race** (``claim``, a timed decision). The screen shows the team's 18 cards by postal code
and state name, never their borders: recalling those *is* the race. A claim is typed as two
groups, ``MD VA NC / ME NH VT`` (either group first), or as the six postal codes in any order,
and a split into two border groups is found here (`geolab.games.race_views.claimed` reads the
text). Six different cards of the hand that are not two border groups are a wrong claim
(`WRONG`), which gives the other team the game; anything else (an unknown code, a card not
held, a card twice, not six cards) is a one-line `MoveError`. ``pass`` (read by the play loop)
is no claim. Nothing on the race screen or in its help is drawn from the hand's solutions: the
example is a fixed claim sharing the fewest cards with the hand, and the play loop refuses
``moves`` and ``hint`` at a race.

**The story** (`events`, `ending`): the deals dealt again, who called GeoPlunge first, with
which groups and why they hold (or that the claim was wrong), the team's own later claim, and
the verdict: won, lost or a tie, and why.
"""

from __future__ import annotations

from collections.abc import Sequence

from geolab.cards import card
from geolab.common.text import WIDTH, codes, fit, plural, wrapped
from geolab.game import Decision, Views
from geolab.games import groups
from geolab.games.borderup.reference import SIDES, WRONG, Played, Seen, Solution, View, final_view, solutions
from geolab.games.race_views import (
    Lesson,
    claimed,
    fewest_shared,
    hand_grid,
    is_wrong_words,
    laid_groups,
    laid_text,
    race_scene,
    seconds_text,
    typed_cards,
    why_border,
    why_not_border,
)
from geolab.scene import Fact, Picture, Scene
from geolab.stepwise import Claim

#: Claims shown as examples of how to type one (two border groups under every border
#: setting); the one sharing the fewest cards with the hand is shown, so it never hands over
#: a claim.
EXAMPLES = ("MD VA NC / ME NH VT", "WA OR ID / NV AZ UT", "CA NV AZ / KY TN MS", "IA MN SD / GA FL AL")


def _who(seat: int, me: int, capital: bool = False) -> str:
    if seat == me:
        return "You" if capital else "you"
    return SIDES[seat]


def claim_label(action) -> str:
    """A claim in the words a person types: ``"MD NC VA / ME NH VT"`` (the smaller group
    first, each in card order), or ``"wrong claim"``."""
    if action == WRONG:
        return "wrong claim"
    return f"{codes(action.first)} / {codes(action.second)}"


def why(solution: Solution, rules) -> str:
    """``"VA borders MD and NC; NH borders ME and VT"``."""
    return "; ".join(why_border(g, rules.four_corners, rules.water) for g in solution)


def example(hand: Sequence[int]) -> str:
    return fewest_shared(EXAMPLES, hand)


def deal_lines(view: View) -> list[str]:
    """The deals dealt again, as everyone saw them."""
    if view.attempt < 2:
        return []
    return [f"The cards were dealt {view.attempt} times: neither hand held two border groups before."]


def race_lines(rules, me: int, result: Seen) -> list[str]:
    """A finished game as team `me` saw it: the first call(s) and whether they hold, its own
    claim if it came later."""
    them = SIDES[1 - me]
    if result.outcome == "dry":
        return [f"No deal held two border groups in either hand ({plural(rules.redeals + 1, 'deal')}): no race."]
    if not result.first:
        return ["Nobody called GeoPlunge."]
    out = []
    head = ""
    for seat, claim in result.first:
        name = _who(seat, me, not head)
        if claim.action == WRONG:
            cards = f": {laid_text(claim.laid)}" if claim.laid else ""
            out.append(f"{head}{name} called GeoPlunge at {seconds_text(claim.seconds)} with a wrong claim{cards}.")
        else:
            out.append(f"{head}{name} called GeoPlunge at {seconds_text(claim.seconds)}: {claim_label(claim.action)}.")
            reason = why(claim.action, rules)
            out.append(f"  {reason[:1].upper()}{reason[1:]}.")
        head = "At the same second, "
    own = result.own
    if me not in [s for s, _ in result.first] and own is not None:
        if own.action is None:
            out.append("You made no claim.")
        elif all(c.action == WRONG for _, c in result.first):
            out.append(f"Your claim ({seconds_text(own.seconds)}) came after {them}'s: not needed.")
        else:
            out.append(f"Your claim ({seconds_text(own.seconds)}) came too late.")
    return out


def why_wrong(laid, rules) -> list[str]:
    """Why a wrong claim's cards (`geolab.stepwise.Claim.laid`) are not two border groups: each
    group of three that is not one, and why; six cards laid unsplit: the border groups among
    them, none of which leaves a second."""
    fc, water = rules.four_corners, rules.water
    if len(laid) == 2:
        return [f"  {why_not_border(g, fc, water)}." for g in laid if not groups.centers(g, fc, water)]
    six = laid[0]
    found = groups.border_groups(six, fc, water)
    if not found:
        return [f"  No three of {codes(six)} are a border group."]
    named = ", ".join(codes(g) for g in found)
    return [f"  Among {codes(six)} the border groups are {named}; none leaves the other three a border group."]


#: What a Border-Up race teaches once it is over (`geolab.games.race_views.Lesson`).
LESSON = Lesson(SIDES, WRONG, claim_label, why, why_wrong, "two border groups")


def lesson(played: Played, me: int) -> list[str]:
    """After the race: both clocks (a claim never made at the table included: the game is
    over), the hand's solutions from the exact finder, and why a wrong claim of yours failed."""
    if played.claims is None:
        return []
    rules = played.rules
    return LESSON.lines(rules, me, played.claims, played.first, solutions(rules, played.deals[-1][me]))


def verdict(me: int, result: Seen) -> str:
    """Won, lost or a tie, and why, in one line."""
    them = SIDES[1 - me]
    outcome, winner = result.outcome, result.winner
    if outcome == "dry":
        return "A tie: no race was run."
    if outcome == "unclaimed":
        return "A tie: nobody claimed."
    if outcome == "tie":
        holds = [c.action != WRONG for _, c in result.first]
        return "A tie: both claims came at the same second and " + ("both hold." if all(holds) else "neither holds.")
    both = len(result.first) == 2
    if outcome == "held":
        if winner == me:
            return "You won: only your groups hold." if both else "You won: your groups hold."
        return f"You lost: only {them}'s groups hold." if both else f"You lost: {them}'s groups hold first."
    if winner == me:
        return f"You won: {them}'s claim was wrong."
    return "You lost: your claim was wrong."


class BorderUpViews(Views):
    """`geolab.game.Views` for Border-Up: one decision, ``claim`` (the race)."""

    def screen(self, decision: Decision) -> list[str]:
        view: View = decision.observation
        them = SIDES[1 - view.seat]
        lines = [f"Border-Up: you are team {SIDES[view.seat]}, against {them}."]
        lines += wrapped("Find two border groups (in each, one state borders the other two), six different cards "
                         "of yours: the first team to call GeoPlunge with groups that hold wins.", 0)
        if view.attempt > 1:
            lines.append(f"Dealt {view.attempt} times: neither hand held two border groups before.")
        lines.append(f"Your {len(view.hand)} cards:")
        lines += hand_grid(view.hand)
        lines.append(f"Claim: '{example(view.hand)}' or the six codes in any order; pass: no claim.")
        lines += wrapped(f"{them} is searching too, and the clock runs. A wrong claim gives {them} the game.", 0)
        return fit(lines)

    def prompt(self, decision: Decision) -> str:
        return "GeoPlunge! 6 CARDS (or pass) > "

    def help(self, decision: Decision) -> list[str]:
        view: View = decision.observation
        them = SIDES[1 - view.seat]
        ex = example(view.hand)
        first, second = (part.split() for part in ex.split("/"))
        reasons = "; ".join(why_border([card(c) for c in g], view.rules.four_corners, view.rules.water)
                            for g in (first, second))
        return fit([
            f"Type your two groups, either first: '{ex}' ({reasons}),",
            f"or the six postal codes in any order ('{' '.join(first + second[::-1])}'): the split into two "
            "border groups is found for you.",
            f"Six of your cards that are not two border groups are a wrong claim: it gives {them} the game "
            "(with --confirm you see so before Enter).",
            f"pass: no claim. If {them} calls GeoPlunge before your Enter, your time is up: no claim from you.",
            "Claims at the same second tie, unless only one holds.",
            "moves and hint are off in a race; geolab groups CODE ... checks a hand afterwards.",
        ], WIDTH - 2)

    def label(self, decision: Decision, action) -> str:
        return claim_label(action)

    def parse(self, decision: Decision, text: str):
        if is_wrong_words(text):
            return WRONG
        hand = decision.observation.hand
        parts = claimed(hand, text, EXAMPLES[0])
        if len(parts) == 2:
            option = Solution(*sorted(parts))
            return option if option in decision.legal else WRONG
        for option in decision.legal:
            if option != WRONG and set(parts[0]) == {*option.first, *option.second}:
                return option
        return WRONG

    def events(self, decision: Decision) -> list[str]:
        return fit(deal_lines(decision.observation))

    def ending(self, played: Played, seat: int) -> list[str]:
        view = final_view(played, seat)
        return fit(deal_lines(view) + race_lines(played.rules, seat, view.result) + lesson(played, seat)
                   + [verdict(seat, view.result)])

    def pictures(self, played: Played, seat: int) -> list[Picture]:
        """The hand on a map after the race: the groups of the team's claim where they held,
        else of the hand's first solution, and a wrong claim's cards."""
        if played.claims is None:
            return []
        hand = played.deals[-1][seat]
        maps = LESSON.maps(hand, solutions(played.rules, hand), played.claims[seat])
        return [Picture(f.text, f.picture) for f in maps]

    def reason(self, decision: Decision, action) -> str:
        view: View = decision.observation
        if action == WRONG:
            return f"a wrong claim gives {SIDES[1 - view.seat]} the game"
        return why(action, view.rules)

    def scene(self, decision: Decision) -> Scene:
        view: View = decision.observation
        them = SIDES[1 - view.seat]
        facts = [Fact("round", f"You are team {SIDES[view.seat]}, against {them}")]
        if view.attempt > 1:
            facts.append(Fact("round", f"Dealt {view.attempt} times: neither hand held two border groups before"))
        facts.append(Fact("rule", f"A wrong claim gives {them} the game"))
        return race_scene("Border-Up", view.hand, self.prompt(decision), facts,
                          "two border groups of three of your cards: in each, one state borders the other two")

    # ----- the play loop's race words (optional parts of the Views, `geolab.lab.play`) -----
    def echo(self, decision: Decision, action, text: str) -> str:
        """The line `--confirm` shows before Enter: the claim, and whether it holds."""
        view: View = decision.observation
        if action == WRONG:
            typed = typed_cards(view.hand, text)
            cards = f"{codes(typed)}: not two border groups" if typed else "a claim you know is wrong"
            return f"-> wrong claim ({cards}): it gives {SIDES[1 - view.seat]} the game"
        text = f"-> {claim_label(action)}: {why(action, view.rules)}"
        return text if len(text) <= WIDTH - 2 else f"-> {claim_label(action)}: two border groups"

    def called(self, decision: Decision, seat: int, claim: Claim, words: str) -> list[str]:
        """What the loop shows when the other team's claim comes before the person's Enter."""
        if claim.action == WRONG:
            return [f"{SIDES[seat]} called GeoPlunge at {seconds_text(claim.seconds)}, with a wrong claim: "
                    "the game is yours without a claim."]
        return [f"{SIDES[seat]} called GeoPlunge at {seconds_text(claim.seconds)}: {words}.",
                "Your time is up: no claim from you."]

    def race_note(self, decision: Decision) -> str:
        """What the loop adds when it refuses moves or a hint at a race."""
        return "geolab groups checks a hand after"

    def laid(self, decision: Decision, action, text: str) -> tuple:
        """A wrong claim's cards, as typed (`laid_groups`), kept for the record and the lesson."""
        return laid_groups(decision.observation.hand, text, EXAMPLES[0]) if action == WRONG else ()

    def race_search(self, decision: Decision) -> tuple[int, int]:
        return len(decision.observation.hand), len(decision.legal) - 1


VIEWS = BorderUpViews()
