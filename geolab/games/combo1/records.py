"""Combo 1 match records: write any reference-engine match, replay and check any record.

A record's body holds ``games``: each game of the match, in play order, as that game's own
whole record without a result of its own (its ``game`` says which: ``border-up``,
``state-iq``, ``dashing-states``, ``play-the-ranks``), and for an afternoon match the ``draw``
(``{"A": "OH", "B": "NY"}``: the statehood draw that says who chooses first) and the
``picks`` (the two games chosen, in order, by their `GAMES` names). A Play the Ranks game
whose first lead a statehood draw gave (no Dashing States won before it in the match) also
holds that ``draw``, next to its ``first_lead``: its own record keeps only the lead, and replay
checks the lead against the draw (State IQ's own record already holds its draw). A record made
before the match kept this draw lacks it where it is needed, and is refused in one line that
says so. What else the match adds to its games (when each began, its seconds, whether it
counted, who went first, a tie-breaker) follows from them and is the report's, not the record's.

Replay reads each game's record with its own records module (every check of its deal and
decisions is that game's), then steps the match's reference engine with those decisions, so
every check of the match is the engine's own; each problem is one `RecordError` line that
names the place (``games[3].phases[0].guesses[1]: ...``). An accepted record is the record of
the match it replays to.
"""

from __future__ import annotations

from dataclasses import replace

from geolab.cards import POSTAL
from geolab.errors import RecordError
from geolab.game import CARD_OF, Decision, record_choice, record_rules, replayed, shown
from geolab.games.borderup import records as border_up_records
from geolab.games.borderup import reference as border_up
from geolab.games.combo1.reference import (
    ENGINE,
    SIDES,
    Deal,
    GamePlayed,
    Pick,
    Played,
    answered,
    drawn,
    final_decided,
    first_player,
)
from geolab.games.combo1.rules import BORDER_UP, DASHING, GAMES, RANKS, STATE_IQ, TITLES, Rules
from geolab.games.dashing import records as dashing_records
from geolab.games.dashing import reference as dashing
from geolab.games.ranks import records as ranks_records
from geolab.games.ranks import reference as ranks
from geolab.games.stateiq import records as state_iq_records
from geolab.recorded import replay_seats, written

GAME = "combo1"
BODY_KEYS = ("draw", "picks", "games")
#: Each game's records module, in `GAMES` order.
RECORDS = (border_up_records, state_iq_records, dashing_records, ranks_records)
KIND_OF = {module.GAME: g for g, module in enumerate(RECORDS)}


# ----- writing ---------------------------------------------------------------------------------
def inner_record(game: int, played) -> dict:
    """A game's own record without its result (the match's result says what happened)."""
    record = RECORDS[game].to_record(played)
    record.pop("result", None)
    return record


def _sides(draw) -> dict:
    return {SIDES[s]: POSTAL[draw[s]] for s in (0, 1)}


def game_record(g: GamePlayed) -> dict:
    """One game of the match as the match records it: its own record without its result; a
    Play the Ranks game whose first lead a statehood draw gave also holds that ``draw``
    (its own record keeps only the lead, which the match must check against the draw)."""
    record = inner_record(g.game, g.played)
    if g.game == RANKS and g.draw is not None:  # the draw next to the lead it gave
        at = list(record).index("first_lead")
        items = list(record.items())
        record = dict([*items[:at], ("draw", _sides(g.draw)), *items[at:]])
    return record


def to_record(played: Played, seed: int | None = None, players=None) -> dict:
    body: dict = {}
    if played.choice_draw is not None:
        body["draw"] = _sides(played.choice_draw)
        body["picks"] = [GAMES[p] for p in played.picks]
    body["games"] = [game_record(g) for g in played.games]
    return written(GAME, played, body, report, seed, players)


def _side(w) -> str | None:
    return None if w is None else SIDES[w]


def report(played: Played) -> dict:
    """What happened, as `geolab replay --json` prints it: the winner (null: a tie), the games
    won, who chose first (the afternoon) and each game: which, its winner, when it began, its
    seconds, whether it counted, who took its first turn (null: a draw, or not that kind of
    game) and whether it was a tie-breaker."""
    wins = played.wins
    out = {"winner": _side(played.winner), "wins": {"A": wins[0], "B": wins[1]},
           "games_played": len(played.games), "clock": float(played.clock)}
    if played.chooser is not None:
        out["chooser"] = SIDES[played.chooser]
    out["games"] = [{"game": GAMES[g.game], "winner": _side(g.winner), "start": float(g.start),
                     "seconds": float(g.seconds), "counted": bool(g.counted), "first": _side(g.first),
                     "tiebreak": bool(g.tiebreak)} for g in played.games]
    return out


# ----- reading -----------------------------------------------------------------------------------
class _Game:
    """One game as the record tells it: its kind, its own replay, and its deal for the match."""

    def __init__(self, entry, k: int, rules: Rules):
        self.where = where = f"games[{k}]"
        if not isinstance(entry, dict):
            raise RecordError(f"{where}: expected a game's record")
        kind = record_choice(entry.get("game"), KIND_OF, f"{where}.game")
        if "result" in entry:
            raise RecordError(f"{where}.result: a game of the match holds no result (the match's result says "
                              "what happened)")
        self.kind = g = KIND_OF[kind]
        module = RECORDS[g]
        self.draw = None  # Play the Ranks' first-lead draw, the match's addition to its record
        if g == RANKS and "draw" in entry:
            self.draw = _draw(entry, f"{where}.draw")
            entry = {k: v for k, v in entry.items() if k != "draw"}
        try:
            self.played = replayed(entry, module.GAME, module.replay_game, module.report, module.BODY_KEYS)
        except RecordError as error:
            raise RecordError(f"{where}.{error}") from None
        if self.played.rules != rules.stage(g):
            raise RecordError(f"{where}.rules: not the match's rules of {TITLES[g]}")

    def deal(self):
        """The game's deal as the match deals it (its first turn given where the record gives it)."""
        p, g = self.played, self.kind
        if g == BORDER_UP:
            return border_up.Deal(tuple(p.deals))
        if g == STATE_IQ:
            return p.deal
        if g == DASHING:
            return dashing.Deal(tuple(p.hands))
        return ranks.Deal(tuple(p.hands), self.draw, p.power_bases, p.first_lead)

    def given_first(self) -> int | None:
        """The first turn the record gives (State IQ's ``first``, Play the Ranks' first lead)."""
        if self.kind == STATE_IQ:
            return self.played.deal.first
        return self.played.first_lead

    def answer(self, decision: Decision, seat: int):
        """The record's answer to one of this game's decisions (its own view in `decision`)."""
        return answered(self.kind, self.played, decision.observation, decision.kind, seat, decision.timed)


def _checked_first(rules: Rules, game: _Game, view) -> None:
    """The first turn the record's game was played with is the one the match gives."""
    want = first_player(rules, view.past, game.kind)
    given = game.given_first()
    decider = TITLES[BORDER_UP if game.kind == STATE_IQ else DASHING]
    if game.kind == STATE_IQ and want is None and given is not None:
        raise RecordError(f"{game.where}.first: given, but no {decider} winner gives it here: a statehood draw does "
                          "(give draw)")
    if want is not None and given != want:
        key = "first" if game.kind == STATE_IQ else "first_lead"
        raise RecordError(f"{game.where}.{key}: the record says {_side(given) or 'a draw'}, but {SIDES[want]} won "
                          f"the {decider} that gives it")
    if game.kind != RANKS:
        return  # State IQ's own record holds its draw, and its engine checks the first guesser against it
    if want is not None and game.draw is not None:
        raise RecordError(f"{game.where}.draw: no draw here: {SIDES[want]} won the {decider} that gives the first lead")
    if want is None and game.draw is None:
        raise RecordError(f"{game.where}.draw: missing: no {decider} winner gives the first lead here, a statehood "
                          "draw does: give it (a record made before the match kept this draw has only first_lead)")
    if want is None and drawn(game.draw) != given:
        cards = " v ".join(f"{SIDES[s]} {POSTAL[game.draw[s]]}" for s in (0, 1))
        raise RecordError(f"{game.where}.first_lead: the record says {SIDES[given]}, but the statehood draw "
                          f"({cards}) gives {SIDES[drawn(game.draw)]}")


class _Recorded:
    """A team that plays what the record says, and says where the record runs out."""

    def __init__(self, rules: Rules, games: list[_Game], picks: list[int] | None, seat: int):
        self.rules, self.games, self.picks, self.seat = rules, games, picks, seat

    def act(self, decision: Decision):
        view = decision.observation
        if decision.kind == "choose":
            n = len(view.picks)
            if self.picks is None or n >= len(self.picks):
                raise RecordError(f"picks: {0 if self.picks is None else len(self.picks)} recorded, the match asks "
                                  "for two")
            return Pick(self.picks[n])
        k = view.index
        if k >= len(self.games):
            raise RecordError(f"games: {len(self.games)} recorded, the match is not over")
        game = self.games[k]
        if game.kind != view.game:
            raise RecordError(f"{game.where}: a {TITLES[game.kind]} game, but the match plays {TITLES[view.game]} here")
        if game.kind in (STATE_IQ, RANKS):
            _checked_first(self.rules, game, view)
        inner = Decision(decision.seat, decision.kind, view.inner, decision.legal, decision.where, decision.timed)
        try:
            return game.answer(inner, self.seat)
        except (IndexError, KeyError, TypeError):  # the game's record ran out where the match plays on
            raise RecordError(f"{game.where}: not the game the match plays ({decision.where})") from None


def _draw(record: dict, where: str = "draw") -> tuple[int, int]:
    """A statehood draw (the afternoon's, or a Play the Ranks first lead's) at ``record["draw"]``."""
    draw = record.get("draw")
    if not isinstance(draw, dict) or set(draw) != set(SIDES):
        what = "the afternoon's" if where == "draw" else "the first lead's"
        raise RecordError(f"{where}: expected {what} statehood draw, an object with keys A and B")
    cards = []
    for s in SIDES:
        if not isinstance(draw[s], str) or draw[s] not in CARD_OF:
            raise RecordError(f"{where}.{s}: unknown postal code {shown(draw[s])}")
        cards.append(CARD_OF[draw[s]])
    if cards[0] == cards[1]:
        raise RecordError(f"{where}: A and B drew the same card {POSTAL[cards[0]]}")
    return cards[0], cards[1]


def _picks(record: dict) -> list[int]:
    picks = record.get("picks")
    if not isinstance(picks, list) or len(picks) != 2:
        raise RecordError("picks: expected the two games chosen, in order")
    return [GAMES.index(record_choice(p, GAMES, f"picks[{k}]")) for k, p in enumerate(picks)]


def replay_game(record: dict) -> Played:
    """Parse and replay a record with the reference engine; any problem is a `RecordError`."""
    rules = record_rules(Rules, record)
    afternoon = rules.round == "afternoon"
    for key in ("draw", "picks"):
        if (key in record) != afternoon:
            raise RecordError(f"{key}: {'missing' if afternoon else 'only an afternoon match has one'}")
    listed = record.get("games")
    if not isinstance(listed, list) or not listed:
        raise RecordError("games: expected the match's games (each game's own record)")
    draw, picks = (_draw(record), _picks(record)) if afternoon else (None, None)
    games = [_Game(entry, k, rules) for k, entry in enumerate(listed)]
    deals = tuple(tuple(g.deal() for g in games if g.kind == kind) for kind in range(len(GAMES)))
    seats = [_Recorded(rules, games, picks, s) for s in (0, 1)]
    over = f"games: {len(games)} recorded, the match is not over"
    played = replay_seats(ENGINE, rules, Deal(deals, draw), seats,
                          lambda text: over if text.startswith("deal:") and "is not dealt" in text else text)
    if len(games) > len(played.games):
        where = f"games[{len(played.games)}]"
        if final_decided(rules, played.games) and not final_decided(replace(rules, early_stop="literal"), played.games):
            raise RecordError(f"{where}: played after the final ended (two wins and a tie among its first three games "
                              "end it, early_stop=decided; a final played on with game 3 not the tie says so in its "
                              "rules: early_stop=literal)")
        raise RecordError(f"{where}: played after the match ended")
    for mine, theirs in zip(played.games, games):
        if mine.game != theirs.kind:  # a game that asked nothing (a Border-Up no hand could win)
            raise RecordError(f"{theirs.where}: a {TITLES[theirs.kind]} game, but the match plays {TITLES[mine.game]} "
                              "here")
        if mine.game == RANKS:
            mine.played.discards = theirs.played.discards  # the record's order, as laid
    return played
