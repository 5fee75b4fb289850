"""The MLIR `shard` dialect's `split_axes`: syntax, conversions, and what they put on devices."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shardonnay import (
    InvalidAttributeError,
    Mesh,
    ParseError,
    ShardingError,
    TensorSharding,
)
from shardonnay.interop.shard_dialect import (
    format_split_axes,
    grid_mesh,
    parse_split_axes,
    sharding_to_split_axes,
    split_axes_to_sharding,
)
from shardonnay.layout import device_slices, equivalent, shard

GRID = grid_mesh([2, 3])


def S(text: str) -> TensorSharding:
    """`TensorSharding.parse`, short enough to read like the syntax it parses."""
    return TensorSharding.parse(text)


# -- syntax -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text, expected",
    [
        ("[[0, 1], []]", ((0, 1), ())),
        ("[[0,1],[]]", ((0, 1), ())),
        ("[]", ()),
        ("[[]]", ((),)),
        ("[[], [2, 0], [1]]", ((), (2, 0), (1,))),
        ("split_axes = [[1]]", ((1,),)),
        ("  [\n  [0],\n  [1]  // a comment\n]  ", ((0,), (1,))),
    ],
)
def test_parse(text, expected):
    assert parse_split_axes(text) == expected


@pytest.mark.parametrize(
    "split_axes, text",
    [
        (((0, 1), ()), "[[0, 1], []]"),
        ((), "[]"),
        (((),), "[[]]"),
        ([[2, 0], [1]], "[[2, 0], [1]]"),
    ],
)
def test_format_prints_like_mlir_and_round_trips(split_axes, text):
    assert format_split_axes(split_axes) == text
    assert format_split_axes(parse_split_axes(text)) == text


def test_format_trims_trailing_unsplit_dims_only_when_asked():
    assert format_split_axes([[], [0], [], []]) == "[[], [0], [], []]"
    assert format_split_axes([[], [0], [], []], trim=True) == "[[], [0]]"
    assert format_split_axes([[], []], trim=True) == "[]"
    assert format_split_axes("[[1], []]", trim=True) == "[[1]]"


@pytest.mark.parametrize(
    "text, column, message",
    [
        ("[[0 1]]", 5, "expected ',' or ']' after a grid axis index"),
        ("[[0], [1]", 10, "expected ',' or ']' after a tensor dimension's grid axes"),
        ("[0]", 2, "expected '[' starting the grid axes of a tensor dimension"),
        ("[[x]]", 3, "expected a grid axis index"),
        ("", 1, "expected '[' starting the split axes"),
        ("[[0]] [[1]]", 7, "unexpected text after the end"),
        ("split_axes [[0]]", 12, "expected '=' after 'split_axes'"),
    ],
)
def test_malformed_text_points_at_the_offending_character(text, column, message):
    with pytest.raises(ParseError) as info:
        parse_split_axes(text)
    error = info.value
    assert not isinstance(error, ShardingError)
    assert (error.message, error.line, error.column) == (message, 1, column)
    assert str(error).splitlines()[-1] == "  " + " " * (column - 1) + "^"


@pytest.mark.parametrize(
    "text, column, message",
    [
        ("[[-1]]", 3, "grid axis index must be non-negative, got: -1"),
        ("[[0, 0]]", 6, "grid axis 0 is used twice in tensor dim 0"),
        ("[[1], [], [0, 1]]", 15, "grid axis 1 is used more than once: by tensor dims 0 and 2"),
    ],
)
def test_invalid_indices_are_both_parse_and_sharding_errors(text, column, message):
    with pytest.raises(InvalidAttributeError) as info:
        parse_split_axes(text)
    assert isinstance(info.value, ParseError) and isinstance(info.value, ShardingError)
    assert (info.value.message, info.value.column) == (message, column)


# -- grid meshes --------------------------------------------------------------------------


def test_grid_mesh_names_axes_by_position_in_iota_order():
    mesh = grid_mesh([2, 3, 4])
    assert mesh.axis_names == ("axis_0", "axis_1", "axis_2")
    assert mesh.shape == (2, 3, 4) and mesh.device_ids is None
    assert mesh.device_at((1, 2, 3)) == 23
    assert grid_mesh([]) == Mesh()


# -- split_axes -> sharding ---------------------------------------------------------------


@pytest.mark.parametrize(
    "split_axes, rank, expected",
    [
        ("[[0, 1], []]", 2, '[{"axis_0", "axis_1"}, {}]'),
        ("[[1, 0]]", 1, '[{"axis_1", "axis_0"}]'),
        ("[[0]]", 2, '[{"axis_0"}, {}]'),
        ("[[], [1]]", None, '[{}, {"axis_1"}]'),
        ("[]", 3, "[{}, {}, {}]"),
        ([[1], [0]], None, '[{"axis_1"}, {"axis_0"}]'),
        ([(np.int64(1),)], None, '[{"axis_1"}]'),
    ],
)
def test_split_axes_to_sharding(split_axes, rank, expected):
    sharding = split_axes_to_sharding(split_axes, GRID, rank)
    assert str(sharding) == f"#sdy.sharding<@mesh, {expected}>"
    assert all(dim.is_closed and dim.priority is None for dim in sharding.dims)
    sharding.validate(GRID)


def test_indices_refer_to_mesh_axes_by_position_whatever_their_names():
    mesh = Mesh({"data": 2, "model": 4})
    sharding = split_axes_to_sharding([[1], [0]], mesh, 2)
    assert sharding == TensorSharding.from_axes("mesh", ["model", "data"])


def test_mesh_name_is_a_symbol_or_the_inlined_mesh():
    assert split_axes_to_sharding("[[0]]", GRID, 1, mesh_name="grid").mesh == "grid"
    inlined = split_axes_to_sharding("[[0]]", GRID, 1, mesh_name=GRID)
    assert inlined.mesh == GRID
    assert sharding_to_split_axes(inlined) == ((0,),)
    with pytest.raises(ShardingError, match="not the mesh"):
        split_axes_to_sharding("[[0]]", GRID, 1, mesh_name=grid_mesh([6]))


def test_split_axes_mean_what_the_layout_says():
    # [[0, 1]] on a 2x3 grid: 6 shards along dim 0, device at (i, j) holds shard 3i + j.
    sharding = split_axes_to_sharding("[[0, 1]]", GRID)
    buffers = shard(np.arange(12), sharding, GRID)
    assert [buffers[d].tolist() for d in range(6)] == [[2 * k, 2 * k + 1] for k in range(6)]
    # [[1, 0]]: axis 1 major, so shard 2j + i.
    buffers = shard(np.arange(12), split_axes_to_sharding("[[1, 0]]", GRID), GRID)
    assert buffers[GRID.device_at((1, 0))].tolist() == [2, 3]
    assert buffers[GRID.device_at((0, 1))].tolist() == [4, 5]


@pytest.mark.parametrize(
    "split_axes, rank, message",
    [
        ("[[2]]", 1, r"grid axis index 2 in tensor dim 0 of split_axes \[\[2\]\] is out of range"),
        ([[-1]], 1, r"grid axis index -1 .* is out of range .* \(valid indices: 0 to 1\)"),
        ([[0], [0]], 2, r'grid axis 0 \("axis_0"\) .* used more than once: by tensor dims 0 and 1'),
        ([[1, 1]], 1, r"grid axis 1 .* is used twice in tensor dim 0"),
        ("[[0], [1]]", 1, r"splits 2 tensor dimensions, but the tensor has rank 1"),
        ("[[], []]", 1, r"splits 2 tensor dimensions, but the tensor has rank 1"),
        ("[]", -1, r"tensor rank must be non-negative"),
        ([[True]], 1, r"split_axes must be a list of lists of grid axis indices"),
        ([[0.0]], 1, r"split_axes must be a list of lists of grid axis indices"),
        ([0], 1, r"split_axes must be a list of lists of grid axis indices"),
    ],
)
def test_split_axes_that_do_not_fit_the_grid(split_axes, rank, message):
    with pytest.raises(ShardingError, match=message):
        split_axes_to_sharding(split_axes, GRID, rank)


def test_an_axis_of_an_empty_grid_is_out_of_range():
    with pytest.raises(ShardingError, match=r"with 0 axes \(valid indices: none\)"):
        split_axes_to_sharding("[[0]]", grid_mesh([]), 1)


@pytest.mark.parametrize(
    "mesh, message",
    [
        (Mesh({"x": 2, "y": 3}, device_ids=[0, 2, 4, 1, 3, 5]), "orders its devices"),
        (Mesh((), device_ids=[3]), "pins a value to device 3"),
    ],
)
def test_meshes_no_grid_describes_are_refused_both_ways(mesh, message):
    with pytest.raises(ShardingError, match=message):
        split_axes_to_sharding("[]", mesh, 0)
    sharding = TensorSharding.replicated_on("mesh", 0 if mesh.is_maximal else 1)
    with pytest.raises(ShardingError, match=message):
        sharding_to_split_axes(sharding, mesh)


# -- sharding -> split_axes ---------------------------------------------------------------


@pytest.mark.parametrize(
    "text, expected",
    [
        ('<@mesh, [{"axis_0", "axis_1"}, {}]>', ((0, 1), ())),
        ('<@mesh, [{}, {"axis_1", "axis_0"}]>', ((), (1, 0))),
        ("<@mesh, [{}, {}, {}]>", ((), (), ())),
        ("<@mesh, []>", ()),
        # No data-layout meaning, so nothing to carry over: open dims, priorities, replicated.
        ('<@mesh, [{"axis_1", ?}p2, {?}]>', ((1,), ())),
        ('<@mesh, [{"axis_1"}], replicated={"axis_0"}>', ((1,),)),
    ],
)
def test_sharding_to_split_axes(text, expected):
    assert sharding_to_split_axes(S(text), GRID) == expected


def test_a_sub_axis_that_is_only_replicated_does_not_matter():
    mesh = Mesh({"x": 4, "y": 2})
    assert sharding_to_split_axes(S('<@m, [{"y"}], replicated={"x":(1)2}>'), mesh) == ((1,),)


@pytest.mark.parametrize(
    "text, message",
    [
        (
            '<@mesh, [{"x":(1)2}, {"y"}]>',
            r'uses a sub-axis \("x":\(1\)2\), which split_axes cannot express: .* refine the grid',
        ),
        ('<@mesh, [{"x":(1)2, "y", "x":(2)2}]>', r'uses sub-axes \("x":\(1\)2, "x":\(2\)2\)'),
        (
            '<@mesh, [{"x"}, {}], unreduced={"y"}>',
            r'unreduced axes \{"y"\} .* the shard dialect\'s partial axes are not modeled here',
        ),
        ('<@mesh, [{}], unreduced=max{"x", "y"}>', r"partial axes are not modeled here"),
        ('<@mesh, [{"z"}]>', r'unknown axis name: "z"'),
        ('<@mesh, [{"x"}, {"x"}]>', r'duplicate axis ref: "x"'),
    ],
)
def test_what_split_axes_cannot_express_is_refused_with_the_reason(text, message):
    with pytest.raises(ShardingError, match=message):
        sharding_to_split_axes(S(text), Mesh({"x": 4, "y": 2}))


def test_a_sharding_naming_a_mesh_needs_that_mesh():
    with pytest.raises(ShardingError, match="pass that mesh"):
        sharding_to_split_axes(S('<@mesh, [{"x"}]>'))


# -- properties ---------------------------------------------------------------------------


@st.composite
def grids_and_split_axes(draw, max_rank: int = 3):
    """A grid of 1-3 axes, a tensor rank, and split_axes for it (trailing dims maybe left out)."""
    grid = tuple(draw(st.lists(st.integers(1, 4), min_size=1, max_size=3)))
    rank = draw(st.integers(0, max_rank))
    order = draw(st.permutations(range(len(grid))))
    used = draw(st.integers(0, len(grid))) if rank else 0
    dims: list[list[int]] = [[] for _ in range(rank)]
    for axis in order[:used]:
        dims[draw(st.integers(0, rank - 1))].append(axis)
    trailing_empty = 0
    while trailing_empty < rank and not dims[rank - 1 - trailing_empty]:
        trailing_empty += 1
    kept = rank - draw(st.integers(0, trailing_empty))
    return grid, rank, tuple(tuple(d) for d in dims[:kept])


def reference_slices(
    grid: tuple[int, ...], split_axes, shape: tuple[int, ...]
) -> dict[int, tuple[slice, ...]]:
    """The shard dialect's reading of `split_axes`, straight from grid coordinates.

    The process with linear index `k` sits at grid position `unravel(k)`; along
    dim `j` split by grid axes `a1..ak` (major to minor) it holds block number
    `mixed_radix(coords[a1..ak])` of `shape[j] / prod(sizes)` elements.
    """
    split_axes = list(split_axes) + [()] * (len(shape) - len(split_axes))
    out = {}
    for k in range(math.prod(grid)):
        coords = np.unravel_index(k, grid)
        region = []
        for size, axes in zip(shape, split_axes, strict=True):
            block, count = 0, 1
            for a in axes:
                block = block * grid[a] + int(coords[a])
                count *= grid[a]
            step = size // count
            region.append(slice(block * step, (block + 1) * step))
        out[k] = tuple(region)
    return out


@settings(max_examples=300, deadline=None)
@given(grids_and_split_axes(), st.data())
def test_split_axes_round_trip_and_put_the_dialects_blocks_on_each_device(case, data):
    grid, rank, split_axes = case
    mesh = grid_mesh(grid)
    text = format_split_axes(split_axes)
    assert parse_split_axes(text) == split_axes
    assert parse_split_axes(format_split_axes(split_axes, trim=True)) == tuple(
        split_axes[: max([i + 1 for i, d in enumerate(split_axes) if d], default=0)]
    )

    sharding = split_axes_to_sharding(text, mesh, rank)
    padded = split_axes + ((),) * (rank - len(split_axes))
    assert sharding_to_split_axes(sharding, mesh) == padded
    assert split_axes_to_sharding(padded, mesh, rank) == sharding

    # Even splits (the dialect needs them for static shapes): blocks of shape[j] / shards.
    shards = [math.prod(grid[a] for a in axes) for axes in padded]
    shape = tuple(n * data.draw(st.integers(1, 3)) for n in shards)
    assert device_slices(shape, sharding, mesh) == reference_slices(grid, split_axes, shape)


@st.composite
def shardings_on_grids(draw):
    """A grid mesh and a Shardy sharding of whole axes, with open dims, priorities, replicas."""
    grid, rank, split_axes = draw(grids_and_split_axes())
    mesh = grid_mesh(grid)
    padded = split_axes + ((),) * (rank - len(split_axes))
    dims = []
    for axes in padded:
        is_closed = draw(st.booleans())
        priority = draw(st.none() | st.integers(0, 3)) if axes or not is_closed else None
        dims.append(
            {"axes": [mesh.axis_names[a] for a in axes], "closed": is_closed, "p": priority}
        )
    used = {a for axes in padded for a in axes}
    free = [n for i, n in enumerate(mesh.axis_names) if i not in used]
    replicated = draw(st.lists(st.sampled_from(free), unique=True)) if free else []
    replicated.sort(key=mesh.axis_index)
    text = ", ".join(
        "{"
        + ", ".join([f'"{a}"' for a in d["axes"]] + ([] if d["closed"] else ["?"]))
        + "}"
        + ("" if d["p"] is None else f"p{d['p']}")
        for d in dims
    )
    extra = ", replicated={" + ", ".join(f'"{a}"' for a in replicated) + "}" if replicated else ""
    return mesh, S(f"<@mesh, [{text}]{extra}>")


@settings(max_examples=200, deadline=None)
@given(shardings_on_grids(), st.data())
def test_shardings_survive_the_trip_through_split_axes(case, data):
    mesh, sharding = case
    split_axes = sharding_to_split_axes(sharding, mesh)
    back = split_axes_to_sharding(split_axes, mesh, sharding.rank)
    assert [d.axes for d in back.dims] == [d.axes for d in sharding.dims]
    shape = tuple(
        data.draw(st.lists(st.integers(0, 9), min_size=sharding.rank, max_size=sharding.rank))
    )
    assert equivalent(sharding, back, mesh, shape)
    assert device_slices(shape, sharding, mesh) == device_slices(shape, back, mesh)
