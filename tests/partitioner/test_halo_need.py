"""Halo exchanges bring each device what it lacks, and little more.

`halo_need` says, per device, how many elements an op that only moves
elements (slice, pad, reverse, concatenate, a relayout) reads that the
device does not hold; it is checked against hand-worked cases and against
`layout.shard` of arrays of global ids. The lowering (`local_halo`) is then
checked twice on random ops of even and uneven shards: the per-device
program computes what the global one does (padding poisoned), and the bytes
each device receives (`collective_costs` of the per-device program) are
what it lacks, per element or, where other dims are padded, per slot.
"""

from __future__ import annotations

import numpy as np
import pytest

from shardonnay import parse_module
from shardonnay.layout import device_slices, shard
from shardonnay.mesh import Mesh
from shardonnay.partitioner.analysis.cost import collective_costs
from shardonnay.partitioner.halo.need import missing_elements, op_need, relayout_need
from shardonnay.partitioner.halo.schedule import Exchange, box_schedule, schedule
from shardonnay.partitioner.local.context import axes_index, axes_size
from shardonnay.sharding import TensorSharding
from shardonnay.testing.partitioned_programs import (
    assert_local_program_computes_the_same,
    collective_program,
    collectives_in,
    per_value,
    quoted,
    single_op_program,
)

MESH = Mesh({"x": 2, "y": 4})  # the mesh of `partitioned_programs.MESH`
SHARDS = {"": 1, "x": 2, "y": 4, "y, x": 8}
F32 = 4  # bytes


def _sharding(dims: str) -> TensorSharding:
    return TensorSharding.parse(f"<@mesh, {quoted(dims)}>")


def _dims(specs) -> str:
    return "[" + ", ".join("{" + s + "}" for s in specs) + "]"


def _shape(sizes) -> str:
    return "x".join(map(str, sizes))


# -- the measure ----------------------------------------------------------------------------------


def _moving_op(text: str):
    module = parse_module(text)
    return next(op for op in module.walk() if op.name.startswith("stablehlo."))


def test_a_pad_of_two_sharded_dims_lacks_three_columns_of_four_rows() -> None:
    # 8x16 on x=2, y=4 (4x4 per device) padded to 10x18 (5x5): along dim 0
    # nothing moves between shards; along dim 1 result shard 2 (columns
    # 10..14) holds 10, 11 and lacks 12..14, for each of its 4 real rows.
    text = _pad_text()
    need = op_need(_moving_op(text), [_sharding("[{x}, {y}]")], _sharding("[{x}, {y}]"), MESH)
    # device d is at x = d // 4, y = d % 4
    assert need == (1 * 4, 2 * 4, 3 * 4, 0, 1 * 4, 2 * 4, 3 * 4, 0)


def _pad_text() -> str:
    return single_op_program(
        [("tensor<8x16xf32>", "[{x}, {y}]")],
        "  %c = sdy.constant dense<-1.0> : tensor<f32>\n"
        "  %r = stablehlo.pad %arg0, %c, low = [1, 0], high = [1, 2], interior = [0, 0] "
        f"{per_value('[{x}, {y}]')} : (tensor<8x16xf32>, tensor<f32>) -> tensor<10x18xf32>",
        ("tensor<10x18xf32>", "[{x}, {y}]"),
    )


def test_a_relayout_to_the_same_sharding_lacks_nothing() -> None:
    on_y = _sharding("[{y}, {x}]")
    assert relayout_need((7, 5), on_y, on_y, MESH) == (0,) * 8


def test_gathering_half_of_an_uneven_dim_lacks_what_other_halves_hold() -> None:
    # 18 over y=4 (5 slots: 0..4, 5..9, 10..14, 15..17) gathered to y:(1)2
    # (9 slots: 0..8, 9..17) with dim 1 of 2 on nothing
    need = relayout_need((18, 2), _sharding("[{y}, {}]"), _sharding("[{y:(1)2}, {}]"), MESH)
    assert need == tuple(2 * n for n in (4, 5, 4, 6)) * 2


def _need_by_shards(reads, result, ids, operands) -> tuple[int, ...]:
    """`missing_elements` again, from `layout.shard`'s buffers (ids + 1, so
    that padding, 0, reads and holds nothing)."""
    read = shard(reads + 1, result, MESH)
    held = [shard(i + 1, s, MESH) for i, s in zip(ids, operands, strict=True)]
    out = []
    for device in range(MESH.size):
        wanted = set(read[device].ravel().tolist()) - {0}
        have = set().union(*(h[device].ravel().tolist() for h in held))
        out.append(len(wanted - have))
    return tuple(out)


@pytest.mark.parametrize("seed", range(12))
def test_the_need_is_what_layout_shards_of_global_ids_lack(seed: int) -> None:
    case = _random_case(np.random.default_rng(seed))
    op = _moving_op(case.text)
    operands = [_sharding(case.dims)] * case.operands
    need = op_need(op, operands, _sharding(case.dims), MESH)
    ids, start = [], 0
    for v in op.operands[: case.operands]:
        n = int(np.prod(v.type.shape))
        ids.append(np.arange(start, start + n).reshape(v.type.shape))
        start += n
    reads = _reads(op, ids)
    assert need == _need_by_shards(reads, _sharding(case.dims), ids, operands)
    assert need == missing_elements(reads, _sharding(case.dims), ids, operands, MESH)


def _reads(op, ids) -> np.ndarray:
    """`op` on ids, with numpy (-1 for a pad value)."""
    attrs = op.attributes
    if op.name == "stablehlo.slice":
        starts, limits = attrs["start_indices"].values, attrs["limit_indices"].values
        strides = attrs["strides"].values if "strides" in attrs else (1,) * len(starts)
        return ids[0][tuple(map(slice, starts, limits, strides))]
    if op.name == "stablehlo.reverse":
        return np.flip(ids[0], axis=tuple(attrs["dimensions"].values))
    if op.name == "stablehlo.concatenate":
        return np.concatenate(ids, axis=attrs["dimension"].value)
    out = ids[0]
    lows = attrs["edge_padding_low"].values
    highs = attrs["edge_padding_high"].values
    for d, (low, high, interior) in enumerate(
        zip(lows, highs, attrs["interior_padding"].values, strict=True)
    ):
        n = out.shape[d]
        spread = np.full([*out.shape[:d], n + (n - 1) * interior, *out.shape[d + 1 :]], -1)
        index = [slice(None)] * out.ndim
        index[d] = slice(None, None, interior + 1)
        spread[tuple(index)] = out
        widths = [(0, 0)] * out.ndim
        widths[d] = (max(low, 0), max(high, 0))
        spread = np.pad(spread, widths, constant_values=-1)
        index[d] = slice(max(-low, 0), spread.shape[d] - max(-high, 0))
        out = spread[tuple(index)]
    return out


# -- random ops moving elements along sharded dims ------------------------------------------------


class _Case:
    def __init__(self, text: str, dims: str, operands: int, moved: tuple[int, ...], shape):
        self.text, self.dims, self.operands, self.moved = text, dims, operands, moved
        self.shape = shape  # the (first) operand's


def _random_case(rng: np.random.Generator) -> _Case:
    rank = int(rng.integers(1, 3))
    shape = [int(rng.integers(2, 14)) for _ in range(rank)]
    specs = [str(rng.choice(list(SHARDS))) for _ in range(rank)]
    if not any(specs):
        specs[int(rng.integers(rank))] = str(rng.choice(["x", "y", "y, x"]))
    specs = _disjoint(specs)
    dims = _dims(specs)
    kind = str(rng.choice(["slice", "pad", "reverse", "concatenate"]))
    src = f"tensor<{_shape(shape)}xf32>"
    moved = tuple(d for d in range(rank) if rng.random() < 0.7) or (int(rng.integers(rank)),)
    args = [(src, dims)]
    prefix = ""
    if kind == "slice":
        bounds, result = [], list(shape)
        for d in range(rank):
            if d not in moved:
                bounds.append(f"0:{shape[d]}")
                continue
            start = int(rng.integers(0, shape[d]))
            limit = int(rng.integers(start + 1, shape[d] + 1))
            stride = int(rng.integers(1, 4))
            bounds.append(f"{start}:{limit}:{stride}")
            result[d] = -(-(limit - start) // stride)
        body = f"stablehlo.slice %arg0 [{', '.join(bounds)}]"
        types = f"({src}) -> tensor<{_shape(result)}xf32>"
    elif kind == "pad":
        lows, highs, inner, result = [], [], [], []
        for d in range(rank):
            low, high, interior = 0, 0, 0
            if d in moved:
                while True:
                    low, high = int(rng.integers(-2, 4)), int(rng.integers(-2, 4))
                    interior = int(rng.integers(0, 3))
                    size = low + high + (shape[d] - 1) * (interior + 1) + 1
                    if size > 0 and (low, high, interior) != (0, 0, 0):
                        break
            lows.append(low)
            highs.append(high)
            inner.append(interior)
            result.append(low + high + (shape[d] - 1) * (interior + 1) + 1)
        prefix = "  %c = sdy.constant dense<-1.0> : tensor<f32>\n"
        body = f"stablehlo.pad %arg0, %c, low = {lows}, high = {highs}, interior = {inner}"
        types = f"({src}, tensor<f32>) -> tensor<{_shape(result)}xf32>"
    elif kind == "reverse":
        result = shape
        body = f"stablehlo.reverse %arg0, dims = {list(moved)}"
        types = src
    else:
        dim = moved[0]
        moved = (dim,)
        sizes = [shape[dim], *(int(rng.integers(1, 9)) for _ in range(int(rng.integers(1, 3))))]
        srcs = [f"tensor<{_shape([*shape[:dim], n, *shape[dim + 1 :]])}xf32>" for n in sizes]
        args = [(t, dims) for t in srcs]
        result = [*shape[:dim], sum(sizes), *shape[dim + 1 :]]
        names = ", ".join(f"%arg{i}" for i in range(len(sizes)))
        body = f"stablehlo.concatenate {names}, dim = {dim}"
        types = f"({', '.join(srcs)}) -> tensor<{_shape(result)}xf32>"
    text = single_op_program(
        args,
        f"{prefix}  %r = {body} {per_value(dims)} : {types}",
        (f"tensor<{_shape(result)}xf32>", dims),
    )
    return _Case(text, dims, len(args), moved, shape)


def _disjoint(specs: list[str]) -> list[str]:
    """`specs` with each axis on one dim at most."""
    used: set[str] = set()
    out = []
    for s in specs:
        axes = [a.strip() for a in s.split(",") if a.strip()]
        if used & set(axes):
            axes = []
        used |= set(axes)
        out.append(", ".join(axes))
    return out


def _received(local) -> tuple[int, ...]:
    return collective_costs(local).received_per_device[: MESH.size]


def _padded_other_dims(case: _Case, op, dim: int) -> tuple[list[int], list[int]]:
    """Per device, the real and the local extent of all dims but `dim`
    (of the operands, which the exchange carries)."""
    sharding = _sharding(case.dims)
    regions = device_slices(op.operands[0].type.shape, sharding, MESH)
    real, local = [], []
    for device in range(MESH.size):
        r = l_ = 1
        for d, s in enumerate(regions[device]):
            if d == dim:
                continue
            n = op.operands[0].type.shape[d]
            r *= len(range(n)[s])
            l_ *= -(-n // SHARDS[_spec(case.dims, d)])
        real.append(r)
        local.append(l_)
    return real, local


def _spec(dims: str, d: int) -> str:
    return dims.strip("[]").split("}, {")[d].strip("{}")


@pytest.mark.parametrize("seed", range(40))
def test_random_moves_compute_the_same_and_receive_what_each_device_lacks(seed: int) -> None:
    case = _random_case(np.random.default_rng(1000 + seed))
    local = assert_local_program_computes_the_same(case.text)
    assert collectives_in(local) == []  # no gather of a whole dim
    op = _moving_op(case.text)
    sharding = _sharding(case.dims)
    need = op_need(op, [sharding] * case.operands, sharding, MESH)
    received = _received(local)
    sharded_moved = [d for d in case.moved if _spec(case.dims, d)]
    if len(case.moved) == 1 and sharded_moved:
        # one dim moves: each device receives the slots it lacks along it,
        # with the other dims as its buffer holds them (padding included)
        real, padded = _padded_other_dims(case, op, sharded_moved[0])
        for device in range(MESH.size):
            assert received[device] * real[device] == F32 * need[device] * padded[device]
    elif not sharded_moved:
        assert received == (0,) * MESH.size
    else:
        # several dims move one after another: along each, a device fetches
        # at most its result slots, with the other dims at most as large as
        # in the operand's or the result's shard
        before = op.operands[0].type.shape
        after = op.results[0].type.shape
        bound = 0
        for d in sharded_moved:
            n = SHARDS[_spec(case.dims, d)]
            sizes = [
                max(-(-a // SHARDS[_spec(case.dims, e)]), -(-b // SHARDS[_spec(case.dims, e)]))
                for e, (a, b) in enumerate(zip(before, after, strict=True))
            ]
            sizes[d] = -(-after[d] // n)
            bound += int(np.prod(sizes))
        assert max(received) <= F32 * bound
        assert all(r > 0 for r, n in zip(received, need, strict=True) if n)


def test_a_pad_receives_only_the_three_missing_columns_of_four_rows() -> None:
    # the pad's sharded dim moves first, before dim 0 grows to 5 rows
    local = assert_local_program_computes_the_same(_pad_text())
    need = op_need(
        _moving_op(_pad_text()), [_sharding("[{x}, {y}]")], _sharding("[{x}, {y}]"), MESH
    )
    assert _received(local) == tuple(F32 * n for n in need)


def _permutes(local) -> list:
    return [op for op in local.walk() if op.name == "stablehlo.collective_permute"]


SHIFTS = {
    # 16 over y=4, 4 slots per device
    "slice by 1": ("stablehlo.slice %arg0 [1:16]", "(tensor<16xf32>) -> tensor<15xf32>", 1),
    "reverse": ("stablehlo.reverse %arg0, dims = [0]", "tensor<16xf32>", 1),  # k <-> 3 - k
    # by 1.25 shards: 3 slots of the next shard, 1 of the one after
    "pad by -5": (
        "stablehlo.pad %arg0, %c, low = [-5], high = [5], interior = [0]",
        "(tensor<16xf32>, tensor<f32>) -> tensor<16xf32>",
        2,
    ),
}


@pytest.mark.parametrize("name", list(SHIFTS))
def test_a_shift_of_even_shards_takes_one_round_per_neighbour(name: str) -> None:
    op, types, rounds = SHIFTS[name]
    result = types.rsplit(" ", 1)[-1]
    text = single_op_program(
        [("tensor<16xf32>", "[{y}]")],
        "  %c = sdy.constant dense<-1.0> : tensor<f32>\n"
        f"  %r = {op} {per_value('[{y}]')} : {types}",
        (result, "[{y}]"),
    )
    local = assert_local_program_computes_the_same(text)
    assert len(_permutes(local)) == rounds
    need = op_need(_moving_op(text), [_sharding("[{y}]")], _sharding("[{y}]"), MESH)
    assert _received(local) == tuple(F32 * n for n in need)


def test_an_uneven_gather_receives_what_each_device_lacks() -> None:
    gather = 'sdy.all_gather [{"y":(2)2}, {}]'
    text = collective_program("18x2", '[{"y"}, {}]', gather, '[{"y":(1)2}, {}]')
    local = assert_local_program_computes_the_same(text)
    need = relayout_need((18, 2), _sharding("[{y}, {}]"), _sharding("[{y:(1)2}, {}]"), MESH)
    assert _received(local) == tuple(F32 * n for n in need)


# -- the schedule alone ---------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(30))
def test_rounds_pair_distinct_devices_with_windows_of_one_width(seed: int) -> None:
    rng = np.random.default_rng(seed)
    devices, slots = int(rng.integers(2, 9)), int(rng.integers(1, 6))
    count = int(rng.integers(1, 7))
    size = devices * slots
    table = {
        d: [int(g) if rng.random() < 0.85 else -1 for g in rng.integers(0, size, count)]
        for d in range(devices)
    }
    plan = Exchange(
        0,
        count,
        lambda d: table[d],
        lambda g: (0, g),
        lambda device, j, i: (i // slots, i % slots),
        size,
    )
    result = schedule(plan, list(range(devices)))
    lacking: dict[int, set[int]] = {d: set() for d in range(devices)}
    for d in range(devices):
        lacking[d] = {g for g in table[d] if g != -1 and g // slots != d}
    brought: dict[int, set[int]] = {d: set() for d in range(devices)}
    for r in result.rounds:
        receivers = [w[0] for w in r.windows]
        senders = [w[1] for w in r.windows]
        assert len(set(receivers)) == len(receivers) and len(set(senders)) == len(senders)
        for receiver, sender, q in r.windows:
            assert len(q) == r.width and receiver != sender
            got = {sender * slots + s for s in q}
            assert not got & brought[receiver]  # nothing comes twice
            brought[receiver] |= got
    assert brought == lacking
    assert result.received == {d: len(lacking[d]) for d in range(devices)}


# -- several dims at once -------------------------------------------------------------------------

# collectives moving two dims of a 2-D value (source, op, target on MESH)
TWO_DIM_MOVES = [
    ("[{x, y:(2)2}, {y:(1)2}]", 'sdy.all_to_all [{"y":(2)2}: 0->1]', "[{x}, {y}]"),
    ("[{y:(1)2}, {y:(2)2, x}]", 'sdy.all_to_all [{"y":(2)2, "x"}: 1->0]', "[{y, x}, {}]"),
    ("[{y}, {x}]", 'sdy.all_gather [{"y":(2)2}, {"x"}]', "[{y:(1)2}, {}]"),
    ("[{y:(1)2}, {}]", 'sdy.all_slice [{"y":(2)2}, {"x"}]', "[{y}, {x}]"),
]


def test_an_uneven_all_to_all_of_two_dims_receives_exactly_what_each_device_lacks() -> None:
    # 6x5: dim 0 on x, y:(2)2 (2 slots) to x (3), dim 1 on y:(1)2 (3 slots)
    # to y (2): the shards nest along neither dim; moving one dim and then
    # the other, the rows fetched along dim 0 travel again along dim 1
    source, op, target = TWO_DIM_MOVES[0]
    local = assert_local_program_computes_the_same(
        collective_program("6x5", source, op, quoted(target))
    )
    need = relayout_need((6, 5), _sharding(source), _sharding(target), MESH)
    assert collectives_in(local) == []
    assert _received(local) == tuple(F32 * n for n in need)


@pytest.mark.parametrize("seed", range(24))
def test_uneven_moves_of_two_dims_receive_no_more_than_the_busiest_device_lacks(seed) -> None:
    rng = np.random.default_rng(2000 + seed)
    source, op, target = TWO_DIM_MOVES[seed % len(TWO_DIM_MOVES)]
    sizes = (int(rng.integers(2, 20)), int(rng.integers(2, 12)))
    text = collective_program(_shape(sizes), source, op, quoted(target))
    local = assert_local_program_computes_the_same(text)
    if collectives_in(local):
        return  # the shards nest: the StableHLO collective moves whole buffers
    need = relayout_need(sizes, _sharding(source), _sharding(target), MESH)
    received = _received(local)
    assert max(received) == F32 * max(need)
    assert all(r >= F32 * n for r, n in zip(received, need, strict=True))


TWO_DIM_SHARDINGS = [
    *(s for move in TWO_DIM_MOVES for s in (move[0], move[2])),
    "[{}, {}]",
    "[{y}, {}]",
    "[{}, {y, x}]",
    "[{x}, {y:(2)2}]",
]


@pytest.mark.parametrize("seed", range(20))
def test_boxes_bring_each_device_exactly_the_elements_it_lacks(seed: int) -> None:
    rng = np.random.default_rng(3000 + seed)
    sizes = [int(rng.integers(1, 12)) for _ in range(2)]
    source, target = (_sharding(str(rng.choice(TWO_DIM_SHARDINGS))) for _ in range(2))
    shape = tuple(sizes)
    held, wanted = ([dim.axes for dim in s.dims] for s in (source, target))

    def shard_of(axes):
        return lambda d, e: (
            axes_index(d, axes[e], MESH),
            -(-shape[e] // axes_size(axes[e], MESH)),
        )

    plan = box_schedule(shape, shard_of(held), shard_of(wanted), range(MESH.size))
    ids = np.arange(int(np.prod(shape))).reshape(shape)
    held_shards, wanted_shards = shard_ids(ids, source), shard_ids(ids, target)
    for boxes in plan.rounds:
        assert len({b.sender for b in boxes}) == len({b.receiver for b in boxes}) == len(boxes)
        assert len({b.shape for b in boxes}) == 1
    for device in range(MESH.size):
        got = wanted_shards[device] * 0 - 1  # -1: not (yet) there
        own = np.ix_(*(np.array(plan.own[e][device]) for e in range(2)))
        mine = held_shards[device]
        inside = np.ix_(*(np.array(plan.own[e][device]) >= 0 for e in range(2)))
        got[inside] = mine[own][inside]
        for b in (b for r in plan.rounds for b in r if b.receiver == device):
            window = tuple(slice(s, s + n) for s, n in zip(b.sent_at, b.shape, strict=True))
            at = tuple(slice(s, s + n) for s, n in zip(b.put_at, b.shape, strict=True))
            assert (got[at] == -1).all()  # nothing arrives twice
            got[at] = held_shards[b.sender][window]
        np.testing.assert_array_equal(got, wanted_shards[device])
    need = relayout_need(shape, source, target, MESH)
    assert tuple(plan.received.get(d, 0) for d in range(MESH.size)) == need


def shard_ids(ids: np.ndarray, sharding: TensorSharding) -> list[np.ndarray]:
    """Per device its shard of `ids` (-1 in padding slots)."""
    shards = shard(ids + 1, sharding, MESH)
    return [shards[device] - 1 for device in range(MESH.size)]
