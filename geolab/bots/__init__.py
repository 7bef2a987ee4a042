"""Policies: batched `act(observation_batch, rng) -> actions`."""
