"""The SPMD partitioner end to end: a program with shardings to the program every device runs.

`partition(module)` chains Shardy's partitioner, as `sdy_opt` runs it, and
then makes the program local:

1. `sdy-propagation-pipeline` (`shardonnay.propagation.pipeline`): every
   value gets a sharding (skipped with `propagate=False`, for a program
   whose shardings are already decided);
2. `sdy-insert-explicit-reshards{enable-full-version=true}`: every op's
   operands and results agree, through `sdy.reshard`s and `sdy.all_reduce`s;
3. `sdy-reshard-to-collectives`: each reshard becomes sdy collectives
   (with `reshards="shardonnay"`, the default, those of `reshard_plan`
   where they receive fewer bytes, or none where each device fetching the
   tiles it lacks receives fewer still, see
   `shardonnay.partition.planned_reshards`; `reshards="collectives"`:
   chains of collectives only; `reshards="shardy"` keeps Shardy's lowering
   of every reshard);
4. `sdy-convert-global-to-local`: local types, StableHLO collectives on
   device ids.

`explicit_collectives(module)` stops after step 3: the global program whose
communication is explicit, which `shardonnay.partition.cost.collective_costs`
costs. `check(module)` partitions, runs the local program on every device
(`shardonnay.runtime.simulator.simulate`) and compares each output with the
reference interpreter on the original program (`shardonnay.run`).

`shardonnay.partition` names both the package and this module's `partition`:
the package is callable (see its docstring), `shardonnay.partition(module)`
runs `partition(module)`.

>>> from shardonnay.syntax.mlir_reader import parse_module
>>> module = parse_module('''
... sdy.mesh @mesh = <["x"=4]>
... func.func @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>},
...                 %arg1: tensor<16x4xf32>) -> tensor<8x4xf32> {
...   %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0]
...       : (tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x4xf32>
...   return %0 : tensor<8x4xf32>
... }''')
>>> local = partition(module)
>>> [str(t) for t in local.function("main").type.inputs]  # each device's buffers
['tensor<8x4xf32>', 'tensor<4x4xf32>']
>>> [op.name for op in local.function("main").body.ops]
['stablehlo.dot_general', 'stablehlo.all_reduce', 'func.return']
>>> result = check(module)
>>> result.ok, result.num_collectives, result.costs.bytes_received
(True, 1, 192)
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import numpy as np

from shardonnay.errors import CheckError, LayoutError

if TYPE_CHECKING:
    from shardonnay.ir.core import Module
    from shardonnay.partition.cost import CostReport

__all__ = [
    "CheckResult",
    "OutputComparison",
    "check",
    "compare_output",
    "describe_costs",
    "explicit_collectives",
    "partition",
]


def explicit_collectives(
    module: Module, *, propagate: bool = True, reshards: str = "shardonnay"
) -> Module:
    """The global program of `module` with explicit collectives: steps 1 to 3 of
    the module docstring, on a copy (`module` is unchanged)."""
    from shardonnay.partition.explicit_reshards import insert_explicit_reshards
    from shardonnay.partition.planned_reshards import lower_reshards
    from shardonnay.propagation.pipeline import propagation_pipeline

    program = propagation_pipeline(module) if propagate else module.copy()
    insert_explicit_reshards(program, full_version=True)
    return lower_reshards(program, reshards=reshards)


def partition(module: Module, *, propagate: bool = True, reshards: str = "shardonnay") -> Module:
    """The per-device (SPMD) program of `module` (a new module; `module` is unchanged).

    `propagate=False` skips Shardy's propagation pipeline: the shardings the
    program has are the ones partitioned (a value without one is
    replicated); `reshards` picks how reshards become collectives (see the
    module docstring). Raises `PartitionError` naming the op that cannot be
    made local (see `shardonnay.partition.global_to_local`).
    """
    from shardonnay.partition.global_to_local import convert_global_to_local

    explicit = explicit_collectives(module, propagate=propagate, reshards=reshards)
    return convert_global_to_local(explicit)


def describe_costs(module: Module, explicit: Module, local: Module) -> str:
    """The collectives of `explicit` (`module`'s global program with explicit
    collectives) with their bytes per device, mesh axes and alpha-beta time,
    what each device sends and receives in all, and the peak memory of one
    device running `local` against `module`'s on one device."""
    from shardonnay.partition.cost import collective_costs
    from shardonnay.partition.memory import peak_memory

    costs = collective_costs(explicit)
    lines = ["collectives of the global program (after sdy-reshard-to-collectives):"]
    lines.append(costs.table())
    sent, received = costs.sent_per_device, costs.received_per_device
    if len(set(sent)) <= 1 and len(set(received)) <= 1:
        lines.append(
            f"every device sends {max(sent, default=0)} B and receives {max(received, default=0)} B"
        )
    else:
        pairs = enumerate(zip(sent, received, strict=True))
        lines.append(
            "bytes sent/received by device " + ", ".join(f"{d}: {s}/{r}" for d, (s, r) in pairs)
        )
    lines.append(
        f"peak memory per device: {peak_memory(local)} B "
        f"(the unpartitioned program on one device: {peak_memory(module)} B)"
    )
    return "\n".join(lines)


# -- checking a partitioned program against the unpartitioned one -----------------------------


@dataclass(frozen=True)
class OutputComparison:
    """One output of the partitioned program against the reference's.

    Floats pass where `|got - expected| <= abs_tolerance + rtol * |expected|`
    element by element and NaNs and infinities are where the reference has
    them; integers and booleans must be equal. `max_rel_error` is relative to
    the output's largest finite magnitude (`scale`): an error of reordered
    sums is relative to the size of what is summed, not to each element,
    which may be close to 0 by cancellation.
    """

    index: int
    shape: tuple[int, ...]
    dtype: str
    max_abs_error: float
    max_rel_error: float
    abs_tolerance: float
    mismatches: int  # elements out of tolerance (all of them when the shapes differ)
    detail: str = ""  # where the first mismatch is and its values, or how the shapes differ

    @property
    def ok(self) -> bool:
        return self.mismatches == 0

    @property
    def size(self) -> int:
        return math.prod(self.shape)


def compare_output(
    index: int, expected: np.ndarray, got: np.ndarray, *, rtol: float, atol: float | None
) -> OutputComparison:
    """Compares output `index` (see `OutputComparison`); `atol=None` is
    `sqrt(eps) * scale`: half the digits of the dtype, relative to the output's
    largest finite magnitude.

    >>> expected, got = np.array([0.001, 100.0]), np.array([0.001001, 100.0])
    >>> c = compare_output(0, expected, got, rtol=0, atol=None)  # 1e-3 off, relative to 0.001
    >>> c.ok, f"{c.abs_tolerance:.3g}", f"{c.max_rel_error:.3g}"  # but 1e-8 of the scale
    (True, '1.49e-06', '1e-08')
    >>> compare_output(0, np.array([1, 2]), np.array([1, 3]), rtol=0, atol=None).detail
    'first at (1,): expected 2, got 3'
    """
    expected, got = np.asarray(expected), np.asarray(got)
    shape, dtype = tuple(expected.shape), str(expected.dtype)
    if got.shape != expected.shape or got.dtype != expected.dtype:
        detail = f"the partitioned program returns {got.shape} {got.dtype}"
        return OutputComparison(
            index, shape, dtype, math.inf, math.inf, 0.0, max(expected.size, 1), detail
        )
    epsilon = _epsilon(expected.dtype)
    if epsilon is not None:
        wide = np.complex128 if expected.dtype.kind == "c" else np.float64
        e, g = expected.astype(wide), got.astype(wide)
        finite = np.isfinite(e)
        scale = float(np.max(np.abs(e[finite]))) if finite.any() else 0.0
        tolerance = math.sqrt(epsilon) * scale if atol is None else atol
        with np.errstate(invalid="ignore", over="ignore"):
            diff = np.where(finite, np.abs(e - g), 0.0)
            diff[~np.isfinite(diff)] = np.inf
            same_special = (np.isnan(e) & np.isnan(g)) | (e == g)
            diff[~finite & ~same_special] = np.inf
            bad = (diff > tolerance + rtol * np.abs(e)) | (~finite & ~same_special)
    else:
        scale = float(np.max(np.abs(expected.astype(np.float64)), initial=0.0))
        tolerance = 0.0
        diff = np.abs(expected.astype(np.float64) - got.astype(np.float64))
        bad = expected != got
    max_abs = float(np.max(diff, initial=0.0))
    max_rel = max_abs / scale if scale else (0.0 if max_abs == 0 else math.inf)
    mismatches = int(np.count_nonzero(bad))
    detail = ""
    if mismatches:
        where = tuple(int(i) for i in np.argwhere(bad)[0])
        detail = f"first at {where}: expected {expected[where]!s}, got {got[where]!s}"
    return OutputComparison(index, shape, dtype, max_abs, max_rel, tolerance, mismatches, detail)


def _epsilon(dtype: np.dtype) -> float | None:
    """The machine epsilon of a floating-point dtype (numpy's or ml_dtypes',
    like bfloat16), None for other dtypes."""
    if dtype.kind in "fc":
        return float(np.finfo(dtype).eps)
    if dtype.kind == "V":
        try:
            import ml_dtypes

            return float(ml_dtypes.finfo(dtype).eps)
        except (ImportError, TypeError, ValueError):
            return None
    return None


@dataclass(frozen=True)
class CheckResult:
    """What `check` compared and what the partitioned program costs.

    `costs` are the collectives of the global program with explicit
    collectives (`explicit_collectives`); `peak_memory` is the bytes one
    device needs at most to run the local program
    (`shardonnay.partition.memory.peak_memory`).
    """

    outputs: tuple[OutputComparison, ...]
    rtol: float
    seed: int | None  # None: inputs given by the caller
    costs: CostReport
    peak_memory: int
    explicit: Module = field(compare=False, repr=False)
    local: Module = field(compare=False, repr=False)

    @property
    def ok(self) -> bool:
        return all(o.ok for o in self.outputs)

    @property
    def max_abs_error(self) -> float:
        return max((o.max_abs_error for o in self.outputs), default=0.0)

    @property
    def max_rel_error(self) -> float:
        return max((o.max_rel_error for o in self.outputs), default=0.0)

    @property
    def num_collectives(self) -> int:
        """The collectives that move data between devices."""
        return len(self.costs.communicating)

    @property
    def bytes_received(self) -> int:
        """What the busiest device receives over the whole program."""
        return self.costs.bytes_received

    def table(self) -> str:
        """One row per output (its errors and OK or FAIL) and a summary line."""
        rows = [("output", "shape", "dtype", "max_abs_err", "max_rel_err", "abs_tol", "result")]
        for o in self.outputs:
            rows.append(
                (str(o.index), str(o.shape), o.dtype, f"{o.max_abs_error:.3g}",
                 f"{o.max_rel_error:.3g}", f"{o.abs_tolerance:.3g}", "OK" if o.ok else "FAIL")
            )  # fmt: skip
        widths = [max(len(r[c]) for r in rows) for c in range(len(rows[0]))]
        lines = [
            "  ".join(v.ljust(w) for v, w in zip(r, widths, strict=True)).rstrip() for r in rows
        ]
        inputs = "given inputs" if self.seed is None else f"random inputs, seed {self.seed}"
        passed = sum(o.ok for o in self.outputs)
        lines.append(
            f"{passed} of {len(self.outputs)} outputs match the unpartitioned program "
            f"({inputs}, rtol {self.rtol:g}); {self.num_collectives} communicating "
            f"collective{'' if self.num_collectives == 1 else 's'}, "
            f"busiest device receives {self.bytes_received} B; "
            f"peak memory {self.peak_memory} B per device"
        )
        return "\n".join(lines)


def check(
    module: Module,
    seed: int = 0,
    *,
    inputs: Sequence | None = None,
    rtol: float = 1e-5,
    atol: float | None = None,
    propagate: bool = True,
    reshards: str = "shardonnay",
) -> CheckResult:
    """Partitions `module`, runs the per-device program on all devices and
    compares each output of `main` with the reference interpreter's on
    `module`, on `inputs` or on `random_inputs(module, seed=seed)`.

    Returns the `CheckResult` when every output matches (see
    `OutputComparison` for the tolerance; `atol=None` scales with each
    output); raises `CheckError` naming the first output that does not (its
    `result` holds every comparison), or when the devices' results do not
    form one array (replicas that disagree).
    """
    from shardonnay.ir.types import TensorType
    from shardonnay.partition.cost import collective_costs
    from shardonnay.partition.global_to_local import convert_global_to_local
    from shardonnay.partition.memory import peak_memory
    from shardonnay.runtime.interpreter import random_inputs, run
    from shardonnay.runtime.simulator import simulate

    explicit = explicit_collectives(module, propagate=propagate, reshards=reshards)
    local = convert_global_to_local(explicit, poison_padding=True)
    given = inputs is not None
    arguments = list(inputs) if given else random_inputs(module, seed=seed)
    with np.errstate(all="ignore"):
        expected = run(module, *arguments)
        try:
            got = simulate(local, *arguments)
        except LayoutError as e:
            raise CheckError(f"the devices' results of @main are not one array: {e}") from e
    result_types = module.function("main").type.results
    outputs = tuple(
        compare_output(i, expected[i], got[i], rtol=rtol, atol=atol)
        for i, t in enumerate(result_types)
        if isinstance(t, TensorType)
    )
    result = CheckResult(
        outputs,
        rtol,
        None if given else seed,
        collective_costs(explicit),
        peak_memory(local),
        explicit,
        local,
    )
    failed = next((o for o in outputs if not o.ok), None)
    if failed is not None:
        raise _mismatch(failed, result)
    return result


def _mismatch(o: OutputComparison, result: CheckResult) -> CheckError:
    tolerance = f"{o.abs_tolerance:.3g} + {result.rtol:g} * |expected|"
    return CheckError(
        f"output {o.index} ({o.shape} {o.dtype}) of @main differs from the unpartitioned "
        f"program: max abs error {o.max_abs_error:.3g}, max rel error {o.max_rel_error:.3g} "
        f"(tolerance {tolerance}); {o.mismatches} of {o.size} elements differ, {o.detail}",
        o,
        result,
    )
