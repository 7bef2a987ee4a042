"""`geolab serve` on a phone, on a projector and for assistive technology (issue 34, items 8
and 10), in one headless Chromium (its start-up is the cost): at 390 x 844 no page kind scrolls
sideways and every control is at least 44 x 44 px; in the projector view at 200 % zoom (640
CSS pixels) no play page cuts a line or hides a control; axe-core finds no serious or critical
violation on the start, setup, play, race, map and end pages.

axe-core is the npm package's ``axe.min.js`` (injected into each page), found at
``GEOLAB_AXE_CORE`` or ``node_modules/axe-core/``; `.ci/run` fetches it (``npm pack``)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from test_web import GAMES, client, needs_web, over, play_out, served_chromium, start, step

ROOT = Path(__file__).resolve().parents[1]
PHONE = (390, 844)
#: 200 % zoom of a 1280 x 800 window: its CSS viewport.
PROJECTOR = (640, 400)
#: A slow rival where a game opens with a race, so a page is checked before the rival claims.
SLOW_RIVAL = {"border-up": "racer:speed=0.1,error=0", "dashing-states": "team:speed=0.1"}

#: What a page shows at its width: whether it scrolls sideways, the elements past its right edge,
#: the controls (buttons, links, drop-downs, fields, a radio's label, a details' summary) under
#: 44 x 44 px, and the boxes that cut their content (clipped or scrolled inside, or an ellipsis).
MEASURE = """
var width = document.documentElement.clientWidth, wide = [], small = [], cut = [], big = [];
function name(e) { return e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') +
  (typeof e.className === 'string' && e.className ? '.' + e.className.trim().split(/\\s+/).join('.') : '') +
  ' "' + (e.textContent || e.value || '').trim().slice(0, 24) + '"'; }
document.querySelectorAll('body *').forEach(function (e) {
  var r = e.getBoundingClientRect();
  if (!r.width) return;
  if (r.right > width + 0.5 || r.left < -0.5)
    wide.push(name(e) + ' ' + Math.round(r.left) + '..' + Math.round(r.right));
  var s = getComputedStyle(e);
  if ((s.overflowX !== 'visible' && e.scrollWidth > e.clientWidth + 1) ||
      (s.overflowY !== 'visible' && e.scrollHeight > e.clientHeight + 1)) cut.push(name(e));
});
document.querySelectorAll('button, a[href], select, input:not([type=hidden]), summary').forEach(function (e) {
  var target = (e.type === 'radio' || e.type === 'checkbox') && e.closest('label') || e;
  var r = target.getBoundingClientRect();
  if (r.width && (r.width < 44 || r.height < 44))
    small.push(name(target) + ' ' + Math.round(r.width) + 'x' + Math.round(r.height));
  // a radio's or a check box's target is its label: the box itself stays the size of its text
  var box = e.getBoundingClientRect();
  if (target !== e && box.height > 32) big.push(name(e) + ' ' + Math.round(box.width) + 'x' + Math.round(box.height));
});
return {scrolls: document.documentElement.scrollWidth > window.innerWidth ||
                 document.documentElement.scrollWidth > width, wide: wide, small: small, cut: cut, big: big};
"""
#: At a desktop's width: the rules fields' names that break inside a word (anywhere but after a
#: dot or an underscore), and whether the play page's tools (hint, undo, new game, session
#: file) lie in one row.
DESKTOP = """
var broken = [];
document.querySelectorAll('table.rules td:first-child code').forEach(function (code) {
  var walker = document.createTreeWalker(code, NodeFilter.SHOW_TEXT), node, last = null, before = '';
  while ((node = walker.nextNode())) {
    for (var i = 0; i < node.data.length; i++) {
      var range = document.createRange();
      range.setStart(node, i); range.setEnd(node, i + 1);
      var top = range.getBoundingClientRect().top;
      if (last !== null && top > last + 2 && '._'.indexOf(before) < 0) broken.push(code.textContent);
      last = top; before = node.data[i];
    }
  }
});
var rows = {}, tools = ['#ask-hint', '#undo', '.tools a[href^="/new/"]'].map(function (css) {
  return document.querySelector(css); }).filter(Boolean);
tools.forEach(function (e) { rows[Math.round(e.getBoundingClientRect().bottom / 20)] = true; });
return {broken: broken, tool_rows: Object.keys(rows).length};
"""
#: axe-core's run, its serious and critical violations as (rule, impact, first elements).
AXE_RUN = """
var done = arguments[arguments.length - 1];
document.getAnimations().forEach(function (a) { a.finish(); });  // the settled page (events fade in)
axe.run(document, {resultTypes: ['violations']}).then(function (r) {
  done(r.violations.filter(function (v) { return v.impact === 'serious' || v.impact === 'critical'; })
    .map(function (v) {
      return [v.id, v.impact, v.nodes.slice(0, 3).map(function (n) { return n.target.join(' '); })];
    }));
}, function (e) { done([['axe failed', String(e), []]]); });
"""


def axe_source() -> str | None:
    for place in (os.environ.get("GEOLAB_AXE_CORE"), ROOT / "node_modules/axe-core/axe.min.js"):
        if place and Path(place).is_file():
            return Path(place).read_text(encoding="utf-8")
    return None


@pytest.fixture(scope="module")
def site():
    """The browser, and one page of every kind: name -> its path. Games are started (and the end
    page's game played out) through Starlette's TestClient over the browser's server's folder."""
    with served_chromium() as driver:
        c = client(driver.folder)
        pages = {"start": "/", "error": "/g/0123456789abcdef"}
        for game in GAMES:
            pages[f"setup {game}"] = f"/new/{game}"
            pages[f"play {game}"] = start(c, game, seed=5, **({"bots": SLOW_RIVAL[game]} if game in SLOW_RIVAL else {}))
            later = pages[f"play {game} later"] = start(c, game, seed=6)
            for _ in range(4):  # a few moves on: other piles, facts and options on the table
                text = c.get(later).text
                if over(text):
                    break
                step(c, later, text, use_hint=False)
        pages["end class"] = start(c, "class", seed=4)  # the discard, then the groups and the Championship
        play_out(c, pages["end class"], use_hint=False)
        pages["race border-up"] = pages["play border-up"]
        pages["map dashing-states"] = pages["play dashing-states"]
        end = start(c, "ranks", seed=3)
        play_out(c, end, use_hint=False)
        pages["end ranks"] = end
        pages["end geodouble"] = start(c, "geodouble", seed=8)
        play_out(c, pages["end geodouble"], use_hint=False)
        driver.pages = pages
        yield driver


def viewport(driver, size: tuple[int, int], scale: float = 1) -> None:
    driver.execute_cdp_cmd("Emulation.setDeviceMetricsOverride",
                           {"width": size[0], "height": size[1], "deviceScaleFactor": scale, "mobile": False})


def measured(driver, path: str, opened: bool = False) -> dict:
    """`MEASURE` on the page at `path` (every <details> opened first, if `opened`). A race page
    may move on by itself (its rival claims): then the page it moved to is measured."""
    from selenium.common.exceptions import WebDriverException

    for attempt in range(3):
        driver.get(driver.base + path)
        try:
            if opened:
                driver.execute_script("document.querySelectorAll('details').forEach(function (d) { d.open = true; })")
            return driver.execute_script(MEASURE)
        except WebDriverException:
            if attempt == 2:
                raise
    raise AssertionError("unreachable")


@needs_web
def test_at_390_px_no_page_scrolls_sideways_and_every_control_is_44_px(site):
    """Issue 34 item 10, every page kind of every game: start, setup, play (a race, a map), the
    end with its review and records, a refusal. Tried first on the setup pages, whose rules
    table was 488-693 px wide, its fields' inputs 41 px and its summaries and links 19 px high;
    later, in the screenshots, the cards cut long state names with an ellipsis and Dashing
    States' claim options drew their radios 44 px wide."""
    viewport(site, PHONE)
    problems = {}
    for kind, path in site.pages.items():
        page = measured(site, path)
        # the keyboard's aligned screen scrolls in its own box (div.scroll) by design
        page["cut"] = [c for c in page["cut"] if not c.startswith("div.scroll")]
        if page["scrolls"] or page["wide"] or page["small"] or page["cut"] or page["big"]:
            problems[kind] = page
    assert not problems, problems


@needs_web
def test_at_a_laptops_width_field_names_break_between_words_and_the_tools_are_one_row(site):
    """Seen in the screenshots (docs/web/): the setup page's rules fields broke their names
    anywhere ("stage.hand_si / ze"), and the play page's hint link sat alone above undo (a
    form inside a paragraph, which the parser closes)."""
    viewport(site, (960, 900))
    problems = {}
    for kind, path in site.pages.items():
        if kind.startswith(("setup", "play")) and not kind.startswith(("play border-up", "play dashing")):
            site.get(site.base + path)
            page = site.execute_script(DESKTOP)
            if page["broken"] or page["tool_rows"] > 1:
                problems[kind] = page
    assert not problems, problems


@needs_web
def test_the_projector_view_at_200_percent_cuts_no_line_and_hides_no_control(site):
    """Issue 34 item 8: a Class page (and every game's) on a projector, zoomed to 200 % (a
    1280-px window at device scale 2): large type, nothing scrolls sideways or is cut (every
    <details> open), and the choice is kept from page to page (`static/view.js`)."""
    viewport(site, PROJECTOR, 2)
    site.get(site.base + site.pages["play class"] + "?view=projector")
    normal = site.execute_script("return parseFloat(getComputedStyle(document.body).fontSize)")
    assert site.execute_script("return document.documentElement.classList.contains('projector')")
    problems = {}
    for kind, path in site.pages.items():
        if not kind.startswith(("play", "end", "start")):
            continue
        page = measured(site, path, opened=True)  # no ?view= now: the browser kept it
        assert site.execute_script("return document.documentElement.classList.contains('projector')"), kind
        if page["scrolls"] or page["wide"] or page["cut"] or page["small"]:
            problems[kind] = page
    assert not problems, problems
    site.get(site.base + "/?view=normal")
    assert not site.execute_script("return document.documentElement.classList.contains('projector')")
    assert site.execute_script("return parseFloat(getComputedStyle(document.body).fontSize)") * 1.3 < normal


@needs_web
def test_axe_core_finds_no_serious_or_critical_violation(site):
    """axe-core on the start, setup, play (Play the Ranks, Class), race (Border-Up), map
    (Dashing States) and end pages, at a desktop's width and a phone's. Tried first, the setup
    pages' rules fields had no labels (critical) and the review's box scrolled without a way in
    by keyboard (serious)."""
    source = axe_source()
    if source is None:  # axe-core is npm's, not a Python package: .ci/run fetches it, so CI runs this check;
        # only a machine without npm (or offline) skips it, and says how to get it
        pytest.skip("axe-core is not here: npm pack axe-core and point GEOLAB_AXE_CORE at its axe.min.js "
                    "(.ci/run does)")
    found = {}
    for size in ((1280, 900), PHONE):
        viewport(site, size)
        for kind in ("start", "setup geodouble", "play ranks", "play class", "race border-up", "map dashing-states",
                     "end ranks"):
            site.get(site.base + site.pages[kind])
            site.execute_script(source)
            site.set_script_timeout(60)
            violations = site.execute_async_script(AXE_RUN)
            if violations:
                found[f"{kind} at {size[0]} px"] = violations
    assert not found, found
