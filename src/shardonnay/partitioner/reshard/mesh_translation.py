"""A sharding on one mesh, spelled on another mesh of the same devices.

Two meshes that list the same devices in the same order (`device_list`
equal: both iota, or the same `device_ids`) number every device by one flat
index `p`. On a mesh of axes `a_0 x ... x a_m` (major first) axis `i` has
stride `T_i = a_{i+1} * ... * a_m` and a device's coordinate along it is
`(p // T_i) % a_i`; a sub-axis `"n":(pre)size` of an axis of size `a` reads
`(p // lo) % size` with `lo = T * a / (pre * size)`. So every axis ref is a
run `[lo, hi)` of the flat index's strides (`hi = lo * size`), and an axis
ref of mesh B names the same device coordinate as a list of (sub-)axes of
mesh A exactly when both ends of its run fall on places where A's axes may
be cut: `T_i * d` with `d` dividing `a_i`.

For example, on A = `<["data"=2, "model"=4]>` (strides: data `[4, 8)`,
model `[1, 4)`) and B = `<["x"=4, "y"=2]>` (x `[2, 8)`, y `[1, 2)`):

- `"x"` is `("data", "model":(1)2)`, `"y"` is `("model":(2)2,)`;
- with B = `<["i"=8]>`, `"i"` is `("data", "model")`;
- with A = `<["a"=2, "b"=3]>` and B = `<["c"=3, "d"=2]>` nothing translates:
  `"d"` is the run `[1, 2)`, which cuts `"b"` of size 3 at 2.

`translate_axes` translates one list of axes (one dim), merging the pieces
of consecutive runs (`[{"x", "y"}]` on B is `[{"data", "model"}]` on A);
`translate_sharding` a whole sharding. Both return None where some axis does
not translate or the meshes order their devices differently. A translated
sharding puts identical data on every device (`shardonnay.layout.equivalent`).
"""

from __future__ import annotations

from collections.abc import Sequence

from shardonnay.axes import AxisRef, merge_adjacent
from shardonnay.mesh import Mesh
from shardonnay.sharding import DimSharding, TensorSharding

Run = tuple[int, int]  # [lo, hi): the strides of the flat device index an axis ref reads


def same_devices_in_order(a: Mesh, b: Mesh) -> bool:
    """Whether `a` and `b` number the same devices by the same flat index."""
    return a.device_list == b.device_list


def strides(mesh: Mesh) -> dict[str, int]:
    """Per axis of `mesh`, the stride of the flat device index it reads.

    >>> strides(Mesh({"data": 2, "model": 4}))
    {'data': 4, 'model': 1}
    """
    out: dict[str, int] = {}
    stride = 1
    for name, size in reversed(mesh.axes):
        out[name] = stride
        stride *= size
    return dict(reversed(list(out.items())))


def axis_run(axis: AxisRef, mesh: Mesh) -> Run:
    """The run of strides `[lo, hi)` that `axis` reads on `mesh`.

    >>> axis_run(AxisRef.sub("model", 2, 2), Mesh({"data": 2, "model": 4}))
    (1, 2)
    """
    stride = strides(mesh)[axis.name]
    full = mesh.axis_size(axis.name)
    if axis.sub_axis is None:
        return stride, stride * full
    pre, size = axis.sub_axis
    lo = stride * (full // (pre * size))
    return lo, lo * size


def run_axes(run: Run, mesh: Mesh) -> tuple[AxisRef, ...] | None:
    """The (sub-)axes of `mesh`, major first, that read the run `[lo, hi)`;
    None where an end of the run cuts an axis at a size that does not divide it.

    >>> run_axes((2, 8), Mesh({"data": 2, "model": 4}))
    (AxisRef("data"), AxisRef("model":(1)2))
    """
    lo, hi = run
    out: list[AxisRef] = []
    covered = 1
    for (name, size), stride in zip(mesh.axes, strides(mesh).values(), strict=True):
        start, stop = max(lo, stride), min(hi, stride * size)
        if start >= stop:
            continue
        if start % stride or stop % stride:
            return None
        low, high = start // stride, stop // stride  # cut points inside the axis
        if size % low or size % high or high % low:
            return None
        if (low, high) == (1, size):
            out.append(AxisRef(name))
        else:
            out.append(AxisRef.sub(name, size // high, high // low))
        covered *= high // low
    return tuple(out) if covered == hi // lo else None


def translate_axes(axes: Sequence[AxisRef], source: Mesh, onto: Mesh) -> tuple[AxisRef, ...] | None:
    """`axes` (one dim's, major first, on `source`) as axes of `onto`, reading
    the same device coordinate; None where that is impossible.

    >>> a, b = Mesh({"data": 2, "model": 4}), Mesh({"x": 4, "y": 2})
    >>> translate_axes([AxisRef("x"), AxisRef("y")], b, a)
    (AxisRef("data"), AxisRef("model"))
    """
    if not same_devices_in_order(source, onto):
        return None
    runs: list[Run] = []
    for axis in axes:
        lo, hi = axis_run(axis, source)
        if hi == lo:
            continue
        if runs and runs[-1][0] == hi:  # continues the previous run: merge
            runs[-1] = (lo, runs[-1][1])
        else:
            runs.append((lo, hi))
    out: list[AxisRef] = []
    for run in runs:
        pieces = run_axes(run, onto)
        if pieces is None:
            return None
        out += pieces
    return tuple(out)


def translate_sharding(
    sharding: TensorSharding, onto: Mesh, mesh: Mesh | None = None
) -> TensorSharding | None:
    """`sharding` (on `mesh`, or the mesh it inlines) as a sharding inlining
    `onto` that puts identical data on every device; None where an axis of a
    dim or an unreduced axis does not translate. Explicitly replicated axes,
    which say nothing about where data lives, are dropped.

    >>> a, b = Mesh({"data": 2, "model": 4}), Mesh({"x": 4, "y": 2})
    >>> str(translate_sharding(TensorSharding.from_axes(b, ["x", "y"]), a))
    '#sdy.sharding<mesh<["data"=2, "model"=4]>, [{"data", "model":(1)2}, {"model":(2)2}]>'
    """
    source = sharding.resolve_mesh(mesh)
    dims = []
    for dim in sharding.dims:
        axes = translate_axes(dim.axes, source, onto)
        if axes is None:
            return None
        keeps_priority = bool(axes) or not dim.is_closed
        dims.append(DimSharding(axes, dim.is_closed, dim.priority if keeps_priority else None))
    unreduced: list[AxisRef] = []
    for axis in sharding.unreduced:
        pieces = translate_axes([axis], source, onto)
        if pieces is None:
            return None
        unreduced += pieces
    unreduced = list(merge_adjacent(sorted(unreduced, key=lambda a: a.mesh_sort_key(onto)), onto))
    return TensorSharding(onto, tuple(dims), (), tuple(unreduced), sharding.reduction)
