"""Words shared by everything that talks to people (the play loop, the games' views, their
observation strings, the CLI): one home for each small piece of text."""

from __future__ import annotations

from geolab.cards import POSTAL

#: Columns a screen line may take (the keyboard's terminal is 80 wide).
WIDTH = 79


def plural(n: int, noun: str) -> str:
    """A count and its noun in agreement: "1 move", "2 moves" (nouns that take an s)."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def ordinal(n: int) -> str:
    """1 -> "1st", 12 -> "12th", 22 -> "22nd"."""
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def percent(p: float) -> str:
    """A chance in words that never rounds a doubt away: "over 99%" and "under 1%" short of
    certainty, else the nearest per cent."""
    if 0.99 < p < 1:
        return "over 99%"
    if 0 < p < 0.01:
        return "under 1%"
    return f"{p:.0%}"


def codes(cards, empty: str = "") -> str:
    """``"MD NC VA"``: the cards' postal codes in the order given; `empty` for no card ("none"
    in an observation string)."""
    return " ".join(POSTAL[c] for c in cards) or empty


def sorted_codes(cards) -> str:
    """Postal codes in postal-code order: "AK CA TX" (a hand as a person scans it)."""
    return " ".join(sorted(POSTAL[c] for c in cards))


def wrapped(text: str, indent: int = 2, width: int = WIDTH) -> list[str]:
    """`text` cut between words into lines of at most `width` columns; its leading spaces
    kept, each continuation indented `indent` more."""
    lead = text[: len(text) - len(text.lstrip())]
    lines, line = [], lead
    for word in text.split():
        if line.strip() and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = " " * (len(lead) + indent) + word
        else:
            line = f"{line} {word}" if line.strip() else line + word
    return lines + [line]


def fit(lines: list[str], width: int = WIDTH) -> list[str]:
    """Each line too wide for the screen wrapped between words; the others as they are."""
    return [part for line in lines for part in (wrapped(line, width=width) if len(line) > width else [line])]
