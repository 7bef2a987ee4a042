"""Jumbled GeoPower Choice bots: dealer-call policies (`callers`), the random and rule-of-thumb
set policies with their fused kernels (`heuristics`), Monte Carlo (`montecarlo`), the learned
policy (`learned`), the registry that builds them by name, each with its call policy
(`registry`), and a bot as a reference-engine seat (`seats`).
"""
