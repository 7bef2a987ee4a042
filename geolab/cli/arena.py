"""`geolab arena GAME`: the shared body of every two-sided game's arena command."""

from __future__ import annotations

import re
import signal
from datetime import datetime
from pathlib import Path

from geolab.cli.output import print_json, print_table
from geolab.lab import arena, plots
from geolab.lab.results import meta, save_figure, write_json, write_table


def add_arguments(p, default_bots: str, default_games: int) -> None:
    p.add_argument("--bots", default=default_bots, help=f"comma-separated bots, parameters as name:key=value (default {default_bots})")
    p.add_argument("--games", type=int, default=default_games, help=f"duplicate deals per pair (default {default_games})")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", help="result directory (default results/arena/<run-id>)")
    p.add_argument("--json", action="store_true", help="print the tables as JSON")


def run(args, game: str, rules_spec, runner, title: str, block: int = arena.BLOCK, lead_name: str = "first lead",
        length: str = "tricks", settings: dict | None = None) -> None:
    """Play, print the tables, write the result files and plots, say where they are.

    ``lead_name`` names the side whose score `Duplicate.lead_score` holds, ``length`` what its
    `tricks` count, and ``settings`` adds the game's own run settings to meta.json."""
    bots = arena.split_bots(args.bots)
    previous = signal.getsignal(signal.SIGINT)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        result = arena.run(runner, bots, args.games, args.seed, block, progress=None if not args.json else False,
                           length=length)
    finally:
        signal.signal(signal.SIGINT, previous)
    pairs, ratings, lead = result.pairs_table(), result.ratings_table(), result.first_lead()
    run_id = f"{datetime.now():%Y%m%d-%H%M%S}-{game}-" + re.sub(r"[^A-Za-z0-9]+", "-", str(rules_spec)).strip("-")
    out = Path(args.out) if args.out else Path("results") / "arena" / run_id
    write_table(pairs, out, "pairs")
    write_table(ratings, out, "ratings")
    fig = plots.win_rate_heatmap(pairs, bots, title)
    save_figure(fig, out / "win_rates.png")
    plots.close(fig)
    fig = plots.rating_ladder(ratings, title)
    save_figure(fig, out / "ladder.png")
    plots.close(fig)
    info = meta(game=game, rules=rules_spec, bots=bots, deals_per_pair=args.games, seed=args.seed,
                block=block, games=result.games, wall_seconds=round(result.seconds, 3),
                interrupted=result.interrupted, first_lead=lead,
                statistics="win rates: mean of per-deal duplicate scores, Wilson 95% CI on the effective sample size (Kish); "
                           "ratings: Bradley-Terry on all games, Elo points, 95% CI from the observed information",
                first_lead_means=lead_name, **(settings or {}))
    write_json(info, out / "meta.json")
    games_per_s = result.games / result.seconds if result.seconds else float("nan")
    if args.json:
        print_json({"pairs": pairs.to_dict("records"), "ratings": ratings.to_dict("records"),
                    "first_lead": lead, "games": result.games, "games_per_s": games_per_s,
                    "interrupted": result.interrupted, "out": str(out)})
        return
    note = " (INTERRUPTED: partial results)" if result.interrupted else ""
    print(f"{title}: {len(bots)} bots, {args.games:,} duplicate deals a pair, seed {args.seed}{note}")
    print()
    print_table(pairs.drop(columns=["wins_a"]).to_dict("records"))
    print()
    print_table(ratings.to_dict("records"))
    print()
    print(f"{lead_name} wins {lead['win_rate']:.3f} (95% CI {lead['ci_low']:.3f}-{lead['ci_high']:.3f}, "
          f"{lead['games']:,} games); {result.games:,} games in {result.seconds:.1f} s ({games_per_s:,.0f} games/s)")
    print(f"tables and plots: {out}/ (win_rates.png, ladder.png, pairs.csv, ratings.csv, meta.json)")
