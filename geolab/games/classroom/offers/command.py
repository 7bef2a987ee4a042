"""`geolab equilibrium class`: the equilibrium discard of Class GeoPower Double Choice (what the
game offers as ``equilibrium``; the solving is in `geolab.games.classroom.offers.equilibrium`)."""

from __future__ import annotations

from geolab.cli import args as argtypes
from geolab.cli.output import print_json, print_table
from geolab.errors import GeolabError
from geolab.games.classroom.rules import Rules


def add(sub) -> None:
    """`geolab equilibrium class` (what Class GeoPower Double Choice offers as ``equilibrium``)."""
    p = sub.add_parser("class", help="the equilibrium discard per group size and call")
    p.add_argument("--sizes", default="2-16", help="group sizes, e.g. 4 or 2-16 or 3,5")
    p.add_argument("--check", type=argtypes.equilibrium_check, default=0,
                   help="simulated real groups per hand (even; 0 = model only)")
    p.add_argument("--refine", type=argtypes.equilibrium_refine, default=0,
                   help="best-response steps on real deals after the model's solution (needs --check)")
    p.add_argument("--seed", type=argtypes.seed, default=0)
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=run_equilibrium)


def _sizes(text: str) -> list[int]:
    try:
        sizes = set()
        for part in text.split(","):
            lo, _, hi = part.partition("-")
            sizes.update(range(int(lo), int(hi or lo) + 1))
    except ValueError:
        raise GeolabError(f"--sizes: cannot read {text!r} (try 4, 2-16 or 3,5)") from None
    if not sizes or min(sizes) < 2 or max(sizes) > 32:
        raise GeolabError(f"--sizes: group sizes must be within 2-32, got {text!r}")
    return sorted(sizes)


def run_equilibrium(args) -> None:
    from geolab.games.classroom.offers.equilibrium import equilibrium_summary  # numba: only when it runs

    sizes = _sizes(args.sizes)
    if args.check < 0 or args.check % 2:
        raise GeolabError(f"--check: expected an even number of simulated groups per hand, got {args.check}")
    if args.refine < 0 or (args.refine and not args.check):
        raise GeolabError(f"--refine: expected a number of steps >= 0, with --check, got {args.refine}")
    rows = equilibrium_summary(Rules().geopower_p, sizes, args.check, args.seed, args.refine)
    if args.json:
        print_json({"sizes": sizes, "check": args.check, "refine": args.refine, "seed": args.seed, "rows": rows})
        return
    print(COLUMNS if not args.check else f"{COLUMNS}; {CHECK_COLUMNS}")
    print_table(rows)


#: What the columns of the table mean (one line above it; --json has the same keys).
COLUMNS = ("group_size: students in the group; call: top-dog (the lowest sum wins) or bottoms-up (the highest); "
           "iterations: best-response steps to the equilibrium; win_model: a student's chance to win the round "
           "when all play it, under the model (opponents' hands independent); exploitability_model: what a best "
           "response to it gains there; shortfall_<rule>: how much less often a student wins playing that simple "
           "rule against the equilibrium")
CHECK_COLUMNS = ("_real: on real deals (no shared cards), simulated: win_real, exploitability_real the cross-fitted "
                 "gain of a simulated best response (biased down; _plugin: in-sample, biased up; _ci: 95% CI), "
                 "hands_changed_real: share of hands whose best response differs; _refined: the same after "
                 "refine_steps best-response steps on real deals; samples_per_hand, check_seconds: the check's size "
                 "and time")
