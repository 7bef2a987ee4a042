"""`geolab simulate ranks`: many Play the Ranks games between two policies."""

from __future__ import annotations

from geolab.bots.ranks import POLICIES
from geolab.cli import arena as arena_cli
from geolab.cli.output import print_json, print_table
from geolab.errors import GeolabError
from geolab.games.ranks import PRESETS, Rules
from geolab.games.ranks_batch import BLOCK, CHUNK
from geolab.lab import ranks_matches
from geolab.lab.arena import split_bots
from geolab.lab.ranks_simulate import bench, simulate


def register(commands) -> None:
    p = commands["simulate"].add_parser("ranks", help="Play the Ranks / State Ranking Battles (batch engine)")
    p.add_argument("--rules", default="combo1", choices=list(PRESETS), help="rules preset")
    p.add_argument("--bots", default="greedy,random", help=f"two policies, A,B ({', '.join(POLICIES)}; name:key=value)")
    p.add_argument("--games", type=int, default=2000, help="number of deals, each played twice with seats swapped (default 2000)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--chunk", type=int, default=CHUNK, help=f"games per chunk, rounded up to blocks of {BLOCK} (default {CHUNK})")
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=run_simulate)

    p = commands["bench"].add_parser("ranks", help="batch engine v reference engine, greedy self-play on Combo 1")
    p.add_argument("--games", type=int, default=2_000_000, help="games per run (default 2,000,000)")
    p.add_argument("--runs", type=int, default=5, help="runs; the median is reported (default 5)")
    p.add_argument("--reference-games", type=int, default=400, help="reference-engine games per run (default 400)")
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=run_bench)

    p = commands["arena"].add_parser("ranks", help="duplicate matches between Play the Ranks bots")
    p.add_argument("--rules", default="combo1", choices=list(PRESETS), help="rules preset")
    arena_cli.add_arguments(p, default_bots=",".join(ranks_matches.default_ladder()), default_games=100)
    p.set_defaults(run=run_arena)


def run_arena(args) -> None:
    rules = Rules.preset(args.rules)
    arena_cli.run(args, "ranks", rules.to_spec(), ranks_matches.runner(rules), f"Play the Ranks ({rules.name})")


def _bots(text: str) -> list[str]:
    names = split_bots(text)
    if len(names) != 2:
        raise GeolabError(f"--bots needs two policies separated by a comma, got {text!r}")
    return names


def run_simulate(args) -> None:
    if args.games < 1:
        raise GeolabError("--games must be at least 1")
    if args.chunk < 1:
        raise GeolabError("--chunk must be at least 1")
    rules = Rules.preset(args.rules)
    names = _bots(args.bots)
    s = simulate(rules, (names[0], names[1]), args.games, args.seed, chunk=args.chunk,
                 progress=None if 2 * args.games >= 200_000 else False)  # fmt: skip
    if args.json:
        print_json(s)
        return
    print(f"Play the Ranks, rules {rules.name}: {s['deals']:,} deals, each played twice with seats swapped "
          f"({s['games']:,} games), seed {args.seed}; batch engine; ties count half")  # fmt: skip
    print_table([{k: r[k] for k in ("bot", "wins", "ties", "losses", "win_rate", "ci_low", "ci_high")} for r in s["bots"]])
    low, high = s["first_lead_ci"]
    print(f"first lead wins {s['first_lead_win_rate']:.4f} (95% CI {low:.4f}-{high:.4f}); ties {s['ties']:,}; "
          f"{s['avg_tricks']:.3f} tricks a game; {s['games_per_s']:,.0f} games/s, {s['tricks_per_s']:,.0f} tricks/s")


def run_bench(args) -> None:
    if args.games < 1 or args.runs < 1 or args.reference_games < 1:
        raise GeolabError("--games, --runs and --reference-games must be at least 1")
    b = bench(args.games, args.runs, args.reference_games)
    if args.json:
        print_json(b)
        return
    print(f"greedy v greedy, Combo 1, {b['games']:,} games a run (deal and discard included), median of {b['runs']} runs")
    print(f"batch engine:     {b['tricks_per_s']:>14,.0f} tricks/s")
    print(f"reference engine: {b['reference_tricks_per_s']:>14,.0f} tricks/s ({b['reference_games']} games a run)")
    print(f"ratio:            {b['ratio']:>14,.0f}x")
    print(f"per CPU-second:   {b['tricks_per_cpu_s']:>14,.0f} tricks ({b['threads']} threads; load average {b['load_average_at_start']:.1f} at start)")
    print(f"JIT warm-up {b['jit_warmup_s']:.2f} s; peak memory {b['peak_rss_mb']:.0f} MB")
