"""High Card, the minimal test-only game: the whole contract in one module, in the numbered steps of
docs/architecture.md's "Adding a game" (step 8, its bots, is `mini_bots`). Every round each player
plays a card at once, the best rank in the category takes it; the most rounds win, tied leaders share."""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from geolab.cards import CATEGORIES, N_CARDS, POSTAL, RANKS
from geolab.common import chunks
from geolab.common.seeding import int_seed
from geolab.common.text import codes
from geolab.definition import GameDef
from geolab.errors import IllegalActionError, RecordError, RulesError
from geolab.game import Batch, MoveError, OneGame, RulesBase, Views, asking, record_cards, record_rules, replayed
from geolab.observer import CardActions, Layout
from geolab.recorded import Scripted, record_sides, replay_seats, written
from geolab.scene import Fact, Scene, moves, pile
from geolab.stepwise import Ask, Decision, StepGame, draw_cards, seated

NAME, RECORD, SEATS = "mini", "high-card", "ABC"


# ----- 1. the rules --------------------------------------------------------------------------------
@dataclass(frozen=True)
class Rules(RulesBase):
    seats: int = 2
    hand: int = 3
    category: int = 0

    PRESETS = {"duel": lambda: Rules(), "trio": lambda: Rules(seats=3, hand=4, category=2)}
    DEFAULT = "duel"
    HELP = {"seats": "players (2-3)", "hand": "cards dealt to each, one played a round (1-8)",
            "category": "the category of every round (0 size, 1 statehood, 2 population)"}

    def validate(self):
        for name, low, high in (("seats", 2, 3), ("hand", 1, 8), ("category", 0, 2)):
            if not low <= getattr(self, name) <= high:
                raise RulesError(f"{name}: {getattr(self, name)} is outside {low}-{high}")
        return self


# ----- 2. the reference engine: the scoring both engines share, the played game, then the steps ----
def scoring(rules: Rules, plays) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(n, rounds, seats) cards played -> each round's winner, each seat's rounds won, its win share."""
    won = RANKS[plays, rules.category].argmin(axis=2)  # the best rank: ranks never tie
    wins = (won[..., None] == np.arange(rules.seats)).sum(axis=1)
    top = wins == wins.max(axis=1, keepdims=True)
    return won, wins, top / top.sum(axis=1, keepdims=True)


@dataclass
class Played:
    rules: Rules
    hands: list  # each seat's dealt cards
    rounds: list  # each round's cards, one a seat

    def scored(self) -> list[np.ndarray]:
        return [x[0] for x in scoring(self.rules, np.array(self.rounds, np.int64).reshape(1, -1, self.rules.seats))]


class MiniGame(CardActions, OneGame, StepGame):
    """Steps 2-5 as the methods of one class (a real game keeps each in a module of its package)."""

    name, title, record_game, Rules = NAME, "High Card (test-only)", RECORD, Rules
    length_unit, first_means, block = "rounds", "seat A (all play at once)", 1 << 40  # a batch: one seed block

    def seats(self, rules):
        return rules.seats

    def seat_name(self, rules, seat):
        return SEATS[seat]

    def deal(self, rules, rng):
        return self.deal_from_chance(rules, rng.permutation(N_CARDS).tolist())

    def deal_from_chance(self, rules, outcomes):  # the hands the outcomes so far fill
        h = rules.hand
        return [sorted(outcomes[s * h:(s + 1) * h]) for s in range(min(rules.seats, len(outcomes) // h))]

    def steps(self, rules, deal):
        """Each round, one `Ask` of every seat at once (simultaneous play)."""
        rules.validate()
        if deal is None:  # stepped by chance: the cards dealt one at a time
            deal = self.deal_from_chance(rules, (yield from draw_cards(range(N_CARDS), rules.seats * rules.hand)))
        held, rounds = [list(h) for h in deal], []
        def observe(s):  # all a seat sees: its cards and the rounds played (perfect recall)
            return {"hand": tuple(held[s]), "rounds": tuple(rounds), "rules": rules}
        for r in range(rules.hand):
            answers = yield Ask(tuple(Decision(s, "play", observe(s), tuple(held[s]), f"round {r + 1}")
                                      for s in range(rules.seats)), observe)
            rounds.append(tuple(answers[s] for s in range(rules.seats)))
            for s, card in enumerate(rounds[-1]):
                held[s].remove(card)
        return Played(rules, [list(h) for h in deal], [list(cards) for cards in rounds])

    def resample(self, rules, deal, log, seat, rng):
        """The others keep the cards they played; the rest is dealt anew from what `seat` has not seen."""
        shown = [[answers[s] for kind, answers in log if kind == "ask"] for s in range(rules.seats)]
        seen = set(deal[seat]).union(*shown)
        unseen = [c for c in rng.permutation(N_CARDS).tolist() if c not in seen]
        return [sorted(deal[s] if s == seat else shown[s] + [unseen.pop() for _ in range(rules.hand - len(shown[s]))])
                for s in range(rules.seats)]

    def determinize(self, rules, seat, obs, rng):
        """A state from the seat's observation alone: it was dealt what it holds and has played."""
        seat = seated(self, rules, seat)
        log = [("ask", dict(enumerate(cards))) for cards in obs["rounds"]]
        own = [*obs["hand"], *(cards[seat] for cards in obs["rounds"])]
        return self.state(rules, self.resample(rules, {seat: own}, log, seat, rng), log)

    def max_length(self, rules):
        return 2 * rules.seats * rules.hand  # the cards dealt, then each seat's plays

    def scores(self, played):
        return played.scored()[2]

    # ----- 3. the batch engine: n games at once, round by round -------------------------------------
    def batch(self, rules, bots, n, seed, *, start=0, stream=0, chunk=None, threads=None):
        """Played at once whatever `chunk` and `threads` say, so they change no game."""
        _, wins, scores = scoring(rules, self.games(rules, bots, n, seed, start, stream)[1])
        return Batch(scores, np.full(n, rules.hand), np.zeros(n, np.int64),
                     {f"wins_{SEATS[s]}": wins[:, s] for s in range(rules.seats)})

    def batch_records(self, rules, bots, n, seed):
        hands, plays = self.games(rules, bots, n, seed)
        return [self.to_record(Played(rules, hands[i].tolist(), plays[i].tolist())) for i in range(n)]

    def games(self, rules, bots, n, seed, start=0, stream=0):
        """Deals (n, seats, hand) from the seed alone (every seating plays the same cards), plays (n, rounds, seats)."""
        rules.validate()
        chunks.plan(n, start, None, self.block, 1, bots, seats=rules.seats, needs="one bot a seat", stream=stream)
        deck = np.random.default_rng(int_seed(seed)).random((n, N_CARDS)).argsort(axis=1)
        hands = np.sort(deck[:, : rules.seats * rules.hand].reshape(n, rules.seats, rules.hand), axis=2)
        rng, held, rows = np.random.default_rng([int_seed(seed), stream + 1]), hands.copy(), np.arange(n)
        plays = np.zeros((n, rules.hand, rules.seats), np.int64)
        for r in range(rules.hand):
            for s, bot in enumerate(bots):
                with asking(NAME, bot, f"play of round {r + 1}"):
                    pick = np.asarray(bot.act({"hand": held[:, s], "category": rules.category}, rng))
                if pick.shape != (n,) or pick.dtype.kind not in "iu" or ((pick < 0) | (pick >= rules.hand)).any() \
                        or (held[rows, s, pick] < 0).any():
                    raise IllegalActionError(f"{bot.name}: round {r + 1}: expected an index of a card held a game")
                plays[:, r, s], held[rows, s, pick] = held[rows, s, pick], -1
        return hands, plays

    # ----- 4. the observer: action ids (`CardActions`), the string, the tensor by named pieces ------
    def layout(self, rules):
        return Layout([("hand", N_CARDS), *((f"played {s}", N_CARDS) for s in range(rules.seats)), ("rounds", 1)])

    def tensor_size(self, rules):
        return self.layout(rules).size

    def observation_tensor(self, rules, seat, obs):
        out = self.layout(rules).tensor()
        out.ones("hand", obs["hand"])
        for s in range(rules.seats):
            out.ones(f"played {s}", [cards[s] for cards in obs["rounds"]])
        out.put("rounds", len(obs["rounds"]))
        return out.values

    def observation_string(self, rules, seat, obs):
        return f"seat {SEATS[seat]} hand {codes(obs['hand'], 'none')} played [{' | '.join(map(codes, obs['rounds']))}]"

    # ----- 5. records: the body written, then read and replayed by scripted seats ------------------
    def report(self, played):
        _, wins, scores = played.scored()
        return {"winner": "+".join(SEATS[s] for s in np.flatnonzero(scores > 0)), "wins": wins.tolist()}

    def to_record(self, played):
        body = {"deal": {SEATS[s]: [POSTAL[c] for c in h] for s, h in enumerate(played.hands)},
                "rounds": [[POSTAL[c] for c in cards] for cards in played.rounds]}
        return written(RECORD, played, body, self.report)

    def replay(self, record):
        return replayed(record, RECORD, self.replay_body, self.report, ("deal", "rounds"))

    def replay_body(self, record):
        rules = record_rules(Rules, record)
        deal = record_sides(record.get("deal"), "deal", SEATS[: rules.seats])
        hands = [record_cards(deal[x], f"deal.{x}") for x in SEATS[: rules.seats]]
        if len({c for h in hands for c in h}) != rules.seats * rules.hand or any(len(h) != rules.hand for h in hands):
            raise RecordError(f"deal: expected {rules.hand} different cards a seat")
        listed = record.get("rounds")
        if not (isinstance(listed, list) and len(listed) == rules.hand
                and all(isinstance(x, list) and len(x) == rules.seats for x in listed)):
            raise RecordError(f"rounds: expected {rules.hand} rounds, a card for each of {rules.seats} seats")
        rounds = [record_cards(cards, f"round {r + 1}") for r, cards in enumerate(listed)]
        return replay_seats(self, rules, hands, [Scripted([cards[s] for cards in rounds], "rounds: too few")
                                                 for s in range(rules.seats)])


# ----- 6. views: the table's words and its scene ---------------------------------------------------
class MiniViews(Views):
    def screen(self, decision):
        obs, k = decision.observation, decision.observation["rules"].category
        return [f"round {len(obs['rounds']) + 1}: {CATEGORIES[k]}, the best (lowest) rank wins",
                *(f"  {POSTAL[c]} {CATEGORIES[k]} {RANKS[c, k]}" for c in obs["hand"])]

    def prompt(self, decision):
        return "play CARD > "

    def help(self, decision):
        return [f"type the postal code of a card of your hand, such as {POSTAL[decision.observation['hand'][0]]}"]

    def label(self, decision, action):
        return POSTAL[action]

    def parse(self, decision, text):
        hand, word = decision.observation["hand"], text.strip().upper()
        if word in POSTAL and POSTAL.index(word) in hand:
            return POSTAL.index(word)
        raise MoveError(f"{text.strip()!r} is not a card of your hand ({codes(hand)})")

    def events(self, decision):
        obs = decision.observation
        return self.lines(Played(obs["rules"], [], list(obs["rounds"])), decision.seat)

    def lines(self, played, you):
        """Each round of `played` (a game so far, or over) from seat `you`'s side."""
        who, k = ["you" if s == you else SEATS[s] for s in range(played.rules.seats)], played.rules.category
        return [f"round {r + 1}: " + ", ".join(f"{who[s]} {POSTAL[c]} ({RANKS[c, k]})" for s, c in enumerate(cards))
                + f": {who[won]} won" for r, (cards, won) in enumerate(zip(played.rounds, played.scored()[0]))]

    def ending(self, played, seat):
        share = played.scored()[2][seat]
        verdict = "You won." if share == 1 else "You shared the win." if share > 0 else "You lost."
        return self.lines(played, seat) + [verdict]

    def reason(self, decision, action):
        k = decision.observation["rules"].category
        return f"it has the best {CATEGORIES[k]} rank you hold ({RANKS[action, k]})"

    def scene(self, decision):
        obs = decision.observation
        hand = pile("hand", "Your cards", obs["hand"], "hand", selectable=obs["hand"])
        return Scene("High Card", "play", self.prompt(decision), (hand,),
                     (Fact("round", f"round {len(obs['rounds']) + 1}"),), obs["rules"].category,
                     moves(decision, self.label, lambda c: ((f"hand-{POSTAL[c]}",), ())))


# ----- 7. the game: steps 2-6 behind the contract (`OneGame`: one game is the whole match) ----------
MiniGame.views = MiniViews()
GAME = MiniGame()

# ----- 8. its bots: `mini_bots`; 9. the definition (registered by tests/conftest.py) ---------------
DEFINITION = GameDef(NAME, GAME.title, GAME, "mini_bots:PLAYERS", optional={"determinize"}, decisions=["play"],
                     about="High Card: every round each player plays a card at once, and the best rank in the "
                           "rules' category takes it. Two or three players, as many rounds as cards dealt to each.")
