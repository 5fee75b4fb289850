"""MLIR `shard` dialect programs: syntax, collectives' semantics, and translation to sdy.

The collectives are checked on the examples of the dialect's documentation and on the
resharding examples (a tensor on a grid moved from one `split_axes` to another by
all-gathers, all-to-alls and slices): every device's buffer before and after each step
must be what `shardonnay.layout` gives for that step's `split_axes`. Programs translate
to sdy and back, and the sdy program partitions to one that computes the same thing.
"""

from __future__ import annotations

import random

import numpy as np
import pytest

import shardonnay
from shardonnay import IRError, ParseError, ShardingError, UnsupportedOpError
from shardonnay.interop.shard_dialect import grid_mesh, split_axes_to_sharding
from shardonnay.interop.shard_program import export_shard, import_shard
from shardonnay.ir.verifier import verify
from shardonnay.layout import local_shape, shard
from shardonnay.ops.shard_collectives import exchange
from shardonnay.runtime.grid import run_grid
from shardonnay.syntax.mlir_reader import parse_module

# -- syntax --------------------------------------------------------------------------------

DOC_EXAMPLES = """\
module {
  shard.grid @grid0(shape = 4x8x12)
  shard.grid @grid1(shape = 4x?)
  shard.grid @grid2(shape = ?x4)
  shard.grid @grid3(shape = ?x?)
  shard.grid @grid4(shape = 2x2x4)
  shard.grid @grid1d_4(shape = 4)
  func.func @f(%arg0: tensor<4x8xf32>, %arg1: tensor<4x14xf32>) -> tensor<4x8xf32> {
    %sharding = shard.sharding @grid4 split_axes = [[]] : !shard.sharding
    %sharding_0 = shard.sharding @grid4 split_axes = [[0]] : !shard.sharding
    %sharding_1 = shard.sharding @grid4 split_axes = [[0]] halo_sizes = [1, 2] : !shard.sharding
    %sharding_2 = shard.sharding @grid1d_4 split_axes = [[], [0]] sharded_dims_offsets = [0, 2, 5, 9, 14] : !shard.sharding
    %sharding_annotated = shard.shard %arg0 to %sharding_0 : tensor<4x8xf32>
    %sharding_annotated_3 = shard.shard %arg0 to %sharding_1 annotate_for_users : tensor<4x8xf32>
    %sharding_annotated_4 = shard.shard %arg1 to %sharding_2 : tensor<4x14xf32>
    %shard_shape:2 = shard.shard_shape dims = [4, 14] sharding = %sharding_2 device = [2] : index, index
    %proc_linear_idx = shard.process_linear_index on @grid0 : index
    %proc_linear_idx_5:2 = shard.process_multi_index on @grid0 axes = [2, 0] : index, index
    %0:3 = shard.grid_shape @grid0 : index, index, index
    return %sharding_annotated : tensor<4x8xf32>
  }
  func.func @collectives(%arg0: tensor<2x2xi8>, %arg1: tensor<3x4xf32>, %arg2: tensor<2xi8>) -> tensor<2x4xi8> {
    %all_gather = shard.all_gather %arg0 on @grid4 grid_axes = [1] gather_axis = 1 : tensor<2x2xi8> -> tensor<2x4xi8>
    %all_reduce = shard.all_reduce %arg1 on @grid4 grid_axes = [1, 0] reduction = <max> : tensor<3x4xf32> -> tensor<3x4xf64>
    %all_slice = shard.all_slice %all_gather on @grid4 grid_axes = [1] slice_axis = 1 : tensor<2x4xi8> -> tensor<2x2xi8>
    %all_to_all = shard.all_to_all %arg0 on @grid4 grid_axes = [0] split_axis = 1 concat_axis = 0 : tensor<2x2xi8> -> tensor<4x1xi8>
    %broadcast = shard.broadcast %arg2 on @grid4 grid_axes = [0] root = [0] : (tensor<2xi8>) -> tensor<2xi8>
    %gather = shard.gather %arg0 on @grid4 grid_axes = [1] gather_axis = 1 root = [1] : (tensor<2x2xi8>) -> tensor<2x4xi8>
    %reduce = shard.reduce %arg1 on @grid4 grid_axes = [1, 0] reduction = <max> root = [1, 1] : (tensor<3x4xf32>) -> tensor<3x4xf64>
    %reduce_scatter = shard.reduce_scatter %arg0 on @grid4 grid_axes = [1] reduction = <max> scatter_axis = 0 : tensor<2x2xi8> -> tensor<1x2xi8>
    %scatter = shard.scatter %arg0 on @grid4 grid_axes = [0] scatter_axis = 0 root = [1] : (tensor<2x2xi8>) -> tensor<1x2xi8>
    %send = shard.send %arg0 on @grid4 grid_axes = [1] destination = [1] : (tensor<2x2xi8>) -> tensor<2x2xi8>
    %recv = shard.recv %arg0 on @grid4 grid_axes = [1] source = [0] : (tensor<2x2xi8>) -> tensor<2x2xi8>
    %shift = shard.shift %arg2 on @grid4 grid_axes = [2] shift_axis = 2 offset = 2 rotate : tensor<2xi8> -> tensor<2xi8>
    %0 = shard.update_halo %arg0 on @grid4 split_axes = [[0]] halo_sizes = [1, 1] : tensor<2x2xi8>
    return %all_gather : tensor<2x4xi8>
  }
}
"""  # noqa: E501


def test_documentation_examples_read_verify_and_print_back():
    module = parse_module(DOC_EXAMPLES)
    verify(module)
    assert module.to_text() == DOC_EXAMPLES


@pytest.mark.parametrize(
    ("line", "error"),
    [
        ("%s = shard.sharding @nowhere split_axes = [[0]] : !shard.sharding", "unknown grid"),
        ("%s = shard.sharding @g split_axes = [[2]] : !shard.sharding", "out of range"),
        ("%s = shard.sharding @g split_axes = [[0]] halo_sizes = [1] : !shard.sharding", "halo"),
        (
            "%s = shard.sharding @g split_axes = [[0]] halo_sizes = [1, 1] "
            "sharded_dims_offsets = [0, 4, 8] : !shard.sharding",
            "mutually exclusive",
        ),
        (
            "%s = shard.sharding @g split_axes = [[0]] sharded_dims_offsets = [0, 5, 4] "
            ": !shard.sharding",
            "non-decreasing",
        ),
        (
            "%r = shard.all_gather %arg0 on @g grid_axes = [1] gather_axis = 0 "
            ": tensor<8xf32> -> tensor<8xf32>",
            "result shape must be 24",
        ),
        (
            "%r = shard.shift %arg0 on @g grid_axes = [1] shift_axis = 0 offset = 1 "
            ": tensor<8xf32> -> tensor<8xf32>",
            "shift_axis must be one of the grid_axes",
        ),
    ],
)
def test_verifier_says_what_is_wrong(line, error):
    module = parse_module(
        f"shard.grid @g(shape = 2x3)\nfunc.func @f(%arg0: tensor<8xf32>) -> () {{\n  {line}\n"
        "  return\n}"
    )
    with pytest.raises(IRError, match=error):
        verify(module)


def test_offsets_of_a_dim_split_by_several_axes_count_every_shard():
    """A dim split along grid axes 0 and 1 of a 2x3 grid is cut into 2 * 3 = 6 shards, so its
    `sharded_dims_offsets` hold 7 values. (MLIR's verifier adds the axis sizes instead,
    2 + 3, and asks for 6 values, one shard short.)"""
    text = (
        "shard.grid @g(shape = 2x3)\nfunc.func @main(%arg0: tensor<12xf32>) -> tensor<12xf32> {{\n"
        "  %s = shard.sharding @g split_axes = [[0, 1]] sharded_dims_offsets = {} "
        ": !shard.sharding\n"
        "  %0 = shard.shard %arg0 to %s : tensor<12xf32>\n  return %0 : tensor<12xf32>\n}}"
    )
    every_shard = parse_module(text.format("[0, 2, 4, 6, 8, 10, 12]"))
    verify(every_shard)
    sharding = import_shard(every_shard).function("main").arg_attrs(0)["sdy.sharding"]
    assert str(sharding) == '#sdy.sharding<@g, [{"axis_0", "axis_1"}]>'
    with pytest.raises(IRError, match="needs 7 values"):
        verify(parse_module(text.format("[0, 2, 4, 6, 8, 12]")))


def test_dynamic_values_are_a_parse_error():
    with pytest.raises(ParseError, match="dynamic values are not supported"):
        parse_module(
            "shard.grid @g(shape = 4)\nfunc.func @f(%x: i64) -> () {\n"
            "  %s = shard.sharding @g split_axes = [[0]] halo_sizes = [%x, 1] : !shard.sharding\n"
            "  return\n}"
        )


def test_device_queries_and_shard_shapes():
    from shardonnay.ops.shard_dialect import device_query, shard_shape

    ops = parse_module(DOC_EXAMPLES).function("f").body.ops
    assert [shard_shape(ops[7])] == [(4, 4)]  # device 2 of offsets [0, 2, 5, 9, 14]
    assert device_query(ops[8], (1, 2, 3)) == (1 * 8 * 12 + 2 * 12 + 3,)
    assert device_query(ops[9], (1, 2, 3)) == (3, 1)


def test_device_queries_run_on_every_device():
    program = parse_module(
        "shard.grid @g(shape = 2x3)\n"
        "func.func @main(%x: tensor<2xf32>) -> (index, index, index, index) {\n"
        "  %m:2 = shard.process_multi_index on @g : index, index\n"
        "  %d, %u = shard.neighbors_linear_indices on @g[%m#0, %m#1] split_axes = [1]"
        " : index, index\n"
        "  %i = shard.process_linear_index on @g : index\n"
        "  %s = shard.get_sharding %x : tensor<2xf32> -> !shard.sharding\n"
        "  return %m#1, %d, %u, %i : index, index, index, index\n}"
    )
    verify(program)
    assert parse_module(program.to_text()).to_text() == program.to_text()
    out = run_grid(program, {c: [np.zeros(2)] for c in np.ndindex(2, 3)})
    mesh = grid_mesh((2, 3))
    for (row, col), values in out.items():
        device = mesh.device_at((row, col))
        down = device - 1 if col > 0 else -1
        up = device + 1 if col < 2 else -1
        assert tuple(int(v) for v in values) == (col, down, up, device)


# -- collectives on the documentation's examples ------------------------------------------------


def _program(grid: str, op_line: str, in_type: str) -> object:
    module = parse_module(
        f"shard.grid @grid(shape = {grid})\nfunc.func @f(%arg0: {in_type}) -> () {{\n"
        f"  %r = {op_line}\n  return\n}}"
    )
    verify(module)
    return module.function("f").body.ops[0]


DOC_2X2 = {
    (0, 0): [[1, 2], [3, 4]],
    (0, 1): [[5, 6], [7, 8]],
    (1, 0): [[9, 10], [11, 12]],
    (1, 1): [[13, 14], [15, 16]],
}


def _arrays(buffers) -> dict:
    return {c: np.array(b, np.int8) for c, b in buffers.items()}


def test_all_gather_and_all_slice_documentation_examples():
    gather = _program(
        "2x2",
        "shard.all_gather %arg0 on @grid grid_axes = [1] gather_axis = 1 "
        ": tensor<2x2xi8> -> tensor<2x4xi8>",
        "tensor<2x2xi8>",
    )
    gathered = exchange(gather, (2, 2), _arrays(DOC_2X2))
    assert gathered[(0, 0)].tolist() == gathered[(0, 1)].tolist() == [[1, 2, 5, 6], [3, 4, 7, 8]]
    assert gathered[(1, 1)].tolist() == [[9, 10, 13, 14], [11, 12, 15, 16]]
    sliced = exchange(
        _program(
            "2x2",
            "shard.all_slice %arg0 on @grid grid_axes = [1] slice_axis = 1 "
            ": tensor<2x4xi8> -> tensor<2x2xi8>",
            "tensor<2x4xi8>",
        ),
        (2, 2),
        gathered,
    )
    assert {c: b.tolist() for c, b in sliced.items()} == DOC_2X2


def test_all_to_all_documentation_example():
    op = _program(
        "3",
        "shard.all_to_all %arg0 on @grid grid_axes = [0] split_axis = 0 concat_axis = 0 "
        ": tensor<3x2xi8> -> tensor<3x2xi8>",
        "tensor<3x2xi8>",
    )
    ins = {(d,): [[10 * (d + 1) + 1, 10 * (d + 1) + 2], [10 * (d + 1) + 3, 10 * (d + 1) + 4],
                  [10 * (d + 1) + 5, 10 * (d + 1) + 6]] for d in range(3)}  # fmt: skip
    out = exchange(op, (3,), _arrays(ins))
    assert out[(0,)].tolist() == [[11, 12], [21, 22], [31, 32]]
    assert out[(1,)].tolist() == [[13, 14], [23, 24], [33, 34]]
    assert out[(2,)].tolist() == [[15, 16], [25, 26], [35, 36]]


def test_rooted_collectives_documentation_examples():
    broadcast = _program(
        "2x2",
        "shard.broadcast %arg0 on @grid grid_axes = [0] root = [0] "
        ": (tensor<2xi8>) -> tensor<2xi8>",
        "tensor<2xi8>",
    )
    ins = {(0, 0): [1, 2], (0, 1): [3, 4], (1, 0): [0, 0], (1, 1): [0, 0]}
    out = exchange(broadcast, (2, 2), _arrays(ins))
    assert {c: b.tolist() for c, b in out.items()} == {
        (0, 0): [1, 2], (0, 1): [3, 4], (1, 0): [1, 2], (1, 1): [3, 4]
    }  # fmt: skip
    gather = _program(
        "2x2",
        "shard.gather %arg0 on @grid grid_axes = [1] gather_axis = 1 root = [1] "
        ": (tensor<2x2xi8>) -> tensor<2x4xi8>",
        "tensor<2x2xi8>",
    )
    out = exchange(gather, (2, 2), _arrays(DOC_2X2))
    assert out[(0, 0)] is None and out[(1, 0)] is None
    assert out[(0, 1)].tolist() == [[1, 2, 5, 6], [3, 4, 7, 8]]
    assert out[(1, 1)].tolist() == [[9, 10, 13, 14], [11, 12, 15, 16]]
    scatter = _program(
        "2x2",
        "shard.scatter %arg0 on @grid grid_axes = [0] scatter_axis = 0 root = [1] "
        ": (tensor<2x2xi8>) -> tensor<1x2xi8>",
        "tensor<2x2xi8>",
    )
    out = exchange(scatter, (2, 2), _arrays(DOC_2X2))
    assert out[(0, 0)].tolist() == [[9, 10]] and out[(1, 0)].tolist() == [[11, 12]]
    assert out[(0, 1)].tolist() == [[13, 14]] and out[(1, 1)].tolist() == [[15, 16]]


def test_reduce_scatter_and_all_reduce():
    op = _program(
        "2x2",
        "shard.reduce_scatter %arg0 on @grid grid_axes = [1] reduction = <max> scatter_axis = 0 "
        ": tensor<2x2xi8> -> tensor<1x2xi8>",
        "tensor<2x2xi8>",
    )
    out = exchange(op, (2, 2), _arrays(DOC_2X2))
    assert out[(0, 0)].tolist() == [[5, 6]] and out[(0, 1)].tolist() == [[7, 8]]
    assert out[(1, 0)].tolist() == [[13, 14]] and out[(1, 1)].tolist() == [[15, 16]]
    total = exchange(
        _program(
            "2x2",
            "shard.all_reduce %arg0 on @grid : tensor<2x2xi8> -> tensor<2x2xi32>",
            "tensor<2x2xi8>",
        ),
        (2, 2),
        _arrays(DOC_2X2),
    )
    assert all(b.tolist() == [[28, 32], [36, 40]] for b in total.values())
    assert all(b.dtype == np.int32 for b in total.values())


def test_shift_documentation_example():
    rotate = _program(
        "2x4",
        "shard.shift %arg0 on @grid grid_axes = [1] shift_axis = 1 offset = 2 rotate "
        ": tensor<2xi8> -> tensor<2xi8>",
        "tensor<2xi8>",
    )
    ins = {(r, c): [4 * r + c + 1] * 2 for r in range(2) for c in range(4)}
    out = exchange(rotate, (2, 4), _arrays(ins))
    assert [int(out[(0, c)][0]) for c in range(4)] == [3, 4, 1, 2]
    assert [int(out[(1, c)][0]) for c in range(4)] == [7, 8, 5, 6]
    plain = _program(
        "2x4",
        "shard.shift %arg0 on @grid grid_axes = [1] shift_axis = 1 offset = 1 "
        ": tensor<2xi8> -> tensor<2xi8>",
        "tensor<2xi8>",
    )
    out = exchange(plain, (2, 4), _arrays(ins))
    assert out[(0, 0)] is None and [int(out[(0, c)][0]) for c in (1, 2, 3)] == [1, 2, 3]


# -- the resharding examples --------------------------------------------------------------------


def _layout(grid, split_axes, array) -> dict:
    """Each device's buffer (by grid coordinates) under `split_axes`."""
    mesh = grid_mesh(grid)
    sharding = split_axes_to_sharding(split_axes, mesh, rank=array.ndim)
    by_id = shard(array, sharding, mesh)
    return {c: by_id[mesh.device_at(c)] for c in np.ndindex(*grid)}


def _type(shape, grid, split_axes) -> str:
    mesh = grid_mesh(grid)
    local = local_shape(shape, split_axes_to_sharding(split_axes, mesh, len(shape)), mesh)
    return "tensor<" + "x".join(map(str, local)) + "xi32>"


RESHARDINGS = [
    # (grid, tensor shape, [split_axes, then (collective, split_axes after it)...])
    ((3,), (6, 6), ["[[0], []]", ("all_to_all", [0], 1, 0), "[[], [0]]"]),
    (
        (2, 3),
        (6, 6),
        [
            "[[0], [1]]",
            ("all_gather", [1], 1),
            "[[0], []]",
            ("all_to_all", [0], 1, 0),
            "[[], [0]]",
            ("all_slice", [1], 0),
            "[[1], [0]]",
        ],
    ),
    ((2, 3), (4, 6), ["[[], [0, 1]]", ("all_gather", [1], 1), "[[], [0]]"]),
    (
        (2, 2, 2),
        (4, 8),
        [
            "[[0], [1, 2]]",
            ("all_gather", [1, 2], 1),
            "[[0], []]",
            ("all_slice", [2], 1),
            "[[0], [2]]",
        ],
    ),
    (
        (2, 2, 2),
        (4, 4),
        [
            "[[0], [1, 2]]",
            ("all_gather", [1, 2], 1),
            "[[0], []]",
            ("all_slice", [1], 0),
            "[[0, 1], []]",
            ("all_slice", [2], 1),
            "[[0, 1], [2]]",
        ],
    ),
    (
        (2, 2, 2, 2),
        (8, 8, 8),
        [
            "[[3, 2], [], [0, 1]]",
            ("all_to_all", [1], 1, 2),
            "[[3, 2], [1], [0]]",
            ("all_to_all", [2], 1, 0),
            "[[3], [1, 2], [0]]",
            ("all_gather", [3], 0),
            "[[], [1, 2], [0]]",
            ("all_to_all", [0], 0, 2),
            "[[0], [1, 2], []]",
        ],
    ),
]


def _collective_line(step, grid, shape, before, after) -> str:
    kind, axes, *dims = step
    keys = {"all_gather": ("gather_axis",), "all_slice": ("slice_axis",)}.get(
        kind, ("split_axis", "concat_axis")
    )
    fields = " ".join(f"{k} = {d}" for k, d in zip(keys, dims, strict=True))
    return (
        f"shard.{kind} %arg0 on @grid grid_axes = {list(axes)} {fields} : "
        f"{_type(shape, grid, before)} -> {_type(shape, grid, after)}"
    )


@pytest.mark.parametrize(("grid", "shape", "steps"), RESHARDINGS)
def test_resharding_examples_step_by_step(grid, shape, steps):
    """Each collective turns the buffers of one split_axes into those of the next."""
    array = np.arange(1, 1 + int(np.prod(shape)), dtype=np.int32).reshape(shape)
    buffers = _layout(grid, steps[0], array)
    for i in range(1, len(steps), 2):
        before, step, after = steps[i - 1], steps[i], steps[i + 1]
        op = _program(
            "x".join(map(str, grid)),
            _collective_line(step, grid, shape, before, after),
            _type(shape, grid, before),
        )
        buffers = exchange(op, grid, buffers)
        expected = _layout(grid, after, array)
        assert all(np.array_equal(buffers[c], expected[c]) for c in expected), (step, after)


@pytest.mark.parametrize(("grid", "shape", "steps"), RESHARDINGS)
def test_resharding_examples_run_as_one_program_on_every_device(grid, shape, steps):
    """The steps as one per-device program, run on all devices of the grid at once."""
    array = np.arange(1, 1 + int(np.prod(shape)), dtype=np.int32).reshape(shape)
    lines, value = [], "%arg0"
    for i in range(1, len(steps), 2):
        line = _collective_line(steps[i], grid, shape, steps[i - 1], steps[i + 1])
        lines.append(f"  %{i} = " + line.replace("%arg0", value, 1))
        value = f"%{i}"
    program = parse_module(
        f"shard.grid @grid(shape = {'x'.join(map(str, grid))})\n"
        f"func.func @main(%arg0: {_type(shape, grid, steps[0])}) -> "
        f"({_type(shape, grid, steps[-1])}, index) {{\n" + "\n".join(lines) + "\n"
        "  %i = shard.process_linear_index on @grid : index\n"
        f"  return {value}, %i : {_type(shape, grid, steps[-1])}, index\n}}"
    )
    verify(program)
    before, after = _layout(grid, steps[0], array), _layout(grid, steps[-1], array)
    out = run_grid(program, {c: [b] for c, b in before.items()})
    mesh = grid_mesh(grid)
    for c, (result, index) in out.items():
        assert np.array_equal(result, after[c]) and int(index) == mesh.device_at(c)


def test_global_run_of_a_shard_program_is_that_of_its_sdy_translation():
    program = parse_module(_reshard_program((2, 3), (6, 6), "[[0], [1]]", "[[1], [0]]"))
    x = np.arange(36, dtype=np.float32).reshape(6, 6)
    (ours,) = shardonnay.run(program, x)
    (theirs,) = shardonnay.run(import_shard(program), x)
    assert np.array_equal(ours, -x) and np.array_equal(theirs, -x)


def test_one_all_to_all_is_not_enough():
    """`[[0], [1, 2]] -> [[0, 1], [2]]`: the all-to-all over grid axis 2 the example tries
    (`tensor<2x1xi8> -> tensor<1x2xi8>`: dim 0 split, dim 1 concatenated; the example's
    `split_axis = 1 concat_axis = 0` contradict those types) lays the tensor out as
    `[[0, 2], [1]]`, not as the target."""
    grid, shape = (2, 2, 2), (4, 4)
    array = np.arange(16, dtype=np.int32).reshape(shape)
    op = _program(
        "2x2x2",
        "shard.all_to_all %arg0 on @grid grid_axes = [2] split_axis = 0 concat_axis = 1 "
        ": tensor<2x1xi32> -> tensor<1x2xi32>",
        "tensor<2x1xi32>",
    )
    out = exchange(op, grid, _layout(grid, "[[0], [1, 2]]", array))
    moved, target = _layout(grid, "[[0, 2], [1]]", array), _layout(grid, "[[0, 1], [2]]", array)
    assert all(np.array_equal(out[c], moved[c]) for c in moved)
    assert not all(np.array_equal(out[c], target[c]) for c in target)


# -- translation to sdy and back -----------------------------------------------------------------


def _reshard_program(grid, shape, source, target) -> str:
    t = "tensor<" + "x".join(map(str, shape)) + "xf32>"
    return (
        f"shard.grid @grid(shape = {'x'.join(map(str, grid))})\n"
        f"func.func @main(%arg0: {t}) -> {t} {{\n"
        f"  %s = shard.sharding @grid split_axes = {source} : !shard.sharding\n"
        f"  %0 = shard.shard %arg0 to %s : {t}\n"
        f"  %1 = stablehlo.negate %0 : {t}\n"
        f"  %t = shard.sharding @grid split_axes = {target} : !shard.sharding\n"
        f"  %2 = shard.shard %1 to %t annotate_for_users : {t}\n"
        f"  return %2 : {t}\n}}"
    )


@pytest.mark.parametrize(("grid", "shape", "steps"), RESHARDINGS)
def test_resharding_examples_partition_through_sdy(grid, shape, steps):
    program = parse_module(_reshard_program(grid, shape, steps[0], steps[-1]))
    sdy = import_shard(program)
    main = sdy.function("main")
    mesh = grid_mesh(grid)
    assert main.arg_attrs(0)["sdy.sharding"] == split_axes_to_sharding(
        steps[0], mesh, len(shape), "grid"
    )
    assert main.result_attrs(0)["sdy.sharding"] == split_axes_to_sharding(
        steps[-1], mesh, len(shape), "grid"
    )
    assert shardonnay.check(sdy, seed=0).ok
    assert export_shard(sdy).to_text() == program.to_text()


def test_swap_example_lands_on_the_drawn_devices():
    """`6x6` from `[[0], [1]]` to `[[1], [0]]` on a 2x3 grid: the partitioned program's
    result is a 2x3 block per device, and the target layout puts on device (m, n) rows
    2n, 2n+1 and columns 3m..3m+2, as the example draws."""
    program = parse_module(_reshard_program((2, 3), (6, 6), "[[0], [1]]", "[[1], [0]]"))
    sdy = import_shard(program)
    local = shardonnay.partition(sdy)
    assert str(local.function("main").type.results[0]) == "tensor<2x3xf32>"
    array = (10 * np.arange(1, 7)[:, None] + np.arange(1, 7)[None, :]).astype(np.int32)
    drawn = _layout((2, 3), "[[1], [0]]", array)
    assert drawn[(0, 1)].tolist() == [[31, 32, 33], [41, 42, 43]]
    assert drawn[(1, 2)].tolist() == [[54, 55, 56], [64, 65, 66]]


def test_random_programs_round_trip():
    """shard → sdy → shard gives the program back; sdy → shard → sdy the sdy program."""
    rng = random.Random(0)
    for _ in range(50):
        grid = tuple(rng.choice([2, 3]) for _ in range(rng.randint(1, 3)))
        shape = tuple(rng.choice([6, 12]) for _ in range(rng.randint(1, 3)))

        def draw(grid=grid, shape=shape) -> str:
            dims = [[] for _ in shape]
            axes = list(range(len(grid)))
            rng.shuffle(axes)
            for a in axes[: rng.randint(0, len(axes))]:
                dims[rng.randrange(len(shape))].append(a)
            return str(dims)

        program = parse_module(_reshard_program(grid, shape, draw(), draw()))
        sdy = import_shard(program)
        back = export_shard(sdy)
        assert import_shard(back).to_text() == sdy.to_text()
        assert export_shard(import_shard(back)).to_text() == back.to_text()


def test_offsets_that_match_the_layout_are_accepted():
    text = _reshard_program((4,), (4, 14), "[[], [0]]", "[[], []]").replace(
        "split_axes = [[], [0]]", "split_axes = [[], [0]] sharded_dims_offsets = [0, 4, 8, 12, 14]"
    )
    sdy = import_shard(parse_module(text))
    assert str(sdy.function("main").arg_attrs(0)["sdy.sharding"]) == (
        '#sdy.sharding<@grid, [{}, {"axis_0"}]>'
    )


@pytest.mark.parametrize(
    ("change", "error", "kind"),
    [
        ("halo_sizes = [1, 1]", "halo sizes", ShardingError),
        ("sharded_dims_offsets = [0, 2, 5, 9, 14]", "cut it unlike sdy", ShardingError),
    ],
)
def test_what_sdy_cannot_say_raises(change, error, kind):
    text = _reshard_program((4,), (4, 14), "[[], [0]]", "[[], []]").replace(
        "split_axes = [[], [0]]", f"split_axes = [[], [0]] {change}"
    )
    with pytest.raises(kind, match=error):
        import_shard(parse_module(text))


def test_per_device_ops_and_dynamic_grids_do_not_translate():
    module = parse_module(DOC_EXAMPLES)
    with pytest.raises(ShardingError, match="unknown size"):
        import_shard(module)
    collective = parse_module(
        "shard.grid @g(shape = 2)\nfunc.func @main(%arg0: tensor<2xf32>) -> tensor<4xf32> {\n"
        "  %0 = shard.all_gather %arg0 on @g gather_axis = 0 : tensor<2xf32> -> tensor<4xf32>\n"
        "  return %0 : tensor<4xf32>\n}"
    )
    with pytest.raises(UnsupportedOpError, match="per-device"):
        import_shard(collective)


def test_export_refuses_sub_axes_unreduced_and_device_orders():
    def module(mesh: str, sharding: str):
        return parse_module(
            f"sdy.mesh @mesh = {mesh}\n"
            "func.func @main(%arg0: tensor<8xf32> "
            f"{{sdy.sharding = #sdy.sharding<@mesh, {sharding}>}}) -> tensor<8xf32> {{\n"
            "  return %arg0 : tensor<8xf32>\n}"
        )

    with pytest.raises(ShardingError, match="sub-axis"):
        export_shard(module('<["x"=4]>', '[{"x":(1)2}]'))
    with pytest.raises(ShardingError, match="unreduced"):
        export_shard(module('<["x"=4]>', '[{}], unreduced={"x"}'))
    with pytest.raises(ShardingError, match="device_ids"):
        export_shard(module('<["x"=2], device_ids=[1, 0]>', '[{"x"}]'))
