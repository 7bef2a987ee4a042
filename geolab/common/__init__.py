"""Shared primitives of the compiled engines: bit helpers, counter-based random streams, work sharing."""
