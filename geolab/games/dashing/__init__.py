"""Dashing States (Combo 1, game 3): a race to sort four Map cards and name them."""
