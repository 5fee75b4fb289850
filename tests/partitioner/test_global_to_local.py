"""`convert_global_to_local`: Shardy's `sdy-convert-global-to-local`, and more.

Each lowering is checked by its numbers: the per-device program, run on every
device by the simulator, computes what the global program computes (the
reference interpreter treats sdy collectives as identities). Uneven shards are
run with their padding poisoned (NaN), so padding that reaches a result shows.
Against the real Shardy, the printed per-device programs are identical where
Shardy's pass works and is right; the differences are named xfails.

This file holds the conversion itself: device groups and offset tables, each
sdy collective lowered, ops made local, calls and manual computations, and
the comparison with Shardy. Gathers and scatters on sharded operands are in
`test_local_indexing.py`, data moving along sharded dims in
`test_local_halos.py`, several meshes in `test_local_meshes.py`.
"""

from __future__ import annotations

import functools
import re

import numpy as np
import pytest

from shardonnay import parse_module, run
from shardonnay.axes import AxisRef
from shardonnay.collectives.exchange import device_groups
from shardonnay.errors import PartitionError
from shardonnay.ir.inline import inline_calls
from shardonnay.layout import device_slices
from shardonnay.mesh import Mesh
from shardonnay.partitioner.local.context import axes_index, offset_table
from shardonnay.partitioner.local.convert import convert_global_to_local
from shardonnay.runtime.simulator import simulate
from shardonnay.sharding import DimSharding, TensorSharding
from shardonnay.testing.partitioned_programs import (
    MESH,
    assert_local_program_computes_the_same,
    collective_program,
    collectives_in,
    corpus_cases,
    has_uneven_shards,
    per_value,
    random_cases,
    sharding,
    shardy_local,
    shardy_local_of,
    single_op_program,
)
from shardonnay.testing.pinned_programs import RESULTS_ON_TWO_DEVICES

# -- device groups and offsets follow the layout --------------------------------------------------

MESHES = [
    Mesh({"x": 2, "y": 4}),
    Mesh({"a": 2, "b": 2, "c": 2}, device_ids=[7, 6, 5, 4, 3, 2, 1, 0]),
    Mesh({"x": 4, "z": 3}),
]
AXES = [
    ("x",),
    ("y", "x"),
    (AxisRef.sub("y", 2, 2),),
    (AxisRef.sub("y", 1, 2), "x"),
    ("c", "a"),
    ("b",),
    ("z", AxisRef.sub("x", 2, 2)),
]


def _cases():
    for mesh in MESHES:
        for axes in AXES:
            refs = [a if isinstance(a, AxisRef) else AxisRef(a) for a in axes]
            if all(mesh.has_axis(a.name) for a in refs):
                yield mesh, refs


@pytest.mark.parametrize(("mesh", "axes"), list(_cases()), ids=str)
def test_replica_groups_hold_the_devices_that_differ_only_along_the_axes(mesh, axes) -> None:
    groups = device_groups(axes, mesh)
    size = int(np.prod([a.size(mesh) for a in axes]))
    assert sorted(d for g in groups for d in g) == sorted(mesh.device_list)
    assert all(len(g) == size for g in groups)
    # A sharding along `axes` puts shard j of every group on the group's device j.
    others = [n for n in mesh.axis_names if n not in {a.name for a in axes}]
    for group in groups:
        assert [axes_index(d, axes, mesh) for d in group] == list(range(size))
        coords = [mesh.coords_of(d) for d in group]
        for name in others:
            assert len({c[mesh.axis_index(name)] for c in coords}) == 1


@pytest.mark.parametrize(("mesh", "axes"), list(_cases()), ids=str)
def test_offset_tables_are_where_the_layout_puts_each_shard(mesh, axes) -> None:
    sharding = TensorSharding(mesh, (DimSharding(tuple(axes)),))
    shards = int(np.prod([a.size(mesh) for a in axes]))
    regions = device_slices((3 * shards,), sharding, mesh)
    table = offset_table(axes, mesh, 3)
    assert [table[d] for d in range(mesh.size)] == [regions[d][0].start for d in range(mesh.size)]


# -- each sdy collective, lowered -----------------------------------------------------------------


COLLECTIVES = {
    "all_gather": ("8x16", '[{"x"}, {"y"}]', 'sdy.all_gather [{}, {"y"}]', '[{"x"}, {}]'),
    "all_gather_two_dims": ("8x16", '[{"x"}, {"y"}]', 'sdy.all_gather [{"x"}, {"y"}]', "[{}, {}]"),
    "all_gather_sub_axis": (
        "8x16",
        '[{"y"}, {}]',
        'sdy.all_gather [{"y":(2)2}, {}]',
        '[{"y":(1)2}, {}]',
    ),
    "all_slice": ("8x16", '[{"y"}, {}]', 'sdy.all_slice [{}, {"x"}]', '[{"y"}, {"x"}]'),
    "all_slice_sub_axes": (
        "8x16",
        "[{}, {}]",
        'sdy.all_slice [{"y":(2)2, "x"}, {"y":(1)2}]',
        '[{"y":(2)2, "x"}, {"y":(1)2}]',
    ),
    "all_to_all": ("8x16", '[{"x"}, {}]', 'sdy.all_to_all [{"x"}: 0->1]', '[{}, {"x"}]'),
    "all_to_all_two_params": (
        "4x8x4x8",
        '[{"x"}, {"y"}, {}, {}]',
        'sdy.all_to_all [{"x"}: 0->2, {"y"}: 1->3]',
        '[{}, {}, {"x"}, {"y"}]',
    ),
    "collective_permute": (
        "8x16",
        '[{"x"}, {"y"}]',
        "sdy.collective_permute",
        '[{"y":(1)2}, {"x", "y":(2)2}]',
    ),
}


@pytest.mark.parametrize("name", list(COLLECTIVES))
def test_collectives_keep_the_global_value(name: str) -> None:
    assert_local_program_computes_the_same(collective_program(*COLLECTIVES[name]))


def partial_sum_program(reduction_axes: str, lhs: str, rhs: str, op: str, target: str) -> str:
    return MESH + (
        f"func.func @main(%arg0: tensor<8x16xf32> {{sdy.sharding = {sharding(lhs)}}},\n"
        f"    %arg1: tensor<16x8xf32> {{sdy.sharding = {sharding(rhs)}}})\n"
        f"    -> (tensor<8x8xf32> {{sdy.sharding = {sharding(target)}}}) {{\n"
        f"  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] "
        f"{per_value('[{}, {}]')} : (tensor<8x16xf32>, tensor<16x8xf32>) -> tensor<8x8xf32>\n"
        f"  %1 = {op} %0 out_sharding=<@mesh, {target}> : tensor<8x8xf32>\n"
        f"  return %1 : tensor<8x8xf32>\n}}"
    )


@pytest.mark.parametrize(
    ("lhs", "rhs", "op", "target"),
    [
        ('[{}, {"x"}]', '[{"x"}, {}]', 'sdy.all_reduce {"x"}', "[{}, {}]"),
        ('[{}, {"y", "x"}]', '[{"y", "x"}, {}]', 'sdy.all_reduce {"y", "x"}', "[{}, {}]"),
        ('[{}, {"x"}]', '[{"x"}, {}]', 'sdy.reduce_scatter [{"x"}, {}]', '[{"x"}, {}]'),
        (
            '[{}, {"x", "y"}]',
            '[{"x", "y"}, {}]',
            'sdy.reduce_scatter [{"x"}, {"y"}]',
            '[{"x"}, {"y"}]',
        ),
    ],
    ids=["all_reduce", "all_reduce_two_axes", "reduce_scatter", "reduce_scatter_two_dims"],
)
def test_partial_results_are_combined(lhs, rhs, op, target) -> None:
    assert_local_program_computes_the_same(partial_sum_program("", lhs, rhs, op, target))


MAX_AFTER_REDUCE = MESH + (
    f"func.func @main(%arg0: tensor<4x8xf32> {{sdy.sharding = {sharding('[{}, {x}]')}}})\n"
    f"    -> (tensor<4xf32> {{sdy.sharding = {sharding('[{}]')}}}) {{\n"
    "  %0 = sdy.constant dense<0xFF800000> : tensor<f32>\n"
    "  %1 = stablehlo.reduce(%arg0 init: %0) applies stablehlo.maximum across dimensions = "
    f"[1] {per_value('[{}]')} : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>\n"
    '  %2 = sdy.all_reduce {"x"} %1 out_sharding=<@mesh, [{}]> : tensor<4xf32>\n'
    "  return %2 : tensor<4xf32>\n}"
)


def test_an_all_reduce_after_a_max_takes_the_maximum() -> None:
    text = MAX_AFTER_REDUCE
    local = convert_global_to_local(parse_module(text))
    reductions = [op for op in local.walk() if op.name == "stablehlo.all_reduce"]
    assert [op.regions[0].entry.ops[0].name for op in reductions] == ["stablehlo.maximum"]
    assert_local_program_computes_the_same(text)


# -- ops made local -------------------------------------------------------------------------------


OPS = {
    "iota": single_op_program(
        [],
        f"  %r = stablehlo.iota dim = 0 {per_value('[{x}, {y}]')} : tensor<8x4xi32>",
        ("tensor<8x4xi32>", '[{"x"}, {"y"}]'),
    ),
    "iota_along_sub_axis": single_op_program(
        [],
        f"  %r = stablehlo.iota dim = 1 {per_value('[{}, {y:(2)2}]')} : tensor<2x8xf32>",
        ("tensor<2x8xf32>", '[{}, {"y":(2)2}]'),
    ),
    "sharded_constant": single_op_program(
        [],
        "  %r = sdy.constant "
        f"{per_value('[{y}, {x}]')} "
        "dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0], [7.0, 8.0]]> : tensor<4x2xf32>",
        ("tensor<4x2xf32>", '[{"y"}, {"x"}]'),
    ),
    "splat_constant": single_op_program(
        [("tensor<4x2xf32>", '[{"y"}, {}]')],
        f"  %c = sdy.constant {per_value('[{y}, {}]')} dense<2.5> : tensor<4x2xf32>\n"
        f"  %r = stablehlo.add %arg0, %c {per_value('[{y}, {}]')} : tensor<4x2xf32>",
        ("tensor<4x2xf32>", '[{"y"}, {}]'),
    ),
    "slice_of_unsharded_dim": single_op_program(
        [("tensor<8x16xf32>", '[{}, {"y"}]')],
        f"  %r = stablehlo.slice %arg0 [2:7:2, 0:16] {per_value('[{}, {y}]')} "
        ": (tensor<8x16xf32>) -> tensor<3x16xf32>",
        ("tensor<3x16xf32>", '[{}, {"y"}]'),
    ),
    "pad_same_on_every_shard": single_op_program(
        [("tensor<8x4xf32>", '[{"x"}, {}]')],
        "  %c = sdy.constant dense<-1.0> : tensor<f32>\n"
        "  %r = stablehlo.pad %arg0, %c, low = [0, 1], high = [0, 2], interior = [0, 1] "
        f"{per_value('[{x}, {}]')} : (tensor<8x4xf32>, tensor<f32>) -> tensor<8x10xf32>",
        ("tensor<8x10xf32>", '[{"x"}, {}]'),
    ),
    "pad_per_shard": single_op_program(
        [("tensor<8xf32>", '[{"x"}]')],
        "  %c = sdy.constant dense<-1.0> : tensor<f32>\n"
        "  %r = stablehlo.pad %arg0, %c, low = [2], high = [2], interior = [0] "
        f"{per_value('[{x}]')} : (tensor<8xf32>, tensor<f32>) -> tensor<12xf32>",
        ("tensor<12xf32>", '[{"x"}]'),
    ),
    "dynamic_slice_of_whole_sharded_dim": single_op_program(
        [("tensor<8x16xf32>", '[{}, {"y"}]'), ("tensor<i32>", "[]")],
        "  %z = sdy.constant dense<0> : tensor<i32>\n"
        "  %r = stablehlo.dynamic_slice %arg0, %arg1, %z, sizes = [3, 16] "
        f"{per_value('[{}, {y}]')} : (tensor<8x16xf32>, tensor<i32>, tensor<i32>) "
        "-> tensor<3x16xf32>",
        ("tensor<3x16xf32>", '[{}, {"y"}]'),
    ),
}


@pytest.mark.parametrize("name", list(OPS))
def test_ops_made_local_compute_the_same(name: str) -> None:
    assert_local_program_computes_the_same(OPS[name])


CONVOLUTION = MESH + (
    "func.func @main(%arg0: tensor<2x6x6x8xf32> "
    f"{{sdy.sharding = {sharding('[{x}, {}, {}, {y}]')}}},\n"
    f"    %arg1: tensor<3x3x8x4xf32> {{sdy.sharding = {sharding('[{}, {}, {y}, {}]')}}})\n"
    f"    -> (tensor<2x6x6x4xf32> {{sdy.sharding = {sharding('[{x}, {}, {}, {}]')}}}) {{\n"
    "  %0 = stablehlo.convolution(%arg0, %arg1) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->"
    "[b, 0, 1, f], window = {stride = [1, 1], pad = [[1, 1], [1, 1]]} "
    "{batch_group_count = 1 : i64, feature_group_count = 1 : i64, "
    'sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}, {}, {}]>]>} '
    ": (tensor<2x6x6x8xf32>, tensor<3x3x8x4xf32>) -> tensor<2x6x6x4xf32>\n"
    '  %1 = sdy.all_reduce {"y"} %0 out_sharding=<@mesh, [{"x"}, {}, {}, {}]> '
    ": tensor<2x6x6x4xf32>\n"
    "  return %1 : tensor<2x6x6x4xf32>\n}"
)


def test_a_convolution_over_sharded_input_features_leaves_partial_sums() -> None:
    local = assert_local_program_computes_the_same(CONVOLUTION)
    assert [c[:2] for c in collectives_in(local)] == [("stablehlo.all_reduce", 4)]


# -- manual computations and calls ----------------------------------------------------------------


def test_manual_computation_bodies_are_inlined() -> None:
    text = MESH + (
        f"func.func @main(%arg0: tensor<8x16xf32> {{sdy.sharding = {sharding('[{x}, {y}]')}}})\n"
        f"    -> (tensor<4x16xf32> {{sdy.sharding = {sharding('[{}, {y}]')}}}) {{\n"
        '  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}, {"y"}]>] '
        'out_shardings=[<@mesh, [{}, {"y"}]>] manual_axes={"x"} (%arg1: tensor<4x16xf32>) {\n'
        '    %1 = "stablehlo.all_reduce"(%arg1) <{channel_handle = #stablehlo.channel_handle<'
        "handle = 1, type = 1>, replica_groups = dense<[[0, 4], [1, 5], [2, 6], [3, 7]]> : "
        "tensor<4x2xi64>, use_global_device_ids}> ({\n"
        "    ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
        "      %s = stablehlo.add %a, %b : tensor<f32>\n"
        "      stablehlo.return %s : tensor<f32>\n"
        f"    }}) {per_value('[{}, {y}]')} : (tensor<4x16xf32>) -> tensor<4x16xf32>\n"
        "    sdy.return %1 : tensor<4x16xf32>\n"
        "  } : (tensor<8x16xf32>) -> tensor<4x16xf32>\n"
        "  return %0 : tensor<4x16xf32>\n}"
    )
    local = convert_global_to_local(parse_module(text))
    assert not [op for op in local.walk() if op.name == "sdy.manual_computation"]
    assert_local_program_computes_the_same(text)


CALL_PROGRAM = MESH + (
    f"func.func @main(%arg0: tensor<8xf32> {{sdy.sharding = {sharding('[{x}]')}}})\n"
    f"    -> (tensor<8xf32> {{sdy.sharding = {sharding('[{x}]')}}}) {{\n"
    f"  %0 = call @f(%arg0) {per_value('[{x}]')} : (tensor<8xf32>) -> tensor<8xf32>\n"
    "  return %0 : tensor<8xf32>\n}\n"
    f"func.func private @f(%arg0: tensor<8xf32> {{sdy.sharding = {sharding('[{x}]')}}})\n"
    f"    -> (tensor<8xf32> {{sdy.sharding = {sharding('[{x}]')}}}) {{\n"
    f"  %0 = stablehlo.iota dim = 0 {per_value('[{x}]')} : tensor<8xf32>\n"
    f"  %1 = stablehlo.add %arg0, %0 {per_value('[{x}]')} : tensor<8xf32>\n"
    "  return %1 : tensor<8xf32>\n}"
)


def test_calls_are_converted_with_their_callee() -> None:
    local = convert_global_to_local(parse_module(CALL_PROGRAM))
    assert [str(t) for t in local.function("f").type.inputs] == ["tensor<4xf32>"]
    assert_local_program_computes_the_same(CALL_PROGRAM)


def test_inlining_replaces_calls_and_drops_unused_private_functions() -> None:
    module = parse_module(CALL_PROGRAM)
    inlined = inline_calls(module)
    assert [f.name for f in inlined.functions] == ["main"]
    assert not [op for op in inlined.walk() if op.name == "func.call"]
    x = np.arange(8, dtype=np.float32)
    np.testing.assert_array_equal(run(inlined, x)[0], run(module, x)[0])
    assert len(module.functions) == 2  # the input is unchanged


def test_local_programs_keep_no_sdy_op_but_meshes() -> None:
    pytest.importorskip("jax")
    converted = 0
    for case in random_cases(300)[:100]:
        try:
            local = convert_global_to_local(parse_module(case.partitioned))
        except PartitionError:
            continue
        converted += 1
        assert {op.name for op in local.walk() if op.dialect == "sdy"} <= {"sdy.mesh"}, case.name
    assert converted >= 30


# -- unreduced values -----------------------------------------------------------------------------

UNREDUCED = MESH + (
    f"func.func @main(%arg0: tensor<8x4xf32> {{sdy.sharding = {sharding('[{x}, {}]')}}})\n"
    f"    -> (tensor<8x4xf32> {{sdy.sharding = {sharding('[{x}, {}]')}}},\n"
    '        tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}], unreduced={"y"}>}) {\n'
    '  %0 = sdy.replicated_to_unreduced {"y"} %arg0 '
    'out_sharding=<@mesh, [{"x"}, {}], unreduced={"y"}> : tensor<8x4xf32>\n'
    "  %1 = stablehlo.add %0, %0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, "
    '[{"x"}, {}], unreduced={"y"}>]>} : tensor<8x4xf32>\n'
    '  %2 = sdy.all_reduce {"y"} %1 out_sharding=<@mesh, [{"x"}, {}]> : tensor<8x4xf32>\n'
    '  %3 = sdy.sharded_to_unreduced [{"x"}, {}] %arg0 '
    'out_sharding=<@mesh, [{}, {}], unreduced={"x"}> : tensor<8x4xf32>\n'
    "  return %2, %3 : tensor<8x4xf32>, tensor<8x4xf32>\n}"
)


def test_unreduced_values_sum_to_their_value() -> None:
    assert_local_program_computes_the_same(UNREDUCED)


# -- what cannot be made local ----------------------------------------------------------------

UNSUPPORTED = {
    "results pinned to different devices": (
        RESULTS_ON_TWO_DEVICES,
        "stablehlo.sort: its results are pinned to different devices (0, 1)",
    ),
}


@pytest.mark.parametrize("name", list(UNSUPPORTED))
def test_what_cannot_be_made_local_raises_partition_error(name: str) -> None:
    text, message = UNSUPPORTED[name]
    with pytest.raises(PartitionError, match=re.escape(message)):
        convert_global_to_local(parse_module(text))


# -- against Shardy's sdy-convert-global-to-local -------------------------------------------------

SHARDY_CANNOT = ("stablehlo.while", "stablehlo.case", "chlo.", "stablehlo.gather")


def _matches_shardy(case) -> bool:
    """Programs where Shardy's pass works and is right (see the xfails below):
    even shards only (Shardy's pass rejects padding), no ops it cannot convert."""
    text = case.partitioned
    if any(name in text for name in SHARDY_CANNOT) or '":(' in text:
        return False
    module = parse_module(text)
    for op in module.walk():
        producer = op.operands[0].op if op.name == "sdy.all_reduce" else None
        if (
            producer is not None
            and producer.name in ("stablehlo.reduce", "stablehlo.scatter")
            and producer.regions[0].entry.ops[0].name != "stablehlo.add"
        ):
            return False
    return not has_uneven_shards(module)


def test_prints_what_shardy_prints() -> None:
    """Where Shardy's pass converts a program, the texts agree; where it fails
    (data moves between shards beyond the sdy collectives, or an op's shardings
    disagree), the local program still computes what the global one does."""
    pytest.importorskip("jax")
    cases = []
    for case in (*corpus_cases(), *random_cases(300)):
        try:
            local = convert_global_to_local(parse_module(case.partitioned))
        except PartitionError:
            continue
        if _matches_shardy(case):
            cases.append((case, local))
    theirs = shardy_local_of(tuple(c for c, _ in cases))
    compared = 0
    for (case, local), text in zip(cases, theirs, strict=True):
        if text is None:
            want = run(parse_module(case.text), *case.inputs)
            for g, w in zip(simulate(local, *case.inputs), want, strict=True):
                np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-5, err_msg=case.name)
            continue
        assert local.to_text() == parse_module(text).to_text(), case.name
        compared += 1
    assert compared >= 60


def _shardy_text(program: str) -> str:
    """Shardy's local program of one of the programs below (converted together, once)."""
    pytest.importorskip("jax")
    text = _shardy_texts()[program]
    assert text is not None, "Shardy failed"
    return parse_module(text).to_text()


@functools.cache
def _shardy_texts() -> dict[str, str | None]:
    programs = [SUB_AXIS_SLICE, MAX_AFTER_REDUCE, CALL_PROGRAM]
    programs += [_corpus(name).partitioned for name in SHARDY_FAILS_ON]
    return dict(zip(programs, shardy_local(programs), strict=True))


SUB_AXIS_SLICE = collective_program(
    "8x4", "[{}, {}]", 'sdy.all_slice [{"y":(2)2}, {}]', '[{"y":(2)2}, {}]'
)


@pytest.mark.xfail(
    strict=True,
    raises=AssertionError,
    reason="Shardy's offset tables take a sub-axis coordinate from the wrong end of its axis "
    '("y":(2)2 on "y"=4 reads y // 2, not y % 2)',
)
def test_prints_what_shardy_prints_for_sub_axis_offsets() -> None:
    ours = convert_global_to_local(parse_module(SUB_AXIS_SLICE)).to_text()
    assert ours == _shardy_text(SUB_AXIS_SLICE)


@pytest.mark.xfail(
    strict=True, raises=AssertionError, reason="Shardy sums every sdy.all_reduce, also after a max"
)
def test_prints_what_shardy_prints_for_an_all_reduce_after_a_max() -> None:
    ours = convert_global_to_local(parse_module(MAX_AFTER_REDUCE)).to_text()
    assert ours == _shardy_text(MAX_AFTER_REDUCE)


def _corpus(name: str):
    return next(c for c in corpus_cases() if c.name == name)


@pytest.mark.xfail(
    strict=True,
    raises=AssertionError,
    reason="Shardy does not convert func.call (result type mismatch)",
)
def test_shardy_converts_calls() -> None:
    ours = convert_global_to_local(parse_module(CALL_PROGRAM)).to_text()
    assert ours == _shardy_text(CALL_PROGRAM)


SHARDY_FAILS_ON = {
    "scan_rnn": "Shardy keeps global types on while loop region arguments",
    "transformer_block_forward": "Shardy does not convert chlo ops",
    "embedding_lookup": "Shardy crashes on a gather of rows of a sharded table",
}


@pytest.mark.parametrize(
    "name",
    [
        pytest.param(
            name, marks=pytest.mark.xfail(strict=True, raises=AssertionError, reason=reason)
        )
        for name, reason in SHARDY_FAILS_ON.items()
    ],
)
def test_shardy_converts_corpus_program(name: str) -> None:
    pytest.importorskip("jax")
    case = _corpus(name)
    ours = convert_global_to_local(parse_module(case.partitioned)).to_text()
    assert ours == _shardy_text(case.partitioned)
