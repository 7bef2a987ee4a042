"""Every registered game as a PettingZoo AEC environment (extra ``geolab[pettingzoo]``).

    from geolab.interop import pettingzoo
    env = pettingzoo.env("ranks", "combo1", seed=0)   # a game, then rules: preset, spec or Rules

One adapter over `geolab.stepwise.State`, the same for every game; how geolab's nodes become
AEC turns:

- Agents are the seats, named by `Game.seat_name`. An agent observes
  ``{"observation": Game.observation_tensor, "action_mask": legal ids}`` (the form of
  PettingZoo's classic card games; the mask is all zeros for an agent not selected) and acts
  with the game's fixed action ids (`Game.action_id`): ``Discrete(num_actions)``.
- Chance: ``reset(seed=s)`` deals ``game.deal(rules, numpy.random.default_rng(s))`` and keeps
  that generator for the races, so a seed and the same actions give the same episode;
  ``reset()`` without a seed goes on with the generator (first seeded by ``env(seed=...)``,
  or from the system's entropy without one).
- A simultaneous decision (an `Ask` of several seats): AEC is turn-based, so its seats are
  selected one at a time in the Ask's order, each seeing only its own observation; the
  choices are applied to the state together after the last one, so nobody's choice is seen
  before everybody has chosen.
- A race (timed decisions): the action is the claim, an action id, or
  ``action_id(rules, decision, None)`` for no claim. An AEC agent has no clock, so the seconds
  come from the env's generator (`race_seconds`): the racers answer in a random order, every
  claimant equally likely to be first.
- Rewards: 0 until the end, then each agent's win share (`Game.scores`: 1 for a sole winner,
  split between tied winners, summing to 1). It is geolab's own score, read alike for 2 or 32
  seats, so an agent's mean return is its win rate beside the lab's tables; a zero-sum form
  is the share less 1/n, a constant per game that changes no comparison of policies.
  Everyone is terminated at the end; nothing is ever truncated (a game ends by its rules).
- An illegal action: `env` wraps the raw env as PettingZoo's classic environments do
  (TerminateIllegalWrapper, AssertOutOfBoundsWrapper, OrderEnforcingWrapper): a masked-out
  id ends the game with -1 for its agent (below any legal outcome) and 0 for the others, an
  id outside the action space is an AssertionError. The raw env (`GeolabEnv`,
  ``env.unwrapped``) raises geolab's `IllegalActionError` and keeps its state.
"""

from __future__ import annotations

from typing import Any

import numpy as np

try:
    import gymnasium
    from gymnasium import spaces
    from pettingzoo import AECEnv
    from pettingzoo.utils import wrappers
except ImportError as error:  # pragma: no cover - the tests skip without pettingzoo
    raise ImportError(f"geolab.interop.pettingzoo needs pettingzoo and gymnasium: "
                      f"pip install 'geolab[pettingzoo]' ({error})") from None

from geolab import registry
from geolab.errors import GeolabError, IllegalActionError, RulesError
from geolab.game import Decision, shown
from geolab.stepwise import Claim, legal_ids

#: what an illegal (masked-out) action earns its agent in `env`: below every legal outcome
ILLEGAL_REWARD = -1.0


def game_rules(game, rules=None, **fields):
    """A game's rules from a `Rules` of that game, a preset name or a spec (None: its default
    preset), with `fields` overriding; a bad preset, field or value is a `RulesError`."""
    if rules is None or isinstance(rules, (str, dict)):
        rules = game.Rules.from_spec(game.Rules.DEFAULT if rules is None else rules)
    elif not isinstance(rules, game.Rules):
        raise RulesError(f"{game.name}: rules must be its Rules, a preset name or a spec, got {shown(rules)}")
    return rules.replace(**fields) if fields else rules.validate()


def race_seconds(rng: np.random.Generator, racers: int) -> np.ndarray:
    """The seconds of a race's answers, in the Ask's order: 1, 2, ... in a random order, so
    every racer is equally likely to answer first and no two answer at once."""
    return rng.permutation(racers) + 1.0


class GeolabEnv(AECEnv):
    """A registered game as a raw AEC environment (see the module docstring); `env` wraps it.
    `geolab_state` is the episode's `geolab.stepwise.State`."""

    metadata = {"render_modes": ["ansi", "human"], "name": "geolab", "is_parallelizable": False}

    def __init__(self, name: str, /, rules=None, seed: int | None = None, render_mode: str | None = None, **fields):
        super().__init__()
        self.game = registry.get(name).game
        self.rules = game_rules(self.game, rules, **fields)
        if render_mode not in (None, *self.metadata["render_modes"]):
            raise GeolabError(f"render_mode must be one of {', '.join(self.metadata['render_modes'])} or None, "
                              f"got {shown(render_mode)}")
        self.render_mode, self.first_seed = render_mode, seed
        self.metadata = {**self.metadata, "name": f"geolab_{self.game.name}_v0"}
        seats = self.game.seats(self.rules)
        self.possible_agents = [self.game.seat_name(self.rules, s) for s in range(seats)]
        self.seat_of = {a: s for s, a in enumerate(self.possible_agents)}
        n, size = self.game.num_actions(self.rules), self.game.tensor_size(self.rules)
        # a game declares no bounds on its tensor's values, so none are claimed here
        self.observation_spaces = {a: spaces.Dict({
            "observation": spaces.Box(-np.inf, np.inf, (size,), np.float32),
            "action_mask": spaces.Box(0, 1, (n,), np.int8)}) for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(n) for a in self.possible_agents}
        self.rng: np.random.Generator | None = None
        self.geolab_state = None

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    # ----- an episode --------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is not None or self.rng is None:
            self.rng = np.random.default_rng(self.first_seed if seed is None else seed)
        self.geolab_state = self.game.state(self.rules, self.game.deal(self.rules, self.rng))
        self.chosen: dict[int, Any] = {}  # the answers of the seats of the current Ask so far
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self.agent_selection = self._next_agent()

    def step(self, action) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            return self._was_dead_step(action)
        d = self.decision(agent)
        if isinstance(action, (bool, np.bool_)) or not isinstance(action, (int, np.integer)):
            raise IllegalActionError(f"{d.where}: {agent}'s action must be an action id, got {shown(action)}")
        self.chosen[d.seat] = self.game.action_of(self.rules, d, int(action))
        self._cumulative_rewards[agent] = 0.0
        self._clear_rewards()
        node = self.geolab_state.node
        if len(self.chosen) == len(node.decisions):
            seconds = iter(race_seconds(self.rng, sum(x.timed for x in node.decisions)) if node.race else ())
            self.geolab_state.apply({x.seat: Claim(self.chosen[x.seat], float(next(seconds))) if x.timed
                              else self.chosen[x.seat] for x in node.decisions})
            self.chosen = {}
        if self.geolab_state.is_over():
            self.rewards = {a: float(v) for a, v in zip(self.possible_agents, self.geolab_state.scores())}
            self.terminations = dict.fromkeys(self.agents, True)
        else:
            self.agent_selection = self._next_agent()
        self._accumulate_rewards()
        self._deads_step_first()
        if self.render_mode == "human":
            self.render()

    def _next_agent(self) -> str:
        return self.possible_agents[self.geolab_state.node.decisions[len(self.chosen)].seat]

    # ----- what an agent sees ------------------------------------------------------------
    def decision(self, agent: str) -> Decision | None:
        """The geolab `Decision` the agent is to answer now (None when it is not selected):
        for seating a geolab bot in an AEC loop (`action_id` turns its answer into an id)."""
        if self.geolab_state.is_over() or agent != self.agent_selection:
            return None
        return self.geolab_state.node.decisions[len(self.chosen)]

    def action_id(self, decision: Decision, answer) -> int:
        """A geolab answer to `decision` (an action, or a `Claim` at a race, whose seconds
        the env replaces with its own) as the env's action id."""
        return self.game.action_id(self.rules, decision, answer.action if isinstance(answer, Claim) else answer)

    def observe(self, agent: str) -> dict:
        seat = self.seat_of[agent]
        mask = np.zeros(self.action_spaces[agent].n, np.int8)
        d = self.decision(agent)
        if d is not None:
            mask[legal_ids(self.game, self.rules, d)] = 1
        tensor = self.game.observation_tensor(self.rules, seat, self.geolab_state.observe(seat))
        return {"observation": np.asarray(tensor, np.float32), "action_mask": mask}

    def render(self) -> str | None:
        """The selected agent's `Game.observation_string`: returned ("ansi") or printed ("human")."""
        if self.render_mode is None:
            gymnasium.logger.warn("You are calling render method without specifying any render mode.")
            return None
        seat = self.seat_of[self.agent_selection]
        text = self.game.observation_string(self.rules, seat, self.geolab_state.observe(seat))
        if self.render_mode == "ansi":
            return text
        print(text)
        return None

    def close(self) -> None:
        pass


def env(name: str, /, rules=None, seed: int | None = None, render_mode: str | None = None, **fields) -> AECEnv:
    """The game `name` of the registry as an AEC environment, wrapped as PettingZoo's classic
    environments are: an illegal action ends the game with `ILLEGAL_REWARD` for its agent, an
    id outside the action space is an AssertionError, calls out of order are refused."""
    raw = GeolabEnv(name, rules, seed, render_mode, **fields)
    return wrappers.OrderEnforcingWrapper(wrappers.AssertOutOfBoundsWrapper(
        wrappers.TerminateIllegalWrapper(raw, illegal_reward=ILLEGAL_REWARD)))
