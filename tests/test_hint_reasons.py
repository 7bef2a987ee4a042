"""The reasons `hint` gives in Play the Ranks (`RanksViews.reason`), every kind of decision and
every kind of reason, read as a person would (issue 24, item 3: a lead B almost surely beats
is said to be a card given away, and why, never "B holds none of them with chance 0%")."""

from __future__ import annotations

import re

import pytest

from geolab.cards import POSTAL
from geolab.common.text import percent
from geolab.game import Decision
from geolab.games.ranks.reference import Lead, Trick, View
from geolab.games.ranks.rules import Rules
from geolab.games.ranks.views import VIEWS

SIZE, STATE, POP = 0, 1, 2


def cards(text: str) -> tuple[int, ...]:
    return tuple(sorted(POSTAL.index(x) for x in text.split()))


def c(code: str) -> int:
    return POSTAL.index(code)


def reason(kind: str, view: View, action) -> str:
    text = VIEWS.reason(Decision(view.side, kind, view, ()), action)
    assert "\n" not in text and text == text.strip()
    return text


#: the first lead of `geolab play ranks --vs greedy --seed 3` after discarding AK (the issue's case)
SEED3 = View(Rules.combo1(), 0, cards("AL DE FL IA ID IN MD NH"), cards("AK"), None, 0, (None, None), None, ())


def test_the_issues_lead_is_a_card_given_away_and_says_why():
    assert reason("lead", SEED3, Lead(c("AL"), SIZE, 1)) == (
        "AL is 28th in size: B almost surely beats it at base 1 (23 unseen cards do: TX (2nd), CA (3rd), "
        "MT (4th) and 20 more; B holds one of them with chance over 99%), so it is a cheap card to give away: "
        "losing the trick costs only your least useful card for the tricks to come, and you keep "
        "DE (1st in statehood, base 1), FL (4th in population, base 1), NH (44th in size, base 50), your nearest "
        "to a base, for the tricks they can win")


def test_every_lead_reads_the_right_way_round():
    """Over every lead of a hand: a lead said to take the trick has at least an even chance
    (B holds none of its beaters); below that it is a card given away; no chance reads 0% or
    100% unless it is certain."""
    for card in SEED3.hand:
        for k in range(3):
            text = reason("lead", SEED3, Lead(card, k, 1))
            assert not re.search(r"chance (0|100)%", text), text  # certain: "must hold", "no card beats it"
            chance = re.search(r"chance (over |under )?(\d+)%", text)
            if "must hold" in text:
                assert "B surely beats it" in text and not chance
            elif "give away" in text:
                assert "beats it at base 1" in text and "you keep" in text and chance
                assert int(chance.group(2)) > 50 or chance.group(1) == "over "  # B holds a beater
            elif "takes the trick" in text:
                assert int(chance.group(2)) >= 50 and "holds none of them" in text or "holds it" in text
            else:
                assert "a sure trick" in text, text


def test_only_the_least_useful_card_is_called_cheap_to_give_away():
    """Issue 37, item 11: "CO ... a cheap card to give away ... not your least useful (KY is)"
    contradicted itself. A lead given away is cheap only when it is the least useful card (AL
    here); any other is a card to give away, with how far it and the least useful lie from a base."""
    for card in SEED3.hand:
        for k in range(3):
            text = reason("lead", SEED3, Lead(card, k, 1))
            assert "not your least useful" not in text
            if "give away" in text:
                assert ("cheap" in text) == (card == c("AL")), text
                if card != c("AL"):
                    assert "your least useful card" in text and re.search(r"is \d+ from a base to come, against 21 "
                                                                          r"for AL", text), text


def test_the_other_lead_reasons():
    assert reason("lead", SEED3, Lead(c("DE"), STATE, 1)) \
        == "DE is 1st in statehood: no card beats it at base 1, a sure trick"
    assert reason("lead", SEED3, Lead(c("FL"), POP, 1)) == (
        "FL is 4th in population: 3 unseen cards beat it at base 1 (CA (1st), TX (2nd), NY (3rd)); B holds none of "
        "them with chance 51%, so it takes the trick more often than not")
    assert reason("lead", SEED3, Lead(c("ID"), SIZE, 1)).endswith(
        "so it is a card to give away: its best rank is 7 from a base to come, against 21 for AL, your least useful "
        "card, and you keep DE (1st in statehood, base 1), FL (4th in population, base 1), NH (44th in size, "
        "base 50), your nearest to a base, for the tricks they can win")
    assert "B probably beats it at base 1 (9 unseen cards do" in reason("lead", SEED3, Lead(c("ID"), SIZE, 1))
    # one unseen beater (DE): B holds it with chance 8 in 41
    pa = View(Rules.combo1(), 0, cards("PA AL FL IA ID IN MD NH"), cards("AK"), None, 0, (None, None), None, ())
    assert reason("lead", pa, Lead(c("PA"), STATE, 1)) == (
        "PA is 2nd in statehood: only 1 unseen card beats it at base 1 (DE (1st)); B holds it with chance 80%, "
        "so it likely takes the trick")
    # every beater already played
    played = (Trick(0, c("CA"), POP, 1, c("TX"), 0), Trick(0, c("NY"), POP, 1, c("OH"), 0))
    seen = View(Rules.combo1(), 0, cards("FL AL IA ID IN MD"), cards("AK"), None, 0, (None, None), None, played)
    assert reason("lead", seen, Lead(c("FL"), POP, 1)) == (
        "FL is 4th in population: every card that beats it at base 1 (CA NY TX) is seen: a sure trick")


BATTLE2 = Rules.battle(2)


def _face_down(hand: str, k: int, base: int) -> View:
    return View(BATTLE2, 1, cards(hand), cards("OH"), cards("WY"), 0, (False, False), None, (),
                lead_category=k, lead_base=base, lead_card=None)


def test_answers_to_a_face_down_lead():
    sure = _face_down("TX AL FL IA ID IN MD NH", SIZE, 1)  # AK, the only card nearer 1, is unseen
    assert reason("follow", sure, c("TX")).startswith("TX (2nd) is your nearest to 1 in size: it loses only to "
                                                      "1 unseen card")
    assert "wins with chance" in reason("follow", sure, c("TX")) and "if the lead is random" in reason(
        "follow", sure, c("TX"))
    assert reason("follow", sure, c("NH")) == (
        "NH (44th) is not your best in size (TX is): it gives the trick up cheaply and keeps your strong cards")
    alaska = View(BATTLE2, 1, cards("AK AL FL IA ID IN MD NH"), cards("TX"), cards("WY"), 0, (False, False), None,
                  (), lead_category=SIZE, lead_base=1, lead_card=None)
    assert reason("follow", alaska, c("AK")) == "AK (1st) wins at base 1 in size whatever the face-down card is"


def _open_lead(hand: str, lead: str, k: int, base: int, trick: int = 0) -> View:
    return View(Rules.combo1(), 1, cards(hand), cards("WY"), None, 0, (None, None), None, (),
                lead_category=k, lead_base=base, lead_card=c(lead))


def test_answers_to_an_open_lead():
    view = _open_lead("TX CA AL FL IA ID IN NH", "MT", SIZE, 1)  # MT is 4th in size
    assert reason("follow", view, c("CA")) == "CA (3rd) is closer to base 1 than MT (4th) in size: " \
                                              "it takes the trick, your cheapest winner"
    assert reason("follow", view, c("TX")) == "TX (2nd) is closer to base 1 than MT (4th) in size: it takes the trick"
    assert reason("follow", view, c("AL")).startswith("CA TX would beat MT (4th), but may be worth more later; ")
    hopeless = _open_lead("AL FL IA ID IN MD NH DE", "AK", SIZE, 1)
    text = reason("follow", hopeless, c("AL"))
    assert text.startswith("none of your cards beats AK (1st) at base 1 in size; ")
    assert text.endswith("AL is your least useful card for the tricks to come")
    assert reason("follow", hopeless, c("DE")).endswith("DE is given up to keep your better cards")


def test_discard_and_declaration_reasons():
    view = View(Rules.combo1(), 0, cards("AK AL DE FL IA ID IN MD NH"), (), None, 0, (None, None), None, ())
    assert reason("discard", view, (c("AL"),)) == "AL's best rank (22nd in statehood) is 21 from base 1"
    battle = View(Rules.battle(1), 0, cards("AK AL DE FL IA ID IN MD NH"), (), None, None, (None, None), None, ())
    assert reason("discard", battle, (c("MD"),)).endswith("its statehood (7th) may also win you the first lead")
    none = View(Rules.combo1().replace(hand_size=8, discards=0), 0, cards("AL DE FL IA ID IN MD NH"), (), None, 0,
                (None, None), None, ())
    assert reason("discard", none, ()) == "these rules have no discards"
    strong = View(BATTLE2, 0, cards("AK TX CA DE PA NJ MD NH"), cards("AL"), cards("WY"), 0, (None, None), None, ())
    assert reason("declare", strong, True).startswith("you hold 6 cards within 3 of a base (")
    assert reason("declare", strong, True).endswith("a strong hand, and the bonus goes to the winner")
    weak = View(BATTLE2, 0, cards("AL FL IA ID IN MD NH OH"), cards("AK"), cards("WY"), 0, (None, None), None, ())
    assert reason("declare", weak, False).endswith("and need 5 tricks: the bonus would more likely go to B")


@pytest.mark.parametrize("p, words", [(0.0, "0%"), (0.004, "under 1%"), (0.5, "50%"), (0.996, "over 99%"),
                                      (1.0, "100%")])
def test_a_chance_is_never_rounded_to_a_certainty(p, words):
    assert percent(p) == words
