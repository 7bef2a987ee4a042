"""What State IQ offers above the games layer: its bench. These modules sit with the lab and the
command line (they may use both, and the game's bots); only the definition's offers reach them."""
