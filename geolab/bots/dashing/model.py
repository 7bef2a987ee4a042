"""A team at Dashing States: what it knows of the maps and capitals, and how fast it is.

**Knowledge.** A team recognises the map of state s with chance ``sigmoid(logit(recognise) -
size * small[s])``, where ``small`` is the state's land area on a log scale, standardised over
the 50 states (positive: smaller than most), so Rhode Island is hard and Texas easy. A map it
does not recognise it takes for another state with chance `confuse` (a bordering state, any
other for Alaska and Hawaii, drawn uniformly), and otherwise knows it does not know. For the
state it believes a card shows it knows the capital with chance ``sigmoid(logit(capital) -
fame * obscure[s])``, ``obscure`` the same scale of the 2010 population; a capital it does not
know it takes for another with chance `misname` (a bordering state's, drawn as above), and
otherwise knows it does not know.

**Play.** A card is *sure* when the team believes it knows the state and, where capitals are
announced, the capital. With at least `placed` sure cards the team lays the `placed` it is
surest of (the highest recognition chance of the state it believes; ties to the earlier card),
sorted by the names it believes; with chance ``race.error`` it slips and swaps two neighbours
of the row; with chance `face_up` it shouts before turning the unused card face-down. It then
announces what it believes, place by place. With fewer sure cards it never shouts (a shout it
knows to be wrong loses for sure) and gives up after its search.

**Speed** (`geolab.games.race.RaceModel`, docs/race.md): the team looks at every card, and a
card takes longer the harder its map (``exp(slow * small[s])`` card-checks), then sorts
(`sort` card-checks), so the shout comes after ``RaceModel.seconds`` of those checks: ``base +
per_card * checks / speed`` times a gamma of mean 1 and coefficient of variation ``spread``.
The perfect team recognises every map and knows every capital, never slips, has no motor time
and no spread: its time is its cards' difficulty alone.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from geolab.cards import LAND_AREA, N_CARDS, POPULATION_2010, borders
from geolab.game import param_range
from geolab.games.dashing.batch import Claims, Hands
from geolab.games.dashing.rules import Rules
from geolab.games.race import RaceModel


def _standard(values: np.ndarray) -> np.ndarray:
    x = -np.log(np.asarray(values, float))
    return (x - x.mean()) / x.std()


#: Per state: land area and 2010 population on a log scale, standardised (positive: smaller).
SMALL = _standard(LAND_AREA)
OBSCURE = _standard(POPULATION_2010)


def _confusions() -> tuple[np.ndarray, np.ndarray]:
    """Per state, the states its map is taken for: its land neighbours, or every other state
    for one without (Alaska, Hawaii); as a padded table and the counts."""
    adjacency = borders()
    table = np.zeros((N_CARDS, N_CARDS - 1), np.int64)
    counts = np.zeros(N_CARDS, np.int64)
    for s in range(N_CARDS):
        options = np.flatnonzero(adjacency[s])
        if not len(options):
            options = np.array([c for c in range(N_CARDS) if c != s])
        table[s, :len(options)] = options
        counts[s] = len(options)
    return table, counts


CONFUSED_WITH, CONFUSIONS = _confusions()


def _confused(rng: np.random.Generator, states: np.ndarray) -> np.ndarray:
    """For each state, one it is taken for (`CONFUSED_WITH`), drawn uniformly."""
    pick = (rng.random(states.shape) * CONFUSIONS[states]).astype(np.int64)
    return CONFUSED_WITH[states, pick]


def _chance(p: float, weight: float, scale: np.ndarray) -> np.ndarray:
    """sigmoid(logit(p) - weight * scale); exactly p (0 or 1) at the ends."""
    if p <= 0.0 or p >= 1.0:
        return np.full(len(scale), float(p))
    return 1.0 / (1.0 + np.exp(-(np.log(p / (1 - p)) - weight * scale)))


@dataclass(frozen=True)
class Knowledge:
    """What a team knows and how it plays its cards (module docstring)."""

    recognise: float = 0.9
    size: float = 1.0
    capital: float = 0.9
    fame: float = 0.5
    confuse: float = 0.3
    misname: float = 0.3
    face_up: float = 0.01
    slow: float = 0.5
    sort: float = 2.0

    def __post_init__(self):
        param_range("recognise", self.recognise, 0, 1)
        param_range("size", self.size, -10, 10)
        param_range("capital", self.capital, 0, 1)
        param_range("fame", self.fame, -10, 10)
        param_range("confuse", self.confuse, 0, 1)
        param_range("misname", self.misname, 0, 1)
        param_range("face_up", self.face_up, 0, 1)
        param_range("slow", self.slow, -3, 3)
        param_range("sort", self.sort, 0, 100)

    def recognition(self) -> np.ndarray:
        """Per state: the chance the team recognises its map."""
        return _chance(self.recognise, self.size, SMALL)

    def capitals(self) -> np.ndarray:
        """Per state: the chance the team knows its capital."""
        return _chance(self.capital, self.fame, OBSCURE)


@dataclass(frozen=True)
class Beliefs:
    """What a team believes of each card of m hands (m, cards): the state it takes each for
    (-1: it knows it does not know) and the state whose capital it would name (-1: none)."""

    states: np.ndarray
    capitals: np.ndarray


class Team:
    """A team's knowledge and speed: a batch policy (`act`: its claims for a block of hands,
    `geolab.games.dashing.batch`), whose `beliefs` also serve its announcements at the
    reference engine."""

    def __init__(self, rules: Rules, knowledge: Knowledge, race: RaceModel):
        self.rules, self.knowledge, self.race_model = rules, knowledge, race
        self.p_map, self.p_capital = knowledge.recognition(), knowledge.capitals()
        self.thread_safe = True

    def beliefs(self, rng: np.random.Generator, hands: np.ndarray) -> Beliefs:
        """Draws, in this order: recognition, confusion, the state confused with, knowing the
        capital, misnaming it, the state whose capital is named instead (uniforms of shape
        (m, cards) each)."""
        hands = np.asarray(hands, np.int64)
        k = self.knowledge
        known = rng.random(hands.shape) < self.p_map[hands]
        confused = ~known & (rng.random(hands.shape) < k.confuse)
        states = np.where(known, hands, np.where(confused, _confused(rng, hands), -1))
        believed = np.maximum(states, 0)
        knows = rng.random(hands.shape) < self.p_capital[believed]
        misnamed = ~knows & (rng.random(hands.shape) < k.misname)
        capitals = np.where(knows, believed, np.where(misnamed, _confused(rng, believed), -1))
        return Beliefs(states, np.where(states >= 0, capitals, -1))

    def act(self, obs: Hands, rng: np.random.Generator) -> Claims:
        """The team's `Claims` for m hands (``obs.hands``, (m, cards)): beliefs (`beliefs`),
        then the slips, the face-up shouts and the seconds (uniforms of shape (m,) for the
        slip, where it falls and face-up, then a gamma draw per hand: `RaceModel.seconds`)."""
        rules = self.rules
        hands = np.asarray(obs.hands, np.int64)
        m, p = len(hands), rules.placed
        b = self.beliefs(rng, hands)
        sure = b.states >= 0
        if rules.announce == "capitals":
            sure &= b.capitals >= 0
        claimed = sure.sum(axis=1) >= p
        confidence = np.where(sure, self.p_map[np.maximum(b.states, 0)], -1.0)
        keep = np.argsort(-confidence, axis=1, kind="stable")[:, :p]  # the surest, earlier cards first on ties
        believed = np.take_along_axis(b.states, keep, axis=1)
        order = np.take_along_axis(keep, np.argsort(believed, axis=1, kind="stable"), axis=1)
        slip = rng.random(m) < self.race_model.error
        where = (rng.random(m) * max(p - 1, 1)).astype(np.int64)
        face_up = rng.random(m) < self.knowledge.face_up
        if p > 1:
            rows = np.flatnonzero(slip)
            order[rows, where[rows]], order[rows, where[rows] + 1] = order[rows, where[rows] + 1], order[rows, where[rows]]
        checks = np.exp(self.knowledge.slow * SMALL[hands]).sum(axis=1) + self.knowledge.sort
        seconds = self.race_model.seconds(rng, checks)
        states = np.take_along_axis(b.states, order, axis=1)
        capitals = np.take_along_axis(b.capitals, order, axis=1)
        return Claims(seconds, claimed, order, ~face_up, states, capitals)
