"""The states' real outlines, drawn: a Map card (`state_map`: one state in red on a small map
of the United States), a map of several coloured groups (`states_map`), and the same map in
characters for a terminal (`text_map`).

The outlines are the Census Bureau's cartographic boundaries from npm's ``us-atlas``, in d3's
Albers USA projection (Alaska and Hawaii as insets at the lower left), simplified and rounded
once by `geolab.data.make_outlines` into ``geolab/data/outlines.json`` (its source, licence
and the command that remakes it: ``geolab/data/SOURCES.md``). Each state there is one SVG path
in the file's own frame (``viewBox``), so the SVG here scales to any width.

A picture never names a state unless the caller's title does: a Map card's state is the
player's to recognise."""

from __future__ import annotations

import json
import re
from collections.abc import Iterable, Mapping
from functools import lru_cache
from html import escape
from importlib import resources

from geolab.cards import POSTAL

RED = "#d62728"
GREY = "#d9d9d9"
BORDER = "#ffffff"
#: A coloured state whose outline is smaller than this (in the frame's units, either side) is
#: also ringed, so Rhode Island, Delaware and Connecticut show on a card 120 pixels wide.
SMALL = 34
RING = 22  # the smallest ring's radius


@lru_cache(maxsize=1)
def outlines() -> dict:
    """The data file: ``viewBox`` ([x, y, width, height]), ``states`` (code -> SVG path),
    ``source`` and ``licence``."""
    return json.loads(resources.files("geolab.data").joinpath("outlines.json").read_text())


def rings(code: str) -> list[list[tuple[int, int]]]:
    """A state's rings as points of the frame, read from its path (the file's paths use only
    ``M x y``, relative ``l`` steps and ``z``)."""
    return _rings(outlines()["states"][code])


@lru_cache(maxsize=64)
def _rings(d: str) -> list[list[tuple[int, int]]]:
    out = []
    for ring in re.findall(r"M([^Ml]+)l([^z]*)z", d):
        x, y = (int(v) for v in re.findall(r"-?\d+", ring[0]))
        points = [(x, y)]
        steps = [int(v) for v in re.findall(r"-?\d+", ring[1])]
        for dx, dy in zip(steps[::2], steps[1::2]):
            x, y = x + dx, y + dy
            points.append((x, y))
        out.append(points)
    return out


def bounds(code: str) -> tuple[int, int, int, int]:
    """A state's bounding box: x0, y0, x1, y1."""
    points = [p for ring in rings(code) for p in ring]
    xs, ys = [x for x, _ in points], [y for _, y in points]
    return min(xs), min(ys), max(xs), max(ys)


def states_map(groups: Mapping[str, Iterable[str]], *, title: str, width: int | None = None,
               others: str = GREY, ring_small: bool = True) -> str:
    """An SVG map: the states of each group (colour -> postal codes) in that colour, every
    other state in `others`; `title` is what a screen reader says (``<title>``). The size
    comes from the ``viewBox``, so CSS sets it (or `width`, in pixels). A coloured state too
    small to see is ringed in its colour (`ring_small`)."""
    colour_of: dict[str, str] = {}
    for colour, codes in groups.items():
        for code in codes:
            if code not in POSTAL:
                raise ValueError(f"{code!r} is not a state's postal code")
            colour_of[code] = colour
    data = outlines()
    x, y, w, h = data["viewBox"]
    size = f' width="{width}" height="{round(width * h / w)}"' if width else ""
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="{x} {y} {w} {h}"{size} role="img" class="us-map">',
             f"<title>{escape(title)}</title>"]
    parts.append(f'<g fill="{escape(others)}" stroke="{BORDER}" stroke-width="1" stroke-linejoin="round">')
    parts += [f'<path d="{d}"/>' for code, d in data["states"].items() if code not in colour_of]
    parts.append("</g>")
    for code, colour in colour_of.items():  # drawn last, so a coloured outline is never covered
        parts.append(f'<path d="{data["states"][code]}" fill="{escape(colour)}" stroke="{BORDER}" '
                     'stroke-width="0.5" stroke-linejoin="round"/>')
        x0, y0, x1, y1 = bounds(code)
        if ring_small and max(x1 - x0, y1 - y0) < SMALL:
            radius = max(RING, max(x1 - x0, y1 - y0) / 2 + 8)
            parts.append(f'<circle cx="{(x0 + x1) / 2:g}" cy="{(y0 + y1) / 2:g}" r="{radius:g}" fill="none" '
                         f'stroke="{escape(colour)}" stroke-width="6"/>')
    parts.append("</svg>")
    return "".join(parts)


def state_map(code: str, *, title: str = "A map of the United States with one state in red",
              colour: str = RED, width: int | None = None) -> str:
    """A Map card: `code`'s state in red, the others light grey. The default title names no
    state (a card is to be recognised); pass one that does where the answer is public."""
    return states_map({colour: [code]}, title=title, width=width)


# ----- in characters -----------------------------------------------------------------------------
def inside(point: tuple[float, float], code: str) -> bool:
    """Whether a point lies in a state (even-odd over its rings, so a lake is a hole)."""
    px, py = point
    x0, y0, x1, y1 = bounds(code)
    if not (x0 <= px <= x1 and y0 <= py <= y1):
        return False
    hit = False
    for ring in rings(code):
        for (xa, ya), (xb, yb) in zip(ring, ring[1:] + ring[:1]):
            if (ya > py) != (yb > py) and px < xa + (py - ya) * (xb - xa) / (yb - ya):
                hit = not hit
    return hit


@lru_cache(maxsize=4)
def raster(columns: int) -> tuple[tuple[str | None, ...], ...]:
    """The map as a grid of character cells, `columns` wide (a cell twice as tall as wide, as
    a terminal's): the state under each cell's centre, None for none. A state too small to
    hold a cell's centre takes the cell under its own centre, so every state has a cell."""
    _, _, w, h = outlines()["viewBox"]
    cell = w / columns
    rows = max(1, round(h / (2 * cell)))
    grid = [[None] * columns for _ in range(rows)]
    for code in POSTAL:
        x0, y0, x1, y1 = bounds(code)
        for r in range(int(y0 // (2 * cell)), min(rows, int(y1 // (2 * cell)) + 1)):
            for c in range(int(x0 // cell), min(columns, int(x1 // cell) + 1)):
                if grid[r][c] is None and inside(((c + 0.5) * cell, (r + 0.5) * 2 * cell), code):
                    grid[r][c] = code
    for code in POSTAL:
        if not any(code in row for row in grid):
            x0, y0, x1, y1 = bounds(code)
            grid[min(rows - 1, int((y0 + y1) / 2 // (2 * cell)))][min(columns - 1, int((x0 + x1) / 2 // cell))] = code
    return tuple(tuple(row) for row in grid)


def text_map(marks: Mapping[str, str], columns: int = 64, land: str = ".") -> list[str]:
    """The map in characters: each state of `marks` (code -> one character) drawn in its
    character, every other state's land as `land`, the sea blank; Alaska and Hawaii at the
    lower left as on the drawn map; line r is row r of `raster`, right-trimmed."""
    return ["".join(" " if code is None else marks.get(code, land) for code in row).rstrip()
            for row in raster(columns)]
