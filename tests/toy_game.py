"""Top Rank, a test-only game: the proof that a game is one module and one registration.

Each of `seats` players is dealt `hand` cards. In round r every player plays one card at once;
the best rank in the round's category (``categories[r]``; lowest rank best unless
``best_low`` is false) wins the round; after `rounds` rounds (or when a player has `limit`
round wins) the most round wins takes the game, and tied leaders share it (``ties="share"``)
or nobody wins (``"nobody"``: every seat then shares). It registers itself with two bots and
gets simulate, arena, replay and the conformance suites without a line of lab or CLI code.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

import numpy as np

from geolab import registry
from geolab.cards import CATEGORIES, N_CARDS, POSTAL, RANKS
from geolab.common.seeding import int_seed
from geolab.definition import GameDef, Players
from geolab.errors import IllegalActionError, RecordError, RulesError
from geolab.game import (
    SEAT_LETTERS,
    Batch,
    BatchBot,
    Bots,
    Decision,
    MoveError,
    RulesBase,
    Views,
    asking,
    envelope,
    record_rules,
    replayed,
    shares,
    typed_number,
)
from geolab.scene import Fact, Race, Scene, moves, pile
from geolab.stepwise import Ask, Claim, StepGame, draw_cards

NAME = "toy"
RECORD = "top-rank"


RIGGED = ("none", "seat-a", "deal", "guess", "first")


@dataclass(frozen=True)
class Rules(RulesBase):
    seats: int = 3
    hand: int = 3
    rounds: int = 3
    categories: tuple[int, ...] = (0, 1, 2)
    best_low: bool = True
    ties: str = "share"
    limit: int | None = None
    rigged: str = "none"
    target: int | None = None
    race: bool = False

    PRESETS = {"standard": lambda: Rules(), "duel": lambda: Rules(seats=2, hand=4, rounds=4, categories=(0, 1, 2, 0)),
               "race": lambda: Rules(race=True)}
    DEFAULT = "standard"
    HELP = {"seats": "players", "hand": "cards dealt to each", "rounds": "rounds played",
            "categories": "the category of each round (0 size, 1 statehood, 2 population)",
            "best_low": "rank 1 is best", "ties": "share: tied leaders share the win; nobody: all share",
            "limit": "round wins that end the game early (null: never)",
            "rigged": "none; seat-a: seat A always wins; deal: the deal alone decides (the seat holding the "
                      "lowest card wins), so play is worth nothing; guess: a seat wins when the size rank of "
                      "its first card is odd exactly when the size ranks dealt to the other seats add up to an "
                      "odd number, a guess no fair seat can make better than a coin but a peeking one can (the "
                      "balance metrics' known answers); first: the first mover is the seat dealt the lowest card "
                      "(drawn per deal, as Play the Ranks' first lead) and it always wins",
            "target": "round wins that win a series of games (null: one game is the match)",
            "race": "before round 1 every seat races to claim its best card for round 1's category; the fastest "
                    "true claim (the lower seat on equal seconds) is worth one round win, a false claim is out"}

    def validate(self):
        if not 2 <= self.seats <= 6:
            raise RulesError(f"seats: {self.seats} is outside 2-6")
        if not 1 <= self.rounds <= self.hand or self.seats * self.hand > N_CARDS:
            raise RulesError("rounds must be 1..hand and the hands must fit in the deck")
        if len(self.categories) != self.rounds or any(c not in (0, 1, 2) for c in self.categories):
            raise RulesError("categories: one of 0, 1, 2 per round")
        if self.ties not in ("share", "nobody"):
            raise RulesError(f"ties: {self.ties!r} is not one of share, nobody")
        if self.limit is not None and not 1 <= self.limit <= self.rounds:
            raise RulesError("limit must be 1..rounds or null")
        if self.rigged not in RIGGED:
            raise RulesError(f"rigged: {self.rigged!r} is not one of {', '.join(RIGGED)}")
        if self.target is not None and not 1 <= self.target <= 100:
            raise RulesError("target must be 1..100 or null")
        return self


def _winners(rules: Rules, wins: np.ndarray, hands: np.ndarray, first: np.ndarray | None = None) -> np.ndarray:
    """(n, seats) round wins, (n, seats, hand) dealt cards and (n, seats) the cards of round 1
    -> (n, seats) win shares."""
    if rules.rigged == "seat-a":
        return np.eye(rules.seats)[np.zeros(len(wins), np.int64)]
    if rules.rigged in ("deal", "first"):
        return np.eye(rules.seats)[_lowest_card_seat(hands)]
    if rules.rigged == "guess":
        return shares(RANKS[first, 0] % 2 == _others_parity(hands))
    best = wins == wins.max(axis=1, keepdims=True)
    if rules.ties == "nobody":
        best &= best.sum(axis=1, keepdims=True) == 1
    return shares(best)


def _lowest_card_seat(hands: np.ndarray) -> np.ndarray:
    """(n, seats, hand) dealt cards -> (n,) the seat dealt the lowest card."""
    return hands.min(axis=2).argmin(axis=1)


def _others_parity(hands: np.ndarray) -> np.ndarray:
    """(n, seats, hand) dealt cards -> (n, seats) the parity of the size ranks dealt to the
    other seats (rigged "guess")."""
    size = RANKS[hands, 0].astype(np.int64).sum(axis=2)
    return (size.sum(axis=1, keepdims=True) - size) % 2


def _round_winner(rules: Rules, cards: np.ndarray, category: int) -> np.ndarray:
    """(n, seats) cards played -> (n,) the winning seat (the lower seat on equal ranks)."""
    ranks = RANKS[cards, category].astype(np.int64)
    return (ranks if rules.best_low else -ranks).argmin(axis=1)


class ToyGame(StepGame):
    name, title, record_game, Rules = NAME, "Top Rank (test-only)", RECORD, Rules
    length_unit, first_means = "rounds", "seat A (rigged first: the seat dealt the lowest card)"
    block = 1 << 40  # every game comes from one draw of the seed: never split a batch

    def seats(self, rules):
        return rules.seats

    def seat_name(self, rules, seat):
        return SEAT_LETTERS[seat]

    # ----- batch engine --------------------------------------------------------------------
    def deal_batch(self, rules: Rules, n: int, seed) -> np.ndarray:
        order = np.random.default_rng(int_seed(seed)).random((n, N_CARDS)).argsort(axis=1)
        return order[:, : rules.seats * rules.hand].reshape(n, rules.seats, rules.hand)

    def _run(self, rules, bots, n, seed, stream):
        rules.validate()
        hands = self.deal_batch(rules, n, seed)
        held = np.ones(hands.shape, bool)
        rng = np.random.default_rng(np.random.SeedSequence(int_seed(seed), spawn_key=(stream + 1,)))
        wins = np.zeros((n, rules.seats), np.int64)
        played = np.zeros(n, np.int64)
        plays = []
        race = None
        if rules.race:
            race = self._race(rules, bots, hands, rng)
            won = race_winner(rules, hands, race[0], race[1])
            wins[np.flatnonzero(won >= 0), won[won >= 0]] += 1
        for r, category in enumerate(rules.categories):
            live = np.flatnonzero(played == r) if rules.limit is None else \
                np.flatnonzero((wins.max(axis=1) < rules.limit) & (played == r))
            cards = np.zeros((n, rules.seats), np.int64)
            before = np.where(held[live], hands[live], -1)  # the cards held as the round starts
            for s, bot in enumerate(bots):
                obs = {"hand": np.where(held[live, s], hands[live, s], -1), "category": category, "round": r}
                if getattr(bot, "peeks", False):  # a peeking bot (the oracle) sees every seat's cards
                    obs |= {"seat": s, "hidden": before, "dealt": hands[live], "wins": wins[live],
                            "first": plays[0][live] if plays else None}
                with asking("toy", bot, f"play of round {r + 1}"):
                    choice = np.asarray(bot.act(obs, rng))
                if choice.dtype.kind not in "iu" or choice.shape != live.shape:
                    raise IllegalActionError(f"{bot.name}: round {r + 1}, seat {SEAT_LETTERS[s]}: "
                                             f"expected {len(live)} whole-number card indices, got {choice.dtype} "
                                             f"{choice.shape}")
                choice = choice.astype(np.int64)
                ok = (choice >= 0) & (choice < rules.hand)
                ok[ok] &= held[live[ok], s, choice[ok]]
                if not ok.all():
                    raise IllegalActionError(f"{bot.name}: round {r + 1}, seat {SEAT_LETTERS[s]}: illegal card index")
                held[live, s, choice] = False
                cards[live, s] = hands[live, s, choice]
            if len(live):
                wins[live, _round_winner(rules, cards[live], category)] += 1
            played[live] += 1
            plays.append(cards)
        first = _lowest_card_seat(hands) if rules.rigged == "first" else np.zeros(n, np.int64)
        batch = Batch(_winners(rules, wins, hands, plays[0]), played, first,
                      {f"wins_{SEAT_LETTERS[s]}": wins[:, s] for s in range(rules.seats)})
        return batch, hands, plays, race

    def _race(self, rules, bots, hands, rng):
        """Every seat's claim (a card index of its hand, -1 for none) and its seconds."""
        n = len(hands)
        index, seconds = np.zeros((n, rules.seats), np.int64), np.zeros((n, rules.seats))
        for s, bot in enumerate(bots):
            obs = {"hand": hands[:, s], "category": rules.categories[0], "round": 0}
            with asking("toy", bot, "race"):
                i, t = bot.claim(obs, rng)
            index[:, s], seconds[:, s] = i, t
        return np.where(index >= 0, np.take_along_axis(hands, np.maximum(index, 0)[..., None], 2)[..., 0], -1), seconds

    def batch(self, rules, bots, n, seed, *, start=0, stream=0, chunk=None, threads=None):
        """Plays the whole batch at once, so chunk and threads cannot change a result."""
        if start:
            raise ValueError("the test-only game plays every batch from its first game")
        return self._run(rules, bots, n, seed, stream)[0]

    def batch_records(self, rules, bots, n, seed):
        batch, hands, plays, race = self._run(rules, bots, n, seed, 0)
        out = []
        for i in range(n):
            rounds = [[int(plays[r][i, s]) for s in range(rules.seats)] for r in range(int(batch.length[i]))]
            claims = None if race is None else tuple(Claim(None if c < 0 else int(c), float(t))
                                                    for c, t in zip(race[0][i], race[1][i]))
            out.append(self.to_record(Played(rules, [list(map(int, h)) for h in hands[i]], rounds, claims)))
        return out

    # ----- reference engine (step-wise) ------------------------------------------------------
    def deal(self, rules, rng):
        order = rng.permutation(N_CARDS)[: rules.seats * rules.hand]
        return [sorted(int(c) for c in order[s * rules.hand:(s + 1) * rules.hand]) for s in range(rules.seats)]

    def steps(self, rules, deal):
        """The game as the rules read: (the deal, when chance is stepped,) the race, then
        every round's simultaneous plays."""
        rules.validate()
        if deal is None:
            deal = yield from draw_cards(range(N_CARDS), rules.seats * rules.hand)
            deal = self.deal_from_chance(rules, deal)
        held = [list(h) for h in deal]
        rounds: list = []
        claims = None
        now = {"round": 0, "race": rules.race}

        def observe(s):
            return {"hand": tuple(held[s]), "category": rules.categories[now["round"]], "round": now["round"],
                    "history": tuple(map(tuple, rounds)), "rules": rules, "race": now["race"],
                    "claims": claims}

        if rules.race:
            answers = yield Ask(tuple(Decision(s, "race", observe(s), tuple(held[s]), "the race", timed=True)
                                      for s in range(rules.seats)), observe)
            claims = tuple(answers[s] for s in range(rules.seats))
            now["race"] = False
        wins = [0] * rules.seats
        won = race_winner(rules, np.array([deal]), *claim_arrays([claims])) if claims else [-1]
        if won[0] >= 0:
            wins[int(won[0])] += 1
        for r, category in enumerate(rules.categories):
            if rules.limit is not None and max(wins) >= rules.limit:
                break
            now["round"] = r
            answers = yield Ask(tuple(Decision(s, "play", observe(s), tuple(held[s]), f"round {r + 1}")
                                      for s in range(rules.seats)), observe)
            cards = [int(answers[s]) for s in range(rules.seats)]
            for s, c in enumerate(cards):
                held[s].remove(c)
            rounds.append(cards)
            wins[int(_round_winner(rules, np.array([cards]), category)[0])] += 1
        return Played(rules, [list(h) for h in deal], rounds, claims)

    def deal_from_chance(self, rules, outcomes):
        h = rules.hand
        return [sorted(outcomes[s * h:(s + 1) * h]) for s in range(rules.seats) if len(outcomes) >= (s + 1) * h]

    def resample(self, rules, deal, log, seat, rng):
        """Every other seat keeps the cards it has shown (played or claimed); the rest of its
        hand is dealt anew from the cards `seat` has not seen."""
        shown = [set() for _ in range(rules.seats)]
        for answers in (value for kind, value in log if kind == "ask"):  # a chance entry shows nothing
            for s, a in answers.items():
                card = a.action if isinstance(a, Claim) else a
                if card is not None:
                    shown[s].add(int(card))
        seen = set(deal[seat]).union(*shown)
        unseen = [int(c) for c in rng.permutation([c for c in range(N_CARDS) if c not in seen])]
        return [sorted(deal[s]) if s == seat
                else sorted([*shown[s], *(unseen.pop() for _ in range(rules.hand - len(shown[s])))])
                for s in range(rules.seats)]

    def determinize(self, rules, seat, obs, rng):
        """The seat's dealt cards are those it holds and those it played; the log is the race
        and the rounds it saw; the other hands are `resample`'s, from that log alone."""
        log = ([("ask", dict(enumerate(obs["claims"])))] if obs["claims"] else []) + \
            [("ask", dict(enumerate(cards))) for cards in obs["history"]]
        own = sorted([*obs["hand"], *(cards[seat] for cards in obs["history"])])
        return self.state(rules, self.resample(rules, {seat: own}, log, seat, rng), log)

    def num_actions(self, rules):
        return N_CARDS + 1  # a card (played or claimed); N_CARDS: no claim

    def action_id(self, rules, decision, action):
        return N_CARDS if action is None else int(action)

    def action_of(self, rules, decision, index):
        if decision.timed and index == N_CARDS:
            return None
        if index not in decision.legal:
            raise IllegalActionError(f"{decision.where}: action {index} is not a card of the hand")
        return int(index)

    def tensor_size(self, rules):
        return N_CARDS * (1 + rules.seats) + 3 + 1

    def observation_tensor(self, rules, seat, obs):
        """Own hand (50), every seat's played cards (50 a seat), the round's category (3),
        the rounds played (1)."""
        out = np.zeros(self.tensor_size(rules), np.float32)
        out[list(obs["hand"])] = 1
        for cards in obs["history"]:
            for s, c in enumerate(cards):
                out[N_CARDS * (1 + s) + c] = 1
        out[N_CARDS * (1 + rules.seats) + obs["category"]] = 1
        out[-1] = len(obs["history"])
        return out

    def observation_string(self, rules, seat, obs):
        claims = "" if not obs["claims"] else " claims " + " ".join(
            f"{SEAT_LETTERS[s]}:{'-' if c.action is None else POSTAL[c.action]}@{c.seconds:g}"
            for s, c in enumerate(obs["claims"]))
        rounds = " | ".join(" ".join(POSTAL[c] for c in cards) for cards in obs["history"])
        return f"seat {SEAT_LETTERS[seat]} hand {' '.join(POSTAL[c] for c in obs['hand'])} " \
               f"{'race' if obs['race'] else 'round ' + str(obs['round'] + 1)}{claims} played [{rounds}]"

    def max_length(self, rules):
        return rules.seats * rules.hand + rules.seats * (rules.rounds + int(rules.race))

    def scores(self, played):
        return played.scores()

    # ----- at the keyboard -------------------------------------------------------------------
    def series_target(self, rules):
        return rules.target

    def bonus_free_points(self, rules):
        return None

    def deal_points(self, played):
        return tuple(int(w) for w in played.wins())

    def report(self, played):
        return {"winner": "+".join(SEAT_LETTERS[s] for s in np.flatnonzero(played.scores() > 0)),
                "scores": {SEAT_LETTERS[s]: float(v) for s, v in enumerate(played.scores())},
                "rounds_played": len(played.rounds)}

    def to_record(self, played):
        rules = played.rules
        body = {"deal": {SEAT_LETTERS[s]: [POSTAL[c] for c in h] for s, h in enumerate(played.hands)},
                "rounds": [[POSTAL[c] for c in cards] for cards in played.rounds]}
        if played.race:
            body["race"] = [[None if c.action is None else POSTAL[c.action], c.seconds] for c in played.race]
        record = envelope(RECORD, rules.to_spec(), body)
        record["result"] = self.report(played)
        return record

    def replay(self, record):
        return replayed(record, RECORD, self._replay_body, self.report, ("deal", "rounds", "race"))

    def _replay_body(self, record):
        rules = record_rules(Rules, record)
        deal = record.get("deal")
        if not isinstance(deal, dict) or sorted(deal) != list(SEAT_LETTERS[: rules.seats]):
            raise RecordError("deal: expected a hand per seat")

        def cards(where, names):
            if not isinstance(names, list) or not all(isinstance(x, str) and x in POSTAL for x in names):
                raise RecordError(f"{where}: expected a list of postal codes")
            return [POSTAL.index(x) for x in names]

        hands = [cards(f"deal.{SEAT_LETTERS[s]}", deal[SEAT_LETTERS[s]]) for s in range(rules.seats)]
        if len({c for h in hands for c in h}) != sum(map(len, hands)) or any(len(h) != rules.hand for h in hands):
            raise RecordError(f"deal: expected {rules.hand} different cards a seat")
        listed = record.get("rounds")
        if not isinstance(listed, list):
            raise RecordError("rounds: expected a list of rounds")
        rounds = [cards(f"round {r + 1}", x) for r, x in enumerate(listed)]
        if any(len(x) != rules.seats for x in rounds):
            raise RecordError(f"rounds: expected a card for each of {rules.seats} seats a round")
        moves = [] if "race" not in record else [{s: c for s, c in enumerate(race_claims(rules, record["race"]))}]
        moves += [dict(enumerate(x)) for x in rounds]
        state = self.state(rules, hands)
        try:
            for k, answers in enumerate(moves):
                if state.is_over():
                    raise RecordError(f"rounds: {len(rounds)} recorded, the game lasts {k - int('race' in record)}")
                state.apply(answers)
        except IllegalActionError as error:
            raise RecordError(str(error)) from None
        if not state.is_over():
            raise RecordError(f"rounds: {len(rounds)} recorded, the game is not over")
        return state.played


def race_claims(rules, listed) -> list[Claim]:
    """A record's race: per seat [postal code or null, seconds]."""
    if not isinstance(listed, list) or len(listed) != rules.seats or not all(
            isinstance(x, list) and len(x) == 2 and (x[0] is None or x[0] in POSTAL)
            and isinstance(x[1], float) and math.isfinite(x[1]) for x in listed):
        raise RecordError("race: expected [postal code or null, seconds (a finite real number)] a seat")
    return [Claim(None if c is None else POSTAL.index(c), float(t)) for c, t in listed]


def claim_arrays(races) -> tuple[np.ndarray, np.ndarray]:
    """Claims (a tuple of `Claim` a game) as arrays: cards (-1 for none) and seconds."""
    return (np.array([[-1 if c.action is None else c.action for c in r] for r in races], np.int64),
            np.array([[c.seconds for c in r] for r in races], float))


def race_winner(rules, hands: np.ndarray, cards: np.ndarray, seconds: np.ndarray) -> np.ndarray:
    """(n,) the seat whose true claim came first (-1: no true claim). A claim is true when
    it names the seat's best card for round 1's category (ties of seconds: the lower seat)."""
    ranks = RANKS[hands, rules.categories[0]].astype(np.int64)
    best = np.take_along_axis(hands, (ranks if rules.best_low else -ranks).argmin(axis=2)[..., None], 2)[..., 0]
    true = cards == best
    time = np.where(true, seconds, np.inf)
    return np.where(true.any(axis=1), time.argmin(axis=1), -1)


@dataclass
class Played:
    rules: Rules
    hands: list
    rounds: list
    race: tuple | None = None  # every seat's `Claim`

    def wins(self) -> np.ndarray:
        wins = np.zeros(self.rules.seats, np.int64)
        if self.race:
            won = race_winner(self.rules, np.array([self.hands]), *claim_arrays([self.race]))[0]
            if won >= 0:
                wins[won] += 1
        for r, cards in enumerate(self.rounds):
            wins[_round_winner(self.rules, np.array([cards]), self.rules.categories[r])[0]] += 1
        return wins

    def scores(self) -> np.ndarray:
        first = np.array([self.rounds[0]]) if self.rounds else None
        return _winners(self.rules, self.wins()[None], np.array([self.hands]), first)[0]


def _who(seat: int, you: int) -> str:
    return "you" if seat == you else SEAT_LETTERS[seat]


def _round_line(rules, r: int, cards, you: int) -> str:
    k = rules.categories[r]
    winner = int(_round_winner(rules, np.array([cards]), k)[0])
    played = ", ".join(f"{_who(s, you)} {POSTAL[c]} ({RANKS[c, k]})" for s, c in enumerate(cards))
    return f"round {r + 1} ({CATEGORIES[k]}): {played}: {_who(winner, you)} won"


def _race_lines(rules, claims, you: int) -> list[str]:
    if not claims:
        return []
    said = ", ".join(f"{_who(s, you)} {'passed' if c.action is None else POSTAL[c.action]} ({c.seconds:.1f} s)"
                     for s, c in enumerate(claims))
    return [f"race: {said}"]


class ToyViews(Views):
    """The test-only game at the keyboard: a card by postal code or screen number."""

    def screen(self, decision):
        obs = decision.observation
        k = obs["category"]
        lines = [f"race! claim your best {CATEGORIES[k]} card, fast" if decision.timed else
                 f"round {obs['round'] + 1}: {CATEGORIES[k]}, best rank wins"]
        lines += [f"  {i + 1}. {POSTAL[c]} {CATEGORIES[k]} {RANKS[c, k]}" for i, c in enumerate(obs["hand"])]
        return lines

    def prompt(self, decision):
        return "claim CARD (or pass) > " if decision.timed else "play CARD > "

    def help(self, decision):
        return [f"type a card of your hand: {POSTAL[decision.observation['hand'][0]]} or 1"]

    def label(self, decision, action):
        return POSTAL[action]

    def parse(self, decision, text):
        hand = decision.observation["hand"]
        word = text.strip().upper()
        n = typed_number(word)
        if n is not None and 1 <= n <= len(hand):
            return hand[n - 1]
        if word in POSTAL and POSTAL.index(word) in hand:
            return POSTAL.index(word)
        raise MoveError(f"{text.strip()!r} is not a card of your hand ({' '.join(POSTAL[c] for c in hand)})")

    def events(self, decision):
        obs = decision.observation
        return _race_lines(obs["rules"], obs["claims"], decision.seat) + \
            [_round_line(obs["rules"], r, cards, decision.seat) for r, cards in enumerate(obs["history"])]

    def ending(self, played, seat):
        lines = _race_lines(played.rules, played.race, seat) + \
            [_round_line(played.rules, r, cards, seat) for r, cards in enumerate(played.rounds)]
        share = played.scores()[seat]
        return lines + ["You won." if share == 1 else "You shared the win." if share > 0 else "You lost."]

    def scene(self, decision):
        obs = decision.observation
        hand = pile("hand", "Your cards", obs["hand"], "hand", selectable=obs["hand"])
        facts = (Fact("round", "the race" if decision.timed else f"round {obs['round'] + 1}"),)
        if decision.timed:
            return Scene("Top Rank", "race", self.prompt(decision), (hand,), facts, obs["category"],
                         race=Race((1,), "your best card"))
        return Scene("Top Rank", "play", self.prompt(decision), (hand,), facts, obs["category"],
                     moves(decision, self.label, lambda c: ((f"hand-{POSTAL[c]}",), ())))

    def reason(self, decision, action):
        k = decision.observation["category"]
        return f"it has the best {CATEGORIES[k]} rank you hold ({RANKS[action, k]})"



class FirstCard(BatchBot):
    """Plays the first card it holds."""

    def __init__(self, rules):
        self.name = "first"

    def act(self, obs, rng):
        return (obs["hand"] >= 0).argmax(axis=1)

    def claim(self, obs, rng):
        """The race: claims its first card at once (one second): fast, and often wrong."""
        n = len(obs["hand"])
        return np.zeros(n, np.int64), np.ones(n)


class BestCard(BatchBot):
    """Plays its best card in the round's category, or (``greed`` below 1) a random one.
    ``forbid="top"`` (restricted play): never its best card while it holds another."""

    def __init__(self, rules, greed: float = 1.0, forbid: str | None = None, speed: float = 2.0):
        if not 0 <= greed <= 1:
            raise ValueError("greed must be within 0-1")
        if forbid is not None:
            if forbid != "top":
                raise ValueError(f"forbid must be top, got {forbid!r}")
            if self.not_applicable(rules, forbid):
                raise ValueError(f"does not apply: {self.not_applicable(rules, forbid)}")
        if not 0 < speed <= 60:
            raise ValueError("speed must be above 0 and at most 60 seconds")
        self.rules, self.greed, self.forbid, self.speed, self.name = rules, greed, forbid, speed, "best"

    def claim(self, obs, rng):
        """The race: claims its best card after a lognormal time around `speed` seconds (its
        speed model)."""
        hand = obs["hand"]
        rank = RANKS[hand, obs["category"]].astype(np.int64)
        best = (rank if self.rules.best_low else -rank).argmin(axis=1)
        return best, self.speed * np.exp(0.5 * rng.standard_normal(len(hand)))

    @staticmethod
    def not_applicable(rules, forbid):
        return "forbid=top: a hand of one card leaves no choice" if rules.hand < 2 else None

    def act(self, obs, rng):
        hand = obs["hand"]
        worst = 99 if self.rules.best_low else -1
        rank = np.where(hand >= 0, RANKS[np.maximum(hand, 0), obs["category"]], worst)
        best = rank.argmin(axis=1) if self.rules.best_low else rank.argmax(axis=1)
        noise = rng.random((len(hand), hand.shape[1])) + (hand < 0) * 2
        if self.forbid == "top":  # the best card out of reach while another is held, for the random play too
            rows = np.flatnonzero((hand >= 0).sum(axis=1) > 1)
            rank[rows, best[rows]] = worst
            noise[rows, best[rows]] += 4
            best = rank.argmin(axis=1) if self.rules.best_low else rank.argmax(axis=1)
        return np.where(rng.random(len(hand)) < self.greed, best, noise.argmin(axis=1))


class PeekingOracle(BatchBot):
    """PEEKS at every seat's cards (the engine shows them to a bot with ``peeks``) and plays
    the rest of the game out for every order of its own cards, the others playing their best
    card each round (the `best` bot), then plays the first card of the order that wins most:
    a ceiling for the fair bots (the balance lab's fictive player, who knows the deal)."""

    peeks = True

    def __init__(self, rules):
        self.rules, self.name = rules, "oracle"

    def claim(self, obs, rng):
        """The race: its best card, in a second and a half."""
        return BestCard(self.rules).claim(obs, rng)[0], np.full(len(obs["hand"]), 1.5)

    def act(self, obs, rng):
        if "hidden" not in obs:
            raise IllegalActionError("the toy oracle peeks: only the batch engine shows it the other seats' cards")
        rules, me, start = self.rules, obs["seat"], obs["round"]
        hidden, dealt = obs["hidden"], obs["dealt"]
        m, seats, hand = hidden.shape
        rows = np.arange(m)
        sign = 1 if rules.best_low else -1
        value, choice = np.full(m, -1.0), np.zeros(m, np.int64)
        for plan in itertools.permutations(range(hand), rules.rounds - start):
            held, wins = hidden.copy(), obs["wins"].copy()
            first = obs["first"] if start else None
            ok = np.ones(m, bool)
            for t, slot in enumerate(plan):
                k = rules.categories[start + t]
                live = np.ones(m, bool) if rules.limit is None else wins.max(axis=1) < rules.limit
                rank = np.where(held >= 0, sign * RANKS[np.maximum(held, 0), k].astype(np.int64), 10**6)
                pick = rank.argmin(axis=2)  # every other seat: its best card (what `best` plays)
                pick[:, me] = slot
                cards = held[rows[:, None], np.arange(seats)[None, :], pick]
                ok &= ~live | (cards[:, me] >= 0)
                held[rows[:, None], np.arange(seats)[None, :], pick] = np.where(live[:, None], -1, cards)
                winner = _round_winner(rules, np.maximum(cards, 0), k)
                wins[rows[live], winner[live]] += 1
                if start + t == 0:
                    first = np.maximum(cards, 0)
            share = np.where(ok, _winners(rules, wins, dealt, first)[:, me], -1.0)
            better = share > value
            value[better], choice[better] = share[better], plan[0]
        return choice


def make_bots() -> Bots:
    bots = Bots(NAME)
    bots.add("first", FirstCard, "the first card it holds", family="random")
    bots.add("best", BestCard, "its best card for the round", example="best:greed=0.5",
             restrictions=("top",), not_applicable=BestCard.not_applicable)
    bots.add("oracle", PeekingOracle, "PEEKS at every hand: its cheapest sure winner, else its worst card",
             family="oracle", peeks=True)
    return bots


class BotSeat:
    """A toy bot at the reference engine: shown its one-row observation."""

    def __init__(self, bot, rules, rng):
        self.bot, self.rng = bot, rng

    def act(self, decision):
        obs = decision.observation
        row = {"hand": np.array([obs["hand"]]), "category": obs["category"], "round": obs["round"]}
        if decision.timed:
            index, seconds = self.bot.claim(row, self.rng)
            return Claim(obs["hand"][int(index[0])] if index[0] >= 0 else None, float(seconds[0]))
        return obs["hand"][int(self.bot.act(row, self.rng)[0])]


GAME = ToyGame()
ToyGame.views = ToyViews()
BOTS = make_bots()
PLAYERS = Players(BOTS, simulate="best,first", arena="first,best,best:greed=0.5", hint="best", seat=BotSeat)


def bench(rules, games, runs, seed, threads) -> dict:
    """A stand-in benchmark (what a game offers as ``bench``), for the command line's tests."""
    return {"summary": "toy", "rounds_per_s": 1.0, "jit_warmup_s": 0.1}


def install() -> registry.Entry:
    return registry.register(GameDef(GAME.name, GAME.title, GAME, PLAYERS, optional={"determinize"},
                                     features={"races"}, decisions={"play": "act", "race": "claim"}))

