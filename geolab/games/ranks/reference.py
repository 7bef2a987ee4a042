"""Play the Ranks: the two-side trick-taking core behind Combo 1, the State Ranking Battles
(Levels 1-3) and GeoDouble's second stage.

A trick: the lead side plays a card and names a category (and, under Level 2, a base); the
other side answers with any card (no follow-suit rule); the card whose rank in that category
is closer to the trick's base wins, and the winner leads next. This module holds the facts of
a trick, the dealing, and the **reference engine** (`steps`: a generator of the decisions and
chance events of one deal, stepped by `geolab.stepwise`), plain Python written to be read
beside the rule texts (the `Rules` are in `geolab.games.ranks.rules`), with what a seat can
know (`resample`). Faster engines must agree with it exactly. `play` seats bots that have a
method per decision (`Seat`) at the one driver.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from dataclasses import dataclass, field, fields
from functools import cache
from itertools import chain, combinations
from typing import NamedTuple, Protocol

import numpy as np

from geolab.cards import CATEGORIES, N_CARDS, POSTAL, POWER_DECK, RANKS, STATEHOOD
from geolab.common.shuffle import shuffled_prefix
from geolab.errors import IllegalActionError, RulesError
from geolab.game import Decision, shown
from geolab.games.ranks.rules import SIDES, Rules
from geolab.stepwise import Ask, Chance, Resampled, State, TwoSides, draw_cards, seated
from geolab.stepwise import play as driver

SEATS = (0, 1)


# ----- the facts of a trick ----------------------------------------------------------------
#: `RANKS` as Python ints, ``RANK[card][category]``: one rank at a time, faster than numpy.
RANK = tuple(tuple(int(r) for r in row) for row in RANKS)


def trick_winner(rules: Rules, leader: int, lead: int, follow: int, category: int, base: int) -> int:
    """The side that wins: closer to the base wins; equal distance goes by `equal_distance`."""
    d_lead = abs(RANK[lead][category] - base)
    d_follow = abs(RANK[follow][category] - base)
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
    """One deal: both hands, the two statehood-draw cards, and the Power-card bases.

    ``first_lead`` gives the first lead outright, without a draw (``draw`` None): a record's,
    a caller's, a chance-stepped or resampled deal's. Where the discards decide the lead, a
    first lead given here is a claim the engine checks."""

    hands: tuple[tuple[int, ...], tuple[int, ...]]
    draw: tuple[int, int] | None
    power_bases: tuple[int, int] | None = None
    first_lead: int | None = None

    def drawn_first_lead(self) -> int:
        """The side whose drawn card has statehood closer to 1 (the texts' tie-breaker draw)."""
        return 0 if RANKS[self.draw[0], STATEHOOD] < RANKS[self.draw[1], STATEHOOD] else 1

    def given_lead(self) -> int | None:
        """The first lead this deal gives from outside play: `first_lead`, else the draw's
        (None with neither)."""
        if self.first_lead is not None:
            return self.first_lead
        return None if self.draw is None else self.drawn_first_lead()


def deal_arrays(rules: Rules, n: int, rng: np.random.Generator):
    """Deal n games at once: hands (n, 2, hand_size) sorted, draw (n, 2), power bases (n, 2).

    The canonical deal: a partial shuffle of the deck (`shuffled_prefix`: cards 0 to
    ``rules.deck - 1``, all 50 but in the analysis variants) on
    ``rng.random((n, 2 * hand_size + 2))``; side A takes the first `hand_size` cards, side B
    the next, then two cards for the statehood draw. Power cards: two of the 15 by the same
    shuffle on ``rng.random((n, 2))``, drawn after. Every engine deals as this function does.
    """
    h = rules.hand_size
    order = shuffled_prefix(rng.random((n, 2 * h + 2)), rules.deck)
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
class Trick(NamedTuple):
    leader: int
    lead: int
    category: int
    base: int
    follow: int
    winner: int


class Lead(NamedTuple):
    """A lead: a card, the category it names and the trick's base (None from a seat where
    the rules fix the base: the engine fills it in)."""

    card: int
    category: int
    base: int | None = None

    def label(self) -> str:
        """For error messages: ``"NY size base 1"``."""
        category = CATEGORIES[self.category] if self.category in (0, 1, 2) else shown(self.category)
        return f"{_card_name(self.card)} {category} base {shown(self.base)}"


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
    #: The lead on the table: its category and base, and its card unless played face-down
    #: (the leader always sees its own).
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

    def plays(self) -> list[tuple]:
        """Every lead and answer seen, oldest first, as (leader, lead card, category, base,
        answer, trick); last, the lead on the table when its card shows (answer None: this
        side is to answer the other's lead). What a bot weighing the other side's play walks."""
        seen = [(t.leader, t.lead, t.category, t.base, t.follow, j) for j, t in enumerate(self.history)]
        if self.lead_card is not None:
            seen.append((1 - self.side, self.lead_card, self.lead_category, self.lead_base, None, self.trick))
        return seen

    def allowed_bases(self) -> tuple[int, ...]:
        """The bases a lead may name now, worked out once a view (a seat may ask for every
        lead it weighs); kept beside the fields, so equality and `replace` ignore it."""
        bases = self.__dict__.get("_bases")
        if bases is None:
            bases = self.__dict__["_bases"] = self.rules.allowed_bases(self.trick, self.power_bases)
        return bases


_VIEW_FIELDS = tuple(f.name for f in fields(View))


def discard_leader(discards) -> int:
    """The first lead under ``first_lead = discard-statehood``: the side whose discard has the
    statehood closer to 1 (written once: the engine and the oracle's judge of discards)."""
    best = [min(int(RANKS[c, STATEHOOD]) for c in discards[s]) for s in SEATS]
    return 0 if best[0] < best[1] else 1


def _made_view(*values) -> View:
    """A `View` of these field values, made without the frozen dataclass's ``__init__``
    (an ``object.__setattr__`` a field, most of a decision's own time in the engine)."""
    view = object.__new__(View)
    view.__dict__.update(zip(_VIEW_FIELDS, values))
    return view


def _with_discards(view: View, mine: tuple[int, ...], theirs: tuple[int, ...] | None) -> View:
    """`view` with these discards (the same cards, listed otherwise), made as `_made_view`
    makes one."""
    changed = object.__new__(View)
    changed.__dict__.update(view.__dict__, discards=mine, opponent_discards=theirs)
    return changed


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


def _card_name(c) -> str:
    return POSTAL[c] if isinstance(c, (int, np.integer)) and 0 <= c < N_CARDS else shown(c)


@cache
def _leads_at(bases: tuple[int, ...]) -> tuple[tuple[Lead, ...], ...]:
    """Each card's leads at these bases (every category, every base), made once: a deal
    builds its leads' legal tuples from them."""
    return tuple(tuple(Lead(c, k, b) for k in range(3) for b in bases) for c in range(N_CARDS))


def lead_options(hand, bases: tuple[int, ...]) -> tuple[Lead, ...]:
    """Every lead of a hand: each card (in card order), category and allowed base."""
    return tuple(chain.from_iterable(map(_leads_at(bases).__getitem__, sorted(hand))))


def decision(kind: str, view: View) -> Decision:
    """The `Decision` `steps` asks the view's side at a decision of this kind (``"discard"``,
    ``"declare"``, ``"lead"``, ``"follow"``), from the View alone: the legal actions are every
    discard set of the hand (card order), both answers, every lead of the hand at the bases
    allowed now (`lead_options`), every card of the hand. The engine asks with it, so a seat
    that decides on Views (`ByDecision`) is asked exactly what the engine would ask."""
    rules, side = view.rules, view.side
    if kind == "discard":
        return Decision(side, kind, view, tuple(combinations(sorted(view.hand), rules.discards)), "discards")
    if kind == "declare":
        return Decision(side, kind, view, (False, True), "declarations")
    if kind == "lead":
        return Decision(side, kind, view, lead_options(view.hand, view.allowed_bases()), f"trick {view.trick + 1}")
    if kind == "follow":
        return Decision(side, kind, view, tuple(sorted(view.hand)), f"trick {view.trick + 1}")
    raise ValueError(f"{kind!r} is no Play the Ranks decision (discard, declare, lead, follow)")


def steps(rules: Rules, deal: Deal | None = None):
    """The reference engine: one deal played by the rules, as a generator of nodes
    (`geolab.stepwise`). Without a deal, chance deals it first (`deal_by_chance`); then it
    asks (`Ask`) both discards at once, the declarations in turn, and each trick's lead and
    answer. It receives each Ask's ``{side: action}``, already checked against the legal
    actions, and returns the played `Game`.

    Every seat's view (`View`) is built by one closure over the live state, so the view any
    seat had at any node, or has at the end, comes from the same place. A deal the rules
    cannot play (a hand of the wrong size, a card dealt twice, no first lead where it is
    given, no Power-card bases) is an `IllegalActionError`."""
    rules.validate()
    if deal is None:
        deal = yield from deal_by_chance(rules)
    hands, first_lead, power_bases = _dealt(rules, deal)
    held = [list(hands[0]), list(hands[1])]
    discards: list[tuple[int, ...] | None] = [None, None]
    known_lead = first_lead if rules.first_lead == "given" else None
    said: tuple[bool | None, bool | None] = (None, None)
    tricks: list[Trick] = []
    leader, lead = first_lead, None  # `lead`: the lead on the table

    def observe(side: int) -> View:
        theirs = discards[1 - side]
        on_table = (None, None, None) if lead is None else \
            (lead.category, lead.base, None if rules.hidden_lead and side != leader else lead.card)
        return _made_view(rules, side, tuple(held[side]), discards[side] or (),
                         theirs if rules.discards_public and theirs is not None else None,
                         known_lead, said, power_bases, tuple(tricks), *on_table)

    # 1. Discards: both sides choose at once, so neither sees the other's. A variant without
    # discards asks nothing here: an empty choice would be a node that looks, to the side that
    # leads first, just like the first lead after it (no View could tell them apart).
    chosen = (yield Ask(tuple(decision("discard", observe(s)) for s in SEATS), observe)) if rules.discards \
        else {side: () for side in SEATS}
    for side in SEATS:
        discards[side] = chosen[side]
        for c in chosen[side]:
            held[side].remove(c)

    # 2. The first lead.
    if rules.first_lead == "discard-statehood":
        derived = discard_leader(discards)
        if first_lead is not None and first_lead != derived:
            raise IllegalActionError(
                f"first_lead: {_name(first_lead)} given, but the discards give the lead to {_name(derived)}"
            )
        first_lead = leader = known_lead = derived

    # 3. Declarations, first lead first, each seeing the earlier ones.
    declared = None
    if rules.declarations:
        for side in (first_lead, 1 - first_lead):
            answer = yield Ask((decision("declare", observe(side)),), observe)
            said = (answer[side], said[1]) if side == 0 else (said[0], answer[side])
        declared = said

    # 4. The tricks.
    game = Game(rules, hands, (discards[0], discards[1]), first_lead, declared, power_bases, tricks)
    winners: list[int] = []
    while not is_over(rules, winners):
        answer = yield Ask((decision("lead", observe(leader)),), observe)
        lead = answer[leader]
        held[leader].remove(lead.card)
        follower = 1 - leader
        answer = yield Ask((decision("follow", observe(follower)),), observe)
        card = answer[follower]
        held[follower].remove(card)
        winner = trick_winner(rules, leader, lead.card, card, lead.category, lead.base)
        tricks.append(Trick(leader, lead.card, lead.category, lead.base, card, winner))
        winners.append(winner)
        leader, lead = winner, None
    return game


def _dealt(rules: Rules, deal: Deal):
    """The deal's hands, the first lead it gives (None where the discards decide it and the
    deal claims none) and its Power-card bases, checked against the rules."""
    hands = (tuple(deal.hands[0]), tuple(deal.hands[1]))
    _check_hands(rules, hands)
    power_bases = None
    if rules.base_mode == "power":
        if deal.power_bases is None or len(deal.power_bases) != 2:
            raise IllegalActionError("these rules take their bases from two Power cards: give power_bases")
        power_bases = (int(deal.power_bases[0]), int(deal.power_bases[1]))
    first_lead = deal.given_lead() if rules.first_lead == "given" else deal.first_lead
    if rules.first_lead == "given" and first_lead not in SEATS:
        raise IllegalActionError("these rules take the first lead from outside the deal: give first_lead")
    return hands, first_lead, power_bases


def _check_hands(rules: Rules, hands) -> None:
    seen: set[int] = set()
    for side, hand in enumerate(hands):
        if len(hand) != rules.hand_size:
            raise IllegalActionError(f"deal.{_name(side)}: expected {rules.hand_size} cards, got {len(hand)}")
        for c in hand:
            if not (isinstance(c, (int, np.integer)) and 0 <= c < rules.deck):
                raise IllegalActionError(f"deal.{_name(side)}: {c!r} is not a card"
                                         + (f" of the {rules.deck}-card deck" if rules.deck < N_CARDS else ""))
            if c in seen:
                raise IllegalActionError(f"deal: {_card_name(c)} dealt twice")
            seen.add(int(c))


# ----- chance and hidden information --------------------------------------------------------
def deal_by_chance(rules: Rules):
    """The deal as chance makes it, one `Chance` node at a time, in the order a table decides
    it: A's cards, B's cards (each hand then held in card order, as `deal_one` deals it), the
    first lead where it is given from outside the deal (either side, one half each: that is
    what the statehood draw of two unseen cards gives), and the two Power cards turned
    face-up before the discards (Level 3). Returns the `Deal`, which then has no draw."""
    h = rules.hand_size
    a = yield from draw_cards(range(rules.deck), h)
    b = yield from draw_cards([c for c in range(rules.deck) if c not in a], h)
    first_lead = (yield Chance("first lead", SEATS)) if rules.first_lead == "given" else None
    power_bases = None
    if rules.base_mode == "power":
        picks = yield from draw_cards(range(len(POWER_DECK)), 2, "power card")
        power_bases = (POWER_DECK[picks[0]].base, POWER_DECK[picks[1]].base)
    return Deal((tuple(sorted(a)), tuple(sorted(b))), None, power_bases, first_lead)


def deal_from_chance(rules: Rules, outcomes: Sequence[int]) -> Deal:
    """The deal a chance-stepped game's outcomes so far make (`deal_by_chance` fed with
    them); what chance has not decided yet is its first possible outcome each time (the
    lowest card left, side A, the first Power card left). An outcome chance could not give
    there, or more outcomes than a deal takes, is an `IllegalActionError`."""
    chance, given = deal_by_chance(rules), iter(outcomes)
    node = next(chance)
    try:
        while True:
            outcome = next(given, node.outcomes[0])
            if outcome not in node.outcomes:
                raise IllegalActionError(f"{node.kind}: {shown(outcome)} is not a possible outcome here")
            node = chance.send(int(outcome))
    except StopIteration as done:
        deal = done.value
    extra = sum(1 for _ in given)
    if extra:
        raise IllegalActionError(f"chance: {extra} outcome(s) after the deal was complete")
    return deal


def _is_discard(action) -> bool:
    """A logged discard: a tuple of cards (a `Lead` is a named tuple, and not one)."""
    return isinstance(action, tuple) and not isinstance(action, Lead)


def _shown(rules: Rules, log: Sequence, other: int) -> tuple[list, int | None, set, set]:
    """What a log shows of side `other`'s cards: its asks, the index of a face-down lead of
    `other`'s on the table (None), the cards `other` played in finished tricks, and its
    discards where they are public."""
    asks = [answers for kind, answers in log if kind == "ask"]
    shown_lead = None
    if rules.hidden_lead and asks and set(asks[-1]) == {other} and isinstance(asks[-1][other], Lead):
        shown_lead = len(asks) - 1  # the opponent's lead lies face-down: the seat is to follow
    played = set()
    for k, answers in enumerate(asks):
        action = answers.get(other)
        if isinstance(action, Lead) and k != shown_lead or isinstance(action, int) and not isinstance(action, bool):
            played.add(int(action.card if isinstance(action, Lead) else action))
    public = set()
    if rules.discards_public:
        public = {int(c) for answers in asks if _is_discard(answers.get(other)) for c in answers[other]}
    return asks, shown_lead, played, public


def exchange(rules: Rules, deal: Deal, log: Sequence, seat: int, rng: np.random.Generator) -> Resampled:
    """A deal and log `seat` cannot tell from these (a `resample`'d pair), one of the
    opponent's unseen cards traded: a card x it holds unseen (in hand, a hidden discard, a
    face-down lead) and a card y among the undealt and its other unseen cards, each uniformly,
    change places (y dealt instead of x, or the two swap roles in its hidden choices). The
    move back is exactly as likely, so a Markov chain of these moves, accepted on the
    likelihood of the opponent's play, samples the posterior of its cards (the exploiter's,
    `geolab.lab.exploit`) without drawing whole hands that its play rules out."""
    other = 1 - seat
    asks, shown_lead, played, public = _shown(rules, log, other)
    theirs = set(deal.hands[other])
    unseen = sorted(theirs - played - public)
    if not unseen:
        return Resampled(deal, tuple(log))
    x = unseen[int(rng.integers(len(unseen)))]
    taken = theirs | set(deal.hands[seat]) | set(deal.draw or ())
    others = [c for c in range(rules.deck) if c not in taken] + [c for c in unseen if c != x]
    if not others:
        return Resampled(deal, tuple(log))
    y = others[int(rng.integers(len(others)))]
    swap = {x: y, y: x}
    hands = list(deal.hands)
    hands[other] = tuple(sorted(swap.get(c, c) for c in hands[other]))
    new_log = []
    for k, answers in enumerate(asks):
        action = answers.get(other)
        if not rules.discards_public and _is_discard(action):
            answers = {**answers, other: tuple(sorted(swap.get(int(c), int(c)) for c in action))}
        elif k == shown_lead:
            answers = {**answers, other: Lead(swap.get(action.card, action.card), action.category, action.base)}
        new_log.append(("ask", answers))
    return Resampled(Deal(tuple(hands), deal.draw, deal.power_bases, deal.first_lead), tuple(new_log))


def resample(rules: Rules, deal: Deal, log: Sequence, seat: int, rng: np.random.Generator) -> Resampled:
    """A deal and log `seat` cannot tell from these after the `geolab.stepwise.State` log
    so far.

    It keeps `seat`'s own hand and choices, the Power-card bases, the first lead and every
    card the opponent has shown: the cards it played in finished tricks, its discards where
    they are public. The rest of the opponent's hand is dealt anew, uniformly, from every
    other card, the statehood draw's included (the draw is unseen, only the lead it gave is
    known, so the new deal gives that lead outright). What the opponent chose unseen is chosen
    anew on the new hand, uniformly among the choices the rest of the log allows: its hidden
    discards (never among the cards it later plays) and a face-down lead on the table (the
    same category and base, its card from what it still holds). Nothing is left to chance
    after the deal."""
    other = 1 - seat
    asks, shown_lead, played, public = _shown(rules, log, other)
    hidden_discard = not rules.discards_public
    kept = played | public
    mine = set(deal.hands[seat])
    pool = [c for c in range(rules.deck) if c not in mine and c not in kept]
    fresh = [int(c) for c in rng.choice(pool, rules.hand_size - len(kept), replace=False)]
    theirs = tuple(sorted(kept | set(fresh)))
    discarded: tuple[int, ...] = ()
    new_log = []
    for k, answers in enumerate(asks):
        answers = dict(answers)
        action = answers.get(other)
        if hidden_discard and _is_discard(action):
            choices = [c for c in theirs if c not in played]
            discarded = tuple(sorted(int(c) for c in rng.choice(choices, len(action), replace=False)))
            answers[other] = discarded
        elif k == shown_lead:
            held = [c for c in theirs if c not in played and c not in public and c not in discarded]
            answers[other] = Lead(int(rng.choice(held)), action.category, action.base)
        new_log.append(("ask", answers))
    hands = (tuple(deal.hands[0]), theirs) if seat == 0 else (theirs, tuple(deal.hands[1]))
    first_lead = deal.given_lead() if rules.first_lead == "given" else deal.first_lead
    return Resampled(Deal(hands, None, deal.power_bases, first_lead), tuple(new_log))


def determinized(rules: Rules, seat: int, view: View, rng: np.random.Generator) -> Resampled:
    """A deal and log `seat` cannot tell from the real ones, built from its `View` alone (it
    has perfect recall): `resample` of the deal and log the View tells.

    The seat's dealt hand is its hand, its discards and every card it has played; the log is
    every decision so far as the View shows it: both discards, the declarations, each trick's
    lead and answer, a lead on the table. What the View does not show (the opponent's cards
    in hand, a hidden discard, a face-down lead) is left blank, and `resample` deals and
    chooses it anew, uniformly, as it does for a State: so a state on this deal and log has
    the seat's observation equal to `view`."""
    first = view.first_lead
    asks: list[dict] = []
    discarded = bool(view.discards) or view.opponent_discards is not None \
        or any(d is not None for d in view.declarations) or bool(view.history) or view.lead_category is not None
    if discarded and rules.discards:  # a variant without discards asks none (`steps`)
        theirs = view.opponent_discards if view.opponent_discards is not None else (None,) * rules.discards
        asks.append({0: view.discards, 1: theirs} if seat == 0 else {0: theirs, 1: view.discards})
    for side in (first, 1 - first) if discarded else ():
        if view.declarations[side] is not None:
            asks.append({side: view.declarations[side]})
    mine = set(view.hand) | set(view.discards)
    for t in view.history:
        asks += [{t.leader: Lead(t.lead, t.category, t.base)}, {1 - t.leader: t.follow}]
        mine.add(t.lead if t.leader == seat else t.follow)
    if view.lead_category is not None:
        leader = view.history[-1].winner if view.history else first
        asks.append({leader: Lead(view.lead_card, view.lead_category, view.lead_base)})  # None: face-down
        if leader == seat:
            mine.add(view.lead_card)
    hands = (tuple(sorted(mine)), ()) if seat == 0 else ((), tuple(sorted(mine)))
    deal = Deal(hands, None, view.power_bases, first if rules.first_lead == "given" else None)
    return resample(rules, deal, [("ask", a) for a in asks], seat, rng)


def max_length(rules: Rules) -> int:
    """The most nodes a deal can take: every card dealt, the given first lead, two Power
    cards, then two discards, two declarations and two decisions a trick."""
    chance = 2 * rules.hand_size + (rules.first_lead == "given") + 2 * (rules.base_mode == "power")
    return chance + 2 + 2 * rules.declarations + 2 * rules.tricks


class Engine(TwoSides):
    """Play the Ranks' reference engine as a step-wise game (`geolab.stepwise.TwoSides`):
    what the one driver and `geolab.stepwise.State` need, here so that records and the
    method-seat adapter (`play`) can run it. The registered game
    (`geolab.games.ranks.game.RanksGame`) is this and the batch engine, records, action
    indices, observations and views."""

    name = "ranks"
    reference = sys.modules[__name__]

    def determinize(self, rules: Rules, seat: int, observation: View, rng: np.random.Generator) -> State:
        """A state `seat` cannot tell from the real one, from its `View` alone (`determinized`),
        at the node of the View."""
        new = determinized(rules, seated(self, rules, seat), observation, rng)
        return self.state(rules, new.deal, new.log)

    def scores(self, played: Game) -> np.ndarray:
        winner = played.winner
        return np.array([0.5, 0.5]) if winner is None else np.eye(2)[winner]


ENGINE = Engine()


# ----- seats with a method per decision ------------------------------------------------------
class Seat(Protocol):
    """A decision maker for one side with a method per decision (bots written for one deal
    at a time, records of old): `play` seats it at the one driver through `Methods`."""

    def discard(self, view: View) -> Sequence[int]: ...
    def declare(self, view: View) -> bool: ...
    def lead(self, view: View) -> Lead: ...
    def follow(self, view: View) -> int: ...


class Methods:
    """A method seat (`Seat`) as a `geolab.game.Seat`: each decision's view goes to the
    method its kind names, and the answer becomes the decision's action form: the discard as
    the set it is (card order), a lead with the base the rules fix filled in.

    A method seat may list its discards in any order, and keeps that order (so does the
    batch engine): `order` holds both sides' as given, and with more than one discard each
    later view shows them so, as the game `play` returns does."""

    def __init__(self, seat: Seat, order: list):
        self.seat, self.order = seat, order

    def act(self, decision: Decision):
        view, kind = decision.observation, decision.kind
        if kind == "discard":
            given = tuple(int(c) for c in self.seat.discard(view))
            self.order[view.side] = given
            return tuple(sorted(given))
        if view.rules.discards > 1:
            view = _with_discards(view, self.order[view.side],
                                  None if view.opponent_discards is None else self.order[1 - view.side])
        if kind == "declare":
            return self.seat.declare(view)
        if kind == "lead":
            lead = self.seat.lead(view)
            if lead.base is None and view.rules.base_mode != "lead":
                return Lead(lead.card, lead.category, view.allowed_bases()[0])
            return lead
        return self.seat.follow(view)


class ByDecision:
    """A `geolab.game.Seat` (one that answers a `Decision`: a search over the step-wise
    state, OpenSpiel's) as a method seat (`Seat`), the other way round from `Methods`: each
    method's View becomes the Decision the engine would ask there (`decision`), so the batch
    engine's `geolab.games.ranks.batch.SeatPolicy` can seat it."""

    def __init__(self, seat):
        self.seat, self.name = seat, getattr(seat, "name", type(seat).__name__)

    def discard(self, view: View) -> tuple[int, ...]:
        return self.seat.act(decision("discard", view))

    def declare(self, view: View) -> bool:
        return self.seat.act(decision("declare", view))

    def lead(self, view: View) -> Lead:
        return self.seat.act(decision("lead", view))

    def follow(self, view: View) -> int:
        return self.seat.act(decision("follow", view))


def play(
    rules: Rules,
    hands: Sequence[Sequence[int]],
    seats: Sequence[Seat],
    first_lead: int | None = None,
    power_bases: Sequence[int] | None = None,
) -> Game:
    """Play one deal from the dealt hands to the end with method seats (`Seat`): the one
    driver (`geolab.stepwise.play`) steps the engine and asks `seats[side]` through `Methods`.

    `first_lead` is required when the rules take it from outside the deal ("given"), and
    `power_bases` when the bases come from Power cards. An illegal decision raises
    `IllegalActionError` naming the trick, the side and the action.
    """
    deal = Deal((tuple(hands[0]), tuple(hands[1])), None, None if power_bases is None else tuple(power_bases),
                first_lead)
    order: list = [None, None]
    game = driver(ENGINE, rules, deal, [Methods(seat, order) for seat in seats])
    if rules.discards > 1:
        game.discards = (order[0], order[1])
    return game


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
