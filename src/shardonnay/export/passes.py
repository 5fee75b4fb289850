"""Shardy's export passes with options, as pass functions: `fn(module,
options) -> module`, `options` holding every option of the pass by its
Shardy name (the defaults filled in, see the table of `shardonnay.passes`).

`sdy-insert-explicit-reshards{enable-full-version=true}` runs the full
version; without the option (or `=false`) the limited one that ends
`sdy-propagation-pipeline`. `sdy-reshard-to-collectives` lowers every
`sdy.reshard` to collectives (with `keep-redundant-reshards=true`, but those
to a sharding equivalent to their input's).

>>> from shardonnay.syntax.mlir_reader import parse_module
>>> module = parse_module('''
... sdy.mesh @mesh = <["x"=2]>
... func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>})
...     -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}) {
...   %0 = sdy.reshard %arg0 <@mesh, [{}]> : tensor<8xf32>
...   return %0 : tensor<8xf32>
... }''')
>>> out = sdy_reshard_to_collectives(module, {"keep-redundant-reshards": "false"})
>>> out.functions[0].body.ops[0].name
'sdy.all_gather'
"""

from __future__ import annotations

from shardonnay.export.explicit_reshards import insert_explicit_reshards
from shardonnay.export.permutation_factors import resolve_permutation_factors
from shardonnay.export.reshard_to_collectives import reshard_to_collectives
from shardonnay.ir.core import Module

__all__ = [
    "sdy_insert_explicit_reshards",
    "sdy_reshard_to_collectives",
    "sdy_resolve_permutation_factors",
]


def sdy_insert_explicit_reshards(module: Module, options: dict[str, str]) -> Module:
    """`sdy-insert-explicit-reshards{enable-full-version}`."""
    full = options.get("enable-full-version", "false") == "true"
    return insert_explicit_reshards(module, full_version=full)


def sdy_reshard_to_collectives(module: Module, options: dict[str, str]) -> Module:
    """`sdy-reshard-to-collectives{keep-redundant-reshards}`."""
    keep = options.get("keep-redundant-reshards", "false") == "true"
    return reshard_to_collectives(module, keep_redundant=keep)


def sdy_resolve_permutation_factors(module: Module, options: dict[str, str]) -> Module:
    """`sdy-resolve-permutation-factors{enable-halo-exchange}` (see
    `shardonnay.export.permutation_factors`)."""
    halo = options.get("enable-halo-exchange", "true") == "true"
    return resolve_permutation_factors(module.copy(), halo_exchange=halo)
