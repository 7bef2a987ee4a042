"""What Play the Ranks offers as ``command``: `geolab bench solver`, the oracle's speed on full
Combo 1 deals (the solver and numba are imported only when it runs)."""

from __future__ import annotations

from geolab.cli import args as argtypes


def add(commands) -> None:
    """What Play the Ranks offers as ``command``: `geolab bench solver`."""
    b = commands["bench"].add_parser("solver", help="time the oracle on full Combo 1 deals")
    b.add_argument("--deals", type=argtypes.solver_deals, default=2000, help="deals timed one by one (default 2000)")
    b.add_argument("--batch", type=argtypes.solver_batch, default=100_000,
                   help="deals in the one-call batch (default 100000)")
    b.add_argument("--seed", type=argtypes.seed, default=0)
    b.add_argument("--json", action="store_true")
    b.add_argument("--out", help="also write the JSON report to this file (checked before timing; replaced atomically)")
    b.set_defaults(run=bench_solver)


def bench_solver(args) -> None:
    from geolab.games.ranks.offers.solve import run_bench

    run_bench(args)
