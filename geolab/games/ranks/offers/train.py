"""`geolab train ranks`: fit a learned Play the Ranks bot from rollouts and save it."""

from __future__ import annotations

from pathlib import Path

from geolab.cli import args as argtypes
from geolab.cli.output import print_json, print_table
from geolab.errors import GeolabError
from geolab.games.ranks.rules import PRESETS, Rules
from geolab.lab.results import check_writable

#: the default continuation policy (`geolab.bots.ranks.learning.training.CONTINUATION`; scikit-learn is
#: imported only when a model is trained, so the command line starts fast)
CONTINUATION = "planner"


def add(games) -> None:
    """`geolab train ranks` (what Play the Ranks offers as ``train``)."""
    p = games.add_parser("ranks", help="Play the Ranks: one model per decision kind (discard, declare, lead, follow)")
    p.add_argument("--rules", default="combo1", choices=list(PRESETS), help="rules preset (default combo1)")
    p.add_argument("--seed", type=argtypes.seed, default=0)
    p.add_argument("--samples", type=argtypes.train_samples, default=20000,
                   help="sampled decisions per kind, each labelled by replaying every legal action (default 20000)")
    p.add_argument("--continuation", default=CONTINUATION,
                   help="policy that plays the deal out after each labelled action, both sides (default "
                        f"{CONTINUATION})")
    p.add_argument("--degree", type=argtypes.train_degree, default=2,
                   help="polynomial degree of the feature terms, 1 or 2 (default 2)")
    p.add_argument("--alpha", type=argtypes.train_alpha, default=1.0, help="ridge penalty (default 1.0)")
    p.add_argument("--out",
                   help="model path (default models/<rules>-s<seed>-n<samples>.joblib); a .json sidecar is written "
                        "beside it")
    p.add_argument("--json", action="store_true")
    p.set_defaults(run=run_train)


def run_train(args) -> None:
    from geolab.bots.ranks.learning import model, training
    if args.degree not in (1, 2):
        raise GeolabError("--degree must be 1 or 2")
    rules = Rules.preset(args.rules)
    out = Path(args.out) if args.out else Path("models") / f"{rules.name}-s{args.seed}-n{args.samples}.joblib"
    for path in (out.with_suffix(".joblib"), model.sidecar(out)):  # the model and its sidecar, before training
        check_writable(path, "file", "--out")
    fitted = training.fit(rules, args.samples, args.seed, args.continuation, degree=args.degree, alpha=args.alpha)
    try:
        path = model.save(fitted, out)
    except OSError as error:
        raise GeolabError(f"cannot write the model to {out}: {error.strerror or error}") from None
    if args.json:
        print_json({"model": str(path), **fitted.meta})
        return
    print(f"trained on {args.samples:,} decisions per kind, rules {rules.name}, seed {args.seed}, "
          f"continuation {args.continuation}, "
          f"{fitted.meta['train_seconds']:.1f} s")  # fmt: skip
    print_table([{"kind": k, **{c: v for c, v in s.items() if c != "margin_gain_ci"}}
                 for k, s in fitted.meta["held_out"].items()])
    print(f"model: {path} (metadata: {model.sidecar(path)}); play it with --bots learned:model={path},greedy")
