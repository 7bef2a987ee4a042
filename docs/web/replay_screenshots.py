"""Screenshots of `geolab serve`'s replay and tournament pages for docs/web.md, taken by a
headless Chromium at 1280 and 390 px wide: a Play the Ranks replay at a lead the oracle values
below the best one, a saved tournament's page, and a State IQ replay's last step with its
clue map.

    PYTHONPATH=. python3 docs/web/replay_screenshots.py [OUT_FOLDER]   (default: docs/web)

Needs the web extra, selenium, and Debian's chromium and chromium-driver."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import numpy as np
from selenium.webdriver.common.by import By

from geolab import registry
from geolab.games.combo1.offers import tournament as lab
from geolab.games.combo1.tournament import TournamentRules
from geolab.lab.moves import judged, stepped
from geolab.stepwise import RandomSeat

sys.path.insert(0, str(Path(__file__).parent))
from screenshots import desktop_and_phone, served_browser, shoot  # the other sheet's helpers


def record(name: str, seed: int) -> dict:
    """One game of random legal play (the oracle finds costly moves in it)."""
    entry = registry.get(name)
    rules = entry.game.Rules.preset(entry.game.Rules.DEFAULT)
    rng = np.random.default_rng(seed)
    seats = [RandomSeat(rng) for _ in range(entry.game.seats(rules))]
    played = entry.game.play(rules, entry.game.deal(rules, rng), seats)
    return json.loads(json.dumps(entry.game.to_record(played)))


def main(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
    with served_browser() as (driver, base):
        sheets(out, driver, base)


def sheets(out: Path, driver, base: str) -> None:
    """The replay and tournament screenshots (module docstring), on a served app and its browser."""

    def upload(text: str) -> str:
        driver.get(f"{base}/replay")
        driver.execute_script("document.getElementById('record').value = arguments[0]", text)
        driver.find_elements(By.ID, "open")[0].click()
        time.sleep(1.0)
        return driver.current_url.split("?")[0]

    ranks = record("ranks", 3)
    entry, (game,) = stepped(ranks)
    values = judged(entry, game)
    costly = next(i for i in sorted(values) if "; best " in values[i])  # a move the oracle would not play
    url = upload(json.dumps(ranks))
    driver.get(f"{url}?step={costly + 1}")
    desktop_and_phone(driver, out, "replay-ranks", tallest=2600)
    rules = TournamentRules.preset("short")
    profiles = [lab.Profile(n, s) for n, s in [("Hawks", "team:speed=1.3"), ("Owls", "team"),
                                                ("Doves", "team:tricks=random"), ("Larks", "team:knowledge=0.6")]]
    book = lab.saved(lab.reference(rules, profiles, 3), profiles, rules, 3)
    upload(json.dumps(book))
    desktop_and_phone(driver, out, "tournament", tallest=2600)
    for seed in range(1, 20):  # a State IQ game whose clues named border states in both phases
        iq = record("state-iq", seed)
        if len(registry.get("state-iq").game.views.pictures(registry.get("state-iq").game.replay(iq), 0)) == 2:
            break
    url = upload(json.dumps(iq))
    driver.get(f"{url}?step={len(stepped(iq)[1][0].moves) + 1}")
    driver.set_window_size(1280, 1900)
    time.sleep(0.3)
    shoot(driver, out / "replay-stateiq-map-1280.png")


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else Path("docs/web"))
