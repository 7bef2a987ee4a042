"""Learned Play the Ranks policies: readable features, rollout labels, scikit-learn models.

`features` turns what one side may see into per-candidate feature rows; `model` saves and
loads fitted models with their training metadata; `training` generates labelled decisions
with the batch engine and fits the models. The batched bot is `geolab.bots.ranks.learned`.
"""
