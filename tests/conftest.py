"""Every test session registers the minimal test-only game (High Card, tests/mini_game.py) beside
the real ones, so the conformance suites, which loop over the registry, hold it to the whole
contract; the rigged test-only games (Top Rank, tests/toy_game.py, and its match,
tests/toy_match.py) are registered only for the tests that ask for them (`rigs`). It also marks
the slow tier (`SLOW`)."""

import os

import mini_game
import pytest
import toy_game
import toy_match

from geolab import registry

registry.register(mini_game.DEFINITION)


@pytest.fixture
def rigs():
    """Top Rank and Top Rank Match registered for one test, and removed after it: the rigs the
    balance, skill, race, series and lab tests play (rigged modes, a race, a series target, a
    limit, a game made of games), kept out of the suites that loop over the registry."""
    entries = [toy_game.install(), toy_match.install()]
    yield entries
    for entry in entries:
        registry.unregister(entry.name)

#: The slow tier: tests of seconds each, by file or by test function (every parametrisation),
#: with why they are slow. ``pytest -m "not slow"`` (the fast tier a developer runs every few
#: minutes) leaves them out; CI runs everything. Measured with ``--durations=0`` on two cores.
SLOW = {
    "test_best_response.py::test_best_response_is_exact_on_tiny": "the textbook best response over every state of "
                                                                   "the tiny variant (about 10 s)",
    "test_openspiel.py": "OpenSpiel's own random simulation and search bots over every game and preset",
    "test_pettingzoo.py": "PettingZoo's api_test over every game",
    "test_notebooks.py": "executes every notebook",
    "test_play_terminal.py": "whole matches typed into a pseudo-terminal",
    "test_cfr_crosscheck.py": "CFR+ equilibria solved in two libraries",
    "test_balance_skill.py": "skill curves and shares: many arenas a game",
    "test_fuzz.py::test_mutated_records_are_refused_in_one_line_or_are_valid_records":
        "hundreds of mutated records of every game, replayed",
    "test_fuzz.py::test_every_place_of_every_record_takes_any_type_in_one_line":
        "every place of every game's record given every kind of wrong value, replayed",
    "test_fuzz.py::test_structurally_mutated_records_replay_or_are_one_geolab_error":
        "structural mutations of every game's records, nested ones included, replayed",
    "test_fuzz.py::test_mutated_session_files_are_refused_in_one_line_or_replay":
        "mutated play sessions of every game, replayed, resumed and served",
    "test_combo1_batch.py::test_batch_agrees_with_the_reference_engine": "whole Combo 1 matches on both engines",
    "test_combo1_batch.py::test_a_block_of_many_pairs_agrees_with_the_reference_engine": "the same, many pairs",
    "test_combo1_batch.py::test_every_seating_plays_the_same_cards": "Combo 1 matches under every seating",
    "test_combo1_tournament.py::test_the_numbers_do_not_depend_on_blocks_in_one_run_or_on_processes":
        "tournaments on two processes",
    "test_conformance.py::test_every_bot_plays_only_legal_actions_and_repeats_itself_on_a_seed":
        "every bot of every game, replayed twice",
    "test_conformance.py::test_every_bot_is_a_batch_bot_answering_each_decision_its_game_declares":
        "every bot of every game under presets until each declared decision is asked",
    "test_conformance.py::test_same_seed_same_table_at_any_chunk_size_and_thread_count":
        "every game's batch engine at several chunk sizes and thread counts",
    "test_arena.py::test_arena_cli_writes_files": "a whole arena run with its plots",
    "test_jumbled_engines.py::test_fused_block_equals_the_step_engine_and_the_reference_on_its_deals":
        "three engines on every variant",
    "test_jumbled_engines.py::test_fused_tables_make_every_heuristic_choice_the_decision_path_makes":
        "every heuristic's every choice",
    "test_jumbled_cli.py::test_bench_reports_the_promised_keys": "a benchmark",
    "test_ranks_batch.py::test_the_fused_kernel_plays_the_games_of_the_decision_loop": "every bot on two engines",
    "test_stateiq_play.py::test_a_whole_game_played_by_the_hints_replays": "the hint's search at every decision",
    "test_stateiq_bots.py::test_the_search_equals_a_brute_force_for_every_own_card_and_its_play_reaches_it_on_every_state":
        "a brute force over every state",
    "test_stepwise.py::test_a_state_determinized_from_an_observation_alone_is_the_same_node_to_the_seat":
        "determinize at every decision of every game",
    "test_geodouble_play.py::test_a_race_at_a_pseudo_terminal_lost_to_the_clock": "a race against a real clock",
    "test_borderup.py::test_a_race_at_the_terminal_is_won_by_a_typed_claim_and_lost_to_the_clock":
        "races against a real clock",
    "test_reliability_outputs.py::test_sigkill_at_any_moment_leaves_the_whole_set_or_none": "processes killed",
    "test_reliability_outputs.py::test_sigkill_while_writing_leaves_the_whole_set_or_none": "processes killed",
    "test_groups.py::test_the_batched_finder_equals_the_plain_one_on_random_hands": "thousands of hands, two ways",
    "test_stepwise.py::test_observations_have_their_size_and_do_not_change_when_resampled":
        "every decision of every game, resampled",
    "test_stateiq_player.py::test_players_together_answer_each_game_as_its_own_player_from_one_uniform_a_game":
        "line-ups of searching players",
    "test_balance.py::test_with_no_variant_the_official_card_says_why_each_empty_line_is_empty":
        "official report cards of four games",
    "test_web.py::test_a_person_plays_every_game_to_its_end_by_clicking_cards_and_options":
        "a real headless Chromium: a whole game of every game, and a race's real clock",
    "test_web_replay.py::test_in_the_browser_the_arrow_keys_step_and_the_back_button_returns":
        "a real headless Chromium",
    "test_web.py::test_in_the_browser_an_illegal_move_is_refused_undo_hint_and_a_reload": "a real headless Chromium",
    "test_web.py::test_a_game_of_play_the_ranks_is_played_by_clicking_cards_and_confirm": "a real headless Chromium",
    "test_web_a11y.py": "a real headless Chromium over every page kind, at two widths, with axe-core",
}


def pytest_configure(config):
    """``pytest -m fuzz`` runs the bad-input fuzzing at its large size (tests/test_fuzz.py)."""
    if (config.getoption("markexpr", "") or "").strip() == "fuzz":
        os.environ.setdefault("GEOLAB_FUZZ", "large")


def pytest_collection_modifyitems(config, items):
    for item in items:
        path = item.nodeid.split("::")[0].rpartition("/")[2]
        function = f"{path}::{item.originalname}"
        if path in SLOW or function in SLOW:
            item.add_marker(pytest.mark.slow)

