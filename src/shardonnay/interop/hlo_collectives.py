"""XLA's collectives, read from the text of a partitioned HLO module.

XLA's SPMD partitioner writes per-device HLO (`compiled.as_text()` in JAX)
with collectives such as::

    %all-gather = f32[32,16]{1,0} all-gather(%param.1), channel_id=1,
        replica_groups=mesh['axis_0'=2,'axis_1'=4] {'axis_0'}, dimensions={0},
        use_global_device_ids=true
    %all-reduce = f32[8,16]{1,0} all-reduce(%fusion), channel_id=3,
        replica_groups=[2,4]<=[8], use_global_device_ids=true, to_apply=%add
    %collective-permute = f32[4,16]{0,1} collective-permute(%copy),
        channel_id=2, source_target_pairs={{0,0},{2,4},{4,2}}

`parse_hlo_collectives(text)` lists them with their operand and result
shapes and their device groups, whichever of XLA's three spellings of
`replica_groups` is used: explicit (`{{0,1},{2,3}}`), iota
(`[4,2]<=[2,4]T(1,0)`: the transposed iota cut into rows) or mesh
(`mesh['a'=2,'b'=4], device_ids=([4,2]T(1,0)) {'b'}`: devices that differ
only along the listed axes). `hlo_collective_costs(text)` costs them with the
formulas of `shardonnay.partitioner.analysis.cost` (ring all-gather, reduce-scatter and
all-reduce, pairwise all-to-all, point-to-point permute), so that XLA's
partitioning and Shardy's compare byte for byte. Async pairs count once (at
their `-start`); a collective in a loop body counts once.

>>> hlo = '''HloModule m, num_partitions=4
... ENTRY %main (p: f32[2,8]) -> f32[8,8] {
...   %p = f32[2,8]{1,0} parameter(0)
...   ROOT %ag = f32[8,8]{1,0} all-gather(%p), channel_id=1, replica_groups=[1,4]<=[4],
...       dimensions={0}, use_global_device_ids=true
... }'''
>>> (c,) = parse_hlo_collectives(hlo)
>>> c.kind, c.groups, c.operand_bytes, c.result_bytes
('all_gather', ((0, 1, 2, 3),), 64, 256)
>>> hlo_collective_costs(hlo).bytes_received  # 3 shards of 64 B
192
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

import numpy as np

from shardonnay.axes import AxisRef
from shardonnay.collectives.traffic import (
    ALGORITHMS,
    broadcast_traffic,
    buffer_chunk,
    pair_traffic,
    ring_traffic,
)
from shardonnay.errors import ParseError, ShardingError
from shardonnay.mesh import Mesh
from shardonnay.partitioner.analysis.cost_model import CollectiveCost, CostModel, CostReport
from shardonnay.partitioner.reshard.layout_moves import axis_groups, spanned_axes

HLO_KINDS = {
    "all-gather": "all_gather",
    "all-reduce": "all_reduce",
    "reduce-scatter": "reduce_scatter",
    "all-to-all": "all_to_all",
    "collective-permute": "collective_permute",
    "collective-broadcast": "collective_broadcast",
}
# Bytes per element of XLA's primitive types (sub-byte types rounded up).
HLO_ELEMENT_BYTES = {
    "pred": 1, "s2": 1, "u2": 1, "s4": 1, "u4": 1, "s8": 1, "u8": 1, "s16": 2, "u16": 2,
    "s32": 4, "u32": 4, "s64": 8, "u64": 8, "f16": 2, "bf16": 2, "f32": 4, "f64": 8,
    "c64": 8, "c128": 16, "f8e4m3fn": 1, "f8e5m2": 1, "f8e4m3": 1, "f8e5m2fnuz": 1,
    "f8e4m3fnuz": 1, "f8e4m3b11fnuz": 1, "f8e3m4": 1, "f8e8m0fnu": 1, "f4e2m1fn": 1,
    "token": 0,
}  # fmt: skip


@dataclass(frozen=True)
class HloArray:
    """`f32[8,16]`: an element type and dims (the layout is dropped)."""

    element_type: str
    dims: tuple[int, ...]

    @property
    def bytes(self) -> int:
        return math.prod(self.dims) * HLO_ELEMENT_BYTES.get(self.element_type, 0)

    def __str__(self) -> str:
        return f"{self.element_type}[{','.join(map(str, self.dims))}]"


@dataclass(frozen=True)
class HloCollective:
    """One collective instruction of an HLO module.

    `groups` are the device groups (all but collective_permute); `pairs`
    the (source, target) devices of a collective_permute.
    """

    name: str
    kind: str
    computation: str
    operands: tuple[HloArray, ...]
    results: tuple[HloArray, ...]
    groups: tuple[tuple[int, ...], ...] = ()
    pairs: tuple[tuple[int, int], ...] = ()
    mesh_axes: tuple[str, ...] = ()  # the axes of a `mesh[...] {...}` spelling

    @property
    def operand_bytes(self) -> int:
        return sum(a.bytes for a in self.operands)

    @property
    def result_bytes(self) -> int:
        return sum(a.bytes for a in self.results)


_ARRAY = re.compile(r"\b([a-z][a-z0-9]*)\[([0-9,<=]*)\]")
_INSTRUCTION = re.compile(r"^\s*(?:ROOT\s+)?%?([\w.\-]+)\s*=\s*(.+?)\s+([a-z][a-z0-9\-]*)\((.*)$")
_COMPUTATION = re.compile(r"^\s*(?:ENTRY\s+)?%?([\w.\-]+)\s*\(.*\)\s*->.*\{\s*$")


def _arrays(text: str) -> tuple[HloArray, ...]:
    """The arrays of a shape (`f32[8,16]{1,0}` or a tuple of them); a dynamic
    dim `<=8` counts at its bound."""
    return tuple(
        HloArray(element_type, tuple(int(d.lstrip("<=")) for d in dims.split(",") if d))
        for element_type, dims in _ARRAY.findall(text)
        if element_type in HLO_ELEMENT_BYTES
    )


def _split_call(rest: str) -> tuple[str, str]:
    """`operands), attrs` -> (operands, attrs), minding nested brackets."""
    depth = 1
    for i, ch in enumerate(rest):
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
            if depth == 0:
                return rest[:i], rest[i + 1 :]
    return rest, ""


def parse_hlo_collectives(text: str) -> list[HloCollective]:
    """The collectives of HLO module `text`, in the order they are written."""
    num_partitions = _num_partitions(text)
    shapes: dict[str, str] = {}
    found = []
    computation = ""
    for line in text.splitlines():
        header = _COMPUTATION.match(line)
        if header:
            computation = header.group(1)
            continue
        m = _INSTRUCTION.match(line)
        if not m:
            continue
        name, shape, opcode, rest = m.groups()
        shapes[name] = shape
        base = opcode.removesuffix("-start")
        if base in HLO_KINDS:
            found.append((computation, name, shape, opcode, base, rest))
    out = []
    for computation, name, shape, opcode, base, rest in found:
        operand_text, attrs = _split_call(rest)
        operands: list[HloArray] = []
        for operand in _split_top_level(operand_text):
            inline = _arrays(operand.split("%")[0])
            ref = re.search(r"%([\w.\-]+)", operand)
            operands.extend(inline or (_arrays(shapes.get(ref.group(1), "")) if ref else ()))
        results = _arrays(shape)
        if opcode.endswith("-start") and len(results) > len(operands):
            # (operands..., results..., contexts...): keep the results.
            results = results[len(operands) : 2 * len(operands)]
        kind = HLO_KINDS[base]
        where = f"{name} in {computation}"
        common = (name, kind, computation, tuple(operands), results)
        if kind == "collective_permute":
            out.append(HloCollective(*common, pairs=_pairs(attrs, where)))
        else:
            groups, axes = replica_groups(attrs, num_partitions, where)
            out.append(HloCollective(*common, groups=groups, mesh_axes=axes))
    return out


def _split_top_level(text: str) -> list[str]:
    parts, depth, start = [], 0, 0
    for i, ch in enumerate(text):
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return [p.strip() for p in parts if p.strip()]


def _num_partitions(text: str) -> int:
    m = re.search(r"num_partitions=(\d+)", text)
    return int(m.group(1)) if m else 1


_MESH_GROUPS = re.compile(
    r"replica_groups=mesh\[([^\]]*)\]((?:,\s*device_ids=\((?:[^()]|\([^()]*\))*\))?)\s*\{([^}]*)\}"
)
_MESH_AXIS = re.compile(r"'([^']+)'(?::\((\d+)\)(\d+))?")
_IOTA_GROUPS = re.compile(r"replica_groups=\[(\d+),(\d+)\]<=\[([0-9,]+)\](?:T\(([0-9,]+)\))?")
_LISTED_GROUPS = re.compile(r"replica_groups=\{((?:\{[0-9,\s]*\},?\s*)*)\}")


def replica_groups(
    attrs: str, num_partitions: int, where: str = "an instruction"
) -> tuple[tuple[tuple[int, ...], ...], tuple[str, ...]]:
    """(groups, mesh axes) of the `replica_groups=` in an instruction's attributes.

    >>> replica_groups("replica_groups=[4,2]<=[2,4]T(1,0)", 8)[0]
    ((0, 4), (1, 5), (2, 6), (3, 7))
    >>> replica_groups("replica_groups=mesh['a'=2,'b'=4] {'a'}", 8)
    (((0, 4), (1, 5), (2, 6), (3, 7)), ('a',))
    >>> replica_groups("replica_groups={{0,2},{1,3}}", 4)[0]
    ((0, 2), (1, 3))
    """
    m = _MESH_GROUPS.search(attrs)
    if m:
        mesh = _mesh(m.group(1), m.group(2), where)
        axes = [
            AxisRef.sub(a[1], int(a[2]), int(a[3])) if a[2] else AxisRef(a[1])
            for a in _MESH_AXIS.finditer(m.group(3))
        ]
        names = tuple(str(a).replace('"', "") for a in axes)
        return tuple(axis_groups(mesh, axes)), names
    m = _IOTA_GROUPS.search(attrs)
    if m:
        ids = _iota(m.group(3), m.group(4)).reshape(int(m.group(1)), int(m.group(2)))
        return tuple(tuple(int(d) for d in row) for row in ids), ()
    m = _LISTED_GROUPS.search(attrs)
    if m:
        listed = re.findall(r"\{([0-9,\s]*)\}", m.group(1))
        groups = tuple(tuple(int(x) for x in g.split(",") if x.strip()) for g in listed)
        return (groups or (tuple(range(num_partitions)),)), ()
    if "replica_groups" not in attrs:
        return (tuple(range(num_partitions)),), ()
    raise _unreadable(f"{where}: cannot read its replica_groups", attrs, "replica_groups=")


def _unreadable(message: str, text: str, marker: str) -> ParseError:
    """A `ParseError` pointing at `marker` in `text` (an instruction's attributes)."""
    return ParseError(message, text, max(0, text.find(marker)), source="<hlo>")


def _iota(dims: str, perm: str | None) -> np.ndarray:
    shape = [int(x) for x in dims.split(",")]
    ids = np.arange(math.prod(shape)).reshape(shape)
    if perm:
        ids = ids.transpose([int(x) for x in perm.split(",")])
    return ids.reshape(-1)


def _mesh(axes_text: str, device_text: str, where: str) -> Mesh:
    axes = [(n, int(s)) for n, s in re.findall(r"'([^']+)'=(\d+)", axes_text)]
    ids = None
    m = re.search(r"device_ids=\(\[([0-9,]+)\](?:T\(([0-9,]+)\))?\)", device_text)
    if m:
        ids = _iota(m.group(1), m.group(2)).tolist()
    elif device_text.strip():
        explicit = re.search(r"device_ids=\(([0-9,\s]+)\)", device_text)
        if explicit is None:
            raise _unreadable(f"{where}: cannot read the mesh's device_ids", device_text, "(")
        ids = [int(x) for x in explicit.group(1).split(",")]
    if ids is not None and ids == list(range(len(ids))):
        ids = None
    return Mesh(axes, ids)


def _pairs(attrs: str, where: str) -> tuple[tuple[int, int], ...]:
    m = re.search(r"source_target_pairs=\{((?:\{\d+,\d+\},?)*)\}", attrs.replace(" ", ""))
    if m is None:
        raise _unreadable(f"{where}: cannot read its source_target_pairs", attrs, "source_")
    return tuple((int(a), int(b)) for a, b in re.findall(r"\{(\d+),(\d+)\}", m.group(1)))


# -- costs -----------------------------------------------------------------------------------


def hlo_collective_costs(
    text: str, model: CostModel | None = None, mesh: Mesh | None = None
) -> CostReport:
    """The cost of every collective of HLO module `text`, per device.

    Bytes follow the formulas of `shardonnay.partitioner.analysis.cost`. A collective's
    axes are those of the program's `mesh` along which its group varies when
    `mesh` is given (partition i being device i of the mesh), else the axes
    of XLA's own `mesh[...]` spelling (XLA names them `axis_0`, ...; other
    spellings name none); the link model applies to them.
    """
    model = model or CostModel()
    collectives = parse_hlo_collectives(text)
    ids = [
        d
        for c in collectives
        for d in (*(d for g in c.groups for d in g), *(d for p in c.pairs for d in p))
    ]
    num_devices = max(_num_partitions(text), 1 + max(ids, default=0))
    if mesh is not None and mesh.size != num_devices:
        raise ShardingError(f"mesh {mesh} has {mesh.size} devices, the HLO {num_devices}")
    costs = tuple(_cost(c, num_devices, model, mesh) for c in collectives)
    return CostReport(costs, num_devices, model)


def _cost(
    c: HloCollective, num_devices: int, model: CostModel, mesh: Mesh | None
) -> CollectiveCost:
    size_in = c.operand_bytes
    axes = c.mesh_axes
    if mesh is not None:
        axes = spanned_axes(mesh, [p for p in c.pairs if p[0] != p[1]] or c.groups)
    link = tuple(dict.fromkeys(a.split(":")[0] for a in axes))
    if c.kind == "collective_permute":
        sent, received, steps = pair_traffic(c.pairs, num_devices, size_in)
        n = len({d for p in c.pairs if p[0] != p[1] for d in p}) or 1
    elif c.kind == "collective_broadcast":
        n = max((len(g) for g in c.groups), default=1)
        sent, received, steps = broadcast_traffic(c.groups, num_devices, size_in)
    else:  # all_reduce, all_gather, reduce_scatter, all_to_all (array or tuple form)
        n = max((len(g) for g in c.groups), default=1)
        operands = [
            (math.prod(a.dims), HLO_ELEMENT_BYTES.get(a.element_type, 0)) for a in c.operands
        ]
        chunk = buffer_chunk(c.kind, operands, n)
        sent, received, steps = ring_traffic(c.kind, c.groups, num_devices, chunk)
    return CollectiveCost(
        where=f"{c.computation} %{c.name}",
        op_name=c.kind.replace("_", "-"),
        kind=c.kind,
        axes=axes,
        group_size=n,
        shape=", ".join(map(str, c.operands)),
        buffer_bytes=size_in,
        sent=tuple(sent),
        received=tuple(received),
        steps=steps,
        time_s=model.collective_time(link, steps, sent, received),
        algorithm=ALGORITHMS[c.kind],
    )
