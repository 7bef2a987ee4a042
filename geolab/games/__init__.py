"""One module per game: Rules, reference engine, batch engine, observations, legal masks."""
