"""Where does a global program with explicit collectives still need communication?

Shardy's partitioner (`sdy-insert-explicit-reshards`, `sdy-reshard-to-collectives`)
aims for a global program in which every op can run on each device's shards
as they stand, all communication being its sdy collectives. Where it leaves
an op that cannot, whoever turns the program into per-device code (XLA, or
`convert_global_to_local`) must add communication that the program's
collectives do not show, so a count of those collectives understates what
the program moves. `implicit_communication(module)` finds those ops:

- an op with a sharding rule whose shardings conflict on a factor, or shard
  one that must not be (need-replication, permutation), or agree but whose
  shard-by-shard run on random data differs from the whole op
  (`propagation.shard_by_shard.check_shard_by_shard`); where that run
  cannot judge (uneven shards of a dim holding several factors), an op that
  copies elements (reshape, transpose, slice, pad, ...) is run on arrays of
  global ids (`halo.need.op_need`) to see whether a device reads elements it
  does not hold;
- an op without a sharding rule with a sharded operand or result: nothing
  says which shard of the result needs which of the operand, so the operand
  must be gathered (a replicated result of a sharded operand, say);
- an `sdy.all_reduce` of one result of a joint reduction (an argmax's value
  or index): the pairs must be compared together, not summed one by one;
- an op whose tensors are pinned to a device (a maximal mesh) and
  elsewhere: the values move between devices;
- a value used where another sharding is expected without an op between:
  an operand on another mesh than the op, a `func.call` operand or result,
  or a returned value whose layout (`shardonnay.layout.equivalent`) is not
  the callee's or function's.

For example, Shardy's partitioner leaves `chlo.square` (no rule) on an
operand sharded `[{"data"}, {}]` with a replicated result: each device needs
the other half of the operand.

>>> from shardonnay.syntax.mlir_reader import parse_module
>>> m = parse_module('''
... sdy.mesh @mesh = <["x"=2]>
... func.func @main(%a: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>})
...     -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) {
...   %0 = stablehlo.negate %a {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>}
...       : tensor<8xf32>
...   %1 = stablehlo.reverse %0, dims = [0]
...       {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>} : tensor<8xf32>
...   return %1 : tensor<8xf32>
... }''')
>>> [f.op for f in implicit_communication(m)]
['stablehlo.reverse']
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace

import numpy as np

from shardonnay.errors import ShardonnayError
from shardonnay.ir.core import Func, Module, Op, Value
from shardonnay.ir.shardings import SHARDING, mesh_of, sharding_of
from shardonnay.ir.types import TensorType
from shardonnay.ir.verifier import verify
from shardonnay.layout import equivalent
from shardonnay.mesh import Mesh
from shardonnay.ops.rules import rule_for
from shardonnay.ops.traits import (
    COPIES_ELEMENTS,
    DATA_FLOW,
    SHARDING_ANNOTATION,
    TERMINATOR,
    has_trait,
    is_elementwise,
)
from shardonnay.partitioner.analysis.cost import SDY_COLLECTIVES
from shardonnay.partitioner.halo.need import op_need
from shardonnay.propagation.checks.shard_by_shard import Verdict, check_shard_by_shard
from shardonnay.runtime.interpreter import Interpreter
from shardonnay.sharding import TensorSharding
from shardonnay.syntax.mlir_writer import OpPrinter

__all__ = ["ImplicitCommunication", "implicit_communication"]


def _skipped(op: Op) -> bool:
    """Whether `op` moves no data itself (a terminator, a data-flow op) or its
    shardings say what it needs (a sharding annotation)."""
    return any(has_trait(op, t) for t in (TERMINATOR, DATA_FLOW, SHARDING_ANNOTATION))


@dataclass(frozen=True)
class ImplicitCommunication:
    """An op at `where` (`%3 in @main`) that needs communication its program
    does not make explicit, and why."""

    op: str
    where: str
    reason: str

    def __str__(self) -> str:
        return f"{self.where} ({self.op}): {self.reason}"


def implicit_communication(module: Module, *, seed: int = 0) -> list[ImplicitCommunication]:
    """The ops of `module` (a global program with explicit collectives) that
    need communication none of its collectives does (see the module
    docstring). `seed` draws the data of the shard-by-shard runs."""
    verify(module)  # unknown meshes, shardings that do not fit: IRError naming the op
    finder = _Finder(module, seed)
    return [found for func in module.functions for found in finder.function(func)]


class _Finder:
    def __init__(self, module: Module, seed: int):
        self.module = module
        self.meshes: dict[str, Mesh] = dict(module.meshes)
        self.functions = {f.name: f for f in module.functions}
        self.interpreter = Interpreter(module)
        self.rng = np.random.default_rng(seed)
        self.printer = OpPrinter()
        self.printer.names.number(module.body.ops)

    def function(self, func: Func) -> Iterator[ImplicitCommunication]:
        for op in func.walk():
            reason = _joint_reduction(op) if op.name in SDY_COLLECTIVES else self._reason(op, func)
            if reason is not None:
                where = f"{self._name(op)} in @{func.name}"
                yield ImplicitCommunication(op.name, where, reason)

    def _name(self, op: Op) -> str:
        return self.printer.name(op.results[0]) if op.results else op.name

    def _reason(self, op: Op, func: Func) -> str | None:
        if op.name == "func.return" and op.parent_op is func.op:
            return self._boundary(op.operands, _result_shardings(func), "returned")
        if op.name == "func.call":
            callee = self.functions.get(op.attributes["callee"].name)
            if callee is None:
                return None
            args = [sharding_of(a) for a in callee.arguments]
            found = self._boundary(op.operands, args, "passed to the callee")
            if found is None:
                results = [sharding_of(r) for r in op.results]
                found = self._mismatch(
                    results, _result_shardings(callee), op.results, "returned by the callee"
                )
            return found
        if (
            _skipped(op)
            or not op.operands  # constants and iotas are computed where they are
            or not all(isinstance(v.type, TensorType) for v in (*op.operands, *op.results))
        ):
            return None
        operands = [sharding_of(v) for v in op.operands]
        results = [sharding_of(r) for r in op.results]
        if any(self._pinned(s) is not None for s in (*operands, *results)):
            return self._on_one_device(operands, results)
        shardings = [s for s in (*operands, *results) if s is not None]
        if not any(self._split(s) for s in shardings):
            return None
        meshes = {mesh_of(s, self.meshes) for s in shardings if self._split(s)}
        if len(meshes) > 1:
            return self._across_meshes(op, results[0] if results else None)
        (mesh,) = meshes
        try:
            rule = rule_for(op)
        except (ShardonnayError, KeyError):
            rule = None
        if rule is None:
            if is_elementwise(op):
                return self._boundary(op.operands, [results[0]] * len(op.operands), "used")
            return "no sharding rule: its sharded tensors must be gathered"
        try:
            verdict = check_shard_by_shard(
                op, operands, results, mesh, rule=rule, interpreter=self.interpreter, rng=self.rng
            )
        except ShardonnayError as e:
            return f"cannot run shard by shard: {e}"
        # Every result element a copy of an operand element (or a pad value):
        # what a device lacks is found by running the op on global ids.
        if verdict.status is Verdict.NOT_RUN and has_trait(op, COPIES_ELEMENTS):
            return self._lacking(op, operands, results[0], mesh)
        if verdict.status in (Verdict.MATCHES, Verdict.UNSHARDED, Verdict.NOT_RUN):
            return None
        if verdict.status is Verdict.NEEDS_COMMUNICATION and _updates_replicated(op, operands):
            return None  # each shard applies the updates aimed at it
        return verdict.reason

    def _lacking(
        self,
        op: Op,
        operands: Sequence[TensorSharding | None],
        result: TensorSharding | None,
        mesh: Mesh,
    ) -> str | None:
        """An op that copies elements, judged on arrays of global ids
        (`halo.need.op_need`): the devices whose result shard reads elements
        their operand shards lack (uneven shards the factor run cannot judge)."""
        values = [*op.operands, op.results[0]]
        shardings = [
            s if s is not None else TensorSharding.replicated_on(mesh, len(v.type.shape))
            for s, v in zip([*operands, result], values, strict=True)
        ]
        data = shardings[:1] if op.name == "stablehlo.pad" else shardings[:-1]
        lacking = op_need(op, data, shardings[-1], mesh)
        if not any(lacking):
            return None
        worst = max(range(len(lacking)), key=lambda d: lacking[d])
        return (
            f"device {worst} lacks {lacking[worst]} elements its result shard reads "
            "(shards that do not line up)"
        )

    def _across_meshes(self, op: Op, result: TensorSharding | None) -> str | None:
        """An op whose tensors are on several meshes: nothing to move only when
        each operand is laid out as its (same-shaped) result."""
        shape = op.results[0].type.shape if op.results else None
        if result is None or any(v.type.shape != shape for v in op.operands):
            return "its tensors are on different meshes"
        return self._boundary(op.operands, [result] * len(op.operands), "used on another mesh")

    def _on_one_device(
        self, operands: Sequence[TensorSharding | None], results: Sequence[TensorSharding | None]
    ) -> str | None:
        """An op some of whose tensors are pinned to a device: it runs there
        alone when its results are all pinned to that device and its operands
        are pinned there or whole everywhere."""
        devices = {self._pinned(s) for s in (*operands, *results)} - {None}
        if len(devices) > 1:
            return f"its tensors are pinned to different devices {sorted(devices)}"
        (device,) = devices
        if any(self._pinned(r) is None for r in results):
            return f"a result computed on device {device} is needed elsewhere"
        if any(s is not None and self._pinned(s) is None and self._split(s) for s in operands):
            return f"device {device} lacks the other shards of a split operand"
        return None

    def _pinned(self, s: TensorSharding | None) -> int | None:
        """The device a maximal sharding pins its value to (None: not pinned)."""
        if s is None:
            return None
        mesh = mesh_of(s, self.meshes)
        return mesh.device_list[0] if mesh.is_maximal else None

    def _split(self, s: TensorSharding) -> bool:
        mesh = mesh_of(s, self.meshes)
        return any(a.size(mesh) > 1 for a in (*s.dim_axes(), *s.unreduced))

    def _boundary(
        self, values: Sequence[Value], expected: Sequence[TensorSharding | None], what: str
    ) -> str | None:
        return self._mismatch([sharding_of(v) for v in values], expected, values, what)

    def _mismatch(
        self,
        have: Sequence[TensorSharding | None],
        expected: Sequence[TensorSharding | None],
        values: Sequence[Value],
        what: str,
    ) -> str | None:
        for i, (a, b, v) in enumerate(zip(have, expected, values, strict=True)):
            if not isinstance(v.type, TensorType) or self._same_layout(a, b, v.type.shape):
                continue
            return f"value {i} {what} is laid out {_text(a)} but {_text(b)} is expected"
        return None

    def _same_layout(
        self, a: TensorSharding | None, b: TensorSharding | None, shape: Sequence[int]
    ) -> bool:
        if self._pinned(a) is not None or self._pinned(b) is not None:
            return self._pinned(a) == self._pinned(b)
        a, b = self._inline(a), self._inline(b)
        if a is None or b is None:
            return a is b
        return equivalent(a, b, None, shape)

    def _inline(self, s: TensorSharding | None) -> TensorSharding | None:
        if s is None or not self._split(s):
            return None  # replicated: the same whole value on every device
        return replace(s, mesh=mesh_of(s, self.meshes))


def _joint_reduction(op: Op) -> str | None:
    """An `sdy.all_reduce` of one result of a reduction of several operands
    (an argmax's value and index): each result combines alone, but the
    reduction compares them together, so the partial results are exchanged
    whole instead."""
    if op.name != "sdy.all_reduce":
        return None
    producer = op.operands[0].op
    if producer is None or producer.name != "stablehlo.reduce" or len(producer.results) < 2:
        return None
    return "an all_reduce cannot combine the results of a joint reduction (an argmax) one by one"


def _updates_replicated(op: Op, operands: Sequence[TensorSharding | None]) -> bool:
    """A dynamic_update_slice or scatter whose updates and indices every device
    holds whole: each device applies those aimed at its shard of operand 0."""
    return op.name in (
        "stablehlo.dynamic_update_slice",
        "stablehlo.scatter",
    ) and not any(s is not None and s.dim_axes() for s in operands[1:])


def _result_shardings(func: Func) -> list[TensorSharding | None]:
    attrs = func.op.attributes.get("res_attrs") or ({},) * len(func.type.results)
    return [a.get(SHARDING) for a in attrs]


def _text(s: TensorSharding | None) -> str:
    return "replicated" if s is None else str(s)
