"""GSPMD's annotations (`mhlo.sharding`, `@Sharding` custom calls) read onto sdy meshes.

`MeshImporter` builds, for all the `HloSharding`s of one module, the one mesh
`@mesh` whose axes cut the device ids wherever any tile assignment does (plus a
mesh per device list that is no iota, and `@maximal_mesh_n` for maximal
shardings), and reads each sharding onto it as an `Annotation`: the sdy
sharding of its free part and the axes it is manual on (`{manual}`,
`last_tile_dims={manual, ...}`). `shardonnay.interop.gspmd_module` uses it to
import whole modules.

>>> [str(h) for h in parse_hlo_shardings("{{replicated}, {devices=[2]0,1}}")]
['{replicated}', '{devices=[2]<=[2]}']
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, replace
from itertools import pairwise
from typing import Any

from shardonnay.errors import ShardingError
from shardonnay.interop.gspmd import HloSharding, refine_factorizations, to_tensor_sharding
from shardonnay.ir.core import Module, Op
from shardonnay.ir.types import TensorType
from shardonnay.mesh import Mesh
from shardonnay.sharding import DimSharding, TensorSharding
from shardonnay.syntax.cursor import Cursor

ATTR = "mhlo.sharding"
SHARDING = "Sharding"
FULL_TO_SHARD = "SPMDFullToShardShape"
SHARD_TO_FULL = "SPMDShardToFullShape"
_UNSPECIFIED = re.compile(r"unspecified_dims=\[([0-9,\s]*)\]")


# -- reading shardings -------------------------------------------------------------------


def parse_hlo_shardings(text: str) -> tuple[HloSharding, ...]:
    """One sharding per value: a tuple sharding `{{...}, {...}}` gives one per element.

    >>> [str(h) for h in parse_hlo_shardings("{{replicated}, {devices=[2]0,1}}")]
    ['{replicated}', '{devices=[2]<=[2]}']
    >>> [str(h) for h in parse_hlo_shardings("{maximal device=1}")]
    ['{maximal device=1}']
    """
    stripped = text.strip()
    if not stripped.startswith("{") or not stripped[1:].lstrip().startswith("{"):
        return (HloSharding.parse(text),)
    cursor = Cursor(text)
    cursor.expect("{", "'{' starting a tuple sharding")
    if cursor.accept("}"):
        return ()
    elements = []
    while True:
        cursor.skip_space()
        start = cursor.pos
        depth = 0
        while True:
            if cursor.pos >= len(text):
                raise cursor.error("unterminated tuple sharding")
            char = text[cursor.pos]
            cursor.pos += 1
            depth += {"{": 1, "}": -1}.get(char, 0)
            if depth == 0:
                break
        elements.append(HloSharding.parse(text[start : cursor.pos]))
        if cursor.accept("}"):
            cursor.expect_end()
            return tuple(elements)
        cursor.expect(",", "',' or '}' after a tuple element")


@dataclass(frozen=True)
class Annotation:
    """One sharding of a value in sdy terms: its free part and its manual axes."""

    sharding: TensorSharding
    manual: tuple[str, ...]


class MeshImporter:
    """The mesh for all of a module's GSPMD shardings, and each sharding on it."""

    def __init__(self, module: Module, shardings: list[HloSharding]):
        self.mesh = _common_mesh(module, shardings)
        self.maximal: dict[int, str] = {}
        self.ordered: dict[Mesh, str] = {}  # meshes with device_ids, for device lists

    def convert(self, hlo: HloSharding, type: Any, where: str) -> Annotation:
        rank = len(type.shape) if isinstance(type, TensorType) else 0
        try:
            return self._convert(hlo, rank)
        except ShardingError as e:
            raise ShardingError(f"{where}: {ATTR} {str(hlo)!r}: {e}") from None

    def _convert(self, hlo: HloSharding, rank: int) -> Annotation:
        if hlo.kind == "maximal":
            name = self.maximal.setdefault(hlo.devices[0], f"maximal_mesh_{hlo.devices[0]}")
            return Annotation(TensorSharding(name, ()), ())
        if hlo.kind == "manual":
            return Annotation(TensorSharding.replicated_on("mesh", rank), self.mesh.axis_names)
        if "manual" not in hlo.subgroups:
            try:
                return Annotation(to_tensor_sharding(hlo, rank, self.mesh)[0], ())
            except ShardingError:
                if hlo.iota() is not None:
                    raise
            # a device list no axes of the common mesh order: a mesh of its own, with
            # the list as device_ids (as XLA's import does)
            sharding, mesh = to_tensor_sharding(hlo, rank)
            name = self.ordered.setdefault(mesh, f"mesh_{len(self.ordered) + 1}")
            return Annotation(replace(sharding, mesh=name), ())
        # the manual subgroup dim read as one more data dim: its axes are the manual axes
        others = tuple(s for s in hlo.subgroups if s != "manual")
        widened = HloSharding.tiled(hlo.tile_dims, hlo.devices, others)
        sharding = to_tensor_sharding(widened, rank + 1, self.mesh)[0]
        manual = sharding.dims[rank].axes
        if any(a.is_sub_axis for a in manual):
            raise ShardingError("its manual devices are not whole axes of the mesh")
        return Annotation(
            replace(sharding, dims=sharding.dims[:rank]), tuple(a.name for a in manual)
        )

    def meshes(self) -> list[Op]:
        ops = [Op("sdy.mesh", attributes={"sym_name": "mesh", "mesh": self.mesh})]
        for mesh, name in self.ordered.items():
            ops.append(Op("sdy.mesh", attributes={"sym_name": name, "mesh": mesh}))
        for device, name in sorted(self.maximal.items()):
            ops.append(Op("sdy.mesh", attributes={"sym_name": name, "mesh": Mesh((), [device])}))
        return ops


def _common_mesh(module: Module, shardings: list[HloSharding]) -> Mesh:
    """Axes that cut the device ids (0..N-1, row-major) wherever a tile assignment does."""
    tiled = [h for h in shardings if h.kind == "tiled"]
    count = module.attributes.get("mhlo.num_partitions")
    count = getattr(count, "value", None) or max((len(h.devices) for h in tiled), default=1)
    cuts = {1, count}
    for hlo in tiled:
        iota = hlo.iota()
        if iota is None:
            continue
        reshape, perm = iota
        pieces = refine_factorizations([(reshape[p], p) for p in perm], hlo.tile_dims)
        if pieces is None:
            continue
        for dim in range(len(reshape)):
            stride = math.prod(reshape[dim + 1 :])
            for size in reversed([s for s, d, _ in pieces if d == dim]):
                cuts |= {stride, stride * size}
                stride *= size
    chain = sorted(cuts)
    if any(b % a for a, b in pairwise(chain)):
        raise ShardingError(
            f"the module's shardings cut its {count} devices at {chain}, which do not divide one "
            "another: no one mesh has axes for all of them"
        )
    sizes = [b // a for a, b in pairwise(chain)][::-1]
    return Mesh([(f"_axis_{i}", s) for i, s in enumerate(sizes)])


# -- custom calls ---------------------------------------------------------------------


def is_custom_call(op: Op, target: str) -> bool:
    return op.name == "stablehlo.custom_call" and op.attributes.get("call_target_name") == target


def single_annotation(op: Op, importer: MeshImporter, where: str) -> Annotation:
    (hlo,) = parse_hlo_shardings(op.attributes[ATTR])
    return importer.convert(hlo, op.result_types[0], where)


def marked_annotation(op: Op, importer: MeshImporter, where: str) -> Annotation:
    """The sharding of a custom call, its `unspecified_dims` open (inside a manual
    body: on the free axes only)."""
    annotation = single_annotation(op, importer, where)
    unspecified = unspecified_dims(op)
    dims = tuple(
        DimSharding(d.axes, is_closed=i not in unspecified)
        for i, d in enumerate(annotation.sharding.dims)
    )
    return replace(annotation, sharding=replace(annotation.sharding, dims=dims))


def unspecified_dims(op: Op) -> set[int]:
    config = op.attributes.get("backend_config", "")
    found = _UNSPECIFIED.search(config) if isinstance(config, str) else None
    if found is None:
        return set()
    return {int(d) for d in found.group(1).replace(" ", "").split(",") if d}


def backend_config(sharding: TensorSharding) -> str:
    """`unspecified_dims=[...]` listing the open dims of `sharding` ('' if none)."""
    open_dims = [i for i, d in enumerate(sharding.dims) if not d.is_closed]
    return f"unspecified_dims=[{','.join(map(str, open_dims))}]" if open_dims else ""
