"""Play the Ranks bots: batched policies and their kernels (`heuristics`), one-game seats
(`seats`), Monte Carlo and ISMCTS search (`montecarlo`, `ismcts`, `ismcts_kernel`), the
peeking oracle (`oracle`), the learned policy (`learned`) and the human seat (`human`).
"""
