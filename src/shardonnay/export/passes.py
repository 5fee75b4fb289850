"""Shardy's partitioning passes, by their Shardy names (see `shardonnay.passes`).

`func.func(sdy-insert-explicit-reshards{enable-full-version=true})` runs the
full version; without the option (or `=false`) the limited one that ends
`sdy-propagation-pipeline`. `func.func(sdy-reshard-to-collectives)` lowers
every `sdy.reshard` to collectives.
"""

from __future__ import annotations

from shardonnay.ir.core import Module
from shardonnay.passes import register_pass


@register_pass("sdy-insert-explicit-reshards", {"enable-full-version": "false"})
def _insert_explicit_reshards(module: Module, options: dict[str, str]) -> Module:
    from shardonnay.export.explicit_reshards import insert_explicit_reshards

    full = options.get("enable-full-version", "false") == "true"
    return insert_explicit_reshards(module, full_version=full)


@register_pass("sdy-reshard-to-collectives", {"keep-redundant-reshards": "false"})
def _reshard_to_collectives(module: Module, options: dict[str, str]) -> Module:
    from shardonnay.errors import PartitionError
    from shardonnay.export.reshard_to_collectives import reshard_to_collectives

    if options["keep-redundant-reshards"] == "true":
        raise PartitionError(
            "sdy-reshard-to-collectives: shardonnay lowers every reshard "
            "(keep-redundant-reshards=false)"
        )
    return reshard_to_collectives(module)


@register_pass(
    "sdy-convert-global-to-local",
    {
        "combine-multi-dimension-reduce-scatter": "false",
        "enable-rgv3": "false",
        "per-dim-all-gather": "false",
    },
)
def _convert_global_to_local(module: Module, options: dict[str, str]) -> Module:
    from shardonnay.errors import PartitionError
    from shardonnay.partitioner.local.convert import convert_global_to_local

    chosen = [name for name, value in options.items() if value == "true"]
    if chosen:
        raise PartitionError(
            f"sdy-convert-global-to-local: shardonnay writes every collective one way; "
            f"{', '.join(chosen)} must stay false"
        )
    return convert_global_to_local(module)
