"""Independent collectives of a per-device program combined into one, as XLA's
all-reduce, all-gather and reduce-scatter combiners do.

A data-parallel training step all-reduces every gradient separately, each
paying the ring's latency (`2 (n - 1)` steps); the optimizer reads them only
after the whole backward pass. An FSDP step all-gathers every weight shard
separately (`n - 1` steps each), though the shards are all there from the
start. `combine_collectives` merges a collective into the next one of its
block of the same kind, device groups and (for the reducing ones) reduction
when the later one does not depend on its results: the later op moves both
operand lists at once, the same bytes in one collective, and the ops between
them that read the earlier results move after it. A combined collective
takes its operands flattened and concatenated into one buffer and slices its
results back, as XLA's combiners do:

* all-reduce: the flat operands concatenated, one all-reduce, each result a
  slice of it;
* all-gather: the flat operands concatenated, gathered along dim 0 (each
  device's buffer after the one before), seen as `[n, total]`: operand `k`'s
  columns `[n, size_k]` are its `n` shards, put back along the dim it
  gathers (`transpose`, `reshape`);
* reduce-scatter: each operand's scattered dim split as `[n, shard]`, the
  `n` moved first and the rest flattened to `[n, size_k / n]`; those
  concatenated along dim 1 and flattened, one reduce-scatter along dim 0
  gives each device its row, sliced back per operand.

Each operand keeps the dim it moves along: it is the dim where its type and
its result's differ. The earlier results become ready later, so the buffers
live a little longer. An all-gather only moves bits, so it carries operands
of different element types of one width (an argmax's f32 values and i32
indices) as one type (`stablehlo.bitcast_convert`); reductions combine
operands of one element type only.

Collective-permutes combine where no device sends in both and none
receives in both (the rounds of a halo exchange, say: each device sends to
its left neighbour in one, some to their right in another): every sender
sends its own operand, flattened and padded to the longer of the two, and
each receiver takes its part (`_overlay`). One step instead of two, at the
price of the padding.

>>> from shardonnay.syntax.mlir_reader import parse_module
>>> m = parse_module('''
... func.func @main(%a: tensor<4xf32>, %b: tensor<2xf32>) -> (tensor<4xf32>, tensor<2xf32>) {
...   %0 = "stablehlo.all_reduce"(%a) <{replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}> ({
...   ^bb0(%x: tensor<f32>, %y: tensor<f32>):
...     %s = stablehlo.add %x, %y : tensor<f32>
...     stablehlo.return %s : tensor<f32>
...   }) : (tensor<4xf32>) -> tensor<4xf32>
...   %1 = stablehlo.negate %b : tensor<2xf32>
...   %2 = "stablehlo.all_reduce"(%1) <{replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}> ({
...   ^bb0(%x: tensor<f32>, %y: tensor<f32>):
...     %s = stablehlo.add %x, %y : tensor<f32>
...     stablehlo.return %s : tensor<f32>
...   }) : (tensor<2xf32>) -> tensor<2xf32>
...   return %0, %2 : tensor<4xf32>, tensor<2xf32>
... }''')
>>> combine_collectives(m)
1
>>> names = [op.name.removeprefix("stablehlo.") for op in m.function("main").body.ops]
>>> names[:5], names.count("all_reduce")
(['negate', 'reshape', 'reshape', 'concatenate', 'all_reduce'], 1)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from functools import lru_cache, partial

import numpy as np

from shardonnay.errors import ShardonnayError
from shardonnay.ir.attributes import DenseArrayAttr, DenseElementsAttr, IntegerAttr
from shardonnay.ir.core import Block, Module, Op, Region, Value
from shardonnay.ir.types import TensorType, numpy_dtype
from shardonnay.ops.collectives import channel_id, replica_groups
from shardonnay.ops.traits import DEVICE_COLLECTIVE, traits_of

I64 = "i64"

# The attribute naming the dim each kind moves along: per operand, it is read
# from the types (it is where operand and result differ), so it is not part of
# what must agree for two collectives to combine.
_MOVED_DIM = ("all_gather_dim", "scatter_dimension", "split_dimension", "concat_dimension")


def combine_collectives(module: Module) -> int:
    """Combines the all-reduces, all-gathers, reduce-scatters and
    collective-permutes of every block of `module` that can be (in place);
    returns how many were merged into a later one."""
    merged = 0
    devices = _partitions(module)
    texts: dict = {}  # see `_key`
    collectives = _Collectives()
    for block in _function_blocks(module):
        for op in block.ops:
            if collectives[op.name]:
                break
        else:
            continue  # (most blocks: reductions' bodies)
        merged += _combine_in(block, devices, texts, collectives)
        packed = {
            op: _pack(op, block)
            for op in block.ops
            if collectives[op.name] and op.num_operands > 1 and _key(op, texts) is not None
        }
        if packed:  # each variadic collective replaced by its ops, the block rebuilt once
            block.ops[:] = [new for op in block.ops for new in packed.get(op, (op,))]
    return merged


class _Collectives(dict):
    """Op names -> whether the ops of that name are collectives on device ids
    (`DEVICE_COLLECTIVE`): those that may combine (`_key`, `_permute_pairs`)
    are, most ops are not. Filled as names are asked for."""

    def __missing__(self, name: str) -> bool:
        self[name] = found = DEVICE_COLLECTIVE in traits_of(name)
        return found


def _function_blocks(module: Module) -> list[Block]:
    """`module.function_blocks()`, in that order, walking only into the ops
    that have regions."""
    blocks = []
    for func in module.functions:
        blocks.append(func.body)
        for op in func.body.ops:
            if op.regions:
                _add_nested_blocks(op, blocks)
    return blocks


def _add_nested_blocks(op: Op, blocks: list[Block]) -> None:
    """The blocks of `op`'s regions and of the ops in them, outer ops first
    (as `Op.walk` visits the ops), added to `blocks`."""
    pending = [op]  # (the ops whose blocks come next, the next one last)
    while pending:
        op = pending.pop()
        inner = []
        for region in op.regions:
            for block in region.blocks:
                blocks.append(block)
                inner += [o for o in block.ops if o.regions]
        pending += reversed(inner)


def _combine_in(
    block: Block,
    devices: int | None,
    texts: dict | None = None,
    collectives: _Collectives | None = None,
) -> int:
    """Combines the collectives of `block` (see `combine_collectives`): visits
    its ops in order, merging each combinable one into the pending one of its
    kind where it does not depend on it; the ops of the block are rewritten
    once, at the end (`texts`: see `_key`)."""
    if collectives is None:
        collectives = _Collectives()
    merged = 0
    schedule = _Schedule()
    pending: dict[tuple, _Combination] = {}
    permutes: dict[str, list[_Pending]] = {}  # element type -> the latest ones, newest last
    log, at = schedule.log, schedule.at
    for op in list(block.ops):
        at[op] = len(log)  # (placed last)
        log.append(op)
        if not collectives[op.name]:
            continue
        if devices is not None and _permute_pairs(op) is not None:
            recent = permutes.setdefault(op.operands[0].type.element_type, [])
            merged += _overlay_into_recent(block, schedule, recent, op, devices)
            del recent[:-_RECENT_PERMUTES]
            continue
        key = _key(op, texts)
        if key is None:
            continue
        earlier = pending.get(key)
        if earlier is not None:
            readers = earlier.readers_before(op, schedule)
            if readers is not None:
                schedule.merge(earlier, op, readers)
                merged += 1
                continue
        pending[key] = _Combination(schedule, op)
    if merged:  # (else every op is where it was)
        block.ops[:] = schedule.ops_with_combinations(block)
    return merged


def _key(op: Op, texts: dict | None = None) -> tuple | None:
    """What must agree for two collectives to combine, or None (not combinable);
    `texts`: what was worked out for collectives before (see `_looked_up`)."""
    if op.name in ("stablehlo.all_gather", "stablehlo.all_to_all"):
        reduction = None
    elif op.name in ("stablehlo.all_reduce", "stablehlo.reduce_scatter"):
        reduction = _reduction(op)
        if reduction is None:
            return None
    else:
        return None
    rest = _key_rest(op, reduction, None) if texts is None else _looked_up(op, reduction, texts)
    return None if rest is None else (op.name, reduction, *rest)


def _looked_up(op: Op, reduction: str | None, texts: dict) -> tuple | None:
    """`_key_rest` of `op`, kept in `texts` by the objects it reads (the
    attribute values but the channel, the types; kept too, so that their ids
    are not reused): collectives alike share them."""
    attributes = op.attributes
    values = [v for k, v in attributes.items() if k != "channel_handle"]
    types = [v.type for v in (*op.operands, *op.results)]
    look = (op.name, reduction is None, len(op.operands), *attributes, *map(id, values),
            *map(id, types))  # fmt: skip
    known = texts.get(look)
    if known is None:
        known = (_key_rest(op, reduction, texts), values, types)
        if not any(v.__class__ is dict or v.__class__ is list for v in values):  # (may change)
            texts[look] = known
    return known[0]


def _key_rest(op: Op, reduction: str | None, texts: dict | None) -> tuple | None:
    """`_key` of `op` but for its name and reduction: its element type (width)
    and attributes; None where it does not combine."""
    if not op.operands or len(op.results) != len(op.operands):
        return None
    types = [v.type for v in (*op.operands, *op.results)]
    if not all(isinstance(t, TensorType) for t in types):
        return None
    elements = {t.element_type for t in types}
    if reduction is None:  # moves bits: any elements of one width
        elements = {_width(t) for t in types}
    if len(elements) != 1 or None in elements:
        return None
    pairs = list(zip(op.operands, op.results, strict=True))
    if op.name == "stablehlo.all_to_all":
        if any(_split_and_concat(v.type, r.type, _group_size(op)) is None for v, r in pairs):
            return None
    elif op.name != "stablehlo.all_reduce" and any(
        _moved_dim(v.type, r.type) is None for v, r in pairs
    ):
        return None
    text = str if texts is None else partial(_text, texts)
    attributes = tuple(
        sorted(
            (name, text(value))
            for name, value in op.attributes.items()
            if name != "channel_handle" and name not in _MOVED_DIM
        )
    )
    return (elements.pop(), attributes)


def _text(texts: dict, value: object) -> str:
    """`str(value)`, kept in `texts` by its id (collectives share their groups' attributes)."""
    known = texts.get(id(value))
    if known is not None and known[0] is value:
        return known[1]
    text = str(value)
    if not isinstance(value, (dict, list)):  # (those may change)
        texts[id(value)] = (value, text)
    return text


def _reduction(op: Op) -> str | None:
    """The binary op a reducing collective's region applies, or None when the
    region is anything else (then it is not combined)."""
    if len(op.regions) != 1 or len(op.regions[0].blocks) != 1:
        return None
    body = op.regions[0].blocks[0]
    if len(body.arguments) != 2 or len(body.ops) != 2 or body.ops[1].name != "stablehlo.return":
        return None
    reduce = body.ops[0]
    if list(reduce.operands) != list(body.arguments) or body.ops[1].operands != (
        reduce.results[0],
    ):
        return None
    element = body.arguments[0].type
    if not isinstance(element, TensorType):
        return None
    return f"{reduce.name} {element}"


def _moved_dim(operand: TensorType, result: TensorType) -> int | None:
    """The one dim along which an all-gather's or reduce-scatter's operand
    and result differ (None: none or several)."""
    if operand.rank != result.rank:
        return None
    dims = [d for d, (a, b) in enumerate(zip(operand.shape, result.shape, strict=True)) if a != b]
    return dims[0] if len(dims) == 1 else None


def _split_and_concat(operand: TensorType, result: TensorType, n: int) -> tuple[int, int] | None:
    """The dims an all-to-all of `n` devices splits and concatenates along, read
    from the types: the one that shrinks `n` times and the one that grows as
    much (None where the types do not say: one dim for both, say)."""
    if operand.rank != result.rank:
        return None
    changed = [
        d for d, (a, b) in enumerate(zip(operand.shape, result.shape, strict=True)) if a != b
    ]
    if len(changed) != 2:
        return None
    s, c = changed if operand.shape[changed[0]] > result.shape[changed[0]] else changed[::-1]
    if operand.shape[s] != n * result.shape[s] or result.shape[c] != n * operand.shape[c]:
        return None
    return s, c


class _Run:
    """Readers a merge placed again, together, after its later collective: one
    entry of the log (`_Schedule`) stands for them all. A combination whose
    readers are all where its last merge put them (the run intact) places
    the same run again at its next merge, the readers found since added at
    its end: a merge costs what it adds, not every reader of the combination.

    `ops` in their order; `index`: each op's place among them; `entry`: the
    log entry of its latest placement (a placement lists the first `length`
    of `ops`, those it had then)."""

    __slots__ = ("entry", "index", "ops")

    def __init__(self) -> None:
        self.ops: list[Op] = []
        self.index: dict[Op, int] = {}
        self.entry = -1

    def add(self, ops: list[Op]) -> None:
        index, start = self.index, len(self.ops)
        self.ops.extend(ops)
        index.update(zip(ops, range(start, start + len(ops)), strict=True))


# Where an op is: entry `i` of the log at `i << _SHIFT`, an op of a run one
# more than its run's entry and its place in the run (`_Schedule.position`).
_SHIFT = 40


class _Schedule:
    """The ops of a block in the order combining leaves them, built as the
    ops are visited: each visited op is placed last; a merge places the
    readers of the earlier collective's results (the visited ops that read
    them, or what they compute) again, after the later one.

    Placing is appending to `log`, an op placed again leaving a stale entry
    behind (`at` holds each op's latest: its entry, or the `_Run` it is in),
    so a merge costs what it moves, not a scan of the block. The readers a
    merge places again are one entry of the log, a `_Run` placement
    `(run, length, later)`: the first `length` ops of `run`, and the merge's
    later collective. The readers of an overlay (`replace`) are placed one
    entry each. A merged collective (`_Combination`) is stood for by its
    latest member until `ops_with_combinations` builds it."""

    def __init__(self) -> None:
        self.log: list[Op | tuple[_Run, int, Op]] = []
        # the ops placed (not merged away) -> their entry, or the run they are in
        self.at: dict[Op, int | _Run] = {}
        self.combinations: dict[Op, _Combination] = {}  # by each member
        self.events = 0  # merges so far (combinations are built in the order of their last)
        # the ops a merge (or an overlay) placed again -> the run they were placed in,
        # and the runs some of whose ops have been placed again or removed since
        self.run_of: dict[Op, _Run] = {}
        self.broken: set[_Run | None] = set()
        self.overlays = 0  # overlays so far: they change what the ops reading permutes read
        # the operands of ops with regions and of the ops in them (`operands_of`), and
        # the overlays before they were gathered
        self._nested_operands: dict[Op, tuple[int, list[Value]]] = {}

    def place_all(self, ops: list[Op]) -> None:
        start = len(self.log)
        self.log.extend(ops)
        self.at.update(zip(ops, range(start, start + len(ops)), strict=True))

    def position(self, op: Op) -> int:
        """Where placed `op` is: ops in the order of their positions are the
        schedule's order."""
        at = self.at[op]
        if at.__class__ is int:
            return at << _SHIFT
        return (at.entry << _SHIFT) + 1 + at.index[op]

    def standing_for(self, op: Op) -> _Combination | None:
        """The combination `op` stands for (as its latest member), if any."""
        combination = self.combinations.get(op)
        return combination if combination is not None and combination.members[-1] is op else None

    def operands_of(self, op: Op) -> list[Value] | tuple[Value, ...]:
        """What `op` reads: a combination's operands where it stands for one,
        else those of `op` and of the ops nested in it."""
        combination = self.standing_for(op)
        if combination is not None:
            return combination.operands(self.overlays)
        if op.regions:
            known = self._nested_operands.get(op)
            if known is None or known[0] != self.overlays:
                operands = [v for inner in op.walk() for v in inner.operands]
                known = self._nested_operands[op] = (self.overlays, operands)
            return known[1]
        return op.operands

    def results_of(self, op: Op) -> list[Value]:
        """What `op` defines: a combination's results where it stands for one, or `op`'s."""
        combination = self.standing_for(op)
        if combination is None:
            return op.results
        return [r for member in combination.members for r in member.results]

    def merge(self, earlier: _Combination, later: Op, readers: list[Op]) -> None:
        """`later` (placed last) joins `earlier`, whose `readers` are placed
        after it (the first `earlier.kept` of them: its run, placed again)."""
        self._remove(earlier.members[-1])
        earlier.add(later)
        self.combinations[later] = earlier
        earlier.values.update(later.results)
        self.events += 1
        earlier.last_merge = self.events
        if readers:
            run = earlier.run if earlier.kept else _Run()
            self._place_run(run, readers[earlier.kept :], later)
            earlier.run = run
        else:
            earlier.run = None
        earlier.mark = len(self.log)  # its readers are known, placed again

    def replace(self, earlier: Op, later: Op, new: list[Op], readers: list[Op]) -> None:
        """`earlier` and `later` (placed last), whose results no longer have
        uses, erased; the `new` ops placed instead, then the `readers` (one
        entry each: what they read has changed)."""
        for op in (earlier, later):
            self._remove(op)
            op.parent = None  # not searched for in the block: it is rebuilt at the end
            op.erase()
        self.overlays += 1
        self.place_all(new)
        if readers:
            self._leave_runs(readers, _Run())
            self.place_all(readers)

    def _place_run(self, run: _Run, fresh: list[Op], later: Op) -> None:
        """`run` placed last (again), with the ops `fresh` added at its end."""
        if fresh:
            self._leave_runs(fresh, run)
            run.add(fresh)
            self.at.update(dict.fromkeys(fresh, run))
        run.entry = len(self.log)
        self.log.append((run, len(run.ops), later))

    def _leave_runs(self, ops: list[Op], run: _Run) -> None:
        """`ops` out of the runs they were placed in (those broken), now in `run`."""
        self.broken.update(map(self.run_of.get, ops))  # (None for no run: harmless)
        self.run_of.update(dict.fromkeys(ops, run))

    def _remove(self, op: Op) -> None:
        """`op` out of the order (merged away or erased)."""
        del self.at[op]
        run = self.run_of.pop(op, None)
        if run is not None:
            self.broken.add(run)

    def intact(self, run: _Run | None) -> bool:
        """Whether the ops a merge placed in `run` (None: no ops) are all
        still there, in that order."""
        return run is None or run not in self.broken

    def ops_with_combinations(self, block: Block) -> list[Op]:
        """The ops in their order, each combination built (one collective of
        its members' operand lists) in its place; built in the order of their
        last merges, as merging them one after another would."""
        merged = {c.latest: c for c in self.combinations.values() if len(c.members) > 1}
        combinations = sorted(merged.values(), key=lambda c: c.last_merge)
        built = {c.members[-1]: _combined(c.members, block) for c in combinations}
        return self.order(built)

    def order(self, instead: dict[Op, Op] | None = None) -> list[Op]:
        """The placed ops in their order: the log without its stale entries
        (an op of `instead` in its stead)."""
        at, ops = self.at.get, []
        append = ops.append
        for i, entry in enumerate(self.log):
            if entry.__class__ is tuple:
                run = entry[0]
                if run.entry == i:
                    ops += [op for op in run.ops if at(op) is run]
            elif at(entry) == i:
                append(entry)
        if instead:
            ops = [instead.get(op, op) for op in ops]
        return ops


class _Pending:
    """A collective `op` that later ones may merge into, and what is known of
    its readers in a `_Schedule`: the values computed from its results
    (`values`), the ops computing them (`readers`), found among the entries
    of the log before `mark`; a later look reads only the entries since.

    The log is read in order, stale entries too (what an op computes does
    not change where it is placed). The readers a merge moved (a run's
    placement) are all readers where the merge's later collective is one:
    they read the combined results; otherwise the merge changed nothing they
    read and the placement is skipped. An overlay's readers read its new
    ops: each is looked at."""

    def __init__(self, schedule: _Schedule, op: Op) -> None:
        self.op = op
        self.values: set[Value] = set(op.results)
        self.readers: set[Op] = set()
        self.mark = schedule.at[op] + 1
        # `readers` in their order, as the last look found them, and the run a
        # merge placed them in then (None: no run, `ordered` is empty)
        self.ordered: list[Op] = []
        self.run: _Run | None = None
        # how many of `ordered` are the ops of `run`, where they still are (the
        # last look found it intact): the next merge places that run again
        self.kept = 0

    def readers_before(self, later: Op, schedule: _Schedule) -> list[Op] | None:
        """The ops placed between this one and `later` (placed last) that read
        its results or what they compute, in their order; None where `later`
        reads them."""
        if self._is_read_by(later, schedule):
            return None
        values, readers = self.values, self.readers
        log, combinations = schedule.log, schedule.combinations
        found: list[Op] = []  # the readers this look adds
        i, end = self.mark, schedule.at[later]
        while i < end:
            entry = log[i]
            i += 1
            if entry.__class__ is tuple:  # a merge's readers
                run, length, by = entry
                if by in readers:
                    for op in run.ops[:length]:
                        if op not in readers:
                            readers.add(op)
                            found.append(op)
                            values.update(schedule.results_of(op))
                continue
            if entry in readers:
                continue
            if entry.regions or entry in combinations:  # (it reads `operands_of(entry)`)
                if values.isdisjoint(schedule.operands_of(entry)):
                    continue
            elif values.isdisjoint(entry.operands):
                continue
            readers.add(entry)
            found.append(entry)
            values.update(schedule.results_of(entry))
        self.mark = end
        at, position = schedule.at, schedule.position
        if schedule.intact(self.run):
            # the readers known before are where the last merge placed them, in
            # order, before every one found since (all placed after `mark`)
            for op in found:
                if op not in at:  # (merged or erased since)
                    readers.discard(op)
            fresh = sorted((op for op in found if op in at), key=position)
            self.kept = len(self.ordered)
            self.ordered = ordered = [*self.ordered, *fresh]
            return ordered
        self.readers = readers = {op for op in readers if op in at}  # (merged or erased since)
        self.ordered = ordered = sorted(readers, key=position)
        self.kept = 0
        return ordered

    def _is_read_by(self, later: Op, schedule: _Schedule) -> bool:
        """Whether `later` (placed last) reads this collective's results or
        what they compute: a search back from its operands through the ops
        placed after this one (those placed before cannot read it), its
        readers known so far read it."""
        at, combinations, readers = schedule.at.get, schedule.combinations.get, self.readers
        own = self.latest
        start = schedule.position(own)
        seen: set[Op] = set()
        operands = list(later.operands)
        pop, extend = operands.pop, operands.extend
        while operands:
            # (the op placed that defines the value: the latest member of its
            # combination; a block, which defines an argument, is placed nowhere)
            node = pop().defining
            combination = combinations(node)
            if combination is not None:
                node = combination.members[-1]
            where = at(node)
            if where is None:
                continue
            if node is own or node in readers:
                return True
            if node in seen:
                continue
            if where.__class__ is int:
                if where << _SHIFT < start:
                    continue
            elif schedule.position(node) < start:
                continue
            seen.add(node)
            if combination is not None or node.regions:
                extend(schedule.operands_of(node))
            else:
                extend(node.operands)
        return False

    @property
    def latest(self) -> Op:
        """The op standing for this collective in the schedule."""
        return self.op


class _Combination(_Pending):
    """Collectives of one kind merged so far, in order (`members`, the first
    one `op`): one collective of their operand lists where the latest member
    is placed (built by `_Schedule.ops_with_combinations`)."""

    def __init__(self, schedule: _Schedule, op: Op) -> None:
        super().__init__(schedule, op)
        self.members = [op]
        self.last_merge = 0
        schedule.combinations[op] = self
        # the members' operands, gathered as they join (and again after an overlay,
        # which changes what ops read: `_Schedule.overlays`, when they were gathered)
        self._operands: list[Value] = list(op.operands)
        self._overlays = schedule.overlays

    def add(self, op: Op) -> None:
        """`op` joins, the latest member."""
        self.members.append(op)
        self._operands.extend(op.operands)

    def operands(self, overlays: int) -> list[Value]:
        """The members' operands; `overlays`: the schedule's count of them."""
        if overlays != self._overlays:
            self._operands = [v for member in self.members for v in member.operands]
            self._overlays = overlays
        return self._operands

    @property
    def latest(self) -> Op:
        return self.members[-1]


def _combined(members: list[Op], block: Block) -> Op:
    """One collective of the operand lists of `members` (in `block`), with the
    last one's attributes, location and reduction; the members' results
    replaced by its results and the members erased."""
    later = members[-1]
    combined = Op(
        later.name,
        [v for member in members for v in member.operands],
        [t for member in members for t in member.result_types],
        dict(later.attributes),
        location=later.location,
        inherent=later.inherent,
    )
    if later.regions:
        combined.add_region(copied_region(later))
    replacements = iter(combined.results)
    for member in members:
        for result in member.results:
            result.replace_all_uses_with(next(replacements))
    combined.parent = block
    for member in members:  # out of the block already: erase drops their uses
        member.parent = None
        member.erase()
    return combined


@lru_cache(maxsize=4096)
def _tensor_type(shape: tuple[int, ...], element: str) -> TensorType:
    """`TensorType(shape, element)`, one object per type (a combination makes
    the same types for many operands)."""
    return TensorType(shape, element)


@lru_cache(maxsize=4096)
def _i64_array(values: tuple[int, ...]) -> DenseArrayAttr:
    """`DenseArrayAttr(I64, values)`, one object per array."""
    return DenseArrayAttr(I64, values)


class _Builder:
    """Ops of one element type (by default) made in order, `ops`, for `block`;
    `insert` puts them before an op of the block at once (one search of the
    block, not one per op)."""

    def __init__(self, block: Block, element: str) -> None:
        self.block, self.element = block, element
        self.ops: list[Op] = []

    def add(
        self, name: str, operands: list[Value], shape, attributes=None, element: str | None = None
    ) -> Value:
        result = _tensor_type(tuple(shape), element or self.element)
        return self.append(Op(name, operands, [result], attributes or {}))

    def append(self, op: Op) -> Value:
        op.parent = self.block
        self.ops.append(op)
        return op.results[0]

    def reshape(self, x: Value, shape) -> Value:
        return self.add("stablehlo.reshape", [x], shape)

    def bitcast(self, x: Value, element: str | None = None) -> Value:
        """`x` with elements of type `element` (the builder's by default) of
        the same bits: what an all-gather of several element types carries."""
        element = element or self.element
        if x.type.element_type == element:
            return x
        return self.add("stablehlo.bitcast_convert", [x], x.type.shape, element=element)

    def zero(self) -> Value:
        zero = np.zeros((), numpy_dtype(self.element))
        attr = DenseElementsAttr.from_numpy(zero, TensorType((), self.element))
        return self.add("stablehlo.constant", [], (), {"value": attr})

    def concatenate(self, parts: list[Value], dim: int) -> Value:
        shape = list(parts[0].type.shape)
        shape[dim] = sum(p.type.shape[dim] for p in parts)
        return self.add("stablehlo.concatenate", parts, shape, {"dimension": IntegerAttr(dim, I64)})

    def transpose(self, x: Value, permutation: list[int]) -> Value:
        shape = [x.type.shape[p] for p in permutation]
        attributes = {"permutation": DenseArrayAttr(I64, tuple(permutation))}
        return self.add("stablehlo.transpose", [x], shape, attributes)

    def slice(self, x: Value, start: list[int], limit: list[int]) -> Value:
        bounds = {
            "start_indices": _i64_array(tuple(start)),
            "limit_indices": _i64_array(tuple(limit)),
            "strides": _i64_array((1,) * len(start)),
        }
        return self.add("stablehlo.slice", [x], [b - a for a, b in zip(start, limit, strict=True)],
                        bounds)  # fmt: skip

    def collective(self, op: Op, x: Value, shape, *dim_attributes: str) -> Value:
        """`op`'s collective (its groups, reduction) on the one buffer `x`, along dim 0."""
        attributes = dict(op.attributes)
        for name in dim_attributes:
            attributes[name] = IntegerAttr(0, I64)
        single = Op(op.name, [x], [_tensor_type(tuple(shape), self.element)], attributes,
                    location=op.location)  # fmt: skip
        if op.regions:
            single.add_region(copied_region(op))
        return self.append(single)


# -- collective-permutes ---------------------------------------------------------------

_RECENT_PERMUTES = 4  # the permutes before it that a collective-permute may join


def _partitions(module: Module) -> int | None:
    """How many partitions run `module` (its `mhlo.num_partitions`, at least
    one), or None where its collective-permutes are not combined: programs
    of several replicas, or of no declared partition count."""
    replicas = module.attributes.get("mhlo.num_replicas")
    partitions = module.attributes.get("mhlo.num_partitions")
    if isinstance(replicas, IntegerAttr) and replicas.value != 1:
        return None
    return partitions.value if isinstance(partitions, IntegerAttr) else None


def _permute_pairs(op: Op) -> list[tuple[int, int]] | None:
    """The (source, target) partition pairs of a collective-permute of one
    tensor between partitions, or None for any other op."""
    if op.name != "stablehlo.collective_permute" or len(op.operands) != 1:
        return None
    if not isinstance(op.operands[0].type, TensorType) or channel_id(op) <= 0:
        return None
    return [(s, t) for s, t in replica_groups(op, "source_target_pairs")]


def _overlay_into_recent(
    block: Block, schedule: _Schedule, recent: list[_Pending], later: Op, devices: int
) -> int:
    """Merges `later`, a collective-permute (placed last in `schedule`), into
    the nearest of the `recent` ones whose senders and receivers are all
    different from its own and on which it does not depend (`_overlay`);
    returns 1 where it did, 0 where it joins `recent` on its own."""
    pairs = _permute_pairs(later)
    sources, targets = {s for s, _ in pairs}, {t for _, t in pairs}
    for i in range(len(recent) - 1, -1, -1):
        earlier = _permute_pairs(recent[i].op)
        if any(s in sources for s, _ in earlier) or any(t in targets for _, t in earlier):
            continue
        readers = recent[i].readers_before(later, schedule)
        if readers is not None:
            earlier = recent.pop(i).op
            new = _overlay(block, earlier, later, devices)
            schedule.replace(earlier, later, new, readers)
            recent.append(_Pending(schedule, _permute_of(new)))
            return 1
    recent.append(_Pending(schedule, later))
    return 0


def _permute_of(ops: list[Op]) -> Op:
    """The collective-permute among the ops `_overlay` makes."""
    return next(op for op in ops if op.name == "stablehlo.collective_permute")


def _overlay(block: Block, earlier: Op, later: Op, devices: int) -> list[Op]:
    """The ops (for `block`) of one collective-permute doing what `earlier` and
    `later` do, where no device sends in both and none receives in both: each
    sender sends its own operand flattened (padded to the longer of the two), each
    receiver takes its part and reshapes it back; the parts a device does
    not receive are zeros, as a collective-permute gives them. Under the
    alpha-beta model the merged permute's one step and longer buffer,
    `alpha + max(b1, b2) / beta`, never cost more than the two's
    `2 alpha + (b1 + b2) / beta`; the busiest device may receive more bytes.

    For example, `[[0, 1]]` sending 4 elements and `[[1, 0]]` sending 2
    become `[[0, 1], [1, 0]]` sending 4: device 1 sends its 2 elements and
    2 of padding, device 0 keeps the first 2 of the 4 it receives. The
    results of `earlier` and `later` are replaced by their parts."""
    x, y = earlier.operands[0], later.operands[0]
    b = _Builder(block, x.type.element_type)
    sizes = (math.prod(x.type.shape), math.prod(y.type.shape))
    width = max(sizes)
    pid = b.add("stablehlo.partition_id", [], (), element="ui32")
    pid = b.add("stablehlo.convert", [pid], (), element=I64)
    early_pairs = _permute_pairs(earlier)

    def is_early(column: int, shape) -> Value:
        """Whether this device is a source (column 0) or target (1) of the earlier one."""
        ids = {pair[column] for pair in early_pairs}
        top = max(devices, *(d + 1 for pair in early_pairs for d in pair))
        table = np.array([d in ids for d in range(top)])
        constant = b.add(
            "stablehlo.constant", [], (top,),
            {"value": DenseElementsAttr.from_numpy(table, TensorType((top,), "i1"))}, "i1",
        )  # fmt: skip
        entry = b.add("stablehlo.dynamic_slice", [constant, pid], (1,),
                      {"slice_sizes": DenseArrayAttr(I64, (1,))}, "i1")  # fmt: skip
        flag = b.add("stablehlo.reshape", [entry], (), element="i1")
        return b.add("stablehlo.broadcast_in_dim", [flag], shape,
                     {"broadcast_dimensions": DenseArrayAttr(I64, ())}, "i1")  # fmt: skip

    flat = []
    for v, size in zip((x, y), sizes, strict=True):
        part = b.reshape(v, (size,))
        if size < width:
            part = b.add("stablehlo.pad", [part, b.zero()], (width,), {
                "edge_padding_low": DenseArrayAttr(I64, (0,)),
                "edge_padding_high": DenseArrayAttr(I64, (width - size,)),
                "interior_padding": DenseArrayAttr(I64, (0,)),
            })  # fmt: skip
        flat.append(part)
    sent = b.add("stablehlo.select", [is_early(0, (width,)), *flat], (width,))
    pairs = sorted([*early_pairs, *_permute_pairs(later)])
    attributes = dict(later.attributes)
    attributes["source_target_pairs"] = DenseElementsAttr.from_numpy(
        np.array(pairs, np.int64), TensorType((len(pairs), 2), I64)
    )
    combined = Op(later.name, [sent], [sent.type], attributes, location=later.location)
    received = b.append(combined)
    early = is_early(1, (width,))
    zeros = b.add("stablehlo.broadcast_in_dim", [b.zero()], (width,),
                  {"broadcast_dimensions": DenseArrayAttr(I64, ())})  # fmt: skip
    parts = (
        b.add("stablehlo.select", [early, received, zeros], (width,)),
        b.add("stablehlo.select", [early, zeros, received], (width,)),
    )
    for old, part, size in zip((earlier, later), parts, sizes, strict=True):
        if size < width:
            part = b.slice(part, [0], [size])
        old.results[0].replace_all_uses_with(b.reshape(part, old.result_types[0].shape))
    return b.ops


def _pack(op: Op, block: Block) -> list[Op]:
    """`op`, a variadic collective, as one collective of one buffer (what
    XLA's combiners make; a tuple-shaped collective is not what every XLA
    pipeline accepts): see the module docstring for each kind. Returns the
    ops (for `block`) to put in `op`'s place; `op` is erased, its place in
    `block.ops` left for the caller to fill."""
    b = _Builder(block, op.operands[0].type.element_type)
    n = _group_size(op)
    pairs = list(zip(op.operands, op.results, strict=True))
    if op.name == "stablehlo.all_reduce":
        sizes = [math.prod(v.type.shape) for v in op.operands]
        flat = [b.reshape(v, (size,)) for v, size in zip(op.operands, sizes, strict=True)]
        joined = b.concatenate(flat, 0)
        reduced = b.collective(op, joined, joined.type.shape)
        rows = [reduced]
        columns = sizes
    elif op.name == "stablehlo.all_gather":
        sizes = [math.prod(v.type.shape) for v in op.operands]
        flat = [
            b.bitcast(b.add("stablehlo.reshape", [v], (size,), element=v.type.element_type))
            for v, size in zip(op.operands, sizes, strict=True)
        ]
        joined = b.concatenate(flat, 0)
        total = joined.type.shape[0]
        gathered = b.collective(op, joined, (n * total,), "all_gather_dim")
        rows = [b.reshape(gathered, (n, total))]
        columns = sizes
    elif op.name == "stablehlo.all_to_all":
        splits = [_split_and_concat(v.type, r.type, n)[0] for v, r in pairs]
        grids = [_grid(b, b.bitcast(v), d, n) for v, d in zip(op.operands, splits, strict=True)]
        columns = [g.type.shape[1] for g in grids]
        joined = b.reshape(b.concatenate(grids, 1), (n * sum(columns),))
        exchanged = b.collective(op, joined, joined.type.shape, *_MOVED_DIM[2:])
        rows = [b.reshape(exchanged, (n, sum(columns)))]
    else:  # reduce-scatter
        columns = [math.prod(r.type.shape) for r in op.results]
        grids = [_grid(b, v, _moved_dim(v.type, r.type), n) for v, r in pairs]
        joined = b.reshape(b.concatenate(grids, 1), (n * sum(columns),))
        rows = [b.collective(op, joined, (sum(columns),), "scatter_dimension")]
    start = 0
    for (operand, result), size in zip(pairs, columns, strict=True):
        row = rows[0]
        if op.name == "stablehlo.all_gather":
            part = b.slice(row, [0, start], [n, start + size])
            dim = _moved_dim(operand.type, result.type)
            value = _ungrid(b, part, operand.type.shape, dim, result.type.shape)
            value = b.bitcast(value, result.type.element_type)
        elif op.name == "stablehlo.all_to_all":
            part = b.slice(row, [0, start], [n, start + size])
            split, concat = _split_and_concat(operand.type, result.type, n)
            block = list(operand.type.shape)
            block[split] //= n
            value = _ungrid(b, part, block, concat, result.type.shape)
            value = b.bitcast(value, result.type.element_type)
        else:
            part = b.slice(row, [start], [start + size])
            value = b.reshape(part, result.type.shape)
        result.replace_all_uses_with(value)
        start += size
    op.parent = None  # (out of the block, which `combine_collectives` rebuilds)
    op.erase()
    return b.ops


def _width(t: TensorType) -> int | None:
    """Bits per element where a `bitcast_convert` carries elements of `t` as
    any other of that width (not booleans, complex numbers or unknown types)."""
    try:
        dtype = t.dtype
    except ShardonnayError:
        return None
    return None if dtype.kind in "bc" else dtype.itemsize * 8


def _group_size(op: Op) -> int:
    """Devices per group of `op`'s `replica_groups` (all groups alike)."""
    return max(map(len, replica_groups(op)))


def _grid(b: _Builder, operand: Value, dim: int, n: int) -> Value:
    """`operand` as `[n, size / n]`, its `dim` split as `[n, size / n]`, `n`
    first: row `i` is what goes to (or stays with) device `i` of the group (a
    reduce-scatter's shard, an all-to-all's block)."""
    shape = operand.type.shape
    split = [*shape[:dim], n, shape[dim] // n, *shape[dim + 1 :]]
    x = b.reshape(operand, split)
    if dim:
        x = b.transpose(x, [dim, *range(dim), *range(dim + 1, len(split))])
    return b.reshape(x, (n, math.prod(shape) // n))


def _ungrid(b: _Builder, part: Value, block: Sequence[int], dim: int, result) -> Value:
    """`[n, size]` rows, each a `block` from device `i` of the group, put side
    by side along `dim` into the shape `result` (an all-gather's shards, an
    all-to-all's blocks)."""
    n = part.type.shape[0]
    x = b.reshape(part, (n, *block))
    if dim:
        x = b.transpose(x, [*range(1, dim + 1), 0, *range(dim + 1, len(block) + 1)])
    return b.reshape(x, result)


def copied_region(op: Op) -> Region:
    """A copy of `op`'s (last) region, detached: the reduction a new collective takes."""
    copy = op.clone()
    region = copy.regions.pop()
    copy.operands = []  # the detached copy no longer uses op's operands
    return region
