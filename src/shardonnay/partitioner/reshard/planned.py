"""Each `sdy.reshard` lowered by the cheapest of Shardy's algorithm, `reshard_plan`'s
chain of collectives and a direct exchange of tiles.

`lower_reshards(module, reshards=...)` does what `sdy-reshard-to-collectives`
does (`reshard_to_collectives`): every reshard that goes becomes a chain of
sdy collectives, each stating the sharding it leaves. Each reshard is first
lowered by Shardy's algorithm; then, by `reshards`:

- `"shardy"`: nothing more: the result is Shardy's text;
- `"collectives"`: `reshard_plan(..., shardy_collectives_only=True)` plans the
  same move; where the planned chain makes the busiest device receive fewer
  bytes (both chains costed alone by
  `shardonnay.partitioner.analysis.cost.collective_costs`, as the program is), it
  replaces Shardy's;
- `"shardonnay"` (the default): as `"collectives"`, and where the chosen
  chain receives more than the lower bound (the part of each device's target
  it lacks), the move stays an `sdy.reshard` if the per-device program,
  which lowers a reshard by the cheapest exact exchange it finds
  (`local.moves.reshard`: each device fetching exactly the tiles it lacks,
  at best), then receives fewer bytes. No sdy collective expresses such an
  exchange; it takes more, smaller steps.

On a 2x3 mesh, `[{"x"}, {"y"}] -> [{"y"}, {"x"}]` of a 6x6 f32 tensor:
Shardy's algorithm moves "x" to dim 1, permutes, moves "y" to dim 0 (the
busiest device receives 52 B); the planner's three all-to-alls receive 44 B
(see `reshard_plan`'s docstring); fetching the tiles each device lacks, 24 B:

>>> from shardonnay.syntax.mlir_reader import parse_module
>>> module = parse_module('''
... sdy.mesh @mesh = <["x"=2, "y"=3]>
... func.func @main(%arg0: tensor<6x6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>})
...     -> tensor<6x6xf32> {
...   %0 = sdy.reshard %arg0 <@mesh, [{"y"}, {"x"}]> : tensor<6x6xf32>
...   return %0 : tensor<6x6xf32>
... }''')
>>> shardy = lower_reshards(module.copy(), reshards="shardy")
>>> [op.name for op in shardy.function("main").body.ops][:-1]
['sdy.all_to_all', 'sdy.collective_permute', 'sdy.all_to_all']
>>> planned = lower_reshards(module.copy(), reshards="collectives")
>>> [op.name for op in planned.function("main").body.ops][:-1]
['sdy.all_to_all', 'sdy.all_to_all', 'sdy.all_to_all']
>>> direct = lower_reshards(module.copy())
>>> [op.name for op in direct.function("main").body.ops][:-1]
['sdy.reshard']
>>> from shardonnay.partitioner.analysis.cost import collective_costs
>>> [collective_costs(m).bytes_received for m in (shardy, planned, direct)]
[52, 44, 24]

Where Shardy's lowering passes through an invalid sharding (sub-axes that
overlap, when the two shardings split an axis at incompatible places), the
planned chain replaces it whatever it costs.

Where the planned chain passes through a sharding that does not divide
the tensor evenly, the per-device program adds exchanges that the global
costs do not see (`shardonnay.partitioner.local.convert`): there the planned
chain must also receive no more in the per-device programs of both chains.

Reshards that keep Shardy's lowering: those inside an
`sdy.manual_computation` (the planner sees whole meshes, not the free
axes), those whose input and target differ in pending sums (unreduced
axes), and those the planner cannot express in Shardy's collectives.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise

import numpy as np

from shardonnay.errors import PartitionError, ShardonnayError
from shardonnay.export.insertion import insert_before
from shardonnay.export.reshard_to_collectives import (
    lower_reshard,
    reshard_stays,
    reshard_to_collectives,
)
from shardonnay.ir.core import Func, Module, Op, Value, building
from shardonnay.ir.shardings import SHARDING, sharding_of
from shardonnay.ir.types import TensorType, numpy_dtype
from shardonnay.mesh import Mesh
from shardonnay.ops.manual_computation import inside_manual_computation
from shardonnay.ops.registry import lookup
from shardonnay.partitioner.analysis.cost import collective_costs
from shardonnay.partitioner.local.convert import convert_global_to_local
from shardonnay.partitioner.reshard.plan import ReshardPlan, reshard_plan
from shardonnay.sharding import TensorSharding

__all__ = ["RESHARD_LOWERINGS", "lower_reshards"]

RESHARD_LOWERINGS = ("shardonnay", "collectives", "shardy")


def lower_reshards(module: Module, *, reshards: str = "shardonnay") -> Module:
    """Replaces, in place, every `sdy.reshard` of `module` that goes by
    collectives (see the module docstring); returns `module`.

    Which reshards stay is decided on the module as given, as
    `reshard_to_collectives` does; each is lowered, in program order, from
    the sharding of its input as lowered.
    """
    if reshards not in RESHARD_LOWERINGS:
        raise ValueError(
            f"reshards={reshards!r}: expected one of {', '.join(map(repr, RESHARD_LOWERINGS))}"
        )
    if reshards == "shardy":
        return reshard_to_collectives(module)
    meshes = module.meshes
    direct = reshards == "shardonnay"
    ops = [o for o in module.walk() if o.name == "sdy.reshard"]
    to_lower = [o for o in ops if not reshard_stays(o, meshes)]
    # The collectives it makes stay in the program; the chains they replace and
    # the small scratch programs that cost a move (once per distinct move, see
    # `_CHOSEN`) are the only cycles it leaves: they wait for the collector.
    with building():
        for op in to_lower:
            source = op.operands[0]
            manual = inside_manual_computation(op)
            chain = _chain(source, lower_reshard(op, meshes))
            if chain and not manual:
                _replace_if_cheaper(chain, module, meshes, direct=direct, known=_CHOSEN)
    return module


# The choice of each move, across calls: programs repeat their moves, and the
# partitioner's choices lower a program's reshards several times while it
# weighs them (`shardonnay.partitioner.cheaper_rewrites`). Bounded: the oldest
# half goes when it is full.
_CHOSEN: dict[tuple, list[Step] | None] = {}
_MAX_CHOSEN = 8192


def _chain(source: Value, end: Value) -> list[Op]:
    """The ops from `source` to `end`, each taking the one before it (the
    collectives a reshard was lowered to), in order."""
    chain = []
    while end is not source:
        chain.append(end.op)
        end = end.op.operands[0]
    return chain[::-1]


# -- one reshard's move ----------------------------------------------------------------------


class _Move:
    """A reshard's move: its input value and sharding, its target and type."""

    def __init__(self, source: Value, src: TensorSharding, target: TensorSharding, meshes):
        self.source = source
        self.src = src
        self.target = target
        self.meshes: dict[str, Mesh] = meshes
        self.type: TensorType = source.type

    @classmethod
    def of(cls, chain: Sequence[Op], meshes: dict[str, Mesh]) -> _Move | None:
        for previous, op in pairwise(chain):
            if op.operands[0] is not previous.results[0]:
                return None
        source = chain[0].operands[0]
        target = chain[-1].attributes.get("out_sharding")
        if not isinstance(source.type, TensorType) or not isinstance(target, TensorSharding):
            return None
        src = sharding_of(source) or TensorSharding.replicated_on(target.mesh, target.rank)
        pending = (src.unreduced, src.reduction) if src.unreduced else ()
        if pending != ((target.unreduced, target.reduction) if target.unreduced else ()):
            return None
        return cls(source, src, target, meshes)

    def plan(self) -> ReshardPlan | None:
        """The planner's cheapest chain of Shardy collectives (None: none, or no steps)."""
        try:
            dtype = numpy_dtype(self.type.element_type)
        except ShardonnayError:  # only the byte counts scale with the dtype
            dtype = np.dtype(np.float32)
        try:
            plan = reshard_plan(
                self.src,
                self.target,
                self.meshes,
                self.type.shape,
                dtype,
                shardy_collectives_only=True,
            )
        except PartitionError:
            return None
        if not plan.steps or not plan.is_shardy_expressible:
            return None
        last = plan.steps[-1]
        try:  # the last op states the reshard's own target, as Shardy's lowering does
            last.collective.verify(last.operand, self.target, last.operand_mesh)
        except PartitionError:
            return None
        return plan


def _replace_if_cheaper(
    chain: list[Op],
    module: Module,
    meshes: dict[str, Mesh],
    *,
    direct: bool,
    known: dict[tuple, list[Step] | None],
) -> None:
    """Replaces Shardy's `chain` by the cheapest of the module docstring's
    chains. The choice depends on the move (its input sharding, target and
    type, the module's meshes) and Shardy's chain only, so it is made once
    per such move (`known`: None where Shardy's chain stays)."""
    move = _Move.of(chain, meshes)
    if move is None:
        return
    shardy_steps = [_clone_step(op) for op in chain]
    key = _move_key(move, shardy_steps, direct)
    if key is None:
        choice = _cheapest(module, move, shardy_steps, direct=direct)
    elif key in known:
        choice = known[key]
    else:
        if len(known) >= _MAX_CHOSEN:
            for old in list(known)[: _MAX_CHOSEN // 2]:
                del known[old]
        choice = known[key] = _cheapest(module, move, shardy_steps, direct=direct)
    if choice is None:
        return
    value = move.source
    for name, attributes in choice:
        op = insert_before(chain[0], Op(name, [value], [move.type], dict(attributes)))
        value = op.results[0]
    chain[-1].results[0].replace_all_uses_with(value)
    for op in reversed(chain):
        op.erase()


def _move_key(move: _Move, shardy_steps: list[Step], direct: bool) -> tuple | None:
    """What the choice of `_cheapest` depends on, or None where an attribute
    is no hashable value (then the move is decided afresh)."""
    steps = tuple((name, tuple(attributes.items())) for name, attributes in shardy_steps)
    meshes = tuple(sorted(move.meshes.items()))  # the names the shardings use
    key = (move.src, move.target, move.type, steps, direct, meshes)
    try:
        hash(key)
    except TypeError:
        return None
    return key


def _cheapest(
    module: Module, move: _Move, shardy_steps: list[Step], *, direct: bool
) -> list[Step] | None:
    """The chain replacing Shardy's `shardy_steps` for `move`, or None to keep them."""
    plan = move.plan()
    chosen = shardy_steps
    received = _ReceivedBytes(module, move)
    if plan is not None and _planned_is_cheaper(received, move, plan, shardy_steps):
        chosen = _planned_steps(plan, move.target)
    if direct and _direct_is_cheaper(received, move, chosen):
        chosen = [("sdy.reshard", {"sharding": move.target})]
    return None if chosen is shardy_steps else chosen


def _planned_is_cheaper(
    received: _ReceivedBytes, move: _Move, plan: ReshardPlan, shardy_steps
) -> bool:
    """Whether the planned chain makes the busiest device receive fewer bytes
    than Shardy's (also in the per-device program where shards pad)."""
    planned = _planned_steps(plan, move.target)
    try:
        shardy = received(shardy_steps)
    except ShardonnayError:  # a sharding on the way is invalid: Shardy's lowering fails
        return True
    if received(planned) >= shardy:
        return False
    shardings = [(plan.src, plan.src_mesh)] + [(s.result, s.result_mesh) for s in plan.steps]
    if all(_even(s, m, move.type.shape) for s, m in shardings):
        return True
    try:
        return received(planned, local=True) <= received(shardy_steps, local=True)
    except ShardonnayError:  # one of them cannot be made local: keep Shardy's
        return False


def _direct_is_cheaper(received: _ReceivedBytes, move: _Move, steps) -> bool:
    """Whether leaving the move an `sdy.reshard`, which the per-device program
    lowers by the cheapest exact exchange it finds (each device fetching the
    tiles it lacks, at best), makes the busiest device receive fewer bytes
    there than the chain `steps`. Only tried where the chain receives more
    than the lower bound in the global program."""
    direct = [("sdy.reshard", {"sharding": move.target})]
    try:
        if received(steps) <= received(direct):
            return False
        return received(direct, local=True) < received(steps, local=True)
    except ShardonnayError:
        return False


# -- chains as (op name, attributes) ---------------------------------------------------------

Step = tuple[str, dict]


def _clone_step(op: Op) -> Step:
    return op.name, dict(op.attributes)


def _planned_steps(plan: ReshardPlan, target: TensorSharding) -> list[Step]:
    """The plan's collectives as sdy ops; the last one's out_sharding is `target`."""
    steps = []
    for i, step in enumerate(plan.steps):
        c = step.collective
        attributes: dict = {}
        axes_attribute = getattr(lookup(c.op_name), "axes_attr", None)
        if axes_attribute is not None:
            attributes[axes_attribute] = c.axes_attribute()
        last = i == len(plan.steps) - 1
        attributes["out_sharding"] = target if last else step.result
        steps.append((c.op_name, attributes))
    return steps


class _ReceivedBytes:
    """`_received` for one move, each chain costed once: the comparisons above
    ask for the same chain more than once (Shardy's chain against the planned
    one, then the chosen one against the direct reshard), and costing a chain
    in the per-device program converts a scratch program."""

    def __init__(self, module: Module, move: _Move):
        self.module, self.move = module, move
        self._known: dict[tuple, int | ShardonnayError] = {}

    def __call__(self, steps: list[Step], *, local: bool = False) -> int:
        key = (tuple((name, tuple(sorted(attrs.items(), key=str))) for name, attrs in steps), local)
        if key not in self._known:
            try:
                self._known[key] = _received(self.module, self.move, steps, local=local)
            except ShardonnayError as e:
                self._known[key] = e
        known = self._known[key]
        if isinstance(known, ShardonnayError):
            raise known
        return known


def _received(module: Module, move: _Move, steps, *, local: bool = False) -> int:
    """Bytes the busiest device receives in `steps` applied to the move's
    input, costed by `collective_costs` on a module holding only them (and
    the meshes they use: the busiest device is one of theirs); `local`:
    in the per-device program `convert_global_to_local` makes of them."""
    scratch = Module()  # its devices: those of the meshes the move names
    named = {s.mesh for s in (move.src, move.target) if isinstance(s.mesh, str)}
    for op in module.ops:
        if op.name == "sdy.mesh" and op.attributes["sym_name"] in named:
            scratch.append(op.clone())
    func = Func.create("main", [move.type], [move.type])
    func.arg_attrs(0)[SHARDING] = move.src
    func.result_attrs(0)[SHARDING] = move.target  # returned where the steps leave it
    value = func.arguments[0]
    for name, attributes in steps:
        value = func.body.append(Op(name, [value], [move.type], dict(attributes))).results[0]
    func.body.append(Op("func.return", [value]))
    scratch.append(func)
    return collective_costs(convert_global_to_local(scratch) if local else scratch).bytes_received


def _even(sharding: TensorSharding, mesh: Mesh, shape: Sequence[int]) -> bool:
    """Every dim splits into equal shards (no padding)."""
    return all(n % d.sharded_size(mesh) == 0 for n, d in zip(shape, sharding.dims, strict=True))
