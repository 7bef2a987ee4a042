"""Combo 1: a match of Border-Up, State IQ, Dashing States and Play the Ranks, and the tournament."""
