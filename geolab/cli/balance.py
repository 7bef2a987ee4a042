"""`geolab balance GAME` (one variant's report card beside the official rules) and
`geolab sweep SPEC` (variants x line-ups x deals, chunked, resumable, local or on Dask)."""

from __future__ import annotations

import sys
from pathlib import Path

from geolab import registry
from geolab.cli.output import print_json, print_table
from geolab.errors import GeolabError
from geolab.lab import balance, plots, sweep
from geolab.lab.results import ResultSet, check_writable, meta


def register(commands) -> None:
    top = commands["top"]
    p = top.add_parser("balance", help="a rule variant's balance report card beside the official rules")
    sub = p.add_subparsers(dest="game", required=True, parser_class=type(p))
    for name in registry.names():
        q = sub.add_parser(name, help=registry.title(name))
        q.add_argument("--rules", help="the official preset to compare with (default: the game's)")
        q.add_argument("--set", action="append", default=[], metavar="FIELD=VALUE", help="the variant's changes")
        q.add_argument("--games", type=int, default=20_000, help="duplicate deals a line-up (default 20000)")
        q.add_argument("--seed", type=int, default=0)
        q.add_argument("--threads", type=int)
        q.add_argument("--out", help="write balance.csv, balance.png and meta.json here")
        q.add_argument("--json", action="store_true")
        q.set_defaults(run=run_balance, game=name)

    p = top.add_parser("sweep", help="run a sweep spec (TOML): variants x line-ups x deals, resumable")
    p.add_argument("spec", help="a TOML sweep spec (see docs/balance.md)")
    where = p.add_mutually_exclusive_group()
    where.add_argument("--workers", type=int, default=1, help="local processes (default 1)")
    where.add_argument("--scheduler", help="a Dask distributed scheduler address (pip install 'geolab[dask]')")
    p.add_argument("--out", help="the sweep's folder (default results/sweeps/<spec name>)")
    p.add_argument("--resume", action="store_true", help="finish the sweep already in --out")
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=run_sweep)


def run_balance(args) -> None:
    out = check_writable(args.out, "folder", "--out") if args.out else None  # before any work
    entry = registry.get(args.game)
    Rules = entry.game.Rules
    official = Rules.preset(args.rules or Rules.DEFAULT)
    if not args.set:
        raise GeolabError("balance: name the variant with --set field=value (see geolab rules GAME)")
    variant = official.with_settings(args.set)
    if args.games < 1:
        raise GeolabError("--games must be at least 1")
    card, info = balance.report_card(entry.name, official, variant, args.games, args.seed, args.threads)
    title = f"{entry.game.title}: {', '.join(args.set)} v {official.to_spec()}"
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
          f"seat; skill: {info['skill_line_up']}), seed {args.seed}")
    print("difference: variant minus official; ci_half_width: its 95% interval; significant: at 5%")
    print_table(card.to_dict("records"))
    if out is not None:
        print(f"balance.csv, balance.png, meta.json: {written.path}/")


def run_sweep(args) -> None:
    spec = sweep.load_spec(args.spec)
    if args.workers < 1:
        raise GeolabError(f"--workers must be at least 1, got {args.workers}")
    out = Path(args.out) if args.out else Path("results") / "sweeps" / Path(args.spec).stem

    def progress(done: int, total: int) -> None:
        if not args.json:
            print(f"\rchunks {done:,}/{total:,}", end="", file=sys.stderr, flush=True)

    table = sweep.run(spec, out, workers=args.workers, scheduler=args.scheduler, resume=args.resume,
                      progress=progress)
    if not args.json:
        print(file=sys.stderr)
    best = sweep.rank(table, spec.objective) if spec.objective else None
    if args.json:
        print_json({"out": str(out), "summary": table.to_dict("records"),
                    "best": None if best is None else best.head(5).to_dict("records")})
        return
    columns = ["variant", "lineup", "deals", "first_share", "first_ci_low", "first_ci_high", "balance", "a_share",
               "shared_rate", "mean_length"]
    print(f"sweep {args.spec}: {len(spec.variants)} variants x {len(spec.lineups)} line-ups x {spec.deals:,} deals; "
          f"first_share: the first mover's win share (fair {table['fair_share'].iloc[0]:.3f}), 95% CI over deals")
    print_table(table[columns].to_dict("records"))
    if best is not None:
        print(f"\nbest by {spec.objective}:")
        print_table(best[columns].head(5).to_dict("records"))
    print(f"summary.csv and the chunks: {out}/")
