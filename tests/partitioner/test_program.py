"""The partitioner end to end: `shardonnay.partition`, `explicit_collectives` and `check`.

A partitioned program, run on every device of its mesh, computes what the
reference interpreter computes on the unpartitioned program; its buffers are
the layout's local shapes; its communication is the cost model's.
"""

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import shardonnay
from shardonnay import parse_module
from shardonnay.errors import CheckError, PartitionError
from shardonnay.layout import local_shape
from shardonnay.partitioner.analysis.cost import SDY_COLLECTIVES, collective_costs
from shardonnay.partitioner.analysis.memory import peak_memory
from shardonnay.partitioner.program import explicit_collectives, partition
from shardonnay.runtime.check import CheckResult, check
from shardonnay.runtime.interpreter import random_inputs
from shardonnay.runtime.numerics import compare_output
from shardonnay.testing.pinned_programs import RESULTS_ON_TWO_DEVICES

ROOT = Path(__file__).parent.parent.parent
CORPUS = ROOT / "tests" / "corpus"
MLP = ROOT / "examples" / "mlp.mlir"

# The corpus programs the partitioner handles today (the others have uneven
# dims, ops without a sharding rule or several meshes).
PARTITIONED = [
    "control_flow",
    "conv_net",
    "embedding_lookup",
    "mlp_forward",
    "reshape_sub_axes",
    "scan_rnn",
    "scatter_add",
    "shard_alike",
    "shard_map_psum",
    "sharding_constraints",
    "transformer_block_backward",
    "transformer_block_forward",
]


TWO_MESHES = """
sdy.mesh @a = <["x"=2]>
sdy.mesh @b = <[], device_ids=[3]>
func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@a, [{"x"}]>})
    -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@a, [{"x"}]>}) {
  %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@b, []>]>} : tensor<8xf32>
  return %0 : tensor<8xf32>
}
"""


def _read(path: Path):
    return parse_module(path.read_text(), str(path))


def _corpus(name: str):
    return _read(CORPUS / f"{name}.mlir")


def _mesh_of(module, sharding):
    return module.meshes[sharding.mesh] if isinstance(sharding.mesh, str) else sharding.mesh


@pytest.mark.parametrize("name", PARTITIONED)
def test_partitioned_corpus_programs_compute_what_the_program_computes(name):
    module = _corpus(name)
    result = check(module, seed=0)
    assert isinstance(result, CheckResult) and result.ok
    assert [o.index for o in result.outputs] == list(
        range(len(module.function("main").type.results))
    )
    assert result.max_rel_error < 1e-5
    # every argument buffer is the layout's local shape of the propagated sharding
    main = result.explicit.function("main")
    local_main = result.local.function("main")
    for i, (global_type, local_type) in enumerate(
        zip(main.type.inputs, local_main.type.inputs, strict=True)
    ):
        sharding = main.arg_attrs(i).get("sdy.sharding")
        expected = (
            global_type.shape
            if sharding is None
            else local_shape(global_type.shape, sharding, _mesh_of(result.explicit, sharding))
        )
        assert local_type.shape == expected
    # the local program talks through StableHLO collectives only
    assert not [op.name for op in result.local.walk() if op.name in SDY_COLLECTIVES]


@pytest.mark.parametrize("name", ["mlp_forward", "transformer_block_forward"])
def test_check_runs_on_given_inputs(name):
    data = np.load(CORPUS / f"{name}.npz")
    inputs = [data[f"input{i}"] for i in range(sum(k.startswith("input") for k in data.files))]
    result = check(_corpus(name), inputs=inputs)
    assert result.ok and result.seed is None and "given inputs" in result.table()


def test_partition_leaves_its_input_unchanged():
    module = _corpus("transformer_block_forward")
    before = module.to_text()
    partition(module)
    explicit_collectives(module)
    check(module)
    assert module.to_text() == before


def test_the_cost_report_is_of_the_program_with_explicit_collectives():
    module = _corpus("mlp_forward")
    explicit = explicit_collectives(module)
    sdy_ops = [op for op in explicit.walk() if op.name in SDY_COLLECTIVES]
    assert sdy_ops and not [op for op in explicit.walk() if op.name == "sdy.reshard"]
    result = check(module)
    assert result.costs == collective_costs(explicit)
    assert [c.op_name for c in result.costs.collectives] == [op.name for op in sdy_ops]
    assert result.num_collectives == len(result.costs.communicating) > 0
    assert result.bytes_received == result.costs.bytes_received > 0
    assert result.peak_memory == peak_memory(partition(module))


def test_without_propagation_only_the_written_shardings_are_partitioned():
    module = _read(MLP)
    w2 = module.function("main").type.inputs[2]
    propagated = partition(module).function("main").type.inputs[2]
    as_written = partition(module, propagate=False).function("main").type.inputs[2]
    assert as_written.shape == w2.shape  # no sharding on %w2: every device holds all of it
    assert propagated.shape == (w2.shape[0] // 4, w2.shape[1])  # "model"=4 from the first layer
    assert check(module, propagate=False).ok


def test_a_tolerance_of_zero_names_the_output_reordered_sums_change():
    module = _read(MLP)
    inputs = random_inputs(module, seed=3)
    expected = shardonnay.run(module, *inputs)[0].astype(np.float64)
    got = shardonnay.simulate(shardonnay.partition(module), *inputs)[0].astype(np.float64)
    error = np.abs(expected - got)
    assert error.max() > 0  # the dot's partial sums are added in another order
    with pytest.raises(CheckError, match=r"^output 0 \(%\w+: \(16, 8\) float32\) of @main") as info:
        check(module, seed=3, rounding=0, rtol=0, atol=0)
    comparison = info.value.comparison
    assert comparison.max_abs_error == error.max()
    assert comparison.mismatches == np.count_nonzero(error)
    first = tuple(int(i) for i in np.argwhere(error)[0])
    assert f"first at {first}:" in str(info.value)
    assert not info.value.result.ok and "FAIL" in info.value.result.table()


def test_a_value_pinned_to_one_device_is_moved_there_and_back():
    assert check(parse_module(TWO_MESHES)).ok


def test_what_cannot_be_made_local_raises_partition_error():
    with pytest.raises(PartitionError, match="pinned to different devices"):
        partition(parse_module(RESULTS_ON_TWO_DEVICES))
    with pytest.raises(PartitionError):
        check(parse_module(RESULTS_ON_TWO_DEVICES))


# -- comparing one output ---------------------------------------------------------------------


def test_float_errors_are_relative_to_the_largest_magnitude():
    expected = np.array([1e-4, 10.0], np.float32)
    got = np.array([1.1e-4, 10.0], np.float32)  # 10% off, relative to the element
    c = compare_output(0, expected, got, rtol=0, atol=None)
    assert c.ok and c.abs_tolerance == pytest.approx(np.sqrt(np.finfo(np.float32).eps) * 10)
    assert c.max_rel_error == pytest.approx(1e-5 / 10, rel=1e-3)
    assert not compare_output(0, expected, got, rtol=1e-3, atol=1e-6).ok


def test_nans_and_infinities_must_be_where_the_reference_has_them():
    expected = np.array([np.nan, np.inf, 1.0])
    assert compare_output(0, expected, expected.copy(), rtol=0, atol=0).ok
    moved = compare_output(0, expected, np.array([1.0, np.inf, np.nan]), rtol=1, atol=1)
    assert moved.mismatches == 2 and moved.max_abs_error == np.inf
    flipped = compare_output(0, expected, np.array([np.nan, -np.inf, 1.0]), rtol=1, atol=1)
    assert flipped.mismatches == 1 and flipped.detail.startswith("first at (1,)")


def test_integers_must_be_equal_and_shapes_must_agree():
    c = compare_output(2, np.array([[1, 2], [3, 4]]), np.array([[1, 2], [3, 5]]), rtol=1, atol=9)
    assert c.mismatches == 1 and c.max_abs_error == 1
    assert c.detail == "first at (1, 1): expected 4, got 5"
    wrong = compare_output(0, np.zeros((2, 3)), np.zeros((3, 2)), rtol=1, atol=1)
    assert not wrong.ok and "(3, 2)" in wrong.detail


# -- one name for the function and the package ------------------------------------------------


def test_the_top_level_names_are_the_partitioners_functions():
    import shardonnay.partitioner.analysis.cost as cost_module

    module = _read(MLP)
    assert shardonnay.partition is partition and shardonnay.check is check
    assert shardonnay.partition(module).to_text() == partition(module).to_text()
    assert shardonnay.partitioner.analysis.cost is cost_module
    assert {"partition", "check", "explicit_collectives", "reshard_plan"} <= set(shardonnay.__all__)


def test_importing_a_submodule_first_still_gives_the_callable_package():
    code = (
        "import shardonnay.partitioner.analysis.memory as memory\n"
        "import shardonnay\n"
        f"m = shardonnay.parse_module(open(r'{MLP}').read())\n"
        "assert shardonnay.partitioner.analysis.memory is memory\n"
        "print(shardonnay.partition(m).function('main').type)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip().startswith("(tensor<8x32xf32>, tensor<32x16xf32>")


def test_bfloat16_outputs_are_compared_as_floats():
    ml_dtypes = pytest.importorskip("ml_dtypes")
    expected = np.array([1.0, 2.0, 100.0], ml_dtypes.bfloat16)
    got = np.array([1.0, 2.5, 100.0], ml_dtypes.bfloat16)
    c = compare_output(0, expected, got, rtol=0, atol=None)
    assert c.ok and c.max_abs_error == 0.5
    epsilon = float(ml_dtypes.finfo(ml_dtypes.bfloat16).eps)
    assert c.abs_tolerance == pytest.approx(np.sqrt(epsilon) * 100)
    assert not compare_output(0, expected, got, rtol=0, atol=0.1).ok
