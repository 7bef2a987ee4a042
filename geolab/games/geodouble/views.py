"""GeoDouble at the keyboard (`geolab.game.Views`): the race, Play the Ranks' stage, the story
of a match, for `geolab play geodouble`.

Every screen starts with the match line: the round, the score A-B, the target and who dealt
the stage (the race winner; the coin when the race is void).

**The race** (``claim``, a timed decision). The screen shows the seat's 18 cards by postal
code and state name, never their capitals or borders: recalling those *is* the race. A claim
is typed as two groups, ``MD VA NC / ME NY TX`` (either group first), or as the six postal
codes in any order, and the split into a border group and a capital group is found here.
Six different cards of the hand that hold no such split are a wrong claim (`WRONG`), which
gives the race to the other player; anything else (an unknown code, a card not held, a card
twice, not six cards) is a one-line `MoveError`. ``pass`` (read by the play loop) is no
claim. Nothing on the race screen or in its help is drawn from the hand's solutions: the
example is a fixed solution chosen to share the fewest cards with the hand (why it holds is
told only when it shares none), and the play loop refuses ``moves`` and ``hint`` at a race.

**Stage 2** is Play the Ranks' own views (`geolab.games.ranks.views`), handed the stage's
decision (``dataclasses.replace(decision, observation=view.stage)``), under the match line;
the declaration screen adds what declaring is worth here (5 -> 10 -> 20; after the other's
answer, only the two totals still open) against the score.

**The story** (`events`, `ending`): each finished round's race (who called GeoPlunge first,
with which groups and why they hold, a wrong claim and its cards, or a void race) and what it
teaches, told at the next decision (`lesson`: both clocks, the rival's claim, why a wrong claim
of yours failed, for a capital group which capital's letter does not match, and your hand's
solutions from the exact finder), the stage's own lines (discards, declarations, tricks), the
stage's result, the round's points and the running score; the ending adds the verdict of the
match. The stage's scenes carry the round's race hand on a map (`lesson_maps`; the end page
every round's, `pictures`); a race's scene carries nothing of any race but its own hand.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence

from geolab.cards import CAPITALS, POSTAL
from geolab.common.text import WIDTH, codes, plural
from geolab.game import Decision, Views
from geolab.games import groups
from geolab.games.geodouble.reference import (
    WRONG,
    MatchView,
    Played,
    RaceSeen,
    RoundSeen,
    Solution,
    final_view,
    race_seen,
    solutions,
)
from geolab.games.race_views import (
    Lesson,
    claimed,
    fewest_shared,
    hand_grid,
    is_wrong_words,
    laid_groups,
    laid_text,
    not_border,
    race_scene,
    seconds_text,
    typed_cards,
)
from geolab.games.race_views import why_border as border_reason
from geolab.games.ranks.views import VIEWS as RANKS
from geolab.games.ranks.views import Story, fit, open_points, wrapped
from geolab.scene import Fact, Picture, Scene
from geolab.stepwise import Claim

SIDES = "AB"
#: Solutions shown as examples of how to type a claim (valid under every border setting);
#: the one sharing the fewest cards with the hand is shown, so an example never hands over a
#: claim.
EXAMPLES = ("MD VA NC / ME NY TX", "WA OR ID / CO IA DE", "CA NV AZ / MS MO AK", "VT NH ME / CA MN OR",
            "ND SD MT / NE MI AR", "OK KS CO / PA CT MT", "GA FL AL / AZ SD RI", "KY OH IN / WV SC NH")


# ----- small pieces of text -----------------------------------------------------------------
def _who(seat: int, me: int, capital: bool = False) -> str:
    if seat == me:
        return "You" if capital else "you"
    return SIDES[seat]


def upper_first(text: str) -> str:
    return text[:1].upper() + text[1:]


def claim_label(action) -> str:
    """A claim in the words a person types: ``"MD NC VA / ME NY TX"`` (the border group, then
    the capital group, each in card order), or ``"wrong claim"``."""
    if action == WRONG:
        return "wrong claim"
    return f"{codes(action.border)} / {codes(action.capital)}"


def why_border(group: Sequence[int], rules) -> str:
    """``"VA borders MD and NC"`` (or ``"each of ... borders the other two"``)."""
    return border_reason(group, rules.four_corners, rules.water)


def why_capital(group: Sequence[int]) -> str:
    """``"Annapolis, Albany and Austin begin with A"``."""
    names = [CAPITALS[c] for c in group]
    return f"{names[0]}, {names[1]} and {names[2]} begin with {names[0][0]}"


def why(solution: Solution, rules) -> str:
    return f"{why_border(solution.border, rules)}; {why_capital(solution.capital)}"


def not_capital(group: Sequence[int]) -> str | None:
    """Why three cards are not a capital group, naming the capital whose letter does not match
    (``"Annapolis and Austin begin with A; Dover's D does not match"``), or the three letters;
    None where they are one."""
    names = [CAPITALS[c] for c in group]
    if len({name[0] for name in names}) == 1:
        return None
    for odd in range(3):
        a, b = (name for k, name in enumerate(names) if k != odd)
        if a[0] == b[0]:
            return f"{a} and {b} begin with {a[0]}; {names[odd]}'s {names[odd][0]} does not match"
    return f"{names[0]}, {names[1]} and {names[2]} begin with three different letters"


def group_lines(border: Sequence[int], capital: Sequence[int], rules) -> list[str]:
    """Two groups read as a border group and a capital group: what each is, or why not."""
    fc, water = rules.four_corners, rules.water
    not_one = not_capital(capital)
    return [f"  {codes(border)} is a border group: {why_border(border, rules)}." if groups.centers(border, fc, water)
            else f"  {codes(border)} is no border group: {not_border(border, fc, water)}.",
            f"  {codes(capital)} is no capital group: {not_one}." if not_one
            else f"  {codes(capital)} is a capital group: {why_capital(capital)}."]


def why_wrong(laid, rules) -> list[str]:
    """Why a wrong claim's cards (`geolab.stepwise.Claim.laid`) hold no border group and
    capital group. Two groups: read the way round that comes closer to holding (the fewest
    groups failing; the claim does not say which is which), each group, what it is or why not
    (for a capital group, which capital's letter does not match). Six cards laid unsplit: the
    groups among them, and why no border group and capital group of them are apart."""
    fc, water = rules.four_corners, rules.water
    if len(laid) == 2:
        a, b = laid

        def failing(border, capital) -> int:
            return (not groups.centers(border, fc, water)) + (not_capital(capital) is not None)

        border, capital = min(((a, b), (b, a)), key=lambda pair: failing(*pair))
        return group_lines(border, capital, rules)
    six = laid[0]
    borders, capitals = groups.border_groups(six, fc, water), groups.capital_groups(six)
    letters = ", ".join(CAPITALS[c] for c in six)
    if not borders and not capitals:
        return [f"  No three of {codes(six)} are a border group, nor a capital group (their capitals: {letters})."]
    if not borders:
        return [f"  No three of {codes(six)} are a border group."]
    if not capitals:
        return [f"  No three of {codes(six)} are a capital group (their capitals: {letters})."]
    return [f"  Among {codes(six)} the border groups are {', '.join(codes(g) for g in borders)} and the capital "
            f"groups {', '.join(codes(g) for g in capitals)}; each border group shares a card with each capital group."]


#: What a GeoDouble race teaches once it is over (`geolab.games.race_views.Lesson`).
LESSON = Lesson(SIDES, WRONG, claim_label, why, why_wrong, "border group and capital group without a card in common")


def lesson(rules, me: int, race: RaceSeen) -> list[str]:
    """After a race (`RaceSeen`, its rival's claim told once it is over): both clocks, the
    rival's claim, why a wrong claim of the seat's failed and its hand's solutions from the
    exact finder, two spaces in under the round's race; nothing where no race was run."""
    if race.own is None or race.rival is None:
        return []
    claims = (race.own, race.rival) if me == 0 else (race.rival, race.own)
    found = solutions(rules, race.hands[-1])
    return [f"  {line}" for line in LESSON.lines(rules, me, claims, [s for s, _ in race.first], found)]


def lesson_maps(rules, n: int, race: RaceSeen) -> tuple:
    """Round n's race hand on a map after the race (`Lesson.maps`)."""
    if race.own is None:
        return ()
    hand = race.hands[-1]
    return LESSON.maps(hand, solutions(rules, hand), race.own, f"Round {n}, your")


def example(hand: Sequence[int]) -> str:
    """The example claim to show: the fixed one sharing the fewest cards with the hand."""
    return fewest_shared(EXAMPLES, hand)


def match_line(view: MatchView) -> str:
    """The line on top of every screen: round, score A-B, target, who dealt the stage."""
    rules, me = view.rules, view.seat
    a, b = view.score
    score = f"A{' (you)' if me == 0 else ''} {a} - B{' (you)' if me == 1 else ''} {b}"
    head = f"GeoDouble round {view.round + 1}: {score}, first to {rules.target}"
    if view.stage is None:
        return f"{head}; the race winner deals."
    dealer = view.stage.first_lead
    how = "won the race" if view.race is not None and view.race.winner == dealer else "the coin: no race winner"
    return f"{head}; {_who(dealer, me)} dealt ({how})."


# ----- the story of a round -----------------------------------------------------------------
def _total(rounds: Sequence[RoundSeen]) -> list[int]:
    return [sum(r.points[s] for r in rounds) for s in (0, 1)]


def _score(score: Sequence[int], me: int) -> str:
    return f"A{' (you)' if me == 0 else ''} {score[0]}, B{' (you)' if me == 1 else ''} {score[1]}"


def race_lines(rules, me: int, n: int, race: RaceSeen, before: Sequence[int]) -> list[str]:
    """A settled race as seat `me` saw it: the first call(s) and why they hold or not, its own
    claim if it came later, the winner and the score after the race (`before` it: the score
    when the round began), then what the race teaches (`lesson`)."""
    them = SIDES[1 - me]
    out = []
    deals = len(race.hands)
    if deals > 1:
        out.append(f"Round {n}: the race was dealt {deals} times (neither hand held a border group and a "
                   "capital group).")
    head = f"Round {n}, the race:"
    if not race.first:
        if race.own is None:
            out.append(f"{head} void, no hand held a solution in {plural(deals, 'deal')}: no points.")
        else:
            out.append(f"{head} nobody called GeoPlunge: void, no points.")
        return out + lesson(rules, me, race)
    for seat, claim in race.first:
        name = _who(seat, me, True)
        if claim.action == WRONG:
            cards = f": {laid_text(claim.laid)}" if claim.laid else ""
            out.append(f"{head} {name} called GeoPlunge at {seconds_text(claim.seconds)} with a wrong claim{cards}.")
        else:
            out.append(f"{head} {name} called GeoPlunge at {seconds_text(claim.seconds)}: {claim_label(claim.action)}.")
            out.append(f"  {upper_first(why(claim.action, rules))}.")
        head = "  At the same second:"
    if me not in [s for s, _ in race.first] and race.own is not None:
        if race.own.action is None:
            out.append("  You made no claim.")
        elif all(c.action == WRONG for _, c in race.first):
            out.append(f"  Your claim ({seconds_text(race.own.seconds)}) came second: not needed.")
        else:
            out.append(f"  Your claim ({seconds_text(race.own.seconds)}) came too late.")
    score = list(before)
    if race.winner >= 0:
        score[race.winner] += rules.race_points
        valid = [s for s, c in race.first if c.action != WRONG]
        because = ""
        if not valid and len(race.first) == 2:
            because = " (the coin: both claims wrong, at the same second)"
        elif race.winner not in valid:
            because = " (your wrong claim gives it)" if race.winner != me else f" ({them}'s wrong claim gives it)"
        elif len(valid) == 2:
            because = " (the coin, both at the same second)"
        out.append(f"  {_who(race.winner, me, True)} won the race{because}: {plural(rules.race_points, 'point')}. "
                   f"Score: {_score(score, me)}.")
    return out + lesson(rules, me, race)


def stage_lines(rules, me: int, won: Sequence[int], race: RaceSeen, points: Sequence[int],
                after: Sequence[int]) -> list[str]:
    """A finished stage's result (`won`: the tricks each side took) and the round's points
    (`after`: the score after the round)."""
    race_pts = [rules.race_points if race.winner == s else 0 for s in (0, 1)]
    pts = [points[s] - race_pts[s] for s in (0, 1)]
    winner = 0 if pts[0] > pts[1] else 1 if pts[1] > pts[0] else None
    tally = f"{won[me]}-{won[1 - me]}"
    if winner is None:
        out = [f"Stage 2: {tally}, nobody scores."]
    else:
        last = " on the last trick" if won[0] == won[1] else ""
        verb = "won" if winner == me else "lost"
        gain = f"{plural(pts[winner], 'point')}" + ("" if winner == me else f" to {SIDES[winner]}")
        out = [f"Stage 2: you {verb} {tally}{last}: {gain}."]
    mine, theirs = points[me], points[1 - me]
    out.append(f"Round over: you +{mine}, {SIDES[1 - me]} +{theirs}. Score: {_score(after, me)}.")
    return out


def round_lines(rules, me: int, n: int, race: RaceSeen, stage: tuple[Story, Sequence[int]] | None,
                points: Sequence[int], before: Sequence[int]) -> list[str]:
    """Every line of finished round n: its race, then (`stage`: the stage's story and the
    tricks each side took; None where the race ended the match) the stage, and the points."""
    after = [before[s] + points[s] for s in (0, 1)]
    lines = race_lines(rules, me, n, race, before)
    if stage is None:
        return lines + [f"Round over: you +{points[me]}, {SIDES[1 - me]} +{points[1 - me]}. "
                        f"Score: {_score(after, me)}."]
    story, won = stage
    return lines + story.lines() + stage_lines(rules, me, won, race, points, after)


def seen_rounds(rules, me: int, rounds: Sequence[RoundSeen]) -> list[str]:
    """The lines of the finished rounds a seat's view holds."""
    lines = []
    for k, r in enumerate(rounds):
        stage = None if r.stage is None else (
            Story(r.stage.rules, me, True, r.stage.discards, r.stage.opponent_discards, r.stage.first_lead,
                  r.stage.declarations, r.stage.history), r.stage.tricks_won)
        lines += round_lines(rules, me, k + 1, r.race, stage, r.points, _total(rounds[:k]))
    return lines


def worth(view: MatchView) -> str:
    """What the stage's winner scores at a declaration: every level while the other has not
    answered; after its answer, only the levels still open (no 20 after a no)."""
    other = view.stage.declarations[1 - view.seat]
    them = SIDES[1 - view.seat]
    pts = view.rules.stage.win_points
    if other is None:
        return f"the stage winner scores {pts[0]}, {pts[1]} if one of you declares, {pts[2]} if both do"
    now, more = open_points(view.rules.stage, other)
    said = f"{them} declared" if other else f"{them} did not declare"
    return f"{said}, so the stage winner scores {now}, {more} if you declare{' too' if other else ''}"


# ----- the views ----------------------------------------------------------------------------
def inner(decision: Decision) -> Decision:
    """A stage-2 decision as Play the Ranks asks it: its own View."""
    return dataclasses.replace(decision, observation=decision.observation.stage)


class GeoDoubleViews(Views):
    """`geolab.game.Views` for GeoDouble: ``claim`` (the race), then Play the Ranks'
    ``discard``, ``declare``, ``lead`` and ``follow``."""

    # ----- what the seat sees ---------------------------------------------------------------
    def screen(self, decision: Decision) -> list[str]:
        view: MatchView = decision.observation
        if not decision.timed:
            lines = [match_line(view)]
            if decision.kind == "declare":
                lines += self._stakes(view)
            return fit(lines + RANKS.screen(inner(decision)))
        rules, them = view.rules, SIDES[1 - view.seat]
        lines = [match_line(view)]
        lines += wrapped(f"Stage 1, the race for borders and capitals ({plural(rules.race_points, 'point')}): find a "
                         "border group (one state borders the other two) and a capital group (three capitals "
                         "that begin with the same letter), six different cards of yours.")
        if view.attempt > 1:
            lines.append(f"Dealt {view.attempt} times: neither hand held a solution before.")
        lines.append(f"Your {len(view.race_hand)} cards:")
        lines += hand_grid(view.race_hand)
        lines.append(f"Claim: '{example(view.race_hand)}' or the six codes in any order; pass: no claim.")
        lines += wrapped(f"{them} is searching too, and the clock runs. A wrong claim gives {them} the race.")
        return fit(lines)

    def scene(self, decision: Decision) -> Scene:
        """The race's hand, or Play the Ranks' own scene, under the match's score."""
        view: MatchView = decision.observation
        facts = [Fact("match", match_line(view))]
        if not decision.timed:
            if decision.kind == "declare":
                facts.append(Fact("rule", " ".join(line.strip() for line in self._stakes(view))))  # one, if wrapped
            if view.race is not None:  # this round's race, over: its lesson's map (its words are the events')
                facts += lesson_maps(view.rules, view.round + 1, view.race)
            return RANKS.scene(inner(decision)).with_facts(facts, "GeoDouble")
        them = SIDES[1 - view.seat]
        if view.attempt > 1:
            facts.append(Fact("round", f"Dealt {view.attempt} times: neither hand held a solution before"))
        facts.append(Fact("rule", f"A wrong claim gives {them} the race"))
        return race_scene("GeoDouble", view.race_hand, self.prompt(decision), facts,
                          "a border group (one state borders the other two) and a capital group (three capitals "
                          "that begin with the same letter), six different cards of yours")

    def prompt(self, decision: Decision) -> str:
        if decision.timed:
            return "GeoPlunge! 6 CARDS (or pass) > "
        return RANKS.prompt(inner(decision))

    def help(self, decision: Decision) -> list[str]:
        view: MatchView = decision.observation
        if not decision.timed:
            lines = RANKS.help(inner(decision))
            if decision.kind == "declare":
                lines = lines + fit([f"Here {worth(view)}."], WIDTH - 2)
            return lines
        them = SIDES[1 - view.seat]
        ex = example(view.race_hand)
        first, second = (part.split() for part in ex.split("/"))
        solution = Solution(*(tuple(sorted(POSTAL.index(c) for c in g)) for g in (first, second)))
        # why the example holds, only where it names none of the hand's cards (it would tell of them)
        reason = "" if set(solution.border + solution.capital) & set(view.race_hand) else \
            f" ({why(solution, view.rules)})"
        return fit([
            f"Type your two groups, either first: '{ex}'{reason},",
            f"or the six postal codes in any order ('{' '.join(first + second[::-1])}'): the split into a "
            "border group and a capital group is found for you.",
            f"Six of your cards that hold no such split are a wrong claim: it gives {them} the race "
            "(with --confirm you see so before Enter).",
            f"pass: no claim. If {them} calls GeoPlunge before your Enter, your time is up: no claim from you.",
            "moves and hint are off in a race; geolab groups CODE ... checks a hand afterwards.",
        ], WIDTH - 2)

    def label(self, decision: Decision, action) -> str:
        if decision.timed:
            return claim_label(action)
        return RANKS.label(inner(decision), action)

    def parse(self, decision: Decision, text: str):
        if not decision.timed:
            return RANKS.parse(inner(decision), text)
        if is_wrong_words(text):
            return WRONG
        parts = claimed(decision.observation.race_hand, text, EXAMPLES[0])
        if len(parts) == 2:
            a, b = parts
            for option in (Solution(a, b), Solution(b, a)):
                if option in decision.legal:
                    return option
            return WRONG
        for option in decision.legal:
            if option != WRONG and set(parts[0]) == {*option.border, *option.capital}:
                return option
        return WRONG

    def events(self, decision: Decision) -> list[str]:
        view: MatchView = decision.observation
        rules, me = view.rules, view.seat
        lines = seen_rounds(rules, me, view.past)
        if view.race is not None:
            lines += race_lines(rules, me, view.round + 1, view.race, _total(view.past))
        if view.stage is not None and not decision.timed:
            lines += Story.of_view(inner(decision)).lines()
        return fit(lines)

    def ending(self, played: Played, seat: int) -> list[str]:
        rules = played.rules
        rounds = tuple(RoundSeen(race_seen(r.race, seat), None if r.stage is None else final_view(r.stage, seat),
                                 r.points) for r in played.rounds)
        lines = seen_rounds(rules, seat, rounds)
        return fit(lines + self._verdict(played, seat))

    def pictures(self, played: Played, seat: int) -> list[Picture]:
        """Each round's race hand on a map, after its race (`lesson_maps`)."""
        return [Picture(f.text, f.picture) for n, r in enumerate(played.rounds, start=1)
                for f in lesson_maps(played.rules, n, race_seen(r.race, seat))]

    def reason(self, decision: Decision, action) -> str:
        view: MatchView = decision.observation
        if not decision.timed:
            return RANKS.reason(inner(decision), action)
        if action == WRONG:
            return f"a wrong claim gives {SIDES[1 - view.seat]} the race"
        return why(action, view.rules)

    # ----- the play loop's race words (optional parts of the Views, `geolab.lab.play`) -----
    def echo(self, decision: Decision, action, text: str) -> str:
        """The line `--confirm` shows before Enter: the claim, and whether it holds."""
        if not decision.timed:
            return f"-> {self.label(decision, action)}"
        view: MatchView = decision.observation
        if action == WRONG:
            typed = [] if is_wrong_words(text) else typed_cards(view.race_hand, text)
            cards = f"{codes(typed)}: no border group + capital group" if typed else "a claim you know is wrong"
            return f"-> wrong claim ({cards}): it gives {SIDES[1 - view.seat]} the race"
        return f"-> {claim_label(action)}: {why(action, view.rules)}"

    def called(self, decision: Decision, seat: int, claim: Claim, words: str) -> list[str]:
        """What the loop shows when another player's claim comes before the person's Enter."""
        if claim.action == WRONG:
            return [f"{SIDES[seat]} called GeoPlunge at {seconds_text(claim.seconds)}, a wrong claim: the race is "
                    "yours."]
        return [f"{SIDES[seat]} called GeoPlunge at {seconds_text(claim.seconds)}: {words}.",
                "Your time is up: no claim from you."]

    def race_note(self, decision: Decision) -> str:
        """What the loop adds when it refuses moves or a hint at a race."""
        return "geolab groups checks a hand after"

    def laid(self, decision: Decision, action, text: str) -> tuple:
        """A wrong claim's cards, as typed (`laid_groups`), kept for the record and the lesson."""
        if not decision.timed or action != WRONG:
            return ()
        return laid_groups(decision.observation.race_hand, text, EXAMPLES[0])

    def race_search(self, decision: Decision) -> tuple[int, int] | None:
        return (len(decision.observation.race_hand), len(decision.legal) - 1) if decision.timed else None

    def note(self, decision: Decision, action, text: str) -> str | None:
        """Play the Ranks' line on words a stage move ignored (a category named at a follow)."""
        return None if decision.timed else RANKS.note(inner(decision), action, text)

    # ----- parts ----------------------------------------------------------------------------
    @staticmethod
    def _stakes(view: MatchView) -> list[str]:
        """What declaring is worth here, against the score."""
        rules, me = view.rules, view.seat
        them = SIDES[1 - me]
        pts = open_points(rules.stage, view.stage.declarations[1 - me])
        mine, theirs = view.score[me], view.score[1 - me]

        def ladder(score: int) -> str:
            reached = [score + p for p in pts]
            text = "/".join(str(x) for x in reached)
            return text + (f" (reaching {rules.target})" if any(x >= rules.target for x in reached) else "")

        return wrapped(f"Declaring changes only the points: {worth(view)}. Winning it makes you {ladder(mine)}; "
                       f"{them} winning makes {them} {ladder(theirs)}.")

    @staticmethod
    def _verdict(played: Played, seat: int) -> list[str]:
        rules = played.rules
        score = played.score
        mine, theirs = score[seat], score[1 - seat]
        rounds = len(played.rounds)
        if max(score) >= rules.target:
            top = 0 if score[0] >= rules.target else 1
            head = f"{_who(top, seat, True)} reached {rules.target} in round {rounds}."
        else:
            head = f"Nobody reached {rules.target} in the {plural(rounds, 'round')} the rules allow."
        if played.winner is None:
            return [head, f"The match is level, {mine}-{theirs}: a shared result."]
        verb = "won" if played.winner == seat else "lost"
        return [head, f"You {verb} the match {mine}-{theirs}."]


VIEWS = GeoDoubleViews()
