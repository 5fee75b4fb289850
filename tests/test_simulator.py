"""The mesh simulator: per-device programs run on every device of their mesh.

`simulate` cuts the inputs per `main`'s argument shardings (`layout.shard`),
runs the program on every device in lockstep and puts the results together
(`layout.unshard`). End to end, the per-device program of a Shardy-partitioned
program computes what the original program computes, both for our
`convert_global_to_local` and for Shardy's own `sdy-convert-global-to-local`.
"""

from __future__ import annotations

import numpy as np
import pytest

from partitioned_programs import corpus_cases, random_cases, shardy_local_of
from shardonnay import parse_module, run
from shardonnay.errors import LayoutError, PartitionError, ShardonnayError
from shardonnay.layout import device_slices
from shardonnay.mesh import Mesh
from shardonnay.partition.global_to_local import convert_global_to_local
from shardonnay.runtime.simulator import simulate
from shardonnay.sharding import TensorSharding

RANDOM_PROGRAMS = 300


def assert_close(got, want) -> None:
    assert len(got) == len(want)
    for i, (g, w) in enumerate(zip(got, want, strict=True)):
        assert g.shape == w.shape, (i, g.shape, w.shape)
        np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-5, err_msg=f"result {i}")


# -- the simulator on hand-written per-device programs --------------------------------------------


def test_partition_id_is_the_device_id_in_mesh_order() -> None:
    module = parse_module(
        """
        sdy.mesh @mesh = <["x"=2, "y"=2], device_ids=[3, 1, 2, 0]>
        func.func @main() -> (tensor<1xui32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}]>}) {
          %0 = stablehlo.partition_id : tensor<ui32>
          %1 = stablehlo.reshape %0 : (tensor<ui32>) -> tensor<1xui32>
          return %1 : tensor<1xui32>
        }"""
    )
    (ids,) = simulate(module)
    np.testing.assert_array_equal(ids, [3, 1, 2, 0])


def test_each_device_gets_its_shard_of_each_input() -> None:
    module = parse_module(
        """
        sdy.mesh @mesh = <["x"=2, "y"=4]>
        func.func @main(
            %arg0: tensor<4x2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}
        ) -> (tensor<4x2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) {
          %0 = stablehlo.partition_id : tensor<ui32>
          %1 = stablehlo.convert %0 : (tensor<ui32>) -> tensor<f32>
          %2 = stablehlo.broadcast_in_dim %1, dims = [] : (tensor<f32>) -> tensor<4x2xf32>
          %3 = stablehlo.add %arg0, %2 : tensor<4x2xf32>
          return %3 : tensor<4x2xf32>
        }"""
    )
    x = np.arange(64, dtype=np.float32).reshape(8, 8)
    (got,) = simulate(module, x)
    mesh = Mesh({"x": 2, "y": 4})
    sharding = TensorSharding.from_axes(mesh, ["x", "y"])
    want = x.copy()
    for device, region in device_slices(x.shape, sharding, mesh).items():
        want[region] += device
    np.testing.assert_array_equal(got, want)


def test_replicated_results_must_agree_across_devices() -> None:
    module = parse_module(
        """
        sdy.mesh @mesh = <["x"=2]>
        func.func @main() -> tensor<1xui32> {
          %0 = stablehlo.partition_id : tensor<ui32>
          %1 = stablehlo.reshape %0 : (tensor<ui32>) -> tensor<1xui32>
          return %1 : tensor<1xui32>
        }"""
    )
    with pytest.raises(LayoutError, match="devices 0 and 1"):
        simulate(module)


def test_an_input_that_does_not_shard_to_the_argument_type_is_an_error() -> None:
    module = parse_module(
        """
        sdy.mesh @mesh = <["x"=2]>
        func.func @main(%arg0: tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>})
            -> tensor<4xf32> {
          return %arg0 : tensor<4xf32>
        }"""
    )
    with pytest.raises(ShardonnayError, match="input 0 of @main"):
        simulate(module, np.zeros(6, np.float32))


def test_collectives_exchange_buffers_between_devices() -> None:
    module = parse_module(
        """
        sdy.mesh @mesh = <["x"=2, "y"=2]>
        func.func @main(%arg0: tensor<1xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", "y"}]>})
            -> (tensor<1xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}]>}) {
          %0 = "stablehlo.all_reduce"(%arg0) <{channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>,
              replica_groups = dense<[[0, 2], [1, 3]]> : tensor<2x2xi64>, use_global_device_ids}> ({
          ^bb0(%a: tensor<f32>, %b: tensor<f32>):
            %s = stablehlo.add %a, %b : tensor<f32>
            stablehlo.return %s : tensor<f32>
          }) : (tensor<1xf32>) -> tensor<1xf32>
          return %0 : tensor<1xf32>
        }"""  # noqa: E501
    )
    (got,) = simulate(module, np.array([1, 2, 10, 20], np.float32))
    np.testing.assert_array_equal(got, [11, 22])


# -- end to end: Shardy's partitioner, convert_global_to_local, simulate --------------------------

# Corpus programs whose Shardy-partitioned form convert_global_to_local rejects, and why.
UNSUPPORTED_CORPUS = {
    "elementwise_zoo": "not divisible",  # dims of 18 on 4 devices need masking
    "uneven_shapes": "not divisible",
    "two_meshes": "meshes",
    "reductions_and_sort": "single binary body",  # an argmax over a sharded dim
    # Shardy leaves chlo.square (no sharding rule) with a sharded operand and a
    # replicated result, without a reshard between them.
    "mlp_train_step": "a reshard is missing",
}


@pytest.mark.parametrize("index", range(17), ids=lambda i: f"corpus{i}")
def test_corpus_programs_compute_what_the_original_computes(index: int) -> None:
    pytest.importorskip("jax")
    cases = corpus_cases()
    assert len(cases) == 17
    case = cases[index]
    partitioned = parse_module(case.partitioned)
    if case.name in UNSUPPORTED_CORPUS:
        with pytest.raises(PartitionError, match=UNSUPPORTED_CORPUS[case.name]):
            convert_global_to_local(partitioned)
        return
    local = convert_global_to_local(partitioned)
    assert_close(simulate(local, *case.inputs), run(parse_module(case.text), *case.inputs))


def _supported_random_cases():
    supported = []
    for case in random_cases(RANDOM_PROGRAMS):
        try:
            local = convert_global_to_local(parse_module(case.partitioned))
        except PartitionError:
            continue
        supported.append((case, local))
    return supported


def test_random_programs_compute_what_the_original_computes() -> None:
    pytest.importorskip("jax")
    supported = _supported_random_cases()
    assert len(supported) >= 90  # of 300; most others have dims their shards do not divide
    for case, local in supported:
        want = run(parse_module(case.text), *case.inputs)
        try:
            assert_close(simulate(local, *case.inputs), want)
        except AssertionError as e:
            raise AssertionError(f"{case.name}: {e}") from None


# -- Shardy's own local programs, run by the simulator --------------------------------------------

# Shardy fails on these ops (region arguments of while loops keep their global
# types; chlo ops are not converted; the gather of rows of a sharded table crashes).
SHARDY_CANNOT = ("stablehlo.while", "stablehlo.case", "chlo.", "stablehlo.gather")


def _shardy_comparable(case) -> bool:
    """Programs on which Shardy's conversion is expected to work and be right:
    no ops it cannot convert, no sub-axes (see the xfails below), and every
    sdy.all_reduce a sum."""
    text = case.partitioned
    if any(name in text for name in SHARDY_CANNOT) or '":(' in text:
        return False
    module = parse_module(text)
    for op in module.walk():
        if op.name == "sdy.all_reduce" and op.operands[0].op is not None:
            producer = op.operands[0].op
            if producer.name in ("stablehlo.reduce", "stablehlo.scatter"):
                body = producer.regions[0].entry.ops
                if body[0].name != "stablehlo.add":
                    return False
    return True


def test_shardy_local_programs_compute_what_the_original_computes() -> None:
    pytest.importorskip("jax")
    cases = [c for c in corpus_cases() if c.name not in UNSUPPORTED_CORPUS]
    cases += [c for c, _ in _supported_random_cases()]
    comparable = tuple(c for c in cases if _shardy_comparable(c))
    assert len(comparable) >= 60
    for case, text in zip(comparable, shardy_local_of(comparable), strict=True):
        assert text is not None, f"Shardy failed on {case.name}"
        got = simulate(parse_module(text), *case.inputs)
        want = run(parse_module(case.text), *case.inputs)
        try:
            assert_close(got, want)
        except AssertionError as e:
            raise AssertionError(f"{case.name}: {e}") from None


SUB_AXIS_PROGRAM = """
sdy.mesh @mesh = <["w"=4]>
func.func @main(%arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>})
    -> (tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>}) {
  %0 = sdy.all_slice [{"w":(2)2}, {}] %arg0 out_sharding=<@mesh, [{"w":(2)2}, {}]> : tensor<8x4xf32>
  %1 = stablehlo.cosine %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"w":(2)2}, {}]>]>} : tensor<8x4xf32>
  %2 = sdy.all_gather [{"w":(2)2}, {}] %1 out_sharding=<@mesh, [{}, {}]> : tensor<8x4xf32>
  return %2 : tensor<8x4xf32>
}
"""  # noqa: E501

MAX_PROGRAM = """
sdy.mesh @mesh = <["x"=2]>
func.func @main(%arg0: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>})
    -> (tensor<4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}]>}) {
  %0 = sdy.constant dense<0xFF800000> : tensor<f32>
  %1 = stablehlo.reduce(%arg0 init: %0) applies stablehlo.maximum across dimensions = [1] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}]>]>} : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
  %2 = sdy.all_reduce {"x"} %1 out_sharding=<@mesh, [{}]> : tensor<4xf32>
  return %2 : tensor<4xf32>
}
"""  # noqa: E501


@pytest.mark.parametrize("program", [SUB_AXIS_PROGRAM, MAX_PROGRAM], ids=["sub_axis", "max"])
def test_ours_computes_what_the_global_program_computes(program: str) -> None:
    module = parse_module(program)
    x = np.random.default_rng(0).normal(size=module.function("main").type.inputs[0].shape)
    x = x.astype(np.float32)
    assert_close(simulate(convert_global_to_local(module), x), run(module, x))


def _shardy_numbers(program: str) -> None:
    pytest.importorskip("jax")
    from partitioned_programs import shardy_local

    module = parse_module(program)
    x = np.random.default_rng(0).normal(size=module.function("main").type.inputs[0].shape)
    x = x.astype(np.float32)
    (text,) = shardy_local([program])
    assert text is not None
    assert_close(simulate(parse_module(text), x), run(module, x))


@pytest.mark.xfail(
    strict=True,
    raises=(AssertionError, LayoutError),
    reason="Shardy's offset tables take a sub-axis coordinate from the wrong end of its axis "
    '("w":(2)2 on "w"=4 gets offsets [0, 0, 4, 4] instead of [0, 4, 0, 4]), so its '
    "all_slice and collective_permute put shards on the wrong devices",
)
def test_shardy_local_program_is_right_on_sub_axes() -> None:
    _shardy_numbers(SUB_AXIS_PROGRAM)


@pytest.mark.xfail(
    strict=True,
    raises=AssertionError,
    reason="Shardy lowers every sdy.all_reduce to a sum, also one combining the partial "
    "results of a max reduction",
)
def test_shardy_local_program_is_right_on_all_reduce_of_a_max() -> None:
    _shardy_numbers(MAX_PROGRAM)
