"""Screenshots of `geolab serve`'s pages for docs/web.md, taken by a headless Chromium:
every page kind of one game (GeoDouble), one play page of every registered game (a few moves
in, never its end), the card table at a phone's width (390 px) and a desktop's (1280 px): Play
the Ranks at a lead, Class and a race, and the Map cards and a map of groups as `geolab.maps`
draws them. Each is taken once the page has settled (`SETTLE`).

    PYTHONPATH=. python3 docs/web/screenshots.py [OUT_FOLDER [GAME ... | --views]]   (default: docs/web)

Games named: only their play pages and the maps. ``--views``: only the phone's and the
projector's (`views`): the start and setup pages at 390 px, a Class page in the projector view
at 200 % zoom (a 1280-px window at device scale 2). ``race-lesson`` alone: only the end page
after a lost Border-Up race, at both widths.

Needs the web extra, selenium, and Debian's chromium and chromium-driver."""

from __future__ import annotations

import io
import json
import socket
import sys
import tempfile
import threading
import time
from contextlib import contextmanager
from pathlib import Path

import uvicorn
from PIL import Image
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select

from geolab import maps, registry
from geolab.cards import border_postals, card
from geolab.web.app import create_app

FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run", "--window-size=960,900")


#: The page as a person sees it once it has settled: the lines that appear one at a time all
#: shown, no control focused, the mouse off the page (a card under it would look hovered).
SETTLE = """
document.getAnimations().forEach(function (a) { a.finish(); });
if (document.activeElement) document.activeElement.blur();
"""


def shoot(driver, path: Path) -> None:
    """The window as a small PNG (a 64-colour palette: the pages are text on flat colours)."""
    driver.execute_script(SETTLE)
    driver.execute_cdp_cmd("Input.dispatchMouseEvent", {"type": "mouseMoved", "x": 0, "y": 0})
    time.sleep(0.3)  # a frame painted after the animations finished
    image = Image.open(io.BytesIO(driver.get_screenshot_as_png())).convert("RGB")
    image.quantize(colors=64).save(path, optimize=True)


#: The cards docs/web/map-cards.png shows: the smallest state, the two insets, two shapes.
MAP_CARDS = ("RI", "AK", "HI", "TX", "MI")


def map_sheets(driver, out: Path) -> None:
    """map-cards.png: Map cards at 120 pixels wide (the size the outlines are made for) and
    240; map-groups.png: a map of groups (`maps.states_map`), Tennessee and its border states."""
    def card_html(code: str, width: int) -> str:
        return (f'<figure style="display:inline-block;margin:4px;width:{width}px;border:1px solid #ccc">'
                f'{maps.state_map(code)}<figcaption style="font:12px sans-serif;text-align:center">{code}'
                "</figcaption></figure>")
    sheets = {
        "map-cards.png": "".join(card_html(c, 120) for c in MAP_CARDS) + "<br>"
                         + "".join(card_html(c, 240) for c in MAP_CARDS[:3]),
        "map-groups.png": '<div style="width:360px">' + maps.states_map(
            {maps.RED: ["TN"], "#1f77b4": border_postals(card("TN"))},
            title="Tennessee in red, its eight border states in blue") + "</div>",
    }
    folder = Path(tempfile.mkdtemp())
    for name, body in sheets.items():
        page = folder / (name + ".html")
        page.write_text(f'<!doctype html><html><body style="margin:0"><div id="sheet" '
                        f'style="display:inline-block;padding:4px;background:#fff">{body}</div></body></html>')
        driver.get(page.as_uri())
        image = Image.open(io.BytesIO(driver.find_element(By.ID, "sheet").screenshot_as_png)).convert("RGB")
        image.quantize(colors=64).save(out / name, optimize=True)


def emulate(driver, width: int, height: int, scale: float = 1) -> None:
    """The page's viewport in CSS pixels at a device scale (2: a browser zoomed to 200 %)."""
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": width, "height": height, "deviceScaleFactor": scale, "mobile": False})


def desktop_and_phone(driver, out: Path, name: str, tallest: int = 2400) -> None:
    """NAME-1280.png and NAME-390.png: the page at a desktop's and a phone's width, each the
    whole page's height (at most `tallest`); the window back at 960 px after."""
    for width in (1280, 390):
        driver.set_window_size(width, 900)
        time.sleep(0.3)
        height = driver.execute_script("return document.documentElement.scrollHeight")
        driver.set_window_size(width, min(max(height + 140, 700), tallest))
        time.sleep(0.3)
        shoot(driver, out / f"{name}-{width}.png")
    driver.set_window_size(960, 900)


def whole_page(driver, path: Path, width: int, scale: float = 1) -> None:
    """The whole page's height at `width` CSS pixels, then the window as it was."""
    emulate(driver, width, 844, scale)
    time.sleep(0.3)
    height = driver.execute_script("return document.documentElement.scrollHeight")
    emulate(driver, width, min(max(height, 600), 2400), scale)
    time.sleep(0.3)
    shoot(driver, path)
    driver.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def views(driver, base: str, start, out: Path) -> None:
    """page-index-390.png, page-setup-390.png (a phone); table-class-projector.png and
    end-class-projector.png: a Class page and its end in the projector view at 200 % zoom (a
    1280-px window at device scale 2: 640 CSS pixels)."""
    driver.get(base + "/")
    whole_page(driver, out / "page-index-390.png", 390)
    driver.get(base + "/new/geodouble")
    whole_page(driver, out / "page-setup-390.png", 390)
    start("class", 4)
    driver.get(driver.current_url + "?view=projector")
    for c in driver.find_elements(By.CSS_SELECTOR, ".pile-hand button.card")[:1]:
        c.click()
    whole_page(driver, out / "table-class-projector.png", 640, 2)
    driver.find_element(By.ID, "confirm").click()  # the discard: the groups and the Championship, the end
    time.sleep(2)  # the end page (its lines are shown at once by `shoot`)
    whole_page(driver, out / "end-class-projector.png", 640, 2)
    driver.get(driver.current_url.split("?")[0] + "?view=normal")


@contextmanager
def served_browser():
    """`geolab serve`'s app over a scratch folder on a free local port, and a headless Chromium:
    (driver, the server's base address); both stopped afterwards."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = uvicorn.Server(uvicorn.Config(create_app(Path(tempfile.mkdtemp())), host="127.0.0.1", port=port,
                                           log_level="warning"))
    threading.Thread(target=server.run, daemon=True).start()
    while not server.started:
        time.sleep(0.05)
    options = webdriver.ChromeOptions()
    for flag in (*FLAGS, f"--user-data-dir={tempfile.mkdtemp()}"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"), options=options)
    try:
        yield driver, f"http://127.0.0.1:{port}"
    finally:
        driver.quit()
        server.should_exit = True


def main(out: Path, games: list[str] | None = None) -> None:
    out.mkdir(parents=True, exist_ok=True)
    with served_browser() as (driver, base):
        sheets(out, games, driver, base)


def sheets(out: Path, games: list[str] | None, driver, base: str) -> None:
    """Every screenshot this script takes (module docstring), on a served app and its browser."""
    find = driver.find_elements

    def start(game: str, seed: int, preset: str | None = None) -> None:
        driver.get(f"{base}/new/{game}" + (f"?preset={preset}" if preset else ""))
        find(By.ID, "seed")[0].send_keys(str(seed))
        find(By.ID, "start")[0].click()
        time.sleep(0.3)

    def over() -> bool:
        return bool(find(By.ID, "over"))

    def shoot_play(name: str, moves: int = 3) -> None:
        """A play page of the game, a few moves in (each move its first legal one), the whole
        page at 960 px: the last page before a race or the end (never the end page: a Class
        round or a State IQ game may end at the first move)."""
        start(name, 5)
        for k in range(moves + 1):
            time.sleep(1.0)  # the bots' moves appear one at a time
            whole_page(driver, out / f"{name}.png", 960)
            if k == moves or find(By.CSS_SELECTOR, ".race-page"):
                return
            first_move()
            if over():
                return

    def moves() -> list:
        return json.loads(find(By.ID, "scene-data")[0].get_attribute("textContent"))["moves"]

    def first_move() -> None:
        """The scene's first legal move: its cards clicked, its option chosen, Confirm; pass at a race."""
        if find(By.CSS_SELECTOR, ".race-page"):
            find(By.ID, "pass")[0].click()
            time.sleep(0.3)
            return
        move = json.loads(find(By.ID, "scene-data")[0].get_attribute("textContent"))["moves"][0]
        for cid in move[1]:
            find(By.CSS_SELECTOR, f'button.card[data-id="{cid}"]')[0].click()
        for part, value in enumerate(move[2]):
            buttons = [b for b in find(By.CSS_SELECTOR, f'.option[data-part="{part}"]') if b.text == value]
            if buttons:
                buttons[0].click()
            else:
                Select(find(By.CSS_SELECTOR, f'select[data-part="{part}"]')[0]).select_by_value(value)
        find(By.ID, "confirm")[0].click()
        time.sleep(0.3)

    def widths(name: str, select: int = 0, option: bool = False) -> None:
        """The page at 1280 and 390 px wide (the whole page's height), a few cards selected (and
        the first choice of the option shown for them)."""
        for c in find(By.CSS_SELECTOR, ".pile-hand button.card")[:select]:
            c.click()
        if option:
            find(By.CSS_SELECTOR, '.option[data-part="0"]')[0].click()
        desktop_and_phone(driver, out, name)

    def race_lesson() -> None:
        """race-lesson-1280.png, race-lesson-390.png: the end page after a Border-Up race lost to
        an expert racer (chosen as the setup page's opponent level): both clocks, the bot's
        claim, the hand's solutions, the hand's groups on a map."""
        driver.get(f"{base}/new/border-up")
        find(By.ID, "seed")[0].send_keys("3")
        Select(find(By.ID, "level")[0]).select_by_value("racer:level=expert")
        find(By.ID, "start")[0].click()
        for _ in range(120):  # the page asks the server about once a second; the bot's claim ends it
            if find(By.ID, "over"):
                break
            time.sleep(0.5)
        time.sleep(2.5)  # the last lines appear one at a time
        widths("race-lesson")

    if games == ["--views"]:
        views(driver, base, start, out)
        return
    if games == ["race-lesson"]:
        race_lesson()
        return
    map_sheets(driver, out)
    for name in games or ():
        shoot_play(name)
    if games:
        return
    start("ranks", 5, "battle2")
    for _ in range(12):  # on to a lead of yours: a card, a category and a base to pick
        if all(m[1] and m[2] for m in moves()):
            break
        first_move()
    time.sleep(1.0)
    widths("table-ranks", 1, option=True)
    start("class", 4)
    widths("table-class", 1)
    start("border-up", 3)
    widths("table-race", 4)
    views(driver, base, start, out)
    race_lesson()
    driver.get(base + "/")
    shoot(driver, out / "page-index.png")
    driver.get(base + "/new/geodouble?preset=short")
    shoot(driver, out / "page-setup.png")
    start("geodouble", 8, "short")
    time.sleep(1.5)
    shoot(driver, out / "page-race.png")
    while find(By.CSS_SELECTOR, ".race-page"):
        first_move()
    time.sleep(1.5)
    find(By.ID, "ask-hint")[0].click()
    time.sleep(0.3)
    shoot(driver, out / "page-hint.png")
    find(By.ID, "text")[0].send_keys("XX nonsense")
    find(By.ID, "send")[0].click()
    time.sleep(0.3)
    shoot(driver, out / "page-refused.png")
    while not find(By.ID, "over"):
        first_move()
    time.sleep(2.5)  # the last moves appear one at a time
    shoot(driver, out / "page-end.png")
    for entry in registry.entries():
        if entry.seat is not None:
            shoot_play(entry.name)


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).parent, sys.argv[2:])
