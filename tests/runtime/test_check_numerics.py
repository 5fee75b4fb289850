"""`check` judges float outputs as a numerical analyst would.

Each float output of the partitioned program is compared with the program
run in float64; its error may be a few times the unpartitioned program's own
error in its dtypes. Partitioning bugs planted in the per-device program (a
dropped all-reduce, an all-reduce over the wrong devices or with the wrong
reduction, padding let into a sum) are wrong by about the size of the values
and fail, in f32 and in bf16, while reordered sums pass, in bf16 too, where a
fixed tolerance of the program's own dtypes fails.
"""

from __future__ import annotations

import math
import re
from pathlib import Path

import numpy as np
import pytest

import shardonnay.runtime.check as checking
from shardonnay.cli import main
from shardonnay.errors import CheckError, ShardonnayError
from shardonnay.ir.attributes import DenseElementsAttr
from shardonnay.runtime.check import check
from shardonnay.runtime.interpreter import random_inputs, run
from shardonnay.runtime.numerics import judge_output, wide_reference
from shardonnay.syntax.mlir_reader import parse_module

ml_dtypes = pytest.importorskip("ml_dtypes")

ROOT = Path(__file__).resolve().parents[2]
MLP = ROOT / "examples" / "mlp.mlir"
TRAIN_STEP = ROOT / "tests" / "corpus" / "mlp_train_step.mlir"
BLOCK_FORWARD = ROOT / "tests" / "corpus" / "transformer_block_forward.mlir"
BLOCK_BACKWARD = ROOT / "tests" / "corpus" / "transformer_block_backward.mlir"
SCAN = ROOT / "tests" / "corpus" / "scan_rnn.mlir"

# A sum over a dim of 7 split 4 ways: the last device's shard is half padding,
# which the per-device program masks before it sums.
UNEVEN_SUM = """sdy.mesh @mesh = <["x"=4]>
func.func @main(%arg0: tensor<7x3xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>})
    -> tensor<3xf32> {
  %cst = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.add across dimensions = [0]
      : (tensor<7x3xf32>, tensor<f32>) -> tensor<3xf32>
  return %0 : tensor<3xf32>
}"""


def _program(path: Path, dtype: str = "f32"):
    """The program of `path` with its f32 values in `dtype` (f32 hex literals such
    as `0xFF800000`, -inf, cut to bf16's `0xFF80`, which holds the same value)."""
    text = path.read_text()
    if dtype == "bf16":
        text = re.sub(r"0x([0-9A-Fa-f]{4})0000\b", r"0x\1", text)
    return parse_module(text.replace("f32", dtype))


# -- bugs planted in the per-device program ----------------------------------------------------


def _first(local, name: str):
    return next(op for op in local.walk() if op.name == name)


def _drop_all_reduce(local) -> None:
    op = _first(local, "stablehlo.all_reduce")
    op.results[0].replace_all_uses_with(op.operands[0])
    op.erase()


def _all_reduce_with_maximum(local) -> None:
    body = _first(local, "stablehlo.all_reduce").regions[0].entry.ops[0]
    assert body.name == "stablehlo.add"
    body.name = "stablehlo.maximum"


def _all_reduce_over_wrong_devices(local) -> None:
    op = _first(local, "stablehlo.all_reduce")
    groups = op.attributes["replica_groups"].to_numpy()
    op.attributes["replica_groups"] = DenseElementsAttr.from_numpy(groups.T.copy())


def _unmask_padding(local) -> None:
    op = next(o for o in local.walk() if o.name == "stablehlo.select")
    op.results[0].replace_all_uses_with(op.operands[1])
    op.erase()


@pytest.fixture
def plant(monkeypatch):
    """Makes `check` partition with `bug` applied to the per-device program."""

    def apply(bug):
        make = checking.per_device_program

        def planted(module, **options):
            local = make(module, **options)
            bug(local)
            return local

        monkeypatch.setattr(checking, "per_device_program", planted)

    return apply


@pytest.mark.parametrize("dtype", ["f32", "bf16"])
@pytest.mark.parametrize(
    "bug", [_drop_all_reduce, _all_reduce_with_maximum, _all_reduce_over_wrong_devices]
)
def test_planted_collective_bugs_fail_in_f32_and_bf16(plant, bug, dtype):
    module = _program(MLP, dtype)
    assert check(module).ok
    plant(bug)
    with pytest.raises(CheckError) as info:
        check(module)
    comparison = info.value.comparison
    if comparison is None:  # the devices that hold one value disagree
        assert "replicas disagree" in str(info.value)
        return
    assert "does not look like rounding" in str(info.value)
    assert comparison.max_rel_error > 0.05  # off by a sizable part of the values
    assert not comparison.looks_like_rounding


@pytest.mark.parametrize("which", [0, 1, -1])
def test_a_wrong_reduction_in_a_bf16_backward_pass_fails(plant, which):
    """bf16 rounding in a transformer block's backward pass is large (its own error
    is a tenth of some gradients); a max where a sum belongs spreads errors
    only some times larger, which the RMS of the errors shows."""
    module = _program(BLOCK_BACKWARD, "bf16")

    def max_instead_of_sum(local):
        op = [o for o in local.walk() if o.name == "stablehlo.all_reduce"][which]
        body = op.regions[0].entry.ops[0]
        assert body.name == "stablehlo.add"
        body.name = "stablehlo.maximum"

    plant(max_instead_of_sum)
    with pytest.raises(CheckError) as info:
        check(module)
    assert "does not look like rounding" in str(info.value)
    comparison = info.value.comparison
    assert comparison.rms_error > comparison.own_rms_error * 4
    if comparison.max_abs_error <= comparison.abs_tolerance:  # only the RMS shows it
        assert "but its RMS error" in str(info.value)


def test_padding_let_into_a_sum_fails(plant):
    module = parse_module(UNEVEN_SUM)
    assert check(module, propagate=False).ok
    plant(_unmask_padding)
    with pytest.raises(CheckError, match="does not look like rounding") as info:
        check(module, propagate=False)
    assert info.value.comparison.max_abs_error == math.inf  # poisoned padding (NaN) came through


# -- rounding passes, in bf16 too --------------------------------------------------------------


def test_bf16_training_step_passes_where_its_own_dtype_tolerance_fails():
    module = _program(TRAIN_STEP, "bf16")
    result = check(module, seed=0)
    assert result.ok and all(o.dtype == "bfloat16" for o in result.outputs)
    for o in result.outputs:  # the partitioned program errs about as much as the original
        assert o.own_error > 0 and o.max_abs_error <= result.rounding * o.own_error
    with pytest.raises(CheckError) as info:  # bf16 reordered sums: not within 1e-3
        check(module, seed=0, rounding=0, rtol=1e-3, atol=0)
    assert not info.value.result.ok


@pytest.mark.parametrize("path", [BLOCK_FORWARD, BLOCK_BACKWARD, SCAN])
def test_bf16_transformer_blocks_and_a_scanned_loop_pass(path):
    result = check(_program(path, "bf16"), seed=1)
    assert result.ok and {o.dtype for o in result.outputs} == {"bfloat16"}


def test_a_rounding_failure_says_it_looks_like_rounding():
    module = _program(TRAIN_STEP, "bf16")
    with pytest.raises(CheckError, match="looks like rounding") as info:
        check(module, seed=0, rounding=0.25)
    assert info.value.comparison.looks_like_rounding
    assert "outputs" in str(info.value).split(" of @main")[0] or "output " in str(info.value)


def test_the_own_error_is_measured_against_float64():
    module = _program(MLP, "bf16")
    inputs = random_inputs(module, seed=1)
    (own,) = run(module, *inputs)
    (exact,) = run(wide_reference(module), *inputs)
    assert exact.dtype == np.float64 and own.dtype == ml_dtypes.bfloat16
    result = check(module, inputs=inputs)
    measured = np.max(np.abs(own.astype(np.float64) - exact))
    assert result.outputs[0].own_error == pytest.approx(measured)
    assert result.seed is None


def test_f64_outputs_estimate_their_own_error_from_an_f32_run():
    module = _program(MLP, "f64")
    result = check(module)
    (o,) = result.outputs
    assert o.dtype == "float64" and 0 < o.own_error < 1e-12
    assert o.max_abs_error <= o.abs_tolerance < 1e-11


def test_a_mathematically_zero_output_is_judged_by_its_noise():
    # x - (x + y) + y is 0 in exact arithmetic; in f32 it is rounding noise.
    exact = np.zeros(4)
    own = np.array([1e-7, -2e-7, 0.0, 1e-7], np.float32)
    noise = np.array([-2e-7, 1e-7, 1e-7, 0.0], np.float32)
    assert judge_output(0, own, noise, exact).ok
    assert not judge_output(0, own, noise + np.float32(1e-3), exact).ok


def test_integer_outputs_must_be_equal():
    c = judge_output(0, np.array([1, 2]), np.array([1, 3]), None)
    assert not c.ok and c.detail == "first at (1,): expected 2, got 3"


# -- tolerances and inputs ---------------------------------------------------------------------


@pytest.mark.parametrize("name", ["rtol", "atol", "rounding", "input_scale"])
@pytest.mark.parametrize("value", [math.nan, math.inf, -1.0])
def test_tolerances_must_be_finite_and_not_negative(name, value):
    module = _program(MLP)
    with pytest.raises(ShardonnayError, match=f"{name} must be a finite number >= 0"):
        check(module, **{name: value})


@pytest.mark.parametrize("flag", ["--rtol", "--atol", "--rounding", "--input-scale"])
@pytest.mark.parametrize("value", ["nan", "inf", "-1"])
def test_cli_tolerances_must_be_finite_and_not_negative(capsys, flag, value):
    assert main(["partition", str(MLP), "--simulate", flag, value]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"error: {flag} must be a finite number >= 0") and "Traceback" not in err


def test_inputs_from_an_npz_file(tmp_path, capsys):
    module = _program(MLP)
    inputs = random_inputs(module, seed=5)
    path = tmp_path / "inputs.npz"
    np.savez(path, *inputs)
    assert main(["partition", str(MLP), "--simulate", "--inputs", str(path)]) == 0
    out = capsys.readouterr().out
    assert "given inputs" in out
    with np.load(path) as data:
        assert check(module, inputs=data).outputs == check(module, inputs=inputs).outputs
    assert check(module, inputs=str(path)).outputs == check(module, inputs=inputs).outputs
    named = tmp_path / "named.npz"
    np.savez(named, arg0=inputs[0], arg2=inputs[2])
    assert main(["partition", str(MLP), "--simulate", "--inputs", str(named)]) == 1
    assert "missing arg1" in capsys.readouterr().err
    assert main(["partition", str(MLP), "--simulate", "--inputs", str(MLP)]) == 1
    assert "cannot read the inputs" in capsys.readouterr().err


def test_an_input_scale_multiplies_the_float_inputs():
    module = _program(MLP)
    small = check(module, input_scale=1e-3)
    assert small.ok and "floats scaled by 0.001" in small.table()
    large = check(module, input_scale=1e3)
    assert large.outputs[0].own_error > small.outputs[0].own_error
