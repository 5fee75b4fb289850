"""`sdy-resolve-permutation-factors` against Shardy's pass of that name (MLIR inside jaxlib).

Inputs: the random programs after Shardy's own partitioner steps
(`sdy-propagation-pipeline`, the full `sdy-insert-explicit-reshards`), 500 of
them, and hand-written cases of each kind of op the pass resolves (slices
that need or need no data from other shards, pads, reverses on meshes with
and without device ids, sub-axes, a taken mesh name). The whole printed
module must be identical; where Shardy rejects (or aborts on) a program,
shardonnay raises.
"""

from __future__ import annotations

import pytest

from shardonnay.errors import ShardingError
from shardonnay.export.permutation_factors import resolve_permutation_factors
from shardonnay.passes import pass_options, run_pipeline
from shardonnay.syntax.mlir_reader import parse_module

PARTITION = (
    "builtin.module(sdy-propagation-pipeline,"
    "func.func(sdy-insert-explicit-reshards{enable-full-version=true}))"
)
RESOLVE = "builtin.module(sdy-resolve-permutation-factors)"
NO_HALO = "builtin.module(sdy-resolve-permutation-factors{enable-halo-exchange=false})"
BATCH = 50


def _assert_as_shardy(texts: list[str], pipeline: str) -> int:
    """Each of `texts` through `pipeline` in Shardy and in shardonnay: the
    same text, or shardonnay raises where Shardy fails. Returns how many
    Shardy ran."""
    from shardonnay.testing.mlir_oracle import run_pass_pipelines_isolated

    ran = 0
    for text, theirs in zip(
        texts, run_pass_pipelines_isolated([(t, pipeline) for t in texts]), strict=True
    ):
        if theirs is None:
            with pytest.raises(ShardingError):
                run_pipeline(parse_module(text), pipeline)
            continue
        ran += 1
        assert run_pipeline(parse_module(text), pipeline).to_text() == theirs, text
    return ran


@pytest.mark.parametrize("first", range(0, 500, BATCH))
def test_random_programs_match_shardy(first: int) -> None:
    pytest.importorskip("jax")
    from shardonnay.testing.mlir_oracle import run_pass_pipelines_isolated
    from shardonnay.testing.pass_programs import program

    texts = [program(seed, "plain") for seed in range(first, first + BATCH)]
    partitioned = run_pass_pipelines_isolated([(t, PARTITION) for t in texts])
    inputs = [t for t in partitioned if t is not None]
    assert _assert_as_shardy(inputs, RESOLVE) >= 0.9 * len(inputs)
    # Without halo exchange the random programs (which have no reverse) come out the same.
    assert _assert_as_shardy(inputs, NO_HALO) >= 0.9 * len(inputs)


def _slice(
    n: int, start: int, limit: int, stride: int = 1, axes: str = '"x"', out_axes: str | None = None
) -> str:
    size = -(-(limit - start) // stride)
    sharding = f"[{{{axes}}}]"
    out = sharding if out_axes is None else f"[{{{out_axes}}}]"
    text = f"""sdy.mesh @mesh = <["x"=2, "y"=3]>
func.func @main(%arg0: tensor<{n}xf32> {{sdy.sharding = #sdy.sharding<@mesh, {sharding}>}})
    -> (tensor<{size}xf32>) {{
  %0 = stablehlo.slice %arg0 [{start}:{limit}:{stride}]
      {{sdy.sharding = #sdy.sharding_per_value<[<@mesh, {out}>]>}}
      : (tensor<{n}xf32>) -> tensor<{size}xf32>
  return %0 : tensor<{size}xf32>
}}"""
    return text


def _pad(n: int, low: int, high: int, interior: int = 0) -> str:
    size = n + low + high + max(n - 1, 0) * interior
    s = '<@mesh, [{"x"}]>'
    return f"""sdy.mesh @mesh = <["x"=2]>
func.func @main(%arg0: tensor<{n}xf32> {{sdy.sharding = #sdy.sharding{s}}}, %arg1: tensor<f32>)
    -> tensor<{size}xf32> {{
  %0 = stablehlo.pad %arg0, %arg1, low = [{low}], high = [{high}], interior = [{interior}]
      {{sdy.sharding = #sdy.sharding_per_value<[{s}]>}}
      : (tensor<{n}xf32>, tensor<f32>) -> tensor<{size}xf32>
  return %0 : tensor<{size}xf32>
}}"""


def _reverse(mesh: str, shape: str, sharding: str, dims: str, *, extra_mesh: str = "") -> str:
    t = f"tensor<{shape}xf32>"
    s = f"<@mesh, {sharding}>"
    attrs = f"{{sdy.sharding = #sdy.sharding_per_value<[{s}]>}}"
    return f"""sdy.mesh @mesh = {mesh}
{extra_mesh}
func.func @main(%arg0: {t} {{sdy.sharding = #sdy.sharding{s}}}) -> {t} {{
  %0 = stablehlo.reverse %arg0, dims = {dims} {attrs} : {t}
  %1 = stablehlo.reverse %0, dims = {dims} {attrs} : {t}
  return %1 : {t}
}}"""


MESH = '<["x"=2, "y"=4]>'
CASES = {
    # a slice keeping its shard sizes from 0 needs nothing from other shards
    "slice_keeps_shard_sizes": _slice(8, 0, 7),
    "slice_from_zero_smaller_shards": _slice(8, 0, 5),
    "slice_from_one": _slice(8, 1, 8),
    "slice_strided": _slice(8, 0, 8, 2),
    "slice_two_axes": _slice(12, 0, 11, axes='"x", "y"'),
    "slice_unsharded": _slice(8, 1, 8, axes=""),
    "slice_sharded_otherwise": _slice(8, 1, 8, out_axes='"y"'),
    # every sharded padded dim is replicated (Shardy's version in jaxlib)
    "pad_high": _pad(7, 0, 1),
    "pad_low_and_high": _pad(8, 2, 2),
    "pad_interior": _pad(4, 0, 0, 1),
    "pad_nothing": _pad(8, 0, 0),
    # reverses: resharded onto the mesh with the reversed device order
    "reverse_one_axis": _reverse(MESH, "8x8", '[{"x"}, {}]', "[0]"),
    "reverse_two_axes_one_dim": _reverse(MESH, "8x8", '[{"x", "y"}, {}]', "[0]"),
    "reverse_two_dims": _reverse(MESH, "8x8", '[{"x"}, {"y"}]', "[0, 1]"),
    "reverse_minor_axis": _reverse(MESH, "8x8", '[{"y"}, {"x"}]', "[1]"),
    "reverse_sub_axis": _reverse(MESH, "8x8", '[{"y":(1)2}, {"x"}]', "[0]"),
    "reverse_unsharded_dim": _reverse(MESH, "8x8", '[{}, {"x"}]', "[0]"),
    "reverse_device_ids": _reverse(
        '<["x"=2, "y"=4], device_ids=[7, 6, 5, 4, 3, 2, 1, 0]>', "8x8", '[{"x"}, {}]', "[0]"
    ),
    "reverse_name_taken": _reverse(
        MESH, "8x8", '[{"x"}, {}]', "[0]", extra_mesh='sdy.mesh @mesh_reversed = <["a"=2]>'
    ),
    "reverse_onto_existing_mesh": _reverse(
        MESH,
        "8x8",
        '[{"x"}, {}]',
        "[0]",
        extra_mesh='sdy.mesh @other = <["x"=2, "y"=4], device_ids=[4, 5, 6, 7, 0, 1, 2, 3]>',
    ),
    # indivisible reversed dims: the padding shifted to the low end first
    "reverse_indivisible": _reverse(MESH, "7x8", '[{"x"}, {}]', "[0]"),
    "reverse_indivisible_minor_axis": _reverse(MESH, "8x7", '[{}, {"y"}]', "[1]"),
    "reverse_indivisible_two_dims": _reverse(MESH, "7x7", '[{"x"}, {"y"}]', "[0, 1]"),
    "reverse_indivisible_two_axes": _reverse(MESH, "7x8", '[{"x", "y"}, {}]', "[0]"),
    "reverse_indivisible_manual_axis_elsewhere": _reverse(MESH, "8x7", '[{"y"}, {"x"}]', "[1]"),
    "reverse_indivisible_sub_axis": _reverse(MESH, "7x8", '[{"y":(1)2}, {}]', "[0]"),
    "reverse_indivisible_axis_split": _reverse(MESH, "7x8", '[{"y":(1)2}, {"y":(2)2}]', "[0]"),
    "reverse_back_in_device_order": _reverse(
        '<["x"=2, "y"=4], device_ids=[7, 6, 5, 4, 3, 2, 1, 0]>', "8x8", '[{"x"}, {"y"}]', "[0, 1]"
    ),
    # padding larger than one shard: replicated even with halo exchange
    "reverse_padding_over_a_shard": _reverse('<["x"=4]>', "5x2", '[{"x"}, {}]', "[0]"),
}


@pytest.mark.parametrize("pipeline", [RESOLVE, NO_HALO], ids=["halo", "no_halo"])
def test_cases_match_shardy(pipeline: str) -> None:
    pytest.importorskip("jax")
    texts = [parse_module(t).to_text() for t in CASES.values()]
    # (Shardy aborts on "slice_sharded_otherwise", where shardonnay raises.)
    assert _assert_as_shardy(texts, pipeline) == len(texts) - 1


def test_a_slice_of_a_value_sharded_otherwise_is_an_error() -> None:
    text = _slice(8, 1, 8, out_axes='"y"')
    with pytest.raises(ShardingError, match="sharded differently"):
        resolve_permutation_factors(parse_module(text))


def test_an_indivisible_reverse_shifts_its_padding_in_a_manual_computation() -> None:
    text = CASES["reverse_indivisible"]
    out = resolve_permutation_factors(parse_module(text))
    names = [op.name for op in out.functions[0].body.ops]
    assert names[:6] == [
        "stablehlo.constant",
        "stablehlo.pad",
        "sdy.manual_computation",
        "sdy.reshard",
        "stablehlo.reverse",
        "stablehlo.slice",
    ]
    manual = out.functions[0].body.ops[2]
    body = [op.name for op in manual.regions[0].entry.ops]
    assert body == [
        "stablehlo.slice",
        "stablehlo.collective_permute",
        "stablehlo.slice",
        "stablehlo.concatenate",
        "sdy.return",
    ]
    # without halo exchange the reverse is replicated
    out = resolve_permutation_factors(parse_module(text), halo_exchange=False)
    reverse = next(op for op in out.walk() if op.name == "stablehlo.reverse")
    assert str(reverse.attributes["sdy.sharding"]) == "#sdy.sharding_per_value<[<@mesh, [{}, {}]>]>"


def test_each_reverse_reuses_the_reversed_mesh() -> None:
    out = resolve_permutation_factors(parse_module(CASES["reverse_one_axis"]))
    assert list(out.meshes) == ["mesh_reversed", "mesh"]
    reshards = [op for op in out.walk() if op.name == "sdy.reshard"]
    assert len(reshards) == 2
    assert all(op.attributes["sharding"].mesh == "mesh_reversed" for op in reshards)


def test_pass_is_registered_with_its_option() -> None:
    assert pass_options("sdy-resolve-permutation-factors") == {"enable-halo-exchange": "true"}
