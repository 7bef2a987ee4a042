"""How long a Combo 1 game takes at the table: the timing model the match's clock runs on.

A game lasts its setup (shuffling, dealing, turning a Power card: `Rules.setup`) and then:

- Border-Up: the race (to the first claim; nobody claiming, until the later team gave up) and,
  after a claim, the check of its groups (`Rules.check`);
- State IQ: a clue and a guess (`Rules.turn`) for every guess made, both teams';
- Dashing States: the race, then each announcing team's states and capitals
  (`Rules.announce` a card);
- Play the Ranks: the discards (`Rules.discard`) and every trick played (`Rules.trick`).

The seconds of a race are the race model's (`geolab.games.race`), which the game's own play
drew; the rest are the rules' fields: estimates, not measured at a table (docs/rules-combo1.md).
The batch engine computes the same sums from its arrays (`geolab.games.combo1.batch`).
"""

from __future__ import annotations

from geolab.games.combo1.rules import BORDER_UP, DASHING, RANKS, STATE_IQ, Rules
from geolab.games.race import race_length


def seconds(rules: Rules, game: int, played) -> float:
    """The seconds game `game` took, from its engine's played game."""
    setup = rules.setup(game)
    if game == BORDER_UP:
        if played.claims is None:  # no hand could win: dealt again and again, never raced
            return setup * len(played.deals)
        return setup * len(played.deals) + race_length(played.claims) + rules.check * bool(played.first)
    if game == STATE_IQ:
        return setup + rules.turn * sum(len(p.guesses) for p in played.phases)
    if game == DASHING:
        announcing = sum(played.judged(s) for s in (0, 1))
        return setup + played.length + rules.announce * rules.dashing.placed * announcing
    if game == RANKS:
        return setup + rules.discard + rules.trick * len(played.tricks)
    raise ValueError(f"no game {game!r}")


def shortest(rules: Rules, game: int) -> float:
    """A game's seconds at the least (its setup, and Play the Ranks' discards): what bounds how
    many games a round can begin."""
    return rules.setup(game) + (rules.discard if game == RANKS else 0.0)
