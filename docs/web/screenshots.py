"""Screenshots of `geolab serve`'s pages for docs/web.md, taken by a headless Chromium:
every page kind of one game (GeoDouble) and one play page of every registered game.

    PYTHONPATH=. python3 docs/web/screenshots.py [OUT_FOLDER]   (default: docs/web)

Needs the web extra, selenium, and Debian's chromium and chromium-driver."""

from __future__ import annotations

import io
import socket
import sys
import tempfile
import threading
import time
from pathlib import Path

import uvicorn
from PIL import Image
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By

from geolab import registry
from geolab.web.app import create_app

FLAGS = ("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync", "--no-first-run", "--window-size=960,900")


def shoot(driver, path: Path) -> None:
    """The window as a small PNG (a 64-colour palette: the pages are text on flat colours)."""
    image = Image.open(io.BytesIO(driver.get_screenshot_as_png())).convert("RGB")
    image.quantize(colors=64).save(path, optimize=True)


def main(out: Path) -> None:
    out.mkdir(parents=True, exist_ok=True)
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
    base = f"http://127.0.0.1:{port}"
    find = driver.find_elements

    def start(game: str, seed: int, preset: str | None = None) -> None:
        driver.get(f"{base}/new/{game}" + (f"?preset={preset}" if preset else ""))
        find(By.ID, "seed")[0].send_keys(str(seed))
        find(By.ID, "start")[0].click()
        time.sleep(0.3)

    def first_move() -> None:
        (find(By.CSS_SELECTOR, "button.move") or find(By.ID, "pass"))[0].click()
        time.sleep(0.3)

    try:
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
            if entry.seat is None:
                continue
            start(entry.name, 5)
            for _ in range(3):
                if find(By.ID, "over") or find(By.CSS_SELECTOR, ".race-page"):
                    break
                first_move()
            time.sleep(1.5)  # the bots' moves appear one at a time
            shoot(driver, out / f"{entry.name}.png")
    finally:
        driver.quit()
        server.should_exit = True


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).parent)
