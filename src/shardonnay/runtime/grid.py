"""Running a `shard` dialect per-device program on every device of its grid, in lockstep.

A program partitioned the way the MLIR `shard` dialect writes it runs once per
device of a `shard.grid`; its collectives (`shard.all_gather`, `shard.all_to_all`,
...) exchange buffers between devices and `shard.process_linear_index` /
`process_multi_index` tell a device where it is. `run_grid(module, inputs)` runs
`func` on every device at once (each device in its own thread, meeting the others
at every collective, as `runtime.devices` does for StableHLO collectives) with
the semantics of `shardonnay.ops.shard_collectives.exchange`, and returns every
device's results. Results the dialect leaves undefined (non-root devices of
`shard.gather` and `shard.reduce`, devices a non-rotating `shard.shift` sends
nothing to) are zeros.

>>> import numpy as np
>>> from shardonnay.syntax.mlir_reader import parse_module
>>> program = parse_module('''
... shard.grid @grid(shape = 2)
... func.func @main(%x: tensor<2xf32>) -> (tensor<4xf32>, index) {
...   %0 = shard.all_gather %x on @grid grid_axes = [0] gather_axis = 0
...       : tensor<2xf32> -> tensor<4xf32>
...   %i = shard.process_linear_index on @grid : index
...   return %0, %i : tensor<4xf32>, index
... }''')
>>> out = run_grid(program, {(0,): [np.array([1.0, 2.0])], (1,): [np.array([3.0, 4.0])]})
>>> out[(1,)][0].tolist(), int(out[(1,)][1])
([1.0, 2.0, 3.0, 4.0], 1)
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence

import numpy as np

from shardonnay.errors import IRError, ShardonnayError
from shardonnay.ir.core import Module, Op
from shardonnay.ir.types import numpy_dtype
from shardonnay.ops.shard_collectives import exchange
from shardonnay.ops.shard_dialect import grid_of, grid_shape
from shardonnay.runtime.devices import Lockstep, common_op, run_lockstep
from shardonnay.runtime.interpreter import Interpreter

Coords = tuple[int, ...]

__all__ = ["GridInterpreter", "run_grid"]


class GridInterpreter(Interpreter):
    """The interpreter of the device at `grid_coords` of a grid of `shape`."""

    def __init__(self, module: Module, shape: Coords, index: int, lockstep: Lockstep):
        super().__init__(module)
        self.shape = shape
        self.index = index
        self.grid_coords: Coords = tuple(int(c) for c in np.unravel_index(index, shape))
        self.lockstep = lockstep

    def collective(self, op: Op, args: list[np.ndarray]) -> list[np.ndarray]:
        if not op.name.startswith("shard."):
            return super().collective(op, args)
        return self.lockstep.meet(self.index, (op, args), self._exchange)

    def _exchange(self, deposits: list[tuple[Op, list[np.ndarray]]]) -> list[list[np.ndarray]]:
        op = common_op(deposits)
        if grid_shape(grid_of(op)) != self.shape:
            raise IRError(f"{op.name}: runs on a grid other than the program's {self.shape}")
        coords = [
            tuple(int(c) for c in np.unravel_index(i, self.shape)) for i in range(len(deposits))
        ]
        out = exchange(
            op, self.shape, {c: args[0] for c, (_, args) in zip(coords, deposits, strict=True)}
        )
        t = op.result_types[0]
        undefined = np.zeros(t.shape, numpy_dtype(t.element_type))
        return [[undefined if out[c] is None else out[c]] for c in coords]


def run_grid(
    module: Module,
    inputs: Mapping[Coords, Sequence[np.ndarray]],
    *,
    func: str = "main",
    grid: str | None = None,
) -> dict[Coords, tuple[np.ndarray, ...]]:
    """Runs `func` on every device of the module's grid (`grid` names it when the
    module has several), device `c` on `inputs[c]`; each device's results by coordinates."""
    grids = {
        op.attributes["sym_name"]: tuple(op.attributes["shape"].values)
        for op in module.ops
        if op.name == "shard.grid"
    }
    if grid is None:
        if len(grids) != 1:
            names = ", ".join("@" + g for g in grids) or "none"
            raise ShardonnayError(
                f"the module has {len(grids)} grids ({names}); name the one to run on"
            )
        grid = next(iter(grids))
    if grid not in grids:
        raise ShardonnayError(f"no shard.grid @{grid} in the module")
    shape = grids[grid]
    if any(d < 0 for d in shape):
        raise ShardonnayError(f"grid @{grid} has axes of unknown size ('?')")
    coords = [tuple(int(c) for c in np.unravel_index(i, shape)) for i in range(math.prod(shape))]
    missing = [c for c in coords if c not in inputs]
    if missing:
        raise ShardonnayError(f"no inputs for the device(s) at {missing}")
    f = module.function(func)
    lockstep = Lockstep(len(coords))

    def program(i: int):
        interp = GridInterpreter(module, shape, i, lockstep)
        args = [
            np.asarray(a, numpy_dtype(t.element_type)) if hasattr(t, "element_type") else a
            for a, t in zip(inputs[coords[i]], f.type.inputs, strict=True)
        ]
        return lambda: interp.run_region(f.op.regions[0], args, {})

    results = run_lockstep(lockstep, [program(i) for i in range(len(coords))])
    return {c: tuple(r) for c, r in zip(coords, results, strict=True)}
