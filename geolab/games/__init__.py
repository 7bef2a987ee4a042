"""One package per game: rules, reference engine, batch engine, observations, records."""
