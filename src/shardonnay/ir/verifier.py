"""Checks the invariants of a module, as MLIR's verifier does, and says where one breaks.

`verify(module)` raises `IRError` naming the function, the op's position in
it (pre-order, as `Func.walk` yields ops, from 0) and the op:

>>> from shardonnay.syntax.mlir_reader import parse_module
>>> m = parse_module('''func.func @main(%arg0: tensor<2xf32>) -> tensor<4xf32> {
...   return %arg0 : tensor<2xf32>
... }''')
>>> verify(m)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
shardonnay.errors.IRError: in @main, op 0 (func.return): returns (tensor<2xf32>) but @main's ...

What is checked: regions nested at most `MAX_REGION_DEPTH` deep and no
function calling itself, directly or through others
(`shardonnay.ir.structure`), `dense<...>` literals that are values of their
types, SSA visibility (a value is used after its definition in the
same block, or defined in an enclosing region, never past an op that is
isolated from above), terminators of blocks in regions of registered ops,
`func.return` and `func.call` types, result types against `infer_types`,
each op's own `verify`, the meshes and validity of sharding attributes (none
inside an `sdy.manual_computation` uses one of its manual axes), that a rule
written on an op (`sdy.sharding_rule`) fits its operands and results, and
the use-lists. Ops that are not registered are checked only for visibility
and use-lists.
"""

from __future__ import annotations

from typing import Any

from shardonnay.errors import IRError, ShardonnayError
from shardonnay.ir.attributes import DenseElementsAttr, NoExactKey, exact_key
from shardonnay.ir.core import Block, Func, Module, Op, Region, Value
from shardonnay.ir.shardings import SHARDING
from shardonnay.ir.structure import check_structure
from shardonnay.ir.types import FunctionType, TensorType, Type
from shardonnay.mesh import Mesh
from shardonnay.ops.registry import OpDef, all_traits, is_registered, lookup
from shardonnay.ops.rules import RULE_ATTRIBUTE
from shardonnay.ops.traits import ISOLATED_FROM_ABOVE, VERIFIES_ALONE, has_trait
from shardonnay.sharding import (
    ManualAxes,
    TensorSharding,
    TensorShardingPerValue,
    placement_sharding,
)
from shardonnay.sharding_rule import OpShardingRule
from shardonnay.syntax.dense_literal import DenseLiteralError, canonical_dense_body

_TERMINATOR_SUFFIXES = (".return", ".yield")
_CHECKED_EXCEPTIONS = (KeyError, IndexError, TypeError, ValueError, AttributeError)

# What verifying found, kept across modules, as MLIR keeps uniqued attributes
# and types: the signatures (`_signature`) of ops that verify, and the
# `dense<...>` literals (text, type) that are values of their types. Both are
# keys by value (exact keys, types), so an entry says the same of every op or
# literal with that key, in any module. Bounded: past the limit, new entries
# are not kept (the checks run as without a cache).
_VERIFIED_SIGNATURES: set[tuple] = set()
_VALID_LITERALS: set[tuple[str, TensorType]] = set()
_MAX_SIGNATURES = 100_000
_MAX_LITERALS = 10_000
_MAX_LITERAL_TEXT = 10_000


def verify(module: Module) -> None:
    """Raises `IRError` at the first broken invariant of `module`."""
    _Verifier(module).run()


def is_terminator(op: Op) -> bool:
    """Whether `op` ends a block (`func.return`, `stablehlo.return`, `sdy.return`, ...)."""
    return op.name.endswith(_TERMINATOR_SUFFIXES)


def _types(types) -> str:
    return "(" + ", ".join(map(str, types)) + ")"


class _Verifier:
    def __init__(self, module: Module):
        self.module = module
        self.meshes: dict[str, Mesh] = {}
        self.functions: dict[str, Func] = {}
        self.visible: set[Value] = set()
        self.defined: set[Value] = set()  # every value defined in the module
        self.ops: set[Op] = set()  # every op in the module
        self.num_operands = 0  # of the ops in `ops`, for the use-list check
        # The signatures of the ops found to verify, by `alike_key`, which is
        # quicker to work out than `_signature` (see `_VERIFIED_SIGNATURES`),
        # with one op of each, kept alive so that no identity in a key is reused.
        self.verified_alike: dict[tuple, Op] = {}
        # Per op name: (registered, verifies alone, isolated from above, definition).
        self.kinds: dict[str, tuple[bool, bool, bool, OpDef]] = {}
        self.func_name: str | None = None
        self.counter = 0
        # The axes made manual by the sdy.manual_computation ops around the current op.
        self.manual_axes: frozenset[str] = frozenset()

    # -- driver --------------------------------------------------------------------------

    def run(self) -> None:
        check_structure(self.module)  # bounded nesting, no recursion: the rest may recurse
        body = self.module.body
        for op in body.ops:
            name = op.attributes.get("sym_name")
            if op.name == "sdy.mesh" and isinstance(name, str):
                if name in self.meshes:
                    raise IRError(f"redefinition of mesh @{name}")
                mesh = op.attributes.get("mesh")
                if isinstance(mesh, Mesh):
                    self.meshes[name] = mesh
            elif op.name == "func.func" and isinstance(name, str):
                if name in self.functions:
                    raise IRError(f"redefinition of function @{name}")
                self.functions[name] = Func(op)
        self._block(body, top=True)
        self._check_use_lists()

    def where(self, op: Op) -> str:
        loc = f" at {op.location}" if op.location else ""
        if self.func_name is None:
            return f"in the module, op {op.name}{loc}"
        if self.counter < 0:
            return f"in @{self.func_name}{loc}"
        return f"in @{self.func_name}, op {self.counter} ({op.name}){loc}"

    def fail(self, op: Op, message: str) -> IRError:
        return IRError(f"{self.where(op)}: {message}")

    # -- structure -----------------------------------------------------------------------

    def _block(self, block: Block, *, top: bool = False) -> None:
        added: list[Value] = []
        for arg in block.arguments:
            self.defined.add(arg)
            if arg not in self.visible:
                self.visible.add(arg)
                added.append(arg)
        for op in block.ops:
            if top:
                self.func_name = None
                if op.name == "func.func":
                    self.func_name = op.attributes.get("sym_name")
                    self.counter = -1  # the function itself; its first nested op is 0
            else:
                self.counter += 1
            self._op(op, block)
            for r in op.results:
                self.defined.add(r)
                if r not in self.visible:
                    self.visible.add(r)
                    added.append(r)
        for v in added:
            self.visible.discard(v)

    def _kind(self, name: str) -> tuple[bool, bool, bool, OpDef]:
        """What the verifier asks of the registry about ops named `name`."""
        kind = self.kinds.get(name)
        if kind is None:
            traits = all_traits(name)
            kind = self.kinds[name] = (
                is_registered(name),
                VERIFIES_ALONE in traits,
                has_trait(name, ISOLATED_FROM_ABOVE),
                lookup(name),
            )
        return kind

    def _op(self, op: Op, block: Block) -> None:
        self.ops.add(op)
        if op.parent is not block:
            raise self.fail(op, "its parent link does not point at the block holding it")
        operands = op._operands
        self.num_operands += len(operands)
        visible = self.visible
        for v in operands:
            if v not in visible:
                i = next(i for i, u in enumerate(operands) if u not in visible)
                raise self.fail(op, f"operand {i} {self._describe(operands[i], op)}")
        registered, alone, isolated, definition = self._kind(op.name)
        if registered and self._registered(op, alone, definition):
            # (its rule and literals are those of an op verified before)
            self._shardings(op)
        else:
            self._shardings(op)
            self._sharding_rule(op)
            self._literals(op)
        if op.name == "func.func":
            self._function(op)
            return
        saved, saved_manual = self.visible, self.manual_axes
        if isolated:
            self.visible = set()
        manual = op.attributes.get("manual_axes") if op.name == "sdy.manual_computation" else None
        if isinstance(manual, ManualAxes):
            self.manual_axes = self.manual_axes | set(manual.names)
        for region in op.regions:
            if region.parent is not op:
                raise self.fail(op, "a region's parent link does not point at the op")
            self._region(region, op, registered)
        self.visible, self.manual_axes = saved, saved_manual

    def _literals(self, op: Op) -> None:
        """Each `dense<...>` attribute is a value of its type (MLIR's messages);
        a literal met before (same text and type) is not read again."""
        for name, value in op.attributes.items():
            if isinstance(value, DenseElementsAttr):
                key = (value.body, value.type)
                if key in _VALID_LITERALS:
                    continue
                try:
                    canonical_dense_body(value.body, value.type)
                    if len(_VALID_LITERALS) < _MAX_LITERALS and len(value.body) < _MAX_LITERAL_TEXT:
                        _VALID_LITERALS.add(key)
                except DenseLiteralError as e:
                    body = value.body if len(value.body) <= 40 else value.body[:37] + "..."
                    raise self.fail(op, f"{name} = dense<{body}> : {value.type}: {e}") from None

    def _region(self, region: Region, op: Op, check_terminators: bool) -> None:
        for block in region.blocks:
            if block.parent is not region:
                raise self.fail(op, "a block's parent link does not point at its region")
            if check_terminators:
                self._terminator(block, op)
            self._block(block)

    def _terminator(self, block: Block, owner: Op) -> None:
        last = block.terminator
        if last is None or not is_terminator(last):
            found = f"ends with {last.name}" if last is not None else "is empty"
            raise self.fail(owner, f"a block of its region {found}, not a terminator")
        ops = block.ops
        for i in range(len(ops) - 1):
            op = ops[i]
            if op.name.endswith(_TERMINATOR_SUFFIXES) and is_registered(op.name):
                raise IRError(
                    f"{self.where(owner)}: terminator {op.name} is not at the end of its block"
                )

    def _describe(self, v: Value, user: Op) -> str:
        """Why `v` is not visible at `user`."""
        if v.is_block_argument:
            what = f"(argument {v.index} of a block)"
        elif v.op is not None:
            what = f"(result {v.index} of {v.op.name})"
        else:
            what = "(a value without definition)"
        defining = v.defining
        block = defining if isinstance(defining, Block) else getattr(defining, "parent", None)
        if block is not None and block is user.parent:
            return f"{what} is used before its definition"
        if block is None:
            return f"{what} is not defined in the module"
        return f"{what} is not visible here (defined in another region or above an isolated op)"

    # -- functions -----------------------------------------------------------------------

    def _function(self, op: Op) -> None:
        func = Func(op)
        ftype = op.attributes.get("function_type")
        if not isinstance(ftype, FunctionType):
            raise self.fail(op, "func.func needs a function_type attribute")
        for key, types in (("arg_attrs", ftype.inputs), ("res_attrs", ftype.results)):
            dicts = op.attributes.get(key)
            if dicts is None:
                continue
            if not isinstance(dicts, tuple) or len(dicts) != len(types):
                raise self.fail(op, f"{key} must hold one dictionary per {key[:3]}")
            for i, (attrs, t) in enumerate(zip(dicts, types, strict=True)):
                if not isinstance(attrs, dict):
                    raise self.fail(op, f"{key}[{i}] is not a dictionary")
                sharding = attrs.get(SHARDING)
                if sharding is not None:
                    kind = "argument" if key == "arg_attrs" else "result"
                    self._sharding(op, sharding, t, f"the sharding of {kind} {i}")
        if func.is_declaration:
            return
        saved = self.visible
        self.visible = set()
        self._region(op.regions[0], op, check_terminators=True)
        self.visible = saved

    # -- registered ops ------------------------------------------------------------------

    def _registered(self, op: Op, alone: bool, definition: OpDef) -> bool:
        """Verifies `op` by its definition (`alone`: it has `VERIFIES_ALONE`);
        True when an op holding the same objects (`alike_key`) was verified
        before, which `op` checks as."""
        alike = None
        if alone and not op.regions:
            alike = alike_key(op)
            if alike in self.verified_alike:
                return True
        signature = _signature(op, definition)
        if signature is not None and signature in _VERIFIED_SIGNATURES:
            if alike is not None:
                self.verified_alike[alike] = op
            return False  # (an op alike verified: it checks as that one did)
        try:
            definition.verify(op)
        except ShardonnayError as e:
            raise self.fail(op, str(e)) from None
        except _CHECKED_EXCEPTIONS as e:
            raise self.fail(op, f"malformed op ({e!r})") from None
        if op.name == "func.call":
            self._call(op)
            return False
        if op.name == "func.return":
            self._return(op)
        try:
            inferred = definition.infer_types(op)
        except ShardonnayError as e:
            raise self.fail(op, str(e)) from None
        except _CHECKED_EXCEPTIONS as e:
            raise self.fail(op, f"cannot infer its result types ({e!r})") from None
        if inferred is not None and list(inferred) != op.result_types:
            raise self.fail(
                op,
                f"result types {_types(op.result_types)} differ from the inferred "
                f"{_types(inferred)}",
            )
        if signature is not None:
            if len(_VERIFIED_SIGNATURES) < _MAX_SIGNATURES:
                _VERIFIED_SIGNATURES.add(signature)
            if alike is not None:
                self.verified_alike[alike] = op
        return False

    def _return(self, op: Op) -> None:
        func = op.parent_op
        if func is None or func.name != "func.func":
            return
        ftype = func.attributes.get("function_type")
        returned = tuple(v.type for v in op.operands)
        if isinstance(ftype, FunctionType) and returned != ftype.results:
            raise self.fail(
                op,
                f"returns {_types(returned)} but @{func.attributes.get('sym_name')}'s results "
                f"are {_types(ftype.results)}",
            )

    def _call(self, op: Op) -> None:
        callee = op.attributes.get("callee")
        name = getattr(callee, "name", None)
        func = self.functions.get(name) if isinstance(name, str) else None
        if func is None:
            raise self.fail(op, f"call of unknown function {callee}")
        operands = tuple(v.type for v in op.operands)
        results = tuple(op.result_types)
        if operands != func.type.inputs or results != func.type.results:
            raise self.fail(
                op,
                f"call type {FunctionType(operands, results)} differs from @{name}'s "
                f"type {func.type}",
            )

    # -- shardings -----------------------------------------------------------------------

    def _shardings(self, op: Op) -> None:
        """Every sharding attribute of `op`: its mesh exists and it fits its value."""
        for key, value in op.attributes.items():
            if isinstance(value, TensorShardingPerValue):
                if key == "in_shardings":
                    types: list[Type | None] = [v.type for v in op.operands]
                elif key in ("out_shardings", SHARDING):
                    types = list(op.result_types)
                else:
                    types = [None] * len(value)
                if key == SHARDING and placement_sharding(value, len(types)) is not None:
                    types = [None]  # where an op without results runs, as Shardy accepts it
                if key == SHARDING and len(value) != len(types):
                    raise self.fail(
                        op, f"{key} has {len(value)} shardings for {len(types)} results"
                    )
                for i, (sharding, t) in enumerate(zip(value.shardings, types, strict=False)):
                    self._sharding(op, sharding, t, f"sharding {i} of {key}")
            elif isinstance(value, TensorSharding):
                t = op.result_types[0] if len(op.results) == 1 else None
                self._sharding(op, value, t, f"the sharding {key}")

    def _sharding(self, op: Op, sharding: Any, t: Type | None, what: str) -> None:
        if not isinstance(sharding, TensorSharding):
            raise self.fail(op, f"{what} is not a #sdy.sharding")
        mesh = sharding.mesh
        if isinstance(mesh, str):
            if mesh not in self.meshes:
                raise self.fail(op, f"{what} refers to unknown mesh @{mesh}")
            mesh = self.meshes[mesh]
        shape = t.shape if isinstance(t, TensorType) else None
        try:
            sharding.validate(mesh, shape)
        except ShardonnayError as e:
            raise self.fail(op, f"{what} {sharding} is invalid: {e}") from None
        bound = next((a.name for a in sharding.all_axes() if a.name in self.manual_axes), None)
        if bound is not None:
            raise self.fail(
                op,
                f'{what} {sharding} operates on axis "{bound}", which a parent '
                "sdy.manual_computation already made manual",
            )

    def _sharding_rule(self, op: Op) -> None:
        """A rule written on the op (`sdy.sharding_rule`) fits its operands and results."""
        rule = op.attributes.get(RULE_ATTRIBUTE)
        if rule is None:
            return
        if not isinstance(rule, OpShardingRule):
            raise self.fail(op, f"{RULE_ATTRIBUTE} is not a #sdy.op_sharding_rule")
        values = [*op.operands, *op.results]
        if not all(isinstance(v.type, TensorType) for v in values):
            raise self.fail(op, f"{RULE_ATTRIBUTE} needs tensor operands and results")
        try:
            rule.validate([v.type.shape for v in op.operands], [v.type.shape for v in op.results])
        except ShardonnayError as e:
            raise self.fail(op, f"{RULE_ATTRIBUTE} {rule} is invalid: {e}") from None

    # -- use-lists -----------------------------------------------------------------------

    def _check_use_lists(self) -> None:
        """Each use-list lists exactly the operands that hold its value.

        Counted first: when every use listed by a value defined in the module
        points at an operand of an op of the module that holds the value, and
        no list names an operand twice, the uses name distinct operands (an
        operand holds one value); the lists are then right if they list as
        many uses as the ops have operands (`num_operands`). Only a module
        where that fails is searched for the first broken list, to say which."""
        ops = self.ops
        listed = 0
        for v in self.defined:
            uses = v.uses
            n = len(uses)
            listed += n
            for use in uses:
                owner = use.owner
                if owner not in ops:
                    return self._find_broken_use_list()
                held = owner._operands
                if use.index >= len(held) or held[use.index] is not v:
                    return self._find_broken_use_list()
            if n > 1 and len({(id(u.owner), u.index) for u in uses}) != n:
                return self._find_broken_use_list()
        if listed != self.num_operands:
            self._find_broken_use_list()

    def _find_broken_use_list(self) -> None:
        """Raises `IRError` at the first use-list that misses an operand holding
        its value, or lists one that does not hold it."""
        # Each value's use-list read once, as (owner id, operand index) pairs
        # (a value used by many ops would otherwise be scanned once per use).
        listed: dict[Value, set[tuple[int, int]]] = {}
        for op in self.ops:
            for i, v in enumerate(op.operands):
                uses = listed.get(v)
                if uses is None:
                    uses = listed[v] = {(id(u.owner), u.index) for u in v.uses}
                if (id(op), i) not in uses:
                    raise IRError(f"use-list of {v!r} misses operand {i} of {op.name}")
        for v in self.defined:
            for use in v.uses:
                owner = use.owner
                if owner not in self.ops:
                    raise IRError(
                        f"use-list of {v!r} names {owner.name}, which is not in the module"
                    )
                if use.index >= owner.num_operands or owner.operand(use.index) is not v:
                    raise IRError(
                        f"use-list of {v!r} names operand {use.index} of {owner.name}, "
                        "which is another value"
                    )


def alike_key(op: Op) -> tuple:
    """`op` by the identities of what it holds besides its operands and its
    sharding: its name and the objects of its operand types, result types
    and attributes. Ops parsed from lines alike, or copied from one op,
    share those objects, so that what is worked out from them alone (that
    an op verifies, its sharding rule) is worked out once for them all.
    Whoever keeps such keys keeps one op of each alive, so that no identity
    in a key is reused by another object."""
    return (
        op.name,
        *[id(v.type) for v in op.operands],
        None,  # (operands and results apart)
        *[id(r.type) for r in op.results],
        *[(k, id(v)) for k, v in op.attributes.items() if k != SHARDING],
    )


def _signature(op: Op, definition: OpDef) -> tuple | None:
    """All that `definition.verify(op)` and `.infer_types(op)` read of an op
    whose definition has the trait `VERIFIES_ALONE` (attributes by their
    exact keys, its sharding left out); None for other ops, ops with
    regions and ops with an attribute of a class without exact keys."""
    if op.regions or VERIFIES_ALONE not in all_traits(op.name):
        return None
    try:
        attributes = tuple((k, exact_key(v)) for k, v in op.attributes.items() if k != SHARDING)
    except NoExactKey:
        return None
    return (
        definition,
        op.name,
        attributes,
        tuple(v.type for v in op.operands),
        tuple(r.type for r in op.results),
    )


__all__ = ["alike_key", "is_terminator", "verify"]
