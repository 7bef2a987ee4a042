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
from numba import njit

from geolab.cards import LAND_AREA, N_CARDS, POPULATION_2010, borders
from geolab.game import BatchBot, param_range
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


class Team(BatchBot):
    """A team's knowledge and speed: a batch policy (`act`: its claims for a block of hands,
    `geolab.games.dashing.batch`), whose `beliefs` also serve its announcements at the
    reference engine. The decisions are numba kernels over the hands (`_believe`, `_choose`);
    the draws are numpy's, made for every hand whatever it decides, so a hand's claim does not
    depend on the others'."""

    def __init__(self, rules: Rules, knowledge: Knowledge, race: RaceModel):
        self.rules, self.knowledge, self.race_model = rules, knowledge, race
        self.p_map, self.p_capital = knowledge.recognition(), knowledge.capitals()
        self.card_checks = np.exp(knowledge.slow * SMALL)
        self.thread_safe = True

    def beliefs(self, rng: np.random.Generator, hands: np.ndarray) -> Beliefs:
        """What the team believes of each card: one draw of ``rng.random((6, m, cards))``
        (recognition, confusion, the state confused with, knowing the capital, misnaming it,
        the state whose capital is named instead)."""
        hands = np.ascontiguousarray(hands, np.int64)
        u = rng.random((6, *hands.shape))
        states, capitals = np.empty_like(hands), np.empty_like(hands)
        k = self.knowledge
        _believe(hands, u, self.p_map, self.p_capital, k.confuse, k.misname, CONFUSED_WITH, CONFUSIONS, states,
                 capitals)
        return Beliefs(states, capitals)

    def act(self, obs: Hands, rng: np.random.Generator) -> Claims:
        """The team's `Claims` for m hands (``obs.hands``, (m, cards)): its `beliefs`, then
        ``rng.random((3, m))`` (a slip, where it falls, a face-up shout), then a gamma draw a
        hand for the seconds (`RaceModel.seconds`)."""
        rules = self.rules
        hands = np.ascontiguousarray(obs.hands, np.int64)
        m, p = len(hands), rules.placed
        b = self.beliefs(rng, hands)
        r = rng.random((3, m))
        claimed, face_down = np.empty(m, np.bool_), np.empty(m, np.bool_)
        order, states, capitals = (np.empty((m, p), np.int64) for _ in range(3))
        checks = np.empty(m)
        _choose(hands, b.states, b.capitals, self.p_map, self.card_checks, rules.announce == "capitals", p,
                self.race_model.error, self.knowledge.face_up, self.knowledge.sort, r,
                (claimed, face_down, order, states, capitals, checks))
        return Claims(self.race_model.seconds(rng, checks), claimed, order, face_down, states, capitals)


@njit(cache=True, nogil=True)
def _believe(hands, u, p_map, p_capital, confuse, misname, table, counts, states, capitals):
    """Each card's believed state and named capital (-1: none) from the uniforms u (6, m, k)."""
    m, k = hands.shape
    for i in range(m):
        for c in range(k):
            h = hands[i, c]
            if u[0, i, c] < p_map[h]:
                state = h
            elif u[1, i, c] < confuse:
                state = table[h, np.int64(u[2, i, c] * counts[h])]
            else:
                state = -1
            b = max(state, 0)
            if u[3, i, c] < p_capital[b]:
                capital = b
            elif u[4, i, c] < misname:
                capital = table[b, np.int64(u[5, i, c] * counts[b])]
            else:
                capital = -1
            states[i, c] = state
            capitals[i, c] = capital if state >= 0 else -1


@njit(cache=True, nogil=True)
def _choose(hands, believed, named, p_map, card_checks, need_capital, p, error, face_up, sort, r, out):
    """Each hand's claim from its beliefs (module docstring): the `p` surest cards (ties to
    the earlier), sorted by believed name (ties kept in that order), a slip where r[0] <
    error (at place floor(r[1] * (p - 1))), face-up where r[2] < face_up; its card-checks.
    `out` = (claimed, face_down, order, states, capitals, checks), the arrays it writes."""
    claimed, face_down, order, states, capitals, checks = out
    m, k = hands.shape
    confidence = np.empty(k)
    taken = np.empty(k, np.bool_)
    for i in range(m):
        sure = 0
        for c in range(k):
            ok = believed[i, c] >= 0 and (named[i, c] >= 0 or not need_capital)
            confidence[c] = p_map[believed[i, c]] if ok else -1.0
            sure += ok
            taken[c] = False
        claimed[i] = sure >= p
        for j in range(p):  # the surest not yet taken, the earliest on ties
            best = -1
            for c in range(k):
                if not taken[c] and (best < 0 or confidence[c] > confidence[best]):
                    best = c
            taken[best] = True
            order[i, j] = best
        for j in range(1, p):  # insertion sort by believed name: stable
            x = order[i, j]
            at = j
            while at > 0 and believed[i, order[i, at - 1]] > believed[i, x]:
                order[i, at] = order[i, at - 1]
                at -= 1
            order[i, at] = x
        if p > 1 and r[0, i] < error:
            w = np.int64(r[1, i] * (p - 1))
            order[i, w], order[i, w + 1] = order[i, w + 1], order[i, w]
        face_down[i] = not r[2, i] < face_up
        total = sort
        for c in range(k):
            total += card_checks[hands[i, c]]
        checks[i] = total
        for j in range(p):
            states[i, j] = believed[i, order[i, j]]
            capitals[i, j] = named[i, order[i, j]]
