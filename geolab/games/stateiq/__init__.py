"""State IQ (Combo 1, game 2): each team guesses the state the other holds from the clues of a Power card."""
