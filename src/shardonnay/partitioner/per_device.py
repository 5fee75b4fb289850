"""The per-device program `partition` makes of a global program with explicit collectives.

`convert_global_to_local` (Shardy's `sdy-convert-global-to-local`) with the
options that communicate least, then `improve_collectives` (reduce-scatters
where cheaper, collectives combined as XLA's combiners do):

- a gather along several dims is one `all_gather` per dim, as XLA's
  partitioner emits them: the same bytes in fewer steps (gathering `[2, 4]`
  shards of `"data"=2` and `"model"=4` takes `1 + 3` steps, not the `7` of
  one all-gather over the 8 devices);
- a reduce-scatter along several evenly sharded dims is one
  `reduce_scatter`, not an all-reduce and a slice (half the bytes in half the
  steps).

The partitioner's choices (`shardonnay.partitioner.fragments`) cost the
per-device programs this function makes, so that they judge what runs.
"""

from __future__ import annotations

from shardonnay.ir.core import Module
from shardonnay.partitioner.local.convert import convert_global_to_local
from shardonnay.partitioner.scattered_reductions import improve_collectives

__all__ = ["per_device_program"]


def per_device_program(
    explicit: Module, *, max_devices: int | None = None, poison_padding: bool = False
) -> Module:
    """The per-device program of `explicit` (a new module; `explicit` is
    unchanged); `poison_padding` as `convert_global_to_local` takes it (the
    checks run programs whose padding holds NaN)."""
    local = convert_global_to_local(
        explicit,
        max_devices=max_devices,
        poison_padding=poison_padding,
        per_dim_all_gather=True,
        combine_multi_dimension_reduce_scatter=True,
    )
    improve_collectives(local)
    return local
