"""Border-Up (Combo 1, game 1): a race to find two disjoint border groups in 18 cards."""
