"""Exact solvers. Everything here sees hidden cards: oracles for analysis, never fair players."""
