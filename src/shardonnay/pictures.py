"""Pictures of how a tensor lies on its mesh.

`visualize(sharding, shape, mesh)` (or `visualize(module, "%3")` for a value
of a propagated program; `shardonnay.visualize` at the top) returns a
`ShardingPicture`: for two dims of the tensor (`dims`, the first two by
default), the blocks of the global array and the devices holding each, like
`jax.debug.visualize_array_sharding`, for any rank, sub-axes, replicated and
unreduced axes, uneven dims and any device order. The data come from
`shardonnay.layout.device_slices`, so the picture is what each device really
holds. A block's size on screen follows the elements it covers (the padding
of uneven shards is not drawn: the caption says where it is); a block held
by several devices (replicas, or pieces of the dims not drawn) lists them
all.

- `str(picture)` / `picture.text(width=80)`: plain text (box-drawing lines);
- `picture.render(console)` / `print_picture`: coloured blocks in a terminal
  with `rich` (what the CLI uses);
- `picture.save("out.png")` / `.svg`: an image with matplotlib (the `viz`
  extra).

>>> from shardonnay import Mesh, TensorSharding
>>> mesh = Mesh.parse('<["x"=2, "y"=2]>')
>>> picture = visualize(TensorSharding.parse('<@mesh, [{"x"}, {}]>'), (6, 4), mesh)
>>> print(picture.text(width=24))
6x4 #sdy.sharding<@mesh, [{"x"}, {}]> on <["x"=2, "y"=2]>
┌──────────────────────┐
│                      │
│      [0:3, 0:4]      │
│       devices        │
│         0, 1         │
│                      │
├──────────────────────┤
│                      │
│      [3:6, 0:4]      │
│       devices        │
│         2, 3         │
│                      │
└──────────────────────┘
rows: dim 0 (6) split 2 ways along "x"; columns: dim 1 (4) whole
replicated along "y"
each block is held by 2 devices
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from shardonnay.errors import ShardingError, ShardonnayError
from shardonnay.ir.core import Module
from shardonnay.ir.naming import find_value, value_names
from shardonnay.ir.shardings import sharding_of
from shardonnay.ir.types import TensorType
from shardonnay.jax.conversion import tensor_sharding
from shardonnay.layout import device_slices, local_shape
from shardonnay.mesh import Mesh
from shardonnay.sharding import TensorSharding

__all__ = ["Block", "ShardingPicture", "visualize"]

# Background colours of the blocks (a colour-blind friendly cycle), with the
# text colour that reads on each.
_PALETTE = (
    ("#4477aa", "white"),
    ("#ee6677", "black"),
    ("#228833", "white"),
    ("#ccbb44", "black"),
    ("#66ccee", "black"),
    ("#aa3377", "white"),
    ("#bbbbbb", "black"),
    ("#332288", "white"),
    ("#ddcc77", "black"),
    ("#117733", "white"),
    ("#88ccee", "black"),
    ("#882255", "white"),
)


@dataclass(frozen=True)
class Block:
    """One block of the picture: `row` and `column` index the pieces of the
    two dims drawn, `rows`/`columns` are the global ranges it covers,
    `devices` hold it (in device-id order)."""

    row: int
    column: int
    rows: range
    columns: range
    devices: tuple[int, ...]

    @property
    def label(self) -> str:
        """`[0:3, 4:8]` then the devices."""
        ranges = [f"{r.start}:{r.stop}" for r in (self.rows, self.columns) if r is not None]
        noun = "device" if len(self.devices) == 1 else "devices"
        return f"[{', '.join(ranges)}]\n{noun}\n{_device_list(self.devices)}"


def _plural(n: int, noun: str) -> str:
    return f"{n} {noun}" + ("" if n == 1 else "s")


def _device_list(devices: Sequence[int]) -> str:
    if len(devices) > 8:
        return ", ".join(map(str, devices[:6])) + f", ... ({len(devices)})"
    return ", ".join(map(str, devices))


@dataclass(frozen=True)
class ShardingPicture:
    """The blocks of two dims of a sharded tensor (see the module docstring)."""

    shape: tuple[int, ...]
    sharding: TensorSharding
    mesh: Mesh
    dims: tuple[int, ...]  # the dims drawn: rows then columns (0, 1 or 2 of them)
    row_ranges: tuple[range, ...]
    column_ranges: tuple[range, ...]
    blocks: tuple[Block, ...]
    title: str

    # -- words ---------------------------------------------------------------------------

    def notes(self) -> list[str]:
        """What the blocks do not show: the dims and axes, other dims, padding,
        replicated and unreduced axes."""
        lines = []
        drawn = []
        roles = ("rows", "columns") if len(self.dims) == 2 else ("columns",)
        for role, dim in zip(roles, self.dims, strict=False):
            drawn.append(f"{role}: {self._dim_words(dim)}")
        if drawn:
            lines.append("; ".join(drawn))
        others = [d for d in range(len(self.shape)) if d not in self.dims]
        for d in others:
            lines.append(f"not drawn: {self._dim_words(d)}")
        if any(self._axes(d) for d in others):
            lines.append("a block lists the devices holding any piece of the dims not drawn")
        local = local_shape(self.shape, self.sharding, self.mesh)
        for d, (size, slots) in enumerate(zip(self.shape, local, strict=True)):
            pieces = -(-size // slots) if slots else 1
            n = self._pieces(d)
            if n > 1 and slots * n != size:
                empty = f", {n - pieces} only padding" if pieces < n else ""
                lines.append(
                    f"padding: dim {d} is cut in {n} shards of {_plural(slots, 'slot')}; the last "
                    f"with data holds {size - slots * (pieces - 1)}{empty}"
                )
        free = self._replicating_axes()
        if free:
            lines.append(f"replicated along {', '.join(free)}")
        if self.sharding.unreduced:
            names = ", ".join(map(str, self.sharding.unreduced))
            lines.append(
                f"unreduced along {names}: the devices of a block hold values whose "
                f"{self.sharding.reduction} is the data"
            )
        count = max(len(b.devices) for b in self.blocks)
        if count > 1:
            lines.append(f"each block is held by {count} devices")
        return lines

    def _axes(self, dim: int):
        return self.sharding.dims[dim].axes if dim < len(self.sharding.dims) else ()

    def _pieces(self, dim: int) -> int:
        n = 1
        for a in self._axes(dim):
            n *= a.size(self.mesh)
        return n

    def _dim_words(self, dim: int) -> str:
        axes = self._axes(dim)
        if not axes:
            return f"dim {dim} ({self.shape[dim]}) whole"
        names = ", ".join(str(a) for a in axes)
        return f"dim {dim} ({self.shape[dim]}) split {self._pieces(dim)} ways along {names}"

    def _replicating_axes(self) -> list[str]:
        """The mesh axes (or what is left of them beside sub-axes) that
        neither shard a dim nor are unreduced."""
        used: dict[str, int] = {}
        for a in (*(a for d in self.sharding.dims for a in d.axes), *self.sharding.unreduced):
            used[a.name] = used.get(a.name, 1) * a.size(self.mesh)
        out = []
        for name in self.mesh.axis_names:
            size = self.mesh.axis_size(name)
            if used.get(name, 1) >= size:
                continue
            out.append(f'"{name}"' + (" (the rest of it)" if name in used else ""))
        return out

    # -- text ----------------------------------------------------------------------------

    def _sizes(self, ranges: Sequence[range], total: int, minimum: int) -> list[int]:
        """Screen sizes proportional to the ranges' lengths, each >= `minimum`,
        summing to about `total`."""
        length = sum(len(r) for r in ranges) or 1
        sizes = [max(minimum, round(total * len(r) / length)) for r in ranges]
        return sizes

    def _grid(self, width: int) -> tuple[list[int], list[int]]:
        labels = [line for b in self.blocks for line in b.label.splitlines()]
        widest = max(len(line) for line in labels) + 2
        columns = max(1, len(self.column_ranges))
        usable = max(width - columns - 1, columns * widest)
        col_sizes = self._sizes(self.column_ranges or (range(1),), usable, widest)
        rows = max(1, len(self.row_ranges))
        row_sizes = self._sizes(self.row_ranges or (range(1),), max(5 * rows, 4 * rows), 5)
        return col_sizes, row_sizes

    def _cells(self, width: int) -> list[list[tuple[str, int | None]]]:
        """The picture as lines of (text, block index or None for lines)."""
        col_sizes, row_sizes = self._grid(width)
        at = {(b.row, b.column): i for i, b in enumerate(self.blocks)}
        lines: list[list[tuple[str, int | None]]] = []

        def rule(left: str, middle: str, right: str) -> list[tuple[str, int | None]]:
            return [(left + middle.join("─" * w for w in col_sizes) + right, None)]

        lines.append(rule("┌", "┬", "┐"))
        for r, height in enumerate(row_sizes):
            labels = [self.blocks[at[(r, c)]].label.splitlines() for c in range(len(col_sizes))]
            for k in range(height):
                line: list[tuple[str, int | None]] = [("│", None)]
                for c, w in enumerate(col_sizes):
                    text = labels[c]
                    top = (height - len(text)) // 2
                    body = text[k - top] if 0 <= k - top < len(text) else ""
                    line.append((body.center(w), at[(r, c)]))
                    line.append(("│", None))
                lines.append(line)
            if r + 1 < len(row_sizes):
                lines.append(rule("├", "┼", "┤"))
        lines.append(rule("└", "┴", "┘"))
        return lines

    def text(self, width: int = 80) -> str:
        """The picture in plain text, about `width` columns wide."""
        body = ["".join(t for t, _ in line) for line in self._cells(width)]
        return "\n".join([self.title, *body, *self.notes()])

    def __str__(self) -> str:
        return self.text()

    def render(self, console: Any = None, width: int | None = None) -> None:
        """Prints the picture with `rich`: each block on its own background colour."""
        from rich.console import Console
        from rich.text import Text

        console = console or Console()
        width = width or min(console.width, 120)
        console.print(Text(self.title, style="bold"), soft_wrap=True)  # the terminal wraps
        for line in self._cells(width):
            text = Text()
            for part, block in line:
                if block is None:
                    text.append(part)
                else:
                    background, ink = _PALETTE[block % len(_PALETTE)]
                    text.append(part, style=f"{ink} on {background}")
            console.print(text, no_wrap=True, overflow="ignore", crop=False)
        for note in self.notes():
            console.print(Text(note, style="dim"), soft_wrap=True)

    def save(self, path: str, *, dpi: int = 100) -> None:
        """Writes the picture as an image (`.png`, `.svg`, `.pdf`: matplotlib's
        formats) with one colour per block."""
        try:
            import matplotlib

            matplotlib.use("Agg")
            import matplotlib.pyplot as plt
            from matplotlib.patches import Rectangle
        except ImportError as e:
            raise ShardonnayError(
                "pictures as images need matplotlib: pip install 'shardonnay[viz]'"
            ) from e
        rows = _extents(self.row_ranges)
        cols = _extents(self.column_ranges)
        height, width = sum(rows), sum(cols)
        inches = min(20.0, max(6.4, 1.2 * len(cols)))  # about an inch per block across
        figure, ax = plt.subplots(figsize=(inches, inches * max(0.25, min(4.0, height / width))))
        y_starts = [sum(rows[:i]) for i in range(len(rows))]
        x_starts = [sum(cols[:i]) for i in range(len(cols))]
        # one font size, at which the widest label line fits its block (the axes take
        # about 3/4 of the figure; a character is about 0.7 em wide)
        wide = [b for b in self.blocks if b.columns is None or len(b.columns)] or self.blocks
        points = min(
            0.75 * inches * 72 * cols[b.column] / width / (0.7 * max(map(len, b.label.split("\n"))))
            for b in wide
        )
        points = min(11.0, max(3.0, points))
        for i, b in enumerate(self.blocks):
            background, ink = _PALETTE[i % len(_PALETTE)]
            x, y = x_starts[b.column], y_starts[b.row]
            w, h = cols[b.column], rows[b.row]
            ax.add_patch(Rectangle((x, y), w, h, facecolor=background, edgecolor="black"))
            ax.text(x + w / 2, y + h / 2, b.label, ha="center", va="center", color=ink,
                    fontsize=points)  # fmt: skip
        ax.set_xlim(0, width)
        ax.set_ylim(height, 0)
        ax.set_axis_off()
        ax.set_title(self.title + "\n" + "\n".join(self.notes()), fontsize=8, loc="left")
        figure.savefig(path, dpi=dpi, bbox_inches="tight")
        plt.close(figure)


def _extents(ranges: Sequence[range]) -> list[float]:
    """Drawn sizes of ranges: their lengths, a shard holding only padding
    (an empty range) a sliver so that its devices still show."""
    if not ranges:
        return [1.0]
    total = sum(len(r) for r in ranges)
    return [float(len(r)) or total / (4 * len(ranges)) for r in ranges]


def _resolve(
    value_or_sharding: Any, shape: Sequence[int] | str | None, mesh: Mesh | None
) -> tuple[TensorSharding, tuple[int, ...], Mesh, str]:
    """(sharding, shape, mesh, what) from a sharding or a module and value name."""
    if isinstance(value_or_sharding, Module):
        module = value_or_sharding
        if not isinstance(shape, str):
            raise ShardonnayError("visualize(module, value): name the value, like '%3'")
        names = value_names(module)
        v = find_value(module, shape, names)
        if not isinstance(v.type, TensorType):
            raise ShardonnayError(f"{shape} is not a tensor ({v.type})")
        sharding = sharding_of(v) or TensorSharding.replicated_on(
            next(iter(module.meshes), "mesh"), v.type.rank
        )
        resolved = sharding.mesh if isinstance(sharding.mesh, Mesh) else None
        if resolved is None:
            if sharding.mesh not in module.meshes:
                raise ShardonnayError(f"{shape}: the program has no mesh @{sharding.mesh}")
            resolved = module.meshes[sharding.mesh]
        return sharding, tuple(v.type.shape), resolved, str(names[v])
    named = getattr(value_or_sharding, "sharding", None)
    if type(named).__name__ == "NamedSharding" and hasattr(value_or_sharding, "shape"):
        # a jax.Array or ShapeDtypeStruct
        shape = tuple(value_or_sharding.shape)
        sharding, resolved = tensor_sharding(named, len(shape), mesh_name="mesh")
        return sharding, shape, resolved, ""
    if isinstance(value_or_sharding, str):
        value_or_sharding = TensorSharding.parse(value_or_sharding)
    if not isinstance(value_or_sharding, TensorSharding):
        raise ShardonnayError(
            f"visualize takes a TensorSharding or a module and a value name, "
            f"not {type(value_or_sharding).__name__}"
        )
    if shape is None or isinstance(shape, str):
        raise ShardonnayError("visualize(sharding, shape, mesh): give the tensor's shape")
    return value_or_sharding, tuple(shape), value_or_sharding.resolve_mesh(mesh), ""


def visualize(
    value_or_sharding: Any,
    shape: Sequence[int] | str | None = None,
    mesh: Mesh | None = None,
    *,
    dims: Sequence[int] | None = None,
) -> ShardingPicture:
    """The picture of a sharded tensor: `visualize(sharding, shape, mesh)`
    (a `TensorSharding` or its text; `mesh` may be omitted for an inlined
    one), `visualize(module, "%3")` (a value of a propagated program, named
    as it prints; see `shardonnay.ir.naming`) or `visualize(array)` (a
    `jax.Array` or `jax.ShapeDtypeStruct` with a `NamedSharding`; devices
    numbered by id). `dims`: the two dims drawn,
    rows then columns (default: the first two; a rank-1 tensor is one row)."""
    sharding, shape, mesh, what = _resolve(value_or_sharding, shape, mesh)
    sharding.validate(mesh, shape=shape)
    rank = len(shape)
    if dims is None:
        dims = tuple(range(min(rank, 2)))
    dims = tuple(dims)
    if len(dims) > 2 or len(set(dims)) != len(dims) or any(not 0 <= d < rank for d in dims):
        raise ShardingError(
            f"dims {list(dims)}: choose up to two different dims of a rank-{rank} tensor"
        )
    if rank >= 2 and len(dims) < 2:
        raise ShardingError(f"dims {list(dims)}: choose two dims of a rank-{rank} tensor")
    regions = device_slices(shape, sharding, mesh)
    row_dim = dims[0] if len(dims) == 2 else None
    col_dim = dims[-1] if dims else None

    def span(region, dim) -> range:
        s = region[dim]
        return range(s.start, s.stop)

    row_ranges = sorted(
        {span(r, row_dim) for r in regions.values()} if row_dim is not None else set(),
        key=lambda r: (r.start, r.stop),
    )
    col_ranges = sorted(
        {span(r, col_dim) for r in regions.values()} if col_dim is not None else set(),
        key=lambda r: (r.start, r.stop),
    )
    holders: dict[tuple[int, int], list[int]] = {}
    for device, region in sorted(regions.items()):
        r = row_ranges.index(span(region, row_dim)) if row_dim is not None else 0
        c = col_ranges.index(span(region, col_dim)) if col_dim is not None else 0
        holders.setdefault((r, c), []).append(device)
    blocks = []
    for r in range(max(1, len(row_ranges))):
        for c in range(max(1, len(col_ranges))):
            devices = holders.get((r, c), [])
            blocks.append(
                Block(
                    r,
                    c,
                    row_ranges[r] if row_ranges else None,
                    col_ranges[c] if col_ranges else None,
                    tuple(devices),
                )
            )
    head = f"{'x'.join(map(str, shape)) or 'scalar'} {sharding} on {mesh}"
    title = f"{what}: {head}" if what else head
    return ShardingPicture(
        shape,
        sharding,
        mesh,
        tuple(d for d in (row_dim, col_dim) if d is not None),
        tuple(row_ranges),
        tuple(col_ranges),
        tuple(blocks),
        title,
    )
