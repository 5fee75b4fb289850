"""Pieces of a global program costed as the per-device programs they become.

The partitioner's choices before reshards become collectives (which operands
a matmul gathers, which sharding an op computes at) are judged by what the
per-device program communicates. A `Fragment` is the piece a choice
changes: some values with their shardings, the sdy ops applied to each
(`Step`s: reshards, all-reduces), optionally one op of the program applied to
the results, and the sdy ops applied to its result. `FragmentCosts.cost`
builds the fragment as a module of its own and costs the per-device program
`partition` makes of it (`program_cost`): alpha-beta time (`CostModel()`'s
defaults) and the bytes the busiest device receives. A choice is taken where
it is `better`: no slower and no more bytes, one of them strictly less.

>>> better((10e-6, 512), (15e-6, 512)), better((10e-6, 1024), (15e-6, 512))
(True, False)
"""

from __future__ import annotations

from collections.abc import Hashable, Mapping
from dataclasses import dataclass
from typing import Any

from shardonnay.errors import ShardonnayError
from shardonnay.ir.attributes import NoExactKey, exact_key
from shardonnay.ir.core import Func, Module, Op, Value
from shardonnay.ir.shardings import SHARDING, set_sharding, sharding_of
from shardonnay.ir.types import TensorType
from shardonnay.partitioner.analysis.cost import collective_costs
from shardonnay.partitioner.per_device import per_device_program
from shardonnay.partitioner.repeated_collectives import merge_repeated_collectives
from shardonnay.partitioner.reshard.planned import lower_reshards
from shardonnay.sharding import TensorSharding

__all__ = [
    "Cost",
    "Fragment",
    "FragmentCosts",
    "Move",
    "Step",
    "better",
    "own_reshards",
    "program_cost",
]

# (alpha-beta seconds, bytes the busiest device receives) of a per-device program.
Cost = tuple[float, int]


def better(after: Cost, before: Cost) -> bool:
    """No slower and no more bytes, and one of them strictly less."""
    return after[0] <= before[0] and after[1] <= before[1] and after != before


def program_cost(module: Module) -> Cost | None:
    """The `Cost` of the per-device program global program `module` becomes
    as `partition` makes it (reshards planned, repeated collectives merged,
    reduce-scatters where cheaper, collectives combined), or None where it
    cannot be made. `module` is left as it is."""
    try:
        explicit = lower_reshards(module.copy())
        merge_repeated_collectives(explicit)
        report = collective_costs(per_device_program(explicit))
    except ShardonnayError:
        return None
    return round(report.time_s, 12), report.bytes_received


def own_reshards(op: Op) -> tuple[Op | None, ...]:
    """Per operand of `op`, the `sdy.reshard` that makes it for `op` alone (its
    one use), or None where the operand is used as it is."""
    owned: list[Op | None] = []
    for v in op.operands:
        defining = v.op
        is_own = defining is not None and defining.name == "sdy.reshard" and len(v.uses) == 1
        owned.append(defining if is_own else None)
    return tuple(owned)


def _name(item: tuple[str, Any]) -> str:
    return item[0]


@dataclass(frozen=True)
class Step:
    """An sdy op applied to a value: its name and attributes."""

    name: str
    attributes: Mapping[str, Any]

    @classmethod
    def of(cls, op: Op) -> Step:
        return cls(op.name, dict(op.attributes))

    @classmethod
    def reshard(cls, sharding: TensorSharding) -> Step:
        return cls("sdy.reshard", {"sharding": sharding})

    def key(self) -> Hashable:
        # (by name: an attribute dict names each once, and a value's text
        # need not be written to order it)
        return self.name, tuple(sorted(self.attributes.items(), key=_name))

    def apply(self, func: Func, value: Value) -> Value:
        """The step on `value`, appended to `func`'s body; its result."""
        op = Op(self.name, [value], [value.type], dict(self.attributes))
        return func.body.append(op).results[0]


@dataclass(frozen=True)
class Move:
    """A value of type `type` sharded `sharding` (None: no sharding written)
    and the steps applied to it in turn."""

    type: TensorType
    sharding: TensorSharding | None
    steps: tuple[Step, ...] = ()

    def key(self) -> Hashable:
        return self.type, self.sharding, tuple(s.key() for s in self.steps)


@dataclass(frozen=True)
class Fragment:
    """`moves`, then `op` (when given) on their results in order, computed
    sharded `sharding`, then `result_steps` on its one result. Without an op
    the moves stand alone."""

    moves: tuple[Move, ...]
    op: Op | None = None
    sharding: TensorSharding | None = None
    result_steps: tuple[Step, ...] = ()

    def key(self) -> Hashable | None:
        """Equal keys build the same module; None where `op`'s attributes have no key."""
        moves = tuple(m.key() for m in self.moves)
        if self.op is None:
            return moves
        try:
            attributes = tuple(
                (k, exact_key(v)) for k, v in self.op.attributes.items() if k != SHARDING
            )
        except NoExactKey:
            return None
        op = (self.op.name, attributes, tuple(r.type for r in self.op.results))
        return moves, op, self.sharding, tuple(s.key() for s in self.result_steps)

    def module(self, meshes_of: Module) -> Module:
        """The fragment as a module of its own, with `meshes_of`'s meshes."""
        scratch = Module()
        for op in meshes_of.ops:
            if op.name == "sdy.mesh":
                scratch.append(op.clone())
        moved = [m.type for m in self.moves]
        returned_types = moved if self.op is None else [r.type for r in self.op.results]
        func = Func.create("main", moved, returned_types)
        ends: list[Value] = []
        for i, move in enumerate(self.moves):
            if move.sharding is not None:
                func.arg_attrs(i)[SHARDING] = move.sharding
            value = func.arguments[i]
            for step in move.steps:
                value = step.apply(func, value)
            ends.append(value)
        if self.op is not None:
            op = func.body.append(self.op.clone(dict(zip(self.op.operands, ends, strict=True))))
            if self.sharding is not None:
                set_sharding(op.results[0], self.sharding)
            value = op.results[0]
            for step in self.result_steps:
                value = step.apply(func, value)
            ends = [value]
        for i, value in enumerate(ends):
            sharding = sharding_of(value)
            if sharding is not None:
                func.result_attrs(i)[SHARDING] = sharding
        func.body.append(Op("func.return", ends))
        scratch.append(func)
        return scratch


class FragmentCosts:
    """The `Cost` of fragments, each built and costed once: programs repeat
    their layers, and with them the same fragments."""

    def __init__(self) -> None:
        self._known: dict[Hashable, Cost | None] = {}

    def cost(self, module: Module, fragment: Fragment) -> Cost | None:
        """`program_cost` of `fragment` on `module`'s meshes (None: it cannot be made)."""
        key = fragment.key()
        if key is not None and key in self._known:
            return self._known[key]
        cost = program_cost(fragment.module(module))
        if key is not None:
            self._known[key] = cost
        return cost
