"""The op registry: everything shardonnay knows about an op, in one place.

An op is described by an `OpDef` subclass instance registered under its name.
Each facet is a method; a facet an op lacks is simply not overridden:

- `parse(p, name)` / `print(op, w)`: the custom (pretty) syntax. Without them
  the op reads and prints in MLIR's generic form.
- `infer_types(op)`: the result types implied by operands and attributes,
  used by `Builder` and checked by the verifier.
- `verify(op)`: further invariants; raise `IRError`.
- `evaluate(op, args, interp)`: numpy semantics on global values.
- `sharding_rule(op)`: the op's sharding rule (see `shardonnay.ops.rules`).
- `result_names(op)` / `block_arg_names(op, region)`: the names MLIR's
  printer gives values (`%cst`, `%iterArg`).

and a set of facts, `traits` (see `shardonnay.ops.traits`).

>>> class Negate(OpDef):
...     def evaluate(self, op, args, interp):
...         return [-args[0]]
>>> Negate().evaluate(None, [1], None)  # `register("my.negate", Negate())` adds it
[-1]
"""

from __future__ import annotations

import importlib
import os
import pkgutil
from typing import TYPE_CHECKING, Any

from shardonnay.errors import UnsupportedOpError

if TYPE_CHECKING:
    from shardonnay.ir.core import Op
    from shardonnay.ir.types import Type
    from shardonnay.sharding_rule import OpShardingRule


class OpDef:
    """Base of op descriptions; see the module docstring."""

    # The dialect whose ops print without prefix inside this op's regions
    # (`func` inside `func.func`: `return`, `call`).
    default_dialect: str | None = None
    # The facts passes ask about the op (`shardonnay.ops.traits`): `Trait`
    # members and parametrised traits, shared by every op of this definition.
    traits: frozenset = frozenset()
    # Whether the op has no side effects (dead-code removal may drop it).
    pure: bool = True

    parse: Any = None  # (p: OpParser, name: str) -> Op
    print: Any = None  # (op: Op, w: OpPrinter) -> None

    def infer_types(self, op: Op) -> list[Type] | None:
        """Result types from operands and attributes; None when unknown."""
        return None

    def verify(self, op: Op) -> None:
        """Raises `IRError` if `op` breaks an invariant of this op."""

    def evaluate(self, op: Op, args: list, interp: Any) -> list:
        raise UnsupportedOpError(f"{op.name}: the interpreter has no semantics for this op")

    def sharding_rule(self, op: Op) -> OpShardingRule | None:
        """How the op's dims decompose into factors (Shardy's `OpShardingRule`);
        None for ops that propagation handles otherwise or not at all.
        `shardonnay.ops.rules.rule_for` is the lookup passes use.

        A rule is computed from the op's name, operand and result types and
        attributes, so that ops alike in those share one rule, unless the
        definition says its rule reads more: the ops producing its operands
        (`rule_reads_producers`) or its regions (`rule_reads_regions`: a
        scatter's body says whether its updates combine by a reduction)."""
        return None

    # Whether `sharding_rule` reads the ops producing the operands too.
    rule_reads_producers = False
    # Whether `sharding_rule` may read the op's regions (False for ops whose
    # rule is the same whatever their body computes, like a reduction's).
    rule_reads_regions = True

    def result_names(self, op: Op) -> list[str | None] | None:
        return None

    def block_arg_names(self, op: Op, region: int) -> list[str] | None:
        return None


def mark_inherent(op: Op, names) -> Op:
    """Records that only `names` are `op`'s own attributes (printed as
    properties `<{...}>` in the generic form) when the attribute dictionary
    of its custom form also held unprefixed ones (`{foo}`)."""
    for key in op.attributes:
        if "." not in key and key not in names:
            op.inherent = frozenset(k for k in op.attributes if k in names)
            break
    return op


_REGISTRY: dict[str, OpDef] = {}
_GENERIC = OpDef()


_TRAITS: dict[str, frozenset] = {}


def register(name: str, definition: OpDef, *, traits=()) -> OpDef:
    """Registers `definition` for op `name` (replacing any earlier one);
    `traits`: those of `name` besides the definition's own `traits`."""
    _REGISTRY[name] = definition
    _TRAITS[name] = frozenset(traits)
    _ALL_TRAITS.clear()
    return definition


def register_all(names, definition: OpDef, *, traits=()) -> OpDef:
    for name in names:
        register(name, definition, traits=traits)
    return definition


def registered_traits(name: str) -> frozenset:
    """The traits given to `name` at registration (see `register`)."""
    _load()
    return _TRAITS.get(name, frozenset())


# Every trait of an op name (its definition's and its own), as `all_traits`
# found them; emptied whenever an op is registered.
_ALL_TRAITS: dict[str, frozenset] = {}


def all_traits(name: str) -> frozenset:
    """Every trait of op `name`: its definition's `traits` and those given at
    registration; none for an unregistered name. Kept per name, since
    passes ask for every op they meet."""
    found = _ALL_TRAITS.get(name)
    if found is None:
        _load()
        found = _ALL_TRAITS[name] = (
            _REGISTRY[name].traits | _TRAITS.get(name, frozenset())
            if name in _REGISTRY
            else frozenset()
        )
    return found


def lookup(name: str) -> OpDef:
    """The definition of `name`, or a generic one that knows nothing."""
    if not _loaded:
        _load()
    return _REGISTRY.get(name, _GENERIC)


def is_registered(name: str) -> bool:
    _load()
    return name in _REGISTRY


def registered_names() -> list[str]:
    _load()
    return sorted(_REGISTRY)


_loaded = False


def _load() -> None:
    """Imports the op families, the modules beside this one (each registers
    its ops), by name: the registry itself depends on none of them."""
    global _loaded
    if _loaded:
        return
    _loaded = True
    for info in pkgutil.iter_modules([os.path.dirname(__file__)]):
        if info.name != "registry":
            importlib.import_module(f"{__package__}.{info.name}")
