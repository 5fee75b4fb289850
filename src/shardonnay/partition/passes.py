"""Shardy's partitioning passes, by their Shardy names (see `shardonnay.passes`).

`func.func(sdy-insert-explicit-reshards{enable-full-version=true})` runs the
full version; without the option (or `=false`) the limited one that ends
`sdy-propagation-pipeline`. `func.func(sdy-reshard-to-collectives)` lowers
every `sdy.reshard` to collectives.
"""

from __future__ import annotations

from shardonnay.ir.core import Module
from shardonnay.passes import register_pass


@register_pass("sdy-insert-explicit-reshards")
def _insert_explicit_reshards(module: Module, options: dict[str, str]) -> Module:
    from shardonnay.partition.explicit_reshards import insert_explicit_reshards

    full = options.get("enable-full-version", "false") == "true"
    return insert_explicit_reshards(module, full_version=full)


@register_pass("sdy-reshard-to-collectives")
def _reshard_to_collectives(module: Module, options: dict[str, str]) -> Module:
    from shardonnay.partition.reshard_to_collectives import reshard_to_collectives

    return reshard_to_collectives(module)
