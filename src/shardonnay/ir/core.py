"""The program IR: modules of functions in SSA form, as MLIR structures them.

An `Op` has operands (`Value`s), results (`Value`s it defines), attributes
(a dict of attribute values) and regions; a `Region` holds `Block`s; a
`Block` holds arguments and a list of ops. Every `Value` knows its uses, and
the mutators here keep those use-lists exact:

>>> from shardonnay.ir.types import TensorType
>>> t = TensorType((4,), "f32")
>>> block = Block([t, t])
>>> x, y = block.arguments
>>> add = block.append(Op("stablehlo.add", [x, y], [t]))
>>> [u.owner.name for u in x.uses]
['stablehlo.add']
>>> add.set_operand(0, y)
>>> len(x.uses), len(y.uses)
(0, 2)
"""

from __future__ import annotations

import gc
import importlib
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from typing import Any, Protocol

from shardonnay.errors import IRError
from shardonnay.ir.types import FunctionType, Type


class Use:
    """Operand `index` of op `owner`."""

    __slots__ = ("index", "owner")

    def __init__(self, owner: Op, index: int):
        self.owner = owner
        self.index = index

    def __repr__(self) -> str:
        return f"Use({self.owner.name}, {self.index})"


class Value:
    """An SSA value: result `index` of an op, or argument `index` of a block.
    `location`: a block argument's `loc(...)` as written (JAX names a
    function's arguments so: `loc("params['w1']")`), kept as text."""

    __slots__ = ("__weakref__", "defining", "index", "location", "type", "uses")

    def __init__(self, type: Type, defining: Op | Block | None = None, index: int = 0):
        self.type = type
        self.defining = defining
        self.index = index
        self.uses: list[Use] = []
        self.location: str | None = None

    @property
    def op(self) -> Op | None:
        """The op defining this value (None for a block argument)."""
        return self.defining if isinstance(self.defining, Op) else None

    @property
    def is_block_argument(self) -> bool:
        return isinstance(self.defining, Block)

    @property
    def users(self) -> list[Op]:
        return [u.owner for u in self.uses]

    def replace_all_uses_with(self, other: Value) -> None:
        for use in list(self.uses):
            use.owner.set_operand(use.index, other)

    def __repr__(self) -> str:
        where = self.defining.name if isinstance(self.defining, Op) else "block"
        return f"<Value {self.type} from {where}#{self.index}>"


class Op:
    """One operation. `attributes` maps names to attribute values."""

    __slots__ = (
        "_operands",
        "attributes",
        "inherent",
        "location",
        "name",
        "parent",
        "regions",
        "results",
    )

    def __init__(
        self,
        name: str,
        operands: Sequence[Value] = (),
        result_types: Sequence[Type] = (),
        attributes: dict[str, Any] | None = None,
        regions: Sequence[Region] = (),
        *,
        location: str | None = None,
        inherent: frozenset[str] | None = None,
    ):
        self.name = name
        self._operands: list[Value] = list(operands)
        for i, v in enumerate(self._operands):
            if v.__class__ is not Value:
                raise IRError(f"operand of {name} is not a Value: {v!r}")
            v.uses.append(Use(self, i))
        self.results = [Value(t, self, i) for i, t in enumerate(result_types)]
        self.attributes: dict[str, Any] = dict(attributes or {})
        self.regions: list[Region] = []
        self.parent: Block | None = None
        self.location = location
        # Names printed as properties `<{...}>` in the generic form; None: those
        # without a dialect prefix (MLIR's inherent attributes).
        self.inherent = inherent
        for r in regions:
            self.add_region(r)

    # -- operands ----------------------------------------------------------------

    @property
    def operands(self) -> tuple[Value, ...]:
        return tuple(self._operands)

    @operands.setter
    def operands(self, values: Iterable[Value]) -> None:
        self._drop_uses()
        self._operands = []
        for v in values:
            self._add_operand(v)

    def operand(self, i: int) -> Value:
        return self._operands[i]

    @property
    def num_operands(self) -> int:
        return len(self._operands)

    def set_operand(self, i: int, value: Value) -> None:
        old = self._operands[i]
        for k, use in enumerate(old.uses):
            if use.owner is self and use.index == i:
                del old.uses[k]
                break
        self._operands[i] = value
        value.uses.append(Use(self, i))

    def _add_operand(self, value: Value) -> None:
        if not isinstance(value, Value):
            raise IRError(f"operand of {self.name} is not a Value: {value!r}")
        value.uses.append(Use(self, len(self._operands)))
        self._operands.append(value)

    def _drop_uses(self) -> None:
        for i, v in enumerate(self._operands):
            v.uses[:] = [u for u in v.uses if not (u.owner is self and u.index == i)]

    # -- results, regions, position ------------------------------------------------

    @property
    def result(self) -> Value:
        if len(self.results) != 1:
            raise IRError(f"{self.name} has {len(self.results)} results, not one")
        return self.results[0]

    @property
    def result_types(self) -> list[Type]:
        return [r.type for r in self.results]

    def add_region(self, region: Region) -> Region:
        region.parent = self
        self.regions.append(region)
        return region

    @property
    def parent_op(self) -> Op | None:
        return self.parent.parent_op if self.parent is not None else None

    def erase(self) -> None:
        """Removes this op (whose results must be unused) and its uses."""
        for r in self.results:
            if r.uses:
                raise IRError(f"cannot erase {self.name}: result {r.index} still has uses")
        for op in self.walk():
            op._drop_uses()
        if self.parent is not None:
            self.parent.ops.remove(self)
            self.parent = None

    def walk(self) -> Iterator[Op]:
        """This op and every op nested in its regions, in order (pre-order).

        Iterative: regions of any depth walk without Python recursion."""
        return _walk_pre_order(iter((self,)))

    def clone(self, value_map: dict[Value, Value] | None = None) -> Op:
        """A deep copy of this op and its regions, detached from any block.

        Operands are looked up in `value_map` (defaulting to the same values);
        the map is extended with the clone's results and block arguments, so
        nested ops refer to the cloned values. Iterative: ops are copied in the
        order of a pre-order walk, whatever the depth of their regions.
        """
        mapping = value_map if value_map is not None else {}
        root = self._clone_shell(mapping)
        if not self.regions:  # most ops: nothing nested to walk
            return root
        pending = [_ops_to_clone(self, root)]
        while pending:
            item = next(pending[-1], None)
            if item is None:
                pending.pop()
                continue
            inner, new_block = item
            copy = new_block.append(inner._clone_shell(mapping))
            if inner.regions:
                pending.append(_ops_to_clone(inner, copy))
        return root

    def _clone_shell(self, mapping: dict[Value, Value]) -> Op:
        """A copy of this op with its regions' blocks but not their ops; its
        results and block arguments are added to `mapping`.

        Made field by field, not through `Op.__init__`: the operands are
        values already (a module's copy makes one shell per op)."""
        op = Op.__new__(Op)
        op.name = self.name
        op._operands = operands = [mapping.get(v, v) for v in self._operands]
        for i, v in enumerate(operands):
            v.uses.append(Use(op, i))
        op.results = results = []
        for old in self.results:
            results.append(new := Value(old.type, op, old.index))
            mapping[old] = new
        op.attributes = {
            k: (dict(v) if isinstance(v, dict) else v) for k, v in self.attributes.items()
        }
        op.regions = []
        op.parent = None
        op.location = self.location
        op.inherent = self.inherent
        for region in self.regions:
            copy = op.add_region(Region())
            for block in region.blocks:
                new_block = copy.append(Block([a.type for a in block.arguments]))
                for old, new in zip(block.arguments, new_block.arguments, strict=True):
                    mapping[old] = new
                    new.location = old.location
        return op

    @property
    def dialect(self) -> str:
        return self.name.split(".", 1)[0]

    def is_inherent(self, attr: str) -> bool:
        return attr in self.inherent if self.inherent is not None else "." not in attr

    def __repr__(self) -> str:
        return f"<Op {self.name} ({len(self._operands)} -> {len(self.results)})>"


class Block:
    """A list of ops with typed arguments; the last op is its terminator."""

    __slots__ = ("arguments", "ops", "parent")

    def __init__(self, argument_types: Sequence[Type] = ()):
        self.arguments = [Value(t, self, i) for i, t in enumerate(argument_types)]
        self.ops: list[Op] = []
        self.parent: Region | None = None

    def add_argument(self, type: Type) -> Value:
        v = Value(type, self, len(self.arguments))
        self.arguments.append(v)
        return v

    def append(self, op: Op) -> Op:
        op.parent = self
        self.ops.append(op)
        return op

    def insert(self, index: int, op: Op) -> Op:
        op.parent = self
        self.ops.insert(index, op)
        return op

    def insert_before(self, anchor: Op, op: Op) -> Op:
        return self.insert(self.ops.index(anchor), op)

    def walk_post_order(self) -> Iterator[Op]:
        """The ops of this block and every op nested in them, each op after
        the ops nested in it (MLIR's walk order; `Op.walk` is pre-order).

        A block's op list is read when the walk reaches the block: ops
        inserted there afterwards are not visited, and the op just visited
        may be erased or moved.

        >>> from shardonnay.ir.types import TensorType
        >>> t = TensorType((), "f32")
        >>> body = Block([t])
        >>> _ = body.append(Op("stablehlo.return", [body.arguments[0]]))
        >>> outer = Block([t])
        >>> _ = outer.append(Op("stablehlo.while", outer.arguments, [t], regions=[Region([body])]))
        >>> [op.name for op in outer.walk_post_order()]
        ['stablehlo.return', 'stablehlo.while']
        """
        # Each frame: the op to yield once its nested ops are done, and an
        # iterator over those (a block's op list is read when it is reached).
        stack: list[tuple[Op | None, Iterator[Op]]] = [(None, iter(list(self.ops)))]
        while stack:
            owner, ops = stack[-1]
            op = next(ops, None)
            if op is None:
                stack.pop()
                if owner is not None:
                    yield owner
            elif op.regions:
                stack.append((op, _nested_ops(op)))
            else:
                yield op

    @property
    def terminator(self) -> Op | None:
        return self.ops[-1] if self.ops else None

    @property
    def parent_op(self) -> Op | None:
        return self.parent.parent if self.parent is not None else None

    def __repr__(self) -> str:
        return f"<Block {len(self.arguments)} args, {len(self.ops)} ops>"


class Region:
    """The blocks of one region of an op."""

    __slots__ = ("blocks", "parent")

    def __init__(self, blocks: Sequence[Block] = ()):
        self.blocks: list[Block] = []
        self.parent: Op | None = None
        for b in blocks:
            self.append(b)

    def append(self, block: Block) -> Block:
        block.parent = self
        self.blocks.append(block)
        return block

    @property
    def entry(self) -> Block:
        return self.blocks[0]

    def __repr__(self) -> str:
        return f"<Region {len(self.blocks)} blocks>"


class Func:
    """A view of a `func.func` op: its name, signature, body and attributes.

    The op holds everything (`sym_name`, `function_type`, `arg_attrs`,
    `res_attrs`, `sym_visibility`); this class reads and writes it.
    """

    __slots__ = ("op",)

    def __init__(self, op: Op):
        if op.name != "func.func":
            raise IRError(f"{op.name} is not a func.func")
        self.op = op

    @classmethod
    def create(
        cls,
        name: str,
        input_types: Sequence[Type],
        result_types: Sequence[Type],
        *,
        visibility: str | None = None,
    ) -> Func:
        attrs: dict[str, Any] = {
            "sym_name": name,
            "function_type": FunctionType(tuple(input_types), tuple(result_types)),
        }
        if visibility:
            attrs["sym_visibility"] = visibility
        return cls(Op("func.func", attributes=attrs, regions=[Region([Block(input_types)])]))

    @property
    def name(self) -> str:
        return self.op.attributes["sym_name"]

    @property
    def type(self) -> FunctionType:
        return self.op.attributes["function_type"]

    @type.setter
    def type(self, t: FunctionType) -> None:
        self.op.attributes["function_type"] = t

    @property
    def visibility(self) -> str:
        return self.op.attributes.get("sym_visibility", "public")

    @property
    def body(self) -> Block:
        return self.op.regions[0].entry

    @property
    def arguments(self) -> list[Value]:
        return self.body.arguments

    @property
    def is_declaration(self) -> bool:
        return not self.op.regions or not self.op.regions[0].blocks

    @property
    def return_op(self) -> Op:
        return self.body.ops[-1]

    def arg_attrs(self, i: int) -> dict[str, Any]:
        """The attribute dict of argument `i` (mutable; created on demand)."""
        return self._attr_dict("arg_attrs", i, len(self.type.inputs))

    def result_attrs(self, i: int) -> dict[str, Any]:
        return self._attr_dict("res_attrs", i, len(self.type.results))

    def _attr_dict(self, key: str, i: int, n: int) -> dict[str, Any]:
        dicts = self.op.attributes.get(key)
        if dicts is None:
            dicts = tuple({} for _ in range(n))
            self.op.attributes[key] = dicts
        return dicts[i]

    def walk(self) -> Iterator[Op]:
        return _walk_pre_order(
            op for region in self.op.regions for block in region.blocks for op in block.ops
        )

    def __repr__(self) -> str:
        return f"<Func @{self.name} {self.type}>"


class Module:
    """A `builtin.module`: meshes, functions and any other top-level ops, in order.

    `name` is the optional `@name`; `attributes` its attribute dict;
    `aliases` the `#alias = ...` definitions printed before it (locations
    among them), kept as text.
    """

    __slots__ = ("aliases", "attributes", "body", "name", "trailer")

    def __init__(
        self,
        ops: Sequence[Op] = (),
        *,
        name: str | None = None,
        attributes: dict[str, Any] | None = None,
    ):
        self.name = name
        self.attributes: dict[str, Any] = dict(attributes or {})
        self.body = Block()
        self.aliases: dict[str, str] = {}
        self.trailer = ""  # e.g. `{-# dialect_resources ... #-}`, kept verbatim
        for op in ops:
            self.body.append(op)

    @property
    def ops(self) -> list[Op]:
        return self.body.ops

    def append(self, op: Op | Func) -> Op:
        return self.body.append(op.op if isinstance(op, Func) else op)

    @property
    def functions(self) -> list[Func]:
        return [Func(op) for op in self.body.ops if op.name == "func.func"]

    def function(self, name: str) -> Func:
        for op in self.body.ops:
            if op.name == "func.func" and op.attributes.get("sym_name") == name:
                return Func(op)
        names = ", ".join(f"@{f.name}" for f in self.functions) or "none"
        raise IRError(f"no function @{name} in the module (functions: {names})")

    @property
    def meshes(self) -> dict[str, Any]:
        """`{name: Mesh}` of the module's `sdy.mesh` ops, in order."""
        return {
            op.attributes["sym_name"]: op.attributes["mesh"]
            for op in self.body.ops
            if op.name == "sdy.mesh"
        }

    def walk(self) -> Iterator[Op]:
        return _walk_pre_order(iter(self.body.ops))

    def walk_post_order(self) -> Iterator[Op]:
        """Every op of the module, each after those nested in it (see
        `Block.walk_post_order`)."""
        return self.body.walk_post_order()

    def function_blocks(self) -> Iterator[Block]:
        """Every block of the module's functions: each function's body, then
        the blocks of the regions nested in its ops, outer ops first."""
        for func in self.functions:
            yield func.body
            for op in func.body.ops:
                if op.regions:  # (most ops have none: no walk to start)
                    for inner in op.walk():
                        for region in inner.regions:
                            yield from region.blocks

    def copy(self) -> Module:
        """A deep copy of this module, sharing nothing mutable with it.

        Every op is cloned (`Op.clone`) through one value map, so the copy's
        operands, block arguments and results are the copy's own values; the
        argument and result attribute dicts of its functions (`arg_attrs`,
        `res_attrs`) are copied too, so editing a copy's sharding leaves the
        original as it was. The name, the attribute dict, `aliases` and
        `trailer` are kept.

        >>> from shardonnay.ir.types import TensorType
        >>> t = TensorType((4,), "f32")
        >>> f = Func.create("main", [t], [t])
        >>> _ = f.body.append(Op("func.return", [f.arguments[0]]))
        >>> original = Module([f.op], name="m")
        >>> copy = original.copy()
        >>> copy.function("main").arg_attrs(0)["sdy.sharding"] = "edited"
        >>> original.function("main").arg_attrs(0)
        {}
        >>> copy.function("main").return_op.operand(0) is copy.function("main").arguments[0]
        True
        """
        copy = Module(name=self.name, attributes=dict(self.attributes))
        copy.aliases = dict(self.aliases)
        copy.trailer = self.trailer
        mapping: dict[Value, Value] = {}
        with building():  # (the copy is a program made anew, every op tracked)
            for op in self.body.ops:
                clone = op.clone(mapping)
                for key in ("arg_attrs", "res_attrs"):
                    if key in op.attributes:
                        clone.attributes[key] = tuple(dict(d) for d in op.attributes[key])
                copy.append(clone)
        return copy

    def to_text(self, *, generic: bool = False, debug_info: bool = False) -> str:
        """The MLIR text of this module (`generic`: every op in MLIR's generic
        form; `debug_info`: with locations), written by the installed
        `ModuleWriter` (see `install_module_writer`)."""
        return _writer()(self, generic=generic, debug_info=debug_info)

    def __str__(self) -> str:
        return self.to_text()

    def __repr__(self) -> str:
        return f"<Module {'@' + self.name if self.name else ''} {len(self.body.ops)} ops>"


@contextmanager
def building() -> Iterator[None]:
    """Pauses Python's cycle collector while a pass builds a program, and
    restores it after. Every op and value refers to the other (results know
    their op, operands their uses), so each one a pass makes is tracked by
    the collector, which scans the young objects every few hundred
    allocations and the whole heap (the program, and all else loaded) every
    so often: on a program of thousands of ops, about half of building its
    per-device program. The IR a pass makes stays alive while it runs
    anyway; what cycles it leaves behind are collected once it is done."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


def _nested_ops(op: Op) -> Iterator[Op]:
    """The ops of `op`'s blocks, each block's list read when the block is reached."""
    return (inner for region in op.regions for block in region.blocks for inner in list(block.ops))


def _ops_to_clone(original: Op, copy: Op) -> Iterator[tuple[Op, Block]]:
    """Each op directly inside `original`'s regions, with the block of `copy`
    (made by `Op._clone_shell`) that its clone goes into, in order."""
    for region, new_region in zip(original.regions, copy.regions, strict=True):
        for block, new_block in zip(region.blocks, new_region.blocks, strict=True):
            for inner in block.ops:
                yield inner, new_block


def _walk_pre_order(ops: Iterator[Op]) -> Iterator[Op]:
    """`ops` and the ops nested in them, each before those nested in it."""
    stack = [ops]
    while stack:
        # (a for loop over the innermost iterator, left for an op's regions
        # and resumed after them: no call per op)
        for op in stack[-1]:
            yield op
            if op.regions:
                stack.append(
                    inner for region in op.regions for block in region.blocks for inner in block.ops
                )
                break
        else:
            stack.pop()


# -- printing ------------------------------------------------------------------------


class ModuleWriter(Protocol):
    """What writes a module as MLIR text: `writer(module, generic=..., debug_info=...)`.

    Printing an op asks its definition (`shardonnay.ops`) for its custom form,
    and the op definitions are built on this IR, so the IR cannot import the
    writer. The contract: the first module printed loads
    `shardonnay.syntax.mlir_writer` by name (`WRITER_MODULE`) and its
    `write_module` becomes the writer, as the op registry loads the op
    families on its first lookup; `install_module_writer` replaces it.
    """

    def __call__(self, module: Module, *, generic: bool, debug_info: bool) -> str: ...


#: The module whose `write_module` prints modules unless another writer is installed.
WRITER_MODULE = "shardonnay.syntax.mlir_writer"

_module_writer: ModuleWriter | None = None


def _writer() -> ModuleWriter:
    """The installed writer, `WRITER_MODULE`'s `write_module` at first."""
    global _module_writer
    if _module_writer is None:
        _module_writer = importlib.import_module(WRITER_MODULE).write_module
    return _module_writer


def install_module_writer(writer: ModuleWriter) -> ModuleWriter:
    """Makes `writer` the one `Module.to_text` and `str(module)` use; returns
    the one it replaces (the MLIR writer at first).

    >>> m = Module(name="m")
    >>> previous = install_module_writer(lambda module, **options: f"<{module.name}>")
    >>> str(m)
    '<m>'
    >>> install_module_writer(previous).__name__
    '<lambda>'
    >>> str(m)
    'module @m {\\n}\\n'
    """
    global _module_writer
    previous, _module_writer = _writer(), writer
    return previous
