"""What each page shows, from a rebuilt game (`geolab.web.sessions.Page`) and the game's own
views, for every game alike; and how a posted form is read back into a move. No I/O: the
routes (`geolab.web.app`) render these with the templates."""

from __future__ import annotations

import json
import re
import time
from urllib.parse import parse_qsl

from geolab.game import INT63_MAX, Decision, MoveError, shown
from geolab.games.race import LEVELS
from geolab.lab.play import PERSON, opponents, winner_of_series
from geolab.lab.racefit import spec_at
from geolab.stepwise import legal_index
from geolab.web.sessions import BadRequest, Page, Typed

MAX_FIELDS = 200  # a setup form holds one field a rules field, and a few more


# ----- forms -----------------------------------------------------------------------------------
def form_fields(body: bytes, content_type: str) -> dict[str, str]:
    """A posted form as field -> its one value; anything else (not a form, not UTF-8, a
    field twice, too many fields) is a `BadRequest`."""
    if content_type.split(";")[0].strip() != "application/x-www-form-urlencoded":
        raise BadRequest("expected a form (application/x-www-form-urlencoded)")
    try:
        pairs = parse_qsl(body.decode("utf-8"), keep_blank_values=True, strict_parsing=bool(body),
                          max_num_fields=MAX_FIELDS)
    except (UnicodeDecodeError, ValueError):
        raise BadRequest("the form could not be read") from None
    fields: dict[str, str] = {}
    for key, value in pairs:
        if key in fields:
            raise BadRequest(f"the form gives {key[:40]!r} twice")
        fields[key] = value
    return fields


def whole(text: str, what: str, most: int = INT63_MAX) -> int:
    """The one reading of every number a request carries (a form field, a header, a path):
    ASCII digits for 0 to `most`, else a one-line `BadRequest`. The digits are counted before
    `int` reads them, so no text (thousands of digits, a sign, a superscript) raises anything else."""
    text = text.strip()
    if not (text.isascii() and text.isdigit()) or len(text) > len(str(most)) or int(text) > most:
        raise BadRequest(f"{what}: expected a whole number from 0 to {most:,}, got {shown(text, 24)}")
    return int(text)


def one_line(error) -> str:
    """An error as the one line a page shows: any word over 60 characters cut (a user's text
    echoed back, thousands of digits or a long bot spec, must not hide the reason after it)."""
    words = [w if len(w) <= 60 else w[:56] + " ..." for w in str(error).split()]
    return " ".join(words)[:600]


def shown_value(value) -> str:
    """A rules field's value as the setup form shows it and ``--set`` reads it back."""
    if value is None:
        return "none"
    return value if isinstance(value, str) else json.dumps(value)


def chosen_rules(entry, fields: dict):
    """The rules a setup form names: its preset, with every field the form changed applied as
    ``--set field=value`` (`RulesBase.with_settings`). A ``set.`` field the rules do not have
    is refused there, in the words ``geolab ... --set`` uses."""
    Rules = entry.game.Rules
    base = Rules.preset(fields.get("preset", Rules.DEFAULT))
    now = {row["field"]: shown_value(row["value"]) for row in base.describe()}
    settings = [f"{key[4:]}={value}" for key, value in fields.items()
                if key.startswith("set.") and value.strip() != now.get(key[4:])]
    return base.with_settings(settings) if settings else base


def chosen(decision: Decision, views, fields: dict, say=lambda line: None):
    """The person's action from a move form: ``index`` (a confirmed selection: its place in
    the legal moves), ``cards`` (a race's claim, `claimed_text`), ``text`` (the box, read by
    the game's `Views.parse`; the views' note on words it did not need goes to `say`, as at
    the keyboard), or ``pass`` (at a race). At a race a claim comes with its words (`Typed`),
    from which the cards of a wrong claim are kept."""
    if "index" in fields:
        if decision.timed:  # a race's legal moves are its solutions: a claim is cards, never their index
            raise BadRequest("at a race, claim with the cards you select (or type them)")
        return decision.legal[whole(fields["index"], f"move (one of the {len(decision.legal)} legal moves here)",
                                    len(decision.legal) - 1)]
    if "pass" in fields:
        if not decision.timed:
            raise BadRequest("pass is only a race's answer")
        return None
    if "cards" in fields:
        if not decision.timed:
            raise BadRequest("cards alone are a race's claim: confirm a move")
        text = claimed_text(decision, views, fields)
        try:
            return Typed(views.parse(decision, text), text)
        except MoveError as error:
            raise BadRequest(str(error)) from None
    if "text" in fields:
        text = fields["text"]
        if len(text) > 300:
            raise BadRequest("a move is a line of at most 300 characters")
        if decision.timed and text.strip().lower() == "pass":
            return None
        try:
            action = views.parse(decision, text)
        except MoveError as error:
            raise BadRequest(str(error)) from None
        if legal_index(decision, action) < 0:  # a game's parser that let an illegal move through
            raise BadRequest(f"{views.label(decision, action)} is not legal here")
        note = views.note(decision, action, text)
        if note:
            say(note)
        return Typed(action, text) if decision.timed else action
    raise BadRequest("the form names no move (index, text or pass)")


# ----- pages -----------------------------------------------------------------------------------
def index(entries, saved: list, folder: str) -> dict:
    games = [{"name": e.name, "title": e.game.title, "about": e.definition.about,
              "presets": list(e.game.Rules.PRESETS)} for e in entries]
    return {"games": games, "saved": saved, "folder": folder}


def races_of(entry) -> str | None:
    """The parameter of the game's hint bot that takes an opponent level (``level``, else a
    ``race`` that names one), or None: a game without races."""
    if entry.hint is None:
        return None
    names = [p.name for p in entry.bots.info(entry.hint.split(":")[0]).params]
    return next((n for n in ("level", "race") if n in names), None)


def levels(entry, fitted=None) -> list[dict]:
    """The opponent levels the setup page offers where the game races (docs/race.md): the named
    speeds, and the adaptive one, the hint bot at the person's own fitted speed (`fitted`:
    the races and their `SpeedFit`, from the folder's sessions)."""
    key = races_of(entry)
    if key is None:
        return []
    out = [{"spec": f"{entry.hint.split(':')[0]}:{key}={name}", "label": f"{name} (search speed {speed:g})"}
           for name, speed in LEVELS.items()]
    if fitted is not None:
        races, fit = fitted
        out.append({"spec": spec_at(entry, fit.speed) or "",
                    "label": f"adaptive: your speed {fit.speed:.3g} (95% CI {fit.low:.3g}-{fit.high:.3g}, "
                             f"{fit.claims} claims in {races.sessions} sessions here)"})
    return [o for o in out if o["spec"]]


def setup(entry, preset: str, fitted=None) -> dict:
    """The setup form: the preset's fields, the seats, the bots that may sit at a table, and in
    a game with races the opponent levels (`levels`)."""
    rules = entry.game.Rules.preset(preset)
    seats = [entry.game.seat_name(rules, s) for s in range(entry.game.seats(rules))]
    table = [name for name in entry.bots.names() if not entry.bots.info(name).peeks]
    suggested = list(dict.fromkeys([*filter(None, [entry.hint]), *entry.simulate_bots.split(","), *table]))
    return {"entry": entry, "preset": preset, "presets": list(entry.game.Rules.PRESETS),
            "fields": [{**row, "text": shown_value(row["value"]), "parts": re.split(r"(?<=[._])", row["field"])}
                       for row in rules.describe()],
            "seats": seats, "bots": suggested, "default_bots": entry.hint or entry.simulate_bots,
            "bot_rows": [entry.bots.info(n).row() for n in table], "levels": levels(entry, fitted)}


def playing(page: Page, hint, served: float | None, error: str | None = None) -> dict:
    """A decision's page: the scene (`Views.scene`: cards, piles, facts, the legal moves as
    cards and options), what happened since the person's last move, the keyboard's screen as
    text. A fact's picture (a race's lesson map) is drawn open the first time, folded on the
    pages after (`old_pictures`), as events already seen are. At a race (`served`: when its
    page was first served) only the person's own elapsed time: nothing of the rivals' claims,
    nor any move, is on the page (the server judges)."""
    match, decision, views = page.match, page.decision, page.views
    events = views.events(decision)
    since = min(page.since(), len(events))
    scene = views.scene(decision)
    hinted = None if hint is None else {"index": legal_index(decision, hint[0]),
                                        "label": views.label(decision, hint[0]),
                                        "reason": hint[1]}
    race = None if not decision.timed else {"elapsed": round(time.time() - served, 1),
                                            "shape": list(scene.race.shape), "what": scene.race.what,
                                            "ordered": scene.race.ordered,
                                            "options": [list(o) for o in scene.race.options]}
    data = {"moves": [[m.index, list(m.cards), list(m.option)] for m in scene.moves], "ordered": scene.ordered,
            "options": list(scene.options), "category": scene.category, "race": race,
            "hint": None if hinted is None else hinted["index"], "poll": f"/g/{page.id}/race?n={page.length}"}
    seen = page.pictures_seen()  # shown at the person's last decision: folded away now
    pictures = [f for f in scene.facts if f.picture]
    return {**header(page), "decision": decision, "scene": scene, "data": data, "screen": views.screen(decision),
            "pictures": [f for f in pictures if f.picture not in seen],
            "old_pictures": [f for f in pictures if f.picture in seen],
            "prompt": views.prompt(decision).rstrip(" >"), "help": views.help(decision),
            "old_events": events[:since], "new_events": events[since:], "hint": hinted, "race": race,
            "error": error, "length": page.length,
            "undo": any(d.seat == match.you and not d.timed for d, _ in page.moves)}


def claimed_text(decision: Decision, views, fields: dict) -> str:
    """A race's claim posted as cards (``cards``: the scene's card ids, groups split by ``|``,
    and ``option``: one of the race's option words) as the words `Views.parse` reads: each
    card's word, groups split by ``/``. Anything that is not the claim's shape, of selectable
    cards of this scene, is a `BadRequest`."""
    scene = views.scene(decision)
    race, cards = scene.race, scene.cards()
    text = fields.get("cards", "")
    if len(text) > 600:
        raise BadRequest("a claim names at most a few dozen cards")
    groups = [[c for c in g.split(",") if c] for g in text.split("|")]
    if [len(g) for g in groups] != list(race.shape):
        raise BadRequest(f"a claim here is {race.what}: select {' and '.join(map(str, race.shape))} cards")
    words = []
    for group in groups:
        for cid in group:
            if cid not in cards or not cards[cid].selectable:
                raise BadRequest(f"{shown(cid, 24)} is not a card you may claim with")
        words.append(" ".join(cards[cid].word for cid in group))
    option = fields.get("option", "")
    if option not in [word for _, word in race.options] + ([""] if not race.options else []):
        raise BadRequest(f"option {shown(option, 24)} is not one of this claim's")
    return " / ".join(words) + (f" {option}" if option else "")


def ended(page: Page, review: list) -> dict:
    """The end: the verdict (the ending's last line), the last moves, every game whole, the
    review where the game has one, and the records."""
    match, views = page.match, page.views
    games = []
    for k, played in enumerate(match.played):
        lines = views.ending(played, match.you)
        last = lines[min(page.since(), len(lines) - 1):] if k == len(match.played) - 1 else []
        games.append({"number": k + 1, "lines": lines, "last": last, "pictures": views.pictures(played, match.you),
                      "review": review[k] if k < len(review) else [], "record": f"/g/{page.id}/record/{k + 1}"})
    verdict = games[-1]["lines"][-1] if games and games[-1]["lines"] else ""
    won = series_winner(page)
    return {**header(page), "games": games, "verdict": f"{verdict} {won}" if won else verdict}


def header(page: Page) -> dict:
    match = page.match
    game, rules = match.game, match.rules
    spec = rules.to_spec()
    earlier = [{"number": k + 1, "lines": game.views.ending(p, match.you)} for k, p in enumerate(match.played)]
    return {"title": game.title, "id": page.id, "game_name": match.entry.name, "notes": page.notes,
            "rules": spec if isinstance(spec, str) else json.dumps(spec), "seed": match.seed,
            "you": game.seat_name(rules, match.you), "against": opponents(match), "series": series(page),
            "earlier": earlier if page.decision is not None else []}


def totals(page: Page) -> list[int]:
    """Each seat's points toward the series from the games played so far."""
    match = page.match
    points = [0] * match.game.seats(match.rules)
    for played in match.played:
        for s, p in enumerate(match.game.deal_points(played)):
            points[s] += int(p)
    return points


def series_winner(page: Page) -> str:
    """Who won the series ("You won the series."), or nothing (no series, or not decided)."""
    match = page.match
    target = match.game.series_target(match.rules)
    best = None if target is None else winner_of_series(totals(page), target)
    if best is None:
        return ""
    return "You won the series." if best == match.you else f"{match.game.seat_name(match.rules, best)} won the series."


def series(page: Page) -> str | None:
    """Where a series stands (games that play to a target of points), else None."""
    match = page.match
    game, rules = match.game, match.rules
    target = game.series_target(rules)
    if target is None:
        return None
    text = ", ".join(f"{PERSON if s == match.you else game.seat_name(rules, s)} {t}"
                     for s, t in enumerate(totals(page)))
    return f"game {len(match.played) + (page.decision is not None)}; series: {text} (first to {target})"
