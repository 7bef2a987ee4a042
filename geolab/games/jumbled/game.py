"""Jumbled GeoPower Choice on the game interface (`geolab.game.Game`): the adapter the
registry holds.

Seats are the players, A, B, ... in seating order; A deals the first round and the deal passes
left. A game is a race to the target over several rounds, each freshly dealt.

- Batch engine (`batch`): a bot is an object with ``act(obs, rng)`` (the set choices, slot
  masks over a batch of `geolab.games.jumbled.observations.Observation` rows) and
  ``call(obs, rng)`` (the dealer's call over `CallObservation` rows); ``bots[s]`` plays seat
  s. Games come in fixed blocks of `BLOCK`: block b is seeded by the b-th child of the seed's
  `SeedSequence`, and spawns a deal child (every round's cards, the same for every seating)
  and a play child whose child ``stream`` drives everything else random, one child of it per
  seat (`OwnStream`). So the deals depend on (rules, n, seed) only, a seating's play on
  ``stream``, and nothing on ``chunk`` (a thread job's size, rounded up to whole blocks),
  ``threads`` or which seats share a bot object. The run's numbers are checked, and its
  chunks cut and run on threads, by every engine's shared code (`geolab.common.chunks`).
- Reference engine (`steps`, played by the one driver, `geolab.stepwise.play`): each round
  the dealer is asked a ``"call"`` (legal: the calls the rules allow, by name), then on each
  set every seat is asked a ``"choose"`` at once, one `geolab.stepwise.Ask` (legal: every
  legal tuple of cards, in the order the hand was dealt), all before the GeoPower card is
  turned. The observation is a `View`. A game's chance is one `Deal`: a seed from which
  round r's hands and GeoPower order come, with rounds fixed in it where `resample`,
  `deal_from_chance` or a record made them. Action indices, observation texts and tensors:
  `geolab.games.jumbled.observations` (docs/rules-jumbled.md).
- At the keyboard (`geolab play jumbled`): `views` (`geolab.games.jumbled.views`) shows a seat
  its `View` and reads its moves; one game is the whole match (`series_target` is None).
"""

from __future__ import annotations

import numpy as np

from geolab.common import chunks
from geolab.common.seeding import sequence
from geolab.game import Batch, BatchBot, Packaged, bot_name, shares
from geolab.games.jumbled import observations, records, reference
from geolab.games.jumbled.batch import GameBatch, play_game_batch
from geolab.games.jumbled.reference import Game
from geolab.games.jumbled.rules import GAME as RECORD_GAME
from geolab.games.jumbled.rules import SEAT_LETTERS, Rules
from geolab.games.jumbled.views import VIEWS
from geolab.lineup import checked_bots

#: Games per seeded block: the unit of reproducibility (changing it changes the deals). Every
#: seat is asked on its own (`OwnStream`), so the engine's per-call overhead counts P times a
#: set; blocks this large spread it over many games (measured: docs/perf.md, Jumbled batch engine).
BLOCK = 4096
#: The seat that deals (and so decides) first.
FIRST_DEALER = 0


class OwnStream(BatchBot):
    """A seat's bot drawing from the seat's own random stream, whatever rng the engine hands
    it: so a game's result does not depend on which seats hold the same bot object (the
    engine asks seats sharing an object together, in one batch, from one stream)."""

    def __init__(self, bot, rng: np.random.Generator):
        self.bot, self.rng = bot, rng
        self.name, self.thread_safe = bot_name(bot), bot.thread_safe

    def act(self, obs, rng):
        return self.bot.act(obs, self.rng)

    def call(self, obs, rng):
        return self.bot.call(obs, self.rng)


class JumbledGame(reference.Engine, Packaged):
    name = "jumbled"
    title = "Jumbled GeoPower Choice"
    record_game = RECORD_GAME
    Rules = Rules
    length_unit = "rounds"
    first_means = "first dealer"

    # ----- batch engine ------------------------------------------------------------------
    block = BLOCK

    def _games(self, rules: Rules, bots, n: int, seed, start: int = 0, stream: int = 0, chunk: int | None = None,
               threads: int | None = None, trace: bool = False) -> list[GameBatch]:
        """One `GameBatch` per block of `BLOCK` games, in order (see the module docstring)."""
        rules = rules.validate()
        bots = list(bots)
        first, per, starts, blocks = chunks.plan(n, start, chunk, BLOCK, BLOCK, bots,
                                                 needs=f"{len(bots)} bots for {rules.players} seats",
                                                 seats=rules.players, least=1, stream=stream)
        checked_bots(bots)
        seeds = sequence(seed).spawn(first + blocks)[first:]

        def block(b: int) -> GameBatch:
            deal_ss, play_ss = seeds[b].spawn(2)
            play = np.random.SeedSequence(play_ss.entropy, spawn_key=(*play_ss.spawn_key, stream))
            seats = [OwnStream(bot, np.random.default_rng(s)) for bot, s in zip(bots, play.spawn(len(bots)))]
            return play_game_batch(rules, seats, seats, min(BLOCK, n - b * BLOCK), np.random.default_rng(deal_ss),
                                   np.random.default_rng(play), trace=trace)

        def one(b0: int) -> list[GameBatch]:
            return [block(b) for b in range(b0, min(b0 + per, blocks))]

        return [part for job in chunks.run(one, starts, bots, threads) for part in job]

    def batch(self, rules, bots, n, seed, *, start=0, stream=0, chunk=None, threads=None) -> Batch:
        """n games to the target. ``scores``: win shares (a team's win split among its members,
        a draw among all seats); ``length``: rounds; ``first``: seat A, the first dealer;
        columns ``points_A``... (each seat's points at the end), ``draw`` and ``shared`` (the
        same: for `geolab.lab.tables.shared_wins`, as a team's win is split but not shared)."""
        parts = self._games(rules, bots, n, seed, start, stream, chunk, threads)
        winner = np.concatenate([p.winner for p in parts])
        points = np.concatenate([p.scores for p in parts])
        rounds = np.concatenate([p.rounds for p in parts]).astype(np.int64)
        team = np.array(rules.team_of)
        scores = shares((winner[:, None] >= 0) & (team[None, :] == winner[:, None]))
        columns = {f"points_{SEAT_LETTERS[s]}": points[:, s] for s in range(rules.players)}
        columns["draw"] = winner == -1
        columns["shared"] = columns["draw"]  # a team's win is split among its members, not shared
        return Batch(scores, rounds, np.full(len(rounds), FIRST_DEALER, np.int64), columns)

    def batch_records(self, rules, bots, n, seed) -> list[dict]:
        out: list[dict] = []
        for part in self._games(rules, bots, n, seed, trace=True):
            out += records.batch_to_records(rules, part, list(range(len(part.winner))))
        return out

    # ----- reference engine (the step-wise verbs: `reference.Engine`) ---------------------

    def max_length(self, rules) -> int:
        """Every round at most: the call, each seat's choice on each set, the cards dealt and
        the GeoPower cards turned by chance; at most `Rules.max_rounds` rounds."""
        rules = rules.validate()
        return rules.max_rounds * (1 + rules.players * rules.sets_per_round + reference.chance_per_round(rules))

    # action indices, observations and records: their modules' (`Packaged`)
    observations = observations
    records = records

    def scores(self, played: Game) -> np.ndarray:
        """Win shares; a draw, or a game not finished (a partial record), shares among all."""
        team = np.array(played.rules.team_of)
        won = team == (played.winner if played.winner is not None else -2)
        return shares(won[None])[0]

    # ----- at the keyboard ---------------------------------------------------------------
    views = VIEWS

    def series_target(self, rules: Rules) -> None:
        """One game is the match: it is already a race to `Rules.target` over many rounds."""
        return None

    def deal_points(self, played: Game) -> tuple[int, ...]:
        """Each seat's points at the end of the game (a team's total is its members' sum)."""
        return tuple(int(s) for s in played.scores)


GAME = JumbledGame()
