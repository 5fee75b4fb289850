"""The link model and the cost report.

`CostModel` holds per-axis link parameters (latency per step, bandwidth) and
times a collective as `latency * steps + bytes / bandwidth` on the slowest
axis its group spans. `CollectiveCost` is one collective's bytes sent and
received per device, its group, steps and algorithm; `CostReport` sums them
per device and prints the table (`report.table()`). What each algorithm
moves is defined with the collectives (`shardonnay.collectives.traffic`, and
each Shardy collective's `traffic`), for `shardonnay.partitioner.analysis.cost`
(global and per-device programs) and `shardonnay.interop.hlo_collectives`
(XLA's HLO) alike.

>>> round(CostModel().time(("x",), steps=3, num_bytes=192) * 1e6, 5)  # us: 3 * 5 + 192 B / 100 GB/s
15.00192
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType

from shardonnay.errors import IRError, ShardonnayError
from shardonnay.ir.core import Op
from shardonnay.ir.types import TensorType, Type, numpy_dtype

# -- the link model -------------------------------------------------------------------------


@dataclass(frozen=True)
class CostModel:
    """Alpha-beta link parameters per mesh axis: bytes per second and seconds per step.

    A group spanning several axes moves at the pace of its slowest one (the
    least bandwidth, the most latency); an axis not listed, or a group whose
    axes are unknown, gets the defaults.

    >>> model = CostModel(axis_bandwidth={"x": 1e9, "y": 1e11}, axis_latency={"x": 1e-5})
    >>> model.link(("x", "y"))
    (1000000000.0, 1e-05)
    >>> model.time(("y",), steps=3, num_bytes=10**8)  # 3 * 5 us + 1 ms
    0.001015
    """

    axis_bandwidth: Mapping[str, float] = field(default_factory=dict, hash=False)
    axis_latency: Mapping[str, float] = field(default_factory=dict, hash=False)
    default_bandwidth: float = 100e9
    default_latency: float = 5e-6

    def __post_init__(self) -> None:
        for key in ("axis_bandwidth", "axis_latency"):
            object.__setattr__(self, key, MappingProxyType(dict(getattr(self, key))))

    def link(self, axes: Sequence[str]) -> tuple[float, float]:
        """(bandwidth, latency) of a group spanning `axes`."""
        if not axes:
            return self.default_bandwidth, self.default_latency
        bandwidth = min(self.axis_bandwidth.get(a, self.default_bandwidth) for a in axes)
        latency = max(self.axis_latency.get(a, self.default_latency) for a in axes)
        return bandwidth, latency

    def time(self, axes: Sequence[str], steps: int, num_bytes: int) -> float:
        bandwidth, latency = self.link(axes)
        return latency * steps + num_bytes / bandwidth

    def collective_time(
        self, axes: Sequence[str], steps: int, sent: Sequence[int], received: Sequence[int]
    ) -> float:
        """`time` of the bytes the busiest device sends or receives."""
        busiest = max(max(sent, default=0), max(received, default=0))
        return self.time(axes, steps, busiest)


# -- the report -----------------------------------------------------------------------------


@dataclass(frozen=True)
class CollectiveCost:
    """One collective: per-device bytes are tuples indexed by device id.

    The tuples cover the devices of the collective's own mesh (ids
    `0 .. max(mesh.device_list)`; for an unlowered `sdy.reshard` between two
    meshes, the devices of both), which may be fewer than the program's: a
    collective on a 2-device mesh of a program that also has a 12-device one
    has tuples of 2, and the devices it leaves out move nothing.

    `bytes_sent` / `bytes_received` are the busiest device's; `needed`
    (data-moving collectives of a global program only) is the lower bound
    from the layout: per device, the bytes of its target region it lacks.
    `group_size` is the devices exchanging with each other (for a permute:
    the devices that send or receive anything).
    """

    where: str  # "@main op 3": the op's position in its function's walk order
    op_name: str
    kind: str
    axes: tuple[str, ...]  # mesh axes the group spans (a sub-axis as x:(2)2)
    group_size: int
    shape: str  # the tensor type(s) as written
    buffer_bytes: int  # one device's operand buffer
    sent: tuple[int, ...]
    received: tuple[int, ...]
    steps: int
    time_s: float
    algorithm: str
    needed: tuple[int, ...] | None = None
    op: Op | None = field(default=None, compare=False, repr=False)

    @property
    def bytes_sent(self) -> int:
        return max(self.sent, default=0)

    @property
    def bytes_received(self) -> int:
        return max(self.received, default=0)

    @property
    def needed_bytes(self) -> int | None:
        return None if self.needed is None else max(self.needed, default=0)


@dataclass(frozen=True)
class CostReport:
    """The collectives of one program, in program order, and their totals."""

    collectives: tuple[CollectiveCost, ...]
    num_devices: int
    model: CostModel = field(default_factory=CostModel)

    def _per_device(self, key: str) -> tuple[int, ...]:
        """Per device id of the program, the sum over its collectives (a
        collective on a smaller mesh adds nothing for the devices it lacks)."""
        longest = max((len(getattr(c, key)) for c in self.collectives), default=0)
        totals = [0] * max(self.num_devices, longest)
        for c in self.collectives:
            for d, b in enumerate(getattr(c, key)):
                totals[d] += b
        return tuple(totals)

    @property
    def sent_per_device(self) -> tuple[int, ...]:
        return self._per_device("sent")

    @property
    def received_per_device(self) -> tuple[int, ...]:
        return self._per_device("received")

    @property
    def bytes_received(self) -> int:
        """What the busiest device receives over the whole program."""
        return max(self.received_per_device, default=0)

    @property
    def bytes_sent(self) -> int:
        return max(self.sent_per_device, default=0)

    @property
    def total_bytes(self) -> int:
        """Bytes moved by the program: received, summed over all devices."""
        return sum(self.received_per_device)

    @property
    def time_s(self) -> float:
        return sum(c.time_s for c in self.collectives)

    @property
    def communicating(self) -> tuple[CollectiveCost, ...]:
        """The collectives that move data (not the local ones)."""
        return tuple(c for c in self.collectives if c.steps or any(c.received))

    def by_axes(self) -> dict[tuple[str, ...], int]:
        """Busiest-device received bytes per group of mesh axes."""
        out: dict[tuple[str, ...], int] = {}
        for c in self.collectives:
            if c.bytes_received:
                out[c.axes] = out.get(c.axes, 0) + c.bytes_received
        return out

    def table(self) -> str:
        """One row per collective and the program's totals, as text.

        Bytes are per device (the busiest one); `needed` is the layout's
        lower bound where it applies.
        """
        header = "where op axes n buffer_B sent_B recv_B needed_B steps time_us algorithm"
        rows = [tuple(header.split())]
        for c in self.collectives:
            needed = "-" if c.needed is None else str(c.needed_bytes)
            numbers = (c.group_size, c.buffer_bytes, c.bytes_sent, c.bytes_received)
            rows.append(
                (c.where, c.op_name, ",".join(c.axes) or "-", *map(str, numbers), needed,
                 str(c.steps), f"{c.time_s * 1e6:.2f}", c.algorithm)
            )  # fmt: skip
        widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
        lines = [
            "  ".join(v.ljust(w) for v, w in zip(r, widths, strict=True)).rstrip() for r in rows
        ]
        lines.insert(1, "  ".join("-" * w for w in widths))
        lines.append(
            f"{len(self.communicating)} communicating of {len(self.collectives)} collectives on "
            f"{self.num_devices} devices; busiest device sends {self.bytes_sent} B, receives "
            f"{self.bytes_received} B; all devices receive {self.total_bytes} B; "
            f"time {self.time_s * 1e6:.2f} us"
        )
        for axes, b in self.by_axes().items():
            lines.append(f"  over {','.join(axes) or '(unknown axes)'}: {b} B received")
        return "\n".join(lines)


# -- bytes of buffers -------------------------------------------------------------------------


@functools.lru_cache(maxsize=256)
def element_bytes(element_type: str) -> int:
    """Bytes of one element (`i1` is stored in a byte).

    >>> element_bytes("f32"), element_bytes("i1"), element_bytes("complex<f64>")
    (4, 1, 16)
    """
    if element_type == "i1":
        return 1
    try:
        return numpy_dtype(element_type).itemsize
    except ShardonnayError:  # no numpy dtype: the bit width in the name
        digits = "".join(ch for ch in element_type if ch.isdigit())
        if not digits:
            raise IRError(f"no byte size for element type {element_type}") from None
        return -(-int(digits) // 8)


@functools.lru_cache(maxsize=4096)  # (types hash by their text, kept with them)
def type_bytes(t: Type) -> int:
    """Bytes of a value of type `t` (0 for tokens and other non-tensors)."""
    if not isinstance(t, TensorType):
        return 0
    return t.num_elements * element_bytes(t.element_type)
