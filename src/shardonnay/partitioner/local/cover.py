"""Collectives of a smaller mesh, made to involve every device of the program.

A per-device program runs on the devices of its largest mesh; a value split
on a mesh of fewer devices lives on that mesh's devices (ids `0..n-1`), and
the collectives that move it name groups of those devices only. StableHLO
wants every device of the program in one group of each collective (and the
groups of an all_gather, all_to_all or reduce_scatter of one size, since the
result type follows it). `cover_devices(ctx, module)` rewrites each
collective whose groups leave devices out so that those devices take part
on their own, computing on their undefined buffers. Where the devices left
out divide into groups of the op's group size, they simply form such groups
(`even_groups`); otherwise:

- `all_reduce`, `collective_broadcast`: each device left out becomes a group
  of its own (`-1` pads the groups to one width);
- `all_gather` along `dim` in groups of `g`: every device writes its buffer at
  its place in the group (`dynamic_update_slice` into zeros of the result
  type) and the buffers are summed (`or` for booleans) by such an
  `all_reduce`: each slot holds one device's data and zeros elsewhere;
- `reduce_scatter`: such an `all_reduce` with the op's reduction, then each
  device's part (`dynamic_slice` at its place in the group);
- `all_to_all`: the buffers gathered as above along a new leading dim, each
  device's part of every buffer sliced from its split dim, and the leading
  dim merged into the concat dim;
- `collective_permute` already leaves devices out: they receive zeros.

For example, on 5 devices an all_gather along dim 0 of `tensor<2xf32>` in
groups `[[0, 1], [2, 3]]` leaves device 4 out, which forms no group of 2, so
it becomes (device `d` at place `[0, 1, 0, 1, 0][d]`)::

    %z = stablehlo.broadcast_in_dim %zero, dims = [] : (tensor<f32>) -> tensor<4xf32>
    %p = ... 2 * place ...
    %u = stablehlo.dynamic_update_slice %z, %x, %p : (...) -> tensor<4xf32>
    %r = "stablehlo.all_reduce"(%u) <{replica_groups = dense<[[0, 1], [2, 3],
        [4, -1]]> : tensor<3x2xi64>, ...}> ({ stablehlo.add }) : (...) -> tensor<4xf32>

On 6 devices, devices 4 and 5 form a group of their own and the all_gather
stays.
"""

from __future__ import annotations

from collections.abc import Sequence

from shardonnay.ir.attributes import UNIT
from shardonnay.ir.core import Module, Op, Region, Value
from shardonnay.ir.types import TensorType
from shardonnay.ops.collectives import replica_groups
from shardonnay.ops.traits import GROUPED_DEVICES, has_trait
from shardonnay.partitioner.local.context import LocalContext
from shardonnay.partitioner.local.factors import copy_region


def cover_devices(ctx: LocalContext, module: Module) -> None:
    """Rewrites, in place, every collective of `module` whose groups leave out
    some of the `ctx.num_devices` devices; see the module docstring."""
    for op in [op for op in module.walk() if has_trait(op, GROUPED_DEVICES)]:
        groups = replica_groups(op)
        left_out = sorted(set(range(ctx.num_devices)) - {d for g in groups for d in g})
        if not left_out:
            continue
        with ctx.builder.before(op):
            _cover(ctx, op, groups, left_out)


def covering_groups(
    ctx: LocalContext, groups: Sequence[Sequence[int]], left_out: Sequence[int]
) -> object:
    """`groups` and one group per device left out, padded with -1 to one width
    (`[[0, 1], [2, 3]]` and `[4, 5]` give `[[0, 1], [2, 3], [4, -1], [5, -1]]`)."""
    rows = [list(g) for g in groups] + [[d] for d in left_out]
    width = max(len(r) for r in rows)
    return ctx.groups_attr([r + [-1] * (width - len(r)) for r in rows])


def even_groups(groups: Sequence[Sequence[int]], left_out: Sequence[int]) -> list[list[int]] | None:
    """`groups` and the devices left out in groups of the same size, where
    they divide into such groups (their buffers are undefined: so are the
    results they compute); None otherwise.

    >>> even_groups([[0, 1], [2, 3]], [4, 5, 6, 7])
    [[0, 1], [2, 3], [4, 5], [6, 7]]
    >>> even_groups([[0, 1, 2]], [3, 4]) is None
    True
    """
    widths = {len(g) for g in groups}
    if len(widths) != 1:
        return None
    (width,) = widths
    if len(left_out) % width:
        return None
    extra = [list(left_out[i : i + width]) for i in range(0, len(left_out), width)]
    return [list(g) for g in groups] + extra


def _cover(ctx: LocalContext, op: Op, groups: list[list[int]], left_out: list[int]) -> None:
    name = op.name
    regrouped = even_groups(groups, left_out)
    if regrouped is not None:  # the op as it is, with groups of the devices left out
        op.attributes["replica_groups"] = ctx.groups_attr(regrouped)
        return
    if name in ("stablehlo.all_reduce", "stablehlo.collective_broadcast"):
        op.attributes["replica_groups"] = covering_groups(ctx, groups, left_out)
        return
    x = op.operands[0]
    result_type = op.results[0].type
    if name == "stablehlo.all_gather":
        dim = _int(op, "all_gather_dim")
        new = _gather(ctx, x, dim, result_type, groups, left_out)
    elif name == "stablehlo.reduce_scatter":
        dim = _int(op, "scatter_dimension")
        reduced = _all_reduce(ctx, x, op.regions[0], groups, left_out)
        new = _own_part(ctx, reduced, dim, result_type.shape[dim], groups)
    else:
        new = _all_to_all(ctx, op, x, groups, left_out)
    op.results[0].replace_all_uses_with(new)
    op.erase()


def _int(op: Op, key: str) -> int:
    return int(op.attributes[key].value)


def _place(ctx: LocalContext, groups: Sequence[Sequence[int]]) -> Value:
    """`tensor<i64>`: this device's place in its group (0 for devices in none)."""
    table = [0] * ctx.num_devices
    for group in groups:
        for k, device in enumerate(group):
            table[device] = k
    return ctx.table_entry(table, ctx.partition_id())


def _starts(ctx: LocalContext, rank: int, dim: int, offset: Value) -> list[Value]:
    return [offset if d == dim else ctx.i64(0) for d in range(rank)]


def _offset(ctx: LocalContext, groups, size: int) -> Value:
    """This device's place in its group times `size` (`tensor<i64>`)."""
    place = _place(ctx, groups)
    return ctx.value("stablehlo.multiply", [place, ctx.i64(size)], place.type)


def _all_reduce(
    ctx: LocalContext, x: Value, region: Region, groups, left_out: Sequence[int]
) -> Value:
    attributes = {
        "channel_handle": ctx.channel_handle(),
        "replica_groups": covering_groups(ctx, groups, left_out),
        "use_global_device_ids": UNIT,
    }
    new = ctx.op("stablehlo.all_reduce", [x], [x.type], attributes, [copy_region(region)])
    return new.results[0]


def _gather(
    ctx: LocalContext,
    x: Value,
    dim: int,
    result_type: TensorType,
    groups,
    left_out: Sequence[int],
) -> Value:
    """`x` concatenated along `dim` over its group: placed and summed."""
    element = result_type.element_type
    zero = ctx.scalar(False if element == "i1" else 0, element)
    placed = ctx.value(
        "stablehlo.dynamic_update_slice",
        [
            ctx.broadcast(zero, result_type),
            x,
            *_starts(ctx, len(result_type.shape), dim, _offset(ctx, groups, x.type.shape[dim])),
        ],
        result_type,
    )
    combine = "stablehlo.or" if element == "i1" else "stablehlo.add"
    return _all_reduce(ctx, placed, ctx.binary_region(element, combine), groups, left_out)


def _own_part(ctx: LocalContext, x: Value, dim: int, size: int, groups) -> Value:
    """This device's part of `x` along `dim`: `size` slots at its place in its group."""
    sizes = list(x.type.shape)
    sizes[dim] = size
    starts = _starts(ctx, len(sizes), dim, _offset(ctx, groups, size))
    return ctx.dynamic_slice(x, starts, sizes)


def _all_to_all(ctx: LocalContext, op: Op, x: Value, groups, left_out: Sequence[int]) -> Value:
    """Every buffer of the group gathered along a new leading dim, this
    device's part of each cut from the split dim, and the leading dim merged
    into the concat dim (the parts in group order)."""
    split, concat = _int(op, "split_dimension"), _int(op, "concat_dimension")
    count = len(groups[0])
    shape = x.type.shape
    rank = len(shape)
    lead = ctx.reshape(x, (1, *shape))
    gathered = _gather(ctx, lead, 0, lead.type.with_shape((count, *shape)), groups, left_out)
    parts = _own_part(ctx, gathered, split + 1, shape[split] // count, groups)
    permutation = [*range(1, concat + 1), 0, *range(concat + 1, rank + 1)]
    moved = ctx.transpose(parts, permutation)
    final = list(parts.type.shape[1:])
    final[concat] *= count
    return ctx.reshape(moved, final)


__all__ = ["cover_devices", "covering_groups"]
