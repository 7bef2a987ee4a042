"""Words shared by everything that talks to people (the play loop, the games' views, the CLI)."""

from __future__ import annotations


def plural(n: int, noun: str) -> str:
    """A count and its noun in agreement: "1 move", "2 moves" (nouns that take an s)."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"
