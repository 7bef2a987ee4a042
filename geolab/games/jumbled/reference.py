"""Jumbled GeoPower Choice: the small rulings both engines share, and the **reference
engine** (one game, step by step, as the rule text reads; the specification the batch engine
is tested against), with its deals (`Deal`: every round's cards, fixed by a seed) and what a
seat sees when it decides (`View`).

The engine is the generator `steps` (`geolab.stepwise`): it yields the dealer's call and each
set's simultaneous choices as `Ask` nodes, and, stepped without a deal, chance's own moves as
`Chance` nodes; `Round` and `Game` hold the state it plays on. `deal_from_chance` and
`resample` are the deals a chance-stepped game makes and a seat cannot tell apart.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import combinations

import numpy as np

from geolab.cards import N_CARDS, POSTAL, RANKS
from geolab.errors import GeolabError, IllegalActionError
from geolab.game import Decision
from geolab.games.jumbled.rules import BOTTOMS_UP, CALLS, SEAT_LETTERS, TOP_DOG, Rules, call_index
from geolab.stepwise import Ask, Chance, Resampled, State, StepGame, Steps, draw_cards, seated

# --------------------------------------------------------------------------------------------
# Shared small rulings (plain Python, used by both engines' callers and by bots)
# --------------------------------------------------------------------------------------------


def cards_range(rules: Rules, set_index: int, played: int) -> tuple[int, int]:
    """How many cards a player may lay on this set so the round can still be completed."""
    after = rules.sets_per_round - set_index - 1
    left = rules.cards_to_play - played
    return (max(rules.min_cards_per_set, left - after * rules.max_cards_per_set),
            min(rules.max_cards_per_set, left - after * rules.min_cards_per_set))


def illegal_reason(rules: Rules, set_index: int, hand: Sequence[int], left: Sequence[int], cards) -> str | None:
    """Why laying `cards` on set `set_index` is not legal for a seat dealt `hand` and still
    holding `left` ("played TX, which is not in the hand"), or None when it is legal: the
    words of a refused choice, for people and records."""
    for c in cards:
        if c not in left:
            return f"played {POSTAL[c]}, which is {'already played' if c in hand else 'not in the hand'}"
    if len(set(cards)) != len(cards):
        return "played the same card twice"
    lo, hi = cards_range(rules, set_index, len(hand) - len(left))
    if not lo <= len(cards) <= hi:
        return (f"played {len(cards)} cards; {lo}-{hi} are allowed here so that exactly "
                f"{rules.cards_to_play} are played in the round")
    return None


def deck_order(rules: Rules, turned: Sequence[int]) -> tuple[int, ...]:
    """A GeoPower deck order that turns `turned` first (at most a deck's worth, fitting its
    counts), the deck's other cards after them in word order (never seen, so any order)."""
    left = list(rules.geopower_deck)
    for c in turned:
        left[c] -= 1
    return tuple(turned) + tuple(c for c in range(3) for _ in range(left[c]))


def category_probs(rules: Rules, turned: np.ndarray, set_index: int) -> np.ndarray:
    """(G, 3) chance of each category for the card about to be turned, from public facts.

    The deck composition is public and the order is a fresh shuffle, so the next card is
    uniform over the cards not yet turned this cycle; once a reused deck comes round again
    the card is already known.
    """
    turned = np.asarray(turned).reshape(-1, rules.sets_per_round)
    counts = np.broadcast_to(np.array(rules.geopower_deck, float), (len(turned), 3)).copy()
    D = rules.deck_size
    if rules.used_to_bottom and set_index >= D:
        known = turned[:, set_index - D]
        out = np.zeros_like(counts)
        out[np.arange(len(turned)), known] = 1.0
        return out
    for s in range(set_index):
        np.subtract.at(counts, (np.arange(len(turned)), turned[:, s]), 1.0)
    return counts / counts.sum(axis=1, keepdims=True)


def _winners(rules: Rules, totals: list[int], call: int) -> list[int]:
    """Seats winning a set: the strictly best total, or the tied best under 'all-tied'."""
    best = min(totals) if call == TOP_DOG else max(totals)
    tied = [i for i, t in enumerate(totals) if t == best]
    return tied if len(tied) == 1 or rules.set_tie == "all-tied" else []


def round_points(rules: Rules, sets_won: int) -> int:
    return sets_won * rules.points_per_set + rules.bonus[sets_won]


# --------------------------------------------------------------------------------------------
# Reference engine: one game, step by step, as the rule text reads
# --------------------------------------------------------------------------------------------


class GeoPowerDeck:
    """The shuffled GeoPower deck of one round: turn the top card, then it goes to the bottom."""

    def __init__(self, rules: Rules, order: list[int]):
        self.cards, self.reuse = list(order), rules.used_to_bottom

    def turn(self) -> int:
        top = self.cards.pop(0)
        if self.reuse:
            self.cards.append(top)
        return top


@dataclass
class SetResult:
    category: int
    plays: list[tuple[int, ...]]
    totals: list[int]
    winners: list[int]


class Round:
    """One round after the call and the deal; `play_set` takes every seat's choice at once.
    ``geopower`` None: chance turns each GeoPower card as it comes (`steps` without a deal)."""

    def __init__(self, rules: Rules, call: int, hands, geopower: Sequence[int] | None):
        self.rules, self.call = rules, call
        self.hands = [tuple(h) for h in hands]
        self.left = [list(h) for h in hands]
        self.deck = GeoPowerDeck(rules, geopower) if geopower is not None else None
        self.sets: list[SetResult] = []

    @property
    def done(self) -> bool:
        return len(self.sets) == self.rules.sets_per_round

    def legal(self, seat: int) -> list[tuple[int, ...]]:
        played = len(self.hands[seat]) - len(self.left[seat])
        lo, hi = cards_range(self.rules, len(self.sets), played)
        return [c for k in range(lo, hi + 1) for c in combinations(self.left[seat], k)]

    def check(self, seat: int, cards: tuple[int, ...]) -> None:
        """Raise `IllegalActionError` unless `cards` is a legal choice for `seat` now."""
        where = f"set {len(self.sets) + 1}: {SEAT_LETTERS[seat]}"
        if self.done:
            raise IllegalActionError(f"{where} played after the round ended")
        why = illegal_reason(self.rules, len(self.sets), self.hands[seat], self.left[seat], cards)
        if why is not None:
            raise IllegalActionError(f"{where} {why}")

    def play_set(self, choices: list[tuple[int, ...]]) -> SetResult:
        """All seats lay their cards face down, then the GeoPower card is turned; every
        choice checked first (`steps` lays choices `geolab.stepwise.State` has checked)."""
        if len(choices) != self.rules.players:
            raise IllegalActionError(f"set {len(self.sets) + 1}: {len(choices)} choices for {self.rules.players} seats")
        for seat, cards in enumerate(choices):
            self.check(seat, tuple(cards))
        return self.lay(choices, self.deck.turn())

    def lay(self, choices, category: int) -> SetResult:
        """Legal choices laid and scored under the GeoPower card turned for them."""
        for seat, cards in enumerate(choices):
            for c in cards:
                self.left[seat].remove(c)
        totals = [int(sum(int(RANKS[c, category]) for c in cards)) for cards in choices]
        result = SetResult(category, [tuple(c) for c in choices], totals, _winners(self.rules, totals, self.call))
        self.sets.append(result)
        return result

    def points(self) -> list[int]:
        won = [sum(seat in s.winners for s in self.sets) for seat in range(self.rules.players)]
        return [round_points(self.rules, w) for w in won]


class Game:
    """The race to the target: rounds with a rotating dealer until one team is ahead on it."""

    def __init__(self, rules: Rules):
        self.rules = rules.validate()
        self.scores = [0] * rules.players
        self.rounds: list[Round] = []
        self.winner: int | None = None  # a team, or -1 for a draw
        self.dealer = 0

    @property
    def over(self) -> bool:
        return self.winner is not None

    def team_scores(self) -> list[int]:
        out = [0] * self.rules.n_teams
        for seat, s in enumerate(self.scores):
            out[self.rules.team_of[seat]] += s
        return out

    def start_round(self, call: int, hands, geopower: Sequence[int] | None) -> Round:
        if self.over:
            raise IllegalActionError("the game is over")
        if call not in (TOP_DOG, BOTTOMS_UP) or CALLS[call] not in self.rules.calls:
            raise IllegalActionError(f"round {len(self.rounds) + 1}: call {call!r} is not allowed")
        self.rounds.append(Round(self.rules, call, hands, geopower))
        return self.rounds[-1]

    def end_round(self) -> None:
        """Score the finished round, decide whether the race is over, pass the deal left."""
        rnd = self.rounds[-1]
        for seat, p in enumerate(rnd.points()):
            self.scores[seat] += p
        teams = self.team_scores()
        top = max(teams)
        if top >= self.rules.target:
            leaders = [t for t, s in enumerate(teams) if s == top]
            if len(leaders) == 1:
                self.winner = leaders[0]
            elif self.rules.final_tie == "draw":
                self.winner = -1
        if self.winner is None and len(self.rounds) >= self.rules.max_rounds:
            self.winner = -1
        self.dealer = (self.dealer + 1) % self.rules.players


# --------------------------------------------------------------------------------------------
# Deals and views for the reference engine
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class RoundDeal:
    """One round's chance: each seat's hand (cards in the order dealt) and the shuffled
    GeoPower deck (categories, top first)."""

    hands: tuple[tuple[int, ...], ...]
    geopower: tuple[int, ...]


def deal_round(rules: Rules, rng: np.random.Generator) -> RoundDeal:
    """A fresh round: both decks shuffled, `cards_dealt` cards to every seat."""
    P, H = rules.players, rules.cards_dealt
    cards = rng.permutation(N_CARDS)[: P * H]
    deck = [c for c, k in enumerate(rules.geopower_deck) for _ in range(k)]
    order = rng.permutation(len(deck))
    return RoundDeal(tuple(tuple(int(c) for c in cards[p * H:(p + 1) * H]) for p in range(P)),
                     tuple(int(deck[i]) for i in order))


@dataclass(frozen=True)
class Deal:
    """Everything chance decides in a whole game: round r is ``fixed[r]`` when given, else
    dealt by `deal_round` from ``SeedSequence(seed, spawn_key=(r,))``, so a deal is a small,
    exact value however many rounds the game lasts.

    ``stop_after``: chance deals no more rounds, so the game stops there, finished or not (a
    record of a game's first rounds). ``decided``: the deal was made from this many chance
    outcomes (`deal_from_chance`) and the rest of it is a placeholder, which `resample` redraws."""

    seed: int
    fixed: tuple[RoundDeal, ...] = ()
    stop_after: int | None = None
    decided: int | None = None

    def round(self, rules: Rules, r: int) -> RoundDeal:
        if r < len(self.fixed):
            return self.fixed[r]
        return deal_round(rules, np.random.default_rng(np.random.SeedSequence(self.seed, spawn_key=(r,))))


@dataclass(frozen=True)
class SetSeen:
    """A finished set as everybody saw it: the GeoPower category, every seat's cards, the
    seats that won it."""

    category: int
    plays: tuple[tuple[int, ...], ...]
    winners: tuple[int, ...]


@dataclass(frozen=True)
class View:
    """What one seat knows when it decides (reference engine): the rules, its seat, the round
    (dealer, the call: None while the dealer is still to call), the scores before this round,
    its hand as dealt (empty before the deal) and the cards it still holds, this round's
    finished sets, and every earlier round's call and sets (``history``: (dealer, call, sets)
    per round). Others' unplayed cards and the GeoPower cards still to come are not here."""

    rules: Rules
    seat: int
    round_index: int
    dealer: int
    call: str | None
    scores: tuple[int, ...]
    set_index: int = 0
    hand: tuple[int, ...] = ()
    left: tuple[int, ...] = ()
    sets: tuple[SetSeen, ...] = ()
    history: tuple[tuple[int, str, tuple[SetSeen, ...]], ...] = field(default=())

    def probs(self) -> np.ndarray:
        """(3,) the chance of each category on the card about to be turned."""
        turned = np.full((1, self.rules.sets_per_round), -1, np.int64)
        turned[0, : len(self.sets)] = [x.category for x in self.sets]
        return category_probs(self.rules, turned, self.set_index)[0]


def seen_sets(rnd: Round) -> tuple[SetSeen, ...]:
    return tuple(SetSeen(x.category, tuple(tuple(p) for p in x.plays), tuple(x.winners)) for x in rnd.sets)


# --------------------------------------------------------------------------------------------
# The step-wise reference engine (`geolab.stepwise`)
# --------------------------------------------------------------------------------------------


def steps(rules: Rules, deal: Deal | None) -> Steps:
    """One game as the rule text reads, node by node: each round the dealer calls (an `Ask`
    of the dealer), the cards are dealt, then on each set every seat chooses at once (one
    `Ask` of seats A, B, ... in order) before the GeoPower card is turned; rounds follow until
    a team is ahead at the target. Chance comes from `deal`; with ``deal=None`` it is a
    `Chance` node where it acts: each card dealt after the call (seat A's cards first), each
    GeoPower card as it is turned. Returns the played `Game`."""
    rules = rules.validate()
    P, H, S = rules.players, rules.cards_dealt, rules.sets_per_round
    calls = tuple(rules.calls)
    game = Game(rules)
    history: tuple[tuple[int, str, tuple[SetSeen, ...]], ...] = ()
    while not game.over and (deal is None or deal.stop_after is None or len(game.rounds) < deal.stop_after):
        r, dealer, scores = len(game.rounds), game.dealer, tuple(game.scores)
        before = _call_view(rules, r, dealer, scores, history)
        call = (yield Ask((Decision(dealer, "call", before(dealer), calls, f"round {r + 1}"),), before))[dealer]
        if deal is None:
            cards = yield from draw_cards(range(N_CARDS), P * H)
            hands, geopower = [cards[p * H:(p + 1) * H] for p in range(P)], None
        else:
            dealt = deal.round(rules, r)
            hands, geopower = dealt.hands, dealt.geopower
        rnd = game.start_round(call_index(call), hands, geopower)
        during = _set_view(rules, r, dealer, call, scores, history, rnd)
        for s in range(S):
            where = f"set {s + 1} of round {r + 1}"
            choices = yield Ask(tuple(Decision(p, "choose", during(p), tuple(rnd.legal(p)), where) for p in range(P)),
                                during)
            category = rnd.deck.turn() if rnd.deck is not None else (yield from turn_by_chance(rules, rnd))
            rnd.lay([choices[p] for p in range(P)], category)
        game.end_round()
        history += ((dealer, call, seen_sets(rnd)),)
    return game


def _call_view(rules: Rules, r: int, dealer: int, scores: tuple[int, ...], history):
    """Any seat's `View` while round r's dealer calls: the scores and the rounds before."""
    def view(seat: int) -> View:
        return View(rules, seat, r, dealer, None, scores, history=history)
    return view


def _set_view(rules: Rules, r: int, dealer: int, call: str, scores: tuple[int, ...], history, rnd: Round):
    """Any seat's `View` during round r, read from the live round, so after its last set it
    shows the finished round (the game's end). The public sets are built once a set."""
    seen: list = [-1, ()]

    def view(seat: int) -> View:
        if seen[0] != len(rnd.sets):
            seen[:] = [len(rnd.sets), seen_sets(rnd)]
        return View(rules, seat, r, dealer, call, scores, len(rnd.sets), rnd.hands[seat], tuple(rnd.left[seat]),
                    seen[1], history)
    return view


def turn_by_chance(rules: Rules, rnd: Round) -> Steps:
    """The GeoPower card turned for the round's next set, by chance: each word in proportion
    to its cards not yet turned this round (the deck is a fresh shuffle); once a reused deck
    comes round again the card is known, and chance has no say."""
    turned = [x.category for x in rnd.sets]
    s, D = len(turned), rules.deck_size
    if rules.used_to_bottom and s >= D:
        return turned[s - D]
    left = [n - turned.count(k) for k, n in enumerate(rules.geopower_deck)]
    outcomes = tuple(k for k in range(3) if left[k])
    return (yield Chance("geopower", outcomes, tuple(left[k] / sum(left) for k in outcomes)))


def chance_per_round(rules: Rules) -> int:
    """Chance outcomes of one round stepped without a deal: every card dealt, and a GeoPower
    card for each set until a reused deck comes round again."""
    return rules.players * rules.cards_dealt + min(rules.sets_per_round, rules.deck_size)


def deal_from_chance(rules: Rules, outcomes: Sequence[int]) -> Deal:
    """The deal a chance-stepped game's outcomes make (`steps` with no deal), round by round:
    the cards in the order dealt (seat A's first), then the GeoPower cards turned. What chance
    has not decided yet is a placeholder (the lowest cards left, the deck's other cards in word
    order, later rounds from seed 0); ``decided`` says how much is chance's."""
    rules = rules.validate()
    P, H = rules.players, rules.cards_dealt
    per = chance_per_round(rules)
    fixed = []
    for at in range(0, len(outcomes), per):
        part = [int(x) for x in outcomes[at:at + per]]
        cards, turned = part[: P * H], part[P * H:]
        cards += [c for c in range(N_CARDS) if c not in cards][: P * H - len(cards)]
        fixed.append(RoundDeal(tuple(tuple(cards[p * H:(p + 1) * H]) for p in range(P)), deck_order(rules, turned)))
    return Deal(0, tuple(fixed), decided=len(outcomes))


def resample(rules: Rules, deal: Deal, log: Sequence, seat: int, rng: np.random.Generator) -> Deal:
    """A deal `seat` cannot tell from `deal` after the `geolab.stepwise.State` ``log``: in
    every round dealt so far its own hand, every card laid (in the order laid) and every
    GeoPower card turned stay; the other seats' other cards are dealt anew from the cards it
    has not seen, in a random order, the deck's cards not yet turned are shuffled anew, and the
    rounds still to deal come from a fresh seed. Every logged decision stays legal on it.

    Where the log stands comes from its answers: a round is the dealer's call and then one
    answer a set. A chance-stepped state's deal (`Deal.decided`) also says whether the round
    being played is dealt yet and how many GeoPower cards are turned: a set laid face down
    whose card is still to come keeps its cards (the log holds them)."""
    rules = rules.validate()
    if not 0 <= seat < rules.players:
        raise GeolabError(f"seat {seat!r}: the seats are 0-{rules.players - 1}")
    S, D, dealt = rules.sets_per_round, rules.deck_size, rules.players * rules.cards_dealt
    asks = [answers for kind, answers in log if kind == "ask"]
    k, j = divmod(len(asks), 1 + S)  # in round k, j answers given (its call first)
    fixed = [_redealt(rules, deal.round(rules, r), asks[r * (1 + S) + 1:(r + 1) * (1 + S)], seat,
                      min(S, D), rng) for r in range(k)]
    chance = None if deal.decided is None else deal.decided - k * chance_per_round(rules)
    if j and (chance is None or chance >= dealt):
        turned = min(j - 1, D) if chance is None else chance - dealt
        fixed.append(_redealt(rules, deal.round(rules, k), asks[k * (1 + S) + 1:], seat, turned, rng))
    seed = deal.seed
    while seed == deal.seed:
        seed = int(rng.integers(1 << 63))
    return Deal(seed, tuple(fixed), deal.stop_after)


def _redealt(rules: Rules, rd: RoundDeal, sets: Sequence, seat: int | None, turned: int,
             rng: np.random.Generator) -> RoundDeal:
    """One round as `seat` saw it, the rest dealt anew: its hand, the cards laid on `sets`
    (``{seat: cards}`` each) and the first `turned` GeoPower cards stay. Another seat's hand
    is its laid cards and fresh ones in a random order that keeps each laid set in its order
    (a choice lists cards in the order dealt), so every order consistent with the log is alike.
    `seat` None: no hand is known beyond its laid cards (an earlier round as a `View` shows it)."""
    P, H = rules.players, rules.cards_dealt
    laid = [[c for answers in sets for c in answers[p]] for p in range(P)]
    seen = set(rd.hands[seat] if seat is not None else ()).union(*laid)
    pool = [int(c) for c in rng.permutation([c for c in range(N_CARDS) if c not in seen])]
    hands = []
    for p in range(P):
        if p == seat:
            hands.append(tuple(rd.hands[p]))
            continue
        cards = laid[p] + [pool.pop() for _ in range(H - len(laid[p]))]
        hand = [cards[i] for i in rng.permutation(H)]
        for answers in sets:
            for slot, c in zip(sorted(hand.index(c) for c in answers[p]), answers[p]):
                hand[slot] = c
        hands.append(tuple(hand))
    rest = rd.geopower[turned:]
    return RoundDeal(tuple(hands),
                     tuple(rd.geopower[:turned]) + tuple(int(rest[i]) for i in rng.permutation(len(rest))))


def determinized(rules: Rules, seat: int, view: View, rng: np.random.Generator) -> tuple[Deal, tuple]:
    """A deal and log `seat` cannot tell from the real ones, built from its `View` alone: the
    log is every call and set the View shows (earlier rounds' from ``history``, this round's
    from ``sets``), and the deal keeps what the View shows of each round dealt so far (the
    cards laid, the GeoPower cards turned, and in the round it stands in its own hand as
    dealt) and deals the rest anew as `resample` does: the other seats' unplayed cards from
    the cards it has not seen, the deck's cards not yet turned in a fresh order, the rounds
    still to deal from a fresh seed. Its own unplayed card of an earlier round, which the View
    does not keep (and which cannot matter again), is dealt like the others' unseen cards.
    Any seat count the rules allow; a View of another seat or under other rules is one line."""
    rules = rules.validate()
    if not isinstance(view, View) or view.seat != seat or view.rules.validate() != rules:
        raise GeolabError(f"determinize: not seat {SEAT_LETTERS[seat]}'s view of a game under these rules")
    D, log, fixed = rules.deck_size, [], []
    rounds = list(view.history) + ([(view.dealer, view.call, view.sets)] if view.call is not None else [])
    for r, (dealer, call, sets) in enumerate(rounds):
        answers = [dict(enumerate(x.plays)) for x in sets]
        log += [("ask", {dealer: call})] + [("ask", a) for a in answers]
        turned = [x.category for x in sets][:D]
        own = r == view.round_index  # the round it stands in shows its hand; earlier ones do not
        shown = RoundDeal(tuple(view.hand if own and p == seat else () for p in range(rules.players)),
                          deck_order(rules, turned))
        fixed.append(_redealt(rules, shown, answers, seat if own else None, len(turned), rng))
    return Deal(int(rng.integers(1 << 63)), tuple(fixed)), tuple(log)


def exchange(rules: Rules, deal: Deal, log: Sequence, seat: int, rng: np.random.Generator) -> Resampled:
    """A deal and log `seat` cannot tell from these (`determinized`'s or `resample`'s), one
    unseen card traded: among every round dealt so far, a card x another seat holds and has
    not laid, uniformly, and a card y of that round that `seat` has not seen (not laid, not in
    its own hand, not in x's holder's hand: undealt, or unlaid in a third seat's hand), also
    uniformly, change places. The counts of both choices are the same after the trade, so the
    move back is exactly as likely: a Markov chain of these moves, accepted on the likelihood
    of the others' play, samples their cards from it (the exploiter's posterior,
    `geolab.lab.exploit`). The log is unchanged (every choice laid stays where it was)."""
    rules = rules.validate()
    S = rules.sets_per_round
    asks = [answers for kind, answers in log if kind == "ask"]
    rounds = -(-len(asks) // (1 + S))  # each dealt round: its call, then one answer a set
    dealt = [deal.round(rules, r) for r in range(rounds)]
    laid = [set().union(*(map(int, cards) for a in asks[r * (1 + S) + 1:(r + 1) * (1 + S)] for cards in a.values()))
            for r in range(rounds)]
    unseen = [(r, p, c) for r in range(rounds) for p, hand in enumerate(dealt[r].hands) if p != seat
              for c in hand if c not in laid[r]]
    if not unseen:
        return Resampled(deal, tuple(log))
    r, p, x = unseen[int(rng.integers(len(unseen)))]
    hands = dealt[r].hands
    others = [c for c in range(N_CARDS) if c not in laid[r] and c not in hands[seat] and c not in hands[p]]
    y = others[int(rng.integers(len(others)))]
    swap = {x: y, y: x}
    traded = RoundDeal(tuple(tuple(swap.get(c, c) for c in h) for h in hands), dealt[r].geopower)
    fixed = tuple(traded if k == r else dealt[k] for k in range(rounds)) + deal.fixed[rounds:]
    return Resampled(Deal(deal.seed, fixed, deal.stop_after, deal.decided), tuple(log))


class Engine(StepGame):
    """The reference engine as a step-wise game (`geolab.stepwise.State` steps it, records
    replay on it): the verbs of `geolab.game.Game` the specification answers. `JumbledGame`
    adds the rest."""

    def seats(self, rules: Rules) -> int:
        return rules.players

    def seat_name(self, rules: Rules, seat: int) -> str:
        return SEAT_LETTERS[seat]

    def deal(self, rules: Rules, rng: np.random.Generator) -> Deal:
        return Deal(int(rng.integers(1 << 63)))

    steps = staticmethod(steps)
    deal_from_chance = staticmethod(deal_from_chance)
    resample = staticmethod(resample)
    exchange = staticmethod(exchange)

    def determinize(self, rules: Rules, seat: int, observation: View, rng: np.random.Generator) -> State:
        """A state `seat` cannot tell from the real one, from its `View` alone (`determinized`),
        at the node of the View."""
        deal, log = determinized(rules, seated(self, rules, seat), observation, rng)
        return self.state(rules, deal, log)
