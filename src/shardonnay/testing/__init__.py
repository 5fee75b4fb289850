"""Generators, oracles and example programs for shardonnay's tests and benchmarks."""
