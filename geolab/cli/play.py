"""`geolab play ranks`: a human at the keyboard against a bot."""

from __future__ import annotations

import numpy as np

from geolab.bots.human import HumanSeat
from geolab.bots.ranks_seats import make_seat
from geolab.games.ranks import PRESETS, SIDES, Rules, deal_one, play
from geolab.games.ranks_records import report, to_record
from geolab.records import dump


def register(commands) -> None:
    p = commands["top"].add_parser("play", help="play a game against a bot at the keyboard")
    sub = p.add_subparsers(dest="game", required=True, parser_class=type(p))
    q = sub.add_parser("ranks", help="one deal of Play the Ranks against a bot")
    q.add_argument("--rules", default="combo1", choices=list(PRESETS))
    q.add_argument("--bot", default="greedy", help="the opponent (random, greedy)")
    q.add_argument("--side", default="A", choices=SIDES, help="your side")
    q.add_argument("--seed", type=int, help="deal seed (default: a fresh one)")
    q.add_argument("--record", help="write the game as a record to this file")
    q.set_defaults(run=run)


def run(args) -> None:
    rules = Rules.preset(args.rules)
    rng = np.random.default_rng(args.seed)
    me = SIDES.index(args.side)
    seats = [None, None]
    seats[me], seats[1 - me] = HumanSeat(), make_seat(args.bot, rng)
    deal = deal_one(rules, rng)
    lead = deal.drawn_first_lead() if rules.first_lead == "given" else None
    print(f"Play the Ranks ({rules.name}) against {args.bot}; rules: docs/rules.md")
    if lead is not None:
        print(f"the statehood draw gives the first lead to {SIDES[lead]}")
    if deal.power_bases:
        print(f"Power cards: base {deal.power_bases[0]} for tricks 1-{rules.power_split}, then {deal.power_bases[1]}")
    try:
        game = play(rules, deal.hands, seats, lead, deal.power_bases)
    except EOFError:
        print("\nno more input: game abandoned")
        return 1
    outcome = report(game)
    print(f"\nwinner: {outcome['winner'] or 'tie'}; tricks A {outcome['tricks_won']['A']} - B {outcome['tricks_won']['B']}")
    if args.record:
        dump(to_record(game), args.record)
        print(f"record written to {args.record} (geolab replay {args.record})")
    return 0
