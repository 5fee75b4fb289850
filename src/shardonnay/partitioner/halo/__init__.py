"""Halo exchanges: the slots a device lacks for a shifted, padded or reversed shard, and who
sends them."""
