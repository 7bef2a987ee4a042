"""Restricted play (docs/balance.md): the check every game's restricted bots share."""

from __future__ import annotations

from collections.abc import Sequence


def checked(forbid: str, choices: Sequence[str], reason: str | None) -> str:
    """`forbid` when it names one of `choices` and applies (`reason`, why it would not, is
    None); a ValueError otherwise, which the bots' registry reports as a bad parameter."""
    if forbid not in choices:
        raise ValueError(f"forbid must be one of {', '.join(choices)}, got {forbid!r}")
    if reason is not None:
        raise ValueError(f"does not apply: {reason}")
    return forbid
