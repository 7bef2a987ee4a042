"""Issue 15, inputs: every defect found by hand is a test here (each failed before the fix).
Every user-facing input is checked before any work starts: the command line's numbers, bot
parameters, Rules, records (one path: `geolab.records.load` and `replay_played`, for
`replay`, `solve` and every reader), and bots that break the rules in the batch engines.
The property-based side (random mutations of every game's records, Rules and argument
vectors) is tests/test_fuzz.py; docs/reliability.md ("Inputs") lists what checks what."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import numpy as np
import pytest

from geolab import records, registry
from geolab.cli import main
from geolab.errors import BotError, GeolabError, IllegalActionError, RecordError, RulesError
from geolab.game import BatchBot
from geolab.lab.tables import MAX_GAMES, lineup
from geolab.stepwise import RandomSeat

#: Top Rank and its match (the rigs: tests/conftest.py) are registered for every test here.
pytestmark = pytest.mark.usefixtures("rigs")

RECORDS = Path(__file__).parent / "records"


def run(argv, capsys) -> tuple[int, str, str]:
    """(exit code, stdout, stderr) of `geolab argv`; a usage error's SystemExit counts too."""
    capsys.readouterr()
    try:
        code = main(argv)
    except SystemExit as stop:
        code = stop.code
    out, err = capsys.readouterr()
    return code, out, err


def refused(argv, capsys, *words) -> str:
    code, _, err = run(argv, capsys)
    assert code == 2, (argv, err)
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err, err
    for word in words:
        assert word in err, (word, err)
    return err


# ----- the command line's numbers -----------------------------------------------------------
SEED_COMMANDS = [
    ["simulate", "toy", "--games", "5"], ["simulate", "ranks", "--games", "5"], ["arena", "toy", "--games", "2"],
    ["bench", "ranks"], ["bench", "solver", "--deals", "1", "--batch", "1"], ["play", "ranks"],
    ["train", "ranks", "--samples", "50"], ["equilibrium", "class", "--sizes", "2"],
]


@pytest.mark.parametrize("argv", SEED_COMMANDS, ids=lambda a: " ".join(a[:2]))
@pytest.mark.parametrize("seed", ["-1", str(2**63), "9" * 40])
def test_a_seed_out_of_range_is_one_line_before_any_work(argv, seed, capsys, tmp_path):
    err = refused([*argv, "--seed", seed], capsys, "--seed")
    assert "at least 0" in err or "at most 9,223,372,036,854,775,807" in err


@pytest.mark.parametrize("argv, flag, value, words", [
    (["simulate", "toy"], "--games", "0", "at least 1"),
    (["simulate", "toy"], "--games", "-1", "at least 1"),
    (["simulate", "toy"], "--games", str(10**13), "at most 1,000,000,000"),
    (["simulate", "toy"], "--chunk", "0", "at least 1"),
    (["simulate", "toy"], "--chunk", str(10**13), "at most"),
    (["simulate", "toy"], "--threads", "0", "at least 1"),
    (["simulate", "toy"], "--threads", "500", "the larger of 64 and 8 a core"),
    (["arena", "toy"], "--games", "0", "at least 1"),
    (["arena", "toy"], "--games", str(10**13), f"at most {MAX_GAMES:,}"),
    (["arena", "toy"], "--threads", "-1", "at least 1"),
    (["bench", "ranks"], "--games", "0", "at least 1"),
    (["bench", "ranks"], "--games", str(10**13), "held in memory"),
    (["bench", "jumbled"], "--threads", "500", "at most"),  # the bench's workers
    (["bench", "ranks"], "--runs", "0", "at least 1"),
    (["bench", "solver"], "--deals", "0", "at least 1"),
    (["bench", "solver"], "--deals", "-1", "at least 1"),
    (["bench", "solver"], "--deals", str(10**13), "at most"),
    (["bench", "solver"], "--batch", "0", "at least 1"),
    (["bench", "solver"], "--batch", str(10**13), "held in memory"),
    (["train", "ranks"], "--samples", str(10**13), "at most"),
    (["train", "ranks"], "--alpha", "nan", "finite"),
    (["train", "ranks"], "--alpha", "-1", "above 0"),
    (["equilibrium", "class"], "--check", str(10**13), "at most"),
    (["equilibrium", "class"], "--refine", str(10**13), "at most"),
])
def test_sizes_out_of_range_are_one_line_naming_the_limit(argv, flag, value, words, capsys):
    refused([*argv, flag, value], capsys, flag, words)


def test_the_arena_bounds_every_game_it_keeps(capsys, tmp_path):
    refused(["arena", "toy", "--bots", "first,best,best:greed=0.5", "--games", str(MAX_GAMES), "--out",
             str(tmp_path / "a")], capsys, "MAX_GAMES")


def test_a_number_that_is_not_one_is_a_usage_error(capsys):
    refused(["simulate", "toy", "--games", "many"], capsys, "invalid int value")
    refused(["simulate", "toy", "--seed", "9" * 5000], capsys, "invalid int value")


# ----- bot parameters ------------------------------------------------------------------------
@pytest.mark.parametrize("game, spec, words", [
    ("ranks", "montecarlo:budget_ms=0", "budget_ms must be above 0"),
    ("ranks", "montecarlo:budget_ms=-5", "budget_ms must be above 0"),
    ("ranks", "montecarlo:cap_ms=0", "cap_ms"),
    ("ranks", "montecarlo:k=0", "k must be within 1-10,000"),
    ("ranks", "montecarlo:k=10000000000000", "k must be within 1-10,000"),
    ("ranks", "montecarlo:seed=-1", "seed must be within 0-"),
    ("ranks", "montecarlo:infer=-1", "infer"),
    ("ranks", "montecarlo:infer_temperature=0", "infer_temperature must be above 0"),
    ("ranks", "montecarlo:infer_model=/nowhere/model", "no learned model at /nowhere/model"),
    ("ranks", "ismcts:iterations=0", "iterations"),
    ("ranks", "ismcts:iterations=10000000000000", "iterations must be within 1-10,000,000"),
    ("ranks", "ismcts:layouts=0", "layouts"),
    ("ranks", "ismcts:budget_ms=0", "budget_ms"),
    ("ranks", "counter:concede=0", "concede"),
    ("jumbled", "montecarlo:samples=0", "samples must be within 1-10,000"),
    ("jumbled", "montecarlo:samples=-3", "samples"),
    ("jumbled", "montecarlo:samples=100000000000000", "samples"),
])
def test_bot_parameters_out_of_range_are_refused_with_the_range(game, spec, words):
    entry = registry.get(game)
    with pytest.raises(GeolabError, match=words):
        entry.bots.make(spec, entry.game.Rules.preset(entry.game.Rules.DEFAULT))


def test_a_bad_bot_parameter_is_one_line_from_the_command_line(capsys):
    refused(["simulate", "ranks", "--bots", "montecarlo:budget_ms=0,greedy", "--games", "2"], capsys, "budget_ms")


# ----- Rules ---------------------------------------------------------------------------------
@pytest.mark.parametrize("game, spec, words", [
    ("jumbled", {"geopower_deck": [100, 100, 100]}, "at most 50 cards of each word"),
    ("jumbled", {"max_rounds": 10**9}, "max_rounds"),
    ("jumbled", {"players": 9, "cards_dealt": 5}, "at most 8 players"),
    ("ranks", {"win_points": [1, 1, 10**20]}, "win_points"),
    ("ranks", {"end_at": 6.0}, "end_at must be a whole number"),
    ("ranks", {"hidden_lead": "yes"}, "hidden_lead must be true or false"),
    ("ranks", {"discards_public": 1}, "discards_public must be true or false"),
    ("class", {"two_decks": "true"}, "two_decks"),
    ("class", {"students": [20]}, "students"),
    ("class", {"students": 20.0}, "students"),
    ("class", {"students": "20"}, "students"),
    ("toy", {"seats": 10**5000}, "seats"),
    ("class", {"min_group_size": 0, "max_groups": 30, "groups": 30}, "2 to 16 groups"),  # empty groups: it hung
    ("class", {"min_groups": 1, "groups": 1}, "2 to 16 groups"),  # one group: a TypeError
    ("class", {"max_groups": 32, "groups": 32, "students": 32, "min_group_size": 1}, "2 to 16 groups"),  # 2**31 splits
])
def test_rules_fields_of_the_wrong_type_or_range_are_rules_errors(game, spec, words):
    Rules = registry.get(game).game.Rules
    with pytest.raises(RulesError, match=words) as error:
        Rules.from_spec(spec)
    assert len(str(error.value)) < 300 and "\n" not in str(error.value)


def test_a_set_value_of_thousands_of_digits_is_one_line(capsys):
    refused(["simulate", "toy", "--set", "seats=" + "9" * 5000], capsys, "seats")


# ----- records -------------------------------------------------------------------------------
def ranks_record(name: str = "combo1_five_then_three") -> dict:
    return records.load(RECORDS / f"{name}.json")


def replay_refused(record, capsys, tmp_path, *words, command: str = "replay") -> str:
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    return refused([command, str(path)], capsys, *words)


def test_a_file_that_is_not_utf8_is_one_line(tmp_path, capsys):
    path = tmp_path / "latin1.json"
    path.write_bytes(json.dumps(ranks_record()).replace('"combo1"', '"comb\xe9"').encode("latin-1"))
    refused(["replay", str(path)], capsys, "not UTF-8")


@pytest.mark.parametrize("depth", [40, 5000, 200_000])
def test_deeply_nested_json_is_one_line(depth, tmp_path, capsys):
    path = tmp_path / "deep.json"
    path.write_text("[" * depth + "]" * depth)
    refused(["replay", str(path)], capsys, "nested more than 32 deep")


def test_a_number_of_thousands_of_digits_is_one_line(tmp_path, capsys):
    path = tmp_path / "digits.json"
    path.write_text(json.dumps(ranks_record()).replace('"format"', '"seed": ' + "7" * 5000 + ', "format"', 1))
    refused(["replay", str(path)], capsys, "digits")


def test_a_huge_file_is_refused_naming_the_limit(tmp_path, capsys):
    path = tmp_path / "huge.json"
    path.write_text(json.dumps({**ranks_record(), "players": {"A": "x" * (11 * 1024 * 1024)}}))
    refused(["replay", str(path)], capsys, "10 MB")


@pytest.mark.parametrize("text, words", [
    ('{"format": "geolab-record/1", "format": "geolab-record/1"}', "given twice"),
    ('{"format": NaN}', "NaN"),
    ('{"format": 1e999}', "too large"),
])
def test_json_beyond_the_standard_is_refused(text, words, tmp_path, capsys):
    path = tmp_path / "odd.json"
    path.write_text(text)
    refused(["replay", str(path)], capsys, words)


@pytest.mark.parametrize("command", ["replay", "solve"])
def test_a_top_level_list_and_a_game_that_is_a_list_are_one_line(command, tmp_path, capsys):
    replay_refused([ranks_record()], capsys, tmp_path, "expected a JSON object", command=command)
    replay_refused({**ranks_record(), "game": ["play-the-ranks"]}, capsys, tmp_path, "game", command=command)


@pytest.mark.parametrize("value", ["6", 6.0, [6], True])
def test_a_rules_field_of_the_wrong_type_in_a_record_is_one_line(value, tmp_path, capsys):
    replay_refused({**ranks_record(), "rules": {"preset": "combo1", "end_at": value}}, capsys, tmp_path, "end_at")


def test_solve_checks_the_format_and_the_result(tmp_path, capsys):
    other = {**ranks_record(), "format": "geolab-record/2", "result": False}
    replay_refused(other, capsys, tmp_path, "format", command="solve")
    wrong = ranks_record()
    wrong["result"]["winner"] = "B" if wrong["result"]["winner"] == "A" else "A"
    replay_refused(wrong, capsys, tmp_path, "result.winner", command="solve")
    replay_refused({**ranks_record(), "result": False}, capsys, tmp_path, "result", command="solve")


def _trick(change):
    def apply(record):
        change(record["tricks"][0])
        return record
    return apply


@pytest.mark.parametrize("name, change, words", [
    ("text_georgia_base_1", _trick(lambda t: t.__setitem__("base", 1.0)), "trick 1.base: expected a whole number"),
    ("text_georgia_base_1", _trick(lambda t: t.__setitem__("base", True)), "trick 1.base"),
    ("text_nm_v_ak_statehood", _trick(lambda t: t.__setitem__("base", 1.0)), "trick 1.base"),
    ("combo1_five_then_three", lambda r: {**r, "rules": {"preset": "combo1", "end_at": 6.0}}, "end_at"),
    ("text_georgia_base_1", lambda r: {**r, "declarations": {"A": "yes", "B": False}}, "declarations.A"),
    ("text_georgia_base_1", lambda r: {**r, "declarations": {"A": 1, "B": False}}, "declarations.A"),
    ("combo1_five_then_three", lambda r: {**r, "notes": "hand-made"}, "notes: unknown key"),
    ("combo1_five_then_three", _trick(lambda t: t.__setitem__("comment", "x")), "trick 1: unknown key 'comment'"),
    ("combo1_five_then_three", lambda r: {**r, "power_bases": None}, "power_bases: rules combo1 do not use"),
    ("combo1_five_then_three", lambda r: {**r, "power_bases": [10, 20]}, "power_bases"),
    ("combo1_five_then_three", lambda r: {**r, "declarations": {"A": False, "B": False}}, "declarations"),
    ("battle3_equal_distance_lead_wins", lambda r: {**r, "power_bases": [float(b) for b in r["power_bases"]]},
     "power_bases"),
    ("text_nm_v_ak_statehood", lambda r: {**r, "first_lead": None}, "first_lead"),
    ("combo1_five_then_three", lambda r: {**r, "seed": 2**63}, "seed"),
    ("combo1_five_then_three", lambda r: {**r, "seed": 3.0}, "seed"),
    ("combo1_five_then_three", lambda r: {**r, "result": {**r["result"], "tricks_played": 8.0}},
     "result.tricks_played"),
    ("combo1_five_then_three", lambda r: {**r, "result": None}, "result"),
    ("combo1_five_then_three", lambda r: {**r, "deal": {**r["deal"], "A": [c.lower() for c in r["deal"]["A"]]}},
     "deal.A: unknown postal code"),
])
def test_play_the_ranks_wrong_acceptances_are_refused(name, change, words, tmp_path, capsys):
    record = change(copy.deepcopy(ranks_record(name)))
    replay_refused(record, capsys, tmp_path, words)


def _played_record(game: str, preset: str | None = None, seed: int = 0) -> dict:
    entry = registry.get(game)
    rules = entry.game.Rules.preset(preset or entry.game.Rules.DEFAULT)
    rng = np.random.default_rng(seed)

    played = entry.game.play(rules, entry.game.deal(rules, rng),
                             [RandomSeat(rng) for _ in range(entry.game.seats(rules))])
    return json.loads(json.dumps(entry.game.to_record(played)))


@pytest.mark.parametrize("game, change, words", [
    ("jumbled", lambda r: r["rounds"][0].__setitem__("note", 1), "round 1: unknown key 'note'"),
    ("jumbled", lambda r: r["rounds"][0]["sets"][0].__setitem__("winner", "A"), "round 1: set 1: unknown key"),
    ("jumbled", lambda r: r["rounds"][0]["sets"][0].__setitem__("geopower", ["size"]), "geopower"),
    ("jumbled", lambda r: r["rounds"][0].__setitem__("call", ["top-dog"]), "call"),
    ("jumbled", lambda r: r.__setitem__("rules", {"geopower_deck": [100, 100, 100]}), "geopower_deck"),
    ("jumbled", lambda r: r["result"].__setitem__("finished", 1), "result.finished"),
    ("class", lambda r: r["rounds"][0].__setitem__("teacher", "x"), "round 1: unknown key 'teacher'"),
    ("class", lambda r: r["rounds"][0].__setitem__("call", ["top-dog"]), "call"),
    ("class", lambda r: r.__setitem__("extra", {}), "extra: unknown key"),
    ("toy", lambda r: r.__setitem__("extra", {}), "extra: unknown key"),
    ("toy", lambda r: r["result"]["scores"].__setitem__("A", bool(r["result"]["scores"]["A"])), "result.scores"),
])
def test_other_games_refuse_unknown_keys_and_wrong_types(game, change, words, tmp_path, capsys):
    record = _played_record(game)
    change(record)
    replay_refused(record, capsys, tmp_path, words)


#: A whole number of more than 4,300 digits: Python refuses to print it (``str`` raises
#: ValueError), so a reader must bound or `shown` it before it says it. A file cannot hold one
#: (`records.parse` refuses numbers of more than 19 digits); a record built in Python can.
UNPRINTABLE = 7 ** 6000


@pytest.mark.parametrize("game, preset, change, words", [
    ("ranks", "combo1", lambda r: r.__setitem__("format", UNPRINTABLE), "format: expected 'geolab-record/1'"),
    ("ranks", "combo1", lambda r: r["tricks"][0].__setitem__("category", UNPRINTABLE), "trick 1: unknown category"),
    ("ranks", "combo1", lambda r: r["tricks"][0].__setitem__("base", UNPRINTABLE), "trick 1.base: expected a whole"),
    ("ranks", "battle2", lambda r: r["tricks"][0].__setitem__("base", UNPRINTABLE), "trick 1.base: expected a whole"),
    ("toy", "race", lambda r: r["race"][0].__setitem__(1, UNPRINTABLE), "race: expected"),
])
def test_numbers_too_long_to_print_are_one_line_in_process(game, preset, change, words):
    """Issue 37: each was a ValueError or an OverflowError, not a `RecordError`."""
    record = _played_record(game, preset, seed=1)
    change(record)
    with pytest.raises(RecordError) as caught:
        records.replay(record)
    assert words in str(caught.value) and "\n" not in str(caught.value)


def test_every_reader_of_records_takes_the_one_path():
    """`replay_record` of each game checks the envelope too (it used to skip it for Class)."""
    from geolab.games.classroom.records import replay_record

    record = _played_record("class")
    with pytest.raises(RecordError, match="unknown key"):
        replay_record({**record, "extra": 1})
    with pytest.raises(RecordError, match="format"):
        replay_record({**record, "format": "geolab-record/2"})


# ----- bots that break the rules -------------------------------------------------------------
def _fail(*args, **kwargs):
    raise ZeroDivisionError("the bot divided by zero\nand said so on two lines")


class Broken(BatchBot):
    """A registered bot whose every decision method raises (its other attributes are the real
    bot's, except `fused`, so the Play the Ranks engine asks it through `act`)."""

    # race, stage_policy: GeoDouble's and Border-Up's
    METHODS = ("act", "call", "discard_table", "race", "stage_policy",
               "choose")  # Combo 1's team, at the afternoon's choices

    def __init__(self, bot, name="broken-bot"):
        self.bot, self.name, self.thread_safe = bot, name, bot.thread_safe
        if type(bot).act is not BatchBot.act:
            self.act = _fail

    def __getattr__(self, key):
        if key in self.METHODS and hasattr(self.bot, key):
            return _fail
        return getattr(self.bot, key)


#: Where a game asks its bot itself only under some preset: a Combo 1 team is asked for itself at
#: the afternoon's choices (its games' bots are asked by their own games' engines).
BROKEN_PRESET = {"combo1": "afternoon"}


@pytest.mark.parametrize("game", registry.names())
def test_an_exception_inside_a_bot_is_one_line_naming_bot_game_and_decision(game):
    entry = registry.get(game)
    rules = entry.game.Rules.preset(BROKEN_PRESET.get(game, entry.game.Rules.DEFAULT))
    names = lineup(entry.simulate_bots.split(","), entry.game.seats(rules))
    made = {n: entry.bots.make(n, rules) for n in set(names)}
    seats = [made[n] for n in names]
    seats[0] = Broken(seats[0])
    with pytest.raises(BotError) as error:
        entry.game.batch(rules, seats, 10, 1, threads=1)
    text = str(error.value)
    assert "broken-bot" in text and f"{game}:" in text and "failed on the" in text and "ZeroDivisionError" in text
    assert "\n" not in text


def test_the_class_engine_refuses_a_table_value_that_int8_would_wrap():
    entry = registry.get("class")
    rules = entry.game.Rules.preset("default")
    good = entry.bots.make("equilibrium", rules)

    class Table(BatchBot):
        def __init__(self, table, name):
            self.table, self.name = table, name

        def discard_table(self, rules):
            return self.table

    wrapped = good.discard_table(rules).astype(np.int16)
    wrapped[0, 3, 7] = 258  # int8(258) == 2: it used to play as a discard of position 2
    floats = good.discard_table(rules).astype(float) + 0.4
    for table, words in ((wrapped, "holds 258"), (floats, "whole numbers"), (wrapped[:, :4] % 3, "shape")):
        with pytest.raises(IllegalActionError, match=words) as error:
            entry.game.batch(rules, [Table(table, "odd-table")] * rules.students, 5, 0)
        assert "odd-table" in str(error.value) and "discard" in str(error.value)


def test_the_jumbled_engine_refuses_float_masks_and_calls():
    from geolab.games.jumbled.game import GAME

    entry = registry.get("jumbled")
    rules = entry.game.Rules.preset("standard")
    base = entry.bots.make("heuristic", rules)

    class Floats(BatchBot):
        name = "float-bot"

        def __init__(self, masks: bool):
            self.masks = masks

        def act(self, obs, rng):
            got = base.act(obs, rng)
            return got + 0.7 if self.masks else got

        def call(self, obs, rng):
            got = base.call(obs, rng)
            return got if self.masks else got.astype(float)

    for masks, words in ((True, "slot masks"), (False, "dealer call")):
        with pytest.raises(IllegalActionError, match=words) as error:
            GAME.batch(rules, [Floats(masks)] + [base] * 3, 20, 0)
        assert "float-bot" in str(error.value)


def test_the_ranks_engine_checks_every_policy_that_is_not_a_fused_heuristic():
    from geolab.games.ranks.game import GAME

    rules = registry.get("ranks").game.Rules.preset("combo1")
    greedy = registry.get("ranks").bots.make("greedy", rules)

    class FloatFollow(BatchBot):
        name = "float-follow"

        def act(self, obs, rng):
            got = greedy.act(obs, rng)
            return got.astype(float) if obs.kind == "follow" else got

    with pytest.raises(IllegalActionError, match="float-follow.*follow cards must be an integer array"):
        GAME.batch(rules, [FloatFollow(), greedy], 10, 0)
