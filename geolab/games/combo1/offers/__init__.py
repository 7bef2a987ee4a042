"""What Combo 1 match offers above the games layer: its bench and the tournament (`geolab
tournament`). These modules sit with the lab and the command line (they may use both, and the
game's bots); only the definition's offers reach them."""
