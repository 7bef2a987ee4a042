"""Stage 2 played out from a declaring side's point of view, for the Monte Carlo declaration
policy: the other's eight cards dealt at random from the 42 the side cannot see, then the
stage played by one Play the Ranks bot on both sides on the Play the Ranks batch engine, the
side discarding its real discards.

Every row's deals and games come from its key alone (`estimate.sample_hands`; each game's
key, behind ``Observation.noise``, is drawn from it too), so a row's rollouts are the same in
any batch, for any trick bot that takes its randomness from ``obs.noise`` (every built-in
heuristic). The generator the engine hands the bots is a fixed one (seed 0) for the same
reason.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from geolab.bots.geodouble.estimate import cards, sample_hands, sorted_cards
from geolab.game import BatchBot
from geolab.games.groups import masks as group_masks
from geolab.games.ranks import batch

#: Games played in one engine call at most (rows are never split across calls).
GAMES_PER_CALL = 1 << 16


class Rollouts(NamedTuple):
    """(m, samples) for each row and sampled deal: did the side win, and the other's six kept
    cards (mask) after its discards."""

    won: np.ndarray
    other_kept: np.ndarray


class OwnDiscards(BatchBot):
    """Side A's policy in a rollout: its real discards, then the trick bot's play."""

    def __init__(self, tricks, discards: np.ndarray):
        self.tricks, self.discards = tricks, discards
        self.name = tricks.name or "tricks"
        self.thread_safe = tricks.thread_safe

    def act(self, obs, rng):
        if obs.kind == "discard":
            return self.discards[obs.game]
        return self.tricks.act(obs, rng)


def play(stage, tricks, own: np.ndarray, discards: np.ndarray, leads: np.ndarray, keys: np.ndarray,
         samples: int) -> Rollouts:
    """`samples` rollouts of each row: its eight cards ``own`` (mask) of which ``discards``
    (mask) are discarded, leading first where ``leads``; the stage rules `stage`, as they are
    (the declarations asked change no play, and a trick bot may be built for these rules only:
    learned's models); `tricks` plays both sides."""
    own, discards = np.asarray(own, np.int64), np.asarray(discards, np.int64)
    m = len(own)
    won = np.zeros((m, samples), bool)
    other_kept = np.zeros((m, samples), np.int64)
    rules = stage
    rows_per_call = max(1, GAMES_PER_CALL // samples)
    for start in range(0, m, rows_per_call):
        part = slice(start, min(m, start + rows_per_call))
        w, k = _play_rows(rules, tricks, own[part], discards[part], np.asarray(leads, bool)[part],
                          np.asarray(keys, np.uint64)[part], samples)
        won[part], other_kept[part] = w, k
    return Rollouts(won, other_kept)


def _play_rows(rules, tricks, own, discards, leads, keys, samples):
    m, size = len(own), rules.hand_size
    others, game_keys = np.empty((m, samples), np.int64), np.empty((m, samples), np.uint64)
    sample_hands(own, keys, samples, size, others, game_keys)
    n = m * samples
    masks = np.stack([np.repeat(own, samples), others.ravel()], axis=1)
    hands = np.empty((n, 2, size), np.int8)
    sorted_cards(masks, hands)
    deals = batch.Deals(hands, masks, np.zeros((n, 2), np.int8), None, game_keys.ravel())
    own_discards = np.repeat(np.nonzero(cards(discards))[1].reshape(m, rules.discards), samples, axis=0)
    first = np.where(np.repeat(leads, samples), 0, 1)
    played = batch.play_given(rules, (OwnDiscards(tricks, own_discards), tricks), deals, first,
                              np.random.default_rng(0))
    kept = masks[:, 1] & ~group_masks(played.discards[:, 1])
    return (played.winner == 0).reshape(m, samples), kept.reshape(m, samples)
