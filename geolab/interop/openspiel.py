"""Every registered game and preset as an OpenSpiel Python game, and OpenSpiel's ISMCTS and
MCTS as geolab bots: one generic adapter over `geolab.stepwise.State` (docs/interop.md).

Importing this module registers ``geolab_<name>`` with OpenSpiel for every game in
`geolab.registry` (`register` adds one registered later), so
``pyspiel.load_game("geolab_toy", {"preset": "duel", "hand": 4})`` works; `load` does the
same from geolab's side, with a `Rules` object or a spec.

How geolab's nodes become OpenSpiel's (a sequential, imperfect-information game with explicit
chance):

- a `geolab.stepwise.Chance` node is a chance node with the same outcomes and probabilities;
- an `Ask` of several seats (a simultaneous decision) is presented as OpenSpiel's turn-based
  conversion of simultaneous games does: the seats one after another in the Ask's order, each
  seeing only its own observation; the choices wait and are applied to the geolab State
  together when the last seat has chosen, so no seat ever sees another's pending choice;
- a race (timed decisions) is asked the same way, each seat's action being its claim (an
  action id, or ``action_id(rules, decision, None)`` for no claim); OpenSpiel has no clock, so
  the order in which the claimants claimed is chance (one chance node per place, every order
  equally likely) and the k-th claimant took k seconds: the adapter models no speed skill.
"""

from __future__ import annotations

import functools
import hashlib
import json
from collections.abc import Callable
from dataclasses import fields

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

from geolab import registry
from geolab.cards import N_CARDS
from geolab.errors import GeolabError, IllegalActionError, RulesError
from geolab.game import INT63_MAX, BatchBot, Bots, RulesBase, param_range
from geolab.stepwise import Ask, Claim, State, legal_ids

PREFIX = "geolab_"
#: A field that may be null and is otherwise a whole number is an int parameter, -1 meaning
#: null (OpenSpiel's own convention for "no limit"); no such field takes -1 as a value
#: (tests/test_openspiel.py checks every registered game).
NULL_INT = -1
#: OpenSpiel's game strings use ``name`` for the game itself, so a field of that name travels
#: as ``rules_name``
RENAMED = {"name": "rules_name"}


def _key(field: str) -> str:
    return RENAMED.get(field, field)


# ----- parameters <-> rules -----------------------------------------------------------------
def _kind(annotation: str) -> str:
    """How a rules field travels as an OpenSpiel parameter (which holds one scalar): as
    itself (bool, int, float, str), as an int with `NULL_INT` for null, or as text."""
    if annotation in ("bool", "int", "float", "str"):
        return annotation
    return "int?" if annotation.replace(" ", "") in ("int|None", "None|int") else "text"


def _encode(annotation: str, value):
    kind = _kind(annotation)
    if kind == "int?":
        return NULL_INT if value is None else value
    if kind != "text":
        return value
    if value is None:
        return "none"
    if isinstance(value, RulesBase):  # a stage's rules: its preset's name, or its spec as JSON
        spec = value.to_spec()
        return spec if isinstance(spec, str) else json.dumps(spec, separators=(",", ":"))
    # a list's items are separated by spaces: commas separate the parameters of a game string
    return "[" + " ".join(str(v) for v in value) + "]" if isinstance(value, tuple) else str(value)


def _decode(rules_class, name: str, annotation: str, value):
    kind = _kind(annotation)
    if kind == "int?":
        return None if value == NULL_INT else value
    if kind != "text":
        return value
    text = value.strip()
    if text.startswith("[") and text.endswith("]") and "," not in text:
        return [rules_class.setting(name, item) for item in text[1:-1].split()]
    return rules_class.setting(name, text)  # JSON, or none for null, as --set reads it


def parameter_spec(rules_class) -> dict:
    """OpenSpiel's parameters of a game: ``preset`` and every rules field (`RENAMED` where
    OpenSpiel reserves its name), each defaulting to the default preset's value."""
    base = rules_class.preset(rules_class.DEFAULT)
    return {"preset": rules_class.DEFAULT,
            **{_key(f.name): _encode(f.type, getattr(base, f.name)) for f in fields(rules_class)}}


def rules_of(rules_class, params: dict):
    """The rules OpenSpiel parameters name: the preset, then every field whose value differs
    from the default preset's. OpenSpiel fills each parameter not given with its default
    before the game sees them, so a field given at the default preset's value cannot be told
    from one not given: it takes the preset's value (to set it, name the default preset and
    the fields, or call `load`). A bad value is the rules' one-line `RulesError`."""
    base = rules_class.preset(rules_class.DEFAULT)
    changed = {}
    for f in fields(rules_class):
        if _key(f.name) in params:
            value = _decode(rules_class, f.name, f.type, params[_key(f.name)])
            if f.name in rules_class.stages():  # compared as rules, not as the text of a spec
                value = rules_class.stages()[f.name].from_spec(value)
            if (tuple(value) if isinstance(value, list) else value) != getattr(base, f.name):
                changed[f.name] = value
    return rules_class.from_spec({"preset": params.get("preset", rules_class.DEFAULT), **changed})


def parameters(rules) -> dict:
    """The OpenSpiel parameters that load exactly these rules: every field, under the rules'
    nearest preset when that gives them back (`rules_of`), else under the default preset."""
    spec = rules.to_spec()
    for preset in dict.fromkeys([spec if isinstance(spec, str) else spec["preset"], rules.DEFAULT]):
        params = {"preset": preset, **{_key(f.name): _encode(f.type, getattr(rules, f.name)) for f in fields(rules)}}
        if rules_of(type(rules), params) == rules:
            return params
    raise AssertionError("the default preset always gives the rules back")  # pragma: no cover


# ----- the game -----------------------------------------------------------------------------
def max_chance_outcomes(engine, rules) -> int:
    """A bound on every chance action id: the game's own (`Game.chance_outcomes`) or a card
    (below `geolab.cards.N_CARDS`: 50 cards is the most any chance node has) or a smaller
    whole number; a race's order is drawn as seat numbers. An outcome beyond it is refused."""
    own = engine.chance_outcomes(rules) if registry.get(engine.name).has("chance_outcomes") else N_CARDS
    return max(own, engine.seats(rules))


@functools.cache
def _game_type(name: str) -> pyspiel.GameType:
    engine = registry.get(name).game
    Rules = engine.Rules
    seats = [engine.seats(Rules.preset(p)) for p in Rules.PRESETS]
    return pyspiel.GameType(
        short_name=PREFIX + name, long_name=f"geolab {engine.title}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.CONSTANT_SUM,  # win shares: every game's sum to 1
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max(seats), min_num_players=min(seats),  # over the presets (OpenSpiel does not check it)
        provides_information_state_string=True, provides_information_state_tensor=True,
        provides_observation_string=True, provides_observation_tensor=True,
        parameter_specification=parameter_spec(Rules))


class GeolabGame(pyspiel.Game):
    """One registered game under one set of rules, as OpenSpiel sees it. Utilities are win
    shares (0..1, summing to 1: constant-sum); the game's length bound is geolab's
    `max_length` (chance outcomes plus seat decisions), which bounds OpenSpiel's decision
    count and its chance nodes alike (a race's order nodes are fewer than its claims)."""

    def __init__(self, name: str, rules, info: pyspiel.GameInfo):
        self.engine, self.rules = registry.get(name).game, rules
        super().__init__(_game_type(name), info, parameters(rules))

    def new_initial_state(self) -> GeolabState:
        return GeolabState(self, State(self.engine, self.rules))

    def make_py_observer(self, iig_obs_type=None, params=None) -> Observer:
        return Observer(self, iig_obs_type, params)


class _Maker:
    """What OpenSpiel's registry calls with a game's parameters (a class of its own per
    game: a partial as the maker crashed the interpreter at exit, released by OpenSpiel
    after Python had finished). Everything that may fail (bad rules) runs before the
    OpenSpiel game exists: an exception inside a half-made pybind object's ``__init__``
    segfaults whatever then prints it (pytest does)."""

    name: str

    def __new__(cls, params: dict) -> GeolabGame:
        engine = registry.get(cls.name).game
        rules = rules_of(engine.Rules, params)
        info = pyspiel.GameInfo(num_distinct_actions=engine.num_actions(rules),
                                max_chance_outcomes=max_chance_outcomes(engine, rules),
                                num_players=engine.seats(rules), min_utility=0.0, max_utility=1.0,
                                utility_sum=1.0, max_game_length=engine.max_length(rules))
        return GeolabGame(cls.name, rules, info)


_REGISTERED: set[str] = set()


def register(name: str) -> str:
    """Register one geolab game with OpenSpiel as ``geolab_<name>``; returns that name."""
    if name not in _REGISTERED:
        pyspiel.register_game(_game_type(name), type(f"Make_{name}", (_Maker,), {"name": name}))
        _REGISTERED.add(name)
    return PREFIX + name


def load(name: str, /, rules=None, **fields_) -> GeolabGame:
    """The OpenSpiel game of a registered geolab game: `rules` a `Rules` object, a preset
    name or a spec (default: the default preset), `fields_` overriding its fields (``preset=``
    among them names the preset when `rules` is not given; `name` is positional, so a field
    may be called so). Loaded through `pyspiel.load_game`, so it is the same game as its own
    parameters load."""
    Rules = registry.get(name).game.Rules
    if rules is not None and "preset" in fields_:
        raise RulesError("rules: give the rules or a preset, not both")
    preset = fields_.pop("preset", Rules.DEFAULT)
    base = rules if isinstance(rules, RulesBase) else Rules.from_spec(rules if rules is not None else preset)
    return pyspiel.load_game(register(name), parameters(base.replace(**fields_)))


# ----- the state ----------------------------------------------------------------------------
class _Held:
    """The geolab State inside an OpenSpiel state. OpenSpiel copies a Python state by deep-
    copying its attributes and serializes it by pickling them: the copy is the State's own
    clone (its log replayed), the pickle its game's name, rules, deal and log."""

    __slots__ = ("state",)

    def __init__(self, state: State):
        self.state = state

    def __deepcopy__(self, memo) -> _Held:
        return _Held(self.state.clone())

    def __reduce__(self):
        s = self.state
        return _revived, (s.game.name, s.rules, s.deal, s.log)


def _revived(name, rules, deal, log) -> _Held:
    return _Held(State(registry.get(name).game, rules, deal, log))


class GeolabState(pyspiel.State):
    """A geolab `State` stepped by OpenSpiel (the module docstring says how its nodes map).
    ``_pending`` holds the choices of an Ask's seats that have chosen (geolab actions),
    ``_order`` the race's claimants in the order chance has drawn them so far, ``_player``
    who moves now (OpenSpiel asks several times a step, so it is kept, not recomputed)."""

    def __init__(self, game: GeolabGame, state: State):
        super().__init__(game)
        self._held = _Held(state)
        self._pending: dict = {}
        self._order: list[int] = []
        self._player = self._to_move()

    @property
    def geo(self) -> State:
        """The geolab State (pending choices not yet applied to it)."""
        return self._held.state

    def _all_chosen(self) -> bool:
        """Every seat of the Ask has chosen: only at a race does the state stay there, while
        chance orders the claims."""
        return isinstance(self.geo.node, Ask) and len(self._pending) == len(self.geo.node.decisions)

    def _claimants(self) -> list[int]:
        return [s for s in self.geo.to_move() if self._pending[s] is not None]

    def _unplaced(self) -> list[int]:
        """The race's claimants chance has not yet placed in the order of their claims."""
        return [s for s in self._claimants() if s not in self._order]

    def current_player(self) -> int:
        return self._player

    def _to_move(self) -> int:
        geo = self.geo
        if geo.is_over():
            return pyspiel.PlayerId.TERMINAL
        if geo.is_chance() or self._all_chosen():
            return pyspiel.PlayerId.CHANCE
        return next(s for s in geo.to_move() if s not in self._pending)

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self._all_chosen():
            left = self._unplaced()
            return [(s, 1.0 / len(left)) for s in left]
        node = self.geo.node
        bound = self.get_game().max_chance_outcomes()
        if any(not 0 <= o < bound for o in node.outcomes):
            raise GeolabError(f"{self.geo.game.name}: a {node.kind} chance outcome is beyond the adapter's "
                              f"bound of {bound} (geolab.interop.openspiel.max_chance_outcomes)")
        return sorted(zip(node.outcomes, node.probabilities()))

    def _legal_actions(self, player: int) -> list[int]:
        return legal_ids(self.geo.game, self.geo.rules, self.geo.decision(player))

    def _apply_action(self, action: int) -> None:
        geo = self.geo
        if geo.is_chance():
            geo.apply_chance(int(action))
        elif self._all_chosen():
            if action not in self._unplaced():
                raise IllegalActionError(f"race: seat {action} is not a claimant still to be placed")
            self._order.append(int(action))
        else:
            self._pending[self._player] = geo.game.action_of(geo.rules, geo.decision(self._player), int(action))
        self._settle()

    def _settle(self) -> None:
        """Apply the Ask to the geolab State once every seat has chosen and, at a race,
        chance has ordered the claimants (the last one needs no chance): the k-th took k
        seconds, a pass the time after the last claim."""
        if self._all_chosen() and not (self.geo.node.race and len(self._unplaced()) > 1):
            answers = dict(self._pending)
            if self.geo.node.race:
                order = self._order + self._unplaced()
                answers = {s: Claim(a, float(order.index(s) + 1 if a is not None else len(order) + 1))
                           for s, a in answers.items()}
            self._pending, self._order = {}, []
            self.geo.apply(answers)
        self._player = self._to_move()

    def _action_to_string(self, player: int, action: int) -> str:
        geo = self.geo
        if player == pyspiel.PlayerId.CHANCE:
            if self._all_chosen():
                return f"race: {geo.game.seat_name(geo.rules, action)} claimed next"
            return f"{geo.node.kind} {action}" if geo.is_chance() else f"chance {action}"
        name = geo.game.seat_name(geo.rules, player)
        if player not in geo.to_move():
            return f"{name}: action {action}"
        d = geo.decision(player)
        return f"{name}: {_label(geo, d, geo.game.action_of(geo.rules, d, action))}"

    def is_terminal(self) -> bool:
        return self.geo.is_over()

    def returns(self) -> list[float]:
        if not self.geo.is_over():
            return [0.0] * self.geo.game.seats(self.geo.rules)
        return [float(x) for x in self.geo.scores()]

    def resample_from_infostate(self, player_id: int, probability_sampler) -> GeolabState:
        """A state `player_id` cannot tell from this one (its information state string is
        the same): the geolab State resampled for it (`State.resample`, with a numpy
        Generator seeded from the sampler's draws), its own pending choice kept, every other
        pending choice and the race's order drawn anew."""
        rng = np.random.default_rng([int(probability_sampler() * 2**32) for _ in range(4)])
        out = GeolabState(self.get_game(), self.geo.resample(player_id, rng))
        own = {player_id: self._pending[player_id]} if player_id in self._pending else {}
        out._choose_for_others(rng, own, [s for s in self._pending if s != player_id])
        return out

    def _choose_for_others(self, rng: np.random.Generator, own: dict, others) -> None:
        """Pending choices: `own` kept, each of `others` uniform among its legal ids (what
        the seat being searched for cannot see)."""
        engine, rules = self.geo.game, self.geo.rules
        chosen = dict(own)
        for s in others:
            ids = self._legal_actions(s)
            chosen[s] = engine.action_of(rules, self.geo.decision(s), ids[int(rng.integers(len(ids)))])
        self._pending = {s: chosen[s] for s in self.geo.to_move() if s in chosen}  # in the Ask's order, as played
        self._order = []
        self._settle()

    def __str__(self) -> str:
        return f"log {self.geo.log} pending {self._pending} order {self._order}"


def _label(geo: State, decision, action) -> str:
    return "no claim" if action is None else geo.game.views.label(decision, action)


def state_for(game: GeolabGame, geo: State, seat: int, rng: np.random.Generator) -> GeolabState:
    """The OpenSpiel state of `seat`'s turn at the geolab State's Ask: the seats asked
    before it have chosen, uniformly at random (it cannot see their choices)."""
    state = GeolabState(game, geo)
    before = geo.to_move()[: geo.to_move().index(seat)]
    state._choose_for_others(rng, {}, before)
    return state


# ----- observations -------------------------------------------------------------------------
class Observer:
    """Information state and observation alike (geolab observations have perfect recall):
    the game's `observation_string` / `observation_tensor` of ``State.observe(seat)``, plus
    the seat's own pending choice at a sequentialized node (one-hot over the action ids), so
    its information state tells that it has chosen. Before anything is dealt to see, the
    tensor is zeros and the string says so."""

    def __init__(self, game: GeolabGame, iig_obs_type=None, params=None):
        if params:
            raise ValueError(f"observation parameters are not supported, got {params}")
        if iig_obs_type is not None and (iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER
                                         or not iig_obs_type.public_info):
            raise ValueError("geolab observations are one seat's view (public and its own private information)")
        self.engine, self.rules = game.engine, game.rules
        size = self.engine.tensor_size(self.rules)
        self.tensor = np.zeros(size + self.engine.num_actions(self.rules), np.float32)
        self.dict = {"observation": self.tensor[:size], "pending": self.tensor[size:]}

    def _observation(self, state: GeolabState, player: int):
        try:
            return state.geo.observe(player)
        except GeolabError:  # chance is still dealing the first cards: nothing to see yet
            return None

    def set_from(self, state: GeolabState, player: int) -> None:
        self.tensor.fill(0)
        obs = self._observation(state, player)
        if obs is not None:
            self.dict["observation"][:] = self.engine.observation_tensor(self.rules, player, obs)
        if player in state._pending:
            d = state.geo.decision(player)
            self.dict["pending"][self.engine.action_id(self.rules, d, state._pending[player])] = 1

    def string_from(self, state: GeolabState, player: int) -> str:
        obs = self._observation(state, player)
        text = self.engine.observation_string(self.rules, player, obs) if obs is not None else \
            f"{self.engine.seat_name(self.rules, player)}: nothing dealt yet"
        if player in state._pending:
            text += f" | chosen {_label(state.geo, state.geo.decision(player), state._pending[player])}"
        return text


# ----- OpenSpiel's search as geolab bots ----------------------------------------------------
class OpenSpielBot(BatchBot):
    """A registered ``os-ismcts`` / ``os-mcts`` bot: the spec's parameters, seated at the
    reference engine by `seat`, and a policy of the game's batch engine where the game seats
    one-game seats there (`Game.seat_policy`: Play the Ranks does; `act` is then that
    policy's, built once). One deal at a time, so the batch engine runs its chunks one after
    another (``thread_safe`` False)."""

    thread_safe = False

    def __init__(self, engine, rules, algorithm: str, sims: int, uct: float, worlds: int, seconds: float,
                 seed: int = 0):
        self.engine, self.rules, self.algorithm = engine, rules, algorithm
        self.sims, self.uct, self.worlds, self.seconds, self.seed = sims, uct, worlds, seconds, seed
        self.name = f"os-{algorithm}"
        self._policy = None

    def act(self, obs, rng):
        """The batch engine's decisions (`Game.seat_policy` of the seat `seat(None)` makes)."""
        if self._policy is None:
            if not registry.get(self.engine.name).has("seat_policy"):
                raise GeolabError(f"{self.name}: {self.engine.name}'s batch engine seats no one-game seat, so the "
                                  "OpenSpiel bots play it on the reference engine only (Game.play, seated by "
                                  "bot.seat(rng))")
            self._policy = self.engine.seat_policy(self.seat(None), self.name)
        return self._policy.act(obs, rng)

    def seat(self, rng: np.random.Generator | None) -> OpenSpielSeat:
        """The bot at the reference engine, its randomness from `rng` (None: from `seed` and
        each decision's observation, as in the batch engine)."""
        return OpenSpielSeat(self.engine, self.rules, self.algorithm, self.sims, self.uct, self.worlds,
                             self.seconds, rng, self.seed)


class OpenSpielSeat:
    """A geolab seat that decides with OpenSpiel's Python ISMCTS (``algorithm="ismcts"``:
    one tree over information states, a fresh determinization each simulation) or MCTS
    (``"mcts"``: `worlds` determinizations, `sims` simulations each, visits summed). It
    never peeks: every root it searches is built by the game's `determinize` from the
    decision's observation alone, and the seats asked before it at a simultaneous node are
    given random choices. All its randomness comes from `rng`, so a seed repeats its play;
    with `rng` None, from a generator seeded at each decision by `seed` and a digest of the
    decision's observation string (what the seat sees), so a decision never depends on which
    games share a batch or in what order they are asked. A race is answered with its claim
    after `seconds`."""

    def __init__(self, engine, rules, algorithm: str, sims: int, uct: float, worlds: int, seconds: float,
                 rng: np.random.Generator | None, seed: int = 0):
        if algorithm not in ("ismcts", "mcts"):
            raise ValueError(f"algorithm must be ismcts or mcts, got {algorithm!r}")
        self.engine, self.rules, self.algorithm = engine, rules, algorithm
        self.sims, self.uct, self.worlds, self.seconds, self.rng = sims, uct, worlds, seconds, rng
        self.seed = seed
        self.name = f"os-{algorithm}"
        self.game = load(engine.name, rules)

    def act(self, decision):
        if len(decision.legal) + int(decision.timed) == 1:
            action = decision.legal[0]
        else:
            action = self.engine.action_of(self.rules, decision, self._search(decision, self._rng(decision)))
        return Claim(action, self.seconds) if decision.timed else action

    def _rng(self, decision) -> np.random.Generator:
        if self.rng is not None:
            return self.rng
        text = self.engine.observation_string(self.rules, decision.seat, decision.observation)
        digest = hashlib.blake2b(text.encode(), digest_size=8).digest()
        return np.random.default_rng([self.seed, int.from_bytes(digest, "little")])

    def _root(self, decision, rng: np.random.Generator) -> GeolabState:
        geo = self.engine.determinize(self.rules, decision.seat, decision.observation, rng)
        return state_for(self.game, geo, decision.seat, rng)

    def _search(self, decision, rng: np.random.Generator) -> int:
        def seed() -> int:
            return int(rng.integers(2**31))

        if self.algorithm == "ismcts":
            random = np.random.RandomState(seed())
            bot = ismcts.ISMCTSBot(self.game, mcts.RandomRolloutEvaluator(1, random), self.uct, self.sims,
                                   random_state=random)
            sampler = pyspiel.UniformProbabilitySampler(seed(), 0.0, 1.0)
            bot.set_resampler(lambda state, player: state.resample_from_infostate(player, sampler))
            return int(bot.step(self._root(decision, rng)))
        visits: dict[int, int] = {}
        for _ in range(self.worlds):
            random = np.random.RandomState(seed())
            bot = mcts.MCTSBot(self.game, self.uct, self.sims, mcts.RandomRolloutEvaluator(1, random),
                               random_state=random)
            for child in bot.mcts_search(self._root(decision, rng)).children:
                visits[child.action] = visits.get(child.action, 0) + child.explore_count
        return max(sorted(visits), key=visits.__getitem__)


def _ismcts_factory(engine) -> Callable:
    def make(rules, sims: int = 200, uct: float = 2.0, seconds: float = 2.0, seed: int = 0) -> OpenSpielBot:
        _check(sims, uct, seconds, seed=seed)
        return OpenSpielBot(engine, rules, "ismcts", sims, uct, 1, seconds, seed)
    return make


def _mcts_factory(engine) -> Callable:
    def make(rules, sims: int = 100, worlds: int = 4, uct: float = 2.0, seconds: float = 2.0,
             seed: int = 0) -> OpenSpielBot:
        _check(sims, uct, seconds, worlds, seed)
        return OpenSpielBot(engine, rules, "mcts", sims, uct, worlds, seconds, seed)
    return make


def _check(sims: int, uct: float, seconds: float, worlds: int = 1, seed: int = 0) -> None:
    # OpenSpiel's first simulation only expands the root: with one, ISMCTS asserts and MCTS has no child to pick
    param_range("sims", sims, 2, 100_000)
    param_range("uct", uct, 0, 100)
    param_range("seconds", seconds, 0, 60)
    param_range("worlds", worlds, 1, 1000)
    param_range("seed", seed, 0, INT63_MAX)


def add_bots(bots: Bots, entry: registry.Entry) -> bool:
    """Add ``os-ismcts`` and ``os-mcts`` to one game's bots, if the game has the optional part
    `determinize` (a search that may not peek needs it); returns whether it did."""
    if not entry.has("determinize"):
        return False
    engine = entry.game
    where = "; seed: the batch engine's" if entry.has("seat_policy") else " (reference engine only)"
    bots.add("os-ismcts", _ismcts_factory(engine), "OpenSpiel's Python ISMCTS from determinizations of what it "
             f"sees{where}", family="search", example="os-ismcts:sims=10")
    bots.add("os-mcts", _mcts_factory(engine), "OpenSpiel's Python MCTS on a few determinizations, visits summed"
             f"{where}", family="search", example="os-mcts:sims=10,worlds=2")
    return True


def install() -> list[str]:
    """Add the OpenSpiel bots to every registered game that has `determinize` (the others
    do not offer them) and return those games' names. Each entry gets a copy of its bots
    with them added, so the game's own registry stays as its module made it. The command
    line calls this when a bot spec starts with ``os-``."""
    done = []
    for entry in registry.entries():
        if "os-ismcts" not in entry.bots:
            bots = Bots(entry.bots.game)
            for name in entry.bots.names():
                info = entry.bots.info(name)
                bots.add(name, info.factory, info.summary, info.family, info.peeks, info.example)
            if not add_bots(bots, entry):
                continue
            registry.register(entry.with_bots(bots))
        done.append(entry.name)
    return done


for _name in registry.names():
    register(_name)
