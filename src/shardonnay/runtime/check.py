"""Checking a partitioned program against the unpartitioned one.

`check(module)` partitions `module` (`shardonnay.partitioner.program`), runs
the per-device program on every device of the mesh simulator
(`shardonnay.runtime.simulator.simulate`) and judges each output against
the reference interpreter on the original program (`shardonnay.run`), with
the tolerances of `shardonnay.runtime.numerics`. `shardonnay.check` is this
function.

>>> from shardonnay.syntax.mlir_reader import parse_module
>>> module = parse_module('''
... sdy.mesh @mesh = <["x"=4]>
... func.func @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>},
...                 %arg1: tensor<16x4xf32>) -> tensor<8x4xf32> {
...   %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0]
...       : (tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x4xf32>
...   return %0 : tensor<8x4xf32>
... }''')
>>> result = check(module)
>>> result.ok, result.num_collectives, result.costs.bytes_received
(True, 1, 192)
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from shardonnay.errors import CheckError, LayoutError, ShardonnayError
from shardonnay.ir.core import Module
from shardonnay.ir.naming import output_names
from shardonnay.ir.types import TensorType
from shardonnay.partitioner.analysis.cost import CostReport, collective_costs
from shardonnay.partitioner.analysis.memory import peak_memory
from shardonnay.partitioner.per_device import per_device_program
from shardonnay.partitioner.program import explicit_collectives, propagated_program
from shardonnay.runtime.interpreter import random_inputs, run
from shardonnay.runtime.numerics import (
    ROUNDING,
    OutputComparison,
    epsilon,
    judge_output,
    main_arguments,
    scaled_inputs,
    validate_tolerance,
    wide_reference,
)
from shardonnay.runtime.simulator import simulate

__all__ = ["CheckResult", "check"]


@dataclass(frozen=True)
class CheckResult:
    """What `check` compared and what the partitioned program costs.

    `outputs` judge each output (`shardonnay.runtime.numerics`); `rounding`,
    `rtol` and `atol` are the tolerances they were judged with, `input_scale`
    the factor the float inputs were multiplied by. `costs` are the
    collectives of the global program with explicit collectives
    (`shardonnay.partitioner.program.explicit_collectives`); `peak_memory`
    is the bytes one device needs at most to run the local program
    (`shardonnay.partitioner.analysis.memory.peak_memory`).
    """

    outputs: tuple[OutputComparison, ...]
    rtol: float
    seed: int | None  # None: inputs given by the caller
    costs: CostReport
    peak_memory: int
    explicit: Module = field(compare=False, repr=False)
    local: Module = field(compare=False, repr=False)
    rounding: float = ROUNDING
    atol: float | None = None
    input_scale: float = 1.0
    #: the propagated program, whose names the reports use
    #: (`shardonnay.partitioner.program.propagated_program`)
    propagated: Module | None = field(default=None, compare=False, repr=False)

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

    @property
    def failed(self) -> tuple[OutputComparison, ...]:
        return tuple(o for o in self.outputs if not o.ok)

    def table(self) -> str:
        """One row per output (its own and partitioned errors, the tolerance,
        OK or FAIL) and a summary line."""
        rows = [
            ("output", "shape", "dtype", "own_err", "max_abs_err", "max_rel_err", "abs_tol",
             "result")
        ]  # fmt: skip
        for o in self.outputs:
            own = "-" if o.own_error is None else f"{o.own_error:.3g}"
            rows.append(
                (str(o.index), str(o.shape), o.dtype, own, f"{o.max_abs_error:.3g}",
                 f"{o.max_rel_error:.3g}", f"{o.abs_tolerance:.3g}", "OK" if o.ok else "FAIL")
            )  # fmt: skip
        widths = [max(len(r[c]) for r in rows) for c in range(len(rows[0]))]
        lines = [
            "  ".join(v.ljust(w) for v, w in zip(r, widths, strict=True)).rstrip() for r in rows
        ]
        inputs = "given inputs" if self.seed is None else f"random inputs, seed {self.seed}"
        if self.input_scale != 1:
            inputs += f", floats scaled by {self.input_scale:g}"
        passed = sum(o.ok for o in self.outputs)
        if self.rounding:
            tolerance = f"rounding {self.rounding:g}x the unpartitioned program's own error"
        else:
            tolerance = "the program's own dtypes"
        if self.rtol:
            tolerance += f", rtol {self.rtol:g}"
        if self.atol:
            tolerance += f", atol {self.atol:g}"
        lines.append(
            f"{passed} of {len(self.outputs)} outputs match the unpartitioned program "
            f"({inputs}; {tolerance}); {self.num_collectives} communicating "
            f"collective{'' if self.num_collectives == 1 else 's'}, "
            f"busiest device receives {self.bytes_received} B; "
            f"peak memory {self.peak_memory} B per device"
        )
        return "\n".join(lines)


def check(
    module: Module,
    seed: int = 0,
    *,
    inputs: Sequence | Mapping | str | os.PathLike | None = None,
    input_scale: float = 1.0,
    rounding: float = ROUNDING,
    rtol: float = 0.0,
    atol: float | None = None,
    propagate: bool = True,
    reshards: str = "shardonnay",
    max_devices: int | None = None,
) -> CheckResult:
    """Partitions `module`, runs the per-device program on all devices and
    judges each output of `main` against the reference interpreter's on
    `module`, on `inputs` (a sequence in argument order, a mapping such as a
    loaded `.npz` or the path of an `.npz` file, see
    `numerics.main_arguments`) or on
    `random_inputs(module, seed=seed)`; float inputs are multiplied by
    `input_scale`.

    Each float output is judged as rounding or not (`numerics.judge_output`):
    its error against the reference run in float64 may be `rounding` times
    the unpartitioned program's own error, plus `atol + rtol * |exact|`;
    `rounding=0` compares in the program's own dtypes (`numerics.compare_output`;
    there `atol=None` is half the digits of the output's scale). Integers
    must be equal.

    Returns the `CheckResult` when every output passes; raises `CheckError`
    naming the outputs that do not and whether the difference looks like
    rounding (its `result` holds every comparison), or when the devices'
    results do not form one array (replicas that disagree). A tolerance that
    is not a finite number >= 0 raises `ShardonnayError`.
    """
    for name, value in (("rounding", rounding), ("rtol", rtol), ("atol", atol)):
        validate_tolerance(name, value)
    validate_tolerance("input_scale", input_scale)
    given = inputs is not None
    arguments = main_arguments(module, inputs) if given else random_inputs(module, seed=seed)
    if input_scale != 1:
        arguments = scaled_inputs(arguments, input_scale)
    propagated = propagated_program(module, propagate=propagate, max_devices=max_devices)
    explicit = explicit_collectives(
        propagated, propagate=False, reshards=reshards, max_devices=max_devices
    )
    local = per_device_program(explicit, poison_padding=True, max_devices=max_devices)
    result_types = module.function("main").type.results
    with np.errstate(all="ignore"):
        expected = run(module, *arguments)
        try:
            got = simulate(local, *arguments, max_devices=max_devices)
        except LayoutError as e:
            raise CheckError(f"the devices' results of @main are not one array: {e}") from e
        exact, own = _float64_reference(module, arguments, expected) if rounding else ({}, {})
    outputs = tuple(
        judge_output(
            i,
            expected[i],
            got[i],
            exact.get(i),
            own_errors=own.get(i),
            rounding=rounding,
            rtol=rtol,
            atol=atol,
        )
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
        rounding,
        atol,
        input_scale,
        propagated,
    )
    if result.failed:
        raise _mismatch(result, [str(n) for n in output_names(propagated)])
    return result


def _float64_reference(
    module: Module, arguments: list, expected: Sequence[np.ndarray]
) -> tuple[dict[int, np.ndarray], dict[int, np.ndarray]]:
    """The outputs of `module` run in float64, by index (none where the program
    cannot be widened or fails widened), and for the f64 outputs an estimate
    of their own rounding errors: the f32 run's, times eps(f64) / eps(f32)."""

    def outputs_in(element_type: str) -> tuple[np.ndarray, ...] | None:
        widened = wide_reference(module, element_type)
        if widened is None:
            return None
        try:
            return run(widened, *arguments)
        except ShardonnayError:
            return None

    floats = [i for i, e in enumerate(expected) if epsilon(np.asarray(e).dtype) is not None]
    if not floats:
        return {}, {}
    wide = outputs_in("f64")
    if wide is None:
        return {}, {}
    exact = {i: wide[i] for i in floats}
    own: dict[int, np.ndarray] = {}
    doubles = [i for i in floats if np.asarray(expected[i]).dtype.itemsize * 8 >= 64]
    narrow = outputs_in("f32") if doubles else None
    ratio = np.finfo(np.float64).eps / np.finfo(np.float32).eps
    for i in doubles:
        if narrow is None:
            own[i] = np.zeros(np.shape(wide[i]))
            continue
        with np.errstate(invalid="ignore", over="ignore"):
            error = np.abs(np.asarray(narrow[i], np.complex128) - wide[i])
        own[i] = np.where(np.isfinite(error), error, 0.0) * ratio
    return exact, own


def _mismatch(result: CheckResult, returned: list[str]) -> CheckError:
    """The error of a failed check; `returned`: the name of each output's value
    (as the propagated program prints it, see `shardonnay.ir.naming`)."""
    failed = result.failed
    first = failed[0]
    names = ", ".join(f"{o.index} ({returned[o.index]}: {o.shape} {o.dtype})" for o in failed)
    plural = "s" if len(failed) > 1 else ""
    if first.own_error is not None:
        tolerance = (
            f"allowed {first.abs_tolerance:.3g}: {result.rounding:g} times the unpartitioned "
            f"program's own error {first.own_error:.3g}"
        )
        if result.rtol:
            tolerance += f", + {result.rtol:g} * |exact|"
        if first.max_abs_error <= first.abs_tolerance and first.rms_error is not None:
            tolerance += (
                f"; but its RMS error {first.rms_error:.3g} is more than "
                f"{result.rounding / 2:g} times the unpartitioned program's "
                f"{first.own_rms_error:.3g}"
            )
    else:
        atol = "sqrt(eps) * scale" if result.atol is None else f"{first.abs_tolerance:.3g}"
        tolerance = f"tolerance {atol} + {result.rtol:g} * |expected|"
    verdict = first.verdict()
    return CheckError(
        f"output{plural} {names} of @main differ{'' if plural else 's'} from the unpartitioned "
        f"program. Output {first.index}: max abs error {first.max_abs_error:.3g}, max rel error "
        f"{first.max_rel_error:.3g} ({tolerance}); {first.mismatches} of {first.size} elements "
        f"differ, {first.detail}" + (f"; {verdict}" if verdict else ""),
        first,
        result,
    )
