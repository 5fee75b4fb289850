"""Device meshes: ordered named axes over a set of devices.

`<["x"=2, "y"=4]>` is 8 devices on a 2x4 grid; the device at mesh coordinate
`c` is `device_ids[ravel(c)]` (row-major, first axis major), with `device_ids`
defaulting to `iota(8)`. `<["a"=3, "b"=2], device_ids=[0, 2, 4, 1, 3, 5]>`
orders the same devices differently. `<[]>` is the empty mesh (one device,
id 0) and `<[], device_ids=[3]>` a *maximal* mesh that pins a value to
device 3.
A mesh of one device may spell out `device_ids=[0]`: `<["a"=1], device_ids=[0]>`
is `<["a"=1]>`.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from functools import cached_property

from shardonnay.errors import ShardingError
from shardonnay.syntax.cursor import Cursor, quote


@dataclass(frozen=True)
class Mesh:
    """Named axes with sizes and an optional device order.

    >>> m = Mesh({"x": 2, "y": 3}, device_ids=[0, 2, 4, 1, 3, 5])
    >>> m.device_at((1, 0)), m.coords_of(4)
    (1, (0, 2))
    """

    axes: tuple[tuple[str, int], ...]
    device_ids: tuple[int, ...] | None = None

    def __init__(
        self,
        axes: Mapping[str, int] | Iterable[tuple[str, int]] = (),
        device_ids: Iterable[int] | None = None,
    ):
        pairs = tuple(axes.items() if isinstance(axes, Mapping) else axes)
        object.__setattr__(self, "axes", tuple((str(n), int(s)) for n, s in pairs))
        ids = None if device_ids is None else tuple(int(d) for d in device_ids)
        if ids == (0,) and pairs and all(int(s) == 1 for _, s in pairs):
            # A mesh of one device listing that device, `<["a"=1], device_ids=[0]>`,
            # is the plain `<["a"=1]>` (Shardy accepts it and prints it so).
            ids = None
        object.__setattr__(self, "device_ids", ids)
        self._verify()

    def _verify(self) -> None:
        seen: set[str] = set()
        for name, size in self.axes:
            if size < 1:
                raise ShardingError(f"axis size must be at least 1, got: {size}")
            if name in seen:
                raise ShardingError(f'duplicate axis name: "{name}"')
            seen.add(name)
        ids = self.device_ids
        if ids is None:
            return
        for d in ids:
            if d < 0:
                raise ShardingError(f"device id must be non-negative, got: {d}")
        if not self.axes:
            if len(ids) != 1:
                raise ShardingError("axes is empty and device_ids has more than one element")
            return
        total = math.prod(s for _, s in self.axes)
        if total != len(ids):
            raise ShardingError(
                "total product of axis sizes must match total number of device ids, "
                f"got: {total} != {len(ids)}"
            )
        if sorted(ids) != list(range(total)):
            raise ShardingError(
                "sorted device ids must be iota(product(axes)), got: "
                + ", ".join(map(str, sorted(ids)))
            )
        if list(ids) == list(range(total)):
            raise ShardingError(
                "if the ordered device ids are the same as iota(product(axes)), "
                "no need to specify them for simplicity"
            )

    # -- syntax -----------------------------------------------------------------

    @classmethod
    def parse(cls, text: str) -> Mesh:
        """Reads `<[...]>`, `#sdy.mesh<[...]>` or `mesh<[...]>`."""
        cursor = Cursor(text)
        if not cursor.accept_keyword("#sdy.mesh"):
            cursor.accept("mesh")
        mesh = read_mesh(cursor)
        cursor.expect_end()
        return mesh

    def __str__(self) -> str:
        axes = ", ".join(f"{quote(n)}={s}" for n, s in self.axes)
        ids = (
            ""
            if self.device_ids is None
            else f", device_ids=[{', '.join(map(str, self.device_ids))}]"
        )
        return f"<[{axes}]{ids}>"

    def __repr__(self) -> str:
        return f"Mesh.parse({str(self)!r})"

    # -- queries ----------------------------------------------------------------

    @cached_property
    def _index(self) -> dict[str, int]:
        return {name: i for i, (name, _) in enumerate(self.axes)}

    @property
    def axis_names(self) -> tuple[str, ...]:
        return tuple(n for n, _ in self.axes)

    @property
    def shape(self) -> tuple[int, ...]:
        return tuple(s for _, s in self.axes)

    @property
    def size(self) -> int:
        """Number of devices."""
        return math.prod(self.shape)

    @property
    def is_maximal(self) -> bool:
        return not self.axes and self.device_ids is not None

    @property
    def device_list(self) -> tuple[int, ...]:
        """Device ids in row-major mesh order (iota when not given)."""
        return self.device_ids if self.device_ids is not None else tuple(range(self.size))

    def has_axis(self, name: str) -> bool:
        return name in self._index

    def axis_index(self, name: str) -> int:
        try:
            return self._index[name]
        except KeyError:
            raise ShardingError(f'unknown axis name: "{name}"') from None

    def axis_size(self, name: str) -> int:
        return self.axes[self.axis_index(name)][1]

    def device_at(self, coords: Iterable[int]) -> int:
        coords = tuple(coords)
        if len(coords) != len(self.axes) or any(
            not 0 <= c < s for c, s in zip(coords, self.shape, strict=True)
        ):
            raise ShardingError(f"mesh coordinates {coords} are outside mesh {self}")
        flat = 0
        for c, s in zip(coords, self.shape, strict=True):
            flat = flat * s + c
        return self.device_list[flat]

    @cached_property
    def _coords_by_device(self) -> dict[int, tuple[int, ...]]:
        out = {}
        for flat, device in enumerate(self.device_list):
            coords = []
            for s in reversed(self.shape):
                coords.append(flat % s)
                flat //= s
            out[device] = tuple(reversed(coords))
        return out

    def coords_of(self, device_id: int) -> tuple[int, ...]:
        try:
            return self._coords_by_device[device_id]
        except KeyError:
            raise ShardingError(f"device {device_id} is not in mesh {self}") from None


def read_mesh(cursor: Cursor) -> Mesh:
    """`<[` axes `]` [`, device_ids=[` ids `]`] `>` at the cursor."""
    start = cursor.pos
    cursor.expect("<", "'<' starting a mesh")
    cursor.expect("[", "'[' starting the mesh axes")

    def axis() -> tuple[str, int]:
        name = cursor.string("a quoted axis name")
        cursor.expect("=", "'=' after the axis name")
        return name, cursor.integer("an axis size")

    axes = cursor.comma_separated("]", axis, "a mesh axis")
    device_ids = None
    if cursor.accept(","):
        cursor.expect("device_ids", "'device_ids'")
        cursor.expect("=")
        cursor.expect("[")
        device_ids = cursor.comma_separated("]", cursor.integer, "a device id")
    cursor.expect(">", "'>' closing the mesh")
    try:
        return Mesh(axes, device_ids)
    except ShardingError as e:
        raise cursor.invalid(str(e), start) from None
