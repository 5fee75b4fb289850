"""Reshard plans: run on data they give `layout.shard(x, dst)` from
`layout.shard(x, src)`, and no device receives less than the lower bound."""

from __future__ import annotations

import random

import numpy as np
import pytest

from shardonnay import Mesh, TensorSharding
from shardonnay.collectives import (
    AllGather,
    AllToAll,
    CollectivePermute,
    ReduceScatter,
    TileExchange,
)
from shardonnay.errors import PartitionError
from shardonnay.layout import device_slices
from shardonnay.partitioner.reshard.plan import baseline_plan, lower_bound, reshard_plan
from shardonnay.testing.sharding_pairs import (
    SWEEP_MESHES,
    SWEEP_SHAPES,
    check_plan,
    random_pair,
    sample_data,
    sweep_pairs,
)


def S(text: str) -> TensorSharding:
    return TensorSharding.parse(text)


def missing_elements(src, dst, mesh, shape) -> int:
    """Straight from `device_slices`: the most elements a device lacks of its target."""
    held, wanted = device_slices(shape, src, mesh), device_slices(shape, dst, mesh)
    worst = 0
    for device, region in wanted.items():
        mine = held[device]
        size = int(np.prod([s.stop - s.start for s in region]))
        overlap = int(
            np.prod(
                [
                    max(0, min(a.stop, b.stop) - max(a.start, b.start))
                    for a, b in zip(region, mine, strict=True)
                ]
            )
        )
        worst = max(worst, size - overlap)
    return worst


# -- the resharding notes' cases ------------------------------------------------------------

SWAP = (S('<@mesh, [{"x"}, {"y"}]>'), S('<@mesh, [{"y"}, {"x"}]>'))


@pytest.mark.parametrize(
    ("axes", "shape"),
    [
        ({"x": 2, "y": 3}, (6, 6)),
        ({"x": 2, "y": 6}, (6, 6)),
        ({"x": 3, "y": 2}, (7, 4)),
        ({"x": 4, "y": 2}, (9, 13)),
        ({"x": 2, "y": 5}, (16, 23)),
        ({"x": 3, "y": 4}, (27, 14)),
    ],
)
def test_transposing_the_grid_axes_reaches_the_lower_bound(axes, shape):
    # [[0], [1]] -> [[1], [0]] on an MxN mesh, a KxL tensor: the notes' TODO.
    mesh = Mesh(axes)
    src, dst = SWAP
    plan = reshard_plan(src, dst, mesh, shape)
    check_plan(plan)
    assert plan.bytes_received == plan.lower_bound == 4 * missing_elements(src, dst, mesh, shape)
    # each device fetches its tiles directly: one step, no device receives twice
    assert [type(c) for c in plan.collectives] == [TileExchange]


@pytest.mark.parametrize(
    ("axes", "shape"),
    [({"x": 2, "y": 3}, (6, 6)), ({"x": 2, "y": 6}, (6, 6)), ({"x": 3, "y": 4}, (27, 14))],
)
def test_with_shardys_collectives_only_the_transpose_beats_the_notes(axes, shape):
    mesh = Mesh(axes)
    src, dst = SWAP
    plan = reshard_plan(src, dst, mesh, shape, shardy_collectives_only=True)
    check_plan(plan)
    assert plan.is_shardy_expressible
    notes = baseline_plan(src, dst, mesh, shape)
    check_plan(notes)
    # the notes: all-gather "y", all-to-all "x", slice "y"
    assert [c.op_name for c in notes.collectives] == [
        "sdy.all_gather",
        "sdy.all_to_all",
        "sdy.all_slice",
    ]
    assert plan.bytes_received < notes.bytes_received


def test_the_6x6_transpose_on_a_2x3_mesh_in_numbers():
    mesh = Mesh({"x": 2, "y": 3})
    plan = reshard_plan(*SWAP, mesh, (6, 6))
    shardy = reshard_plan(*SWAP, mesh, (6, 6), shardy_collectives_only=True)
    notes = baseline_plan(*SWAP, mesh, (6, 6))
    # device (1, 0) holds rows 3-5 x cols 0-1 and needs rows 0-1 x cols 3-5: 6 floats
    assert (plan.bytes_received, shardy.bytes_received, notes.bytes_received) == (24, 44, 84)


@pytest.mark.parametrize(
    ("axes", "src", "dst", "shape", "ops"),
    [
        ({"x": 2, "y": 3}, '[{"x", "y"}]', '[{"y", "x"}]', (6,), ["sdy.collective_permute"]),
        # the notes gather mesh axis 0, which is not the minor one here: swap first
        (
            {"x": 2, "y": 3},
            '[{"x", "y"}]',
            '[{"y"}]',
            (6,),
            ["sdy.collective_permute", "sdy.all_gather"],
        ),
        ({"x": 3}, '[{"x"}, {}]', '[{}, {"x"}]', (6, 6), ["sdy.all_to_all"]),
        (
            {"x": 2, "y": 2, "z": 2},
            '[{"x"}, {"y", "z"}]',
            '[{"x"}, {"z"}]',
            (4, 8),
            ["sdy.collective_permute", "sdy.all_gather"],
        ),
        (
            {"x": 2, "y": 2, "z": 2},
            '[{"x"}, {"y", "z"}]',
            '[{"x", "y"}, {"z"}]',
            (4, 4),
            ["sdy.collective_permute", "sdy.all_to_all"],
        ),
        (
            {"a": 2, "b": 2, "c": 2, "d": 2},
            '[{"d", "c"}, {}, {"a", "b"}]',
            '[{"a"}, {"b", "c"}, {}]',
            (8, 8, 8),
            None,
        ),
    ],
)
def test_the_notes_examples_with_shardys_collectives(axes, src, dst, shape, ops):
    mesh = Mesh(axes)
    src, dst = S(f"<@mesh, {src}>"), S(f"<@mesh, {dst}>")
    plan = reshard_plan(src, dst, mesh, shape, shardy_collectives_only=True)
    check_plan(plan)
    notes = baseline_plan(src, dst, mesh, shape)
    check_plan(notes)
    assert plan.bytes_received <= notes.bytes_received
    if ops is not None:
        assert [c.op_name for c in plan.collectives] == ops


def test_moving_an_axis_between_dims_is_one_all_to_all_at_the_bound():
    mesh = Mesh({"x": 4})
    src, dst = S('<@mesh, [{"x"}, {}]>'), S('<@mesh, [{}, {"x"}]>')
    plan = reshard_plan(src, dst, mesh, (8, 8), shardy_collectives_only=True)
    assert plan.collectives == (AllToAll.move("x", 0, 1),)
    assert plan.bytes_received == plan.lower_bound == 4 * 16 * 3 // 4


def test_a_pending_sum_into_a_shard_is_a_reduce_scatter():
    mesh = Mesh({"x": 4})
    src, dst = S('<@mesh, [{}, {}], unreduced={"x"}>'), S('<@mesh, [{"x"}, {}]>')
    plan = reshard_plan(src, dst, mesh, (8, 8))
    check_plan(plan)
    assert plan.collectives == (ReduceScatter([("x",), ()]),)


def test_a_pending_axis_moving_into_a_dim_is_reduced_first():
    # a permute straight to [{"x"}] would use "x" twice (in a dim and unreduced)
    mesh = Mesh({"x": 4, "y": 4})
    src, dst = S('<@mesh, [{"y"}], unreduced={"x"}>'), S('<@mesh, [{"x"}]>')
    for only in (False, True):
        check_plan(reshard_plan(src, dst, mesh, (2,), shardy_collectives_only=only))


# -- sweeps and random pairs ----------------------------------------------------------------

SWEEP = [(name, rank, 1) for name in ("2x2", "2x3", "4x2") for rank in range(4)] + [
    ("2x2x2", 0, 1),
    ("2x2x2", 1, 3),
    ("2x2x2", 2, 23),
    ("2x2x2", 3, 97),
]
"""Every pair on the 4-device meshes (1224 each); a deterministic subset on 2x2x2
(`benchmarks/reshard.py` runs all 40,948)."""


@pytest.mark.parametrize(("name", "rank", "every"), SWEEP)
def test_sweep_of_whole_axis_shardings(name, rank, every):
    mesh = SWEEP_MESHES[name]
    shape = SWEEP_SHAPES[rank]
    for src, dst in sweep_pairs(mesh, rank, every=every):
        plan = reshard_plan(src, dst, mesh, shape)
        check_plan(plan)
        if not src.unreduced and not dst.unreduced:
            # nothing to reduce: a tile exchange moves exactly what is missing
            assert plan.bytes_received == plan.lower_bound
            assert plan.lower_bound == 4 * missing_elements(src, dst, mesh, shape)


@pytest.mark.parametrize("name", ["2x3", "2x2x2"])
def test_sweep_with_shardys_collectives_only(name):
    mesh = SWEEP_MESHES[name]
    for src, dst in sweep_pairs(mesh, 2, every=7 if name == "2x3" else 61):
        plan = reshard_plan(src, dst, mesh, SWEEP_SHAPES[2], shardy_collectives_only=True)
        check_plan(plan)
        assert plan.is_shardy_expressible
        notes = baseline_plan(src, dst, mesh, SWEEP_SHAPES[2])
        assert plan.bytes_received <= notes.bytes_received


@pytest.mark.parametrize("seed", range(10))
def test_random_pairs_with_sub_axes_uneven_dims_and_other_meshes(seed):
    rng = random.Random(seed)
    for _ in range(100):
        src, dst, shape = random_pair(rng)
        check_plan(reshard_plan(src, dst, None, shape))


def test_random_pairs_with_shardys_collectives_only():
    rng = random.Random(100)
    checked = 0
    while checked < 150:
        src, dst, shape = random_pair(rng)
        if src.mesh.axes != dst.mesh.axes:
            with pytest.raises(PartitionError, match="no Shardy collective moves a tensor"):
                reshard_plan(src, dst, None, shape, shardy_collectives_only=True)
            continue
        plan = reshard_plan(src, dst, None, shape, shardy_collectives_only=True)
        check_plan(plan)
        assert plan.is_shardy_expressible
        checked += 1


# -- meshes, errors, the bound ------------------------------------------------------------


def test_another_device_order_is_a_collective_permute():
    mesh = Mesh({"x": 2, "y": 4})
    other = Mesh({"x": 2, "y": 4}, device_ids=[4, 5, 6, 7, 0, 1, 2, 3])
    src = S('<@mesh, [{"x"}, {"y"}]>')
    dst = S('<@other, [{"x"}, {"y"}]>')
    plan = reshard_plan(
        src, dst, {"mesh": mesh, "other": other}, (4, 8), shardy_collectives_only=True
    )
    check_plan(plan)
    assert [type(c) for c in plan.collectives] == [CollectivePermute]
    assert plan.bytes_received == plan.lower_bound == 4 * 2 * 2


def test_another_mesh_over_the_same_devices():
    mesh, line = Mesh({"x": 2, "y": 4}), Mesh({"a": 8})
    src = S('<@mesh, [{"x"}, {"y"}]>')
    dst = S('<@line, [{}, {"a"}]>')
    meshes = {"mesh": mesh, "line": line}
    plan = reshard_plan(src, dst, meshes, (6, 8))
    check_plan(plan)
    assert plan.bytes_received == plan.lower_bound
    with pytest.raises(PartitionError, match="no Shardy collective moves a tensor"):
        reshard_plan(src, dst, meshes, (6, 8), shardy_collectives_only=True)


def test_meshes_over_different_devices_are_rejected():
    with pytest.raises(PartitionError, match="they hold different devices"):
        reshard_plan(
            S('<@a, [{"x"}]>'), S("<@b, [{}]>"), {"a": Mesh({"x": 4}), "b": Mesh({"x": 8})}, (8,)
        )
    with pytest.raises(PartitionError, match="they hold different devices"):
        reshard_plan(S("<@a, []>"), S("<@b, []>"), {"a": Mesh([], [1]), "b": Mesh({"x": 2})}, ())


def test_the_same_layout_needs_no_collective():
    mesh = Mesh({"x": 2, "y": 2})
    src = S('<@mesh, [{"x"}, {}], replicated={"y"}>')
    dst = S('<@mesh, [{"x", ?}, {}]>')
    plan = reshard_plan(src, dst, mesh, (4, 4))
    assert plan.steps == () and plan.bytes_received == plan.lower_bound == 0
    check_plan(plan)


def test_plans_work_on_any_data_and_dtype():
    mesh = Mesh({"x": 2, "y": 3})
    src, dst = S('<@mesh, [{"y"}, {}], unreduced={"x"}>'), S('<@mesh, [{"x"}, {"y"}]>')
    for dtype in (np.int32, np.float64):
        plan = reshard_plan(src, dst, mesh, (5, 7), dtype)
        x = sample_data((5, 7), dtype) * 3
        check_plan(plan, x)
        assert plan.bytes_received % np.dtype(dtype).itemsize == 0


def test_the_bound_of_a_pending_sum_counts_the_whole_target():
    # every device holds an addend, not the value: it must receive its whole shard
    mesh = Mesh({"x": 2, "y": 2})
    src, dst = S('<@mesh, [{"x"}, {}], unreduced={"y"}>'), S('<@mesh, [{"x"}, {}]>')
    assert lower_bound(src, dst, mesh, (4, 6)) == 4 * 2 * 6


def test_the_bound_of_an_unreduced_target_spreads_what_a_group_lacks():
    # [{"x"}] -> [{}], unreduced={"x"}: each device contributes what it holds
    mesh = Mesh({"x": 2})
    src, dst = S('<@mesh, [{"x"}]>'), S('<@mesh, [{}], unreduced={"x"}>')
    assert lower_bound(src, dst, mesh, (8,)) == 0
    plan = reshard_plan(src, dst, mesh, (8,))
    assert plan.bytes_received == 0
    check_plan(plan)
    # rows 0-3 are on devices x=0 only: the pair (x=1, y=0), (x=1, y=1) must
    # produce them for its sum over "y", 16 elements shared by two devices
    grid = Mesh({"x": 2, "y": 2})
    src, dst = S('<@mesh, [{"x"}, {}]>'), S('<@mesh, [{}, {}], unreduced={"y"}>')
    assert lower_bound(src, dst, grid, (8, 4)) == 4 * 8
    plan = reshard_plan(src, dst, grid, (8, 4))
    check_plan(plan)
    assert plan.bytes_received == plan.lower_bound


def test_plans_print_as_shardy_ops_with_their_bytes():
    mesh = Mesh({"x": 2, "y": 2})
    plan = reshard_plan(S('<@mesh, [{"x", "y"}, {}]>'), S('<@mesh, [{"x"}, {}]>'), mesh, (8, 4))
    assert plan.collectives == (AllGather([("y",), ()]),)
    assert str(plan).splitlines()[1] == (
        '  %0 = sdy.all_gather [{"y"}, {}] %arg0 out_sharding=<@mesh, [{"x"}, {}]>'
        "    // 32 bytes per device"
    )


@pytest.mark.oracle
def test_shardy_accepts_every_plan_made_of_its_collectives():
    pytest.importorskip("jax")
    from shardonnay.testing.mlir_oracle import jaxlib_asm

    mesh = SWEEP_MESHES["2x2x2"]
    checked = 0
    for src, dst in sweep_pairs(mesh, 2, every=97):
        src, dst = (TensorSharding("mesh", s.dims, unreduced=s.unreduced) for s in (src, dst))
        plan = reshard_plan(src, dst, mesh, (4, 5), shardy_collectives_only=True)
        lines = [
            f"sdy.mesh @mesh = {mesh}",
            f"func.func @main(%arg0: tensor<4x5xf32> {{sdy.sharding = {src}}}) "
            f"-> (tensor<4x5xf32> {{sdy.sharding = {dst}}}) {{",
        ]
        value = "%arg0"
        for i, step in enumerate(plan.steps):
            text = step.collective.mlir(value, step.operand, mesh)
            lines.append(f"  %{i} = {text} : tensor<4x5xf32>")
            value = f"%{i}"
        lines += [f"  return {value} : tensor<4x5xf32>", "}"]
        jaxlib_asm("\n".join(lines))
        checked += bool(plan.steps)
    assert checked > 50
