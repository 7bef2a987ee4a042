"""GeoDouble's bots: a race speed, a Play the Ranks bot for the tricks and a declaration policy."""
