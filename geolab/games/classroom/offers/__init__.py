"""What Class GeoPower Double Choice offers above the games layer: its bench, the arena of
students and the equilibrium discard (`geolab equilibrium class`). These modules sit with the
lab and the command line (they may use both, and the game's bots); only the definition's
offers reach them."""
