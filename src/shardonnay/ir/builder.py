"""Building programs in Python: functions, ops and regions at an insertion point.

A `Builder` appends ops where its insertion point is (the end of a block, or
before an op). Result types come from the op's `OpDef.infer_types` unless
given explicitly.

>>> from shardonnay.ir.types import TensorType
>>> from shardonnay.mesh import Mesh
>>> from shardonnay.sharding import TensorSharding
>>> b = Builder.module()
>>> mesh = b.mesh("mesh", Mesh({"x": 2}))
>>> with b.function("main", [TensorType((8,), "f32")]) as f:
...     (x,) = f.arguments
...     y = b.sharding_constraint(x, TensorSharding.from_axes(mesh, ["x"]))
...     f.returns(y)
>>> print(b.module.to_text())
module {
  sdy.mesh @mesh = <["x"=2]>
  func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
    %0 = sdy.sharding_constraint %arg0 <@mesh, [{"x"}]> : tensor<8xf32>
    return %0 : tensor<8xf32>
  }
}
<BLANKLINE>
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from typing import Any

from shardonnay.errors import IRError
from shardonnay.ir.attributes import DenseElementsAttr, SymbolRefAttr
from shardonnay.ir.core import Block, Func, Module, Op, Region, Value
from shardonnay.ir.shardings import set_func_result_sharding, set_sharding
from shardonnay.ir.types import FunctionType, TensorType, Type
from shardonnay.mesh import Mesh
from shardonnay.ops.registry import lookup
from shardonnay.sharding import TensorSharding


class Builder:
    """Creates ops at an insertion point inside `module`.

    `Builder.module()` starts an empty module; `Builder(module)` appends to an
    existing one. (On an instance, `module` is the module being built.)
    """

    def __init__(self, module: Module | None = None):
        # The instance attribute shadows the `module()` constructor below.
        self.module: Module = module if module is not None else Module()
        self._block: Block = self.module.body
        self._before: Op | None = None

    @classmethod
    def module(cls) -> Builder:  # type: ignore[override]
        """A builder of a new, empty module."""
        return cls(Module())

    # -- insertion point --------------------------------------------------------------

    @property
    def insertion_block(self) -> Block:
        return self._block

    def set_insertion_point_to_end(self, block: Block) -> None:
        """New ops are appended to `block`."""
        self._block, self._before = block, None

    def set_insertion_point_before(self, op: Op) -> None:
        """New ops go right before `op` (in its block)."""
        if op.parent is None:
            raise IRError(f"cannot insert before {op.name}: it is not in a block")
        self._block, self._before = op.parent, op

    @contextmanager
    def at_end(self, block: Block) -> Iterator[Block]:
        """`with b.at_end(block):` appends to `block`, then restores the point."""
        saved = self._block, self._before
        self.set_insertion_point_to_end(block)
        try:
            yield block
        finally:
            self._block, self._before = saved

    @contextmanager
    def before(self, op: Op) -> Iterator[Op]:
        """`with b.before(op):` inserts before `op`, then restores the point."""
        saved = self._block, self._before
        self.set_insertion_point_before(op)
        try:
            yield op
        finally:
            self._block, self._before = saved

    def insert(self, op: Op) -> Op:
        """Places an already created op at the insertion point."""
        if self._before is None:
            return self._block.append(op)
        return self._block.insert_before(self._before, op)

    # -- ops ----------------------------------------------------------------------------

    def create(
        self,
        name: str,
        operands: Sequence[Value] = (),
        *,
        attributes: dict[str, Any] | None = None,
        result_types: Sequence[Type] | None = None,
        regions: Sequence[Region] = (),
        location: str | None = None,
    ) -> Op:
        """Creates op `name` at the insertion point and returns it.

        Without `result_types`, they come from the op's `infer_types`; an op
        that cannot infer them raises `IRError` asking for them.
        """
        if result_types is None:
            result_types = _infer(name, operands, attributes, regions)
        op = Op(name, operands, result_types, attributes, regions, location=location)
        return self.insert(op)

    def op(
        self,
        name: str,
        operands: Sequence[Value] = (),
        *,
        attributes: dict[str, Any] | None = None,
        result_types: Sequence[Type] | None = None,
        regions: Sequence[Region] = (),
        location: str | None = None,
    ) -> Any:
        """Like `create`, but returns the result: the `Value` of a one-result
        op, else the tuple of results (empty for none)."""
        op = self.create(
            name,
            operands,
            attributes=attributes,
            result_types=result_types,
            regions=regions,
            location=location,
        )
        return op.results[0] if len(op.results) == 1 else tuple(op.results)

    def constant(self, array: Any, type: TensorType | None = None) -> Value:
        """`stablehlo.constant dense<...>` of a numpy array (of `type` if given)."""
        value = DenseElementsAttr.from_numpy(array, type)
        return self.op("stablehlo.constant", attributes={"value": value}, result_types=[value.type])

    def sharding_constraint(self, value: Value, sharding: TensorSharding) -> Value:
        """`sdy.sharding_constraint %value <sharding> : t`."""
        return self.op(
            "sdy.sharding_constraint",
            [value],
            attributes={"sharding": sharding},
            result_types=[value.type],
        )

    def func_call(self, callee: str, arguments: Sequence[Value]) -> Any:
        """`func.call @callee(...)`, typed by the callee's signature."""
        ftype = self.module.function(callee).type
        return self.op(
            "func.call",
            arguments,
            attributes={"callee": SymbolRefAttr((callee,))},
            result_types=ftype.results,
        )

    def mesh(self, name: str, mesh: Mesh) -> str:
        """Declares `sdy.mesh @name` (after the module's other meshes); returns `name`."""
        if name in self.module.meshes:
            raise IRError(f"mesh @{name} is already declared")
        body = self.module.body
        index = 0
        for i, op in enumerate(body.ops):
            if op.name == "sdy.mesh":
                index = i + 1
        body.insert(index, Op("sdy.mesh", attributes={"sym_name": name, "mesh": mesh}))
        return name

    # -- functions and regions ----------------------------------------------------------------

    @contextmanager
    def function(
        self,
        name: str,
        argument_types: Sequence[Type],
        *,
        visibility: str | None = None,
        arg_shardings: Sequence[TensorSharding | None] | None = None,
    ) -> Iterator[FunctionBuilder]:
        """`with b.function("main", [t]) as f:` builds `func.func @main` at the
        end of the module; the body must end with `f.returns(...)`."""
        for op in self.module.body.ops:
            if op.name == "func.func" and op.attributes.get("sym_name") == name:
                raise IRError(f"function @{name} is already defined")
        func = Func.create(name, argument_types, (), visibility=visibility)
        self.module.append(func)
        builder = FunctionBuilder(self, func)
        for i, sharding in enumerate(arg_shardings or ()):
            if sharding is not None:
                builder.set_arg_sharding(i, sharding)
        with self.at_end(func.body):
            yield builder
        if not builder.returned:
            raise IRError(f"function @{name} was built without f.returns(...)")

    @contextmanager
    def region(self, argument_types: Sequence[Type] = ()) -> Iterator[RegionBuilder]:
        """`with b.region([t, t]) as r:` builds a one-block region (to pass as
        `regions=[r.region]`); end it with `r.returns(...)`."""
        region = Region([Block(argument_types)])
        builder = RegionBuilder(self, region)
        with self.at_end(region.entry):
            yield builder
        if not builder.returned:
            raise IRError("region was built without r.returns(...)")


class FunctionBuilder:
    """The function being built by `Builder.function`."""

    def __init__(self, builder: Builder, func: Func):
        self.builder = builder
        self.func = func
        self.returned = False

    @property
    def arguments(self) -> list[Value]:
        return self.func.arguments

    def set_arg_sharding(self, index: int, sharding: TensorSharding) -> None:
        """`{sdy.sharding = #sdy.sharding<...>}` on argument `index`."""
        set_sharding(self.func.arguments[index], sharding)

    def set_result_sharding(self, index: int, sharding: TensorSharding) -> None:
        """`{sdy.sharding = ...}` on result `index` (after `returns`)."""
        set_func_result_sharding(self.func, index, sharding)

    def returns(self, *values: Value) -> None:
        """Ends the body with `func.return` and sets the function's result types."""
        if self.returned:
            raise IRError(f"@{self.func.name} already returns")
        self.builder.create("func.return", values, result_types=[])
        self.func.type = FunctionType(self.func.type.inputs, tuple(v.type for v in values))
        if "res_attrs" in self.func.op.attributes:
            del self.func.op.attributes["res_attrs"]
        self.returned = True


class RegionBuilder:
    """The region being built by `Builder.region`."""

    def __init__(self, builder: Builder, region: Region):
        self.builder = builder
        self.region = region
        self.returned = False

    @property
    def arguments(self) -> list[Value]:
        return self.region.entry.arguments

    def returns(self, *values: Value, op: str = "stablehlo.return") -> None:
        """Ends the region with `op` (a terminator) returning `values`."""
        if self.returned:
            raise IRError("the region already has a terminator")
        self.returned = True
        self.builder.create(op, values, result_types=[])


def _infer(
    name: str,
    operands: Sequence[Value],
    attributes: dict[str, Any] | None,
    regions: Sequence[Region],
) -> list[Type]:
    """The result types `name`'s `infer_types` gives for these operands."""
    definition = lookup(name)
    probe = Op(name, operands, (), attributes)
    probe.regions = list(regions)  # read-only: the regions keep their parent
    try:
        types = definition.infer_types(probe)
    except IRError as e:
        raise IRError(f"{name}: {e}") from None
    except (KeyError, IndexError, TypeError, ValueError, AttributeError) as e:
        raise IRError(f"{name}: cannot infer the result types ({e!r})") from None
    finally:
        probe.operands = ()
    if types is None:
        raise IRError(
            f"{name}: the result types cannot be inferred; pass result_types=[...] explicitly"
        )
    return list(types)


__all__ = ["Builder", "FunctionBuilder", "RegionBuilder"]
