"""`geolab simulate ranks`: many Play the Ranks games between two policies."""

from __future__ import annotations

import time

import numpy as np

from geolab.bots.ranks_seats import make_seat
from geolab.cli import arena as arena_cli
from geolab.cli.output import print_json, print_table
from geolab.errors import GeolabError
from geolab.games.ranks import PRESETS, Rules, deal_one, play
from geolab.lab import ranks_matches
from geolab.lab.stats import wilson


def register(commands) -> None:
    p = commands["simulate"].add_parser("ranks", help="Play the Ranks / State Ranking Battles")
    p.add_argument("--rules", default="combo1", choices=list(PRESETS), help="rules preset")
    p.add_argument("--bots", default="greedy,random", help="two policies, A,B (random, greedy)")
    p.add_argument("--games", type=int, default=2000, help="number of deals (default 2000)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=run_simulate)

    p = commands["arena"].add_parser("ranks", help="duplicate matches between Play the Ranks bots")
    p.add_argument("--rules", default="combo1", choices=list(PRESETS), help="rules preset")
    arena_cli.add_arguments(p, default_bots="random,greedy", default_games=2000)
    p.set_defaults(run=run_arena)


def run_arena(args) -> None:
    rules = Rules.preset(args.rules)
    arena_cli.run(args, "ranks", rules.to_spec(), ranks_matches.runner(rules), f"Play the Ranks ({rules.name})")


def _bots(text: str) -> list[str]:
    names = [b.strip() for b in text.split(",")]
    if len(names) != 2 or not all(names):
        raise GeolabError(f"--bots needs two policies separated by a comma, got {text!r}")
    return names


def run_simulate(args) -> None:
    if args.games < 1:
        raise GeolabError("--games must be at least 1")
    rules = Rules.preset(args.rules)
    names = _bots(args.bots)
    rng = np.random.default_rng(args.seed)
    seats = [make_seat(n, rng) for n in names]
    wins, ties, tricks, first_lead_wins = [0, 0], 0, 0, 0
    start = time.perf_counter()
    for _ in range(args.games):
        deal = deal_one(rules, rng)
        lead = deal.drawn_first_lead() if rules.first_lead == "given" else None
        game = play(rules, deal.hands, seats, lead, deal.power_bases)
        tricks += len(game.tricks)
        if game.winner is None:
            ties += 1
        else:
            wins[game.winner] += 1
            first_lead_wins += game.winner == game.first_lead
    seconds = time.perf_counter() - start
    n = args.games
    rows = []
    for side, name in enumerate(names):
        low, high = wilson(wins[side] + ties / 2, n)
        rows.append({"side": "AB"[side], "bot": name, "wins": wins[side], "win_rate": (wins[side] + ties / 2) / n,
                     "ci_low": low, "ci_high": high})
    lead_low, lead_high = wilson(first_lead_wins + ties / 2, n)
    summary = {
        "engine": "reference", "rules": rules.name, "games": n, "seed": args.seed, "ties": ties,
        "first_lead_win_rate": (first_lead_wins + ties / 2) / n, "first_lead_ci": [lead_low, lead_high],
        "avg_tricks": tricks / n, "games_per_s": n / seconds, "tricks_per_s": tricks / seconds,
    }
    if args.json:
        print_json({"bots": rows, **summary})
        return
    print(f"Play the Ranks, rules {rules.name}: {n:,} games, seed {args.seed} (reference engine; ties count half)")
    print_table(rows)
    print(f"first lead wins {summary['first_lead_win_rate']:.3f} (95% CI {lead_low:.3f}-{lead_high:.3f}); "
          f"{summary['avg_tricks']:.2f} tricks a game; {summary['tricks_per_s']:,.0f} tricks/s")
