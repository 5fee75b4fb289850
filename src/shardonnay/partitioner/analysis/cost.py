"""What a partitioned program's communication costs: bytes and an alpha-beta time.

`collective_costs(module)` lists every collective of a program whose
communication is explicit, with the bytes each device sends and receives:

* a global program with Shardy's collectives (`sdy.all_gather`,
  `sdy.all_slice`, `sdy.all_to_all`, `sdy.collective_permute`,
  `sdy.all_reduce`, `sdy.reduce_scatter`, `sdy.sharded_to_unreduced`,
  `sdy.replicated_to_unreduced`). A collective's input layout is the sharding
  of its operand: the `sdy.sharding` of the op defining it, the function
  argument's `sdy.sharding`, the `out_sharding` of a previous collective or
  the `sharding` of an `sdy.reshard` (no sharding: replicated). Buffers are
  `shardonnay.layout.local_shape` (padded shards on uneven dims);
* a local per-device program with StableHLO's collectives
  (`stablehlo.all_gather`, `all_reduce`, `reduce_scatter`, `all_to_all`,
  `collective_permute`, `collective_broadcast`) whose process groups are
  explicit (`replica_groups`, `source_target_pairs`) and whose types are the
  per-device buffers. Inside an `sdy.manual_computation` a buffer is further
  split by the sharding of its operand on the free axes.

Algorithms assumed (n = group size, B = one device's buffer, E its elements):

======================  ====================================  ======  =================
collective              sent = received per device            steps   algorithm
======================  ====================================  ======  =================
all_gather              (n-1) * B_in                          n-1     ring
reduce_scatter          (n-1) * B_out                         n-1     ring
all_reduce              2(n-1) * ceil(E/n) elements           2(n-1)  ring: reduce-scatter
                                                                      then all-gather
all_to_all              (n-1) * B_in / n                      n-1     pairwise exchange
collective_permute      B_out, by the devices whose data      1       point to point
                        moves (source != target)
all_slice, *_unreduced  0                                     0       local
======================  ====================================  ======  =================

On uneven dims the buffers are padded shards, and padding travels with the
data. Where padded shards do not line up with the target layout, a data-moving
collective on them cannot produce it: `[{"model":(1)2}]` on 18 columns holds
`[0:9]` and `[9:18]`, `[{"model"}]` wants `[0:5]`, `[5:10]`, ..., so an
`sdy.all_slice` between them must still fetch column 9. There, and for a
still unlowered `sdy.reshard`, each device is costed as fetching exactly the
parts of its target region it lacks, each from one device holding it (a
direct transfer; `algorithm` says so). Every data-moving collective's
`needed` bytes are that lower bound.

Time: `latency * steps + bytes / bandwidth`, bytes being the larger of what
the busiest device sends and receives, with the link parameters of the
slowest axis the group spans (`CostModel`). Collectives run one after the
other: the program's time is their sum. Calls are followed from `main` (a
function called twice counts twice); a loop body counts once. The peak
memory of a local program is `shardonnay.partitioner.analysis.memory.peak_memory`.

>>> from shardonnay.syntax.mlir_reader import parse_module
>>> module = parse_module('''
... sdy.mesh @mesh = <["x"=4]>
... func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>})
...     -> tensor<8x8xf32> {
...   %0 = sdy.all_gather [{"x"}, {}] %arg0 out_sharding=<@mesh, [{}, {}]> : tensor<8x8xf32>
...   return %0 : tensor<8x8xf32>
... }''')
>>> report = collective_costs(module)
>>> c = report.collectives[0]
>>> c.kind, c.axes, c.group_size, c.buffer_bytes, c.bytes_received, c.steps
('all_gather', ('x',), 4, 64, 192, 3)
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import replace

from shardonnay.axes import AxisRef
from shardonnay.collectives import collective_of
from shardonnay.collectives.traffic import (
    ALGORITHMS,
    broadcast_traffic,
    buffer_chunk,
    pair_traffic,
    ring_traffic,
)
from shardonnay.errors import IRError
from shardonnay.ir.attributes import IntegerAttr
from shardonnay.ir.core import Func, Module, Op, Value
from shardonnay.ir.shardings import mesh_of, sharding_of
from shardonnay.ir.types import TensorType
from shardonnay.layout import local_shape
from shardonnay.mesh import Mesh
from shardonnay.ops.collectives import permute_pairs, process_groups
from shardonnay.ops.sdy_collectives import SDY_COLLECTIVES
from shardonnay.ops.traits import DEVICE_COLLECTIVE, has_trait
from shardonnay.partitioner.analysis.cost_model import (
    CollectiveCost,
    CostModel,
    CostReport,
    element_bytes,
)
from shardonnay.partitioner.reshard.layout_moves import Relayout, axis_groups, spanned_axes
from shardonnay.sharding import TensorSharding

# -- global programs: Shardy's collectives ----------------------------------------------------


def collective_costs(module: Module, model: CostModel | None = None) -> CostReport:
    """The cost of every collective of `module` (see the module docstring).

    A Shardy collective is costed on the devices of its own mesh; the
    report's per-device totals run over the program's devices (the largest
    mesh, or `mhlo.num_replicas` x `mhlo.num_partitions`).
    """
    model = model or CostModel()
    meshes = module.meshes
    replicas, partitions = _processes(module)
    num_devices = replicas * partitions
    costs = []
    # A program repeats its moves (a stack of layers, the same collective in
    # each): a Shardy collective's cost depends on what `_sdy_key` names.
    known: dict[tuple, CollectiveCost] = {}
    for where, op in _collective_ops(module):
        if op.name in SDY_COLLECTIVES or op.name == "sdy.reshard":
            key = _sdy_key(op)
            cost = known.get(key) if key is not None else None
            if cost is None:
                cost = _sdy_cost(where, op, meshes, model)
                if key is not None:
                    known[key] = cost
            else:
                cost = replace(cost, where=where, op=op)
            costs.append(cost)
        else:
            costs.append(_stablehlo_cost(where, op, meshes, (replicas, partitions), model))
    return CostReport(tuple(costs), num_devices, model)


def _sdy_key(op: Op) -> tuple | None:
    """All that `_sdy_cost` reads of a Shardy collective but its place: its
    name, attributes, operand type and the sharding of its operand (None
    where an attribute is no hashable value)."""
    operand = op.operands[0] if op.operands else None
    if operand is None:
        return None
    key = (op.name, operand.type, sharding_of(operand), tuple(op.attributes.items()))
    try:
        hash(key)
    except TypeError:
        return None
    return key


def _processes(module: Module) -> tuple[int, int]:
    """(replicas, partitions): `mhlo.num_replicas` / `mhlo.num_partitions`, else
    one replica of as many partitions as the largest mesh has devices."""
    partitions = module.attributes.get("mhlo.num_partitions")
    replicas = module.attributes.get("mhlo.num_replicas")
    r = replicas.value if isinstance(replicas, IntegerAttr) else 1
    if isinstance(partitions, IntegerAttr):
        return r, partitions.value
    return r, max((m.size for m in module.meshes.values()), default=1)


def _collective_ops(module: Module) -> Iterator[tuple[str, Op]]:
    """(where, op) of the collectives reached from `main` (every function
    when there is none), following calls."""
    funcs = {f.name: f for f in module.functions}
    costed: dict[str, bool] = {}  # by op name

    def visit(func: Func, stack: tuple[str, ...]) -> Iterator[tuple[str, Op]]:
        for i, op in enumerate(func.walk()):
            name = op.name
            is_costed = costed.get(name)
            if is_costed is None:
                is_costed = costed[name] = (
                    name in SDY_COLLECTIVES
                    or has_trait(name, DEVICE_COLLECTIVE)
                    or name == "sdy.reshard"
                )
            if is_costed:
                yield f"@{func.name} op {i}", op
            callee = op.attributes.get("callee") if name in ("func.call", "call") else None
            name = str(callee).lstrip("@") if callee is not None else None
            if name in funcs and name not in stack:
                yield from visit(funcs[name], (*stack, name))

    roots = [funcs["main"]] if "main" in funcs else [f for f in funcs.values()]
    for root in roots:
        yield from visit(root, (root.name,))


def _mesh_of(sharding: TensorSharding, meshes: Mapping[str, Mesh], op: Op) -> Mesh:
    return mesh_of(sharding, meshes, lambda why: IRError(f"{op.name}: {why}{_at(op)}"))


def _at(op: Op) -> str:
    return f" at {op.location}" if op.location else ""


def _device_span(*meshes: Mesh) -> int:
    """How many device ids the per-device lists of a collective on `meshes`
    need: one past the largest id (a maximal mesh `<[], device_ids=[3]>` has 4)."""
    return 1 + max((d for m in meshes for d in m.device_list), default=0)


def _padded(values: Sequence[int], length: int) -> list[int]:
    return [*values, *[0] * (length - len(values))]


def _sdy_cost(where: str, op: Op, meshes: Mapping[str, Mesh], model: CostModel) -> CollectiveCost:
    t = op.operands[0].type
    if not isinstance(t, TensorType):
        raise IRError(f"{op.name}: expects a tensor operand, got {t}{_at(op)}")
    target = op.attributes.get("out_sharding" if op.name != "sdy.reshard" else "sharding")
    if not isinstance(target, TensorSharding):
        raise IRError(f"{op.name}: has no result sharding{_at(op)}")
    mesh = _mesh_of(target, meshes, op)
    source = sharding_of(op.operands[0])
    if source is None:
        source = TensorSharding.replicated_on(target.mesh, t.rank)
    source_mesh = _mesh_of(source, meshes, op)
    eb = element_bytes(t.element_type)
    shape_in = local_shape(t.shape, source, source_mesh)
    shape_out = local_shape(t.shape, target, mesh)
    size_in, size_out = math.prod(shape_in) * eb, math.prod(shape_out) * eb
    kind = op.name.removeprefix("sdy.")
    axes = _sdy_axes(op)
    groups = axis_groups(mesh, axes)
    n = math.prod(a.size(mesh) for a in axes)
    move = Relayout(t.shape, source, target, eb, source_mesh, mesh)
    num_devices = _device_span(mesh, source_mesh)
    algorithm = ALGORITHMS[kind]
    needed = None
    if kind in ("all_gather", "all_slice", "all_to_all", "collective_permute", "reshard"):
        needed = move.needed()
    if kind in ("collective_permute", "reshard"):
        if kind == "collective_permute" and move.is_permutation():
            pairs = move.permute_pairs()
            sent, received, steps = pair_traffic(pairs, num_devices, size_out)
        else:
            sent, received, pairs = move.direct_moves()
            steps = 1 if pairs else 0
        moved = [(s, d) for s, d in pairs if s != d]
        axes = tuple(AxisRef(a) for a in spanned_axes(mesh, moved))
        n = len({d for p in moved for d in p}) or 1
    else:  # a ring (all_gather, reduce_scatter, all_reduce, all_to_all) or local
        collective = collective_of(op.name)
        sent, received, steps = collective.traffic(groups, num_devices, (shape_in, shape_out), eb)
    sent, received = _padded(sent, num_devices), _padded(received, num_devices)
    if needed is not None:
        needed = _padded(needed, num_devices)
    if needed is not None and any(x > r for x, r in zip(needed, received, strict=True)):
        # Uneven dims whose padded shards do not line up with the target layout:
        # a collective on padded buffers would not produce it.
        sent, received, _ = move.direct_moves()
        sent, received = _padded(sent, num_devices), _padded(received, num_devices)
        steps = max(steps, 1)
        algorithm = "direct: each device fetches what it lacks (uneven dims)"
    axis_text = tuple(str(a).replace('"', "") if a.is_sub_axis else a.name for a in axes)
    return CollectiveCost(
        where=where,
        op_name=op.name,
        kind=kind,
        axes=axis_text,
        group_size=n,
        shape=str(t),
        buffer_bytes=size_in,
        sent=tuple(sent),
        received=tuple(received),
        steps=steps,
        time_s=model.collective_time(
            tuple(dict.fromkeys(a.name for a in axes)), steps, sent, received
        ),
        algorithm=algorithm,
        needed=None if needed is None else tuple(needed),
        op=op,
    )


def _sdy_axes(op: Op) -> tuple[AxisRef, ...]:
    """The axes a Shardy collective works over, in its own order."""
    for key in ("gathering_axes", "slicing_axes", "reduce_scatter_axes", "axes"):
        value = op.attributes.get(key)
        if value is not None and hasattr(value, "lists"):
            return tuple(a for axes in value.lists for a in axes)
        if value is not None and hasattr(value, "axes"):
            return tuple(value.axes)
    reduction = op.attributes.get("reduction_axes")
    if reduction is not None:
        return tuple(reduction.axes)
    params = op.attributes.get("params")
    if params is not None:
        return tuple(a for p in params.params for a in p.axes)
    return ()


# -- local programs: StableHLO's collectives -------------------------------------------------


def _stablehlo_cost(
    where: str,
    op: Op,
    meshes: Mapping[str, Mesh],
    processes: tuple[int, int],
    model: CostModel,
) -> CollectiveCost:
    replicas, partitions = processes
    num_devices = replicas * partitions
    mesh = next((m for m in meshes.values() if m.size == num_devices), None)
    kind = op.name.removeprefix("stablehlo.")
    in_manual = _inside(op, "sdy.manual_computation")
    buffers = [_buffer(v, in_manual, meshes, op) for v in op.operands]
    size_in = sum(b for b, _, _ in buffers)
    if kind == "collective_permute":
        pairs = permute_pairs(op, replicas, partitions)
        sent, received, steps = pair_traffic(pairs, num_devices, size_in)
        moved = [p for p in pairs if p[0] != p[1]]
        axes = spanned_axes(mesh, moved)
        n = len({d for p in moved for d in p}) or 1
    else:
        groups = process_groups(op, replicas, partitions)
        axes = spanned_axes(mesh, groups)
        n = max((len(g) for g in groups), default=1)
        if kind == "collective_broadcast":
            sent, received, steps = broadcast_traffic(groups, num_devices, size_in)
        else:
            chunk = buffer_chunk(kind, [(elements, eb) for _, elements, eb in buffers], n)
            sent, received, steps = ring_traffic(kind, groups, num_devices, chunk)
    return CollectiveCost(
        where=where,
        op_name=op.name,
        kind=kind,
        axes=axes,
        group_size=n,
        shape=", ".join(str(v.type) for v in op.operands),
        buffer_bytes=size_in,
        sent=tuple(sent),
        received=tuple(received),
        steps=steps,
        time_s=model.collective_time(axes, steps, sent, received),
        algorithm=ALGORITHMS[kind],
        op=op,
    )


def _inside(op: Op, name: str) -> bool:
    parent = op.parent_op
    while parent is not None:
        if parent.name == name:
            return True
        parent = parent.parent_op
    return False


def _buffer(
    value: Value, in_manual: bool, meshes: Mapping[str, Mesh], op: Op
) -> tuple[int, int, int]:
    """(bytes, elements, element bytes) of one device's buffer of `value`."""
    t = value.type
    if not isinstance(t, TensorType):
        return 0, 0, 0
    shape = t.shape
    sharding = sharding_of(value) if in_manual else None
    if sharding is not None and sharding.rank == t.rank:
        shape = local_shape(shape, sharding, _mesh_of(sharding, meshes, op))
    eb = element_bytes(t.element_type)
    return math.prod(shape) * eb, math.prod(shape), eb
