"""State IQ's bots, registered once. One bot, ``player``: how it guesses (and what it knows),
how it gives border clues, all in its spec. The default plays both roles from each phase's
equilibrium, for the game's result (``guess=equilibrium,clue=equilibrium,objective=game``);
the old default is ``player:guess=optimal,clue=hard,objective=guesses`` (`OLD_DEFAULT`)."""

from __future__ import annotations

import copy
from functools import cache

from geolab.bots.stateiq.equilibrium import Equilibria
from geolab.bots.stateiq.knowledge import Knowledge
from geolab.bots.stateiq.player import CLUE_KINDS, Player, PlayerSeat
from geolab.bots.stateiq.search import GUESS_KINDS, Guesser, HardGiver
from geolab.definition import Players
from geolab.game import INT63_MAX, Bots, param_range

OBJECTIVES = ("game", "guesses")
#: The default before the equilibrium player (it lost to ``guess=random``), kept as a spec.
OLD_DEFAULT = "player:guess=optimal,clue=hard,objective=guesses"
AIMS = ("guesses", "miss")


def _one_of(name: str, value: str, allowed) -> None:
    if value not in allowed:
        raise ValueError(f"{name} must be one of {', '.join(allowed)}, got {value!r}")


def player(rules, guess: str = "equilibrium", clue: str = "equilibrium", objective: str = "game", miss: int = 4,
           aim: str = "guesses", borders: float = 1.0, capitals: float = 1.0, postal: float = 1.0,
           seed: int = 0) -> Player:
    """guess: equilibrium (the solved phase game's mixed guess; with gaps in its facts, as
    optimal), optimal (searches the clue tree against random borders), greedy (the likeliest
    state now) or random (any state its clues leave); clue: equilibrium (the solved phase
    game's mixed border), hard (the border hardest for the optimal guesser) or random;
    objective: game (both guessers play for the game's result; the optimal search, the second
    guesser only) or guesses (fewest expected guesses); miss: what a miss costs, in guesses;
    aim: the hard clue-giver's, guesses (most expected) or miss (most chance of a miss);
    borders, capitals, postal: the share of border pairs, capitals and postal codes the guesser
    knows, drawn from seed."""
    _one_of("guess", guess, GUESS_KINDS)
    _one_of("clue", clue, CLUE_KINDS)
    _one_of("objective", objective, OBJECTIVES)
    _one_of("aim", aim, AIMS)
    param_range("miss", miss, 3, 100)
    param_range("borders", borders, 0, 1)
    param_range("capitals", capitals, 0, 1)
    param_range("postal", postal, 0, 1)
    param_range("seed", seed, 0, INT63_MAX)
    return copy.copy(_player(rules, guess, clue, objective, miss, aim, borders, capitals, postal, seed))


@cache
def _player(rules, guess: str, clue: str, objective: str, miss: int, aim: str, borders: float, capitals: float,
            postal: float, seed: int) -> Player:
    """One player per spec and rules, whose copies (`player`: each with its own name) share its
    memoised searches: the same beliefs recur in every game, so every seat and every team of the
    same spec plays from one warm memo. A player holds no state of a game; its draws come from
    the engine's generators."""
    know = Knowledge(rules.four_corners, rules.water, borders, capitals, postal, seed)
    searches = guess in ("optimal", "equilibrium")
    guesser = _perfect(rules, objective, miss) if know.perfect and searches else \
        Guesser(know, "optimal" if searches else guess, objective, miss)
    solved = _equilibria(rules, objective, miss) if "equilibrium" in (guess, clue) else None
    return Player(rules, guesser, clue, _hard_giver(rules, objective, miss, aim) if clue == "hard" else None,
                  guess, solved)


@cache
def _equilibria(rules, objective: str, miss: int) -> Equilibria:
    """The solved phase games of these rules and objective, shared by every player that plays
    from them (each order's solved once, on its first need)."""
    return Equilibria(rules.four_corners, rules.water, objective, miss if objective == "guesses" else 4)


@cache
def _perfect(rules, objective: str, miss: int) -> Guesser:
    """The optimal guesser that knows every fact, one per rules and objective: every hard
    clue-giver plays against it, and every perfect player is it, so all share its search."""
    return Guesser(Knowledge(rules.four_corners, rules.water), "optimal", objective, miss)


@cache
def _hard_giver(rules, objective: str, miss: int, aim: str) -> HardGiver:
    """The hard clue-giver against `_perfect`, shared by every player of these rules,
    objective and aim, whatever it knows itself (its clues are chosen by the true facts)."""
    return HardGiver(rules, _perfect(rules, objective, miss), aim)


BOTS = Bots("state-iq")
BOTS.add("player", player, "plays each phase's exactly solved equilibrium (mixed guesses and border clues, for "
                           "the game's result); or guesses by an exact search of the clue tree (with all or part "
                           "of the facts), names the border hardest for that guesser, or either at random",
         family="search",
         example="player:guess=greedy,clue=random,capitals=0.5,seed=1")

#: `geolab simulate state-iq` and `geolab arena state-iq` line-ups by default.
SIMULATE = "player,player:guess=random"  # split on commas by the conformance suite: one key a spec
ARENA = ("player," + OLD_DEFAULT + ",player:clue=random,player:guess=greedy,player:guess=random,player:clue=hard,"
         "player:guess=optimal,player:borders=0.7,capitals=0.7,postal=0.7")


def seat(bot, rules, rng) -> PlayerSeat:
    """A built player at the reference engine, shown only its own observation."""
    return PlayerSeat(bot, rules, rng)


HINT = "player"
PLAYERS = Players(BOTS, SIMULATE, ARENA, HINT, seat)
