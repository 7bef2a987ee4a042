"""Jumbled GeoPower Choice at the keyboard (`geolab.game.Views`): the screens, the moves in
words and the story of the game, for `geolab play jumbled`.

Everything is read from the seat's `View` (its own hand and the public facts: calls, every
laid card once its GeoPower card is turned, the scores) or, at the end, from the finished
`Game`'s public facts (every laid card; the cards nobody played stay hidden). Cards are shown
in postal-code order, one a line, numbered for menu input; a set choice is typed as postal
codes (``TX CA``) or those numbers (``1 3``), in any order.
"""

from __future__ import annotations

from geolab.cards import CATEGORIES, NAMES, POSTAL, RANKS
from geolab.common.text import WIDTH, plural
from geolab.game import Decision, MoveError, Views, typed_number
from geolab.games.jumbled.reference import Game, SetSeen, View, round_points, seen_sets
from geolab.games.jumbled.rules import CALLS, SEAT_LETTERS, TOP_DOG, Rules, call_index
from geolab.scene import Fact, Pile, Scene, pile
from geolab.scene import moves as scene_moves

CALL_NAMES = {"top-dog": "Top Dog", "bottoms-up": "Bottoms Up"}
CALL_MEANS = {"top-dog": "the lowest total wins a set", "bottoms-up": "the highest total wins a set"}
#: What a person may type for each call (after lower-casing and turning - and _ into spaces).
CALL_WORDS = {"top-dog": {"top", "top dog", "topdog", "t", "low", "lowest"},
              "bottoms-up": {"bottoms", "bottom", "bottoms up", "bottom up", "bottomsup", "b", "high", "highest"}}
#: The short word shown for each call in messages (any of `CALL_WORDS` is read).
CALL_WORDS_SHOWN = {"top-dog": "top", "bottoms-up": "bottoms"}

#: Category words a person might add to a set choice by habit from Play the Ranks.
CATEGORY_WORDS = {"size", "s", "statehood", "state", "st", "population", "pop", "p"}
SHORT = {"size": "size", "statehood": "state", "population": "pop"}
#: Separators accepted between the cards of a set choice.
SEPARATORS = str.maketrans({",": " ", "+": " ", "&": " ", ";": " "})


# ----- small pieces of text -----------------------------------------------------------------
def wrapped(head: str, items: list[str], indent: int = 2, sep: str = ",") -> list[str]:
    """``head`` then the items joined by `sep` and a space, wrapped between items at `WIDTH`
    columns (never inside one)."""
    lines, line = [], head
    for i, item in enumerate(items):
        piece = item + (sep if i < len(items) - 1 else "")
        if len(line) + 1 + len(piece) > WIDTH and line.strip():
            lines.append(line)
            line = " " * indent + piece
        else:
            line = f"{line} {piece}" if line else piece
    lines.append(line)
    return lines


def who(rules: Rules, me: int, p: int) -> str:
    """A seat's letter, marked for the person (you) and a teammate (partner)."""
    if p == me:
        return f"{SEAT_LETTERS[p]} (you)"
    if rules.teams is not None and rules.team_of[p] == rules.team_of[me]:
        return f"{SEAT_LETTERS[p]} (partner)"
    return SEAT_LETTERS[p]


def counts_text(counts) -> str:
    """``[1, 2]`` -> "1 or 2 cards"; ``[1]`` -> "1 card"; ``[1, 2, 3]`` -> "1 to 3 cards"."""
    counts = sorted(counts)
    noun = "card" if counts == [1] else "cards"
    if len(counts) == 1:
        return f"{counts[0]} {noun}"
    if len(counts) == 2:
        return f"{counts[0]} or {counts[1]} {noun}"
    return f"{counts[0]} to {counts[-1]} {noun}"


def call_line(call: str) -> str:
    return f"{CALL_NAMES[call]}: {CALL_MEANS[call]}"


def bonus_lines(rules: Rules) -> list[str]:
    """The scoring: points a set, the bonus table, the tie rule."""
    bonus = [(w, b) for w, b in enumerate(rules.bonus) if b]
    items = [f"A set won: {rules.points_per_set} points"]
    if bonus:
        (w, b), rest = bonus[0], bonus[1:]
        items.append(f"+{b} bonus for {plural(w, 'set')} a round" + "".join(f", +{b} for {w}" for w, b in rest))
    else:
        items.append("no bonus")
    items.append("ties win nothing" if rules.set_tie == "nobody" else "tied best totals all win")
    return wrapped("", items, sep=";")


def score_lines(rules: Rules, scores, me: int, head: str = "Score:") -> list[str]:
    """Every seat's points (and each team's, with teams) and the target."""
    items = [f"{who(rules, me, p)} {s}" for p, s in enumerate(scores)]
    if rules.teams is None:
        items[-1] += f"; first to {rules.target} wins"
        return wrapped(head, items)
    teams = [0] * rules.n_teams
    for p, s in enumerate(scores):
        teams[rules.team_of[p]] += s
    mine = rules.team_of[me]
    team_items = [f"{rules.team_name(t)} {s}" + (" (yours)" if t == mine else "") for t, s in enumerate(teams)]
    team_items[-1] += f"; first team to {rules.target} wins"
    return wrapped(head, items) + wrapped("  teams:", team_items)


def card_plays(cards, category: int) -> str:
    """``TX 2 + CA 3 = 5``: a seat's laid cards with their ranks in the turned category."""
    parts = [f"{POSTAL[c]} {int(RANKS[c, category])}" for c in cards]
    total = sum(int(RANKS[c, category]) for c in cards)
    return " + ".join(parts) + (f" = {total}" if len(parts) > 1 else "")


# ----- the story: calls, sets, round points, scores -----------------------------------------
def set_lines(rules: Rules, me: int, r: int, s: int, call: str, seen: SetSeen) -> list[str]:
    """One finished set: the GeoPower card, every seat's cards and total, and who won why."""
    cat = seen.category
    totals = [sum(int(RANKS[c, cat]) for c in play) for play in seen.plays]
    lines = [f"Round {r + 1}, set {s + 1}: GeoPower card {CATEGORIES[cat].upper()} "
             f"({CALL_NAMES[call]}: {CALL_MEANS[call].replace(' a set', '')})"]
    width = max(len(who(rules, me, p)) for p in range(rules.players))
    for p, play in enumerate(seen.plays):
        lines.append(f"  {who(rules, me, p):<{width}}  {card_plays(play, cat)}")
    low = call_index(call) == TOP_DOG
    best = min(totals) if low else max(totals)
    tied = [p for p, t in enumerate(totals) if t == best]
    if len(tied) == 1:
        others = sorted((t, p) for p, t in enumerate(totals) if p != tied[0])
        nxt_t, nxt_p = others[0] if low else max(others, key=lambda x: (x[0], -x[1]))
        word = "lower" if low else "higher"
        lines.append(f"  {who(rules, me, tied[0])} wins set {s + 1}: {best} is {word} than every other total "
                     f"(next: {SEAT_LETTERS[nxt_p]} {nxt_t})")
    elif seen.winners:
        lines.append(f"  {', '.join(SEAT_LETTERS[p] for p in tied)} tie for best at {best} and each wins the set "
                     "(the all-tied rule)")
    else:
        lines.append(f"  Tie for best at {best} ({', '.join(SEAT_LETTERS[p] for p in tied)}): "
                     "nobody wins the set")
    return lines


def round_end_lines(rules: Rules, me: int, r: int, sets: tuple[SetSeen, ...], after: list[int]) -> list[str]:
    """A finished round: each seat's points with its bonus, then the scores after it."""
    won = [sum(p in x.winners for x in sets) for p in range(rules.players)]
    items = []
    for p, w in enumerate(won):
        if w:
            bonus = rules.bonus[w]
            how = plural(w, "set") + (f" + {bonus} bonus" if bonus else "")
            items.append(f"{who(rules, me, p)} {round_points(rules, w)} ({how})")
    head = f"Round {r + 1} points:"
    lines = wrapped(head, items) if items else [f"{head} nobody won a set"]
    return lines + score_lines(rules, after, me, f"Score after round {r + 1}:")


def story(rules: Rules, me: int, rounds, current=None) -> list[str]:
    """Every public happening, one line each: `rounds` are finished rounds (dealer, call,
    sets), `current` (dealer, call, sets so far) the round being played. Lines depend only on
    what came before them, so the list only ever grows at its end."""
    lines: list[str] = []
    scores = [0] * rules.players
    for r, (dealer, call, sets) in enumerate([*rounds, *([current] if current else [])]):
        dealt = "you deal" if dealer == me else f"{SEAT_LETTERS[dealer]} deals"
        lines.append(f"Round {r + 1}: {dealt} and call{'' if dealer == me else 's'} {call_line(call)}")
        for s, seen in enumerate(sets):
            lines += set_lines(rules, me, r, s, call, seen)
        if len(sets) == rules.sets_per_round:
            won = [sum(p in x.winners for x in sets) for p in range(rules.players)]
            scores = [a + round_points(rules, w) for a, w in zip(scores, won)]
            lines += round_end_lines(rules, me, r, sets, scores)
    return lines


def played_history(game: Game) -> list[tuple[int, str, tuple[SetSeen, ...]]]:
    """A played game's rounds as the public saw them (dealer, call, finished sets)."""
    P = game.rules.players
    return [(i % P, CALLS[x.call], seen_sets(x)) for i, x in enumerate(game.rounds)]


# ----- the views ----------------------------------------------------------------------------
class JumbledViews(Views):
    """`geolab.game.Views` for Jumbled GeoPower Choice: the dealer's ``call`` and each set's
    ``choose``."""

    # ----- what the seat sees ---------------------------------------------------------------
    def screen(self, decision: Decision) -> list[str]:
        view: View = decision.observation
        rules, me = view.rules, decision.seat
        if decision.kind == "call":
            lines = [f"Round {view.round_index + 1}: you deal, so you call now, before the cards are dealt"]
            lines += score_lines(rules, view.scores, me)
            lines += bonus_lines(rules)
            lines += [f"  {i}  {CALL_NAMES[c]:<10}  {CALL_MEANS[c]}" for i, c in enumerate(decision.legal, 1)]
            return lines
        S, s = rules.sets_per_round, view.set_index
        dealer = "you" if view.dealer == me else SEAT_LETTERS[view.dealer]
        lines = [f"Round {view.round_index + 1}, set {s + 1} of {S}: {dealer} called {call_line(view.call)}"]
        lines += score_lines(rules, view.scores, me)
        lines += bonus_lines(rules)
        lines += self._chances(view)
        lines += self._to_play(decision)
        lines.append(f"  #  {'card':<17} {'size':>4} {'statehood':>9} {'population':>10} {'expected':>8}")
        probs = view.probs()
        for i, c in enumerate(self._cards(view), 1):
            ranks = [int(x) for x in RANKS[c]]
            ev = sum(float(p) * x for p, x in zip(probs, ranks))
            lines.append(f"{i:>3}  {POSTAL[c]} {NAMES[c]:<14} {ranks[0]:>4} {ranks[1]:>9} {ranks[2]:>10} {ev:>8.1f}")
        return lines

    def prompt(self, decision: Decision) -> str:
        if decision.kind == "call":
            return " / ".join(f"{i} {CALL_NAMES[c].lower()}" for i, c in enumerate(decision.legal, 1)) + " > "
        counts = sorted({len(a) for a in decision.legal})
        return f"set {decision.observation.set_index + 1}: lay {counts_text(counts)} > "

    def help(self, decision: Decision) -> list[str]:
        view: View = decision.observation
        if decision.kind == "call":
            return [f"Type {i} or '{CALL_WORDS_SHOWN[c]}' for {call_line(c)}"
                    for i, c in enumerate(decision.legal, 1)] \
                + ["You call before the deal, seeing only the scores; the deal passes left."]
        cards = self._cards(view)
        counts = sorted({len(a) for a in decision.legal})
        example = sorted(max(decision.legal, key=len), key=lambda c: POSTAL[c])
        codes = " ".join(POSTAL[c] for c in example)
        numbers = " ".join(str(cards.index(c) + 1) for c in example)
        if counts == [1]:
            how = [f"Lay 1 card face down: type its postal code ('{codes}') or its number ('{numbers}')."]
        else:
            how = [f"Lay {counts_text(counts)} face down: type postal codes ('{codes}') or the numbers",
                   f"beside them ('{numbers}'), in any order."]
        sets_left = view.rules.sets_per_round - view.set_index
        left = view.rules.cards_to_play - (len(view.hand) - len(view.left))
        plan = "this is the round's last set" if sets_left == 1 else f"{left} more over the {sets_left} sets left"
        return how + [f"You play exactly {view.rules.cards_to_play} cards a round: {plan}.",
                      "The GeoPower card is turned after everyone has laid: 'expected' is a card's",
                      "average rank over the chances shown; cards laid together add their ranks."]

    def label(self, decision: Decision, action) -> str:
        if decision.kind == "call":
            return CALL_NAMES[action].lower()
        return " ".join(sorted(POSTAL[c] for c in action))

    def parse(self, decision: Decision, text: str):
        if decision.kind == "call":
            return self._parse_call(decision, text)
        return self._parse_choice(decision, text)

    # ----- the story ----------------------------------------------------------------------
    def events(self, decision: Decision) -> list[str]:
        view: View = decision.observation
        current = None if decision.kind == "call" else (view.dealer, view.call, view.sets)
        return story(view.rules, decision.seat, view.history, current)

    def ending(self, played: Game, seat: int) -> list[str]:
        rules = played.rules
        history = played_history(played)
        done = [h for h, x in zip(history, played.rounds) if x.done]
        current = history[-1] if played.rounds and not played.rounds[-1].done else None
        return story(rules, seat, done, current) + self._verdict(played, seat)

    def reason(self, decision: Decision, action) -> str:
        """The laid cards' totals in the categories still possible and their expected rank a
        card under the chances, against the cards kept for the later sets: whether it spends
        its strong cards now or saves them."""
        view: View = decision.observation
        if decision.kind == "call":
            return "no hand to fit yet; the lab finds both calls about equal"
        probs = view.probs()
        live = [k for k in range(3) if probs[k] > 0]

        def expected(c: int) -> float:
            return sum(float(probs[k]) * int(RANKS[c, k]) for k in live)

        totals = [sum(int(RANKS[c, k]) for c in action) for k in range(3)]
        now = sum(expected(c) for c in action) / len(action)
        if len(live) == 1:
            text = f"the GeoPower card is known: {CATEGORIES[live[0]]} {totals[live[0]]}"
        else:
            cats = ", ".join(f"{SHORT[CATEGORIES[k]]} {totals[k]}" for k in live)
            text = f"{cats}: {now:.1f} {'a card ' if len(action) > 1 else ''}expected"
        kept = [c for c in view.left if c not in action]
        if not kept:
            return text
        per = sum(expected(c) for c in kept) / len(kept)
        if view.rules.cards_to_play == len(view.hand) - len(view.left) + len(action):
            names = " ".join(sorted(POSTAL[c] for c in kept))
            return f"{text}; {names} stay{'s' if len(kept) == 1 else ''} unplayed ({per:.1f})"
        low = call_index(view.call) == TOP_DOG
        if f"{per:.1f}" == f"{now:.1f}":
            return f"{text}; keeps cards as strong ({per:.1f})"
        return f"{text}; keeps {'stronger' if (per < now) == low else 'weaker'} cards ({per:.1f})"

    # ----- parts --------------------------------------------------------------------------
    def scene(self, decision: Decision) -> Scene:
        """The cards still held (selectable), the last set laid with its winners' cards marked;
        the round, the call, the scores and the GeoPower chances as facts."""
        view: View = decision.observation
        rules, me = view.rules, decision.seat
        facts = [Fact("score", line.strip()) for line in score_lines(rules, view.scores, me)]
        if decision.kind == "call":
            facts.insert(0, Fact("round", f"Round {view.round_index + 1}: you deal, so you call before the deal"))
            return Scene("Jumbled GeoPower Choice", "call", self.prompt(decision), (), tuple(facts),
                         moves=scene_moves(decision, self.label, lambda a: ((), (CALL_NAMES[a],))),
                         options=("call",))
        dealer = "you" if view.dealer == me else SEAT_LETTERS[view.dealer]
        facts = [Fact("round", f"Round {view.round_index + 1}, set {view.set_index + 1} of {rules.sets_per_round}"),
                 Fact("call", f"{dealer} called {call_line(view.call)}"), *facts,
                 Fact("geopower", " ".join(line.strip() for line in self._chances(view)))]  # one, however wrapped
        piles = [pile("hand", "Your cards", self._cards(view), "hand", selectable=view.left)]
        if view.sets:
            last = view.sets[-1]
            won = {c for p in last.winners for c in last.plays[p]}
            piles.append(Pile("table", f"Set {len(view.sets)}: {CATEGORIES[last.category]}", tuple(
                card for p, cards in enumerate(last.plays)
                for card in pile("table", "", cards, f"set-{who(rules, me, p)}",
                                 marks=lambda c: ("won",) if c in won else ()).cards)))
        return Scene("Jumbled GeoPower Choice", "choose", self.prompt(decision), tuple(piles), tuple(facts),
                     moves=scene_moves(decision, self.label, lambda a: (tuple(f"hand-{POSTAL[c]}" for c in a), ())))

    @staticmethod
    def _cards(view: View) -> list[int]:
        """The cards still held, in the screen's (postal-code) order: menu numbers index it."""
        return sorted(view.left, key=lambda c: POSTAL[c])

    @staticmethod
    def _chances(view: View) -> list[str]:
        probs = view.probs()
        known = [k for k in range(3) if probs[k] == 1]
        if known:
            why = "the deck has come round again" if view.set_index >= view.rules.deck_size else \
                f"only {CATEGORIES[known[0]]} cards are left"
            return [f"Next GeoPower card: {CATEGORIES[known[0]]}, known: {why}"]
        head = "Next GeoPower card: " + ", ".join(f"{CATEGORIES[k]} {probs[k]:.0%}" for k in range(3))
        turned = [SHORT[CATEGORIES[x.category]] for x in view.sets]
        return wrapped("", [head, f"turned: {', '.join(turned)}"], sep=";") if turned else [head]

    @staticmethod
    def _to_play(decision: Decision) -> list[str]:
        view: View = decision.observation
        rules, me = view.rules, decision.seat
        sets_left = rules.sets_per_round - view.set_index
        counts = sorted({len(a) for a in decision.legal})
        left = rules.cards_to_play - (len(view.hand) - len(view.left))
        stays = len(view.left) - left
        rest = f", {plural(stays, 'card')} stay{'s' if stays == 1 else ''} unplayed" if stays else ""
        if sets_left == 1:
            lines = [f"Lay {counts_text(counts)} now, on the round's last set{rest}"]
        else:
            lines = [f"Lay {counts_text(counts)} now; {left} to play over the {sets_left} sets left{rest}"]
        if view.sets:
            laid = [sum(len(x.plays[p]) for x in view.sets) for p in range(rules.players)]
            items = [f"{SEAT_LETTERS[p]} {rules.cards_to_play - n}" for p, n in enumerate(laid) if p != me]
            lines += wrapped("Still to play:", items)
        return lines

    @staticmethod
    def _parse_call(decision: Decision, text: str) -> str:
        words = " ".join(text.lower().replace("-", " ").replace("_", " ").split())
        n = typed_number(words)
        if n is not None:
            if 1 <= n <= len(decision.legal):
                return decision.legal[n - 1]
            raise MoveError(f"{words} is not on the menu: type 1-{len(decision.legal)}")
        for call, names in CALL_WORDS.items():
            if words in names:
                if call not in decision.legal:
                    allowed = ", ".join(f"{i} {CALL_NAMES[c]}" for i, c in enumerate(decision.legal, 1))
                    raise MoveError(f"these rules do not allow {CALL_NAMES[call]} (allowed: {allowed})")
                return call
        menu = ", ".join(f"{i} or {CALL_WORDS_SHOWN[c]} for {CALL_NAMES[c]}" for i, c in enumerate(decision.legal, 1))
        if words.upper() in POSTAL:
            raise MoveError(f"cards come after the call: {menu}")
        raise MoveError(f"type {menu}")

    def _parse_choice(self, decision: Decision, text: str) -> tuple[int, ...]:
        view: View = decision.observation
        cards = self._cards(view)
        holding = " ".join(POSTAL[c] for c in cards)
        tokens = [t for t in text.translate(SEPARATORS).split() if t.lower() != "and"]
        counts = sorted({len(a) for a in decision.legal})
        if not tokens:
            raise MoveError(f"name {counts_text(counts)} to lay: postal codes or numbers (you hold {holding})")
        chosen: list[int] = []
        for t in tokens:
            n = typed_number(t)
            if n is not None:
                if not 1 <= n <= len(cards):
                    raise MoveError(f"{t} is not a card number here: your cards are 1-{len(cards)} ({holding})")
                c = cards[n - 1]
            elif t.upper() in POSTAL:
                c = POSTAL.index(t.upper())
                if c not in view.left:
                    if c in view.hand:
                        when = next(s for s, x in enumerate(view.sets) if c in x.plays[decision.seat]) + 1
                        raise MoveError(f"you laid {POSTAL[c]} on set {when}; you still hold {holding}")
                    raise MoveError(f"{POSTAL[c]} is not in your hand (you hold {holding})")
            elif t.lower() in CATEGORY_WORDS:
                raise MoveError("name cards only: the GeoPower card picks the category after everyone lays")
            else:
                raise MoveError(f"{t!r} is not a card: type postal codes ({holding}) or numbers 1-{len(cards)}")
            if c in chosen:
                raise MoveError(f"{POSTAL[c]} is named twice: name each card once")
            chosen.append(c)
        if len(chosen) not in counts:
            left = view.rules.cards_to_play - (len(view.hand) - len(view.left))
            sets_left = view.rules.sets_per_round - view.set_index
            raise MoveError(f"lay {counts_text(counts)} on this set, not {len(chosen)}: you play {left} more "
                            f"over {plural(sets_left, 'set')}, {view.rules.min_cards_per_set}-"
                            f"{view.rules.max_cards_per_set} a set")
        for action in decision.legal:
            if sorted(action) == sorted(chosen):
                return action
        raise MoveError(f"{' '.join(POSTAL[c] for c in chosen)} is not a legal choice now (type 'moves' for the list)")

    @staticmethod
    def _verdict(played: Game, me: int) -> list[str]:
        """"You won with 52 points after 7 rounds; B 45, C 38." (teams: the teams' points)."""
        rules = played.rules
        after = f"after {plural(len(played.rounds), 'round')}"
        if rules.teams is None:
            points, mine = list(played.scores), me
            names = ["you" if p == me else SEAT_LETTERS[p] for p in range(rules.players)]
        else:
            points, mine = played.team_scores(), rules.team_of[me]
            names = [("your team " if t == mine else "") + rules.team_name(t) for t in range(rules.n_teams)]
        order = sorted(range(len(points)), key=lambda t: (-points[t], t))
        w = played.winner
        if w is None:
            head = f"The game stopped {after}, unfinished:"
        elif w == -1:
            head = f"Draw {after}:"
        elif w == mine:
            you = "You" if rules.teams is None else f"Your team {rules.team_name(w)}"
            head = f"{you} won with {points[w]} points {after};"
        else:
            lost = "You lost" if rules.teams is None else "Your team lost"
            head = f"{lost}: {names[w]} won with {points[w]} points {after};"
        items = [f"{names[t]} {points[t]}" for t in order if w is None or t != w]
        items[-1] += "."
        return wrapped(head, items)


VIEWS = JumbledViews()
