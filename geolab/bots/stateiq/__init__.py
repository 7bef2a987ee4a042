"""State IQ's bots: the guesser that searches the clue tree, the clue-giver that plays against it."""
