"""`geolab balance GAME` (one variant's report card beside the official rules),
`geolab sweep SPEC` (variants x line-ups x deals, chunked, resumable, local or on Dask) and
`geolab search SPEC` (the rules that best meet a goal, found by racing)."""

from __future__ import annotations

import sys
from pathlib import Path

from geolab import registry
from geolab.cli.output import print_json, print_table
from geolab.errors import GeolabError
from geolab.lab.results import ResultSet, check_writable, meta, save_figure, write_json


def register(commands) -> None:
    top = commands["top"]
    p = top.add_parser("balance", help="the official rules' balance report card, or a rule variant's beside it")
    sub = p.add_subparsers(dest="game", required=True, parser_class=type(p))
    for name in registry.names():
        q = sub.add_parser(name, help=registry.title(name))
        q.add_argument("--rules", help="the official preset to compare with (default: the game's)")
        q.add_argument("--set", action="append", default=[], metavar="FIELD=VALUE", help="the variant's changes")
        q.add_argument("--variant", metavar="FILE.toml",
                       help="the variant from a TOML file: rules fields (end_at = 5), or a sweep spec (pick one with "
                            "--name); --set applies on top")
        q.add_argument("--name", help="the variant of a --variant sweep spec holding several")
        q.add_argument("--games", type=int, default=20_000, help="duplicate deals a line-up (default 20000)")
        q.add_argument("--skill-curve", action="store_true",
                       help="the search bot at doubling sample counts, each over the one below (slow: --search-games)")
        q.add_argument("--skill-share", action="store_true",
                       help="van der Genugten and Borm's skill share, the peeking oracle as the player who knows the "
                            "cards (where one is registered; --search-games)")
        q.add_argument("--restricted", action="store_true",
                       help="restricted play: the win-rate cost of forbidding one choice (--games)")
        q.add_argument("--all", action="store_true", help="--skill-curve --skill-share --restricted")
        q.add_argument("--search-games", type=int, default=200,
                       help="duplicate deals for the skill curve and skill share (default 200)")
        q.add_argument("--strong", metavar="BOT",
                       help="the strong player of the skill share (default: the game's first simulate bot)")
        q.add_argument("--seed", type=int, default=0)
        q.add_argument("--threads", type=int)
        q.add_argument("--out", help="write balance.csv, balance.png and meta.json here")
        q.add_argument("--json", action="store_true")
        q.set_defaults(run=run_balance, game=name)

    p = top.add_parser("sweep", help="run a sweep spec (TOML): variants x line-ups x deals, resumable")
    _spec_run(p, "sweep", "docs/balance.md", "results/sweeps/<spec name>")
    p.set_defaults(run=run_sweep)

    p = top.add_parser("search", help="search a space of rules for the best by a goal (TOML spec): racing on "
                                      "duplicate deals, resumable")
    _spec_run(p, "search", "docs/rule-search.md", "results/search/rules/<spec name>")
    p.set_defaults(run=run_search)


def _spec_run(p, what: str, doc: str, default_out: str) -> None:
    """The arguments of a run from a TOML spec (sweep, search): where it runs, its folder, resume."""
    p.add_argument("spec", help=f"a TOML {what} spec (see {doc})")
    where = p.add_mutually_exclusive_group()
    where.add_argument("--workers", type=int, default=1, help="local processes (default 1)")
    where.add_argument("--scheduler", help="a Dask distributed scheduler address (pip install 'geolab[dask]')")
    p.add_argument("--out", help=f"the {what}'s folder (default {default_out})")
    p.add_argument("--resume", action="store_true", help=f"finish the {what} already in --out")
    p.add_argument("--json", action="store_true")


def run_balance(args) -> None:
    from geolab.lab import balance, plots, sweep  # matplotlib and pandas: only when a card is made

    out = check_writable(args.out, "folder", "--out") if args.out else None  # before any work
    entry = registry.get(args.game)
    Rules = entry.game.Rules
    if args.name and not args.variant:
        raise GeolabError("--name picks a variant of a --variant file; give the file")
    if args.games < 1 or args.search_games < 1:
        raise GeolabError("--games and --search-games must be at least 1")
    if args.variant:
        label, variant, official = sweep.load_variant(args.variant, entry.name, args.name, args.rules)
        names = [label, *args.set]
    else:
        official = Rules.preset(args.rules or Rules.DEFAULT)
        variant, names = official, list(args.set)
    variant = variant.with_settings(args.set) if args.set else variant
    if not args.set and not args.variant:
        variant = None  # no variant named: the official rules' own card
    if args.strong:
        entry.bots.make(args.strong, official)  # a bad name is refused before any work
    every = args.all
    card, info = balance.report_card(entry.name, official, variant, args.games, args.seed, args.threads,
                                     skill_curve=every or args.skill_curve, skill_share=every or args.skill_share,
                                     restricted=every or args.restricted, search_deals=args.search_games,
                                     strong=args.strong)
    info["variant_name"] = ", ".join(names) if variant is not None else None
    title = (f"{entry.game.title}: {', '.join(names)} v {official.to_spec()}" if variant is not None
             else f"{entry.game.title}: the official rules ({official.to_spec()})")
    if out is not None:
        fig = balance.plot(card, f"{title}\n{args.games:,} duplicate deals a line-up, seed {args.seed}")
        with ResultSet(out) as written:
            written.table(card, "balance")
            written.figure(fig, "balance.png")
            written.json(meta(run_id=written.run_id, **info), "meta.json")
        plots.close(fig)
    if args.json:
        print_json({**info, "metrics": card.to_dict("records")})
        return
    print(f"{title}; {args.games:,} duplicate deals a line-up (seat advantage: {info['seat_line_up']} at every "
          f"seat; skill: {info['skill_line_up'] or 'none'}), seed {args.seed}")
    if variant is None:
        print("value: the official rules' measure; ci_low, ci_high: its 95% interval; n: deals (series, for series "
              "lines); name a variant with --set FIELD=VALUE or --variant FILE.toml to compare")
    else:
        print("difference: variant minus official; ci_half_width: its 95% interval; significant: at 5%; "
              "n: deals (series, for series lines)")
    print_table(card.to_dict("records"))
    for note in info["not_applicable"]:
        where = "" if note["rules"] == "both" else f" ({note['rules']} rules)"
        print(f"not measured{where}: {note['metric']}: {note['reason']}")
    blanks: dict[str, list[str]] = {}  # reason -> the lines it empties, said once
    for b in info["blank"]:
        blanks.setdefault(b["reason"], []).append(f"{b['metric']} ({b['line_up']})")
    for reason, lines in blanks.items():
        print(f"no value (-) in {'; '.join(lines)}: {reason}")
    if out is not None:
        print(f"balance.csv, balance.png, meta.json: {written.path}/")


def run_sweep(args) -> None:
    from geolab.lab import sweep
    from geolab.lab.progress import bar

    spec = sweep.load_spec(args.spec)
    if args.workers < 1:
        raise GeolabError(f"--workers must be at least 1, got {args.workers}")
    out = Path(args.out) if args.out else Path("results") / "sweeps" / Path(args.spec).stem

    shown = []  # a tqdm bar on a terminal; elsewhere one line a finished chunk

    def progress(done: int, total: int) -> None:
        if args.json:
            return
        if not sys.stderr.isatty():
            print(f"geolab: sweep: chunk {done:,}/{total:,} done", file=sys.stderr, flush=True)
            return
        if not shown:
            shown.append(bar(total, unit="chunks", enabled=True))
            shown[0].update(done - 1)
        shown[0].update(1)

    try:
        table = sweep.run(spec, out, workers=args.workers, scheduler=args.scheduler, resume=args.resume,
                          progress=progress)
    finally:
        for b in shown:
            b.close()
    best = sweep.rank(table, spec.objective) if spec.objective else None
    if args.json:
        print_json({"out": str(out), "summary": table.to_dict("records"),
                    "best": None if best is None else best.head(5).to_dict("records")})
        return
    columns = ["variant", "lineup", "deals", "first_share", "first_ci_low", "first_ci_high", "balance", "a_share",
               "skill_edge", "shared_rate", "mean_length"]
    print(f"sweep {args.spec}: {len(spec.variants)} variants x {len(spec.lineups)} line-ups x {spec.deals:,} deals; "
          f"first_share: the first mover's win share (fair {table['fair_share'].iloc[0]:.3f}), 95% CI over deals")
    print("balance: 1 - the gap between the best and worst position's win share, positions counted from the first "
          "mover; a_share: the line-up's first bot's win share, skill_edge: a_share minus its fair share (its seats / "
          "seats; both empty in self-play); shared_rate: games with a shared win (ties, draws); mean_length: the "
          f"game's mean length ({spec.entry().game.length_unit})")
    print_table(table[columns].to_dict("records"))
    if best is not None:
        print(f"\nbest by {spec.objective}:")
        print_table(best[columns].head(5).to_dict("records"))
    print(f"summary.csv and the chunks: {out}/")


def run_search(args) -> None:
    from geolab.lab import plots, search
    from geolab.lab.progress import bar

    spec = search.load_search(args.spec)  # every check before any work
    if args.workers < 1:
        raise GeolabError(f"--workers must be at least 1, got {args.workers}")
    out = Path(args.out) if args.out else Path("results") / "search" / "rules" / Path(args.spec).stem
    check_writable(out, "folder", "--out", taken_ok=True)
    shown = []  # a tqdm bar over the rounds on a terminal; elsewhere one line a round

    def progress(status: dict) -> None:
        if args.json:
            return
        text = (f"{status['candidates']:,} candidates, {status['alive']:,} racing, {status['deals']:,} deals, "
                f"best {status['best']} ({spec.metric} {status['best_value']:.4f})" if status["best"] else
                f"{status['candidates']:,} candidates, {status['alive']:,} racing, {status['deals']:,} deals, best: "
                "none yet meets the bounds by its estimate")
        if status.get("champion"):
            text += f"; champion {status['champion_status']} at {status['champion_deals']:,} deals"
        if not sys.stderr.isatty():
            print(f"geolab: search: {text}", file=sys.stderr, flush=True)
            return
        if not shown:
            shown.append(bar(len(spec.depths()) if spec.proposer == "grid" else 0, unit="rounds", enabled=True))
        shown[0].update(1)
        shown[0].set_postfix_str(text)

    try:
        result = search.run(spec, out, workers=args.workers, scheduler=args.scheduler, resume=args.resume,
                            progress=progress)
    finally:
        for b in shown:
            b.close()
    fig = search.plot(result, spec)
    info = {"spec": args.spec, "game": spec.game, "rules": spec.rules, "lineups": list(spec.lineups),
            "objective": f"{spec.sense} {spec.metric} ({spec.objective_lineup})",
            "bounds": [b.text() for b in spec.bounds], "proposer": spec.proposer,
            "candidates": len(result["candidates"]), "winner": result["winner"],
            "winner_overrides": result["winner_overrides"], "same_as_winner": result["same_as_winner"],
            "deals_spent": result["deals_spent"],
            "uniform_deals": result["uniform_deals"], "saving": result["saving"],
            "confidence": spec.confidence, "racing_confidence_each": result["racing_confidence_each"],
            "seed": spec.seed, "fresh_seed": result["fresh_seed"], "recheck_deals": spec.recheck,
            "regenerate": f"geolab search {args.spec}"}
    for name in ("candidates", "rounds", "recheck"):
        result[name].to_csv(out / f"{name}.csv", index=False)
    save_figure(fig, out / "search.png")
    write_json(meta(**info), out / "meta.json")
    plots.close(fig)
    if args.json:
        print_json({**info, "out": str(out), "recheck": result["recheck"].to_dict("records")})
        return
    print(f"search {args.spec}: {info['candidates']:,} candidates of {spec.game} ({spec.rules}), "
          f"{info['objective']}" + (f" subject to {'; '.join(info['bounds'])}" if spec.bounds else ""))
    print(f"deals: {result['deals_spent']:,} played (each line-up counted), a uniform sweep to the same confidence "
          f"{result['uniform_deals']:,} ({result['saving']:.1f}x); drops at {spec.confidence:.0%} for all "
          "candidates, bounds and rounds together (union bound)")
    if result["winner"] is None:
        print("no candidate meets the bounds")
    else:
        print(f"winner: {result['winner']}; re-checked with the runners-up on {spec.recheck:,} fresh deals (seed "
              f"{result['fresh_seed']}), 95% intervals:")
        print_table(result["recheck"].drop(columns=["overrides", "seed"]).to_dict("records"))
        if len(result["recheck"]) < 1 + spec.runners_up:
            print(f"runners-up: {len(result['recheck']) - 1} of {spec.runners_up} asked (no other final candidate, "
                  "playing other games than those above, meets the bounds by its estimate)")
        if result["same_as_winner"]:
            print(f"the same games as the winner (the same numbers on the same deals): "
                  f"{'; '.join(result['same_as_winner'])}")
    print(f"candidates.csv, rounds.csv, recheck.csv, search.png, meta.json and the chunks: {out}/")
