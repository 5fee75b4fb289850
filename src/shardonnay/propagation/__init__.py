"""Sharding propagation with Shardy's semantics: op sharding rules, projection,
factor propagation, the driver and the pipeline around it.

`propagate(module)` is the front door (also `shardonnay.propagate`):

>>> from shardonnay.syntax.mlir_reader import parse_module
>>> module = parse_module('''
... sdy.mesh @mesh = <["x"=4]>
... func.func @main(%arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>})
...     -> tensor<8x4xf32> {
...   %0 = stablehlo.negate %arg0 : tensor<8x4xf32>
...   return %0 : tensor<8x4xf32>
... }''')
>>> negate = propagate(module).functions[0].body.ops[0]
>>> print(negate.attributes["sdy.sharding"])        # closed by the pipeline's export
#sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>
>>> bare = propagate(module, pipeline=False).functions[0].body.ops[0]
>>> print(bare.attributes["sdy.sharding"])           # Shardy's propagation pass alone
#sdy.sharding_per_value<[<@mesh, [{"x", ?}, {?}]>]>
>>> text = propagate(module, explain=True).to_text()   # "x" came from input 0, in step 0
>>> 'sdy.sharding_origins = [{x = "input: 0"}]' in text
True
>>> '#sdy.propagation_edges<[{step-0 = [{"x" = operand-0 -> [result-0]}]}]>' in text
True
"""

from __future__ import annotations

from typing import Literal

from shardonnay.ir.core import Module
from shardonnay.propagation.pipeline import propagation_pipeline

__all__ = ["propagate", "propagation_pipeline"]

_STRATEGIES = ("basic", "aggressive", "op-priority", "user-priority")


def propagate(
    module: Module,
    *,
    strategy: Literal["basic", "aggressive", "op-priority", "user-priority"] = "aggressive",
    pipeline: bool = True,
    conservative: bool = False,
    explain: bool = False,
) -> Module:
    """A copy of `module` in which every value has a sharding, decided as
    Shardy decides it; `module` itself is not modified.

    `pipeline=True` (the default) runs Shardy's `sdy-propagation-pipeline`
    (import steps, user-priority and op-priority propagation, export steps:
    see `shardonnay.propagation.pipeline`), with `strategy` `"aggressive"` or
    `"basic"` as its factor propagation (`propagation-strategy`).
    `pipeline=False` runs only the propagation pass `sdy-<strategy>-propagate`
    (any of `"basic"`, `"aggressive"`, `"op-priority"`, `"user-priority"`),
    values tied by control flow sharing one sharding; open dims stay open.
    `conservative`: never split an axis into sub-axes
    (`conservative-propagation=true`).
    `explain`: every sharded value also gets Shardy's debug attributes:
    `sdy.sharding_origins` (the annotation each axis came from: `input: N`,
    `output: N`, a constraint or manual computation by its
    `sdy.sharding_origin_name`) and `sdy.propagation_edges` (the ops that
    carried each axis, step by step). `shardonnay.propagation.explain`
    tells the same story in words.
    """
    if strategy not in _STRATEGIES:
        raise ValueError(
            f"unknown propagation strategy {strategy!r}; expected one of {', '.join(_STRATEGIES)}"
        )
    if pipeline:
        if strategy not in ("basic", "aggressive"):
            raise ValueError(
                f"the propagation pipeline always runs user and op priorities; its strategy "
                f"is 'aggressive' or 'basic', not {strategy!r} (use pipeline=False for the "
                f"sdy-{strategy}-propagate pass alone)"
            )
        return propagation_pipeline(
            module,
            strategy=strategy,
            conservative=conservative,
            debug_origins=explain,
            debug_edges=explain,
        )
    if explain:
        from shardonnay.propagation.origin_attributes import propagate_with_origins

        return propagate_with_origins(
            module, origins=True, edges=True, strategy=strategy, conservative=conservative
        )
    from shardonnay.propagation.driver import propagate as propagate_pass

    return propagate_pass(module, strategy=strategy, conservative=conservative)
