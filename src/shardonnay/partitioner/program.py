"""The SPMD partitioner end to end: a program with shardings to the program every device runs.

`partition(module)` chains Shardy's partitioner, as `sdy_opt` runs it, and
then makes the program local:

1. `sdy-propagation-pipeline` (`shardonnay.pipeline`): every
   value gets a sharding (skipped with `propagate=False`, for a program
   whose shardings are already decided);
2. `sdy-insert-explicit-reshards{enable-full-version=true}`: every op's
   operands and results agree, through `sdy.reshard`s and `sdy.all_reduce`s.
   Unless `reshards="shardy"`, calls are inlined first (`shardonnay.ir.inline`,
   as XLA does), and afterwards matmuls are made from operands gathered along
   the contracted dims and ops computed at their user's sharding where the
   per-device program is cheaper (`shardonnay.partitioner.cheaper_rewrites`);
3. `sdy-reshard-to-collectives`: each reshard becomes sdy collectives
   (with `reshards="shardonnay"`, the default, those of `reshard_plan`
   where they receive fewer bytes, or none where each device fetching the
   tiles it lacks receives fewer still, see
   `shardonnay.partitioner.reshard.planned`; `reshards="collectives"`:
   chains of collectives only; `reshards="shardy"` keeps Shardy's lowering
   of every reshard);
4. `sdy-convert-global-to-local`: local types, StableHLO collectives on
   device ids, then reduce-scatters where cheaper and collectives combined
   (`shardonnay.partitioner.per_device`).

`explicit_collectives(module)` stops after step 3: the global program whose
communication is explicit, which `shardonnay.partitioner.analysis.cost.collective_costs`
costs. `shardonnay.runtime.check.check(module)` partitions, runs the local
program on every device and compares each output with the reference
interpreter on the original program.

`shardonnay.partition` and `shardonnay.explicit_collectives` are these functions.

>>> from shardonnay.syntax.mlir_reader import parse_module
>>> module = parse_module('''
... sdy.mesh @mesh = <["x"=4]>
... func.func @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>},
...                 %arg1: tensor<16x4xf32>) -> tensor<8x4xf32> {
...   %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0]
...       : (tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x4xf32>
...   return %0 : tensor<8x4xf32>
... }''')
>>> local = partition(module)
>>> [str(t) for t in local.function("main").type.inputs]  # each device's buffers
['tensor<8x4xf32>', 'tensor<4x4xf32>']
>>> [op.name for op in local.function("main").body.ops]
['stablehlo.dot_general', 'stablehlo.all_reduce', 'func.return']
"""

from __future__ import annotations

from shardonnay.export.explicit_reshards import insert_explicit_reshards
from shardonnay.ir.core import Module
from shardonnay.ir.inline import inline_calls, inlined_op_count
from shardonnay.ir.structure import check_structure
from shardonnay.ops.chlo import write_computed_rules
from shardonnay.partitioner.analysis.cost import collective_costs
from shardonnay.partitioner.analysis.memory import peak_memory
from shardonnay.partitioner.cheaper_rewrites import rewrite_where_cheaper
from shardonnay.partitioner.device_limit import check_device_count
from shardonnay.partitioner.per_device import per_device_program
from shardonnay.partitioner.repeated_collectives import merge_repeated_collectives
from shardonnay.partitioner.reshard.planned import lower_reshards
from shardonnay.pipeline import propagation_pipeline_in_place

__all__ = [
    "describe_costs",
    "explicit_collectives",
    "partition",
    "propagated_program",
]


def propagated_program(
    module: Module, *, propagate: bool = True, max_devices: int | None = None
) -> Module:
    """Step 1 of the module docstring on a copy of `module`: its shardings as
    the partitioner propagates them (`propagate=False`: as written), the
    program whose names every report uses (`shardonnay.ir.naming`). Raises
    `IRError` for unbounded nesting or recursive calls and `PartitionError`
    up front when a mesh has more devices than `max_devices`
    (`shardonnay.partitioner.device_limit`)."""
    check_structure(module)
    check_device_count(module, max_devices=max_devices)

    # Elementwise chlo ops get the rules of what they compute (Shardy has none),
    # for propagation and again after it (it drops rules) for the reshards.
    program = write_computed_rules(module.copy())
    if propagate:
        propagation_pipeline_in_place(program)
    return write_computed_rules(program)


def explicit_collectives(
    module: Module,
    *,
    propagate: bool = True,
    reshards: str = "shardonnay",
    max_devices: int | None = None,
) -> Module:
    """The global program of `module` with explicit collectives: steps 1 to 3 of
    the module docstring, on a copy (`module` is unchanged). Raises
    `PartitionError` up front when a mesh has more devices than `max_devices`
    (`shardonnay.partitioner.device_limit`)."""
    program = propagated_program(module, propagate=propagate, max_devices=max_devices)
    if reshards != "shardy":  # Shardy's lowering keeps Shardy's text, calls and all
        program = _inlined(program)  # as XLA does: no reshards at function boundaries
    insert_explicit_reshards(program, full_version=True)
    if reshards != "shardy":
        rewrite_where_cheaper(program)  # gathered contractions, ops computed at use
    explicit = lower_reshards(program, reshards=reshards)
    if reshards != "shardy":  # Shardy's lowering keeps Shardy's text
        merge_repeated_collectives(explicit)
    return explicit


# Inlining copies a function to every call of it: a program inlined to more ops
# than this keeps its calls (functions calling functions, each several times,
# would grow it as the product of the calls per level).
def _inline_budget(op_count: int) -> int:
    return 4 * op_count + 100_000


def _inlined(program: Module) -> Module:
    """`program` with its calls inlined (a copy), or `program` itself where
    they are recursive or would make more ops than `_inline_budget`."""
    count = inlined_op_count(program)
    if count is None or count > _inline_budget(sum(1 for _ in program.walk())):
        return program
    return inline_calls(program)


def partition(
    module: Module,
    *,
    propagate: bool = True,
    reshards: str = "shardonnay",
    max_devices: int | None = None,
) -> Module:
    """The per-device (SPMD) program of `module` (a new module; `module` is unchanged).

    `propagate=False` skips Shardy's propagation pipeline: the shardings the
    program has are the ones partitioned (a value without one is
    replicated); `reshards` picks how reshards become collectives (see the
    module docstring). Raises `PartitionError` naming the op that cannot be
    made local (see `shardonnay.partitioner.local.convert`), or up front when
    a mesh has more devices than `max_devices` (default
    `$SHARDONNAY_MAX_DEVICES`, else 1024: `shardonnay.partitioner.device_limit`).
    """
    explicit = explicit_collectives(
        module, propagate=propagate, reshards=reshards, max_devices=max_devices
    )
    return per_device_program(explicit, max_devices=max_devices)


def describe_costs(module: Module, explicit: Module, local: Module) -> str:
    """The collectives of `explicit` (`module`'s global program with explicit
    collectives) with their bytes per device, mesh axes and alpha-beta time,
    what each device sends and receives in all, and the peak memory of one
    device running `local` against `module`'s on one device."""
    costs = collective_costs(explicit)
    lines = ["collectives of the global program (after sdy-reshard-to-collectives):"]
    lines.append(costs.table())
    sent, received = costs.sent_per_device, costs.received_per_device
    if len(set(sent)) <= 1 and len(set(received)) <= 1:
        lines.append(
            f"every device sends {max(sent, default=0)} B and receives {max(received, default=0)} B"
        )
    else:
        pairs = enumerate(zip(sent, received, strict=True))
        lines.append(
            "bytes sent/received by device " + ", ".join(f"{d}: {s}/{r}" for d, (s, r) in pairs)
        )
    lines.append(
        f"peak memory per device: {peak_memory(local)} B "
        f"(the unpartitioned program on one device: {peak_memory(module)} B)"
    )
    return "\n".join(lines)
