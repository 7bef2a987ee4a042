"""What Play the Ranks offers above the games layer: its bench, the oracle's report of a record
(solve), the learned bot's training (train) and `geolab bench solver`. These modules sit with
the lab and the command line (they may use both, and the game's bots); only the definition's
offers reach them."""
