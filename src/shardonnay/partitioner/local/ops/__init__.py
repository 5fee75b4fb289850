"""The per-device versions of ops whose lowering depends on how their operands are sharded."""
