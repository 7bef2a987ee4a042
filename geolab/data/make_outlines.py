"""Make `outlines.json`, the 50 states' outlines the Map cards are drawn from (`geolab.maps`),
from npm's ``us-atlas`` (the Census Bureau's cartographic state boundaries as TopoJSON, already
projected by d3's Albers USA to a 975 x 610 frame, Alaska and Hawaii as insets at the lower
left)::

    cd /tmp && npm pack us-atlas@3 && tar xzf us-atlas-3.*.tgz
    python3 -m geolab.data.make_outlines /tmp/package/states-albers-10m.json

The TopoJSON arcs are decoded here (delta-encoded, quantised integers), each arc simplified
once (Douglas-Peucker, endpoints kept, so two states' shared border stays one line), the rings
put together and rounded to whole units of the frame, and islands too small to see dropped
(a state's largest ring always stays). District of Columbia is left out: it is no card. Each
state is written as one SVG path (``M x y`` then relative ``l`` steps, ``z`` closing each
ring), keyed by postal code. The same input gives the same bytes (tests/test_maps.py checks
the committed file against the npm file when it is at hand)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

from geolab.cards import NAMES, POSTAL

OUT = Path(__file__).with_name("outlines.json")
TOLERANCE = 0.6  # Douglas-Peucker distance, in units of the 975-wide frame
MIN_AREA = 4.0  # an island smaller than this (square units) is dropped; 975 units ~ 2,800 miles
MARGIN = 4  # around the kept outlines, in the frame's units
SOURCE = "us-atlas 3.0.1 states-albers-10m.json (U.S. Census Bureau cartographic boundaries, 2017)"


def decode_arcs(topology: dict) -> list[list[tuple[float, float]]]:
    """Every arc as a list of points in the projected frame: TopoJSON stores each arc's first
    position and then differences, in integers the `transform` scales and translates."""
    (sx, sy), (tx, ty) = topology["transform"]["scale"], topology["transform"]["translate"]
    arcs = []
    for arc in topology["arcs"]:
        x = y = 0
        points = []
        for dx, dy in arc:
            x, y = x + dx, y + dy
            points.append((x * sx + tx, y * sy + ty))
        arcs.append(points)
    return arcs


def simplify(points: list[tuple[float, float]], tolerance: float) -> list[tuple[float, float]]:
    """Douglas-Peucker: the points that keep the line within `tolerance`, both ends kept."""
    if len(points) < 3:
        return list(points)
    keep = [False] * len(points)
    keep[0] = keep[-1] = True
    stack = [(0, len(points) - 1)]
    while stack:
        a, b = stack.pop()
        (ax, ay), (bx, by) = points[a], points[b]
        dx, dy = bx - ax, by - ay
        length = (dx * dx + dy * dy) ** 0.5
        far, worst = -1.0, -1
        for i in range(a + 1, b):
            px, py = points[i]
            d = abs(dx * (py - ay) - dy * (px - ax)) / length if length else ((px - ax) ** 2 + (py - ay) ** 2) ** 0.5
            if d > far:
                far, worst = d, i
        if worst >= 0 and far > tolerance:
            keep[worst] = True
            stack += [(a, worst), (worst, b)]
    return [p for p, k in zip(points, keep) if k]


def area(ring: list[tuple[int, int]]) -> float:
    """A ring's area (shoelace), whatever its direction."""
    return abs(sum(x0 * y1 - x1 * y0 for (x0, y0), (x1, y1) in zip(ring, ring[1:] + ring[:1]))) / 2


def rings_of(geometry: dict, arcs: list) -> list[list[tuple[int, int]]]:
    """A state's rings (outer rings and holes alike: SVG's even-odd fill tells them apart),
    each from its arcs (``~i`` is arc i backwards), rounded to whole units."""
    polygons = geometry["arcs"] if geometry["type"] == "MultiPolygon" else [geometry["arcs"]]
    rings = []
    for polygon in polygons:
        for indices in polygon:
            points: list[tuple[float, float]] = []
            for i in indices:
                arc = arcs[i] if i >= 0 else arcs[~i][::-1]
                points += arc[1:] if points else arc
            ring: list[tuple[int, int]] = []
            for x, y in points:
                p = (round(x), round(y))
                if not ring or ring[-1] != p:
                    ring.append(p)
            if len(ring) > 1 and ring[0] == ring[-1]:
                ring.pop()
            if len(ring) >= 3 and area(ring) > 0:
                rings.append(ring)
    return rings


def path(rings: list[list[tuple[int, int]]], dx: int, dy: int) -> str:
    """Rings as one SVG path: each ``M x y``, then relative steps, then ``z``; numbers are
    separated by a space, or by nothing before a minus sign."""
    def numbers(values) -> str:
        out = ""
        for v in values:
            out += f"{'' if not out or v < 0 else ' '}{v}"
        return out
    parts = []
    for ring in rings:
        (x0, y0) = ring[0]
        steps = [v for (xa, ya), (xb, yb) in zip(ring, ring[1:]) for v in (xb - xa, yb - ya)]
        parts.append(f"M{numbers([x0 - dx, y0 - dy])}l{numbers(steps)}z")
    return "".join(parts)


def outlines(topology: dict) -> dict:
    """The file's contents: the frame, the source and each state's path, by postal code."""
    arcs = [simplify(a, TOLERANCE) for a in decode_arcs(topology)]
    by_name = {n: POSTAL[i] for i, n in enumerate(NAMES)}
    states = {}
    for geometry in topology["objects"]["states"]["geometries"]:
        code = by_name.get(geometry["properties"]["name"])
        if code is None:  # District of Columbia (and nothing else: checked below)
            continue
        rings = rings_of(geometry, arcs)
        largest = max(area(r) for r in rings)
        states[code] = [r for r in rings if area(r) >= MIN_AREA or area(r) == largest]
    if sorted(states) != sorted(POSTAL):
        raise ValueError(f"expected the 50 states, found {len(states)}")
    xs = [x for rings in states.values() for r in rings for x, _ in r]
    ys = [y for rings in states.values() for r in rings for _, y in r]
    dx, dy = min(xs) - MARGIN, min(ys) - MARGIN
    width, height = max(xs) - dx + MARGIN, max(ys) - dy + MARGIN
    return {"source": SOURCE, "licence": "us-atlas: ISC; Census Bureau boundaries: public domain",
            "viewBox": [0, 0, width, height],
            "states": {code: path(states[code], dx, dy) for code in POSTAL}}


def dumps(data: dict) -> str:
    """The file's text: one state a line, so a regenerated file diffs state by state."""
    head = {k: v for k, v in data.items() if k != "states"}
    lines = [json.dumps(head)[:-1] + ', "states": {']
    lines.append(",\n".join(f"  {json.dumps(c)}: {json.dumps(p)}" for c, p in data["states"].items()))
    return "\n".join(lines) + "\n}}\n"


def main(argv: list[str]) -> int:
    if len(argv) != 1:
        print("usage: python3 -m geolab.data.make_outlines PATH/states-albers-10m.json", file=sys.stderr)
        return 2
    try:
        text = dumps(outlines(json.loads(Path(argv[0]).read_text())))
    except (OSError, ValueError) as error:
        print(f"make_outlines: {argv[0]}: {error}", file=sys.stderr)
        return 2
    except (KeyError, TypeError, IndexError) as error:
        print(f"make_outlines: {argv[0]}: not us-atlas's states TopoJSON ({error!r} missing or malformed)",
              file=sys.stderr)
        return 2
    OUT.write_text(text)
    print(f"wrote {OUT} ({OUT.stat().st_size:,} bytes)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
