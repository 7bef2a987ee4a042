"""Top Rank Match, a test-only game made of games: Top Rank (`toy_game`) played game after game
until a seat has won `wins` of them (at most `max_games`; then the most game wins take it,
tied leaders share). Its rules hold Top Rank's rules as the stage ``stage`` (so
``--set stage.hand=4`` reaches them), its state holds each game's state (`geolab.stepwise.stage`),
its records nest Top Rank's records, and its one bot delegates every decision to a Top Rank
bot. It proves the generic parts before a real match (GeoDouble) exists.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import toy_bots
import toy_game

from geolab import registry
from geolab.common.seeding import int_seed
from geolab.definition import GameDef, Players
from geolab.errors import BotError, RecordError, RulesError
from geolab.game import SEAT_LETTERS, Batch, BatchBot, Bots, RulesBase, envelope, record_rules, replayed, shares
from geolab.scene import Fact
from geolab.stepwise import StepGame, stage

NAME = "toy-match"
RECORD = "top-rank-match"
TOY = toy_game.GAME


@dataclass(frozen=True)
class Rules(RulesBase):
    stage: toy_game.Rules = field(default_factory=toy_game.Rules)
    wins: int = 2
    max_games: int = 5

    PRESETS = {"best-of-3": lambda: Rules(), "duel-match": lambda: Rules(stage=toy_game.Rules.preset("duel"), wins=3)}
    DEFAULT = "best-of-3"
    HELP = {"wins": "game wins that take the match", "max_games": "games at most (then the most game wins take it)"}

    def validate(self):
        self.stage.validate()
        if not 1 <= self.wins <= self.max_games <= 20:
            raise RulesError("rules: wins must be 1..max_games and max_games at most 20")
        return self


def game_wins(games) -> list[int]:
    """Each seat's game wins: a game a seat won alone (a shared game counts for nobody)."""
    wins = [0] * len(games[0].hands) if games else []
    for g in games:
        for s, v in enumerate(g.scores()):
            wins[s] += int(v == 1)
    return wins


def over(rules: Rules, wins) -> bool:
    return bool(wins) and max(wins) >= rules.wins


@dataclass
class MatchPlayed:
    rules: Rules
    games: list

    def scores(self) -> np.ndarray:
        wins = np.array(game_wins(self.games))
        return shares((wins == wins.max())[None])[0]


class MatchGame(StepGame):
    name, title, record_game, Rules = NAME, "Top Rank Match (test-only)", RECORD, Rules
    length_unit, first_means = "games", "seat A"
    block = 1 << 40

    def seats(self, rules):
        return rules.stage.seats

    def seat_name(self, rules, seat):
        return SEAT_LETTERS[seat]

    # ----- the step-wise state ---------------------------------------------------------------
    def deal(self, rules, rng):
        return tuple(TOY.deal(rules.stage, rng) for _ in range(rules.max_games))

    def steps(self, rules, deal):
        rules.validate()
        games: list = []
        while len(games) < rules.max_games and not over(rules, game_wins(games)):
            k = len(games)

            def observe(seat, inner, k=k):
                return {**inner, "game": k, "match": tuple(game_wins(games)) or (0,) * self.seats(rules),
                        "past": tuple(games[:k])}

            games.append((yield from stage(TOY.steps(rules.stage, None if deal is None else deal[k]), observe,
                                           f"game {k + 1}")))
        return MatchPlayed(rules, games)

    def deal_from_chance(self, rules, outcomes):
        size = rules.stage.seats * rules.stage.hand
        return tuple(TOY.deal_from_chance(rules.stage, outcomes[k * size:(k + 1) * size])
                     for k in range(len(outcomes) // size))

    def resample(self, rules, deal, log, seat, rng):
        """Each game as Top Rank resamples it after its part of the log; games not yet
        begun dealt afresh."""
        state, parts = self.state(rules, deal), [[] for _ in range(rules.max_games)]
        for entry in log:
            parts[state.observe(seat)["game"]].append(entry)
            state.apply(entry[1])
        now = state.observe(seat)["game"] if not state.is_over() else len(state.played.games) - 1
        return tuple(TOY.resample(rules.stage, deal[k], parts[k], seat, rng) if k <= now else TOY.deal(rules.stage, rng)
                     for k in range(rules.max_games))

    def num_actions(self, rules):
        return TOY.num_actions(rules.stage)

    def action_id(self, rules, decision, action):
        return TOY.action_id(rules.stage, decision, action)

    def action_of(self, rules, decision, index):
        return TOY.action_of(rules.stage, decision, index)

    def tensor_size(self, rules):
        return TOY.tensor_size(rules.stage) + self.seats(rules) + 1

    def observation_tensor(self, rules, seat, obs):
        return np.concatenate([TOY.observation_tensor(rules.stage, seat, obs),
                               np.array([*obs["match"], obs["game"]], np.float32)])

    def observation_string(self, rules, seat, obs):
        return f"game {obs['game'] + 1}, game wins {'-'.join(map(str, obs['match']))}: " \
               + TOY.observation_string(rules.stage, seat, obs)

    def max_length(self, rules):
        return rules.max_games * TOY.max_length(rules.stage)

    def scores(self, played):
        return played.scores()

    # ----- the batch engine ------------------------------------------------------------------
    def _seed(self, seed, k: int) -> int:
        return int(np.random.SeedSequence(int_seed(seed), spawn_key=(k,)).generate_state(1)[0])

    def batch(self, rules, bots, n, seed, *, start=0, stream=0, chunk=None, threads=None):
        if start:
            raise ValueError("the test-only match plays every batch from its first game")
        wins, played = np.zeros((n, self.seats(rules)), np.int64), np.zeros(n, np.int64)
        for k in range(rules.max_games):
            live = wins.max(axis=1) < rules.wins
            try:
                b = TOY.batch(rules.stage, bots, n, self._seed(seed, k), stream=stream)
            except BotError as error:  # the stage's words, said of the match
                raise BotError(f"{NAME}: game {k + 1}: {error}") from None
            wins[live] += b.scores[live] == 1
            played[live] += 1
        return Batch(shares(wins == wins.max(axis=1, keepdims=True)), played, np.zeros(n, np.int64),
                     {f"games_{SEAT_LETTERS[s]}": wins[:, s] for s in range(self.seats(rules))})

    def batch_records(self, rules, bots, n, seed):
        length = self.batch(rules, bots, n, seed).length
        games = [TOY.batch_records(rules.stage, bots, n, self._seed(seed, k)) for k in range(int(length.max()))]
        out = []
        for i in range(n):
            played = MatchPlayed(rules, [TOY.replay(games[k][i]) for k in range(int(length[i]))])
            out.append(self.to_record(played))
        return out

    # ----- records ---------------------------------------------------------------------------
    def report(self, played):
        return {"winner": "+".join(SEAT_LETTERS[s] for s in np.flatnonzero(played.scores() > 0)),
                "game_wins": game_wins(played.games), "games": [TOY.report(g) for g in played.games]}

    def to_record(self, played):
        record = envelope(RECORD, played.rules.to_spec(), {"games": [TOY.to_record(g) for g in played.games]})
        record["result"] = self.report(played)
        return record

    def replay(self, record):
        return replayed(record, RECORD, self._replay_body, self.report, ("games",))

    def _replay_body(self, record):
        rules = record_rules(Rules, record)
        listed = record.get("games")
        if not isinstance(listed, list) or not listed:
            raise RecordError("games: expected the match's game records")
        games = []
        for k, inner in enumerate(listed):
            if over(rules, game_wins(games)) or k >= rules.max_games:
                raise RecordError(f"games: game {k + 1} was played after the match ended")
            try:
                g = TOY.replay(inner)
            except RecordError as error:
                raise RecordError(f"games[{k}].{error}") from None
            if g.rules != rules.stage:
                raise RecordError(f"games[{k}].rules: not the match's stage rules")
            games.append(g)
        if not over(rules, game_wins(games)) and len(games) < rules.max_games:
            raise RecordError(f"games: {len(games)} recorded, the match is not over")
        return MatchPlayed(rules, games)

    # ----- at the keyboard -------------------------------------------------------------------
    def series_target(self, rules):
        return None

    def bonus_free_points(self, rules):
        return None

    def deal_points(self, played):
        return tuple(int(v > 0) for v in played.scores())


class MatchViews(toy_game.ToyViews):
    """Top Rank's views, with the match's score above the table."""

    def screen(self, decision):
        obs = decision.observation
        return [f"game {obs['game'] + 1}, game wins {'-'.join(map(str, obs['match']))}"] + super().screen(decision)

    def scene(self, decision):
        obs = decision.observation
        match = Fact("match", f"game {obs['game'] + 1}, game wins {'-'.join(map(str, obs['match']))}")
        return super().scene(decision).with_facts([match], "Top Rank Match")

    def events(self, decision):
        obs = decision.observation
        return self._past(obs["past"], decision.seat) + [f"game {obs['game'] + 1}:"] + super().events(decision)

    def _past(self, games, seat) -> list[str]:
        return [line for k, g in enumerate(games)
                for line in [f"game {k + 1}:", *toy_game.ToyViews.ending(self, g, seat)]]

    def ending(self, played, seat):
        lines = self._past(played.games, seat)
        share = played.scores()[seat]
        return lines + ["You won the match." if share == 1 else "You shared the match." if share > 0 else
                        "You lost the match."]


class Delegate(BatchBot):
    """Plays every game of the match as the Top Rank bot it names (``bot``) would."""

    def __init__(self, rules, bot: str = "best"):
        self.inner = toy_bots.BOTS.make(bot, rules.stage)
        self.name = f"stage:bot={bot}"

    def act(self, obs, rng):
        return self.inner.act(obs, rng)

    def claim(self, obs, rng):
        return self.inner.claim(obs, rng)


def make_bots() -> Bots:
    bots = Bots(NAME)
    bots.add("stage", Delegate, "delegates each game to a Top Rank bot", example="stage:bot=first")
    return bots


def seat(bot, rules, rng):
    return toy_bots.BotSeat(bot.inner, rules.stage, rng)


GAME = MatchGame()
MatchGame.views = MatchViews()
BOTS = make_bots()


def install() -> registry.Entry:
    players = Players(BOTS, simulate="stage:bot=best,stage:bot=first", arena="stage:bot=first,stage:bot=best",
                      hint="stage", seat=seat)
    return registry.register(GameDef(GAME.name, GAME.title, GAME, players, features={"stages"},
                                     decisions={"play": "act"}))
