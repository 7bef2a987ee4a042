"""A scene: what one seat sees at a decision, as objects rather than text, so that one
renderer draws every game (the web's card table) and the keyboard's screen is another
rendering of the same facts.

A game's views give ``scene(decision)`` (`geolab.game.Views.scene`; the game's definition
requires it: `geolab.definition.VIEWS`). A scene holds

- `Pile` s of `Card` s (the hand, the trick, the discards, a row, the table): a GeoPlunge
  card shows its state's postal code, name and three ranks (size, statehood, population); a
  face-down card shows none of them (`hidden`), and a Map card shows a picture, never its name;
- `Fact` s: the scores, the turned GeoPower or Power card, the base, the round, the clock;
- ``category``: the category being played, which stands out on every card;
- the legal moves as actions on those objects (`Move`): the cards selected (in order where
  ``ordered``) and an optional named option (a category, a yes or no), with the move's index
  into ``decision.legal`` and its label (`Views.label`). Every legal action is one move, and
  no two moves select the same cards with the same option (`check`);
- at a race (``Decision.timed``) no moves at all: `Race` says what a claim is made of (two
  groups of three cards; four cards in order), and the server reads the posted cards through
  `Views.parse`, so nothing sent before the race ends tells a solution or whether one exists.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field

from geolab.cards import CATEGORIES, NAMES, POSTAL, RANKS
from geolab.errors import GeolabError

#: The marks a card may carry (the renderer styles each).
MARKS = ("led", "won", "lost", "kept", "discarded", "played", "now", "yours", "hint")


@dataclass(frozen=True)
class Card:
    """One card as the seat sees it. ``id`` is unique in the scene (moves and claims name
    cards by it); ``word`` is what `Views.parse` reads for this card in a typed move (its
    postal code, or its place in a Dashing States hand). A face-down card (``face_up``
    False) carries no code, name, ranks or picture. A Map card (``kind`` "map") is face up
    and shows only its ``picture``, never its state's name: SVG made by `geolab.maps` (never
    from input), which a page draws as it is."""

    id: str
    code: str | None = None
    name: str | None = None
    ranks: tuple[int, int, int] | None = None
    face_up: bool = True
    selectable: bool = False
    marks: tuple[str, ...] = ()
    word: str = ""
    kind: str = "state"
    picture: str = ""


@dataclass(frozen=True)
class Pile:
    """Cards laid together: ``name`` a kind the renderer knows ("hand", "trick", "discards",
    "row", "table", "kept"), ``title`` what the page says above them."""

    name: str
    title: str
    cards: tuple[Card, ...]


@dataclass(frozen=True)
class Fact:
    """One fact of the table: ``name`` its kind ("score", "base", "round", "geopower",
    "power", "call", "clock", "match", "rule", "map"), ``text`` what it says, and where it
    helps a ``picture`` (SVG made by `geolab.maps`, never from input: a race hand's groups on
    a map after the race), which a page draws under the text."""

    name: str
    text: str
    picture: str = ""


@dataclass(frozen=True)
class Move:
    """A legal action as an action on the scene's objects: the cards selected (ids, in order
    where the scene's ``ordered``) and the option's parts (one value for each of the scene's
    ``options``, or none), with its index into ``decision.legal`` and its label."""

    index: int
    label: str
    cards: tuple[str, ...] = ()
    option: tuple[str, ...] = ()


@dataclass(frozen=True)
class Race:
    """What a claim is made of at a race: groups of cards of these sizes (``shape``, in order
    where ``ordered``), and the words a claim may add (``options``: (label, word) pairs, the
    first the default). ``what`` says it in words. The clock is the server's."""

    shape: tuple[int, ...]
    what: str
    ordered: bool = False
    options: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class Picture:
    """A picture of a finished game (`geolab.game.Views.pictures`): ``svg`` made by
    `geolab.maps` (with ``role="img"`` and a ``<title>``), never from input, and the
    ``caption`` that says in words what it shows."""

    caption: str
    svg: str


@dataclass(frozen=True)
class Scene:
    """What one seat sees at a decision (module docstring)."""

    title: str
    kind: str
    prompt: str
    piles: tuple[Pile, ...]
    facts: tuple[Fact, ...] = ()
    category: int | None = None
    moves: tuple[Move, ...] = ()
    ordered: bool = False
    options: tuple[str, ...] = ()
    race: Race | None = None
    notes: tuple[str, ...] = field(default=())

    def cards(self) -> dict[str, Card]:
        return {c.id: c for p in self.piles for c in p.cards}

    def with_facts(self, facts: Sequence[Fact], title: str | None = None) -> Scene:
        """This scene with facts put before its own (a match's score above a game's table)."""
        return Scene(title or self.title, self.kind, self.prompt, self.piles, (*facts, *self.facts), self.category,
                     self.moves, self.ordered, self.options, self.race, self.notes)


# ----- making cards ------------------------------------------------------------------------------
def state_card(c: int, id: str, *, selectable: bool = False, marks: Iterable[str] = (),
               word: str | None = None) -> Card:
    """A GeoPlunge card face up: the state's code, name and ranks."""
    return Card(id, POSTAL[c], NAMES[c], tuple(int(r) for r in RANKS[c]), True, selectable, tuple(marks),
                POSTAL[c] if word is None else word)


def hidden(id: str, marks: Iterable[str] = ()) -> Card:
    """A card face down: nothing of its state."""
    return Card(id, face_up=False, marks=tuple(marks))


def pile(name: str, title: str, cards: Iterable[int], prefix: str, *, selectable: Iterable[int] = (),
         marks: Callable[[int], Iterable[str]] = lambda c: ()) -> Pile:
    """A pile of face-up GeoPlunge cards, each id ``prefix-CODE``."""
    pick = set(selectable)
    return Pile(name, title, tuple(state_card(c, f"{prefix}-{POSTAL[c]}", selectable=c in pick, marks=marks(c))
                                   for c in cards))


def moves(decision, label: Callable, of: Callable) -> tuple[Move, ...]:
    """Every legal action of `decision` as a `Move`: ``of(action)`` gives (card ids, option
    parts), ``label(decision, action)`` its words."""
    out = []
    for i, action in enumerate(decision.legal):
        cards, option = of(action)
        out.append(Move(i, label(decision, action), tuple(cards), tuple(option)))
    return tuple(out)


# ----- the contract, checked ---------------------------------------------------------------------
class SceneError(GeolabError):
    """A scene that breaks its contract (a programming error in a game's views)."""


def check(scene: Scene, decision, label: Callable | None = None) -> None:
    """Raise `SceneError` unless `scene` is well formed for `decision`: ids unique, face-down
    cards bare, Map cards nameless; at a race no moves and a shape; else exactly one move a
    legal action (index i is ``decision.legal[i]``, labelled by ``label``), every card a move
    names is in the scene and selectable, every option has one part a named option, and no
    two moves select the same cards with the same option."""
    if not isinstance(scene, Scene):
        raise SceneError(f"{decision.kind}: a scene must be a geolab.scene.Scene, got {type(scene).__name__}")
    seen: set[str] = set()
    for p in scene.piles:
        for c in p.cards:
            if c.id in seen:
                raise SceneError(f"{decision.kind}: card id {c.id!r} is used twice")
            seen.add(c.id)
            if not c.face_up and (c.code or c.name or c.ranks or c.picture or c.word):
                raise SceneError(f"{decision.kind}: face-down card {c.id!r} shows its state")
            if c.kind == "map" and (c.code or c.name or c.ranks):
                raise SceneError(f"{decision.kind}: Map card {c.id!r} names its state")
            if any(m not in MARKS for m in c.marks):
                raise SceneError(f"{decision.kind}: card {c.id!r} has an unknown mark ({', '.join(c.marks)})")
    if scene.category is not None and scene.category not in range(len(CATEGORIES)):
        raise SceneError(f"{decision.kind}: category {scene.category!r}")
    cards = scene.cards()
    if decision.timed:
        if scene.moves or scene.race is None or not scene.race.shape:
            raise SceneError(f"{decision.kind}: a race lists no moves and says its claim's shape")
        for c in cards.values():
            if c.selectable and not c.word:
                raise SceneError(f"{decision.kind}: a card a claim may name ({c.id!r}) has no word")
        return
    if scene.race is not None:
        raise SceneError(f"{decision.kind}: a race's shape on a decision that is not a race")
    if [m.index for m in scene.moves] != list(range(len(decision.legal))):
        raise SceneError(f"{decision.kind}: the moves are not the legal actions in order")
    keys = set()
    for m in scene.moves:
        if label is not None and m.label != label(decision, decision.legal[m.index]):
            raise SceneError(f"{decision.kind}: move {m.index} is labelled {m.label!r}")
        for cid in m.cards:
            if cid not in cards or not cards[cid].selectable:
                raise SceneError(f"{decision.kind}: move {m.label!r} selects {cid!r}, not a selectable card here")
        if len(m.option) != (len(scene.options) if m.option else 0) or (not m.option and not m.cards
                                                                         and len(scene.moves) > 1):
            raise SceneError(f"{decision.kind}: move {m.label!r} has option {m.option!r} for {scene.options!r}")
        key = (m.cards if scene.ordered else tuple(sorted(m.cards)), m.option)
        if key in keys:
            raise SceneError(f"{decision.kind}: two moves select {key!r}")
        keys.add(key)
