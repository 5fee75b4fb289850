"""Reshard planning: the collectives that turn one sharding of a tensor into another."""
