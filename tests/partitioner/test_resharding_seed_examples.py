"""The MLIR shard dialect's resharding spmdization examples, checked against our layout.

Each example reshards a tensor on a grid from one `split_axes` to another and
draws what every device holds before and after. The tensors and drawings are
written out below as data; each `split_axes` goes through
`shardonnay.interop.shard_dialect`, `shardonnay.layout.shard` computes every
device's buffer, and the buffers must be the drawn ones. Where an example names
an algorithm (all-gather, all-to-all, slicing, swapping devices), a small
simulation of those collectives checks that it really turns one layout into the
other.

Grid drawings put grid axis 0 down the page and the last grid axis across it
(3-D grids: axis 0 picks the block, axis 1 the row of cells, axis 2 the column),
unless an example says otherwise.

Not every drawing is self-consistent. How each one is read is said where it is
encoded, and the tests named `test_as_drawn_*` pin down what our semantics give
for the reading that does not match the drawing.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import pytest

from shardonnay import Mesh, TensorSharding
from shardonnay.interop.shard_dialect import (
    format_split_axes,
    grid_mesh,
    parse_split_axes,
    sharding_to_split_axes,
    split_axes_to_sharding,
)
from shardonnay.layout import device_slices, local_shape, shard, unshard

Buffers = dict[int, np.ndarray]


@dataclass(frozen=True)
class Drawing:
    """A tensor on a grid under `split_axes`, with each device's buffer as drawn.

    `devices` nests one level per grid axis, in the order `drawn_axes` (default:
    axis 0 outermost), and then holds that device's buffer.
    """

    grid: tuple[int, ...]
    tensor: tuple
    split_axes: str
    devices: list
    drawn_axes: tuple[int, ...] | None = None

    @property
    def mesh(self) -> Mesh:
        return grid_mesh(self.grid)

    @property
    def array(self) -> np.ndarray:
        return np.array(self.tensor)

    @property
    def sharding(self) -> TensorSharding:
        return split_axes_to_sharding(parse_split_axes(self.split_axes), self.mesh, self.array.ndim)

    def drawn(self) -> Buffers:
        """The drawn buffers by device id."""
        nested = np.array(self.devices)
        k = len(self.grid)
        if self.drawn_axes is not None:
            nested = np.moveaxis(nested, list(range(k)), list(self.drawn_axes))
        assert nested.shape[:k] == self.grid, "the drawing does not cover the grid"
        return {self.mesh.device_at(c): nested[c] for c in np.ndindex(*self.grid)}

    def computed(self) -> Buffers:
        """The buffers our layout puts on each device."""
        return shard(self.array, self.sharding, self.mesh)


@dataclass(frozen=True)
class Reshard:
    """One worked example: a tensor drawn under one sharding, then under another."""

    name: str
    before: Drawing
    after: tuple[Drawing, ...]


# -- the unsharded tensors ----------------------------------------------------------------

T_2x3 = ((11, 12, 13), (21, 22, 23))

T_2x6 = (
    (11, 12, 13, 14, 15, 16),
    (21, 22, 23, 24, 25, 26),
)

T_4x8 = (
    (11, 12, 13, 14, 15, 16, 17, 18),
    (21, 22, 23, 24, 25, 26, 27, 28),
    (31, 32, 33, 34, 35, 36, 37, 38),
    (41, 42, 43, 44, 45, 46, 47, 48),
)

T_6x6 = (
    (11, 12, 13, 14, 15, 16),
    (21, 22, 23, 24, 25, 26),
    (31, 32, 33, 34, 35, 36),
    (41, 42, 43, 44, 45, 46),
    (51, 52, 53, 54, 55, 56),
    (61, 62, 63, 64, 65, 66),
)

T_4x4 = (
    (11, 12, 13, 14),
    (21, 22, 23, 24),
    (31, 32, 33, 34),
    (41, 42, 43, 44),
)

# -- the examples ---------------------------------------------------------------------------

# `2x3` tensor, `[[0, 1]]` -> `[[1, 0]]` on a 2x3 grid. The drawing puts ONE element on
# each of the 6 devices, which a 2x3 tensor split 6 ways along its dim 0 (of size 2)
# cannot give: that would put a whole row on 2 devices and padding on 4 (see
# `test_as_drawn_the_2x3_tensor_split_six_ways_along_rows_is_mostly_padding`). We read
# the tensor as the flattened 6-element vector 11 12 13 21 22 23, which matches both
# drawings exactly.
SWAP_AXIS_ORDER = Reshard(
    "2x3grid-flat6-[[0,1]]-to-[[1,0]]",
    Drawing(
        (2, 3),
        (11, 12, 13, 21, 22, 23),
        "[[0, 1]]",
        [
            [[11], [12], [13]],
            [[21], [22], [23]],
        ],
    ),
    (
        Drawing(
            (2, 3),
            (11, 12, 13, 21, 22, 23),
            "[[1, 0]]",
            [
                [[11], [13], [22]],
                [[12], [21], [23]],
            ],
        ),
    ),
)

# `2x3` tensor, `[[0, 1]]` -> `[[1]]` on a 2x3 grid, "all-gather along mesh axis 0". The
# source drawing is again one element per device; the target drawing shows device (i, j)
# holding COLUMN j (11/21, 12/22, 13/23) on both rows of the grid. No single reading of
# the stated split_axes gives both drawings: on the flattened vector `[[1]]` puts 11 12 /
# 13 21 / 22 23 on the three columns, and on the 2x3 tensor it puts whole rows on two
# columns and padding on the third (see `test_as_drawn_*_gather_major_axis_*`). Both
# drawings are exactly the 2x3 tensor under `[[0], [1]]` (dim 0 along axis 0, dim 1
# along axis 1) -> `[[], [1]]`, which is also an all-gather along grid axis 0. We test
# that reading.
GATHER_AXIS_0 = Reshard(
    "2x3grid-2x3-[[0],[1]]-to-[[],[1]]",
    Drawing(
        (2, 3),
        T_2x3,
        "[[0], [1]]",
        [
            [[[11]], [[12]], [[13]]],
            [[[21]], [[22]], [[23]]],
        ],
    ),
    (
        Drawing(
            (2, 3),
            T_2x3,
            "[[], [1]]",
            [
                [[[11], [21]], [[12], [22]], [[13], [23]]],
                [[[11], [21]], [[12], [22]], [[13], [23]]],
            ],
        ),
    ),
)

# A tensor announced as `4x6`, `[[], [0, 1]]` -> `[[], [0]]` on a 2x3 grid. The unsharded
# tensor is drawn with only two rows (11..16, 21..26) and so are the device buffers, so we
# read it as the 2x6 tensor drawn (`test_the_4x6_reading_*` checks the other reading: the
# drawings then show the first two rows of every buffer). The target drawing has only 2
# columns for grid axis 1 of size 3; all devices along axis 1 hold the same block, so we
# encode the drawn block on all 3.
GATHER_MINOR_AXIS = Reshard(
    "2x3grid-2x6-[[],[0,1]]-to-[[],[0]]",
    Drawing(
        (2, 3),
        T_2x6,
        "[[], [0, 1]]",
        [
            [[[11], [21]], [[12], [22]], [[13], [23]]],
            [[[14], [24]], [[15], [25]], [[16], [26]]],
        ],
    ),
    (
        Drawing(
            (2, 3),
            T_2x6,
            "[[], [0]]",
            [
                [[[11, 12, 13], [21, 22, 23]]] * 3,
                [[[14, 15, 16], [24, 25, 26]]] * 3,
            ],
        ),
    ),
)

# `4x8` tensor, `[[0], [1, 2]]` -> `[[0], [2]]` on a 2x2x2 grid. Consistent as drawn.
DROP_MAJOR_OF_TWO = Reshard(
    "2x2x2grid-4x8-[[0],[1,2]]-to-[[0],[2]]",
    Drawing(
        (2, 2, 2),
        T_4x8,
        "[[0], [1, 2]]",
        [
            [
                [[[11, 12], [21, 22]], [[13, 14], [23, 24]]],
                [[[15, 16], [25, 26]], [[17, 18], [27, 28]]],
            ],
            [
                [[[31, 32], [41, 42]], [[33, 34], [43, 44]]],
                [[[35, 36], [45, 46]], [[37, 38], [47, 48]]],
            ],
        ],
    ),
    (
        Drawing(
            (2, 2, 2),
            T_4x8,
            "[[0], [2]]",
            [
                [
                    [[[11, 12, 13, 14], [21, 22, 23, 24]], [[15, 16, 17, 18], [25, 26, 27, 28]]],
                    [[[11, 12, 13, 14], [21, 22, 23, 24]], [[15, 16, 17, 18], [25, 26, 27, 28]]],
                ],
                [
                    [[[31, 32, 33, 34], [41, 42, 43, 44]], [[35, 36, 37, 38], [45, 46, 47, 48]]],
                    [[[31, 32, 33, 34], [41, 42, 43, 44]], [[35, 36, 37, 38], [45, 46, 47, 48]]],
                ],
            ],
        ),
    ),
)

# `6x6` tensor, `[[0], [1]]` -> `[[1], [0]]` on a 2x3 grid. Consistent as drawn. The
# target is drawn twice: once with grid axis 0 down the page, once transposed (grid
# axis 0 across, axis 1 down).
TRANSPOSE_2x3 = Reshard(
    "2x3grid-6x6-[[0],[1]]-to-[[1],[0]]",
    Drawing(
        (2, 3),
        T_6x6,
        "[[0], [1]]",
        [
            [
                [[11, 12], [21, 22], [31, 32]],
                [[13, 14], [23, 24], [33, 34]],
                [[15, 16], [25, 26], [35, 36]],
            ],
            [
                [[41, 42], [51, 52], [61, 62]],
                [[43, 44], [53, 54], [63, 64]],
                [[45, 46], [55, 56], [65, 66]],
            ],
        ],
    ),
    (
        Drawing(
            (2, 3),
            T_6x6,
            "[[1], [0]]",
            [
                [
                    [[11, 12, 13], [21, 22, 23]],
                    [[31, 32, 33], [41, 42, 43]],
                    [[51, 52, 53], [61, 62, 63]],
                ],
                [
                    [[14, 15, 16], [24, 25, 26]],
                    [[34, 35, 36], [44, 45, 46]],
                    [[54, 55, 56], [64, 65, 66]],
                ],
            ],
        ),
        Drawing(
            (2, 3),
            T_6x6,
            "[[1], [0]]",
            [
                [[[11, 12, 13], [21, 22, 23]], [[14, 15, 16], [24, 25, 26]]],
                [[[31, 32, 33], [41, 42, 43]], [[34, 35, 36], [44, 45, 46]]],
                [[[51, 52, 53], [61, 62, 63]], [[54, 55, 56], [64, 65, 66]]],
            ],
            drawn_axes=(1, 0),
        ),
    ),
)

# `6x6` tensor, `[[0], [1]]` -> `[[1], [0]]` on a 2x6 grid. The source drawing has one
# typo: device (0, 4) is drawn holding 15 / 23 / 35, but 23 is the element at (1, 2) and
# is already drawn on device (0, 2); the column the device holds is 15 / 25 / 35 (see
# `test_as_drawn_device_0_4_of_the_2x6_grid_holds_25_not_23`). We encode 25. The target
# is drawn transposed (grid axis 0 across, axis 1 down), one row of the tensor per
# grid row.
TRANSPOSE_2x6 = Reshard(
    "2x6grid-6x6-[[0],[1]]-to-[[1],[0]]",
    Drawing(
        (2, 6),
        T_6x6,
        "[[0], [1]]",
        [
            [
                [[11], [21], [31]],
                [[12], [22], [32]],
                [[13], [23], [33]],
                [[14], [24], [34]],
                [[15], [25], [35]],  # drawn as 15 / 23 / 35
                [[16], [26], [36]],
            ],
            [
                [[41], [51], [61]],
                [[42], [52], [62]],
                [[43], [53], [63]],
                [[44], [54], [64]],
                [[45], [55], [65]],
                [[46], [56], [66]],
            ],
        ],
    ),
    (
        Drawing(
            (2, 6),
            T_6x6,
            "[[1], [0]]",
            [
                [[[11, 12, 13]], [[14, 15, 16]]],
                [[[21, 22, 23]], [[24, 25, 26]]],
                [[[31, 32, 33]], [[34, 35, 36]]],
                [[[41, 42, 43]], [[44, 45, 46]]],
                [[[51, 52, 53]], [[54, 55, 56]]],
                [[[61, 62, 63]], [[64, 65, 66]]],
            ],
            drawn_axes=(1, 0),
        ),
    ),
)

# `6x6` tensor, `[[0], []]` -> `[[], [0]]` on a 1-D grid of 3. Consistent as drawn.
MOVE_TO_OTHER_DIM = Reshard(
    "3grid-6x6-[[0],[]]-to-[[],[0]]",
    Drawing(
        (3,),
        T_6x6,
        "[[0], []]",
        [
            [[11, 12, 13, 14, 15, 16], [21, 22, 23, 24, 25, 26]],
            [[31, 32, 33, 34, 35, 36], [41, 42, 43, 44, 45, 46]],
            [[51, 52, 53, 54, 55, 56], [61, 62, 63, 64, 65, 66]],
        ],
    ),
    (
        Drawing(
            (3,),
            T_6x6,
            "[[], [0]]",
            [
                [[11, 12], [21, 22], [31, 32], [41, 42], [51, 52], [61, 62]],
                [[13, 14], [23, 24], [33, 34], [43, 44], [53, 54], [63, 64]],
                [[15, 16], [25, 26], [35, 36], [45, 46], [55, 56], [65, 66]],
            ],
        ),
    ),
)

# `4x4` tensor, `[[0], [1, 2]]` -> `[[0, 1], [2]]` on a 2x2x2 grid. The target drawing has
# one typo: device (0, 0, 1) is drawn holding 13 41, but 41 is the element at (3, 0) and
# is already drawn on device (1, 1, 0); the device holds row 0's second half, 13 14 (see
# `test_as_drawn_device_0_0_1_of_the_2x2x2_grid_holds_13_14_not_13_41`). We encode 13 14.
MOVE_AXIS_BETWEEN_DIMS = Reshard(
    "2x2x2grid-4x4-[[0],[1,2]]-to-[[0,1],[2]]",
    Drawing(
        (2, 2, 2),
        T_4x4,
        "[[0], [1, 2]]",
        [
            [
                [[[11], [21]], [[12], [22]]],
                [[[13], [23]], [[14], [24]]],
            ],
            [
                [[[31], [41]], [[32], [42]]],
                [[[33], [43]], [[34], [44]]],
            ],
        ],
    ),
    (
        Drawing(
            (2, 2, 2),
            T_4x4,
            "[[0, 1], [2]]",
            [
                [
                    [[[11, 12]], [[13, 14]]],  # drawn as 11 12 | 13 41
                    [[[21, 22]], [[23, 24]]],
                ],
                [
                    [[[31, 32]], [[33, 34]]],
                    [[[41, 42]], [[43, 44]]],
                ],
            ],
        ),
    ),
)

RESHARDS = [
    SWAP_AXIS_ORDER,
    GATHER_AXIS_0,
    GATHER_MINOR_AXIS,
    DROP_MAJOR_OF_TWO,
    TRANSPOSE_2x3,
    TRANSPOSE_2x6,
    MOVE_TO_OTHER_DIM,
    MOVE_AXIS_BETWEEN_DIMS,
]


def _drawings():
    for reshard in RESHARDS:
        yield pytest.param(reshard.before, id=f"{reshard.name}/before-{reshard.before.split_axes}")
        for i, after in enumerate(reshard.after):
            view = "" if len(reshard.after) == 1 else f"-view{i + 1}"
            yield pytest.param(after, id=f"{reshard.name}/after-{after.split_axes}{view}")


DRAWINGS = list(_drawings())


# -- every drawing is what our layout computes ----------------------------------------------


@pytest.mark.parametrize("drawing", DRAWINGS)
def test_each_device_holds_what_is_drawn(drawing: Drawing):
    computed, drawn = drawing.computed(), drawing.drawn()
    assert computed.keys() == drawn.keys()
    for device, buffer in drawn.items():
        coords = drawing.mesh.coords_of(device)
        np.testing.assert_array_equal(computed[device], buffer, err_msg=f"device at {coords}")


@pytest.mark.parametrize("drawing", DRAWINGS)
def test_split_axes_survive_the_trip_through_shardonnay(drawing: Drawing):
    split_axes = sharding_to_split_axes(drawing.sharding, drawing.mesh)
    assert format_split_axes(split_axes) == drawing.split_axes


@pytest.mark.parametrize("reshard", [pytest.param(r, id=r.name) for r in RESHARDS])
def test_before_and_after_hold_the_same_tensor(reshard: Reshard):
    """Both drawn layouts describe the unsharded tensor (replicas agree, nothing lost)."""
    for drawing in (reshard.before, *reshard.after):
        got = unshard(drawing.drawn(), drawing.sharding, drawing.mesh, drawing.array.shape)
        np.testing.assert_array_equal(got, drawing.array)
    assert len({d.array.tobytes() for d in (reshard.before, *reshard.after)}) == 1


# -- simulated collectives ------------------------------------------------------------------


def _group(mesh: Mesh, device: int, axis: int) -> list[int]:
    """The devices that differ from `device` only along grid `axis`, in axis order."""
    coords = list(mesh.coords_of(device))
    group = []
    for c in range(mesh.shape[axis]):
        coords[axis] = c
        group.append(mesh.device_at(coords))
    return group


def all_gather(buffers: Buffers, mesh: Mesh, axis: int, gather_axis: int) -> Buffers:
    """`all_gather` on grid axis `axis`: concatenate the group's buffers along `gather_axis`."""
    return {
        d: np.concatenate([buffers[p] for p in _group(mesh, d, axis)], axis=gather_axis)
        for d in buffers
    }


def all_slice(buffers: Buffers, mesh: Mesh, axis: int, slice_axis: int) -> Buffers:
    """`all_slice` on grid axis `axis`: keep the piece of `slice_axis` at this device's position."""
    n = mesh.shape[axis]
    return {d: np.split(b, n, axis=slice_axis)[mesh.coords_of(d)[axis]] for d, b in buffers.items()}


def all_to_all(
    buffers: Buffers, mesh: Mesh, axis: int, split_axis: int, concat_axis: int
) -> Buffers:
    """`all_to_all` on grid axis `axis`: piece `i` of `split_axis` goes to the group's `i`-th
    device, which concatenates what it receives along `concat_axis` in group order."""
    n = mesh.shape[axis]
    out = {}
    for d in buffers:
        me = mesh.coords_of(d)[axis]
        pieces = [np.split(buffers[p], n, axis=split_axis)[me] for p in _group(mesh, d, axis)]
        out[d] = np.concatenate(pieces, axis=concat_axis)
    return out


def layout(tensor, grid: Sequence[int], split_axes: str) -> Buffers:
    """`shard` for a split_axes on a grid."""
    array = np.asarray(tensor)
    mesh = grid_mesh(grid)
    return shard(array, split_axes_to_sharding(split_axes, mesh, array.ndim), mesh)


def assert_same_buffers(got: Buffers, expected: Buffers) -> None:
    assert got.keys() == expected.keys()
    for device in expected:
        np.testing.assert_array_equal(got[device], expected[device], err_msg=f"device {device}")


def differ(a: Buffers, b: Buffers) -> bool:
    return any(a[d].shape != b[d].shape or not np.array_equal(a[d], b[d]) for d in a)


def is_device_permutation(a: Buffers, b: Buffers) -> bool:
    """`b` holds exactly `a`'s buffers, moved between devices."""
    return sorted(x.tobytes() for x in a.values()) == sorted(x.tobytes() for x in b.values())


# -- the algorithms the examples name ---------------------------------------------------------


def test_swapping_the_axis_order_only_moves_buffers_between_devices():
    # "Swap contents on devices that have the same linear index in the 2 shardings."
    before, after = SWAP_AXIS_ORDER.before, SWAP_AXIS_ORDER.after[0]
    assert is_device_permutation(before.drawn(), after.drawn())
    # The device at linear index k under [[0, 1]] holds shard k; under [[1, 0]] shard k
    # sits at grid position (k % 2, k // 2).
    mesh, b, a = before.mesh, before.drawn(), after.drawn()
    for k in range(6):
        np.testing.assert_array_equal(b[k], a[mesh.device_at((k % 2, k // 2))])


def test_gathering_grid_axis_0_turns_the_2x3_tensor_from_tiles_into_columns():
    before, after = GATHER_AXIS_0.before, GATHER_AXIS_0.after[0]
    got = all_gather(before.drawn(), before.mesh, axis=0, gather_axis=0)
    assert_same_buffers(got, after.drawn())


def test_gathering_the_minor_axis_leaves_the_major_one():
    # "All-gather along mesh axis 1": [[], [0, 1]] -> [[], [0]].
    before, after = GATHER_MINOR_AXIS.before, GATHER_MINOR_AXIS.after[0]
    got = all_gather(before.drawn(), before.mesh, axis=1, gather_axis=1)
    assert_same_buffers(got, after.drawn())


def test_dropping_the_major_axis_of_two_needs_a_swap_first():
    before, after = DROP_MAJOR_OF_TWO.before, DROP_MAJOR_OF_TWO.after[0]
    mesh = before.mesh
    # "Can't be done with just an all-gather along mesh axis 1": that gathers columns
    # 0-1 with 4-5 (not adjacent) on device (0, 0, 0).
    gathered = all_gather(before.drawn(), mesh, axis=1, gather_axis=1)
    assert differ(gathered, after.drawn())
    assert gathered[0].tolist() == [[11, 12, 15, 16], [21, 22, 25, 26]]
    # "[[0], [1, 2]] -> [[0], [2, 1]] -> [[0], [2]]": the swap moves buffers between
    # devices, then gathering axis 1 (now minor) gives the target.
    swapped = layout(T_4x8, (2, 2, 2), "[[0], [2, 1]]")
    assert is_device_permutation(before.drawn(), swapped)
    assert_same_buffers(all_gather(swapped, mesh, axis=1, gather_axis=1), after.drawn())


@pytest.mark.parametrize("reshard", [TRANSPOSE_2x3, TRANSPOSE_2x6], ids=lambda r: r.name)
def test_transposing_the_grid_axes_by_gather_all_to_all_and_slice(reshard: Reshard):
    # The examples leave the algorithm TODO; their basis section decomposes
    # [[0], [1]] -> [[1], [0]] as: all-gather along mesh axis 1 -> [[0], []], all-to-all
    # along mesh axis 0 -> [[], [0]], extract slice along mesh axis 1 -> [[1], [0]].
    before, after = reshard.before, reshard.after[0]
    mesh, grid = before.mesh, before.grid
    step = all_gather(before.drawn(), mesh, axis=1, gather_axis=1)
    assert_same_buffers(step, layout(T_6x6, grid, "[[0], []]"))
    step = all_to_all(step, mesh, axis=0, split_axis=1, concat_axis=0)
    assert_same_buffers(step, layout(T_6x6, grid, "[[], [0]]"))
    step = all_slice(step, mesh, axis=1, slice_axis=0)
    assert_same_buffers(step, after.drawn())


def test_moving_the_axis_to_the_other_dim_is_one_all_to_all():
    # all_to_all on @mesh mesh_axes = [0] split_axis = 1 concat_axis = 0 :
    # tensor<2x6xi8> -> tensor<6x2xi8>
    before, after = MOVE_TO_OTHER_DIM.before, MOVE_TO_OTHER_DIM.after[0]
    assert local_shape((6, 6), before.sharding, before.mesh) == (2, 6)
    got = all_to_all(before.drawn(), before.mesh, axis=0, split_axis=1, concat_axis=0)
    assert_same_buffers(got, after.drawn())
    assert got[0].shape == (6, 2)


def test_moving_an_axis_between_dims_needs_a_swap_first():
    before, after = MOVE_AXIS_BETWEEN_DIMS.before, MOVE_AXIS_BETWEEN_DIMS.after[0]
    mesh = before.mesh
    # The example's one-step attempt is an all-to-all over grid axis 2 turning the local
    # tensor<2x1> into tensor<1x2> (its text says split_axis = 1 concat_axis = 0, but a
    # size-1 dim cannot be split in two; the types fit split_axis = 0, concat_axis = 1).
    # It "is not enough": it makes [[0, 2], [1]], not [[0, 1], [2]].
    assert local_shape((4, 4), before.sharding, mesh) == (2, 1)
    moved = all_to_all(before.drawn(), mesh, axis=2, split_axis=0, concat_axis=1)
    assert_same_buffers(moved, layout(T_4x4, (2, 2, 2), "[[0, 2], [1]]"))
    assert differ(moved, after.drawn())
    # "[[0], [1, 2]] -> [[0], [2, 1]] -> [[0, 1], [2]]": swap, then all-to-all over axis 1.
    swapped = layout(T_4x4, (2, 2, 2), "[[0], [2, 1]]")
    assert is_device_permutation(before.drawn(), swapped)
    moved = all_to_all(swapped, mesh, axis=1, split_axis=0, concat_axis=1)
    assert_same_buffers(moved, after.drawn())


# -- the basis reshardings (no drawings: checked on a tensor of our choosing) --------------------

T_6 = np.arange(11, 17)


@pytest.mark.parametrize(
    "tensor, source, target, step",
    [
        pytest.param(
            T_6, "[[]]", "[[1]]", lambda b, m: all_slice(b, m, 1, 0), id="[[]]-slice1-[[1]]"
        ),
        pytest.param(
            T_6, "[[0]]", "[[]]", lambda b, m: all_gather(b, m, 0, 0), id="[[0]]-gather0-[[]]"
        ),
        # Listed as "[[0, 1]] -> [[1]]: all-gather along mesh axis 0", which only works once
        # axis 0 is the minor axis (see the `test_as_drawn_gathering_the_major_axis_*` test).
        pytest.param(
            T_6,
            "[[1, 0]]",
            "[[1]]",
            lambda b, m: all_gather(b, m, 0, 0),
            id="[[1,0]]-gather0-[[1]]",
        ),
        pytest.param(
            T_6x6,
            "[[0], []]",
            "[[], [0]]",
            lambda b, m: all_to_all(b, m, 0, 1, 0),
            id="[[0],[]]-all_to_all0-[[],[0]]",
        ),
    ],
)
def test_basis_reshardings(tensor, source, target, step):
    mesh = grid_mesh((2, 3))
    got = step(layout(tensor, (2, 3), source), mesh)
    assert_same_buffers(got, layout(tensor, (2, 3), target))


def test_basis_swap_of_the_axis_order_is_a_device_permutation():
    assert is_device_permutation(layout(T_6, (2, 3), "[[0, 1]]"), layout(T_6, (2, 3), "[[1, 0]]"))


def test_as_drawn_gathering_the_major_axis_gives_strided_data_not_the_minor_layout():
    # The basis lists "[[0, 1]] -> [[1]]: all-gather along mesh axis 0". Axis 0 is the
    # MAJOR axis of [[0, 1]], so gathering it concatenates elements 3 apart: device
    # (., j) gets elements j and j + 3, whereas [[1]] holds the adjacent 2j and 2j + 1.
    # (The 4x8 example says the same: "can't be done with just an all-gather".) The
    # 2x3 example's target drawing (11/21, 12/22, 13/23) is exactly this strided result,
    # which is why we read that example as the 2x3 tensor under [[0], [1]] -> [[], [1]].
    mesh = grid_mesh((2, 3))
    gathered = all_gather(layout(T_6, (2, 3), "[[0, 1]]"), mesh, 0, 0)
    assert [gathered[mesh.device_at((0, j))].tolist() for j in range(3)] == [
        [11, 14],
        [12, 15],
        [13, 16],
    ]
    assert differ(gathered, layout(T_6, (2, 3), "[[1]]"))
    # On the example's own values (flattened 11 12 13 21 22 23): the drawn columns.
    flat = (11, 12, 13, 21, 22, 23)
    gathered = all_gather(layout(flat, (2, 3), "[[0, 1]]"), mesh, 0, 0)
    assert [gathered[mesh.device_at((0, j))].tolist() for j in range(3)] == [
        [11, 21],
        [12, 22],
        [13, 23],
    ]


def test_basis_decomposition_on_four_grid_axes():
    # [[3, 2], [], [0, 1]] -> all-to-all along mesh axis 1 -> [[3, 2], [1], [0]]
    #   -> all-to-all along mesh axis 2 -> [[3], [1, 2], [0]]
    #   -> all-gather along mesh axis 3 -> [[], [1, 2], [0]]
    #   -> all-to-all along mesh axis 0 -> [[0], [1, 2], []]
    # The grid is not given; 2x3x2x2 keeps the axes distinguishable by size.
    grid = (2, 3, 2, 2)
    mesh = grid_mesh(grid)
    tensor = np.arange(8 * 6 * 6).reshape(8, 6, 6)
    buffers = layout(tensor, grid, "[[3, 2], [], [0, 1]]")
    steps = [
        (lambda b: all_to_all(b, mesh, 1, split_axis=1, concat_axis=2), "[[3, 2], [1], [0]]"),
        (lambda b: all_to_all(b, mesh, 2, split_axis=1, concat_axis=0), "[[3], [1, 2], [0]]"),
        (lambda b: all_gather(b, mesh, 3, gather_axis=0), "[[], [1, 2], [0]]"),
        (lambda b: all_to_all(b, mesh, 0, split_axis=0, concat_axis=2), "[[0], [1, 2], []]"),
    ]
    for step, split_axes in steps:
        buffers = step(buffers)
        assert_same_buffers(buffers, layout(tensor, grid, split_axes))


# -- readings that do not match the drawings ----------------------------------------------------


def test_as_drawn_the_2x3_tensor_split_six_ways_along_rows_is_mostly_padding():
    # Read literally, `[[0, 1]]` on the 2x3 tensor splits dim 0 (size 2) into 6 shards of
    # one row: devices 0 and 1 hold the rows, the other 4 only padding. The drawing shows
    # one element per device, hence our flattened reading of that example.
    mesh = grid_mesh((2, 3))
    sharding = split_axes_to_sharding("[[0, 1]]", mesh, 2)
    assert local_shape((2, 3), sharding, mesh) == (1, 3)
    buffers = shard(np.array(T_2x3), sharding, mesh)
    assert [buffers[d].tolist() for d in range(6)] == [
        [[11, 12, 13]],
        [[21, 22, 23]],
        [[0, 0, 0]],
        [[0, 0, 0]],
        [[0, 0, 0]],
        [[0, 0, 0]],
    ]


def test_as_drawn_gather_major_axis_of_the_2x3_example_is_not_the_drawn_columns():
    # The second example's stated `[[0, 1]] -> [[1]]`. Flattened, the source matches the
    # drawing but `[[1]]` puts 11 12 / 13 21 / 22 23 on the grid columns (drawn: 11 21 /
    # 12 22 / 13 23). On the 2x3 tensor, `[[1]]` puts whole rows on columns 0 and 1 and
    # padding on column 2.
    mesh = grid_mesh((2, 3))
    flat = layout((11, 12, 13, 21, 22, 23), (2, 3), "[[1]]")
    assert [flat[mesh.device_at((0, j))].tolist() for j in range(3)] == [
        [11, 12],
        [13, 21],
        [22, 23],
    ]
    rows = layout(T_2x3, (2, 3), "[[1]]")
    assert [rows[mesh.device_at((1, j))].tolist() for j in range(3)] == [
        [[11, 12, 13]],
        [[21, 22, 23]],
        [[0, 0, 0]],
    ]


def test_the_4x6_reading_shows_the_first_two_rows_of_each_buffer():
    # The example announces a 4x6 tensor but draws two rows. With the two missing rows
    # (31..36, 41..46) filled in, every device holds 4 rows, of which the drawing shows
    # the first two.
    t_4x6 = np.array([[10 * i + j for j in range(1, 7)] for i in range(1, 5)])
    for drawing in (GATHER_MINOR_AXIS.before, *GATHER_MINOR_AXIS.after):
        sharding = split_axes_to_sharding(drawing.split_axes, drawing.mesh, 2)
        buffers = shard(t_4x6, sharding, drawing.mesh)
        for device, drawn in drawing.drawn().items():
            assert buffers[device].shape == (4, drawn.shape[1])
            np.testing.assert_array_equal(buffers[device][:2], drawn)


def test_as_drawn_device_0_4_of_the_2x6_grid_holds_25_not_23():
    mesh = grid_mesh((2, 6))
    buffers = layout(T_6x6, (2, 6), "[[0], [1]]")
    assert buffers[mesh.device_at((0, 4))].ravel().tolist() == [15, 25, 35]  # drawn: 15 23 35
    holders_of_23 = [d for d, b in buffers.items() if 23 in b]
    assert holders_of_23 == [mesh.device_at((0, 2))]


def test_as_drawn_device_0_0_1_of_the_2x2x2_grid_holds_13_14_not_13_41():
    mesh = grid_mesh((2, 2, 2))
    buffers = layout(T_4x4, (2, 2, 2), "[[0, 1], [2]]")
    assert buffers[mesh.device_at((0, 0, 1))].tolist() == [[13, 14]]  # drawn: 13 41
    assert [d for d, b in buffers.items() if 41 in b] == [mesh.device_at((1, 1, 0))]


# -- the general KxL on MxN formulas ------------------------------------------------------------


def _ceildiv(a: int, b: int) -> int:
    return -(-a // b)


@pytest.mark.parametrize("M, N, K, L", [(3, 4, 16, 23), (5, 2, 27, 14)], ids=["3x4", "5x2"])
def test_the_inverse_maps_of_both_shardings(M, N, K, L):
    # [[0], [1]]: t[i, j] -> d(i floordiv (K ceildiv M), j floordiv (L ceildiv N))
    #                         [i % (K ceildiv M), j % (L ceildiv N)]
    # [[1], [0]]: t[i, j] -> d(j floordiv (L ceildiv M), i floordiv (K ceildiv N))
    #                         [i % (K ceildiv N), j % (L ceildiv M)]
    t = np.arange(1, K * L + 1).reshape(K, L)
    mesh = grid_mesh((M, N))
    d1 = layout(t, (M, N), "[[0], [1]]")
    d2 = layout(t, (M, N), "[[1], [0]]")
    assert d1[0].shape == (_ceildiv(K, M), _ceildiv(L, N))
    assert d2[0].shape == (_ceildiv(K, N), _ceildiv(L, M))
    for i in range(K):
        for j in range(L):
            a, b = _ceildiv(K, M), _ceildiv(L, N)
            assert d1[mesh.device_at((i // a, j // b))][i % a, j % b] == t[i, j]
            a, b = _ceildiv(K, N), _ceildiv(L, M)
            assert d2[mesh.device_at((j // b, i // a))][i % a, j % b] == t[i, j]


def test_the_first_worked_check_t_13_17_is_d_2_2_at_1_5():
    # i = 13, j = 17, M = 3, N = 4, K = 16, L = 23 under [[0], [1]].
    t = np.arange(16 * 23).reshape(16, 23)
    d = layout(t, (3, 4), "[[0], [1]]")
    assert d[grid_mesh((3, 4)).device_at((2, 2))][1, 5] == t[13, 17]


def test_as_drawn_the_second_worked_check_lies_outside_the_tensor_and_the_grid():
    # The check for [[1], [0]] uses i = 9, j = 19 with M = 5, N = 2, K = 27, L = 14 and
    # lands on d(6, 0)[9, 1]. But j = 19 is past the end of a dim of size L = 14, and grid
    # axis 0 has M = 5 positions, so there is no device (6, 0). The arithmetic itself
    # (19 floordiv 3 = 6, 9 floordiv 14 = 0, ...) is right; only the point is out of
    # range. Our layout agrees on every in-range point (see the inverse-map test), and
    # e.g. t[9, 13] is d(4, 0)[9, 1].
    M, N, K, L = 5, 2, 27, 14
    mesh = grid_mesh((M, N))
    sharding = split_axes_to_sharding("[[1], [0]]", mesh, 2)
    assert L <= 19 and 19 // _ceildiv(L, M) >= M
    t = np.arange(K * L).reshape(K, L)
    d = shard(t, sharding, mesh)
    assert d[mesh.device_at((4, 0))][9, 1] == t[9, 13]
    regions = device_slices((K, L), sharding, mesh)
    assert all(r[1].stop <= L for r in regions.values())


def test_as_drawn_the_composed_map_mixes_up_the_two_shardings():
    # The example composes the maps as
    #   d1(m, n)[k, l] -> d2((m * (L ceildiv M) + l) floordiv (L ceildiv M),
    #                        (n * (K ceildiv N) + k) floordiv (K ceildiv N))
    #                       [(n * (K ceildiv N) + k) % (K ceildiv N),
    #                        (m * (L ceildiv M) + l) % (L ceildiv M)]
    # which substitutes [[1], [0]]'s forward map where [[0], [1]]'s belongs. For
    # k < K ceildiv N and l < L ceildiv M it says d1(m, n)[k, l] = d2(m, n)[k, l] (no data
    # would move); for larger k or l it can point past the grid. Substituting
    # i = m * (K ceildiv M) + k and j = n * (L ceildiv N) + l into d2's inverse map is
    # right. On the 6x6 tensor and 2x3 grid, d1(0, 1)[0, 0] is 13 but d2(0, 1)[0, 0] is 31.
    M, N, K, L = 2, 3, 6, 6
    mesh = grid_mesh((M, N))
    d1 = layout(T_6x6, (M, N), "[[0], [1]]")
    d2 = layout(T_6x6, (M, N), "[[1], [0]]")

    def at1(m: int, n: int) -> np.ndarray:
        return d1[mesh.device_at((m, n))]

    def at2(m: int, n: int) -> np.ndarray:
        return d2[mesh.device_at((m, n))]

    assert (at1(0, 1)[0, 0], at2(0, 1)[0, 0]) == (13, 31)

    def as_written(m, n, k, l):  # noqa: E741 - the example's names
        p = (m * _ceildiv(L, M) + l) // _ceildiv(L, M)
        q = (n * _ceildiv(K, N) + k) // _ceildiv(K, N)
        u = (n * _ceildiv(K, N) + k) % _ceildiv(K, N)
        v = (m * _ceildiv(L, M) + l) % _ceildiv(L, M)
        return at2(p, q)[u, v] if p < M and q < N else None  # None: no such device

    def corrected(m, n, k, l):  # noqa: E741 - the example's names
        i, j = m * _ceildiv(K, M) + k, n * _ceildiv(L, N) + l
        return at2(j // _ceildiv(L, M), i // _ceildiv(K, N))[i % _ceildiv(K, N), j % _ceildiv(L, M)]

    points = [
        (m, n, k, l)
        for m in range(M)
        for n in range(N)
        for k in range(_ceildiv(K, M))
        for l in range(_ceildiv(L, N))  # noqa: E741
    ]
    assert all(corrected(*p) == at1(p[0], p[1])[p[2], p[3]] for p in points)
    wrong = [p for p in points if as_written(*p) != at1(p[0], p[1])[p[2], p[3]]]
    assert (0, 1, 0, 0) in wrong and len(wrong) > len(points) // 2
    assert any(as_written(*p) is None for p in points)


# -- the KxL example drawn with device labels -------------------------------------------------

# On a 2x3 grid the devices are labelled by grid position "11 12 13 / 21 22 23" (row =
# grid axis 0 + 1, column = grid axis 1 + 1). Under [[0], [1]] the tensor is cut into 2x3
# tiles, tile (r, c) on device "r+1 c+1"; under [[1], [0]] into 3x2 tiles drawn as
# 11 21 / 12 22 / 13 23. The overlay cuts the tensor at both sets of boundaries and labels
# each piece "source device, target device". We take K = L = 6 so that all cuts are at
# whole elements: rows cut at 2, 3, 4 and columns at 2, 3, 4.
SOURCE_TILES = [["11", "12", "13"], ["21", "22", "23"]]
TARGET_TILES = [["11", "21"], ["12", "22"], ["13", "23"]]
OVERLAY = [
    ["11 11", "12 11", "12 21", "13 21"],
    ["11 12", "12 12", "12 22", "13 22"],
    ["21 12", "22 12", "22 22", "23 22"],
    ["21 13", "22 13", "22 23", "23 23"],
]
OVERLAY_BANDS = [(0, 2), (2, 3), (3, 4), (4, 6)]  # the same for rows and columns


def _holder_labels(split_axes: str) -> np.ndarray:
    """For each element of the 6x6 tensor, the label of the one device holding it."""
    mesh = grid_mesh((2, 3))
    sharding = split_axes_to_sharding(split_axes, mesh, 2)
    labels = np.full((6, 6), "", dtype=object)
    for device, region in device_slices((6, 6), sharding, mesh).items():
        row, col = mesh.coords_of(device)
        assert (labels[region] == "").all()
        labels[region] = f"{row + 1}{col + 1}"
    return labels


@pytest.mark.parametrize(
    "split_axes, tiles",
    [("[[0], [1]]", SOURCE_TILES), ("[[1], [0]]", TARGET_TILES)],
    ids=["[[0],[1]]", "[[1],[0]]"],
)
def test_device_label_tiles(split_axes, tiles):
    labels = _holder_labels(split_axes)
    height, width = 6 // len(tiles), 6 // len(tiles[0])
    for r, row in enumerate(tiles):
        for c, label in enumerate(row):
            assert (
                labels[r * height : (r + 1) * height, c * width : (c + 1) * width] == label
            ).all()


def test_device_label_overlay_names_source_and_target_of_every_piece():
    source, target = _holder_labels("[[0], [1]]"), _holder_labels("[[1], [0]]")
    for (r0, r1), row in zip(OVERLAY_BANDS, OVERLAY, strict=True):
        for (c0, c1), cell in zip(OVERLAY_BANDS, row, strict=True):
            src, dst = cell.split()
            assert (source[r0:r1, c0:c1] == src).all(), cell
            assert (target[r0:r1, c0:c1] == dst).all(), cell
