"""Play the Ranks: the two-side trick-taking core behind Combo 1, the State Ranking Battles
(Levels 1-3) and GeoDouble's second stage.

A trick: the lead side plays a card and names a category (and, under Level 2, a base); the
other side answers with any card (no follow-suit rule); the card whose rank in that category
is closer to the trick's base wins, and the winner leads next. This module holds the facts of
a trick, the dealing, and the **reference engine** (`play`), plain Python written to be read
beside the rule texts (the `Rules` are in `geolab.games.ranks.rules`). Faster engines must
agree with it exactly.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

import numpy as np

from geolab.cards import CATEGORIES, N_CARDS, POSTAL, POWER_DECK, RANKS, STATEHOOD
from geolab.errors import IllegalActionError, RulesError
from geolab.games.ranks.rules import SIDES, Rules


# ----- the facts of a trick ----------------------------------------------------------------
def trick_winner(rules: Rules, leader: int, lead: int, follow: int, category: int, base: int) -> int:
    """The side that wins: closer to the base wins; equal distance goes by `equal_distance`."""
    d_lead = abs(int(RANKS[lead, category]) - base)
    d_follow = abs(int(RANKS[follow, category]) - base)
    follow_wins = d_follow < d_lead or (d_follow == d_lead and rules.equal_distance == "follow")
    return 1 - leader if follow_wins else leader


def outcome(rules: Rules, trick_winners: Sequence[int]) -> int | None:
    """Winner (0, 1) of a finished deal from its trick winners, or None for a tie."""
    won = [trick_winners.count(0), trick_winners.count(1)]
    for side in (0, 1):
        if won[side] >= rules.win_tricks:
            return side
    if won[0] == won[1] and rules.last_trick_breaks_tie and trick_winners:
        return trick_winners[-1]
    if won[0] != won[1]:  # only when a variant plays past a majority that never came
        return 0 if won[0] > won[1] else 1
    return None


def is_over(rules: Rules, trick_winners: Sequence[int]) -> bool:
    if len(trick_winners) == rules.tricks:
        return True
    return rules.end_at is not None and max(trick_winners.count(0), trick_winners.count(1)) >= rules.end_at


def points(rules: Rules, winner: int | None, declared: Sequence[bool], tricks_won: Sequence[int]) -> tuple[int, int]:
    """Points of one deal: a tie pays `tie_points` each; a win pays win_points[bonus level]."""
    if winner is None:
        return (rules.tie_points, rules.tie_points)
    if rules.bonus == "declaration":
        level = sum(bool(d) for d in declared)
    elif rules.bonus == "shutout":
        level = int(tricks_won[1 - winner] == 0)
    else:
        level = 0
    scored = [0, 0]
    scored[winner] = rules.win_points[level]
    return (scored[0], scored[1])


# ----- dealing -----------------------------------------------------------------------------
@dataclass(frozen=True)
class Deal:
    """One deal: both hands, the two statehood-draw cards, and the Power-card bases."""

    hands: tuple[tuple[int, ...], tuple[int, ...]]
    draw: tuple[int, int]
    power_bases: tuple[int, int] | None = None

    def drawn_first_lead(self) -> int:
        """The side whose drawn card has statehood closer to 1 (the texts' tie-breaker draw)."""
        return 0 if RANKS[self.draw[0], STATEHOOD] < RANKS[self.draw[1], STATEHOOD] else 1


def shuffled_prefix(u: np.ndarray, size: int) -> np.ndarray:
    """The first k = u.shape[1] cards of a shuffle of 0..size-1 per row, by a partial
    Fisher-Yates shuffle on the uniform floats u (n, k): for j = 0..k-1, swap position j
    with position j + floor(u[:, j] * (size - j))."""
    n, k = u.shape
    deck = np.tile(np.arange(size, dtype=np.int8), (n, 1))
    rows = np.arange(n)
    for j in range(k):
        pick = j + (u[:, j] * (size - j)).astype(np.int64)
        deck[rows, j], deck[rows, pick] = deck[rows, pick], deck[rows, j]
    return deck[:, :k]


def deal_arrays(rules: Rules, n: int, rng: np.random.Generator):
    """Deal n games at once: hands (n, 2, hand_size) sorted, draw (n, 2), power bases (n, 2).

    The canonical deal: a partial shuffle of the 50 cards (`shuffled_prefix`) on
    ``rng.random((n, 2 * hand_size + 2))``; side A takes the first `hand_size` cards, side B
    the next, then two cards for the statehood draw. Power cards: two of the 15 by the same
    shuffle on ``rng.random((n, 2))``, drawn after. Every engine deals as this function does.
    """
    h = rules.hand_size
    order = shuffled_prefix(rng.random((n, 2 * h + 2)), N_CARDS)
    hands = np.sort(order[:, : 2 * h].reshape(n, 2, h), axis=2)
    draw = order[:, 2 * h :]
    power = None
    if rules.base_mode == "power":
        picks = shuffled_prefix(rng.random((n, 2)), len(POWER_DECK))
        power = np.array([c.base for c in POWER_DECK], dtype=np.int8)[picks]
    return hands, draw, power


def deal_one(rules: Rules, rng: np.random.Generator) -> Deal:
    hands, draw, power = deal_arrays(rules, 1, rng)
    return Deal(
        hands=(tuple(int(c) for c in hands[0, 0]), tuple(int(c) for c in hands[0, 1])),
        draw=(int(draw[0, 0]), int(draw[0, 1])),
        power_bases=None if power is None else (int(power[0, 0]), int(power[0, 1])),
    )


# ----- the reference engine ----------------------------------------------------------------
@dataclass(frozen=True)
class Trick:
    leader: int
    lead: int
    category: int
    base: int
    follow: int
    winner: int


@dataclass(frozen=True)
class Lead:
    card: int
    category: int
    base: int | None = None  # only where the lead chooses it


@dataclass(frozen=True)
class View:
    """What one side may see when it decides. Hidden cards are simply not here."""

    rules: Rules
    side: int
    hand: tuple[int, ...]
    discards: tuple[int, ...]
    opponent_discards: tuple[int, ...] | None
    first_lead: int | None
    declarations: tuple[bool | None, bool | None]
    power_bases: tuple[int, int] | None
    history: tuple[Trick, ...]
    #: When following: the lead's category and base, and its card unless played face-down.
    lead_category: int | None = None
    lead_base: int | None = None
    lead_card: int | None = None

    @property
    def trick(self) -> int:
        return len(self.history)

    @property
    def tricks_won(self) -> tuple[int, int]:
        winners = [t.winner for t in self.history]
        return (winners.count(0), winners.count(1))

    def allowed_bases(self) -> tuple[int, ...]:
        return self.rules.allowed_bases(self.trick, self.power_bases)


class Seat(Protocol):
    """A decision maker for one side of the reference engine."""

    def discard(self, view: View) -> Sequence[int]: ...
    def declare(self, view: View) -> bool: ...
    def lead(self, view: View) -> Lead: ...
    def follow(self, view: View) -> int: ...


@dataclass
class Game:
    """A deal played by the reference engine: everything that happened, in order."""

    rules: Rules
    hands: tuple[tuple[int, ...], tuple[int, ...]]
    discards: tuple[tuple[int, ...], tuple[int, ...]]
    first_lead: int
    declarations: tuple[bool, bool] | None
    power_bases: tuple[int, int] | None
    tricks: list[Trick] = field(default_factory=list)

    @property
    def trick_winners(self) -> list[int]:
        return [t.winner for t in self.tricks]

    @property
    def tricks_won(self) -> tuple[int, int]:
        w = self.trick_winners
        return (w.count(0), w.count(1))

    @property
    def winner(self) -> int | None:
        return outcome(self.rules, self.trick_winners)

    @property
    def points(self) -> tuple[int, int]:
        return points(self.rules, self.winner, self.declarations or (False, False), self.tricks_won)


def _name(side: int) -> str:
    return SIDES[side]


def _card_name(c: int) -> str:
    return POSTAL[c] if 0 <= c < N_CARDS else str(c)


def play(
    rules: Rules,
    hands: Sequence[Sequence[int]],
    seats: Sequence[Seat],
    first_lead: int | None = None,
    power_bases: Sequence[int] | None = None,
) -> Game:
    """Play one deal from the dealt hands to the end, asking `seats[side]` for each decision.

    `first_lead` is required when the rules take it from outside the deal ("given"), and
    `power_bases` when the bases come from Power cards. An illegal decision raises
    `IllegalActionError` naming the trick, the side and the card.
    """
    rules.validate()
    hands = (tuple(hands[0]), tuple(hands[1]))
    _check_hands(rules, hands)
    if rules.base_mode == "power":
        if power_bases is None or len(power_bases) != 2:
            raise IllegalActionError("these rules take their bases from two Power cards: give power_bases")
        power_bases = (int(power_bases[0]), int(power_bases[1]))
    else:
        power_bases = None
    if rules.first_lead == "given":
        if first_lead not in (0, 1):
            raise IllegalActionError("these rules take the first lead from outside the deal: give first_lead")
    held = [list(hands[0]), list(hands[1])]

    def view(side: int, history=(), declarations=(None, None), lead=None, lead_known=None) -> View:
        return View(
            rules=rules,
            side=side,
            hand=tuple(held[side]),
            discards=discards[side] if discards[side] is not None else (),
            opponent_discards=discards[1 - side] if rules.discards_public and discards[1 - side] is not None else None,
            first_lead=lead_known,
            declarations=declarations,
            power_bases=power_bases,
            history=tuple(history),
            lead_category=None if lead is None else lead.category,
            lead_base=None if lead is None else lead.base,
            lead_card=None if lead is None or rules.hidden_lead else lead.card,
        )

    # 1. Discards: both sides choose at once, so neither sees the other's.
    discards: list[tuple[int, ...] | None] = [None, None]
    known_lead = first_lead if rules.first_lead == "given" else None
    chosen = [tuple(int(c) for c in seats[s].discard(view(s, lead_known=known_lead))) for s in (0, 1)]
    for side in (0, 1):
        _check_discard(rules, side, chosen[side], held[side])
    for side in (0, 1):
        discards[side] = chosen[side]
        for c in chosen[side]:
            held[side].remove(c)

    # 2. The first lead.
    if rules.first_lead == "discard-statehood":
        best = [min(int(RANKS[c, STATEHOOD]) for c in discards[s]) for s in (0, 1)]
        derived = 0 if best[0] < best[1] else 1
        if first_lead is not None and first_lead != derived:
            raise IllegalActionError(
                f"first_lead: {_name(first_lead)} given, but the discards give the lead to {_name(derived)}"
            )
        first_lead = derived

    # 3. Declarations, first lead first, each seeing the earlier ones.
    declared = None
    if rules.declarations:
        said: list[bool | None] = [None, None]
        for side in (first_lead, 1 - first_lead):
            answer = seats[side].declare(view(side, declarations=tuple(said), lead_known=first_lead))
            if not isinstance(answer, (bool, np.bool_)):
                raise IllegalActionError(f"declarations: {_name(side)} must answer true or false")
            said[side] = bool(answer)
        declared = (said[0], said[1])

    # 4. The tricks.
    game = Game(rules, hands, (discards[0], discards[1]), first_lead, declared, power_bases)
    leader = first_lead
    said_now = declared or (None, None)
    while not is_over(rules, game.trick_winners):
        number = len(game.tricks) + 1
        lead = seats[leader].lead(view(leader, game.tricks, said_now, lead_known=first_lead))
        lead = _check_lead(rules, number, leader, lead, held[leader], rules.allowed_bases(number - 1, power_bases))
        held[leader].remove(lead.card)
        follower = 1 - leader
        answer = int(seats[follower].follow(view(follower, game.tricks, said_now, lead, first_lead)))
        if answer not in held[follower]:
            raise IllegalActionError(
                f"trick {number}: {_name(follower)} played {_card_name(answer)}, which is not in {_name(follower)}'s hand"
            )
        held[follower].remove(answer)
        winner = trick_winner(rules, leader, lead.card, answer, lead.category, lead.base)
        game.tricks.append(Trick(leader, lead.card, lead.category, lead.base, answer, winner))
        leader = winner
    return game


def _check_hands(rules: Rules, hands) -> None:
    seen: set[int] = set()
    for side, hand in enumerate(hands):
        if len(hand) != rules.hand_size:
            raise IllegalActionError(f"deal.{_name(side)}: expected {rules.hand_size} cards, got {len(hand)}")
        for c in hand:
            if not (isinstance(c, (int, np.integer)) and 0 <= c < N_CARDS):
                raise IllegalActionError(f"deal.{_name(side)}: {c!r} is not a card")
            if c in seen:
                raise IllegalActionError(f"deal: {_card_name(c)} dealt twice")
            seen.add(int(c))


def _check_discard(rules: Rules, side: int, chosen: tuple[int, ...], hand: list[int]) -> None:
    where = f"discards.{_name(side)}"
    if len(chosen) != rules.discards:
        raise IllegalActionError(f"{where}: expected {rules.discards} card(s), got {len(chosen)}")
    if len(set(chosen)) != len(chosen):
        raise IllegalActionError(f"{where}: the same card discarded twice")
    for c in chosen:
        if c not in hand:
            raise IllegalActionError(f"{where}: {_card_name(c)} is not in {_name(side)}'s hand")


def _check_lead(rules: Rules, number: int, side: int, lead: Lead, hand: list[int], allowed: tuple[int, ...]) -> Lead:
    where = f"trick {number}: {_name(side)}"
    if int(lead.card) not in hand:
        raise IllegalActionError(f"{where} led {_card_name(int(lead.card))}, which is not in {_name(side)}'s hand")
    if lead.category not in (0, 1, 2):
        raise IllegalActionError(f"{where} named category {lead.category!r}; expected one of {', '.join(CATEGORIES)}")
    base = lead.base
    if rules.base_mode == "lead":
        if base not in allowed:
            raise IllegalActionError(f"{where} chose base {base}; these rules allow {', '.join(map(str, allowed))}")
    elif base is not None and base != allowed[0]:
        raise IllegalActionError(f"{where} chose base {base}, but these rules fix the base at {allowed[0]}")
    return Lead(int(lead.card), int(lead.category), int(base if base is not None else allowed[0]))


# ----- a series of battles -----------------------------------------------------------------
@dataclass(frozen=True)
class Series:
    winner: int
    score: tuple[int, int]
    battles: int


def score_series(rules: Rules, battle_points: Sequence[tuple[int, int]]) -> Series:
    """Add up battles until one side reaches `target_points`.

    If both reach the target on the same battle (a tie at target - 1 each), play continues
    until one side is ahead (decided; docs/rules.md). Raises if the battles run out first.
    """
    if rules.target_points is None:
        raise RulesError(f"rules {rules.name}: no target_points, so there is no series")
    score = [0, 0]
    for count, (a, b) in enumerate(battle_points, start=1):
        score[0] += a
        score[1] += b
        if max(score) >= rules.target_points and score[0] != score[1]:
            return Series(0 if score[0] > score[1] else 1, (score[0], score[1]), count)
    raise RulesError("the battles ran out before a side reached the target")


def play_series(rules: Rules, seats: Sequence[Seat], rng: np.random.Generator, max_battles: int = 1000):
    """Play battles with a fresh shuffle each until the series is won; returns (Series, games)."""
    games: list[Game] = []

    def battles():
        while len(games) < max_battles:
            deal = deal_one(rules, rng)
            lead = deal.drawn_first_lead() if rules.first_lead == "given" else None
            game = play(rules, deal.hands, seats, lead, deal.power_bases)
            games.append(game)
            yield game.points

    return score_series(rules, battles()), games
