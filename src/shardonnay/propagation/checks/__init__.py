"""Checks of propagation's output: consistency, kept annotations, rules run shard by shard."""
