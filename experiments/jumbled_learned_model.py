"""Train the learned Jumbled GeoPower Choice bot geolab ships -> geolab/data/models/jumbled-learned.pkl

    python experiments/jumbled_learned_model.py [--rounds 20000] [--max-iter 100] [--seed 0] [--out PATH]

`geolab.bots.jumbled.learned.Learned` on the standard rules: simulated rounds with the default
heuristic at every seat except one exploring seat, one random set choice a round logged with
its round margin, gradient-boosted trees fitted to it. The registry's ``learned`` bot plays the
saved file (``learned:model=PATH`` plays another); building it never trains. Run once and
commit the file (the pickle holds its training metadata: rounds, seed, versions, command).
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from geolab.bots.jumbled.learned import DEFAULT_MODEL, Learned
from geolab.games.jumbled.rules import Rules


def main(argv=None) -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--rounds", type=int, default=20000, help="simulated training rounds (default 20000)")
    p.add_argument("--max-iter", type=int, default=100, help="boosting iterations (default 100)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--out", default=str(DEFAULT_MODEL), help=f"model file (default {DEFAULT_MODEL})")
    args = p.parse_args(argv)
    start = time.perf_counter()
    bot = Learned(rounds=args.rounds, max_iter=args.max_iter, random_state=args.seed).fit(Rules.preset("standard"))
    seconds = time.perf_counter() - start
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    command = "python experiments/jumbled_learned_model.py" + (
        f" --rounds {args.rounds} --max-iter {args.max_iter} --seed {args.seed}")
    bot.save(out, command=command, train_seconds=round(seconds, 1))
    print(f"{out}: {out.stat().st_size:,} bytes, trained in {seconds:.1f} s")


if __name__ == "__main__":
    main()
