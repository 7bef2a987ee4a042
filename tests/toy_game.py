"""Top Rank, a test-only game: the proof that a game is one module (its bots another) and one registration.

Each of `seats` players is dealt `hand` cards. In round r every player plays one card at once;
the best rank in the round's category (``categories[r]``; lowest rank best unless
``best_low`` is false) wins the round; after `rounds` rounds (or when a player has `limit`
round wins) the most round wins takes the game, and tied leaders share it (``ties="share"``)
or nobody wins (``"nobody"``: every seat then shares). Its bots are `toy_bots`'. It follows
docs/architecture.md's "Adding a game" step by step and gets simulate, arena, replay, play
and the conformance suites without a line of lab or CLI code.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache

import numpy as np

from geolab import registry
from geolab.cards import CATEGORIES, N_CARDS, POSTAL, RANKS
from geolab.common.seeding import int_seed
from geolab.common.text import codes
from geolab.definition import GameDef
from geolab.errors import IllegalActionError, RecordError, RulesError
from geolab.game import (
    SEAT_LETTERS,
    Batch,
    MoveError,
    RulesBase,
    Views,
    asking,
    record_cards,
    record_rules,
    replayed,
    shares,
    typed_number,
)
from geolab.observer import CardActions, Layout
from geolab.recorded import Scripted, record_sides, replay_seats, written
from geolab.scene import Fact, Race, Scene, moves, pile
from geolab.stepwise import Ask, Claim, Decision, StepGame, draw_cards, seated

RIGGED = ("none", "seat-a", "deal", "guess", "first")


# ----- 1. the rules ---------------------------------------------------------------------------
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
            "rigged": "none; seat-a: seat A always wins; deal: the seat dealt the lowest card wins, so play is "
                      "worth nothing; guess: a seat wins when its first card's size rank is odd exactly when the "
                      "size ranks dealt to the others add up to an odd number (no fair seat beats a coin, a "
                      "peeking one can); first: the seat dealt the lowest card moves first and always wins",
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


# ----- 2. the reference engine: the scoring both engines share, the played game, then `steps` -----
def winners(rules: Rules, wins, hands, first=None) -> np.ndarray:
    """(n, seats) round wins, (n, seats, hand) dealt cards, (n, seats) round 1's cards -> win shares."""
    if rules.rigged == "seat-a":
        return np.eye(rules.seats)[np.zeros(len(wins), np.int64)]
    if rules.rigged in ("deal", "first"):
        return np.eye(rules.seats)[hands.min(axis=2).argmin(axis=1)]
    if rules.rigged == "guess":  # the parity of the size ranks dealt to the other seats
        size = RANKS[hands, 0].astype(np.int64).sum(axis=2)
        return shares(RANKS[first, 0] % 2 == (size.sum(axis=1, keepdims=True) - size) % 2)
    best = wins == wins.max(axis=1, keepdims=True)
    return shares(best & (best.sum(axis=1, keepdims=True) == 1) if rules.ties == "nobody" else best)


def round_winner(rules: Rules, cards, category: int) -> np.ndarray:
    """(n, seats) cards played -> (n,) the winning seat (the lower seat on equal ranks)."""
    ranks = RANKS[cards, category].astype(np.int64)
    return (ranks if rules.best_low else -ranks).argmin(axis=1)


def race_winner(rules: Rules, hands, claims) -> np.ndarray:
    """(n,) the seat whose true claim came first (-1: none): claims are (n, seats) `Claim` s, and a
    claim is true when it names the seat's best card for round 1's category."""
    cards = np.array([[-1 if c.action is None else c.action for c in row] for row in claims], np.int64)
    ranks = RANKS[hands, rules.categories[0]].astype(np.int64)
    best = np.take_along_axis(hands, (ranks if rules.best_low else -ranks).argmin(axis=2)[..., None], 2)[..., 0]
    time = np.where(cards == best, np.array([[c.seconds for c in row] for row in claims], float), np.inf)
    return np.where((cards == best).any(axis=1), time.argmin(axis=1), -1)


@dataclass
class Played:
    rules: Rules
    hands: list
    rounds: list
    race: tuple | None = None  # every seat's `Claim`

    def wins(self) -> np.ndarray:
        wins = np.zeros(self.rules.seats, np.int64)
        for r, cards in enumerate(self.rounds):
            wins[round_winner(self.rules, np.array([cards]), self.rules.categories[r])[0]] += 1
        won = race_winner(self.rules, np.array([self.hands]), [self.race])[0] if self.race else -1
        return wins + (np.arange(self.rules.seats) == won)

    def scores(self) -> np.ndarray:
        first = np.array([self.rounds[0]]) if self.rounds else None
        return winners(self.rules, self.wins()[None], np.array([self.hands]), first)[0]


class ToyGame(CardActions, StepGame):
    name, title, record_game, Rules = "toy", "Top Rank (test-only)", "top-rank", Rules
    length_unit, first_means = "rounds", "seat A (rigged first: the seat dealt the lowest card)"
    block = 1 << 40  # every game comes from one draw of the seed: never split a batch

    def seats(self, rules):
        return rules.seats

    def seat_name(self, rules, seat):
        return SEAT_LETTERS[seat]

    # ----- 2. the reference engine's steps, deal and resample ---------------------------------
    def deal(self, rules, rng):
        return self.deal_from_chance(rules, [int(c) for c in rng.permutation(N_CARDS)[: rules.seats * rules.hand]])

    def deal_from_chance(self, rules, outcomes):
        h = rules.hand
        return [sorted(outcomes[s * h:(s + 1) * h]) for s in range(rules.seats) if len(outcomes) >= (s + 1) * h]

    def steps(self, rules, deal):
        """(The deal, when chance is stepped,) the race, then every round's simultaneous plays."""
        rules.validate()
        if deal is None:
            deal = self.deal_from_chance(rules, (yield from draw_cards(range(N_CARDS), rules.seats * rules.hand)))
        held, rounds, claims, now = [list(h) for h in deal], [], None, {"round": 0, "race": rules.race}

        def observe(s):
            return {"hand": tuple(held[s]), "category": rules.categories[now["round"]], "round": now["round"],
                    "history": tuple(map(tuple, rounds)), "rules": rules, "race": now["race"], "claims": claims}

        if rules.race:
            answers = yield Ask(tuple(Decision(s, "race", observe(s), tuple(held[s]), "the race", timed=True)
                                      for s in range(rules.seats)), observe)
            claims, now["race"] = tuple(answers[s] for s in range(rules.seats)), False
        for r in range(rules.rounds):
            if rules.limit is not None and max(Played(rules, deal, rounds, claims).wins()) >= rules.limit:
                break
            now["round"] = r
            answers = yield Ask(tuple(Decision(s, "play", observe(s), tuple(held[s]), f"round {r + 1}")
                                      for s in range(rules.seats)), observe)
            rounds.append([int(answers[s]) for s in range(rules.seats)])
            for s, c in enumerate(rounds[-1]):
                held[s].remove(c)
        return Played(rules, [list(h) for h in deal], rounds, claims)

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
        seat = seated(self, rules, seat)
        answers = ([obs["claims"]] if obs["claims"] else []) + list(obs["history"])
        log = [("ask", dict(enumerate(cards))) for cards in answers]
        own = sorted([*obs["hand"], *(cards[seat] for cards in obs["history"])])
        return self.state(rules, self.resample(rules, {seat: own}, log, seat, rng), log)

    def max_length(self, rules):
        return rules.seats * rules.hand + rules.seats * (rules.rounds + int(rules.race))

    def scores(self, played):
        return played.scores()

    # ----- 3. the batch engine --------------------------------------------------------------
    def batch(self, rules, bots, n, seed, *, start=0, stream=0, chunk=None, threads=None):
        """Plays the whole batch at once, so chunk and threads cannot change a result."""
        if start:
            raise ValueError("the test-only game plays every batch from its first game")
        return self.run(rules, bots, n, seed, stream)[0]

    def run(self, rules, bots, n, seed, stream):
        rules.validate()
        order = np.random.default_rng(int_seed(seed)).random((n, N_CARDS)).argsort(axis=1)
        hands = order[:, : rules.seats * rules.hand].reshape(n, rules.seats, rules.hand)
        held, plays = np.ones(hands.shape, bool), []
        wins, played = np.zeros((n, rules.seats), np.int64), np.zeros(n, np.int64)
        rng = np.random.default_rng(np.random.SeedSequence(int_seed(seed), spawn_key=(stream + 1,)))
        race = self.race(rules, bots, hands, rng) if rules.race else None
        won = race_winner(rules, hands, race) if race else np.full(n, -1)
        wins[won >= 0, won[won >= 0]] += 1
        for r, category in enumerate(rules.categories):
            live = np.flatnonzero(played == r)
            if rules.limit is not None:
                live = live[wins[live].max(axis=1) < rules.limit]
            cards, before = np.zeros((n, rules.seats), np.int64), np.where(held[live], hands[live], -1)
            for s, bot in enumerate(bots):
                obs = {"hand": before[:, s], "category": category, "round": r}
                if getattr(bot, "peeks", False):  # a peeking bot (the oracle) sees every seat's cards
                    obs |= {"seat": s, "hidden": before, "dealt": hands[live], "wins": wins[live],
                            "first": plays[0][live] if plays else None}
                with asking("toy", bot, f"play of round {r + 1}"):
                    choice = np.asarray(bot.act(obs, rng))
                ok = (choice >= 0) & (choice < rules.hand)
                if choice.dtype.kind not in "iu" or choice.shape != live.shape or \
                        not (ok & held[live, s, np.where(ok, choice, 0)]).all():
                    raise IllegalActionError(f"{bot.name}: round {r + 1}, seat {SEAT_LETTERS[s]}: expected "
                                             f"{len(live)} indices of cards held")
                held[live, s, choice] = False
                cards[live, s] = hands[live, s, choice]
            wins[live, round_winner(rules, cards[live], category)] += 1
            played[live] += 1
            plays.append(cards)
        first = hands.min(axis=2).argmin(axis=1) if rules.rigged == "first" else np.zeros(n, np.int64)
        batch = Batch(winners(rules, wins, hands, plays[0]), played, first,
                      {f"wins_{SEAT_LETTERS[s]}": wins[:, s] for s in range(rules.seats)})
        return batch, hands, plays, race

    def race(self, rules, bots, hands, rng) -> list:
        """Every game's claims, a `Claim` a seat (a card of its hand, or None)."""
        claims = []
        for s, bot in enumerate(bots):
            with asking("toy", bot, "race"):
                index, seconds = bot.claim({"hand": hands[:, s], "category": rules.categories[0], "round": 0}, rng)
            claims.append([Claim(None if i < 0 else int(h[i]), float(t))
                           for i, t, h in zip(index, seconds, hands[:, s])])
        return list(zip(*claims))

    def batch_records(self, rules, bots, n, seed):
        batch, hands, plays, race = self.run(rules, bots, n, seed, 0)
        return [self.to_record(Played(rules, hands[i].tolist(), [plays[r][i].tolist() for r in range(batch.length[i])],
                                      race[i] if race else None)) for i in range(n)]

    # ----- 4. the observer (its action ids: `CardActions`) ------------------------------------
    @staticmethod
    @cache
    def layout(rules):
        """The tensor: own hand, each seat's played cards, the round's category, the rounds played."""
        return Layout([("hand", N_CARDS), *((f"played {s}", N_CARDS) for s in range(rules.seats)), ("category", 3),
                       ("rounds", 1)])

    def tensor_size(self, rules):
        return self.layout(rules).size

    def observation_tensor(self, rules, seat, obs):
        out = self.layout(rules).tensor()
        out.ones("hand", obs["hand"])
        for cards in obs["history"]:
            for s, c in enumerate(cards):
                out.one(f"played {s}", c)
        out.one("category", obs["category"])
        out.put("rounds", len(obs["history"]))
        return out.values

    def observation_string(self, rules, seat, obs):
        claims = "" if not obs["claims"] else " claims " + " ".join(
            f"{SEAT_LETTERS[s]}:{'-' if c.action is None else POSTAL[c.action]}@{c.seconds:g}"
            for s, c in enumerate(obs["claims"]))
        return f"seat {SEAT_LETTERS[seat]} hand {codes(obs['hand'])} " \
               f"{'race' if obs['race'] else 'round ' + str(obs['round'] + 1)}{claims} played " \
               f"[{' | '.join(codes(cards) for cards in obs['history'])}]"

    # ----- 5. records ----------------------------------------------------------------------------
    def report(self, played):
        return {"winner": "+".join(SEAT_LETTERS[s] for s in np.flatnonzero(played.scores() > 0)),
                "scores": {SEAT_LETTERS[s]: float(v) for s, v in enumerate(played.scores())},
                "rounds_played": len(played.rounds)}

    def to_record(self, played):
        body = {"deal": {SEAT_LETTERS[s]: [POSTAL[c] for c in h] for s, h in enumerate(played.hands)},
                "rounds": [[POSTAL[c] for c in cards] for cards in played.rounds]}
        if played.race:
            body["race"] = [[None if c.action is None else POSTAL[c.action], c.seconds] for c in played.race]
        return written(self.record_game, played, body, self.report)

    def replay(self, record):
        return replayed(record, self.record_game, self.replay_body, self.report, ("deal", "rounds", "race"))

    def replay_body(self, record):
        rules = record_rules(Rules, record)
        names = SEAT_LETTERS[: rules.seats]
        deal = record_sides(record.get("deal"), "deal", names)
        hands = [record_cards(deal[x], f"deal.{x}") for x in names]
        if len({c for h in hands for c in h}) != rules.seats * rules.hand or any(len(h) != rules.hand for h in hands):
            raise RecordError(f"deal: expected {rules.hand} different cards a seat")
        listed = record.get("rounds")
        if not isinstance(listed, list) or not all(isinstance(x, list) and len(x) == rules.seats for x in listed):
            raise RecordError(f"rounds: expected a list of rounds, a card for each of {rules.seats} seats")
        rounds = [record_cards(cards, f"round {r + 1}") for r, cards in enumerate(listed)]
        race = record.get("race", [])
        if not (isinstance(race, list) and len(race) == rules.seats * ("race" in record) and all(
                isinstance(x, list) and len(x) == 2 and (x[0] is None or x[0] in POSTAL)
                and isinstance(x[1], float) and math.isfinite(x[1]) for x in race)):
            raise RecordError("race: expected [postal code or null, seconds (a finite real number)] a seat")
        claims = [Claim(None if c is None else POSTAL.index(c), t) for c, t in race]
        seats = [Scripted([*claims[s:s + 1], *(cards[s] for cards in rounds)],
                          f"rounds: {len(rounds)} recorded, the game is not over") for s in range(rules.seats)]
        played = replay_seats(self, rules, hands, seats)
        if seats[0].left:
            raise RecordError(f"rounds: {len(rounds)} recorded, the game lasts {len(played.rounds)}")
        return played

    # ----- (6.) at the keyboard: a series to `target` round wins -------------------------------
    def series_target(self, rules):
        return rules.target

    def bonus_free_points(self, rules):
        return None

    def deal_points(self, played):
        return tuple(int(w) for w in played.wins())


# ----- 6. views ---------------------------------------------------------------------------------
class ToyViews(Views):
    """The test-only game at the keyboard: a card by postal code or screen number."""

    def screen(self, decision):
        obs, k = decision.observation, decision.observation["category"]
        return [f"race! claim your best {CATEGORIES[k]} card, fast" if decision.timed else
                f"round {obs['round'] + 1}: {CATEGORIES[k]}, best rank wins",
                *(f"  {i + 1}. {POSTAL[c]} {CATEGORIES[k]} {RANKS[c, k]}" for i, c in enumerate(obs["hand"]))]

    def prompt(self, decision):
        return "claim CARD (or pass) > " if decision.timed else "play CARD > "

    def help(self, decision):
        return [f"type a card of your hand: {POSTAL[decision.observation['hand'][0]]} or 1"]

    def label(self, decision, action):
        return POSTAL[action]

    def parse(self, decision, text):
        hand, word = decision.observation["hand"], text.strip().upper()
        n = typed_number(word)
        if n is not None and 1 <= n <= len(hand):
            return hand[n - 1]
        if word in POSTAL and POSTAL.index(word) in hand:
            return POSTAL.index(word)
        raise MoveError(f"{text.strip()!r} is not a card of your hand ({codes(hand)})")

    def events(self, decision):
        obs = decision.observation
        return self.lines(Played(obs["rules"], [], list(obs["history"]), obs["claims"]), decision.seat)

    def lines(self, played, you):
        """The race and every round of `played` (a game so far, or over) from seat `you`'s side."""
        who = ["you" if s == you else SEAT_LETTERS[s] for s in range(played.rules.seats)]
        out = []
        if played.race:
            out.append("race: " + ", ".join(f"{who[s]} {'passed' if c.action is None else POSTAL[c.action]} "
                                            f"({c.seconds:.1f} s)" for s, c in enumerate(played.race)))
        for r, cards in enumerate(played.rounds):
            k = played.rules.categories[r]
            plays = ", ".join(f"{who[s]} {POSTAL[c]} ({RANKS[c, k]})" for s, c in enumerate(cards))
            out.append(f"round {r + 1} ({CATEGORIES[k]}): {plays}: "
                       f"{who[round_winner(played.rules, np.array([cards]), k)[0]]} won")
        return out

    def ending(self, played, seat):
        share = played.scores()[seat]
        return self.lines(played, seat) + ["You won." if share == 1 else "You shared the win." if share > 0 else
                                           "You lost."]

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


# ----- 7. the game; 8. its bots are `toy_bots`'; 9. its definition, registered ---------------------
GAME = ToyGame()
ToyGame.views = ToyViews()


def install() -> registry.Entry:
    """The definition: the bots are `toy_bots`' (loaded when first used)."""
    return registry.register(GameDef(GAME.name, GAME.title, GAME, "toy_bots:PLAYERS", optional={"determinize"},
                                     features={"races"}, decisions={"play": "act", "race": "claim"}))
