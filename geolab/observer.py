"""What every game's observer and action ids share: a tensor laid out by named pieces, and an
action id read back to a legal action.

OpenSpiel's observers lay a tensor out as named pieces end to end (``observation.dict``), so a
game says which fact goes in which piece and never counts offsets by hand; `Layout` is that,
for `geolab.game.Game.observation_tensor` and `tensor_size`. `action_named` is the one way a
game's `action_of` reads an id: a whole number, decoded by the game, among the decision's
legal actions (or no claim at a race), else one error line; `CardActions` is the whole action
map of a game whose every action is a card.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

import numpy as np

from geolab.cards import N_CARDS
from geolab.errors import IllegalActionError
from geolab.game import Decision, shown
from geolab.stepwise import checked, legal_index

#: What a game's decoder gives for an id that names no action of the kind asked.
NO_ACTION = object()


class Layout:
    """A flat float32 observation as named pieces end to end, each of a size: where a piece
    starts is counted once, here, and a tensor is filled piece by piece (`tensor`)."""

    def __init__(self, pieces: Iterable[tuple[str, int]]):
        self.sizes = dict(pieces)
        self.starts, at = {}, 0
        for name, size in self.sizes.items():
            self.starts[name], at = at, at + size
        self.size = at

    def tensor(self) -> Tensor:
        return Tensor(self)

    def span(self, name: str) -> slice:
        return slice(self.starts[name], self.starts[name] + self.sizes[name])


class Tensor:
    """One observation being written into its `Layout`; `values` is the finished vector."""

    def __init__(self, layout: Layout):
        self.layout, self.values = layout, np.zeros(layout.size, np.float32)

    def one(self, name: str, index: int | None) -> None:
        """A one-hot piece: a 1 at `index` (None: the piece stays zero)."""
        if index is not None:
            self.values[self.layout.span(name)][index] = 1

    def ones(self, name: str, indices: Iterable[int]) -> None:
        """A 1 at each index (a set of cards)."""
        self.values[self.layout.span(name)][list(indices)] = 1

    def put(self, name: str, value) -> None:
        """A piece's values as given (a scale, a count, another game's tensor)."""
        self.values[self.layout.span(name)] = value


def action_named(decision: Decision, index, decode: Callable[[int], object], what: str, who: str):
    """The legal action an action id names at `decision` (`Game.action_of`): ``decode(i)``
    gives the action a whole number names (`NO_ACTION`: none; None: no claim, at a race only).
    Anything else, a truth value or an action the decision does not allow, is one
    `IllegalActionError` line: ``where: index 7 names no claim A can make``."""
    whole = isinstance(index, (int, np.integer)) and not isinstance(index, bool)
    action = decode(int(index)) if whole else NO_ACTION
    if action is None and decision.timed:
        return None
    at = -1 if action is None or action is NO_ACTION else legal_index(decision, action)
    if at < 0:
        raise IllegalActionError(f"{decision.where}: index {shown(index)} names no {what} {who} can make")
    return decision.legal[at]


class CardActions:
    """The action ids of a game whose every action is a card (played, claimed): a card is its
    own id, and claiming nothing at a race is `N_CARDS`. A game class inherits it whole."""

    def num_actions(self, rules) -> int:
        return N_CARDS + 1

    def action_id(self, rules, decision: Decision, action) -> int:
        return N_CARDS if action is None else int(checked(decision, action, self.seat_name(rules, decision.seat)))

    def action_of(self, rules, decision: Decision, index):
        return action_named(decision, index, lambda i: None if i == N_CARDS else i if 0 <= i < N_CARDS else NO_ACTION,
                            "card", self.seat_name(rules, decision.seat))
