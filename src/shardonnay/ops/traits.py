"""Op traits: the facts about an op that passes ask, declared once on its definition.

A pass never asks "is this op `stablehlo.while` or `stablehlo.case` or ...";
it asks whether the op has a trait (`has_trait(op, DATA_FLOW)`), the way
MLIR passes ask `op->hasTrait<...>()` or an op interface. An op definition
(`shardonnay.ops.registry.OpDef`) declares its traits in `traits`, a
frozenset; ops that share a definition class get the traits they differ by
at registration (`register(name, definition, traits=...)`). An op name that
is not registered has no traits.

Plain traits are the members of `Trait`; traits with parameters are small
frozen dataclasses (`Combiner`, `NeedsCommunication`, `ConservativeRule`,
`MovesElements`), asked for by their class (`trait_of(op, Combiner)`).

>>> has_trait("stablehlo.add", ELEMENTWISE), has_trait("stablehlo.add", TERMINATOR)
(True, False)
>>> has_trait("stablehlo.return", TERMINATOR), has_trait("my.unknown_op", TERMINATOR)
(True, False)
>>> trait_of("stablehlo.maximum", Combiner).kind
'max'
"""

from __future__ import annotations

import enum
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeVar

import numpy as np

from shardonnay.ir.element_values import identity
from shardonnay.ops.registry import all_traits, registered_names

if TYPE_CHECKING:
    from shardonnay.ir.core import Op

__all__ = [
    "BROADCASTING_ELEMENTWISE",
    "CALL",
    "COMPUTATION",
    "CONTRACTION",
    "CONTROL_FLOW",
    "COPIES_ELEMENTS",
    "DATA_FLOW",
    "DEVICE_COLLECTIVE",
    "DEVICE_ID",
    "DYNAMIC_SLICING",
    "ELEMENTWISE",
    "EXACT_RULE",
    "GRID_ANNOTATION",
    "GROUPED_DEVICES",
    "ISOLATED_FROM_ABOVE",
    "PASS_THROUGH",
    "PROPAGATION_MARKER",
    "RECURSIVE_EFFECTS",
    "SHARDING_ANNOTATION",
    "SHARDING_COLLECTIVE",
    "TERMINATOR",
    "VERIFIES_ALONE",
    "Combiner",
    "ConservativeRule",
    "MovesElements",
    "NeedsCommunication",
    "Trait",
    "has_trait",
    "is_elementwise",
    "names_with",
    "trait_of",
    "traits_of",
]


class Trait(enum.Enum):
    """A fact about an op that takes no parameters (see each member)."""

    # The members are singletons, equal only to themselves: hashed by identity
    # (`Enum.__hash__` hashes the name in Python code, on every `has_trait`).
    __hash__ = object.__hash__

    # Every result element is computed from the operand elements at the same
    # position; operands (but scalar ones) and results have one shape (MLIR's
    # `Elementwise`, which Shardy's `isElementwise` asks; Shardy's `ops.td`
    # declares it on its identities too: reshards, sharding constraints and
    # propagation barriers).
    ELEMENTWISE = "elementwise"
    # Elementwise, with scalar operands applying to every element (the
    # predicate of a select, the bounds of a clamp): StableHLO's
    # `BroadcastingElementwise`, which Shardy's `isElementwise` asks too.
    BROADCASTING_ELEMENTWISE = "broadcasting elementwise"
    # Ends its block and hands the block's results to the enclosing op or
    # function (MLIR's `Terminator`, `ReturnLike`).
    TERMINATOR = "terminator"
    # Ties values by data-flow edges: each result, and each region argument
    # and terminator operand in the same position, is one value flowing
    # through the op, with one sharding (Shardy's
    # `ShardableDataFlowOpInterface`).
    DATA_FLOW = "data flow"
    # A computation of Shardy's dialect: one body isolated from above whose
    # block arguments own the data-flow edges into it, with the shardings of
    # its boundary in its `in_shardings` and `out_shardings` attributes.
    COMPUTATION = "computation"
    # Values defined outside its regions are invisible inside (MLIR's
    # `IsolatedFromAbove`): its regions keep their own constants.
    ISOLATED_FROM_ABOVE = "isolated from above"
    # Has no effects of its own: the ops nested in its regions decide whether
    # it has any (MLIR's `RecursiveMemoryEffects`).
    RECURSIVE_EFFECTS = "recursive effects"
    # A collective of Shardy's dialect: on a global tensor, from one sharding
    # to its `out_sharding` (Shardy's `CollectiveOpInterface`).
    SHARDING_COLLECTIVE = "sharding collective"
    # Exchanges data among devices, each device running it on its own value
    # (StableHLO's collectives).
    DEVICE_COLLECTIVE = "device collective"
    # Its devices communicate within the groups of its `replica_groups`
    # attribute.
    GROUPED_DEVICES = "grouped devices"
    # Its result is the id of the device running it.
    DEVICE_ID = "device id"
    # Computes nothing itself: routes its operands into its regions (or
    # straight to its results) and its regions' values out as its results
    # (StableHLO's control flow, `optimization_barrier`), so it runs as it is
    # on each device's values.
    CONTROL_FLOW = "control flow"
    # Calls the function its `callee` attribute names on its operands
    # (MLIR's `CallOpInterface`).
    CALL = "call"
    # Its sharding rule says all that moves data between positions (but along
    # the dims its `MovesElements` trait names): run on values split as the
    # rule's factors allow, each device computes its part of the result.
    EXACT_RULE = "exact rule"
    # Every result element is a copy of an operand element (or of a padding
    # value), at a position the op's attributes alone decide.
    COPIES_ELEMENTS = "copies elements"
    # Sums products of operand elements along its contracting dims: partial
    # results over a split reduction factor add up.
    CONTRACTION = "contraction"
    # Besides the elementwise ops, what Shardy's op-priority propagation
    # lets through first: ops that only lay out their operand's elements
    # anew (reshapes, transposes).
    PASS_THROUGH = "pass through"
    # Reads or writes a slice of its first operand at offsets given as
    # operands, known only at run time.
    DYNAMIC_SLICING = "dynamic slicing"
    # The identity on one value whose result takes the sharding written on
    # the op (`sdy.sharding_constraint`, `sdy.reshard`).
    SHARDING_ANNOTATION = "sharding annotation"
    # Only guides propagation: on values it is the identity, and the
    # partitioned program has no trace of it.
    PROPAGATION_MARKER = "propagation marker"
    # Describes how the global program of the `shard` dialect is split
    # (a grid, a sharding, the sharding of a value), computing nothing.
    GRID_ANNOTATION = "grid annotation"
    # Its definition's `verify` and `infer_types` read nothing but the op's
    # name, its attributes other than its sharding (`sdy.sharding`) and its
    # operand and result types: not the ops defining its operands, its
    # users, its parent or regions, nor the module. Ops of one such
    # signature verify alike, so the verifier checks one of them. Declared
    # on a definition only once its `verify` and `infer_types` (and what
    # they call) were read to do so.
    VERIFIES_ALONE = "verifies alone"

    def __repr__(self) -> str:
        return self.name


ELEMENTWISE = Trait.ELEMENTWISE
BROADCASTING_ELEMENTWISE = Trait.BROADCASTING_ELEMENTWISE
TERMINATOR = Trait.TERMINATOR
DATA_FLOW = Trait.DATA_FLOW
COMPUTATION = Trait.COMPUTATION
ISOLATED_FROM_ABOVE = Trait.ISOLATED_FROM_ABOVE
RECURSIVE_EFFECTS = Trait.RECURSIVE_EFFECTS
SHARDING_COLLECTIVE = Trait.SHARDING_COLLECTIVE
DEVICE_COLLECTIVE = Trait.DEVICE_COLLECTIVE
GROUPED_DEVICES = Trait.GROUPED_DEVICES
DEVICE_ID = Trait.DEVICE_ID
CONTROL_FLOW = Trait.CONTROL_FLOW
CALL = Trait.CALL
EXACT_RULE = Trait.EXACT_RULE
COPIES_ELEMENTS = Trait.COPIES_ELEMENTS
CONTRACTION = Trait.CONTRACTION
PASS_THROUGH = Trait.PASS_THROUGH
DYNAMIC_SLICING = Trait.DYNAMIC_SLICING
SHARDING_ANNOTATION = Trait.SHARDING_ANNOTATION
PROPAGATION_MARKER = Trait.PROPAGATION_MARKER
GRID_ANNOTATION = Trait.GRID_ANNOTATION
VERIFIES_ALONE = Trait.VERIFIES_ALONE


# -- traits with parameters ----------------------------------------------------------------


@dataclass(frozen=True)
class Combiner:
    """An associative, commutative binary op that combines partial results
    (the body of a reduction, an all-reduce): `kind` names the reduction
    (`"sum"`, `"product"`, `"max"`, `"min"`, `"and"`, `"or"`, `"xor"`);
    `idempotent` when combining a value with itself gives it back.

    >>> [Combiner("min").identity(t) for t in ("int8", "float32", "bool")]
    [np.int8(127), np.float32(inf), np.True_]
    >>> Combiner("and").identity("int32"), Combiner("and").identity("uint8")
    (np.int32(-1), np.uint8(255))
    """

    kind: str
    idempotent: bool = False

    def identity(self, dtype) -> np.generic:
        """The value `e` of `dtype` with `op(e, x) == x` for every `x`
        (`shardonnay.ir.element_values.identity`: -0.0 for a float sum, all
        bits set for `and`, the lowest value for a maximum, ...).

        >>> import ml_dtypes
        >>> float(Combiner("sum").identity(ml_dtypes.bfloat16))
        -0.0
        """
        return identity(self.kind, dtype)


@dataclass(frozen=True)
class NeedsCommunication:
    """Shardy's rule for the op lets shardings pass through factors on which
    the op still needs communication (the partitioner adds it): run shard by
    shard, such an op differs from the whole run, and that is no fault of
    propagation. `reason` says why; `applies(op)` (when given) says whether
    this op, with its attributes, is such a case."""

    reason: str
    applies: Callable[[Op], bool] | None = None

    def holds_for(self, op: Op) -> bool:
        return self.applies is None or self.applies(op)


@dataclass(frozen=True)
class ConservativeRule:
    """How Shardy builds the op's sharding rule for conservative propagation
    (`conservativePropagation`), which never propagates along dims whose
    sharding would need data to move between devices: with
    `blocks_moving_factors`, the factors of dims whose sizes differ between
    tensors (permutation and need-replication factors) are blocked too;
    `unshared_dims(op)`, per tensor (operands, then results), gives the dims
    left without a shared factor. (`shardonnay.ops.rules.conservative_rule`
    makes the change.)"""

    blocks_moving_factors: bool = False
    unshared_dims: Callable[[Op], list[tuple[int, ...]]] | None = None


@dataclass(frozen=True)
class MovesElements:
    """The dims of operand 0 along which the op moves elements to other
    positions, whatever its sharding rule says about them: `dims_of(op)`."""

    dims_of: Callable[[Op], set[int]]


ParametrisedTrait = Combiner | NeedsCommunication | ConservativeRule | MovesElements
_Parametrised = TypeVar(
    "_Parametrised", Combiner, NeedsCommunication, ConservativeRule, MovesElements
)


# -- queries --------------------------------------------------------------------------------


def traits_of(op_or_name: Op | str) -> frozenset:
    """Every trait of an op (or op name); none for an unregistered one.

    >>> {DATA_FLOW, RECURSIVE_EFFECTS} <= traits_of("stablehlo.while")
    True
    >>> traits_of("stablehlo.return"), traits_of("my.unknown_op")
    (frozenset({TERMINATOR}), frozenset())
    """
    return all_traits(op_or_name if isinstance(op_or_name, str) else op_or_name.name)


def has_trait(op_or_name: Op | str, trait: Trait | type) -> bool:
    """Whether the op has `trait`: a `Trait` member, or a class of
    parametrised traits (`Combiner`) for "has one of these"."""
    found = all_traits(op_or_name if isinstance(op_or_name, str) else op_or_name.name)
    if isinstance(trait, Trait):
        return trait in found
    return any(isinstance(t, trait) for t in found)


def trait_of(op_or_name: Op | str, kind: type[_Parametrised]) -> _Parametrised | None:
    """The op's parametrised trait of class `kind`, or None."""
    return next((t for t in traits_of(op_or_name) if isinstance(t, kind)), None)


def is_elementwise(op: Op) -> bool:
    """Whether Shardy treats `op` as elementwise (its `isElementwise`: no
    sideways propagation between operands; a pure one of constants is a
    constant expression): an op with the `ELEMENTWISE` or
    `BROADCASTING_ELEMENTWISE` trait, or a `stablehlo.bitcast_convert` that
    keeps the shape (between element types of one bit width)."""
    if has_trait(op, ELEMENTWISE) or has_trait(op, BROADCASTING_ELEMENTWISE):
        return True
    if op.name == "stablehlo.bitcast_convert":
        return op.operands[0].type.shape == op.results[0].type.shape
    return False


def names_with(trait: Trait | type) -> tuple[str, ...]:
    """The registered op names that have `trait`, sorted.

    >>> names_with(TERMINATOR)
    ('func.return', 'sdy.return', 'stablehlo.return')
    """
    return tuple(n for n in registered_names() if has_trait(n, trait))
