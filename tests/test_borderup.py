"""Border-Up's rules on hand-worked cases: the text's Maryland, Virginia, North Carolina group;
a false claim gives the game away; claims at the same second (both valid: a tie; one valid: it
wins; both wrong: a tie); a hand without a solution, and deals neither hand can win (dealt
again, then a tie unraced); the perfect race model decides by the cards alone; the shared
`settle` under both tie rules; resampling; nesting as a stage; records refused on one line;
the keyboard's words."""

from __future__ import annotations

import json

import numpy as np
import pytest

from geolab.bots.borderup.registry import BOTS, seat
from geolab.cards import card
from geolab.errors import IllegalActionError, RecordError, RulesError
from geolab.game import MoveError
from geolab.games import groups
from geolab.games.borderup import batch as engine
from geolab.games.borderup import records
from geolab.games.borderup.game import GAME
from geolab.games.borderup.reference import ENGINE, WRONG, Deal, Solution, View, solutions, steps
from geolab.games.borderup.rules import Rules
from geolab.games.borderup.views import VIEWS
from geolab.games.race import NOBODY, settle
from geolab.stepwise import Ask, Claim, State, stage


def cards(text: str) -> tuple[int, ...]:
    return tuple(sorted(card(p) for p in text.split()))


#: An 18-card hand with many solutions, and two 18-card hands without one (of the other 32
#: cards, and a deal in which neither hand holds one).
RICH = cards("AL AK CA DE GA HI KY MD MA MN MS NH NM NY OH OR SC WV")
DRY = cards("AZ CO CT FL ME MI NE NV NJ NC ND OK PA TX VA WA WI WY")  # none under any border setting
BOTH_DRY = (cards("AL AZ DE FL HI IN IA LA ME MO MT NH NY NC ND UT WV WI"),
            cards("AK GA ID IL KS KY MD MA MN MS NE NV OR PA RI SC TX WA"))


def one_deal(a=RICH, b=DRY) -> Deal:
    return Deal(((a, b),))


def play(rules, deal, claim_a, claim_b):
    """A game whose race each team answers with `claim_x(decision)`."""
    class Seat:
        def __init__(self, claim):
            self.claim = claim

        def act(self, decision):
            return self.claim(decision)

    return ENGINE.play(rules, deal, [Seat(claim_a), Seat(claim_b)])


def first_solution(seconds):
    return lambda d: Claim(d.legal[0] if len(d.legal) > 1 else None, seconds)


def wrong(seconds):
    return lambda d: Claim(WRONG, seconds)


def none(seconds=30.0):
    return lambda d: Claim(None, seconds)


# ----- what wins ----------------------------------------------------------------------------
def test_the_texts_maryland_virginia_north_carolina_group():
    # "Virginia borders both Maryland and North Carolina"
    assert groups.centers(cards("MD VA NC")) == [card("VA")]
    hand = cards("MD VA NC ME NH VT")
    (only,) = solutions(Rules(), hand)
    # each group in card order (Maine before Maryland: cards go by the states' names), the smaller first
    assert only == Solution(cards("ME NH VT"), cards("MD VA NC")) and only.label() == "ME NH VT + MD NC VA"
    assert solutions(Rules(), cards("MD VA NC ME NY TX")) == ()  # GeoDouble's capital group is no border group


def test_a_card_is_used_in_one_group_only():
    hand = cards("TN AL AR GA KY VA")  # ten border groups, all through Tennessee
    assert len(groups.border_groups(hand)) == 10 and solutions(Rules(), hand) == ()


def test_the_race_is_asked_of_both_teams_at_once_with_every_solution_and_a_wrong_claim():
    rules = Rules()
    state = State(ENGINE, rules, one_deal())
    assert state.to_move() == (0, 1) and state.node.race
    a, b = state.decisions()
    assert a.legal[:-1] == solutions(rules, RICH) and a.legal[-1] == WRONG and len(a.legal) == 15
    assert a.legal[0] == Solution(cards("AL GA MS"), cards("DE MD WV"))  # the finder's example (docs/groups.md)
    assert b.legal == (WRONG,)  # a hand without a solution can only pass or claim wrongly
    assert a.observation.hand == RICH and b.observation.hand == DRY and a.where == "race"
    with pytest.raises(IllegalActionError, match="not legal"):
        state.apply({0: Claim(Solution(cards("ME NH VT"), cards("MD VA NC")), 1.0), 1: Claim(None, 2.0)})


def test_the_first_valid_claim_wins():
    played = play(Rules(), one_deal(), first_solution(9.0), none())
    assert played.winner == 0 and played.outcome == "held" and played.scores().tolist() == [1.0, 0.0]


@pytest.mark.parametrize("other", [none(), first_solution(20.0), wrong(20.0)], ids=["no claim", "later", "later wrong"])
def test_a_false_claim_gives_the_game_away(other):
    rich = Deal(((RICH, cards("AZ AR CO CT IL LA ME MI MO NJ NC ND PA TX UT VT VA WI")),))
    played = play(Rules(), rich, wrong(3.0), other)
    assert played.winner == 1 and played.outcome == "wrong" and played.first == (0,)
    assert played.scores().tolist() == [0.0, 1.0]


def test_claims_at_the_same_second_tie_unless_only_one_holds():
    rules = Rules()
    both = Deal(((RICH, cards("AZ AR CO CT IL LA ME MI MO NJ NC ND PA TX UT VT VA WI")),))
    assert solutions(rules, both.deals[0][1])
    tie = play(rules, both, first_solution(5.0), first_solution(5.0))  # both valid: a tie
    assert tie.winner == NOBODY and tie.outcome == "tie" and tie.first == (0, 1) and tie.scores().tolist() == [0.5, 0.5]
    one = play(rules, both, wrong(5.0), first_solution(5.0))  # only B's holds: B wins
    assert one.winner == 1 and one.outcome == "held"
    wrongs = play(rules, both, wrong(5.0), wrong(5.0))  # both wrong: "a tie unless only one team shows its groups"
    assert wrongs.winner == NOBODY and wrongs.outcome == "tie"


def test_nobody_claiming_is_a_tie():
    played = play(Rules(), one_deal(), none(40.0), none(40.0))
    assert played.winner == NOBODY and played.outcome == "unclaimed" and played.first == ()


# ----- hands and deals without a solution ----------------------------------------------------
def test_a_hand_without_a_solution_can_pass_while_the_other_claims():
    played = play(Rules(), one_deal(), first_solution(25.0), none(26.0))
    assert played.winner == 0
    # a claim on the hand without one is wrong, and loses even to a slower valid claim
    assert play(Rules(), one_deal(), first_solution(25.0), wrong(2.0)).winner == 0


def test_a_deal_neither_hand_can_win_is_dealt_again_and_after_the_redeals_is_a_tie():
    rules = Rules(redeals=1)
    played = play(rules, Deal((BOTH_DRY, (RICH, DRY))), first_solution(4.0), none())
    assert played.deals == (BOTH_DRY, (RICH, DRY)) and played.winner == 0
    asked = []
    dry = play(rules, Deal((BOTH_DRY, BOTH_DRY)), lambda d: asked.append(d), lambda d: asked.append(d))
    assert not asked and dry.claims is None and dry.winner == NOBODY and dry.outcome == "dry"
    assert dry.scores().tolist() == [0.5, 0.5]
    at_once = play(Rules(redeals=0), Deal((BOTH_DRY,)), none(), none())  # no redeal at all: a tie straight away
    assert at_once.outcome == "dry" and len(at_once.deals) == 1


def test_a_deal_the_rules_cannot_play_is_refused():
    rules = Rules(redeals=1)
    with pytest.raises(IllegalActionError, match="deal 1 holds a solution"):
        State(ENGINE, rules, Deal(((RICH, DRY), (RICH, DRY))))
    with pytest.raises(IllegalActionError, match="the deals run out"):
        State(ENGINE, rules, Deal((BOTH_DRY,)))
    with pytest.raises(IllegalActionError, match="expected 18"):
        State(ENGINE, rules, Deal(((RICH[:17], DRY),)))
    with pytest.raises(IllegalActionError, match="dealt twice"):
        State(ENGINE, rules, Deal(((RICH, RICH),)))


# ----- the race model -----------------------------------------------------------------------
@pytest.mark.parametrize("seconds,valid,tie,coin", [
    ((5.0, 7.0), (True, True), 0, 0),  # the first claim holds: it wins
    ((5.0, 7.0), (False, True), 1, 1),  # a wrong first claim gives the game away
    ((5.0, np.inf), (False, False), 1, 1),  # ... even when the other never claims
    ((4.0, 4.0), (True, True), NOBODY, 1),  # the same second, both hold: a tie (GeoDouble: the coin, here 1)
    ((4.0, 4.0), (False, True), 1, 1),  # the same second, one holds: that one
    ((4.0, 4.0), (False, False), NOBODY, 1),  # the same second, both wrong: a tie (GeoDouble: the coin)
    ((np.inf, np.inf), (False, False), NOBODY, NOBODY),  # nobody claimed
])
def test_settle_takes_the_tie_rule(seconds, valid, tie, coin):
    assert settle([seconds], [valid], tie="tie").tolist() == [tie]
    assert settle([seconds], [valid], [1], tie="coin").tolist() == [coin]
    with pytest.raises(ValueError, match="tie must be"):
        settle([seconds], [valid], tie="toss")
    with pytest.raises(ValueError, match="needs the coin"):
        settle([seconds], [valid])


def test_the_perfect_model_decides_by_the_cards_alone():
    rules = Rules()
    perfect = [BOTS.make("racer:race=perfect", rules), BOTS.make("racer:race=perfect", rules)]
    n = 3000
    table = engine.batch(rules, perfect, n, seed=8)
    ka, kb = table.columns["solutions_A"], table.columns["solutions_B"]
    expected = np.where(ka > kb, 1.0, np.where(ka < kb, 0.0, 0.5))
    np.testing.assert_array_equal(table.scores[:, 0], expected)  # more solutions: found first, always
    assert (ka == kb).any() and not table.columns["wrong_A"].any()
    # the same cards under another seed's claims: the same outcomes (nothing but the cards decides)
    again = engine.batch(rules, perfect, n, seed=8, stream=5)
    np.testing.assert_array_equal(again.scores, table.scores)
    # and at the reference engine, the seat draws the same claim
    rng = np.random.default_rng(0)
    seats = [seat(b, rules, rng) for b in perfect]
    played = ENGINE.play(rules, one_deal(), seats)
    assert played.winner == 0 and played.claims[1].action is None  # B's hand holds none: it searches, then stops


def test_a_faster_racer_wins_more_but_not_all():
    rules = Rules()
    table = engine.batch(rules, [BOTS.make("racer:speed=1.5", rules), BOTS.make("racer", rules)], 20_000, seed=2)
    assert 0.55 < table.scores[:, 0].mean() < 0.9


def test_bot_parameters_are_checked():
    rules = Rules()
    for spec, words in (("racer:speed=0", "speed"), ("racer:error=1.5", "error"),
                        ("racer:race=fast", "human, perfect or a level")):
        with pytest.raises(Exception, match=words):
            BOTS.make(spec, rules)
    assert BOTS.make("racer:race=perfect,error=0.2", rules).race_model.error == 0.2


# ----- what a team sees, resampling, nesting ---------------------------------------------------
def test_a_team_sees_the_first_claim_never_a_later_one_and_resampling_keeps_what_it_saw():
    rules = Rules()
    other = cards("AZ AR CO CT IL LA ME MI MO NJ NC ND PA TX UT VT VA WI")
    state = State(ENGINE, rules, Deal(((RICH, other),)))
    a_claim = state.decision(0).legal[0]
    b_claim = state.decision(1).legal[0]
    state.apply({0: Claim(a_claim, 4.0), 1: Claim(b_claim, 9.0)})  # A first: B's claim is never made
    seen_by_a, seen_by_b = state.observe(0).result, state.observe(1).result
    assert seen_by_a.first == seen_by_b.first == ((0, Claim(a_claim, 4.0)),)
    assert seen_by_a.own == Claim(a_claim, 4.0) and seen_by_b.own == Claim(b_claim, 9.0)
    rng = np.random.default_rng(3)
    for _ in range(20):
        for_a = state.resample(0, rng)  # B's hand anew; B's unseen claim made anew on it
        assert for_a.deal.deals[0][0] == RICH and for_a.observe(0) == state.observe(0)
        new_b = for_a.deal.deals[0][1]
        assert for_a.played.claims[1].seconds == 9.0 and for_a.played.claims[1].action in solutions(rules, new_b)
        for_b = state.resample(1, rng)  # A's claim was laid face-up: its six cards stay in A's hand
        assert {*a_claim.first, *a_claim.second} <= set(for_b.deal.deals[0][0]) and for_b.observe(1) == state.observe(1)


def test_resampling_keeps_deals_dealt_again_without_a_solution():
    rules = Rules(redeals=2)
    state = State(ENGINE, rules, Deal((BOTH_DRY, (RICH, DRY))))
    rng = np.random.default_rng(4)
    for side in (0, 1):
        again = state.resample(side, rng)
        first, last = again.deal.deals
        assert first[side] == BOTH_DRY[side] and solutions(rules, first[1 - side]) == ()
        if side == 1:  # B's own hand holds none: A's new hand must (else the cards would be dealt again)
            assert solutions(rules, last[0])
        assert again.observe(side) == state.observe(side)


def test_the_steps_nest_as_a_stage_of_another_game():
    """How the Combo 1 tournament will hold Border-Up: its steps inside an outer generator,
    each observation wrapped and each decision's place named."""
    rules = Rules()

    def outer():
        played = yield from stage(steps(rules, one_deal()), lambda seat, view: ("match 3", view), "playoff")
        return played

    gen = outer()
    node = next(gen)
    assert isinstance(node, Ask) and [d.where for d in node.decisions] == ["playoff, race"] * 2
    assert node.decisions[0].observation[0] == "match 3" and isinstance(node.decisions[0].observation[1], View)
    with pytest.raises(StopIteration) as done:
        gen.send({0: Claim(node.decisions[0].legal[0], 3.0), 1: Claim(None, 30.0)})
    assert done.value.value.winner == 0


def test_bad_rules_are_one_line_rules_errors():
    for bad in ({"cards": 5}, {"cards": 26}, {"redeals": -1}, {"redeals": 101}):
        with pytest.raises(RulesError, match="^rules"):
            Rules().replace(**bad)
    assert Rules.preset("corners-water").four_corners


# ----- records ------------------------------------------------------------------------------
def test_a_record_replays_and_tampering_is_one_line():
    rules = Rules()
    played = play(rules, one_deal(), first_solution(6.5), wrong(8.0))
    record = json.loads(json.dumps(records.to_record(played)))
    assert record["claims"] == {"A": [[["AL", "GA", "MS"], ["DE", "MD", "WV"]], 6.5], "B": ["wrong", 8.0]}
    assert record["result"] == {"winner": "A", "outcome": "held", "deals": 1, "solutions": {"A": 14, "B": 0},
                                "first": ["A"]}
    assert records.report(GAME.replay(record)) == records.report(played)

    def refused(change, match):
        bad = json.loads(json.dumps(record))
        change(bad)
        with pytest.raises(RecordError, match=match) as error:
            GAME.replay(bad)
        assert "\n" not in str(error.value)

    claim_a = lambda r, value: r["claims"]["A"].__setitem__(0, value)  # noqa: E731
    refused(lambda r: claim_a(r, [["ME", "NH", "VT"], ["MD", "NC", "VA"]]), r"^claims: race: A's claim .* is not legal")
    refused(lambda r: claim_a(r, [["DE", "MD", "WV"], ["AL", "GA", "MS"]]), r"^claims.A: the smaller group comes first")
    refused(lambda r: claim_a(r, [["GA", "AL", "MS"], ["DE", "MD", "WV"]]), r"^claims.A: AL comes before GA")
    refused(lambda r: claim_a(r, [["AL", "GA"], ["DE", "MD", "WV"]]), r"^claims.A: a claim is 2 lists of three")
    refused(lambda r: r["claims"]["A"].__setitem__(1, 6), r"^claims.A: seconds must be a real number")
    refused(lambda r: r["claims"]["A"].__setitem__(1, -1.0), r"^claims.A: seconds")
    refused(lambda r: r.pop("claims"), r"^claims: missing")
    refused(lambda r: r["deals"][0]["A"].reverse(), r"^deals\[0\].A: .* in card order")
    refused(lambda r: r["deals"][0]["A"].pop(), r"^deals\[0\].A: 17 cards, expected 18")
    refused(lambda r: r["deals"][0]["B"].__setitem__(0, "AL"), r"^deals\[0\]")
    refused(lambda r: r["deals"].insert(0, r["deals"][0]), r"^deals\[0\]: a hand holds two border groups")
    refused(lambda r: r["result"].__setitem__("winner", "B"), r"^result.winner")


def test_a_record_of_a_deal_dealt_again_and_of_a_dry_game():
    rules = Rules(redeals=1)
    dry = play(rules, Deal((BOTH_DRY, BOTH_DRY)), none(), none())
    record = json.loads(json.dumps(records.to_record(dry)))
    assert "claims" not in record and record["result"]["outcome"] == "dry"
    assert records.report(records.replay_game(record)) == records.report(dry)
    bad = json.loads(json.dumps(record))
    bad["claims"] = {"A": [None, 1.0], "B": [None, 1.0]}
    with pytest.raises(RecordError, match="^claims: no race was run"):
        records.replay_game(bad)
    bad = json.loads(json.dumps(record))
    bad["deals"].pop()
    with pytest.raises(RecordError, match=r"^deals\[0\]: neither hand holds two border groups"):
        records.replay_game(bad)


# ----- at the keyboard ----------------------------------------------------------------------
def test_a_claim_is_typed_as_two_groups_or_six_codes():
    state = State(ENGINE, Rules(), one_deal())
    d = state.decision(0)
    solution = Solution(cards("AL GA MS"), cards("DE MD WV"))
    assert VIEWS.label(d, solution) == "AL GA MS / DE MD WV"
    for text in ("AL GA MS / DE MD WV", "de md wv + ms ga al", "WV MD DE AL MS GA", "al,ga,ms | de,md,wv"):
        assert VIEWS.parse(d, text) == solution, text
    assert VIEWS.parse(d, "AL GA DE / MS MD WV") == WRONG  # six of its cards, not two border groups
    assert VIEWS.parse(d, "wrong") == WRONG
    for text, words in (("AL GA MS / DE MD TX", "TX is not in your hand"), ("AL GA / MS DE MD WV", "each group"),
                        ("AL GA MS DE MD", "six cards"), ("AL AL GA MS MD DE", "named twice"), ("12", "postal code")):
        with pytest.raises(MoveError, match=words):
            VIEWS.parse(d, text)
    screen = "\n".join(VIEWS.screen(d))
    assert "AL Alabama" in screen and "AL GA MS" not in screen  # the hand, never its solutions
    assert VIEWS.reason(d, solution) == "AL borders GA and MS; MD borders DE and WV"


def test_the_ending_tells_how_the_game_was_decided():
    both = Deal(((RICH, cards("AZ AR CO CT IL LA ME MI MO NJ NC ND PA TX UT VT VA WI")),))
    rules = Rules()
    lost = play(rules, both, wrong(3.0), first_solution(12.0))
    assert VIEWS.ending(lost, 0)[-1] == "You lost: your claim was wrong."
    assert VIEWS.ending(lost, 1)[-1] == "You won: A's claim was wrong."
    assert "You made no claim." not in VIEWS.ending(lost, 1) and "Your claim (12.0 s) came after A's: not needed." \
        in VIEWS.ending(lost, 1)
    tie = play(rules, both, first_solution(5.0), first_solution(5.0))
    assert VIEWS.ending(tie, 0)[-1] == "A tie: both claims came at the same second and both hold."
    assert VIEWS.ending(play(rules, both, wrong(5.0), wrong(5.0)), 1)[-1] == \
        "A tie: both claims came at the same second and neither holds."
    won = play(rules, both, first_solution(5.0), first_solution(6.0))
    assert VIEWS.ending(won, 0)[:2] == ["You called GeoPlunge at 5.0 s: AL GA MS / DE MD WV.",
                                        "  AL borders GA and MS; MD borders DE and WV."]
    assert "Your claim (6.0 s) came too late." in VIEWS.ending(won, 1)
    assert VIEWS.ending(won, 1)[-1] == "You lost: A's groups hold first."


# ----- at a real terminal -------------------------------------------------------------------
def test_a_race_at_the_terminal_is_won_by_a_typed_claim_and_lost_to_the_clock(tmp_path):
    """`geolab play border-up` on a pseudo-terminal: seed 7 deals A AR CA DE FL GA HI MI MN MO NE
    NV NY OH OK OR RI UT; against a very slow racer the person's six codes win, and against
    a fast racer, typing nothing, the bot's claim is the deadline (a fast one: the test waits little)."""
    from terminal import PROMPT_END, finish, run, spawn

    record = tmp_path / "won.json"
    child = spawn("play", "border-up", "--vs", "racer:speed=0.05", "--seed", "7", "--record", str(record),
                  home=tmp_path)
    child.expect(PROMPT_END)
    assert "OK Oklahoma" in child.before and "AR MO OK" not in child.before
    child.sendline("ok ar mo or nv ca")
    child.expect_exact("You won: your groups hold.")
    assert finish(child) == 0
    replayed = run("replay", str(record), home=tmp_path)
    assert replayed.returncode == 0 and "winner: A" in replayed.stdout and "outcome: held" in replayed.stdout
    child = spawn("play", "border-up", "--vs", "racer:speed=4", "--seed", "8", "--record", str(tmp_path / "lost.json"),
                  home=tmp_path)
    child.expect(PROMPT_END)
    child.expect_exact("Your time is up: no claim from you.")
    child.expect_exact("You lost: B's groups hold first.")
    assert finish(child) == 0
