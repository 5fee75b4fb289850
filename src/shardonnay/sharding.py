"""Tensor shardings: which mesh axes split which tensor dimensions.

`#sdy.sharding<@mesh, [{"x"}, {"z", "y", ?}p1], replicated={"w"}, unreduced={"u"}>`
binds a rank-2 tensor to mesh `@mesh`: dim 0 is split along `x`; dim 1 along
`z` (major) then `y` (minor), is *open* (`?`: propagation may shard it
further) and has priority 1; the tensor is explicitly replicated along `w`
and holds partial sums along `u`. Axes used nowhere are implicitly replicated.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from shardonnay.axes import AxisRef, axes_str, read_axis_ref
from shardonnay.errors import ShardingError
from shardonnay.mesh import Mesh, read_mesh
from shardonnay.syntax.cursor import Cursor, quote

REDUCTIONS = ("sum", "max", "min")


@dataclass(frozen=True, slots=True)
class DimSharding:
    """Axes sharding one dimension, major to minor; open dims print a `?`."""

    axes: tuple[AxisRef, ...] = ()
    is_closed: bool = True
    priority: int | None = None

    def __post_init__(self) -> None:
        if self.axes:
            object.__setattr__(self, "axes", tuple(_axis(a) for a in self.axes))
        elif self.axes.__class__ is not tuple:
            object.__setattr__(self, "axes", ())

    @classmethod
    def parse(cls, text: str) -> DimSharding:
        cursor = Cursor(text)
        dim = read_dim_sharding(cursor)
        cursor.expect_end()
        return dim

    def __str__(self) -> str:
        body = axes_str(self.axes)
        if not self.is_closed:
            body = f"{body}, ?" if body else "?"
        return "{" + body + "}" + ("" if self.priority is None else f"p{self.priority}")

    def sharded_size(self, mesh: Mesh) -> int:
        """Product of the sizes of the axes sharding this dim."""
        return math.prod(a.size(mesh) for a in self.axes)


@dataclass(frozen=True, slots=True)
class TensorSharding:
    """A sharding of one tensor on a mesh given by name (`"mesh"` for `@mesh`) or inline.

    >>> s = TensorSharding.parse('<@mesh, [{"x"}, {}]>')
    >>> str(s), s.rank
    ('#sdy.sharding<@mesh, [{"x"}, {}]>', 2)
    """

    mesh: str | Mesh
    dims: tuple[DimSharding, ...]
    replicated: tuple[AxisRef, ...] = ()
    unreduced: tuple[AxisRef, ...] = ()
    reduction: str = "sum"
    _body: str | None = field(default=None, init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        # (most shardings come with a tuple of dims and no replicated or
        # unreduced axes: those are kept as they are)
        if self.dims.__class__ is not tuple:
            object.__setattr__(self, "dims", tuple(self.dims))
        if self.replicated or self.replicated.__class__ is not tuple:
            object.__setattr__(self, "replicated", tuple(_axis(a) for a in self.replicated))
        if self.unreduced or self.unreduced.__class__ is not tuple:
            object.__setattr__(self, "unreduced", tuple(_axis(a) for a in self.unreduced))
        if self.reduction not in REDUCTIONS:
            raise ShardingError(
                f"unknown reduction {self.reduction!r}; expected one of {', '.join(REDUCTIONS)}"
            )
        if not self.unreduced:  # the reduction of no unreduced axes is moot
            object.__setattr__(self, "reduction", "sum")

    # -- construction -----------------------------------------------------------

    @classmethod
    def from_axes(
        cls,
        mesh: str | Mesh,
        dims: Sequence[str | AxisRef | Iterable[str | AxisRef] | None],
        *,
        replicated: Iterable[str | AxisRef] = (),
        unreduced: Iterable[str | AxisRef] = (),
        reduction: str = "sum",
        is_closed: bool = True,
    ) -> TensorSharding:
        """Closed (or all open) dims from axis names, PartitionSpec style.

        >>> str(TensorSharding.from_axes("mesh", ["x", None, ("y", "z")]))
        '#sdy.sharding<@mesh, [{"x"}, {}, {"y", "z"}]>'
        """

        def dim(spec) -> DimSharding:
            if spec is None:
                axes = ()
            elif isinstance(spec, str | AxisRef):
                axes = (spec,)
            else:
                axes = tuple(spec)
            return DimSharding(axes, is_closed)

        return cls(
            mesh, tuple(dim(d) for d in dims), tuple(replicated), tuple(unreduced), reduction
        )

    @classmethod
    def replicated_on(
        cls, mesh: str | Mesh, rank: int, *, is_closed: bool = True
    ) -> TensorSharding:
        return cls(mesh, tuple(DimSharding((), is_closed) for _ in range(rank)))

    @classmethod
    def parse(cls, text: str) -> TensorSharding:
        """Reads `#sdy.sharding<...>` or the bare `<@mesh, [...]>` form."""
        cursor = Cursor(text)
        cursor.accept_keyword("#sdy.sharding")
        sharding = read_tensor_sharding(cursor)
        cursor.expect_end()
        return sharding

    # -- syntax -----------------------------------------------------------------

    def body(self) -> str:
        """The `<@mesh, [...]>` form used inside per-value shardings and ops."""
        if self._body is None:
            object.__setattr__(self, "_body", self._write_body())
        return self._body

    def _write_body(self) -> str:
        mesh = symbol_ref(self.mesh) if isinstance(self.mesh, str) else f"mesh{self.mesh}"
        parts = [mesh, "[" + ", ".join(str(d) for d in self.dims) + "]"]
        if self.replicated:
            parts.append("replicated={" + axes_str(self.replicated) + "}")
        if self.unreduced:
            op = "" if self.reduction == "sum" else self.reduction
            parts.append(f"unreduced={op}{{{axes_str(self.unreduced)}}}")
        return "<" + ", ".join(parts) + ">"

    def __str__(self) -> str:
        return "#sdy.sharding" + self.body()

    # -- queries ----------------------------------------------------------------

    @property
    def rank(self) -> int:
        return len(self.dims)

    @property
    def mesh_name(self) -> str | None:
        return self.mesh if isinstance(self.mesh, str) else None

    def dim_axes(self) -> tuple[AxisRef, ...]:
        """All axes that shard some dimension, dim by dim, major to minor."""
        return tuple(a for d in self.dims for a in d.axes)

    def all_axes(self) -> tuple[AxisRef, ...]:
        return self.dim_axes() + self.replicated + self.unreduced

    def sharded_size(self, dim: int, mesh: Mesh) -> int:
        return self.dims[dim].sharded_size(mesh)

    def is_fully_replicated(self) -> bool:
        return not self.dim_axes() and not self.unreduced

    def resolve_mesh(self, mesh: Mesh | None = None) -> Mesh:
        """The mesh to interpret this sharding on: the inlined one or `mesh`."""
        if isinstance(self.mesh, Mesh):
            if mesh is not None and mesh != self.mesh:
                raise ShardingError(f"sharding is bound to mesh {self.mesh}, not {mesh}")
            return self.mesh
        if mesh is None:
            raise ShardingError(f"sharding refers to mesh @{self.mesh}; pass that mesh")
        return mesh

    # -- invariants -------------------------------------------------------------

    def validate(
        self,
        mesh: Mesh | None = None,
        shape: Sequence[int] | None = None,
        *,
        strict: bool = False,
    ) -> None:
        """Raises `ShardingError` (Shardy's wording) if this is not a valid sharding.

        Checks what Shardy's verifier checks. With `strict=True` and a `shape`,
        also the RFC's rule that no axis may shard a dimension that the axes
        before it already split down to size 1 (which rules out
        `[{"x"}, {"y", "z"}]` on `tensor<1x4>` with x=2, y=4, z=2), and that
        no dimension of size 0 is sharded.
        """
        mesh = self.resolve_mesh(mesh)
        if mesh.is_maximal:
            if self.dims or self.replicated or self.unreduced:
                raise ShardingError(
                    "a maximal sharding can only have a sharding with rank 0 and no "
                    "replicated or unreduced axes."
                )
            return
        if shape is not None and len(shape) != self.rank:
            raise ShardingError(f"sharding doesn't match tensor rank: {self.rank} != {len(shape)}")
        # The order of the checks is Shardy's, so the first problem reported is its.
        seen: set[AxisRef] = set()
        for i, dim in enumerate(self.dims):
            if dim.priority is not None:
                if dim.priority < 0:
                    raise ShardingError(f"dim {i} has a negative priority")
                if dim.is_closed and not dim.axes:
                    raise ShardingError(f"dim {i} is empty and closed but has a priority")
            _verify_axis_list(dim.axes, mesh, seen)
        for kind, axes in (("replicated", self.replicated), ("unreduced", self.unreduced)):
            keys = [_mesh_order(a, mesh) for a in axes]
            if keys != sorted(keys):
                raise ShardingError(f"{kind} axes are not ordered w.r.t. mesh")
            _verify_axis_list(axes, mesh, seen)
        _verify_sub_axes(seen, mesh)
        if strict and shape is not None:
            self._verify_rfc_dim_sizes(mesh, shape)

    def _verify_rfc_dim_sizes(self, mesh: Mesh, shape: Sequence[int]) -> None:
        for i, (dim, size) in enumerate(zip(self.dims, shape, strict=True)):
            if not dim.axes:
                continue
            if size == 0:
                raise ShardingError(f"dim {i} has size 0 and can't be sharded")
            major = math.prod(a.size(mesh) for a in dim.axes[:-1])
            if major * dim.axes[-1].size(mesh) > size and major >= size:
                raise ShardingError(
                    f"dim {i} of size {size} is split into {major} shards before its minor-most "
                    f"axis {dim.axes[-1]}, which would shard pieces of size 1 further"
                )

    def is_divisible(self, mesh: Mesh, shape: Sequence[int]) -> bool:
        """Every dim size is a multiple of its sharded size (no padding needed)."""
        return all(s % d.sharded_size(mesh) == 0 for d, s in zip(self.dims, shape, strict=True))


def verify_axis_ref_lists(lists: Sequence[Sequence[AxisRef]], mesh: Mesh) -> None:
    """Shardy's axis-list invariants over all lists of one sharding.

    Every axis is known and every sub-axis valid; no axis ref is used twice;
    no two consecutive sub-axes of one list could be merged; no axis is used
    both whole and split; no two sub-axes overlap.
    """
    seen: set[AxisRef] = set()
    for axes in lists:
        _verify_axis_list(axes, mesh, seen)
    _verify_sub_axes(seen, mesh)


def _verify_axis_list(axes: Sequence[AxisRef], mesh: Mesh, seen: set[AxisRef]) -> None:
    """Known names, no axis ref used twice (in `seen`), no mergeable neighbours."""
    for j, axis in enumerate(axes):
        if not mesh.has_axis(axis.name):
            raise ShardingError(f'unknown axis name: "{axis.name}"')
        if axis in seen:
            raise ShardingError(f"duplicate axis ref: {axis}")
        seen.add(axis)
        if j > 0 and axes[j - 1].can_merge(axis):
            raise ShardingError(f"two consecutive sub-axes can be merged: {axes[j - 1]}, {axis}")


def _verify_sub_axes(used: set[AxisRef], mesh: Mesh) -> None:
    """Per axis name: not both whole and split; sub-axes valid and disjoint."""
    full = {a.name for a in used if not a.is_sub_axis}
    subs: dict[str, list[AxisRef]] = {}
    for axis in used:
        if axis.is_sub_axis:
            subs.setdefault(axis.name, []).append(axis)
    for name in sorted(subs, key=mesh.axis_index):
        if name in full:
            raise ShardingError(f'both sub-axis and full-axis are used for axis name: "{name}"')
        previous = None
        for axis in sorted(subs[name]):
            _verify_sub_axis(axis, mesh)
            if previous is not None and previous.overlaps(axis):
                raise ShardingError(f"overlapping sub-axes: {previous}, {axis}")
            previous = axis


def _verify_sub_axis(axis: AxisRef, mesh: Mesh) -> None:
    pre, size = axis.sub_axis
    full = mesh.axis_size(axis.name)
    if pre < 1:
        raise ShardingError(f"sub-axis pre-size must be at least 1: {axis}")
    if size <= 1:
        raise ShardingError(f"sub-axis sizes must be greater than 1: {axis}")
    if full % (pre * size) != 0:
        raise ShardingError(
            f"sub-axis next pre-size {pre * size} doesn't divide the size of the full axis "
            f"{full}: {axis}"
        )
    if size == full:
        raise ShardingError(f"sub-axis size is equal to the full axis size: {axis}")


def _mesh_order(axis: AxisRef, mesh: Mesh) -> tuple:
    """Shardy's order for replicated/unreduced axes; unknown names sort last."""
    if not mesh.has_axis(axis.name):
        return (len(mesh.axes), axis.name)
    return axis.mesh_sort_key(mesh)


@dataclass(frozen=True, slots=True)
class TensorShardingPerValue:
    """One sharding per result of an op: `#sdy.sharding_per_value<[<...>, <...>]>`."""

    shardings: tuple[TensorSharding, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "shardings", tuple(self.shardings))

    @classmethod
    def parse(cls, text: str) -> TensorShardingPerValue:
        cursor = Cursor(text)
        if not cursor.accept_keyword("#sdy.sharding_per_value"):
            raise cursor.error("expected '#sdy.sharding_per_value'")
        value = read_sharding_per_value(cursor)
        cursor.expect_end()
        return value

    def __str__(self) -> str:
        return "#sdy.sharding_per_value<[" + ", ".join(s.body() for s in self.shardings) + "]>"

    def __len__(self) -> int:
        return len(self.shardings)

    def __getitem__(self, i: int) -> TensorSharding:
        return self.shardings[i]


def placement_sharding(
    per_value: TensorShardingPerValue, num_results: int
) -> TensorSharding | None:
    """The sharding that says where an op without results runs, or None.

    Shardy accepts one `sdy.sharding` of rank 0 on an op that has no results
    (`<@maximal_mesh_0, []>` on the host callback of `jax.debug.print`): it
    places the op (on device 0) rather than describing a value.

    >>> per_value = TensorShardingPerValue.parse("#sdy.sharding_per_value<[<@m, []>]>")
    >>> placement_sharding(per_value, 0).mesh, placement_sharding(per_value, 1)
    ('m', None)
    """
    if num_results != 0 or len(per_value) != 1 or per_value.shardings[0].rank != 0:
        return None
    return per_value.shardings[0]


@dataclass(frozen=True, slots=True)
class ManualAxes:
    """The axes a manual computation is manual on: `#sdy<manual_axes{"a", "b"}>`."""

    names: tuple[str, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "names", tuple(self.names))

    @classmethod
    def parse(cls, text: str) -> ManualAxes:
        cursor = Cursor(text)
        if cursor.accept("#sdy<"):
            cursor.expect("manual_axes", "'manual_axes'")
            value = read_manual_axes(cursor)
            cursor.expect(">")
        else:
            value = read_manual_axes(cursor)
        cursor.expect_end()
        return value

    def body(self) -> str:
        return "{" + ", ".join(quote(n) for n in self.names) + "}"

    def __str__(self) -> str:
        return f"#sdy<manual_axes{self.body()}>"

    def validate(self, mesh: Mesh) -> None:
        for name in self.names:
            if not mesh.has_axis(name):
                raise ShardingError(f"unknown manual axis: {quote(name)}")
        order = [mesh.axis_index(n) for n in self.names]
        if order != sorted(set(order)):
            raise ShardingError("manual axes are not ordered w.r.t. mesh")


# -- readers (shared with the module reader) ------------------------------------


def read_dim_sharding(cursor: Cursor) -> DimSharding:
    cursor.expect("{", "'{' starting a dimension sharding")
    axes: list[AxisRef] = []
    is_closed = True
    if cursor.accept("?"):
        is_closed = False
        cursor.expect("}", "'}' after '?'")
    elif not cursor.accept("}"):
        while True:
            axes.append(read_axis_ref(cursor))
            if cursor.accept("}"):
                break
            cursor.expect(",", "',' or '}' after an axis")
            if cursor.accept("?"):
                is_closed = False
                cursor.expect("}", "'}' after '?'")
                break
    priority = None
    if cursor.accept("p"):
        digits = _PRIORITY.match(cursor.text, cursor.pos)
        if digits is None:
            raise cursor.error("expected a priority in the format 'p<number>'")
        cursor.pos = digits.end()
        priority = int(digits.group())
    return DimSharding(tuple(axes), is_closed, priority)


def read_tensor_sharding(cursor: Cursor) -> TensorSharding:
    """The `<mesh_or_ref, [dims], replicated=..., unreduced=...>` body."""
    cursor.expect("<", "'<' starting a sharding")
    if cursor.accept("@"):
        mesh: str | Mesh = read_symbol_name(cursor)
    elif cursor.accept("mesh"):
        mesh = read_mesh(cursor)
    else:
        raise cursor.error("expected '@mesh_name' or an inlined 'mesh<...>'")
    cursor.expect(",", "',' after the mesh")
    cursor.expect("[", "'[' starting the dimension shardings")
    dims = cursor.comma_separated("]", lambda: read_dim_sharding(cursor), "a dimension sharding")
    replicated: list[AxisRef] = []
    unreduced: list[AxisRef] = []
    reduction = "sum"
    while cursor.accept(","):
        cursor.skip_space()
        start = cursor.pos
        key = cursor.identifier("'replicated' or 'unreduced'")
        cursor.expect("=")
        if key == "replicated" and not replicated:
            replicated = _read_axis_set(cursor)
        elif key == "unreduced" and not unreduced:
            if not cursor.peek("{"):
                reduction = cursor.identifier("a reduction (max or min) or '{'")
                if reduction not in ("max", "min"):
                    raise cursor.error(
                        f"unknown reduction '{reduction}'", cursor.pos - len(reduction)
                    )
            unreduced = _read_axis_set(cursor)
        else:
            raise cursor.error(f"unexpected '{key}'", start)
    cursor.expect(">", "'>' closing the sharding")
    return TensorSharding(mesh, tuple(dims), tuple(replicated), tuple(unreduced), reduction)


def read_sharding_per_value(cursor: Cursor) -> TensorShardingPerValue:
    cursor.expect("<", "'<'")
    cursor.expect("[", "'['")
    shardings = cursor.comma_separated("]", lambda: read_tensor_sharding(cursor), "a sharding")
    cursor.expect(">", "'>'")
    return TensorShardingPerValue(tuple(shardings))


def read_manual_axes(cursor: Cursor) -> ManualAxes:
    cursor.expect("{", "'{' starting the manual axes")
    names = cursor.comma_separated("}", lambda: cursor.string("an axis name"), "an axis name")
    return ManualAxes(tuple(names))


def _read_axis_set(cursor: Cursor) -> list[AxisRef]:
    """A non-empty `{"a", "b":(1)2}` (Shardy omits the set instead of printing `{}`)."""
    cursor.expect("{", "'{'")
    if cursor.peek("}"):
        raise cursor.error("expected an axis: an empty set is written by leaving it out")
    return cursor.comma_separated("}", lambda: read_axis_ref(cursor), "an axis")


def symbol_ref(name: str) -> str:
    """`@name`, quoted when `name` is not a bare identifier."""
    return "@" + (name if _BARE_SYMBOL.fullmatch(name) else quote(name))


def _axis(a: str | AxisRef) -> AxisRef:
    return a if isinstance(a, AxisRef) else AxisRef(a)


def read_symbol_name(cursor: Cursor) -> str:
    """The name right after `@`: a bare identifier or a quoted string."""
    if cursor.text.startswith('"', cursor.pos):
        return cursor.string("a symbol name")
    m = _BARE_SYMBOL.match(cursor.text, cursor.pos)
    if m is None:
        raise cursor.error("expected a symbol name right after '@'")
    cursor.pos = m.end()
    return m.group()


_PRIORITY = re.compile(r"0|[1-9][0-9]*")
_BARE_SYMBOL = re.compile(r"[A-Za-z_][A-Za-z0-9_$.]*")
