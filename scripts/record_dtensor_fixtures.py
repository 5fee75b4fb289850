"""Records what PyTorch's DTensor does on random meshes, placements and shapes.

Writes `tests/fixtures/dtensor/placements.json`, which `tests/interop/test_dtensor.py`
compares `shardonnay.interop.dtensor` against. Needs torch (not a dependency of
shardonnay): run it with an interpreter that has torch and numpy, from the repository,

    PYTHONPATH=src python scripts/record_dtensor_fixtures.py [--cases 400] [--seed 0]

Every rank of a mesh is simulated in this one process with torch's fake process group
(`init_process_group("fake", rank=r, ...)`, one rank after the other): for each case,
`distribute_tensor(global, mesh, placements, src_data_rank=None)` gives the rank's local
tensor (each rank cuts its part of the global tensor itself, no communication) and
`compute_local_shape_and_global_offset` its shape and offset. The global tensor is
`arange * P` (float64, `P` the product of the `Partial("sum")` mesh dims' sizes, which
`distribute_tensor` divides by), so a local tensor's values are the flat global indices
of what the rank holds. Recorded per case:

- `text`: the mesh and placements as `shardonnay.interop.dtensor.from_torch` reads them
  (checked to give the same torch placements back), `shape`: the global shape;
- `order`: DTensor's decoding of the placements into its `shard_order`, as
  `[[tensor dim, [mesh dims, major first]], ...]`, or null where `_StridedShard`s encode
  no order;
- `ranks`: per rank, `[local shape, global offset, runs]`, `runs` per tensor dim the
  global indices held as `[start, stop]` runs (null for an empty local tensor, whose
  values say nothing).
"""

from __future__ import annotations

import argparse
import json
import math
import random
from pathlib import Path

import numpy as np
import torch
import torch.distributed as dist
from torch.distributed.device_mesh import DeviceMesh
from torch.distributed.tensor import Partial, Replicate, Shard, distribute_tensor
from torch.distributed.tensor._dtensor_spec import DTensorSpec, ShardOrderEntry
from torch.distributed.tensor._utils import compute_local_shape_and_global_offset
from torch.distributed.tensor.placement_types import _StridedShard
from torch.testing._internal.distributed.fake_pg import FakeStore

from shardonnay.interop.dtensor import from_torch, torch_placements

OUT = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "dtensor" / "placements.json"
NAMES = ("dp", "tp", "cp", "ep", "pp", "fsdp")


def random_case(rng: random.Random) -> dict:
    """A mesh of 1-3 dims (at most 16 ranks), a tensor of rank 1-3, random placements."""
    ndim = rng.choice((1, 2, 2, 3, 3))
    shape: list[int] = []
    for _ in range(ndim):
        bound = 16 // math.prod(shape or [1])
        shape.append(rng.choice([s for s in (1, 2, 2, 3, 4, 4) if s <= bound]))
    world = math.prod(shape)
    names = tuple(rng.sample(NAMES, ndim)) if rng.random() < 0.75 else None
    devices = list(range(world))
    if rng.random() < 0.5:
        rng.shuffle(devices)
    rank = rng.choice((1, 2, 2, 3))
    tensor_shape = [rng.choice((0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 12, 13)) for _ in range(rank)]
    ops = rng.choice((["sum"], ["max"], ["min"], ["avg"], ["sum", "avg"]))
    placements = []
    for _ in range(ndim):
        roll = rng.random()
        if roll < 0.55:
            placements.append(("Shard", rng.randrange(rank)))
        elif roll < 0.8:
            placements.append(("Replicate",))
        else:
            placements.append(("Partial", rng.choice(ops)))
    order = None
    sharded = {}
    for m, p in enumerate(placements):
        if p[0] == "Shard":
            sharded.setdefault(p[1], []).append(m)
    if any(len(ms) > 1 for ms in sharded.values()) and rng.random() < 0.6:
        order = [(d, rng.sample(ms, len(ms))) for d, ms in sorted(sharded.items())]
    strided_at = None
    if sharded and rng.random() < 0.12:  # a _StridedShard of no order: interleaved rows
        strided_at = rng.choice([m for ms in sharded.values() for m in ms])
    return {
        "mesh_shape": shape,
        "names": names,
        "devices": devices,
        "shape": tensor_shape,
        "placements": placements,
        "order": order,
        "strided_at": (strided_at, rng.choice((2, 3))) if strided_at is not None else None,
    }


def drawn_placements(case: dict, mesh: DeviceMesh) -> tuple:
    made = []
    for p in case["placements"]:
        if p[0] == "Shard":
            made.append(Shard(p[1]))
        elif p[0] == "Replicate":
            made.append(Replicate())
        else:
            made.append(Partial(p[1]))
    if case["order"]:
        order = tuple(ShardOrderEntry(d, tuple(ms)) for d, ms in case["order"])
        made = list(DTensorSpec._convert_shard_order_to_StridedShard(order, tuple(made), mesh))
    if case["strided_at"]:
        m, factor = case["strided_at"]
        made[m] = _StridedShard(made[m].dim, split_factor=factor)
    return tuple(made)


def runs(indices: np.ndarray) -> list[list[int]]:
    """`[3, 4, 5, 9]` -> `[[3, 6], [9, 10]]`."""
    out: list[list[int]] = []
    for i in indices.tolist():
        if out and out[-1][1] == i:
            out[-1][1] += 1
        else:
            out.append([i, i + 1])
    return out


def held_indices(local: np.ndarray, shape: list[int]) -> list[np.ndarray] | None:
    """Per dim, the global indices a local tensor of flat global indices holds (checked to
    be their product), or None for an empty tensor."""
    if local.size == 0:
        return None
    coords = np.unravel_index(np.rint(local).astype(np.int64), shape)
    per_dim = []
    for j in range(len(shape)):
        line = tuple(slice(None) if k == j else 0 for k in range(len(shape)))
        per_dim.append(coords[j][line])
    expected = np.arange(math.prod(shape)).reshape(shape)[np.ix_(*per_dim)]
    if not np.array_equal(np.rint(local), expected):
        raise AssertionError("a local tensor that is no product of per-dim indices")
    return per_dim


def record(cases: list[dict]) -> list[dict]:
    out = [None] * len(cases)
    by_world: dict[int, list[int]] = {}
    for i, case in enumerate(cases):
        by_world.setdefault(math.prod(case["mesh_shape"]), []).append(i)
    for world, indices in sorted(by_world.items()):
        for rank in range(world):
            dist.init_process_group("fake", rank=rank, world_size=world, store=FakeStore())
            for i in indices:
                case = cases[i]
                ids = torch.tensor(case["devices"]).reshape(case["mesh_shape"])
                mesh = DeviceMesh("cpu", ids, mesh_dim_names=case["names"])
                placements = drawn_placements(case, mesh)
                scale = math.prod(
                    mesh.size(m)
                    for m, p in enumerate(placements)
                    if isinstance(p, Partial) and p.reduce_op == "sum"
                )
                shape = case["shape"]
                full = torch.arange(math.prod(shape), dtype=torch.float64).reshape(shape) * scale
                local = distribute_tensor(full, mesh, placements, src_data_rank=None).to_local()
                local_shape, offset = compute_local_shape_and_global_offset(
                    full.shape, mesh, placements
                )
                if tuple(local.shape) != tuple(local_shape):
                    raise AssertionError(f"{placements}: {local.shape} != {local_shape}")
                held = held_indices(local.numpy(), shape)
                sharding = from_torch(mesh, placements)
                if torch_placements(sharding) != placements:
                    raise AssertionError(f"{placements} -> {sharding} -> other placements")
                entry = out[i] or {"text": str(sharding), "shape": shape, "ranks": {}}
                entry["ranks"][str(rank)] = [
                    list(local_shape),
                    list(offset),
                    None if held is None else [runs(h) for h in held],
                ]
                if rank == 0:
                    order = DTensorSpec._maybe_convert_StridedShard_to_shard_order(placements, mesh)
                    entry["order"] = order and [[e.tensor_dim, list(e.mesh_dims)] for e in order]
                out[i] = entry
            dist.destroy_process_group()
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--cases", type=int, default=400)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    cases = [random_case(rng) for _ in range(args.cases)]
    recorded = record(cases)
    OUT.parent.mkdir(parents=True, exist_ok=True)
    document = {"torch": torch.__version__, "cases": recorded}
    OUT.write_text(json.dumps(document, separators=(",", ":")) + "\n")
    print(f"{len(recorded)} cases from torch {torch.__version__} -> {OUT} ({OUT.stat().st_size} B)")


if __name__ == "__main__":
    main()
