"""Independent all-reduces of a per-device program combined into one, as XLA's
all-reduce combiner does.

A data-parallel training step all-reduces every gradient separately, each
paying the ring's latency (`2 (n - 1)` steps); the optimizer reads them only
after the whole backward pass. `combine_all_reduces` merges an all-reduce
into the next one of its block with the same device groups and reduction
when the later one does not depend on its results: the later op reduces
both operand lists at once, moving the same bytes in one collective, and the ops
between them that read the earlier results move after it. A combined
all-reduce takes its operands flattened and concatenated into one buffer and
slices its results back, as XLA's combiner does. The earlier results become ready later, so
the buffers live a little longer.

>>> from shardonnay.syntax.mlir_reader import parse_module
>>> m = parse_module('''
... func.func @main(%a: tensor<4xf32>, %b: tensor<2xf32>) -> (tensor<4xf32>, tensor<2xf32>) {
...   %0 = "stablehlo.all_reduce"(%a) <{replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}> ({
...   ^bb0(%x: tensor<f32>, %y: tensor<f32>):
...     %s = stablehlo.add %x, %y : tensor<f32>
...     stablehlo.return %s : tensor<f32>
...   }) : (tensor<4xf32>) -> tensor<4xf32>
...   %1 = stablehlo.negate %b : tensor<2xf32>
...   %2 = "stablehlo.all_reduce"(%1) <{replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}> ({
...   ^bb0(%x: tensor<f32>, %y: tensor<f32>):
...     %s = stablehlo.add %x, %y : tensor<f32>
...     stablehlo.return %s : tensor<f32>
...   }) : (tensor<2xf32>) -> tensor<2xf32>
...   return %0, %2 : tensor<4xf32>, tensor<2xf32>
... }''')
>>> combine_all_reduces(m)
1
>>> names = [op.name.removeprefix("stablehlo.") for op in m.function("main").body.ops]
>>> names[:5], names.count("all_reduce")
(['negate', 'reshape', 'reshape', 'concatenate', 'all_reduce'], 1)
"""

from __future__ import annotations

import math

from shardonnay.ir.attributes import DenseArrayAttr, IntegerAttr
from shardonnay.ir.core import Block, Module, Op, Region, Value
from shardonnay.ir.types import TensorType

I64 = "i64"


def combine_all_reduces(module: Module) -> int:
    """Combines the all-reduces of every block of `module` that can be (in
    place); returns how many were merged into a later one."""
    merged = 0
    for block in list(module.function_blocks()):
        merged += _combine_in(block)
        for op in list(block.ops):
            if op.name == "stablehlo.all_reduce" and len(op.operands) > 1:
                _pack(op, block)
    return merged


def _combine_in(block: Block) -> int:
    merged = 0
    pending: dict[tuple, Op] = {}
    # A merge reorders only the ops up to the later all-reduce: the ops after
    # the one visited are those after it in `order`, in that order, so its
    # place in `block.ops` is known without a search.
    order = list(block.ops)
    for visited, op in enumerate(order):
        key = _key(op)
        if key is None:
            continue
        earlier = pending.get(key)
        if earlier is not None:
            end = len(block.ops) - (len(order) - visited)
            start = _place_before(block.ops, earlier, end)
            readers = _readers_between(block.ops, start, end)
            if readers is not None:
                op = _merge(block, start, end, readers)
                merged += 1
        pending[key] = op
    return merged


def _place_before(ops: list[Op], op: Op, end: int) -> int:
    """The index of `op` in `ops`, searched backwards from `end` (the
    combinable all-reduces are seldom far apart)."""
    for i in range(end - 1, -1, -1):
        if ops[i] is op:
            return i
    raise ValueError(f"{op.name} is not before index {end} of its block")


def _key(op: Op) -> tuple | None:
    """What must agree for two all-reduces to combine, or None (not combinable)."""
    if op.name != "stablehlo.all_reduce" or len(op.regions) != 1 or not op.operands:
        return None
    region = op.regions[0]
    if len(region.blocks) != 1:
        return None
    body = region.blocks[0]
    if len(body.arguments) != 2 or len(body.ops) != 2 or body.ops[1].name != "stablehlo.return":
        return None
    reduce = body.ops[0]
    if list(reduce.operands) != list(body.arguments) or body.ops[1].operands != (
        reduce.results[0],
    ):
        return None
    element = body.arguments[0].type
    if not isinstance(element, TensorType):
        return None
    for v in op.operands:
        if not isinstance(v.type, TensorType) or v.type.element_type != element.element_type:
            return None
    attributes = tuple(
        sorted(
            (name, str(value)) for name, value in op.attributes.items() if name != "channel_handle"
        )
    )
    return (reduce.name, str(element), attributes)


def _readers_between(ops: list[Op], start: int, end: int) -> list[Op] | None:
    """The ops between `ops[start]` (the earlier all-reduce) and `ops[end]`
    (the later one) that read the earlier one's results (or what they
    compute), in order; None when the later one reads them."""
    tainted = {id(r) for r in ops[start].results}
    readers = []
    for op in ops[start + 1 : end]:
        if any(id(v) in tainted for inner in op.walk() for v in inner.operands):
            readers.append(op)
            tainted.update(id(r) for r in op.results)
    if any(id(v) in tainted for v in ops[end].operands):
        return None
    return readers


def _merge(block: Block, start: int, end: int, readers: list[Op]) -> Op:
    """One all-reduce of the operand lists of `block.ops[start]` and
    `block.ops[end]` at the later one's place, the `readers` of the earlier
    one's results (the ops between them, in their order) moved after it."""
    earlier, later = block.ops[start], block.ops[end]
    combined = Op(
        later.name,
        [*earlier.operands, *later.operands],
        [*earlier.result_types, *later.result_types],
        dict(later.attributes),
        location=later.location,
        inherent=later.inherent,
    )
    combined.add_region(_copied_region(later))
    combined.parent = block
    count = len(earlier.results)
    for i, result in enumerate(earlier.results):
        result.replace_all_uses_with(combined.results[i])
    for i, result in enumerate(later.results):
        result.replace_all_uses_with(combined.results[count + i])
    moved = {id(op) for op in readers}
    staying = [op for op in block.ops[start + 1 : end] if id(op) not in moved]
    block.ops[start : end + 1] = [*staying, combined, *readers]
    for op in (earlier, later):  # out of the block already: erase drops their uses
        op.parent = None
        op.erase()
    return combined


def _pack(op: Op, block: Block) -> None:
    """`op`, a variadic all-reduce, as one all-reduce of its operands flattened
    and concatenated, sliced and reshaped back (what XLA's combiner makes; a
    tuple-shaped all-reduce is not what every XLA pipeline accepts)."""
    element = op.operands[0].type.element_type
    sizes = [math.prod(v.type.shape) for v in op.operands]

    def add(name: str, operands: list[Value], shape: tuple[int, ...], attributes=None) -> Value:
        new = Op(name, operands, [TensorType(shape, element)], attributes or {})
        block.insert_before(op, new)
        return new.results[0]

    flat = [add("stablehlo.reshape", [v], (n,)) for v, n in zip(op.operands, sizes, strict=True)]
    joined = add("stablehlo.concatenate", flat, (sum(sizes),), {"dimension": IntegerAttr(0, I64)})
    single = Op(op.name, [joined], [joined.type], dict(op.attributes), location=op.location)
    single.add_region(_copied_region(op))
    block.insert_before(op, single)
    start = 0
    for result, n in zip(op.results, sizes, strict=True):
        bounds = {
            "start_indices": DenseArrayAttr(I64, (start,)),
            "limit_indices": DenseArrayAttr(I64, (start + n,)),
            "strides": DenseArrayAttr(I64, (1,)),
        }
        part = add("stablehlo.slice", [single.results[0]], (n,), bounds)
        shaped = Op("stablehlo.reshape", [part], [result.type])
        block.insert_before(op, shaped)
        result.replace_all_uses_with(shaped.results[0])
        start += n
    op.erase()


def _copied_region(op: Op) -> Region:
    copy = op.clone()
    region = copy.regions.pop()
    copy.operands = []  # the detached copy no longer uses op's operands
    return region
