"""A person's race speed, fitted to their own timed claims (`geolab race-fit`, and the web's
*adaptive* opponent level): every race of a saved session (`geolab play`'s files and the web's
folder, the same format) is replayed move by move, and each race the person ran that is a
search of a hand for solutions (`Views.race_search`: the hand's cards and its solutions) gives
the seconds they claimed at, or, where they passed or a rival claimed first, the seconds they
had searched without a claim (right-censored). `geolab.games.race.fit_speed` fits the race
model's speed to them by maximum likelihood, with its 95 % profile-likelihood interval, so a
bot at that speed races the person about evenly (docs/race.md).

Game-agnostic: which races count, and their size, are the games' views' to say."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from geolab import records
from geolab.errors import GeolabError, RecordError
from geolab.games.race import SpeedFit, fit_speed
from geolab.lab.play import SESSION_FORMAT, play_match, read_session

#: Where sessions are kept unless told: `geolab play`'s and `geolab serve`'s folders.
FOLDERS = ("~/.geolab/games", "~/.geolab/web")


@dataclass
class Races:
    """The person's races read from sessions: per race the hand's cards, its solutions, the
    seconds and whether they claimed then; the sessions they came from and the games."""

    cards: list[int] = field(default_factory=list)
    solutions: list[int] = field(default_factory=list)
    seconds: list[float] = field(default_factory=list)
    claimed: list[bool] = field(default_factory=list)
    sessions: int = 0
    games: set[str] = field(default_factory=set)
    skipped: list[str] = field(default_factory=list)  # folder files that are not readable sessions, with why

    def add_session(self, record) -> None:
        """Every race of the person's in one session file (checked by replaying it: a
        `RecordError` line where it does not replay)."""
        match, games = read_session(record)
        views, found = match.game.views, []

        def watch(k, decision, action):
            if not decision.timed or decision.seat != match.you:
                return
            size = views.race_search(decision)
            if size is not None:
                found.append((size, float(action.seconds), action.action is not None))

        play_match(match, None, lambda line: None, games, watch=watch)
        for (cards, solutions), seconds, claimed in found:
            self.cards.append(cards)
            self.solutions.append(solutions)
            self.seconds.append(seconds)
            self.claimed.append(claimed)
        self.sessions += 1
        if found:
            self.games.add(match.entry.name)

    def fit(self) -> SpeedFit:
        """The speed fit (`fit_speed`); no claim to fit is a `GeolabError` line."""
        if not any(self.claimed):
            where = f"{self.sessions} session{'s' if self.sessions != 1 else ''}"
            raise GeolabError(f"race-fit: no timed claims of yours in {where} (a race that is a search of your "
                              "hand for groups, in which you claimed; geolab race-fit --help)")
        try:
            return fit_speed(self.cards, self.solutions, self.seconds, self.claimed)
        except ValueError as error:
            raise GeolabError(f"race-fit: {error}") from None


def read_races(files=(), folders=()) -> Races:
    """The races of the session `files` (each must be a session that replays: else one
    `RecordError` line naming it) and of every session in `folders` (files that are not
    sessions, such as the web's records and notes, are passed over; a damaged session is
    noted in ``skipped``)."""
    races = Races()
    for path in files:
        record = records.load(path)
        if not isinstance(record, dict) or record.get("format") != SESSION_FORMAT:
            raise RecordError(f"{path}: not a session file (format {SESSION_FORMAT!r}, as geolab play and geolab "
                              "serve save them)")
        try:
            races.add_session(record)
        except GeolabError as error:
            raise RecordError(f"{path}: {error}") from None
    for folder in folders:
        for path in sorted(Path(folder).expanduser().glob("*.json")):
            try:
                record = records.load(path)
                if isinstance(record, dict) and record.get("format") == SESSION_FORMAT:
                    races.add_session(record)
            except GeolabError as error:
                races.skipped.append(f"{path.name}: {error}")
    return races


def spec_at(entry, speed: float) -> str | None:
    """The game's hint bot at `speed` (``racer:speed=0.31``), where its spec takes a speed."""
    head = None if entry.hint is None else entry.hint.split(":")[0]
    if head is None or "speed" not in [p.name for p in entry.bots.info(head).params]:
        return None
    return f"{head}:speed={speed:.3g}"


def summary(races: Races, fitted: SpeedFit) -> str:
    """`geolab race-fit`'s one line: the speed, its interval, what it rests on."""
    censored = f" and {fitted.censored} race{'s' if fitted.censored != 1 else ''} a rival won before you claimed" \
        if fitted.censored else ""
    games = ", ".join(sorted(races.games))
    skipped = f"; {len(races.skipped)} damaged session file(s) passed over" if races.skipped else ""
    return (f"race speed {fitted.speed:.3g} (95% CI {fitted.low:.3g}-{fitted.high:.3g}, profile likelihood) from "
            f"{fitted.claims} timed claim{'s' if fitted.claims != 1 else ''}{censored}, in {races.sessions} "
            f"session{'s' if races.sessions != 1 else ''} ({games}){skipped}")
