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
`#sdy<list_of_axis_ref_lists[{"x"}, {}]>` (`ListOfAxisRefLists`),
`#sdy<axis_ref_list{"z"}>` (`AxisRefList`) and
`#sdy<all_to_all_param_list[{"x"}: 1->0]>` (`AllToAllParamList`).

On the global program every collective is the identity: it changes how the
value is laid out on devices, never the value.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from shardonnay.axes import AxisRef, axes_str, read_axis_ref
from shardonnay.errors import IRError
from shardonnay.ir.core import Op
from shardonnay.ir.types import TensorType, Type
from shardonnay.ops.registry import OpDef, mark_inherent, register
from shardonnay.sharding import TensorSharding, read_tensor_sharding
from shardonnay.syntax.cursor import Cursor

# -- attributes --------------------------------------------------------------------------


def _read_axis_list(cursor: Cursor) -> tuple[AxisRef, ...]:
    """`{"x", "y":(1)2}`, possibly empty."""
    cursor.expect("{", "'{' starting an axis list")
    return tuple(cursor.comma_separated("}", lambda: read_axis_ref(cursor), "an axis"))


def _axis_list_str(axes: tuple[AxisRef, ...]) -> str:
    return "{" + axes_str(axes) + "}"


@dataclass(frozen=True, slots=True)
class AxisRefList:
    """`#sdy<axis_ref_list{"z", "w"}>`: one list of axes (`{"z", "w"}` inside an op).

    >>> str(AxisRefList.parse('{"z", "w":(1)2}'))
    '#sdy<axis_ref_list{"z", "w":(1)2}>'
    """

    axes: tuple[AxisRef, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "axes", tuple(_axis(a) for a in self.axes))

    @classmethod
    def parse(cls, text: str) -> AxisRefList:
        return _parse_whole(text, cls)

    @classmethod
    def read_body(cls, cursor: Cursor) -> AxisRefList:
        return cls(_read_axis_list(cursor))

    def body(self) -> str:
        return _axis_list_str(self.axes)

    def __str__(self) -> str:
        return f"#sdy<axis_ref_list{self.body()}>"


@dataclass(frozen=True, slots=True)
class ListOfAxisRefLists:
    """`#sdy<list_of_axis_ref_lists[{"x"}, {}]>`: one axis list per tensor dimension.

    >>> lists = ListOfAxisRefLists.parse('[{"x"}, {}]')
    >>> str(lists), len(lists)
    ('#sdy<list_of_axis_ref_lists[{"x"}, {}]>', 2)
    """

    lists: tuple[tuple[AxisRef, ...], ...]

    def __post_init__(self) -> None:
        object.__setattr__(
            self, "lists", tuple(tuple(_axis(a) for a in axes) for axes in self.lists)
        )

    @classmethod
    def parse(cls, text: str) -> ListOfAxisRefLists:
        return _parse_whole(text, cls)

    @classmethod
    def read_body(cls, cursor: Cursor) -> ListOfAxisRefLists:
        cursor.expect("[", "'[' starting the axis lists")
        lists = cursor.comma_separated("]", lambda: _read_axis_list(cursor), "an axis list")
        return cls(tuple(lists))

    def body(self) -> str:
        return "[" + ", ".join(_axis_list_str(axes) for axes in self.lists) + "]"

    def __str__(self) -> str:
        return f"#sdy<list_of_axis_ref_lists{self.body()}>"

    def __len__(self) -> int:
        return len(self.lists)

    def __getitem__(self, dim: int) -> tuple[AxisRef, ...]:
        return self.lists[dim]


@dataclass(frozen=True, slots=True)
class AllToAllParam:
    """`{"x", "y"}: 0->2`: move the axes sharding dim 0 onto dim 2."""

    axes: tuple[AxisRef, ...]
    src_dim: int
    tgt_dim: int

    def __post_init__(self) -> None:
        object.__setattr__(self, "axes", tuple(_axis(a) for a in self.axes))

    @classmethod
    def read(cls, cursor: Cursor) -> AllToAllParam:
        axes = _read_axis_list(cursor)
        cursor.expect(":", "':' and the source dimension")
        src = cursor.integer("a source dimension")
        cursor.expect("->", "'->' and the target dimension")
        tgt = cursor.integer("a target dimension")
        return cls(axes, src, tgt)

    def __str__(self) -> str:
        return f"{_axis_list_str(self.axes)}: {self.src_dim}->{self.tgt_dim}"


@dataclass(frozen=True, slots=True)
class AllToAllParamList:
    """`#sdy<all_to_all_param_list[{"x"}: 0->2, {"y"}: 1->3]>`.

    >>> params = AllToAllParamList.parse('[{"x"}: 0->2, {"y"}: 1->3]')
    >>> [(p.src_dim, p.tgt_dim) for p in params.params]
    [(0, 2), (1, 3)]
    """

    params: tuple[AllToAllParam, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "params", tuple(self.params))

    @classmethod
    def parse(cls, text: str) -> AllToAllParamList:
        return _parse_whole(text, cls)

    @classmethod
    def read_body(cls, cursor: Cursor) -> AllToAllParamList:
        cursor.expect("[", "'[' starting the all-to-all parameters")
        params = cursor.comma_separated(
            "]", lambda: AllToAllParam.read(cursor), "an all-to-all parameter"
        )
        return cls(tuple(params))

    def body(self) -> str:
        return "[" + ", ".join(str(p) for p in self.params) + "]"

    def __str__(self) -> str:
        return f"#sdy<all_to_all_param_list{self.body()}>"


_KINDS: dict[str, Any] = {
    "axis_ref_list": AxisRefList,
    "list_of_axis_ref_lists": ListOfAxisRefLists,
    "all_to_all_param_list": AllToAllParamList,
}
AXIS_LIST_KEYWORDS = tuple(f"#sdy<{k}" for k in _KINDS)


def read_axis_list_attr(cursor: Cursor) -> AxisRefList | ListOfAxisRefLists | AllToAllParamList:
    """`#sdy<axis_ref_list{...}>`, `#sdy<list_of_axis_ref_lists[...]>` or
    `#sdy<all_to_all_param_list[...]>` (the module reader's hook)."""
    cursor.skip_space()
    start = cursor.pos
    cursor.expect("#sdy<", "'#sdy<'")
    keyword = cursor.identifier("an sdy attribute keyword")
    kind = _KINDS.get(keyword)
    if kind is None:
        raise cursor.error(f"unknown sdy attribute '{keyword}'", start)
    value = kind.read_body(cursor)
    cursor.expect(">", f"'>' closing the {keyword}")
    return value


def _parse_whole(text: str, kind):
    """`text` as the full `#sdy<...>` attribute or only the body the ops print."""
    cursor = Cursor(text)
    value = read_axis_list_attr(cursor) if cursor.peek("#") else kind.read_body(cursor)
    if not isinstance(value, kind):
        raise cursor.error(f"expected a {kind.__name__}", 0)
    cursor.expect_end()
    return value


def _axis(a: str | AxisRef) -> AxisRef:
    return a if isinstance(a, AxisRef) else AxisRef(a)


# -- ops ------------------------------------------------------------------------------------


class CollectiveOp(OpDef):
    """`sdy.<name> AXES %x out_sharding=<...> {attrs} : type`, where AXES is
    the body of the attribute `axes_attr` of kind `axes_kind` (absent for
    `sdy.collective_permute`)."""

    pure = False

    def __init__(self, axes_attr: str | None = None, axes_kind: Any = None):
        self.axes_attr = axes_attr
        self.axes_kind = axes_kind

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
        verify_same_type(op)
        out_sharding = op.attributes.get("out_sharding")
        if not isinstance(out_sharding, TensorSharding):
            raise IRError(f"{op.name}: needs an out_sharding attribute (#sdy.sharding<...>)")
        verify_sharding_rank(op, out_sharding, op.result_types[0])
        if self.axes_attr is None:
            return
        axes = op.attributes.get(self.axes_attr)
        if not isinstance(axes, self.axes_kind):
            raise IRError(
                f"{op.name}: needs a {self.axes_attr} attribute ({self.axes_kind.__name__})"
            )
        if isinstance(axes, ListOfAxisRefLists) and len(axes) != out_sharding.rank:
            raise IRError(
                f"{op.name}: result sharding has rank {out_sharding.rank} but collective "
                f"axes has rank {len(axes)}"
            )
        if isinstance(axes, AllToAllParamList):
            _verify_all_to_all(op, axes, out_sharding.rank)

    def evaluate(self, op: Op, args: list, interp) -> list:
        return [args[0]]


def _verify_all_to_all(op: Op, params: AllToAllParamList, rank: int) -> None:
    if not params.params:
        raise IRError(f"{op.name}: parameter list is empty")
    seen: set[int] = set()
    for param in params.params:
        for kind, dim in (("source", param.src_dim), ("target", param.tgt_dim)):
            if not 0 <= dim < rank:
                raise IRError(f"{op.name}: {kind} dimension {dim} is out of range [0, {rank})")
        for dim in (param.src_dim, param.tgt_dim):
            if dim in seen:
                raise IRError(
                    f"{op.name}: overlapping source/target dimensions in all-to-all params: {dim}"
                )
            seen.add(dim)


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


register("sdy.all_gather", CollectiveOp("gathering_axes", ListOfAxisRefLists))
register("sdy.all_slice", CollectiveOp("slicing_axes", ListOfAxisRefLists))
register("sdy.reduce_scatter", CollectiveOp("reduce_scatter_axes", ListOfAxisRefLists))
register("sdy.sharded_to_unreduced", CollectiveOp("axes", ListOfAxisRefLists))
register("sdy.all_reduce", CollectiveOp("reduction_axes", AxisRefList))
register("sdy.replicated_to_unreduced", CollectiveOp("axes", AxisRefList))
register("sdy.all_to_all", CollectiveOp("params", AllToAllParamList))
register("sdy.collective_permute", CollectiveOp())

#: The names of Shardy's collectives, as registered above.
SDY_COLLECTIVES = (
    "sdy.all_gather",
    "sdy.all_slice",
    "sdy.all_to_all",
    "sdy.collective_permute",
    "sdy.all_reduce",
    "sdy.reduce_scatter",
    "sdy.sharded_to_unreduced",
    "sdy.replicated_to_unreduced",
)
