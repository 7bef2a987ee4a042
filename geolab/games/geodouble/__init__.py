"""GeoDouble: a race for borders and capitals, then Play the Ranks, round after round to 50."""
