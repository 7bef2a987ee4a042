"""What Jumbled GeoPower Choice offers above the games layer: its bench and the studies'
arenas (a bot against a field, what the dealer's call is worth). These modules sit with the lab
and the command line (they may use both, and the game's bots); only the definition's offers
reach them."""
