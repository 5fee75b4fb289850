"""Axis references: a whole mesh axis `"x"` or a sub-axis `"x":(m)k`.

A sub-axis views axis `x` of size `n` as the row-major shape `[m, k, n/(m*k)]`
and takes the middle dimension. `m` is its *pre-size*, `m*k` its *next
pre-size*. On an axis of size 8::

    "x":(1)2   the major half/half split      coordinate (cx // 4) % 2
    "x":(2)2   the middle factor              coordinate (cx // 2) % 2
    "x":(4)2   the minor factor               coordinate cx % 2
    "x":(2)4   the two minor factors          coordinate cx % 4

Thinking of an axis ref as the half-open interval `[pre_size, next_pre_size)`
on the multiplicative scale of its axis (the whole axis is `[1, n)`) makes the
algebra below plain interval arithmetic: containment, prefix (same start),
suffix (same end), overlap (intersection). Two sub-axes can only be used
together if all their boundaries divide one another (`can_coexist`).

Methods that need the size of a whole axis take the `mesh`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from itertools import pairwise
from typing import TYPE_CHECKING

from shardonnay.errors import ShardingError
from shardonnay.syntax.cursor import Cursor, quote

if TYPE_CHECKING:
    from shardonnay.mesh import Mesh


@dataclass(frozen=True, slots=True)
class AxisRef:
    """`AxisRef("x")` is axis x; `AxisRef("x", (2, 4))` is the sub-axis `"x":(2)4`."""

    name: str
    sub_axis: tuple[int, int] | None = None

    # -- construction and syntax ------------------------------------------------

    @classmethod
    def sub(cls, name: str, pre_size: int, size: int) -> AxisRef:
        return cls(name, (pre_size, size))

    @classmethod
    def parse(cls, text: str) -> AxisRef:
        cursor = Cursor(text)
        ref = read_axis_ref(cursor)
        cursor.expect_end()
        return ref

    def __str__(self) -> str:
        if self.sub_axis is None:
            return quote(self.name)
        return f"{quote(self.name)}:({self.sub_axis[0]}){self.sub_axis[1]}"

    def __repr__(self) -> str:
        return f"AxisRef({self})"

    # -- sizes ------------------------------------------------------------------

    @property
    def is_sub_axis(self) -> bool:
        return self.sub_axis is not None

    @property
    def pre_size(self) -> int:
        return 1 if self.sub_axis is None else self.sub_axis[0]

    def size(self, mesh: Mesh) -> int:
        return mesh.axis_size(self.name) if self.sub_axis is None else self.sub_axis[1]

    def next_pre_size(self, mesh: Mesh) -> int:
        """`pre_size * size`; the full axis size for a whole axis."""
        if self.sub_axis is None:
            return mesh.axis_size(self.name)
        return self.sub_axis[0] * self.sub_axis[1]

    def coordinate(self, axis_coordinate: int, mesh: Mesh) -> int:
        """This axis ref's coordinate for a device at `axis_coordinate` on its axis."""
        if self.sub_axis is None:
            return axis_coordinate
        pre, size = self.sub_axis
        return (axis_coordinate // (mesh.axis_size(self.name) // (pre * size))) % size

    def _end(self) -> int | None:
        """Next pre-size, or None for "the end of the axis" (mesh-free)."""
        return None if self.sub_axis is None else self.sub_axis[0] * self.sub_axis[1]

    # -- ordering: "a":(1)2 < "a" < "a":(2)2, then by pre-size and size ----------

    def sort_key(self) -> tuple:
        if self.sub_axis is None:
            return (self.name, 1, 0, 0)
        pre, size = self.sub_axis
        return (self.name, 0 if pre == 1 else 2, pre, size)

    def mesh_sort_key(self, mesh: Mesh) -> tuple:
        """Orders axis refs by their axis' position in `mesh`, then as `sort_key`."""
        return (mesh.axis_index(self.name), *self.sort_key()[1:])

    def __lt__(self, other: AxisRef) -> bool:
        return self.sort_key() < other.sort_key()

    def __le__(self, other: AxisRef) -> bool:
        return self.sort_key() <= other.sort_key()

    def __gt__(self, other: AxisRef) -> bool:
        return self.sort_key() > other.sort_key()

    def __ge__(self, other: AxisRef) -> bool:
        return self.sort_key() >= other.sort_key()

    # -- the algebra ------------------------------------------------------------

    def contains(self, other: AxisRef) -> bool:
        """`other` equals this or is one of the sub-axes this splits into.

        `"a"` contains `"a":(2)2`; `"a":(2)16` contains `"a":(4)2`;
        `"a":(1)4` does not contain `"a":(2)4`.
        """
        if self.name != other.name:
            return False
        if self.sub_axis is None:
            return True
        if other.sub_axis is None:
            return False
        return self.pre_size <= other.pre_size and other._end() <= self._end()

    def strictly_contains(self, other: AxisRef) -> bool:
        return self != other and self.contains(other)

    def prefix_of(self, other: AxisRef) -> bool:
        """`other` equals this or splits into this (major) and a remainder.

        `"a":(1)2` is a prefix of `"a"` and of `"a":(1)4`; `"a":(1)4` is not a
        prefix of `"a":(2)8`.
        """
        return other.contains(self) and self.pre_size == other.pre_size

    def strict_prefix_of(self, other: AxisRef) -> bool:
        return self != other and self.prefix_of(other)

    def suffix_of(self, other: AxisRef, mesh: Mesh) -> bool:
        """`other` equals this or splits into a remainder and this (minor).

        On `"a"=8`: `"a":(2)4` is a suffix of `"a"` and of `"a":(1)8`.
        """
        return other.contains(self) and self.next_pre_size(mesh) == other.next_pre_size(mesh)

    def strict_suffix_of(self, other: AxisRef, mesh: Mesh) -> bool:
        return self != other and self.suffix_of(other, mesh)

    def overlaps(self, other: AxisRef) -> bool:
        """Some sub-axis is contained in both (`"a":(1)4` and `"a":(2)4` overlap)."""
        if self.name != other.name:
            return False
        if self.sub_axis is None or other.sub_axis is None:
            return True
        return max(self.pre_size, other.pre_size) < min(self._end(), other._end())

    def can_coexist(self, other: AxisRef) -> bool:
        """Both can be cut from one decomposition of their axis.

        True when all their boundaries divide one another: `"a":(1)2` and
        `"a":(4)2` can (boundaries 1|2|4|8); `"a":(1)2` and `"a":(1)3` cannot.
        """
        if self.name != other.name or self.sub_axis is None or other.sub_axis is None:
            return True
        bounds = sorted((self.pre_size, self._end(), other.pre_size, other._end()))
        return all(b % a == 0 for a, b in pairwise(bounds))

    def overlap(self, other: AxisRef) -> AxisRef | None:
        """The axis ref contained in both, if any (`"a":(1)4`, `"a":(2)4` -> `"a":(2)2`)."""
        if not self.overlaps(other) or not self.can_coexist(other):
            return None
        if other.contains(self):
            return self
        if self.contains(other):
            return other
        start = max(self.pre_size, other.pre_size)
        return AxisRef(self.name, (start, min(self._end(), other._end()) // start))

    def prefix_without_overlap(self, other: AxisRef) -> AxisRef | None:
        """The largest prefix of this that does not overlap `other`.

        `"a"` without `"a":(2)2` is `"a":(1)2`; None when nothing is left.
        """
        if not self.can_coexist(other):
            return None
        if not self.overlaps(other):
            return self
        overlap = self.overlap(other)
        if overlap.pre_size == self.pre_size:
            return None
        return AxisRef(self.name, (self.pre_size, overlap.pre_size // self.pre_size))

    def suffix_without_overlap(self, other: AxisRef, mesh: Mesh) -> AxisRef | None:
        """The largest suffix of this that does not overlap `other`.

        On `"a"=8`: `"a"` without `"a":(2)2` is `"a":(4)2`.
        """
        if not self.can_coexist(other):
            return None
        if not self.overlaps(other):
            return self
        overlap = self.overlap(other)
        start, end = overlap.next_pre_size(mesh), self.next_pre_size(mesh)
        if start >= end:
            return None
        return AxisRef(self.name, (start, end // start))

    def greatest_common_prefix(self, other: AxisRef) -> AxisRef | None:
        """`"a":(1)2` for `"a":(1)2` and `"a":(1)4`; None for `"a":(1)2`, `"a":(2)4`."""
        if self.name != other.name or not self.can_coexist(other):
            return None
        if self.prefix_of(other):
            return self
        if other.prefix_of(self):
            return other
        return None

    def can_merge(self, other: AxisRef) -> bool:
        """Consecutive sub-axes of one axis, this one major (`"b":(1)2`, `"b":(2)4`)."""
        return (
            self.name == other.name
            and self.sub_axis is not None
            and other.sub_axis is not None
            and self._end() == other.pre_size
        )

    def merge(self, other: AxisRef, mesh: Mesh) -> AxisRef:
        """`"a":(2)4` + `"a":(8)2` = `"a":(2)8`; on `"b"=8`, `"b":(1)2` + `"b":(2)4` = `"b"`."""
        if not self.can_merge(other):
            raise ShardingError(f"cannot merge {self} and {other}")
        size = self.sub_axis[1] * other.sub_axis[1]
        if self.pre_size == 1 and size == mesh.axis_size(self.name):
            return AxisRef(self.name)
        return AxisRef(self.name, (self.pre_size, size))


def merge_adjacent(axes: Iterable[AxisRef], mesh: Mesh) -> tuple[AxisRef, ...]:
    """`axes` with consecutive sub-axes of one axis merged (`AxisRef.merge`).

    >>> from shardonnay.mesh import Mesh
    >>> mesh = Mesh.parse('<["x"=8, "y"=2]>')
    >>> merge_adjacent([AxisRef.parse('"x":(1)2'), AxisRef.parse('"x":(2)4'), AxisRef("y")], mesh)
    (AxisRef("x"), AxisRef("y"))
    """
    out: list[AxisRef] = []
    for axis in axes:
        if out and out[-1].can_merge(axis):
            out[-1] = out[-1].merge(axis, mesh)
        else:
            out.append(axis)
    return tuple(out)


def read_axis_ref(cursor: Cursor) -> AxisRef:
    name = cursor.string("an axis name")
    if not cursor.accept(":"):
        return AxisRef(name)
    cursor.expect("(", "'(' starting a sub-axis pre-size")
    pre_size = cursor.integer("a sub-axis pre-size")
    cursor.expect(")")
    size = cursor.integer("a sub-axis size")
    return AxisRef(name, (pre_size, size))


def axes_str(axes: tuple[AxisRef, ...] | list[AxisRef]) -> str:
    return ", ".join(str(a) for a in axes)
