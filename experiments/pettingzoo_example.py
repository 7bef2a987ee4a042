"""A policy in PettingZoo's AEC loop against a geolab bot: its win share with a 95% interval.

    python experiments/pettingzoo_example.py toy --episodes 300          # the test-only game
    python experiments/pettingzoo_example.py ranks --rules combo1 --bot greedy

The policy (random among the legal ids: put yours in `policy`) sits at each seat in turn on
the same seed (duplicate deals), the bot, seated through the registry, at every other seat;
its win share per deal, averaged over its seats, gives the mean and the interval beside the
fair share 1/seats.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

from geolab import registry
from geolab.errors import GeolabError
from geolab.interop import pettingzoo
from geolab.lab.stats import duplicate_interval


def policy(observation, rng) -> int:
    """Any legal id, uniformly."""
    return int(rng.choice(np.flatnonzero(observation["action_mask"])))


def episode(env, me: str, seats: dict, seed: int, rng) -> float:
    """One game dealt from `seed`: the policy as agent `me`, geolab seats for the others;
    the policy's return (its win share)."""
    env.reset(seed=seed)
    returns = {}
    for agent in env.agent_iter():
        observation, reward, terminated, truncated, _ = env.last()
        if terminated or truncated:
            returns[agent] = reward
            action = None
        elif agent == me:
            action = policy(observation, rng)
        else:
            decision = env.decision(agent)
            action = env.action_id(decision, seats[agent].act(decision))
        env.step(action)
    return returns[me]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("game")
    parser.add_argument("--rules", default=None, help="a preset (default: the game's default)")
    parser.add_argument("--bot", default=None, help="the bot at the other seats (default: the game's hint bot)")
    parser.add_argument("--episodes", type=int, default=300, help="deals, each played once per seat")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    if args.game == "toy":  # the test-only game registers itself from tests/
        sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))
        import toy_game

        toy_game.install()
    entry = registry.get(args.game)
    env = pettingzoo.env(args.game, args.rules)
    rules, bot_spec = env.unwrapped.rules, args.bot or entry.hint
    agents, rng = env.possible_agents, np.random.default_rng(args.seed)
    seats = {a: entry.seat(entry.bots.make(bot_spec, rules), rules, np.random.default_rng([args.seed, s]))
             for s, a in enumerate(agents)}  # a bot a seat, as `geolab play` seats them
    per_deal = [np.mean([episode(env, me, seats, args.seed + deal, rng) for me in agents])
                for deal in range(args.episodes)]
    mean, low, high = duplicate_interval(np.array(per_deal), games_per_deal=len(agents))
    print(f"{args.game} ({rules.to_spec()}): random policy vs {bot_spec}: win share {mean:.3f} "
          f"(95% {low:.3f}-{high:.3f}) over {args.episodes} deals x {len(agents)} seats; fair share "
          f"{1 / len(agents):.3f}")


if __name__ == "__main__":
    try:
        main()
    except GeolabError as error:  # a bad game, preset or bot: one line and exit code 2, as geolab's CLI
        print(f"pettingzoo_example: {error}", file=sys.stderr)
        sys.exit(2)
