"""Shardy's `sdy-per-instruction-partitioning`: every op that touches a
sharded value becomes an `sdy.manual_computation` holding its per-device
program.

Shardy partitions a program one op at a time here, to compare partitioners
op by op. For each candidate op of a function's body (see `_is_candidate`),
in order:

1. its shardings: those of its operands and results on their common mesh
   (a value without one is replicated, closed), and the manual axes: every
   axis of that mesh;
2. the op moves into a temporary module (the meshes, and one function
   `@main` whose arguments and results carry those shardings and whose body
   is the op), which is partitioned there: `sdy-resolve-permutation-factors`,
   `sdy-reshard-to-collectives`, `sdy-convert-global-to-local` and
   `sdy-drop-sharding-and-mesh`;
3. the function's local body is inlined back in place of the op as the body
   of an `sdy.manual_computation` manual on every axis, its `in_shardings`
   and `out_shardings` the op's shardings.

A manual computation's global types must divide by their shards. An operand
whose sharded dim does not divide is padded at its high end
(`stablehlo.pad` with zeros) to the next multiple, and a result that does
not is sliced back to its type (`stablehlo.slice`), as Shardy does (each by
its own sharding: Shardy pads the operand and result of a reshard to one
type, each dim a multiple of both shard counts, since its padded reshard
inside must keep one type; and where an operand is a slice of a value of
the padded type, Shardy passes that value instead). Inside,
Shardy pads the op too (`sdy-pad-for-divisibility`); shardonnay's
convert-global-to-local lays out uneven shards itself (`ceil(d/n)` slots per
device, the last ones padding, masked where the op reduces over them), and
that layout is the padded global value cut into equal shards: the temporary
function keeps the op's own types, and each device computes exactly what
the op computes on its part.

The pass option `filter` is Shardy's: empty for every candidate, otherwise a
comma-separated list of `selectLow=N`, `selectHigh=N` (the candidates
numbered from 0 in program order, bounds included) and substrings of the op
names to partition (`dot`, `add`).

>>> from shardonnay.syntax.mlir_reader import parse_module
>>> module = parse_module('''
... sdy.mesh @mesh = <["x"=2]>
... func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>})
...     -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) {
...   %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>}
...       : tensor<8xf32>
...   return %0 : tensor<8xf32>
... }''')
>>> out = per_instruction_partitioning(module)
>>> [op.name for op in out.functions[0].body.ops]
['sdy.manual_computation', 'func.return']
>>> computation = out.functions[0].body.ops[0]
>>> [op.name for op in computation.regions[0].entry.ops]
['stablehlo.negate', 'sdy.return']
>>> str(computation.regions[0].entry.arguments[0].type)
'tensor<4xf32>'
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from shardonnay.axes import AxisRef
from shardonnay.errors import ShardingError
from shardonnay.export.permutation_factors import resolve_permutation_factors
from shardonnay.export.reshard_to_collectives import reshard_to_collectives
from shardonnay.ir.attributes import DenseArrayAttr
from shardonnay.ir.builder import Builder
from shardonnay.ir.core import Block, Func, Module, Op, Region, Value
from shardonnay.ir.shardings import SHARDING, set_func_result_sharding, set_sharding, sharding_of
from shardonnay.ir.types import TensorType
from shardonnay.mesh import Mesh
from shardonnay.ops.traits import TERMINATOR, has_trait
from shardonnay.partitioner.local.convert import convert_global_to_local
from shardonnay.propagation.importing.mesh_passes import drop_sharding_and_mesh
from shardonnay.sharding import ManualAxes, TensorSharding, TensorShardingPerValue

__all__ = ["OpFilter", "per_instruction_partitioning", "sdy_per_instruction_partitioning"]


@dataclass(frozen=True)
class OpFilter:
    """Which candidates to partition (Shardy's `filter` option): those
    numbered `low..high` (-1: no bound) whose name contains one of `names`
    (any name when empty); everything when `select_all`."""

    low: int = -1
    high: int = -1
    names: tuple[str, ...] = ()
    select_all: bool = False

    @classmethod
    def parse(cls, text: str) -> OpFilter:
        """Reads the option as Shardy does (quotes around it dropped; a bound
        that is not a number ignored).

        >>> OpFilter.parse("'selectLow=2, dot,add'")
        OpFilter(low=2, high=-1, names=('dot', 'add'), select_all=False)
        """
        text = text.strip()
        if not text:
            return cls(select_all=True)
        if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
            text = text[1:-1].strip()
        low, high, names = -1, -1, []
        for raw in text.split(","):
            token = raw.strip()
            if not token:
                continue
            for key in ("selectLow=", "selectHigh="):
                if token.startswith(key):
                    bound = token[len(key) :].strip()
                    if re.fullmatch(r"[+-]?\d+", bound):
                        if key == "selectLow=":
                            low = int(bound)
                        else:
                            high = int(bound)
                    break
            else:
                names.append(token)
        return cls(low, high, tuple(names))

    def matches(self, op: Op, number: int) -> bool:
        if self.select_all:
            return True
        if (self.low >= 0 and number < self.low) or (self.high >= 0 and number > self.high):
            return False
        return not self.names or any(name in op.name for name in self.names)


def per_instruction_partitioning(
    module: Module, *, halo_exchange: bool = True, op_filter: OpFilter | None = None
) -> Module:
    """Partitions every candidate op of `module` on its own, in place (see
    the module docstring; `halo_exchange` is Shardy's `enable-halo-exchange`
    of `sdy-resolve-permutation-factors`); returns `module`."""
    chosen = op_filter or OpFilter(select_all=True)
    candidates: list[Op] = []
    number = 0
    for func in module.functions:
        if func.is_declaration:
            continue
        for block in func.op.regions[0].blocks:
            for op in block.ops:
                if not _is_candidate(op):
                    continue
                if chosen.matches(op, number):
                    candidates.append(op)
                number += 1
    for op in candidates:
        _partition(module, op, halo_exchange)
    return module


def _is_candidate(op: Op) -> bool:
    """Whether Shardy partitions `op`: not a terminator, nor an op that only
    guides propagation or partitioning (data-flow edges, barriers, sharding
    constraints and groups, manual computations), nor a move to unreduced
    axes (export lowers those later), nor a copy or a sharding custom call;
    and some operand or result is sharded."""
    if has_trait(op, TERMINATOR) or op.name in (
        "sdy.data_flow_edge",
        "sdy.manual_computation",
        "sdy.propagation_barrier",
        "sdy.replicated_to_unreduced",
        "sdy.sharded_to_unreduced",
        "sdy.sharding_constraint",
        "sdy.sharding_group",
        "mhlo.copy",
    ):
        return False
    if op.name == "stablehlo.custom_call" and op.attributes.get("call_target_name") in (
        "Sharding",
        "mhlo.sharding",
    ):
        return False
    return any(
        s is not None and not s.is_fully_replicated()
        for s in map(sharding_of, (*op.operands, *op.results))
    )


@dataclass(frozen=True)
class _Shardings:
    """The shardings of an op's operands and results on their common mesh,
    and the mesh's axes, every one manual."""

    mesh_name: str
    mesh: Mesh
    operands: tuple[TensorSharding, ...]
    results: tuple[TensorSharding, ...]

    @property
    def manual_axes(self) -> tuple[str, ...]:
        return self.mesh.axis_names


def _shardings(module: Module, op: Op, operands: Sequence[Value]) -> _Shardings:
    """The shardings of `operands` and of `op`'s results on their common mesh:
    the one mesh with axes they name (meshes without axes aside); an error
    when they name two, as in Shardy."""
    values = (*operands, *op.results)
    names = {
        s.mesh
        for s in map(sharding_of, values)
        if s is not None and not (isinstance(s.mesh, str) and not module.meshes[s.mesh].axes)
    }
    if len(names) != 1 or not all(isinstance(n, str) for n in names):
        raise ShardingError(
            f"sdy-per-instruction-partitioning: the values of {op.name} are not on one "
            "mesh named by a symbol"
        )
    (name,) = names
    assert isinstance(name, str)
    mesh = module.meshes[name]

    def of(values: Sequence[Value]) -> tuple[TensorSharding, ...]:
        out = []
        for value in values:
            sharding = sharding_of(value)
            if sharding is None:
                sharding = TensorSharding.replicated_on(name, len(_tensor(value).shape))
            out.append(sharding)
        return tuple(out)

    return _Shardings(name, mesh, of(operands), of(op.results))


def _axes(sharding: TensorSharding) -> list[AxisRef]:
    return [
        *(a for d in sharding.dims for a in d.axes),
        *sharding.replicated,
        *sharding.unreduced,
    ]


def _captured(op: Op) -> list[Value]:
    """The values defined outside `op` that ops in its regions use, in order
    of first use (the temporary function and the manual computation take them
    as arguments besides the op's operands)."""
    nested = [inner for inner in op.walk() if inner is not op]
    inside: set[Value] = set()
    for holder in (op, *nested):
        for region in holder.regions:
            for block in region.blocks:
                inside.update(block.arguments)
    for inner in nested:
        inside.update(inner.results)
    captured = [v for inner in nested for v in inner.operands if v not in inside]
    return list(dict.fromkeys(captured))


def _tensor(value: Value) -> TensorType:
    if not isinstance(value.type, TensorType):
        raise ShardingError(
            f"sdy-per-instruction-partitioning: a value of type {value.type} is not a tensor"
        )
    return value.type


def _padded(t: TensorType, sharding: TensorSharding, mesh: Mesh) -> TensorType:
    """`t` with each sharded dim rounded up to a multiple of its shards."""
    shape = tuple(
        -(-n // d.sharded_size(mesh)) * d.sharded_size(mesh)
        for n, d in zip(t.shape, sharding.dims, strict=True)
    )
    return t if shape == t.shape else TensorType(shape, t.element_type)


def _i64s(values: Sequence[int]) -> DenseArrayAttr:
    return DenseArrayAttr("i64", tuple(values))


def _pad_high(b: Builder, value: Value, t: TensorType, sharding: TensorSharding) -> Value:
    """`value` padded with zeros at the high end of its dims to type `t`."""
    rank = len(t.shape)
    zero = b.constant(0, TensorType((), t.element_type))
    high = [n - m for n, m in zip(t.shape, _tensor(value).shape, strict=True)]
    padded = b.op(
        "stablehlo.pad",
        [value, zero],
        attributes={
            "edge_padding_low": _i64s([0] * rank),
            "edge_padding_high": _i64s(high),
            "interior_padding": _i64s([0] * rank),
        },
        result_types=[t],
    )
    set_sharding(padded, sharding)
    return padded


def _slice_high(b: Builder, value: Value, t: TensorType, sharding: TensorSharding) -> Value:
    """The first `t.shape` elements of `value`."""
    rank = len(t.shape)
    sliced = b.op(
        "stablehlo.slice",
        [value],
        attributes={
            "start_indices": _i64s([0] * rank),
            "limit_indices": _i64s(t.shape),
            "strides": _i64s([1] * rank),
        },
        result_types=[t],
    )
    set_sharding(sliced, sharding)
    return sliced


def _local_function(
    module: Module, op: Op, operands: Sequence[Value], shardings: _Shardings, halo_exchange: bool
) -> Func:
    """The per-device function of `op` alone (its arguments `operands`: the
    op's and those its regions capture), partitioned in a module of its own."""
    temp = Module([m.clone() for m in module.ops if m.name == "sdy.mesh"])
    func = Func.create("main", [_tensor(v) for v in operands], [_tensor(v) for v in op.results])
    temp.append(func)
    if shardings.operands:
        func.op.attributes["arg_attrs"] = tuple({SHARDING: s} for s in shardings.operands)
    for i, sharding in enumerate(shardings.results):
        set_func_result_sharding(func, i, sharding)
    clone = op.clone(dict(zip(operands, func.arguments, strict=True)))
    func.body.append(clone)
    for result, sharding in zip(clone.results, shardings.results, strict=True):
        set_sharding(result, sharding)
    func.body.append(Op("func.return", list(clone.results)))
    resolve_permutation_factors(temp, halo_exchange=halo_exchange)
    reshard_to_collectives(temp)
    local = convert_global_to_local(temp)
    drop_sharding_and_mesh(local)
    return local.function("main")


def _partition(module: Module, op: Op, halo_exchange: bool) -> None:
    arguments = list(dict.fromkeys([*op.operands, *_captured(op)]))
    shardings = _shardings(module, op, arguments)
    mesh = shardings.mesh
    local = _local_function(module, op, arguments, shardings, halo_exchange)
    b = Builder(module)
    b.set_insertion_point_before(op)
    operands = []
    for value, sharding in zip(arguments, shardings.operands, strict=True):
        padded = _padded(_tensor(value), sharding, mesh)
        operands.append(value if padded == value.type else _pad_high(b, value, padded, sharding))
    result_types = [
        _padded(_tensor(v), s, mesh) for v, s in zip(op.results, shardings.results, strict=True)
    ]
    body: Block = local.body
    local.op.regions[0].blocks.remove(body)
    body.parent = None
    returned = body.terminator
    assert returned is not None
    body.append(Op("sdy.return", list(returned.operands)))
    returned.erase()
    computation = b.create(
        "sdy.manual_computation",
        operands,
        attributes={
            "in_shardings": TensorShardingPerValue(shardings.operands),
            "out_shardings": TensorShardingPerValue(shardings.results),
            "manual_axes": ManualAxes(shardings.manual_axes),
        },
        result_types=result_types,
        regions=[Region([body])],
    )
    for result, value, sharding in zip(
        op.results, computation.results, shardings.results, strict=True
    ):
        if value.type != result.type:
            value = _slice_high(b, value, _tensor(result), sharding)
        result.replace_all_uses_with(value)
    op.erase()


def sdy_per_instruction_partitioning(module: Module, options: dict[str, str]) -> Module:
    """`sdy-per-instruction-partitioning{filter enable-halo-exchange}`, the row
    of `shardonnay.passes.PASSES` (in place; returns `module`)."""
    return per_instruction_partitioning(
        module,
        halo_exchange=options.get("enable-halo-exchange", "true") == "true",
        op_filter=OpFilter.parse(options.get("filter", "")),
    )
