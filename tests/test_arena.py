"""The arena: duplicate bookkeeping, reproducibility, interruption, files and the CLI."""

import json

import numpy as np
import pandas as pd
import pytest

from geolab.cli import main
from geolab.errors import GeolabError
from geolab.game import split_bots
from geolab.lab import arena

STRENGTH = {"weak": 0.0, "mid": 0.7, "strong": 1.5}


def coin_runner(calls=None, interrupt_at=None):
    """A stand-in game: bot a wins with P = sigmoid(strength gap), deals from the block seed."""

    def duplicate(a, b, n, seed):
        if calls is not None:
            calls.append((a, b, n))
            if interrupt_at is not None and len(calls) == interrupt_at:
                raise KeyboardInterrupt
        rng = np.random.default_rng(seed)
        p = 1 / (1 + np.exp(-(STRENGTH[a] - STRENGTH[b])))
        score = (rng.random((n, 2)) < p).astype(float)
        return arena.Duplicate(score, (rng.random((n, 2)) < 0.5).astype(float), np.full((n, 2), 7))

    return duplicate


def test_split_bots_keeps_parameters_together():
    assert split_bots("random,greedy,mc:k=64,budget=10,planner") == ["random", "greedy", "mc:k=64,budget=10", "planner"]
    with pytest.raises(GeolabError, match="named twice"):
        arena.run(coin_runner(), ["weak", "weak"], deals=1, seed=0, progress=False)
    with pytest.raises(GeolabError, match="empty name"):
        split_bots("greedy,,random")


def test_tables_ratings_and_seeding():
    result = arena.run(coin_runner(), ["weak", "mid", "strong"], deals=3000, seed=5, block=1000, progress=False)
    pairs = result.pairs_table()
    assert len(pairs) == 3 and (pairs["deals"] == 3000).all() and (pairs["games"] == 6000).all()
    row = pairs.set_index(["a", "b"]).loc[("weak", "strong")]
    expected = 1 / (1 + np.exp(1.5))
    assert row.ci_low < expected < row.ci_high
    ratings = result.ratings_table().set_index("bot")
    assert list(ratings.index) == ["strong", "mid", "weak"]
    assert ratings.loc["weak", "rating"] == 0 and ratings.loc["weak", "anchor"]
    assert ratings.loc["strong", "ci_low"] < 1.5 * arena.ELO_PER_LOGIT < ratings.loc["strong", "ci_high"]
    again = arena.run(coin_runner(), ["weak", "mid", "strong"], deals=3000, seed=5, block=1000, progress=False)
    pd.testing.assert_frame_equal(pairs, again.pairs_table())


def test_every_pair_plays_the_same_deals():
    seen = {}

    def recording(a, b, n, seed):
        seen.setdefault(tuple(seed.spawn_key), []).append((a, b, n))
        return coin_runner()(a, b, n, seed)

    arena.run(recording, ["weak", "mid", "strong"], deals=2500, seed=9, block=1000, progress=False)
    assert sorted(seen) == [(0,), (1,), (2,)]
    assert all(len(calls) == 3 and len({n for *_, n in calls}) == 1 for calls in seen.values())


def test_interrupt_keeps_finished_blocks():
    calls = []
    result = arena.run(coin_runner(calls, interrupt_at=5), ["weak", "mid", "strong"], deals=5000, seed=1,
                       block=1000, progress=False)
    assert result.interrupted
    # Block 1 (3 pairs) finished; block 2 was cut after one pair, so it is dropped for all pairs.
    assert (result.pairs_table()["deals"] == 1000).all()


def test_interrupt_before_anything_finished():
    with pytest.raises(GeolabError, match="nothing to report"):
        arena.run(coin_runner([], interrupt_at=1), ["weak", "mid"], deals=10, seed=1, progress=False)


def test_arena_cli_writes_files(tmp_path, capsys):
    out = tmp_path / "run"
    assert main(["arena", "ranks", "--bots", "random,greedy", "--games", "30", "--out", str(out), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    pair = report["pairs"][0]
    assert {"a", "b", "games", "win_rate_a", "ci_low", "ci_high"} <= set(pair) and pair["games"] == 60
    assert pair["a"] == "random" and pair["win_rate_a"] < 0.3
    assert {r["bot"] for r in report["ratings"]} == {"random", "greedy"}
    for name in ("pairs.csv", "pairs.parquet", "ratings.csv", "ratings.parquet", "win_rates.png", "ladder.png",
                 "meta.json"):
        assert (out / name).stat().st_size > 0
    meta = json.loads((out / "meta.json").read_text())
    assert meta["bots"] == ["random", "greedy"] and meta["seed"] == 0 and meta["rules"] == "combo1"
    assert not list(out.glob(".*.tmp"))
    assert pd.read_parquet(out / "pairs.parquet").equals(pd.read_csv(out / "pairs.csv"))


def test_arena_cli_user_errors(capsys):
    assert main(["arena", "ranks", "--bots", "greedy"]) == 2
    assert "at least two bots" in capsys.readouterr().err
    assert main(["arena", "ranks", "--bots", "greedy,nobody", "--games", "2"]) == 2
    assert "nobody" in capsys.readouterr().err
