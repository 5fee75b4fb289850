"""Meshes and shardings converted to and from JAX's (`jax.sharding`).

Device order. A shardonnay `Mesh` names its devices by logical id (`0..n-1`,
laid out row-major in the order of `device_ids`); JAX's `Mesh` holds the
devices themselves in an array. The two meet through a device list: logical
id `d` is `devices[d]` (by default the first devices of `jax.devices()`), so
`<["x"=2, "y"=2], device_ids=[0, 2, 1, 3]>` is the JAX mesh whose device array
is `[[devices[0], devices[2]], [devices[1], devices[3]]]`. This is how JAX
itself lowers a mesh: the `sdy.mesh` of a jitted function has iota ids and the
executable runs partition `d` on `mesh.devices.flat[d]`.

Shardings. A dim's axes (major to minor) are a `PartitionSpec` entry, an open
dim without axes is `PartitionSpec.UNCONSTRAINED`, unreduced axes (summed)
are `PartitionSpec(unreduced=...)`, which JAX accepts on `Explicit` axes
only. Replicated axes say nothing about the data and are dropped; an open dim
with axes keeps its axes (on an `Auto` mesh, JAX lowers `P("x")` in a
sharding constraint to `{"x", ?}`). A sub-axis `"x":(m)k` has no
PartitionSpec of its own: the sharding is converted on a JAX mesh whose axis
`x` is split into the pieces the sharding uses (`"x:(1)2"`, `"x:(2)2"` for
`"x"=4`), which lays the data out the same way. What JAX cannot say at all
raises `ShardingError`: priorities, unreduced axes reduced by max or min.

>>> from shardonnay import Mesh, TensorSharding
>>> s = TensorSharding.parse('<@mesh, [{"x", "y"}, {?}], unreduced={"z"}>')
>>> partition_spec(s)
P(('x', 'y'), UNCONSTRAINED, unreduced={'z'})
>>> print(sharding_of_spec(partition_spec(s), "mesh", rank=3))
#sdy.sharding<@mesh, [{"x", "y"}, {?}, {}], unreduced={"z"}>
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Sequence
from typing import Any

import numpy as np

from shardonnay.axes import AxisRef
from shardonnay.errors import DeviceUnavailableError, ShardingError
from shardonnay.ir.core import Module
from shardonnay.ir.naming import value_names
from shardonnay.ir.shardings import func_result_sharding, sharding_of
from shardonnay.ir.shardings import mesh_of as sharding_mesh
from shardonnay.mesh import Mesh
from shardonnay.sharding import DimSharding, TensorSharding


def jax_mesh(
    mesh: Mesh,
    devices: Sequence[Any] | None = None,
    *,
    axis_types: Any | Sequence[Any] | None = None,
):
    """The `jax.sharding.Mesh` of `mesh`: logical id `d` is `devices[d]`
    (default: `jax.devices()`); `axis_types` is one `jax.sharding.AxisType` or
    one per axis (default: `Auto`, what `jax.jit`'s sharding propagation fills
    in). A maximal mesh `<[], device_ids=[k]>` is a mesh without axes on device `k`."""
    import jax

    devices = _device_list(jax, devices, max(mesh.device_list, default=0) + 1)
    types = _axis_types(jax, axis_types, len(mesh.axes))
    array = np.empty(len(mesh.device_list), dtype=object)
    array[:] = [devices[d] for d in mesh.device_list]
    return jax.sharding.Mesh(array.reshape(mesh.shape), mesh.axis_names, axis_types=types)


def mesh_of(jax_mesh_: Any, devices: Sequence[Any] | None = None) -> Mesh:
    """The shardonnay `Mesh` of a `jax.sharding.Mesh`: its axes, and the
    device order in which logical id `d` is `devices[d]` (default: the mesh's
    own devices sorted by id). Axis types have no counterpart and are dropped.

    A mesh without axes on one device is the maximal mesh of that device.
    """
    flat = list(jax_mesh_.devices.flat)
    if devices is None:
        devices = sorted(flat, key=lambda d: d.id)
    position = {id(d): i for i, d in enumerate(devices)}
    missing = [d for d in flat if id(d) not in position]
    if missing:
        raise ShardingError(f"device {missing[0]} of the JAX mesh is not among the devices given")
    ids = [position[id(d)] for d in flat]
    axes = tuple(zip(jax_mesh_.axis_names, jax_mesh_.devices.shape, strict=True))
    if not axes:
        return Mesh((), ids)
    return Mesh(axes, None if ids == list(range(len(ids))) else ids)


def partition_spec(sharding: TensorSharding):
    """The `jax.sharding.PartitionSpec` of a sharding without sub-axes (see
    the module docstring for what is kept and what is refused)."""
    from jax.sharding import PartitionSpec

    _check_expressible(sharding)
    entries: list[Any] = []
    for d, dim in enumerate(sharding.dims):
        if any(a.is_sub_axis for a in dim.axes):
            raise ShardingError(
                f"{sharding}: dim {d} is split by a sub-axis, which a PartitionSpec cannot name; "
                "use named_sharding, which splits the mesh axis"
            )
        names = tuple(a.name for a in dim.axes)
        if not names:
            entries.append(None if dim.is_closed else PartitionSpec.UNCONSTRAINED)
        else:
            entries.append(names[0] if len(names) == 1 else names)
    if any(a.is_sub_axis for a in sharding.unreduced):
        raise ShardingError(f"{sharding}: unreduced sub-axes cannot be named in a PartitionSpec")
    unreduced = frozenset(a.name for a in sharding.unreduced)
    return PartitionSpec(*entries, unreduced=unreduced)


def sharding_of_spec(spec: Any, mesh: str | Mesh, rank: int) -> TensorSharding:
    """The sharding on `mesh` (by name or inlined) of a rank-`rank` array laid
    out by PartitionSpec `spec` (dims past the spec's end are replicated)."""
    from jax.sharding import PartitionSpec

    entries = tuple(spec.partitions)
    if len(entries) > rank:
        raise ShardingError(f"{spec} has {len(entries)} entries, more than the rank {rank}")
    if getattr(spec, "reduced", None):
        raise ShardingError(f"{spec}: reduced axes have no sdy counterpart")
    dims = []
    for entry in entries + (None,) * (rank - len(entries)):
        if entry is PartitionSpec.UNCONSTRAINED:
            dims.append(DimSharding((), is_closed=False))
        elif entry is None:
            dims.append(DimSharding(()))
        else:
            names = entry if isinstance(entry, tuple) else (entry,)
            dims.append(DimSharding(tuple(AxisRef(str(n)) for n in names)))
    unreduced = tuple(AxisRef(str(n)) for n in sorted(getattr(spec, "unreduced", ()) or ()))
    if isinstance(mesh, Mesh):  # Shardy keeps unreduced axes in mesh order
        unreduced = tuple(sorted(unreduced, key=lambda a: mesh.axis_index(a.name)))
    return TensorSharding(mesh, tuple(dims), unreduced=unreduced)


def named_sharding(
    sharding: TensorSharding,
    mesh: Mesh | None = None,
    devices: Sequence[Any] | None = None,
    *,
    axis_types: Any | Sequence[Any] | None = None,
):
    """The `jax.sharding.NamedSharding` that lays data out as `sharding` does
    on `mesh` (needed when the sharding names its mesh), with logical id `d`
    on `devices[d]` (see `jax_mesh`). Sub-axes split their mesh axis (see the
    module docstring).

    Unreduced axes need `Explicit` axis types (`axis_types`); without
    `axis_types`, the unreduced axes are made `Explicit` and the others `Auto`.
    On a mesh without `Auto` axes, where JAX has no `UNCONSTRAINED`, open dims
    without axes are replicated dims.
    """
    import jax

    mesh = sharding.resolve_mesh(mesh)
    sharding.validate(mesh)
    _check_expressible(sharding)
    if mesh.is_maximal:
        return jax.sharding.NamedSharding(jax_mesh(mesh, devices), jax.sharding.PartitionSpec())
    if axis_types is None:
        unreduced = {a.name for a in sharding.unreduced}
        Auto, Explicit = jax.sharding.AxisType.Auto, jax.sharding.AxisType.Explicit
        axis_types = [Explicit if n in unreduced else Auto for n in mesh.axis_names]
    types = dict(zip(mesh.axis_names, _axis_types(jax, axis_types, len(mesh.axes)), strict=True))
    split, renamed = _split_mesh(mesh, sharding)
    split_types = [types[_axis_of_piece(n, mesh)] for n in split.axis_names]
    target = jax_mesh(split, devices, axis_types=split_types)
    for a in sharding.unreduced:
        if types[a.name] != jax.sharding.AxisType.Explicit:
            raise ShardingError(
                f"{sharding}: JAX allows unreduced axes only of type Explicit; axis "
                f'"{a.name}" is {types[a.name]}'
            )
    if jax.sharding.AxisType.Auto not in target.axis_types:  # JAX's UNCONSTRAINED needs Auto
        renamed = dataclasses.replace(
            renamed, dims=tuple(DimSharding(d.axes, True, d.priority) for d in renamed.dims)
        )
    try:
        return jax.sharding.NamedSharding(target, partition_spec(renamed))
    except ValueError as e:
        raise ShardingError(f"{sharding}: JAX refuses it on {target}: {e}") from e


def tensor_sharding(
    named: Any, rank: int, devices: Sequence[Any] | None = None, *, mesh_name: str | None = None
) -> tuple[TensorSharding, Mesh]:
    """The sharding and mesh of a `NamedSharding` of a rank-`rank` array
    (device order as in `mesh_of`). The sharding names its mesh `@mesh_name`
    when given, else inlines it."""
    mesh = mesh_of(named.mesh, devices)
    return sharding_of_spec(named.spec, mesh if mesh_name is None else mesh_name, rank), mesh


def shardings(
    module: Module,
    devices: Sequence[Any] | None = None,
    *,
    axis_types: Any | Sequence[Any] | None = None,
) -> dict[str, Any]:
    """`{name: NamedSharding}` for every value of `module` that has a sharding
    (all of them once propagated) and for the results of `@main`: values are
    named as everywhere else (`shardonnay.ir.naming`: `%arg0`, `%3`,
    `relu:%1` in a called function), results `result0`, `result1`, ...
    Shardings JAX cannot express raise `ShardingError` (see `named_sharding`).

    >>> import shardonnay
    >>> m = shardonnay.parse_module('''sdy.mesh @mesh = <["x"=1]>
    ... func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>})
    ...     -> tensor<8xf32> {
    ...   %0 = stablehlo.negate %arg0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}]>]>}
    ...       : tensor<8xf32>
    ...   return %0 : tensor<8xf32>
    ... }''')
    >>> {k: v.spec for k, v in shardings(m).items()}
    {'%arg0': P('x',), '%0': P(None,)}
    """
    found: dict[str, TensorSharding] = {}
    for value, name in value_names(module).items():
        s = sharding_of(value)
        if s is not None:
            found[name.spec] = s
    main = module.function("main")
    for i in range(len(main.type.results)):
        s = func_result_sharding(main, i)
        if s is not None:
            found[f"result{i}"] = s
    meshes = module.meshes
    return {
        name: named_sharding(
            s,
            sharding_mesh(s, meshes, lambda message, s=s: ShardingError(f"{s}: {message}")),
            devices,
            axis_types=axis_types,
        )
        for name, s in found.items()
    }


# -- pieces ---------------------------------------------------------------------------------


def _check_expressible(sharding: TensorSharding) -> None:
    for d, dim in enumerate(sharding.dims):
        if dim.priority is not None:
            raise ShardingError(
                f"{sharding}: dim {d} has priority p{dim.priority}; JAX shardings have no "
                "priorities"
            )
    if sharding.unreduced and sharding.reduction != "sum":
        raise ShardingError(
            f"{sharding}: JAX's unreduced axes are summed; a pending {sharding.reduction} "
            "has no JAX counterpart"
        )


def _split_mesh(mesh: Mesh, sharding: TensorSharding) -> tuple[Mesh, TensorSharding]:
    """`mesh` with every axis that `sharding` uses sub-axes of split into the
    pieces between their boundaries, and `sharding` naming those pieces
    (`"x:(1)2"`); `(mesh, sharding)` itself when it has no sub-axes."""
    used = [*sharding.all_axes(), *sharding.replicated]
    cuts: dict[str, set[int]] = {}
    for a in used:
        if a.is_sub_axis:
            pre, size = a.sub_axis
            cuts.setdefault(a.name, {1, mesh.axis_size(a.name)}).update((pre, pre * size))
    if not cuts:
        return mesh, sharding
    pieces: dict[str, list[tuple[int, int]]] = {}
    axes: list[tuple[str, int]] = []
    for name, size in mesh.axes:
        if name not in cuts:
            axes.append((name, size))
            continue
        bounds = sorted(cuts[name])
        pieces[name] = [(lo, hi // lo) for lo, hi in itertools.pairwise(bounds)]
        axes.extend((_piece_name(name, lo, k), k) for lo, k in pieces[name])
    if len({n for n, _ in axes}) != len(axes):
        raise ShardingError(f"{mesh}: splitting its axes for {sharding} gives a duplicate name")

    def rename(a: AxisRef) -> list[AxisRef]:
        if not a.is_sub_axis:
            if a.name in pieces:  # a whole split axis: all of its pieces, major first
                return [AxisRef(_piece_name(a.name, lo, k)) for lo, k in pieces[a.name]]
            return [a]
        pre, size = a.sub_axis
        return [
            AxisRef(_piece_name(a.name, lo, k))
            for lo, k in pieces[a.name]
            if pre <= lo and lo * k <= pre * size
        ]

    def renamed(axes_: Sequence[AxisRef]) -> tuple[AxisRef, ...]:
        return tuple(r for a in axes_ for r in rename(a))

    dims = tuple(DimSharding(renamed(d.axes), d.is_closed, d.priority) for d in sharding.dims)
    split = Mesh(axes, mesh.device_ids)
    return split, TensorSharding(
        sharding.mesh, dims, renamed(sharding.replicated), renamed(sharding.unreduced)
    )


def _piece_name(axis: str, pre: int, size: int) -> str:
    return f"{axis}:({pre}){size}"


def _axis_of_piece(name: str, mesh: Mesh) -> str:
    """The axis of `mesh` that split-mesh axis `name` is (a piece of)."""
    return name if mesh.has_axis(name) else name[: name.rindex(":(")]


def _device_list(jax, devices: Sequence[Any] | None, needed: int) -> list[Any]:
    available = list(jax.devices() if devices is None else devices)
    if len(available) < needed:
        where = "jax.devices() has" if devices is None else "the devices given are"
        raise DeviceUnavailableError(
            f"the mesh needs {needed} devices, but {where} {len(available)}"
        )
    return available


def _axis_types(jax, axis_types: Any, count: int) -> tuple[Any, ...]:
    if axis_types is None:
        return (jax.sharding.AxisType.Auto,) * count
    if isinstance(axis_types, jax.sharding.AxisType):
        return (axis_types,) * count
    types = tuple(axis_types)
    if len(types) != count:
        raise ShardingError(f"{len(types)} axis types for a mesh of {count} axes")
    return types


__all__ = [
    "jax_mesh",
    "mesh_of",
    "named_sharding",
    "partition_spec",
    "sharding_of_spec",
    "shardings",
    "tensor_sharding",
]
