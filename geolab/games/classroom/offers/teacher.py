"""A real class's round, run by its teacher (`geolab class-round`): the class sheet (names,
groups, each round's call, GeoPower card and every student's kept cards), judged by the
reference engine, the equilibrium advice afterwards, and the sheet's JSON file.

Judging is the reference engine's own (`geolab.games.classroom.reference.steps`), stepped by
chance from what the teacher entered: the call, each student's cards as the deck's cards
dealt, the discards, the GeoPower card. So sums, winners, ties, who reaches the Championship
and when it is replayed are exactly the rules' (docs/rules-classroom.md, R4-R6, F1-F3). A
student whose discard was not entered is dealt, as its third card, a card nobody in its deck
named: the discard never counts in a sum, so the judging is the same whatever it was.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from geolab.cards import CATEGORIES, N_CARDS, POSTAL, RANKS
from geolab.errors import GeolabError, RecordError, RulesError
from geolab.game import check_format, shown
from geolab.games.classroom.observations import Seen
from geolab.games.classroom.reference import CALL_OUTCOME, CATEGORY_OUTCOME, ENGINE, GameLog, seen
from geolab.games.classroom.rules import CALLS, STARTING, Rules
from geolab.games.classroom.views import CALL_NAMES, CALL_SUMS, TITLES, WORDS, ClassViews, read_card, stage_title

FORMAT = "geolab-class-round/1"
GAME = "class"
#: Rules fields the class entered decides, never ``--set``: its size, its groups, the call
#: (said each round) and the hand (the equilibrium advice is for three cards, one discarded).
FIXED = ("students", "groups", "call", "dealt", "discarded")
KEPT = 2
MAX_NAME = 30
CALL_WORDS = {"top dog": 0, "top-dog": 0, "topdog": 0, "top": 0, "td": 0,
              "bottoms up": 1, "bottoms-up": 1, "bottomsup": 1, "bottom": 1, "bottoms": 1, "bu": 1}


class EntryError(GeolabError):
    """An entry the sheet refuses (an unknown card, a card twice in a deck, a wrong count, a
    name twice): one line; the teacher is asked again and nothing entered is lost."""


# ----- reading a teacher's words -----------------------------------------------------------
def read_call(text: str) -> int:
    """Top Dog (0) or Bottoms Up (1) from the words a teacher types."""
    word = " ".join(text.lower().replace("_", " ").split())
    if word not in CALL_WORDS:
        raise EntryError(f"{shown(text.strip(), 20)} is not a call: type top dog or bottoms up")
    return CALL_WORDS[word]


def read_category(text: str) -> int:
    """The GeoPower card's category from its word or an unambiguous start of it (si, st, po)."""
    word = text.strip().lower()
    found = [c for c, name in enumerate(CATEGORIES) if len(word) >= 2 and name.startswith(word)]
    if len(found) != 1:
        raise EntryError(f"{shown(text.strip(), 20)} is not a GeoPower card: type size, statehood or population")
    return found[0]


def read_cards(text: str) -> tuple[int, ...]:
    """A student's cards as typed: the two kept, then optionally the discarded one, by postal
    code or name (``CA TX``, ``CA TX / NY``, ``california, new york, texas``)."""
    kept_text, slash, discard_text = text.partition("/")
    groups = [kept_text, discard_text] if slash else [kept_text]
    parts = []
    for part in groups:
        typed = part.replace(",", " ").split()
        words, cards, i = [w.lower() for w in typed], [], 0
        while i < len(words):
            card, used = read_card(words, i)
            if card is None:
                raise EntryError(f"{shown(typed[i], 16)} is not a card: give postal codes or state names (CA TX)")
            cards.append(card)
            i += used
        parts.append(cards)
    cards = [c for part in parts for c in part]
    if slash and (len(parts[0]) != KEPT or len(parts[1]) != 1):
        raise EntryError(f"{len(parts[0])} kept and {len(parts[1])} discarded: two kept, then the discarded one "
                         "(CA TX / NY)")
    if len(cards) not in (KEPT, KEPT + 1):
        raise EntryError(f"{len(cards)} card{'' if len(cards) == 1 else 's'}: give the two kept cards, the "
                         "discarded one after a slash (CA TX / NY)")
    twice = next((c for c in cards if cards.count(c) > 1), None)
    if twice is not None:
        raise EntryError(f"{POSTAL[twice]} is named twice: a student holds different cards")
    return tuple(cards)


def read_names(text: str) -> list[str]:
    """Students' names from one line, separated by commas (a name may hold spaces)."""
    names = [" ".join(n.split()) for n in text.split(",")]
    names = [n for n in names if n]
    for name in names:
        if "/" in name or len(name) > MAX_NAME:
            raise EntryError(f"{shown(name, 20)}: a name has at most {MAX_NAME} characters and no slash")
    return names


# ----- the sheet ---------------------------------------------------------------------------
@dataclass
class Entered:
    """One round as the teacher entered it: the call, the GeoPower card turned, and each
    student's cards (seat -> kept, kept[, discarded]), in the order entered."""

    call: int | None = None
    category: int | None = None
    cards: dict[int, tuple[int, ...]] = field(default_factory=dict)


@dataclass
class Sheet:
    """A class as its teacher enters it: names in the order typed, then the groups (names a
    group, the larger groups first: seats run group by group, as `Rules.groups_of` has them),
    then the rounds. `settings` are the rules fields changed with ``--set``."""

    settings: Rules = field(default_factory=Rules)
    names: list[str] = field(default_factory=list)
    names_done: bool = False
    groups: list[list[str]] | None = None
    rounds: list[Entered] = field(default_factory=list)

    @property
    def seats(self) -> list[str]:
        """Every student's name by seat (group by group)."""
        return [n for g in self.groups or [] for n in g]

    @property
    def rules(self) -> Rules:
        return class_rules(self.settings, len(self.names), len(self.groups or ()) or 2)

    # --- entries, each checked before it is kept -------------------------------------------
    def add_names(self, names: list[str]) -> None:
        known = {n.lower() for n in self.names}
        for name in names:
            if name.lower() in known:
                raise EntryError(f"{name} is already in the class: give each student a different name")
            known.add(name.lower())
        if len(self.names) + len(names) > self.settings.max_students:
            raise EntryError(f"{len(self.names) + len(names)} students: the class plays at most "
                             f"{self.settings.max_students}")
        self.names += names

    def end_names(self) -> None:
        lo, hi = self.settings.min_students, self.settings.max_students
        if not lo <= len(self.names) <= hi:
            raise EntryError(f"{len(self.names)} students: the game is for {lo} to {hi} "
                             f"(add names{', or --set min_students=N' if len(self.names) < lo else ''})")
        self.names_done = True

    def group_counts(self) -> list[int]:
        """The numbers of groups the rules allow for this class."""
        ok = []
        for g in range(2, len(self.names) + 1):
            try:
                class_rules(self.settings, len(self.names), g)
            except RulesError:
                continue
            ok.append(g)
        return ok

    def set_groups(self, text: str) -> None:
        """A number of groups (split in the order typed, as equal as possible: C2), or the
        groups by name, ``Ana, Ben / Cy, Dee``."""
        text = text.strip()
        if text.isdigit():
            g = int(text)
            if g not in self.group_counts():
                raise EntryError(f"{g} groups: the rules allow {count_words(self.group_counts())} for "
                                 f"{len(self.names)} students")
            sizes = class_rules(self.settings, len(self.names), g).group_sizes()
            edges = np.cumsum((0, *sizes))
            self.groups = [self.names[edges[i]:edges[i + 1]] for i in range(g)]
            return
        self.groups = split_groups(self.settings, self.names, [read_names(part) for part in text.split("/")])

    def enter_call(self, call: int) -> None:
        self._current().call = call

    def enter_category(self, category: int) -> None:
        self._current().category = category

    def enter_cards(self, seat: int, cards: tuple[int, ...], plan) -> None:
        """Student `seat`'s cards in the round being entered, checked against its deck: a card
        is dealt once a deck (a round's students share one deck; two decks only where the
        rules deal from two)."""
        entered = self._current()
        deck = next(d for d in plan[1] if seat in d)
        names = self.seats
        for other in deck:
            held = entered.cards.get(other, ())
            for c in cards:
                if other != seat and c in held:
                    how = "discarded" if held.index(c) == KEPT else "kept"
                    raise EntryError(f"{POSTAL[c]} is already {names[other]}'s ({how}): each card is dealt once a "
                                     "deck")
        entered.cards[seat] = cards

    def start_round(self) -> None:
        """Open the next round's entries (the loop does, once the rounds entered are judged)."""
        self.rounds.append(Entered())

    def _current(self) -> Entered:
        return self.rounds[-1]

    def undo(self) -> str | None:
        """Take back the last entry; what it was, or None when nothing is entered."""
        if self.rounds:
            last = self.rounds[-1]
            if last.cards:
                seat = list(last.cards)[-1]
                cards = last.cards.pop(seat)
                return f"{self.seats[seat]}'s cards {_codes(cards)}"
            if last.category is not None:
                last.category = None
                return "the GeoPower card"
            if last.call is not None:
                last.call = None
                return "the call"
            self.rounds.pop()
            return self.undo()
        if self.groups is not None:
            self.groups = None
            return "the groups"
        if self.names_done:
            self.names_done = False
            return "the end of the class list"
        if self.names:
            return f"the name {self.names.pop()}"
        return None


def class_rules(settings: Rules, students: int, groups: int) -> Rules:
    """The rules of this class: the settings, its size and groups; the call is said each round
    (entered, so a chance outcome of the engine: ``random``)."""
    return settings.replace(students=students, groups=groups, call="random").validate()


def split_groups(settings: Rules, names: list[str], groups: list[list[str]]) -> list[list[str]]:
    """The teacher's own groups, checked: every student once, sizes as equal as possible (C2:
    they differ by at most one), ordered larger first (stable) as the rules seat them."""
    where = {n.lower(): n for n in names}
    seen_names: set[str] = set()
    for group in groups:
        if not group:
            raise EntryError("an empty group: separate groups with one slash (Ana, Ben / Cy, Dee)")
        for name in group:
            if name.lower() not in where:
                raise EntryError(f"{shown(name, 20)} is not in the class list")
            if name.lower() in seen_names:
                raise EntryError(f"{where[name.lower()]} is in two groups")
            seen_names.add(name.lower())
    missing = [n for n in names if n.lower() not in seen_names]
    if missing:
        raise EntryError(f"{', '.join(missing[:3])}{' ...' if len(missing) > 3 else ''} in no group: "
                         "put every student in one group")
    sizes = sorted(len(g) for g in groups)
    if sizes[-1] - sizes[0] > 1:
        raise EntryError(f"group sizes {', '.join(str(len(g)) for g in groups)} differ by more than one: groups are "
                         "as equal as possible")
    try:
        class_rules(settings, len(names), len(groups))
    except RulesError as error:
        raise EntryError(str(error)) from None
    ordered = sorted(groups, key=len, reverse=True)
    return [[where[n.lower()] for n in g] for g in ordered]


def count_words(counts: list[int]) -> str:
    """"2-6 groups", or "2, 4, 6 groups" where some counts between cannot be played."""
    if not counts:
        return "no number of groups"
    return f"{counts[0]}-{counts[-1]} groups" if counts == list(range(counts[0], counts[-1] + 1)) \
        else ", ".join(map(str, counts)) + " groups"


def _codes(cards) -> str:
    kept = " ".join(POSTAL[c] for c in cards[:KEPT])
    return kept + (f" / {POSTAL[cards[KEPT]]}" if len(cards) > KEPT else "")


# ----- judging: the reference engine, stepped from the entries -----------------------------------
@dataclass
class Judged:
    """The class as the rules judge it so far: every finished round as the class saw it, each
    dealt student's discard decision in it (`geolab.game.Decision`: its `View`), the next
    round's plan (stage, students a deck, contests; `Rules.next_round`) or None, and at the
    end the engine's `GameLog`."""

    history: tuple[Seen, ...]
    decisions: list[dict]
    plan: tuple | None
    played: GameLog | None


def _dealt(plan, entered: Entered) -> dict[int, tuple[int, ...]]:
    """Every student's three cards, the discard last: a discard not entered is the first card
    nobody in the deck named."""
    hands = {}
    for deck in plan[1]:
        named = {c for s in deck for c in entered.cards[s]}
        spare = iter(c for c in range(N_CARDS) if c not in named)
        for s in deck:
            cards = entered.cards[s]
            hands[s] = cards if len(cards) > KEPT else (*cards, next(spare))
    return hands


def complete(entered: Entered, plan) -> bool:
    return entered.call is not None and entered.category is not None and \
        all(s in entered.cards for deck in plan[1] for s in deck)


def judge(sheet: Sheet) -> Judged:
    """Step the reference engine through every complete round of the sheet."""
    rules = sheet.rules
    state = ENGINE.state(rules)
    history: tuple[Seen, ...] = ()
    decisions: list[dict] = []
    plan = rules.next_round(history)
    for entered in sheet.rounds:
        if plan is None or not complete(entered, plan):
            break
        hands = _dealt(plan, entered)
        state.apply_chance(CALL_OUTCOME + entered.call)
        for deck in plan[1]:
            for s in deck:
                for card in hands[s]:
                    state.apply_chance(card)
        decisions.append({d.seat: d for d in state.decisions()})
        state.apply({s: hands[s][-1] for s in state.to_move()})
        state.apply_chance(CATEGORY_OUTCOME + entered.category)
        if state.is_over():
            return Judged(tuple(seen(r) for r in state.played.rounds), decisions, None, state.played)
        history = state.observe(0).history
        plan = rules.next_round(history)
    return Judged(history, decisions, plan, None)


# ----- what the class is shown -------------------------------------------------------------
def round_lines(sheet: Sheet, judged: Judged, index: int) -> list[str]:
    """Round `index` judged: each contest's kept cards, ranks and sums, its winners and ties."""
    rules, rnd, names = sheet.rules, judged.history[index], sheet.seats
    cat, call = rnd.category, rnd.call
    lines = [f"{stage_title(rules, index)}: {CALL_NAMES[call]} ({CALL_SUMS[call]} sum wins), GeoPower card "
             f"{TITLES[cat]}."]
    width = max(len(names[s]) for c in rnd.contests for s, _, _ in c)
    for contest in rnd.contests:
        members = [s for s, _, _ in contest]
        won = [s for s in rnd.winners if s in members]
        if rnd.stage == STARTING:
            group = next(g for g, seats in enumerate(rules.groups_of()) if members[0] in seats)
            lines.append(f"  Group {group + 1}, {WORDS[cat]} ranks:")
        else:
            lines.append(f"  Finalists, {WORDS[cat]} ranks:")
        for s, kept, total in contest:
            ranks = " + ".join(f"{int(RANKS[c, cat]):>2}" for c in kept)
            mark = ("  tie" if len(won) > 1 else "  wins") if s in won else ""
            lines.append(f"    {names[s]:<{width}}  {' '.join(POSTAL[c] for c in kept)}  {ranks} = {total:>3}{mark}")
        best = next(v for s, _, v in contest if s == won[0])
        who = _and([names[s] for s in won])
        if rnd.stage == STARTING:
            lines.append(f"  {who} wins with {best}." if len(won) == 1 else
                         f"  {who} tie at {best}: {'both' if len(won) == 2 else 'all'} play in the Championship.")
        elif len(won) == 1:
            lines.append(f"  {who} wins the Championship with {best}.")
        elif rules.championship_ties == "share":
            lines.append(f"  {who} tie at {best} and share the class title.")
        else:
            lines.append(f"  {who} tie at {best}: they play the Championship again (a new call, new cards, a new "
                         "GeoPower card).")
    if index == rules.rounds - 1:
        finalists = sorted(s for r in judged.history[: rules.rounds] for s in r.winners)
        lines.append(f"To the Championship: {_and([names[s] for s in finalists])}.")
    return lines


def champion_line(sheet: Sheet, judged: Judged) -> str:
    champions = [sheet.seats[s] for s in judged.played.champions]
    if len(champions) == 1:
        return f"Class champion: {champions[0]}."
    return f"Class champions (the title shared): {_and(champions)}."


def _and(words: list[str]) -> str:
    return words[0] if len(words) == 1 else ", ".join(words[:-1]) + " and " + words[-1]


# ----- the equilibrium advice ---------------------------------------------------------------
def advice_lines(sheet: Sheet, judged: Judged) -> list[str]:
    """For every student whose three cards were entered: whether the discard was the
    equilibrium bot's, and the equilibrium discard with the hint's reason (`ClassViews.reason`)."""
    from geolab.bots.classroom.registry import BOTS, PLAYERS  # the solved table: only when asked

    rules, names = sheet.rules, sheet.seats
    bot = PLAYERS.seat(BOTS.make("equilibrium", rules), rules, np.random.default_rng(0))
    views = ClassViews()
    lines, agreed, asked = [], 0, 0
    for index, (entered, decisions) in enumerate(zip(sheet.rounds, judged.decisions)):
        for s, cards in entered.cards.items():
            if len(cards) <= KEPT:
                continue
            decision = decisions[s]
            best, theirs = bot.act(decision), cards[KEPT]
            asked += 1
            agreed += best == theirs
            head = f"{names[s]}, {stage_title(rules, index)} ({CALL_NAMES[decision.observation.call]}): " \
                   f"held {' '.join(POSTAL[c] for c in decision.legal)}, discarded {POSTAL[theirs]}"
            if best == theirs:
                lines.append(f"{head}: the equilibrium discard ({views.reason(decision, best)}).")
            else:
                lines.append(f"{head}; the equilibrium discards {POSTAL[best]}: {views.reason(decision, best)}.")
    if not asked:
        return ["No student's discarded card was entered (type it after a slash: CA TX / NY), so there is no "
                "equilibrium advice."]
    return [f"{agreed} of {asked} discards entered were the equilibrium's (the discard the equilibrium bot plays "
            "for that hand, call and group size; chances count classmates keeping the pair strongest in one "
            "category)."] + lines


# ----- the file ------------------------------------------------------------------------------
def to_json(sheet: Sheet) -> dict:
    names = sheet.seats
    return {
        "format": FORMAT,
        "game": GAME,
        "rules": sheet.rules.to_spec() if sheet.groups else sheet.settings.to_spec(),
        "names": list(sheet.names),
        "groups": sheet.groups,
        "rounds": [{"call": None if r.call is None else CALLS[r.call],
                    "category": None if r.category is None else CATEGORIES[r.category],
                    "cards": {names[s]: [POSTAL[c] for c in cards] for s, cards in r.cards.items()}}
                   for r in sheet.rounds],
    }


def from_json(data, where: str = "class") -> Sheet:
    """A saved class, every entry checked as if typed again (one-line `RecordError`, naming
    the file and the field); the last round may be unfinished."""
    def bad(field: str, text: str) -> RecordError:
        return RecordError(f"{where}: {field}: {text}")

    try:
        check_format(data, FORMAT)
    except RecordError as error:
        raise RecordError(f"{where}: {error}") from None
    if data["game"] != GAME:
        raise bad("game", f"expected {GAME!r}, got {shown(data['game'])}")
    extra = sorted(set(data) - {"format", "game", "rules", "names", "groups", "rounds"})
    if extra:
        raise bad(extra[0], "unknown field")
    try:
        settings = Rules.from_spec(data.get("rules", Rules.DEFAULT))
    except GeolabError as error:
        raise bad("rules", str(error)) from None
    sheet = Sheet(settings)
    names, groups, rounds = data.get("names"), data.get("groups"), data.get("rounds", [])
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        raise bad("names", "expected a list of names")
    try:
        sheet.add_names([n for name in names for n in read_names(name)])
    except EntryError as error:
        raise bad("names", str(error)) from None
    if groups is None:
        if rounds:
            raise bad("rounds", "rounds without groups")
        return sheet
    if not isinstance(groups, list) or not all(isinstance(g, list) and all(isinstance(n, str) for n in g)
                                               for g in groups):
        raise bad("groups", "expected a list of groups, each a list of names")
    try:
        sheet.end_names()
        sheet.groups = split_groups(settings, sheet.names, groups)
    except (EntryError, RulesError) as error:
        raise bad("groups", str(error)) from None
    if sheet.groups != groups:
        raise bad("groups", "the larger groups come first (as the rules seat them)")
    if sheet.rules != Rules.from_spec(data.get("rules", Rules.DEFAULT)):
        raise bad("rules", "students, groups and call must be those of the class (call: random)")
    if not isinstance(rounds, list):
        raise bad("rounds", "expected a list")
    for r, entry in enumerate(rounds):
        _read_round(sheet, entry, f"rounds[{r}]", bad, last=r == len(rounds) - 1)
    return sheet


def _read_round(sheet: Sheet, entry, field: str, bad, last: bool) -> None:
    judged = judge(sheet)
    if judged.plan is None:
        raise bad(field, "a round after the champion was named")
    if not isinstance(entry, dict) or set(entry) - {"call", "category", "cards"}:
        raise bad(field, "expected an object with call, category and cards")
    sheet.start_round()
    present = [entry.get("call") is not None, entry.get("category") is not None, bool(entry.get("cards"))]
    if present != sorted(present, reverse=True):
        raise bad(field, "entered in order: the call, then the GeoPower card, then the cards")
    try:
        if entry.get("call") is not None:
            sheet.enter_call(read_call(str(entry["call"])))
        if entry.get("category") is not None:
            sheet.enter_category(read_category(str(entry["category"])))
        cards = entry.get("cards", {})
        if not isinstance(cards, dict):
            raise EntryError("cards: expected an object of student name -> cards")
        index = {n: s for s, n in enumerate(sheet.seats)}
        playing = [s for deck in judged.plan[1] for s in deck]
    except EntryError as error:
        raise bad(field, str(error)) from None
    for name, held in cards.items():
        try:
            if name not in index or index[name] not in playing:
                raise EntryError("not a student of this round")
            if not isinstance(held, list) or not all(isinstance(c, str) for c in held):
                raise EntryError("expected a list of postal codes")
            typed = " ".join(held[:KEPT]) + (" / " + " ".join(held[KEPT:]) if held[KEPT:] else "")
            sheet.enter_cards(index[name], read_cards(typed), judged.plan)
        except EntryError as error:
            raise bad(f"{field}.cards.{name[:MAX_NAME]}", str(error)) from None
    done = sheet.rounds[-1]
    if not last and not complete(done, judged.plan):
        raise bad(field, "unfinished, but a later round follows")
