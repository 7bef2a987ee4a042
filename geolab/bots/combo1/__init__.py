"""Combo 1's bots: a team that plays all four games and chooses its afternoon games."""
