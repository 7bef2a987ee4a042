"""Class GeoPower Double Choice: what a student may see when discarding, and a student's
observation as text and as a flat vector (the step-wise interface's `observation_string`,
`observation_tensor`)."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from geolab.cards import CATEGORIES, N_CARDS, POSTAL
from geolab.common.text import codes
from geolab.games.classroom.rules import CALLS, CHAMPIONSHIP, STARTING, Rules, student_name


def observe(hands, call, opponents) -> dict:
    """What a student may see when discarding: own cards (sorted, so order tells nothing),
    the call, and how many students compete in the round besides them. Nothing else."""
    hands = np.sort(np.asarray(hands, dtype=np.int64), axis=1)
    n = len(hands)
    return {
        "hand": hands,
        "call": np.broadcast_to(np.asarray(call, dtype=np.int64), (n,)).copy(),
        "opponents": np.broadcast_to(np.asarray(opponents, dtype=np.int64), (n,)).copy(),
    }


@dataclass(frozen=True)
class Seen:
    """A finished round as the whole class saw it: the call, the GeoPower card turned, each
    contest (a group, or the finalists) as (student, the cards it kept, sorted, their sum) in
    seat order, and the winners. The kept cards are shown to compare sums; no discard is."""

    stage: str
    call: int
    category: int
    contests: tuple[tuple[tuple[int, tuple[int, ...], int], ...], ...]
    winners: tuple[int, ...]


@dataclass(frozen=True)
class View:
    """One student's observation at any point of the game (`geolab.game.Decision`
    observation at its discards), as plain values so that two views compare equal exactly
    when the student saw the same thing. Policies read only the three facts of `observe`
    (`batch`); the rest is what the class has seen too, for a person's screen: the rules,
    which round of the game this is (`round`, 0-based: the Starting Rounds, then the
    Championship and its replays), the students competing in it (`contest`, this one
    included; empty when it plays no part in the round) and every round finished before it
    (`history`), and the student's own discard in each round so far (`discards`, -1 where it
    was not dealt; the round being played's once made). Between rounds, and before the call
    is said, `call` is -1; before its deck is dealt, `hand` is empty."""

    hand: tuple[int, ...]  # sorted
    call: int
    opponents: int
    rules: Rules
    round: int
    contest: tuple[int, ...]
    history: tuple[Seen, ...]
    discards: tuple[int, ...] = ()

    def batch(self) -> dict:
        """The one-row observation a batched policy's ``act(obs, rng)`` reads."""
        return observe([self.hand], self.call, self.opponents)


# ----- the step-wise interface's forms of a view ------------------------------------------------

def _names(students) -> str:
    return " ".join(student_name(s) for s in students) or "-"


def _stage(rules: Rules, index: int) -> str:
    return STARTING if index < rules.rounds else CHAMPIONSHIP


def observation_string(rules: Rules, seat: int, view: View) -> str:
    """Everything the student knows, one line for the round being played (or the end) and
    one a finished round: every contest's Selected Cards and sums, the winners, and the
    student's own discard."""
    me = student_name(seat)
    if rules.next_round(view.history) is None:
        head = f"{me}: the game is over after round {len(view.history)}"
    else:
        head = (f"{me}: round {view.round + 1} ({_stage(rules, view.round)}); "
                f"call {CALLS[view.call] if view.call >= 0 else 'not said'}; hand {codes(view.hand, '-')}; "
                f"contest {_names(view.contest)}")
        if len(view.discards) > len(view.history):
            head += f"; discarded {POSTAL[view.discards[-1]]}"
    lines = [head]
    for i, rnd in enumerate(view.history):
        contests = "; ".join(" ".join(f"{student_name(s)} {'+'.join(POSTAL[c] for c in kept)}={total}"
                                      for s, kept, total in contest) for contest in rnd.contests)
        mine = view.discards[i] if i < len(view.discards) else -1
        lines.append(f"round {i + 1} ({rnd.stage}) {CALLS[rnd.call]} {CATEGORIES[rnd.category]}: {contests} | "
                     f"won {_names(rnd.winners)}" + (f" | discarded {POSTAL[mine]}" if mine >= 0 else ""))
    return "\n".join(lines)


def _layout(rules: Rules, attempts: int) -> tuple[int, int, int]:
    """(rounds the tensor holds, values a finished round takes, values before the first)."""
    students, slots = rules.students, rules.rounds + attempts
    head = 2 * N_CARDS + len(CALLS) + 2 * students + slots
    return slots, len(CALLS) + len(CATEGORIES) + 3 * students + 2 * N_CARDS, head


def tensor_size(rules: Rules, attempts: int) -> int:
    slots, per_round, head = _layout(rules, attempts)
    return head + slots * per_round


def observation_tensor(rules: Rules, seat: int, view: View, attempts: int) -> np.ndarray:
    """The view as float32 values, in this fixed layout (docs/rules-classroom.md), with K =
    50 cards, S students and R = Starting Rounds + `attempts` round slots:

    - now: the hand (K, 1 a card held), the card discarded this round (K), the call (2, one
      hot), the contest (S, 1 a student competing), the seat (S, one hot), the round (R, one
      hot; none at the end);
    - then each finished round in play order (R slots of 5 + 3S + 2K, zeros when not
      played): its call (2) and category (3), one hot; every student's part (S: 1 dealt),
      win (S) and kept sum over 50 a kept card (S); the student's own kept cards (K)
      and discard (K). Rounds beyond R (a game longer than `max_length`) are left out."""
    students = rules.students
    slots, per_round, head = _layout(rules, attempts)
    out = np.zeros(head + slots * per_round, np.float32)
    out[list(view.hand)] = 1
    if len(view.discards) > len(view.history):
        out[N_CARDS + view.discards[-1]] = 1
    at = 2 * N_CARDS
    if view.call >= 0:
        out[at + view.call] = 1
    at += len(CALLS)
    out[[at + s for s in view.contest]] = 1
    out[at + students + seat] = 1
    at += 2 * students
    if rules.next_round(view.history) is not None and view.round < slots:
        out[at + view.round] = 1
    top = float(max(rules.dealt - 1, 1) * N_CARDS)
    for i, rnd in enumerate(view.history[:slots]):
        at = head + i * per_round
        out[at + rnd.call] = 1
        out[at + len(CALLS) + rnd.category] = 1
        at += len(CALLS) + len(CATEGORIES)
        for contest in rnd.contests:
            for s, kept, total in contest:
                out[at + s] = 1
                out[at + students + s] = s in rnd.winners
                out[at + 2 * students + s] = total / top
                if s == seat:
                    out[[at + 3 * students + c for c in kept]] = 1
        if i < len(view.discards) and view.discards[i] >= 0:
            out[at + 3 * students + N_CARDS + view.discards[i]] = 1
    return out
