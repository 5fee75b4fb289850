"""Reshards lowered by `reshard_plan` where it receives fewer bytes than Shardy's lowering.

Programs reshard between two ops (`sdy.sharding_constraint`); each is
partitioned with `reshards="shardonnay"` (the default) and `"shardy"`, run
on every device (`check`: `simulate` against the reference interpreter,
padding poisoned) and costed by `collective_costs`.
"""

from __future__ import annotations

import dataclasses
import random
from pathlib import Path

import pytest

from shardonnay.errors import ShardingError
from shardonnay.mesh import Mesh
from shardonnay.partitioner.analysis.cost import collective_costs
from shardonnay.partitioner.program import explicit_collectives, partition
from shardonnay.partitioner.reshard.plan import lower_bound
from shardonnay.partitioner.reshard.planned import lower_reshards
from shardonnay.runtime.check import check
from shardonnay.sharding import TensorSharding
from shardonnay.syntax.mlir_reader import parse_module
from shardonnay.testing.sharding_pairs import SWEEP_MESHES, random_pair, sweep_pairs

CORPUS = Path(__file__).parent.parent / "corpus"
INSERT_RESHARDS = (
    "builtin.module(sdy-propagation-pipeline, "
    "func.func(sdy-insert-explicit-reshards{enable-full-version=true}))"
)
LOWER = "builtin.module(func.func(sdy-reshard-to-collectives))"
COLLECTIVES = ("sdy.all_gather", "sdy.all_slice", "sdy.all_to_all", "sdy.collective_permute")


def _mesh_text(mesh: Mesh) -> str:
    axes = ", ".join(f'"{name}"={size}' for name, size in mesh.axes)
    ids = (
        "" if mesh.device_ids is None else f", device_ids=[{', '.join(map(str, mesh.device_ids))}]"
    )
    return f"<[{axes}]{ids}>"


def _named(sharding: TensorSharding, name: str) -> str:
    return dataclasses.replace(sharding, mesh=name).body()


def resharding_program(
    src: TensorSharding, dst: TensorSharding, shape, src_mesh: Mesh, dst_mesh: Mesh | None = None
) -> str:
    """`%0 = add` laid out as `src`, constrained to `dst`, `%2 = multiply` laid out as `dst`."""
    meshes = f"sdy.mesh @src = {_mesh_text(src_mesh)}\n"
    dst_name = "src"
    if dst_mesh is not None and dst_mesh != src_mesh:
        meshes += f"sdy.mesh @dst = {_mesh_text(dst_mesh)}\n"
        dst_name = "dst"
    a, b = _named(src, "src"), _named(dst, dst_name)
    t = f"tensor<{''.join(f'{d}x' for d in shape)}f32>"
    return f"""{meshes}
func.func @main(%arg0: {t} {{sdy.sharding = #sdy.sharding{a}}}) -> ({t} {{sdy.sharding = #sdy.sharding{b}}}) {{
  %0 = stablehlo.add %arg0, %arg0 {{sdy.sharding = #sdy.sharding_per_value<[{a}]>}} : {t}
  %1 = sdy.sharding_constraint %0 {b} : {t}
  %2 = stablehlo.multiply %1, %1 {{sdy.sharding = #sdy.sharding_per_value<[{b}]>}} : {t}
  return %2 : {t}
}}"""  # noqa: E501


def both_lowerings(
    text: str, *, propagate: bool = False, reshards: str = "collectives"
) -> tuple[int, int]:
    """Bytes the busiest device receives with Shardy's lowering and with
    `reshards`; both programs must compute what the program computes."""
    module = parse_module(text)
    shardy = check(module, propagate=propagate, reshards="shardy")
    planned = check(module, propagate=propagate, reshards=reshards)
    assert shardy.ok and planned.ok
    return shardy.bytes_received, planned.bytes_received


def _ops(module) -> list[str]:
    return [op.name for op in module.function("main").body.ops]


SEED_SRC = TensorSharding.parse('<@mesh, [{"x"}, {"y"}]>')
SEED_DST = TensorSharding.parse('<@mesh, [{"y"}, {"x"}]>')
MESH_2X3 = Mesh({"x": 2, "y": 3})


@pytest.mark.parametrize("shape", [(6, 6), (12, 12), (6, 12)])
@pytest.mark.parametrize("propagate", [False, True])
def test_swapping_the_axes_of_two_dims_takes_three_all_to_alls(shape, propagate):
    # [[0], [1]] -> [[1], [0]] on a 2x3 mesh: Shardy permutes between two
    # all-to-alls; the planner's three all-to-alls receive less.
    text = resharding_program(SEED_SRC, SEED_DST, shape, MESH_2X3)
    shardy, planned = both_lowerings(text, propagate=propagate)
    assert planned < shardy
    explicit = explicit_collectives(parse_module(text), propagate=propagate, reshards="collectives")
    assert [n for n in _ops(explicit) if n in COLLECTIVES] == ["sdy.all_to_all"] * 3


def test_the_planned_chain_ends_at_the_reshards_target():
    text = resharding_program(SEED_SRC, SEED_DST, (6, 6), MESH_2X3)
    explicit = explicit_collectives(parse_module(text), propagate=False, reshards="collectives")
    last = [op for op in explicit.function("main").body.ops if op.name in COLLECTIVES][-1]
    assert last.attributes["out_sharding"] == dataclasses.replace(SEED_DST, mesh="src")
    report = collective_costs(explicit)
    assert report.bytes_received == 44  # the planner's bytes (reshard_plan's docstring)


@pytest.mark.parametrize("shape", [(6, 6), (12, 12)])
def test_by_default_a_swap_fetches_exactly_the_tiles_each_device_lacks(shape):
    # No chain of sdy collectives reaches the lower bound here: the reshard
    # stays, and the per-device program fetches what each device lacks.
    text = resharding_program(SEED_SRC, SEED_DST, shape, MESH_2X3)
    module = parse_module(text)
    explicit = explicit_collectives(module, propagate=False)
    assert [n for n in _ops(explicit) if n in (*COLLECTIVES, "sdy.reshard")] == ["sdy.reshard"]
    bound = lower_bound(SEED_SRC, SEED_DST, MESH_2X3, shape)
    assert check(module, propagate=False).ok
    local = collective_costs(partition(module, propagate=False)).bytes_received
    chains = both_lowerings(text)
    assert local == bound < min(chains)


@pytest.mark.parametrize("name", sorted(SWEEP_MESHES))
def test_every_pair_of_whole_axis_shardings_is_never_worse(name):
    mesh = SWEEP_MESHES[name]
    shape = {2: (12, 12), 3: (4, 6, 12)}
    better = 0
    for rank in (2, 3):
        pairs = sweep_pairs(mesh, rank, unreduced=False)
        for src, dst in pairs[:: max(1, len(pairs) // 50)]:  # about 50 pairs
            shardy, planned = both_lowerings(resharding_program(src, dst, shape[rank], mesh))
            assert planned <= shardy, (src, dst)
            better += planned < shardy
    assert better > 0


def test_random_pairs_with_sub_axes_uneven_dims_and_device_orders():
    # Sub-axes, uneven dims, meshes with other device orders (one mesh per
    # program); pending sums are not resharded (insert_explicit_reshards
    # reduces them first).
    rng = random.Random(7)
    done = 0
    while done < 40:
        src, dst, shape = random_pair(rng)
        src_mesh, dst_mesh = src.mesh, dst.mesh
        if not shape or src_mesh != dst_mesh:
            continue
        src = dataclasses.replace(src, unreduced=(), reduction="sum")
        dst = dataclasses.replace(dst, unreduced=(), reduction="sum")
        text = resharding_program(src, dst, shape, src_mesh, dst_mesh)
        try:
            shardy, planned = both_lowerings(text)
        except ShardingError:  # Shardy's lowering passes through overlapping sub-axes
            continue
        assert planned <= shardy, (src, dst, shape)
        done += 1


@pytest.mark.parametrize("shape", [(6, 4, 3), (12, 8, 6)])
def test_a_planned_chain_replaces_a_lowering_through_overlapping_sub_axes(shape):
    # "x"=6 split as 3*2 by the source and as 2*3 by the target: Shardy's
    # lowering slices "x":(2)3 next to "x":(1)3, an invalid sharding.
    mesh = Mesh({"x": 6, "y": 2})
    src = TensorSharding.parse('<@mesh, [{"x":(1)3}, {"y", "x":(3)2}, {}]>')
    dst = TensorSharding.parse('<@mesh, [{}, {}, {"x":(2)3}]>')
    module = parse_module(resharding_program(src, dst, shape, mesh))
    with pytest.raises(ShardingError, match="overlapping sub-axes"):
        check(module, propagate=False, reshards="shardy")
    assert check(module, propagate=False).ok


def test_the_shardy_option_is_shardys_text():
    pytest.importorskip("jax")
    from shardonnay.testing.mlir_oracle import run_pass_pipeline

    texts = [
        resharding_program(SEED_SRC, SEED_DST, (6, 6), MESH_2X3),
        (CORPUS / "mlp_forward.mlir").read_text(),
        (CORPUS / "transformer_block_forward.mlir").read_text(),
    ]
    for text in texts:
        with_reshards = run_pass_pipeline(text, INSERT_RESHARDS)
        ours = lower_reshards(parse_module(with_reshards), reshards="shardy").to_text()
        assert ours == run_pass_pipeline(with_reshards, LOWER)


def test_shardys_verifier_accepts_the_planned_collectives():
    pytest.importorskip("jax")
    from shardonnay.testing.mlir_oracle import jaxlib_accepts, run_pass_pipeline

    text = run_pass_pipeline(
        resharding_program(SEED_SRC, SEED_DST, (12, 12), MESH_2X3), INSERT_RESHARDS
    )
    planned = lower_reshards(parse_module(text), reshards="collectives")
    assert _ops(planned).count("sdy.all_to_all") == 3
    assert jaxlib_accepts(planned.to_text())


def test_an_unknown_lowering_is_refused():
    module = parse_module(resharding_program(SEED_SRC, SEED_DST, (6, 6), MESH_2X3))
    with pytest.raises(ValueError, match="reshards='xla'"):
        explicit_collectives(module, reshards="xla")


@pytest.mark.parametrize("name", ["uneven_shapes", "sharding_constraints", "mlp_train_step"])
def test_the_per_device_program_communicates_no_more(name):
    # Chains through shardings that pad are left to Shardy: there the
    # per-device program adds exchanges the global costs do not count.
    module = parse_module((CORPUS / f"{name}.mlir").read_text())
    shardy = collective_costs(partition(module, reshards="shardy"))
    planned = collective_costs(partition(module))
    # Bytes are what the planner minimizes: a cheaper chain may take more steps.
    assert planned.bytes_received <= shardy.bytes_received
