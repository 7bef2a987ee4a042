"""Class GeoPower Double Choice at the keyboard (`geolab.game.Views`): the person is one
student of the class, the bots its classmates.

Everything shown comes from the student's `View` (its hand, the call, who it competes
against, the rounds the class has seen) or, at the end, from the rounds as the class saw
them (`reference.seen`): the Selected Cards and sums of every student, never a discard.
"""

from __future__ import annotations

import math
import textwrap
from itertools import combinations

import numpy as np

from geolab.cards import NAMES, POSTAL, RANKS
from geolab.common.text import WIDTH, codes
from geolab.game import Decision, MoveError, Views, shown
from geolab.games.classroom.observations import Seen, View
from geolab.games.classroom.reference import GameLog, seen
from geolab.games.classroom.rules import TOP_DOG, Rules, student_name
from geolab.scene import Fact, Scene, pile
from geolab.scene import moves as scene_moves

CALL_NAMES = ("Top Dog", "Bottoms Up")
CALL_SUMS = ("lowest", "highest")
TITLES = ("Size", "Statehood", "Population")
WORDS = ("size", "statehood", "population")
#: classmates' hands the hint's count of chances enumerates at most (else a fixed sample)
HANDS_COUNTED = 20_000


def _wrap(text: str) -> list[str]:
    return textwrap.wrap(text, WIDTH, subsequent_indent="  ", break_long_words=False, break_on_hyphens=False)


def _names(students, seat: int | None = None) -> str:
    """"S3", "S3 and S7", "S3, S7 and you"."""
    names = ["you" if s == seat else student_name(s) for s in students]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]



def stage_title(rules: Rules, index: int) -> str:
    """"Starting Round 2 of 2", "Championship Round", "Championship replay 1": round `index` (0-based)."""
    if index < rules.rounds:
        return "Starting Round" if rules.rounds == 1 else f"Starting Round {index + 1} of {rules.rounds}"
    return "Championship Round" if index == rules.rounds else f"Championship replay {index - rules.rounds}"


def _group(rules: Rules, student: int) -> int:
    return next(g for g, members in enumerate(rules.groups_of()) if student in members)


def _by_rank(contest, call: int):
    """A contest's rows, the winning sum first (seat order among equal sums)."""
    return sorted(contest, key=lambda row: (row[2] if call == TOP_DOG else -row[2], row[0]))


def _winners(rnd: Seen, contest) -> tuple[list[int], int]:
    members = {s for s, _, _ in contest}
    won = [s for s in rnd.winners if s in members]
    return won, next(v for s, _, v in contest if s == won[0])


def _score_of(contest, seat: int) -> int:
    return next(v for s, _, v in contest if s == seat)


# ----- what happened ---------------------------------------------------------------------------
def _own_contest(rules: Rules, index: int, rnd: Seen, contest, seat: int) -> list[str]:
    """The student's own group (or the finalists): every Selected Card and sum, the result."""
    cat, call = rnd.category, rnd.call
    _, kept, mine = next(row for row in contest if row[0] == seat)
    ranks = " + ".join(str(int(RANKS[c, cat])) for c in kept)
    lines = [f"You kept {codes(kept)}: {WORDS[cat]} {ranks} = {mine}."]
    where = f"Group {_group(rules, seat) + 1}" if index < rules.rounds else "Finalists"
    lines.append(f"{where}, {WORDS[cat]} ranks ({CALL_SUMS[call]} sum wins):")
    won, best = _winners(rnd, contest)
    for s, cards, value in _by_rank(contest, call):
        name = f"{student_name(s)} (you)" if s == seat else student_name(s)
        ranks = " + ".join(f"{int(RANKS[c, cat]):>2}" for c in cards)
        lines.append(f"  {name:<9} {codes(cards):<9} {ranks} = {value:>3}{'  won' if s in won else ''}")
    others = [s for s in won if s != seat]
    if index < rules.rounds:
        group = _group(rules, seat) + 1
        if seat in won:
            text = (f"You won group {group} with {mine}: you play in the Championship." if not others else
                    f"You tied with {_names(others)} at {mine} in group {group}: every tied student plays in "
                    "the Championship.")
        else:
            text = (f"{_names(won)} {'won' if len(won) == 1 else 'tied to win'} group {group} with {best} "
                    f"(you: {mine}): you are out of the Championship.")
        return lines + _wrap(text)
    share = rules.championship_ties == "share"
    if seat in won:
        if not others:
            text = f"You won the Championship with {mine}."
        else:
            text = (f"You tied with {_names(others)} at {mine}: "
                    + ("you share the class title." if share else "you play the Championship again."))
    elif len(won) == 1:
        text = f"{_names(won)} won the Championship with {best} (you: {mine})."
    else:
        text = (f"{_names(won)} tied at {best} (you: {mine}): "
                + ("they share the class title." if share else "they play the Championship again."))
    return lines + _wrap(text)


def _watched(rules: Rules, index: int, rnd: Seen, contests, seat: int, others: bool) -> list[str]:
    """Contests the student did not play in, one summary."""
    if index < rules.rounds:
        parts = []
        for contest in contests:
            won, best = _winners(rnd, contest)
            tie = " (tied)" if len(won) > 1 else ""
            parts.append(f"group {_group(rules, contest[0][0]) + 1} {_names(won)} with {best}{tie}")
        head = "Other groups' winners: " if others else "Group winners: "
        return _wrap(head + "; ".join(parts) + ".")
    (contest,) = contests
    won, best = _winners(rnd, contest)
    sums = ", ".join(f"{student_name(s)} {v}" for s, _, v in contest)
    if len(won) == 1:
        end = f"{_names(won)} won with {best}."
    elif rules.championship_ties == "share":
        end = f"{_names(won)} tied at {best} and share the class title."
    else:
        end = f"{_names(won)} tied at {best} and play again."
    return _wrap(f"Finalists' sums ({CALL_SUMS[rnd.call]} wins): {sums}. {end}")


def _round_lines(rules: Rules, rounds: tuple[Seen, ...], index: int, seat: int) -> list[str]:
    rnd = rounds[index]
    lines = _wrap(f"{stage_title(rules, index)} ({CALL_NAMES[rnd.call]}): the GeoPower card turned is "
                  f"{TITLES[rnd.category]}.")
    mine = next((c for c in rnd.contests if any(s == seat for s, _, _ in c)), None)
    if mine is not None:
        lines += _own_contest(rules, index, rnd, mine, seat)
    rest = [c for c in rnd.contests if c is not mine]
    if rest:
        lines += _watched(rules, index, rnd, rest, seat, mine is not None)
    if index == rules.rounds - 1:
        finalists = sorted(s for r in rounds[: rules.rounds] for s in r.winners)
        lines += _wrap(f"To the Championship: {_names(finalists, seat)} (the group winners).")
    return lines


def _history(rules: Rules, rounds: tuple[Seen, ...], seat: int) -> list[str]:
    return [line for i in range(len(rounds)) for line in _round_lines(rules, rounds, i, seat)]


def _verdict(rules: Rules, rounds: tuple[Seen, ...], seat: int) -> str:
    champions = list(rounds[-1].winners)
    start = next((i, c) for i, r in enumerate(rounds[: rules.rounds]) for c in r.contests
                 if any(s == seat for s, _, _ in c))
    won, best = _winners(rounds[start[0]], start[1])
    mine = _score_of(start[1], seat)
    group = _group(rules, seat) + 1
    if seat in champions:
        others = [s for s in champions if s != seat]
        final = _score_of(rounds[-1].contests[0], seat)
        if not others:
            return f"You are the class champion: you won group {group} with {mine} and the Championship with {final}."
        return (f"You share the class title with {_names(others)}: you won group {group} with {mine} and tied "
                f"the Championship at {final}.")
    if seat not in won:
        verb = "won" if len(won) == 1 else "tied to win"
        return f"{_names(won)} {verb} your group (sum {best} vs your {mine}). Class champion: {_names(champions)}."
    index, contest = next((i, c) for i in range(len(rounds) - 1, rules.rounds - 1, -1) for c in rounds[i].contests
                          if any(s == seat for s, _, _ in c))
    beaten, best = _winners(rounds[index], contest)
    mine = _score_of(contest, seat)
    what = "the Championship" if index == rules.rounds else "the Championship replay"
    if len(beaten) == 1:
        return f"You won group {group} but lost {what} to {_names(beaten)} (sum {best} vs your {mine})."
    after = ("they share the title." if rules.championship_ties == "share" else
             f"{_names(champions)} won in the end.")
    return f"You won group {group} but lost {what}: {_names(beaten)} tied at {best} (your {mine}); {after}"


# ----- the hint's count of chances ---------------------------------------------------------------
def win_chances(view: View) -> np.ndarray:
    """(discard, category): P(win the round) for each discard (in hand order) if that category
    is turned, counted as if each classmate held a hand from the cards this student does not
    hold and kept the pair strongest together in one category (the rule the equilibrium
    plays almost everywhere); ties win."""
    rules, hand = view.rules, view.hand
    unseen = [c for c in range(len(POSTAL)) if c not in hand]
    if math.comb(len(unseen), rules.dealt) <= HANDS_COUNTED:
        hands = np.array(list(combinations(unseen, rules.dealt)))
    else:  # a variant's bigger hands: a fixed sample, so the same view gives the same count
        rng = np.random.default_rng(0)
        hands = rng.permuted(np.tile(unseen, (HANDS_COUNTED, 1)), axis=1)[:, : rules.dealt]
    ranks = RANKS[hands].astype(np.int64)
    kept = ranks.sum(axis=1, keepdims=True) - ranks  # hand, discard, category
    if view.call == TOP_DOG:
        pick = kept.min(axis=2).argmin(axis=1)
    else:
        pick = kept.max(axis=2).argmax(axis=1)
    theirs = kept[np.arange(len(hands)), pick]  # hand, category
    size = int(RANKS.max()) * rules.dealt + 1
    own = RANKS[list(hand)].astype(np.int64)
    mine = own.sum(axis=0) - own  # discard, category
    chances = np.empty(mine.shape)
    for c in range(3):
        hist = np.bincount(theirs[:, c], minlength=size) / len(hands)
        not_beaten = hist[::-1].cumsum()[::-1] if view.call == TOP_DOG else hist.cumsum()
        chances[:, c] = not_beaten[mine[:, c]] ** view.opponents
    return chances


class ClassViews(Views):
    """The discard at the keyboard: one student's cards and what each discard keeps, the
    call and its meaning, the stage and the group; every round's sums as the class saw them."""

    def screen(self, decision: Decision) -> list[str]:
        view: View = decision.observation
        rules, seat = view.rules, decision.seat
        kept_count = rules.dealt - 1
        lines = [f"Class GeoPower Double Choice: you are {student_name(seat)}, one of {rules.students} students "
                 f"in {rules.groups} groups."]
        others = [s for s in view.contest if s != seat]
        stage = stage_title(rules, view.round)
        if view.round < rules.rounds:
            group = _group(rules, seat)
            members = rules.groups_of()[group]
            text = (f"{stage}: your group {group + 1} is {student_name(members[0])}-{student_name(members[-1])}: "
                    f"you and {len(others)} classmates. Its winner plays in the Championship.")
        else:
            start = next(c for r in view.history[: rules.rounds] for c in r.contests
                         if any(s == seat for s, _, _ in c))
            last = view.history[-1].contests[0]
            before = (f"you won group {_group(rules, seat) + 1} with {_score_of(start, seat)}"
                      if view.round == rules.rounds else f"you tied at {_score_of(last, seat)}")
            text = f"{stage}: {before}; {_names(view.contest, seat)} play for the title."
        lines += _wrap(text)
        kept_words = "two" if kept_count == 2 else str(kept_count)
        lines += _wrap(f"Call: {CALL_NAMES[view.call]}: the {CALL_SUMS[view.call]} sum of your {kept_words} "
                       "kept ranks wins.")
        deck = ", ".join(f"{n} {t}" for n, t in zip(rules.geopower, TITLES))
        lines += _wrap(f"GeoPower deck: {deck}. One card is turned after everyone has discarded; only its "
                       "ranks count.")
        lines.append("Your cards (rank 1 = the largest, the first state, the most people):")
        for i, c in enumerate(view.hand, 1):
            r = RANKS[c]
            lines.append(f"  {i}  {POSTAL[c]}  {NAMES[c]:<14}  size {r[0]:>2}  statehood {r[1]:>2}  "
                         f"population {r[2]:>2}")
        lines.append(f"  {'discard':<9}{'you keep':<{3 * kept_count + 2}}   size  statehood  population")
        for i, c in enumerate(view.hand, 1):
            kept = [k for k in view.hand if k != c]
            sums = RANKS[kept].astype(int).sum(axis=0)
            lines.append(f"  {i}  {POSTAL[c]}    {codes(kept):<{3 * kept_count + 2}}  {sums[0]:>5}  {sums[1]:>9}  "
                         f"{sums[2]:>10}")
        return lines

    def scene(self, decision: Decision) -> Scene:
        """The hand (the card to discard is picked; the two left are kept), the call, the
        GeoPower deck and the round as facts."""
        view: View = decision.observation
        rules, seat = view.rules, decision.seat
        deck = ", ".join(f"{n} {t}" for n, t in zip(rules.geopower, TITLES))
        facts = (Fact("round", f"{stage_title(rules, view.round)}: you are {student_name(seat)}, one of "
                               f"{rules.students} students in {rules.groups} groups"),
                 Fact("call", f"{CALL_NAMES[view.call]}: the {CALL_SUMS[view.call]} sum of your kept ranks wins"),
                 Fact("geopower", f"GeoPower deck: {deck}; one card is turned after everyone has discarded"))
        hand = pile("hand", "Your cards: pick the one to discard", view.hand, "hand", selectable=decision.legal)
        return Scene("Class GeoPower Double Choice", decision.kind, self.prompt(decision), (hand,), facts,
                     moves=scene_moves(decision, self.label, lambda c: ((f"hand-{POSTAL[c]}",), ())))

    def prompt(self, decision: Decision) -> str:
        return f"discard (code or 1-{len(decision.legal)}) > "

    def help(self, decision: Decision) -> list[str]:
        view: View = decision.observation
        hand = view.hand
        keep = codes(hand[1:])
        extreme = "low" if view.call == TOP_DOG else "high"
        text = [f"Discard one card, face-down: type its code ({POSTAL[hand[0]]}), its number (1) or its name "
                f"({NAMES[hand[0]]}); or name the cards you keep: keep {keep}.",
                f"{CALL_NAMES[view.call]}: the {CALL_SUMS[view.call]} sum of the kept ranks in the category "
                "turned wins.",
                f"The category is turned after the discards: a pair very {extreme} in one category often "
                "does better than a pair fair in all three."]
        # the loop indents help by two
        return [line for t in text for line in textwrap.wrap(t, WIDTH - 2, break_long_words=False)]

    def label(self, decision: Decision, action) -> str:
        return f"discard {POSTAL[action]}"

    def parse(self, decision: Decision, text: str):
        hand = decision.legal
        how = f"type {_names_or([POSTAL[c] for c in hand])} (or 1-{len(hand)})"
        words = text.strip().lower().replace(",", " ").split()
        if words and words[0] in ("discard", "drop", "d"):
            words = words[1:]
        keep = bool(words) and words[0] == "keep"
        if keep:
            words = words[1:]
        cards = _cards(words, hand, how)
        if keep:
            if len(set(cards)) != len(hand) - 1:
                raise MoveError(f"keep names the {len(hand) - 1} cards you keep, e.g. keep {codes(hand[1:])}")
            return next(c for c in hand if c not in cards)
        if len(cards) != 1:
            raise MoveError(f"discard one card: {how}" if cards else f"say which card to discard: {how}")
        return cards[0]

    def events(self, decision: Decision) -> list[str]:
        view: View = decision.observation
        return _history(view.rules, view.history, decision.seat)

    def ending(self, played: GameLog, seat: int) -> list[str]:
        rounds = tuple(seen(r) for r in played.rounds)
        return _history(played.rules, rounds, seat) + _wrap(_verdict(played.rules, rounds, seat))

    def reason(self, decision: Decision, action) -> str:
        view: View = decision.observation
        p = view.rules.geopower_p
        by_category = win_chances(view)
        chance = by_category @ p
        i = view.hand.index(action)
        kept = [c for c in view.hand if c != action]
        cat = int(np.argmax(by_category[i] * p))  # the category this pair's chance rests on
        ranks = [int(RANKS[c, cat]) for c in kept]
        others = ", ".join(f"{POSTAL[c]}: {chance[j]:.0%}" for j, c in enumerate(view.hand) if j != i)
        final = view.round >= view.rules.rounds
        who = ("finalist" if final else "classmate") + ("" if view.opponents == 1 else "s")
        return (f"keeping {codes(kept)} ({WORDS[cat]} {'+'.join(map(str, ranks))}={sum(ranks)}) wins about "
                f"{chance[i]:.0%} vs {view.opponents} {who} (discard {others})")


def _names_or(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " or " + words[-1]


LOWERED = tuple(n.lower() for n in NAMES)


def read_card(words: list[str], i: int) -> tuple[int | None, int]:
    """The card lowercase `words` name at position `i` (a postal code or a state's name, two
    words for New York and the like) and how many words it took; (None, 1) if none."""
    two = " ".join(words[i:i + 2])
    if two in LOWERED:
        return LOWERED.index(two), 2
    word = words[i]
    if word in LOWERED:
        return LOWERED.index(word), 1
    if word.upper() in POSTAL:
        return POSTAL.index(word.upper()), 1
    return None, 1


def _cards(words, hand, how: str) -> list[int]:
    """The cards a person's words name: menu numbers, postal codes or state names."""
    cards, i = [], 0
    while i < len(words):
        word = words[i]
        if word.isascii() and word.isdigit():
            if len(word) > 2 or not 1 <= int(word) <= len(hand):
                raise MoveError(f"no card number {word if len(word) <= 4 else word[:4] + '...'}: {how}")
            cards.append(hand[int(word) - 1])
            used = 1
        else:
            card, used = read_card(words, i)
            if card is None:
                raise MoveError(f"{shown(word, 10)} is not a card: {how}")
            cards.append(card)
        if cards[-1] not in hand:
            raise MoveError(f"{POSTAL[cards[-1]]} is not in your hand: {how}")
        i += used
    return cards
