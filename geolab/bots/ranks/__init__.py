"""Play the Ranks bots: batched policies and their kernels (`heuristics`), one-game seats
(`seats`), Monte Carlo and ISMCTS search (`montecarlo`, `ismcts`, `ismcts_kernel`), the
peeking oracle (`oracle`), the learned policy (`learned`), restricted bots (`restricted`)
and the oracle's review of a person's game (`review`). A person plays through the game's
views (`geolab.games.ranks.views`) and the generic loop (`geolab.lab.play`).
"""
