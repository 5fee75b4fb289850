"""Shardy's collectives on global-view tensors, and the axis lists they carry.

Each collective takes a tensor whose sharding is known (from its defining op
or function argument) and states the sharding of its result; the tensor's
type, hence its global value, does not change:

    %0 = sdy.all_gather [{"x"}, {}] %arg0 out_sharding=<@mesh, [{}, {"y"}]> : tensor<8x8xf32>
    %1 = sdy.all_slice [{}, {"x"}] %0 out_sharding=<@mesh, [{}, {"y", "x"}]> : tensor<8x8xf32>
    %2 = sdy.all_to_all [{"x"}: 1->0] %1 out_sharding=<@mesh, [{"x"}, {"y"}]> : tensor<8x8xf32>
    %3 = sdy.collective_permute %2 out_sharding=<@mesh, [{"y"}, {"x"}]> : tensor<8x8xf32>
    %4 = sdy.all_reduce {"z"} %3 out_sharding=<@mesh, [{"y"}, {"x"}]> : tensor<8x8xf32>
    %5 = sdy.reduce_scatter [{"z"}, {}] %4
           out_sharding=<@mesh, [{"y", "z"}, {"x"}]> : tensor<8x8xf32>
    %6 = sdy.replicated_to_unreduced {"z"} %3
           out_sharding=<@mesh, [{"y"}, {"x"}], unreduced={"z"}> : tensor<8x8xf32>
    %7 = sdy.sharded_to_unreduced [{"y"}, {}] %3
           out_sharding=<@mesh, [{}, {"x"}], unreduced={"y"}> : tensor<8x8xf32>

In the generic form the axis lists are attributes of their own:
`#sdy<list_of_axis_ref_lists[{"x"}, {}]>`, `#sdy<axis_ref_list{"z"}>` and
`#sdy<all_to_all_param_list[{"x"}: 1->0]>` (`shardonnay.collectives.attributes`).

Each op is defined by its collective (`shardonnay.collectives`): the op reads
and prints its syntax here, and its verifier is the collective's `check`,
Shardy's verifier, on the sharding of its operand and its `out_sharding`. So
the IR verifier rejects an `sdy.all_gather [{}, {"y"}]` of an operand sharded
`[{"x"}, {"y"}]` whose `out_sharding` is `[{"y"}, {"x"}]` (the gathered
sharding is `[{"x"}, {}]`), as Shardy does.

On the global program every collective is the identity: it changes how the
value is laid out on devices, never the value.
"""

from __future__ import annotations

from typing import Any

from shardonnay.collectives import SHARDY_COLLECTIVES, Collective
from shardonnay.errors import IRError, PartitionError, ShardingError
from shardonnay.ir.core import Op
from shardonnay.ir.shardings import module_meshes, sharding_of
from shardonnay.ir.types import TensorType, Type
from shardonnay.mesh import Mesh
from shardonnay.ops.registry import OpDef, mark_inherent, register
from shardonnay.ops.traits import SHARDING_COLLECTIVE
from shardonnay.sharding import TensorSharding, read_tensor_sharding

# -- ops ------------------------------------------------------------------------------------


class CollectiveOp(OpDef):
    """`sdy.<name> AXES %x out_sharding=<...> {attrs} : type`, where AXES is
    the body of the collective's axes attribute (absent for
    `sdy.collective_permute`). The collective (`shardonnay.collectives`)
    is the op's definition: its verifier is the collective's `check`."""

    traits = frozenset({SHARDING_COLLECTIVE})
    pure = False

    def __init__(self, collective: type[Collective]):
        self.collective = collective
        self.axes_attr = collective.axes_attr
        self.axes_kind = collective.axes_kind

    def parse(self, p, name: str) -> Op:
        attrs: dict[str, Any] = {}
        if self.axes_attr is not None:
            p.skip_space()
            start = p.pos
            if p.peek("#"):
                axes = p.attribute()
                if not isinstance(axes, self.axes_kind):
                    raise p.error(f"{name} expects a {self.axes_kind.__name__} here", start)
            else:
                axes = self.axes_kind.read_body(p)
            attrs[self.axes_attr] = axes
        operand = p.operand()
        p.expect("out_sharding", "'out_sharding'")
        p.expect("=", "'=' after 'out_sharding'")
        out_sharding = read_tensor_sharding(p)
        attrs.update(p.optional_attr_dict())
        attrs["out_sharding"] = out_sharding
        p.expect(":", "':' and the result type")
        p.skip_space()
        pos = p.pos
        result_type = p.type()
        p._check_type(operand, result_type, pos)
        op = p.make_op(name, [operand], [result_type], attrs)
        return mark_inherent(op, ("out_sharding", self.axes_attr))

    def print(self, op: Op, w) -> None:
        w.write(" ")
        if self.axes_attr is not None:
            axes = op.attributes[self.axes_attr]
            w.write(f"{axes.body()} ")
        w.operand(op.operands[0])
        w.write(f" out_sharding={op.attributes['out_sharding'].body()}")
        w.attr_dict(op, ("out_sharding", self.axes_attr))
        w.write(f" : {op.result_types[0]}")

    def infer_types(self, op: Op) -> list[Type] | None:
        return [op.operands[0].type] if op.operands else None

    def verify(self, op: Op) -> None:
        """The op's form, then Shardy's verifier (`Collective.check`) on the
        sharding of its operand and its `out_sharding`. A sharding on a mesh
        the module lacks, or one invalid on its mesh, is left to the module
        verifier's sharding checks."""
        verify_same_type(op)
        out_sharding = op.attributes.get("out_sharding")
        if not isinstance(out_sharding, TensorSharding):
            raise IRError(f"{op.name}: needs an out_sharding attribute (#sdy.sharding<...>)")
        verify_sharding_rank(op, out_sharding, op.result_types[0])
        if self.axes_attr is not None and not isinstance(
            op.attributes.get(self.axes_attr), self.axes_kind
        ):
            raise IRError(
                f"{op.name}: needs a {self.axes_attr} attribute ({self.axes_kind.__name__})"
            )
        meshes = module_meshes(op) or {}
        operand = sharding_of(op.operands[0])
        result_mesh = _mesh(out_sharding, meshes)
        operand_mesh = _mesh(operand, meshes) if operand is not None else None
        if result_mesh is None or (operand is not None and operand_mesh is None):
            return
        try:
            out_sharding.validate(result_mesh)
        except ShardingError:
            return
        collective = self.collective.from_attributes(op.attributes)
        try:
            collective.check(operand, out_sharding, operand_mesh, result_mesh)
        except PartitionError as e:
            raise IRError(str(e)) from None

    def evaluate(self, op: Op, args: list, interp) -> list:
        return [args[0]]


def _mesh(sharding: TensorSharding, meshes: dict[str, Mesh]) -> Mesh | None:
    mesh = sharding.mesh if isinstance(sharding.mesh, Mesh) else meshes.get(sharding.mesh)
    return mesh if isinstance(mesh, Mesh) else None


def verify_same_type(op: Op) -> None:
    """Shardy's `SameOperandsAndResultType`: one operand, one result, one type."""
    types = [v.type for v in op.operands] + list(op.result_types)
    if len(op.operands) != 1 or len(op.results) != 1:
        raise IRError(f"{op.name}: takes one operand and has one result")
    if any(t != types[0] for t in types):
        raise IRError(f"{op.name}: requires the same type for all operands and results")


def verify_sharding_rank(op: Op, sharding: TensorSharding, t: Type, what: str = "") -> None:
    """Shardy's rank check of a sharding against the tensor it annotates. A
    sharding of rank 0 may name a maximal mesh (one device holds the whole
    tensor): the module's verifier, which knows the meshes, checks it."""
    if isinstance(t, TensorType) and sharding.rank not in (0, len(t.shape)):
        prefix = f"{what} - " if what else ""
        raise IRError(
            f"{op.name}: {prefix}sharding doesn't match tensor rank: "
            f"{sharding.rank} != {len(t.shape)}"
        )


for _collective in SHARDY_COLLECTIVES:
    register(_collective.op_name, CollectiveOp(_collective))

#: The names of Shardy's collectives, as registered above.
SDY_COLLECTIVES = tuple(c.op_name for c in SHARDY_COLLECTIVES)

__all__ = ["SDY_COLLECTIVES", "CollectiveOp", "verify_same_type", "verify_sharding_rank"]
