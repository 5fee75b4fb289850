"""The report of a partitioned program: its collectives summarised for a person, or as JSON.

`partition_report(module, propagated, explicit, local)` costs the
collectives of the global program (`explicit`, Shardy's collectives, see
`shardonnay.partitioner.analysis.cost`) and names each by the value it communicates,
as the propagated program prints it, with the source line of that value
where the text has debug locations (`shardonnay.ir.naming`). It also costs
the per-device program (`local`), which is what the devices really run:
where that program communicates more than the global program's collectives
show (an op Shardy's partitioner leaves to the per-device code, like a
LAPACK call on a sharded operand), the collectives the global program does
not have are listed too, and the totals are the per-device program's.

`PartitionReport.text(top=10)` groups collectives by kind, mesh axes and
source line, biggest first, with bytes and times a person reads
(`1.5 KiB`, `30 us`); `text(all_rows=True)` lists every collective;
`to_json()` gives every collective and the totals for tools.

>>> import shardonnay
>>> from shardonnay.partitioner.program import explicit_collectives
>>> from shardonnay.partitioner.local.convert import convert_global_to_local
>>> mlp = shardonnay.parse_module(open("examples/mlp.mlir").read())
>>> propagated = shardonnay.propagate(mlp)
>>> explicit = explicit_collectives(propagated, propagate=False)
>>> report = partition_report(mlp, propagated, explicit, convert_global_to_local(explicit))
>>> print(report.text())
collectives: 1 of 1 communicate on 8 devices; busiest device sends 384 B, receives 384 B; time 30 us
kind        axes   count  recv/device  time   values  source
----------  -----  -----  -----------  -----  ------  ------
all_reduce  model  1      384 B        30 us  %2      -
every device sends 384 B and receives 384 B
peak memory per device: 4.25 KiB (the unpartitioned program on one device: 16.5 KiB)
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from shardonnay.ir.core import Module, Value, building
from shardonnay.ir.naming import (
    ValueName,
    source_location,
    value_names,
)
from shardonnay.partitioner.analysis.correspondence import COMMUNICATION_OPS, corresponding_values
from shardonnay.partitioner.analysis.cost import collective_costs
from shardonnay.partitioner.analysis.cost_model import CollectiveCost, CostReport
from shardonnay.partitioner.analysis.memory import peak_memory
from shardonnay.partitioner.program import propagated_program

__all__ = [
    "CollectiveGroup",
    "CollectiveRow",
    "PartitionReport",
    "human_bytes",
    "human_time",
    "partition_report",
    "report_of",
]


def human_bytes(n: int) -> str:
    """`384 B`, `4.5 KiB`, `1.2 MiB`: binary units, 2 significant decimals at most.

    >>> human_bytes(384), human_bytes(4608), human_bytes(20480), human_bytes(3 * 2**30)
    ('384 B', '4.5 KiB', '20 KiB', '3 GiB')
    """
    value = float(n)
    for unit in ("B", "KiB", "MiB", "GiB"):
        if value < 1024 or unit == "GiB":
            break
        value /= 1024
    text = f"{value:.3g}" if unit != "B" else str(n)
    return f"{text} {unit}"


def human_time(seconds: float) -> str:
    """`30 us`, `1.25 ms`, `2.5 s`.

    >>> human_time(3e-5), human_time(1.25e-3), human_time(2.5)
    ('30 us', '1.25 ms', '2.5 s')
    """
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("us", 1e-6)):
        if seconds >= scale or unit == "us":
            return f"{seconds / scale:.3g} {unit}"
    raise AssertionError("unreachable")


@dataclass(frozen=True)
class CollectiveRow:
    """One collective: its cost and the value it communicates (`value`, named
    as the propagated program prints it; None for one only the per-device
    program has)."""

    cost: CollectiveCost
    value: ValueName | None

    @property
    def source(self) -> str:
        """The source line of the value, else its function (`-`: `@main`)."""
        if self.value is not None and self.value.location:
            return self.value.location
        func = self.value.func if self.value is not None else _function(self.cost)[1:]
        return "-" if func == "main" else f"@{func}"

    def to_json(self) -> dict[str, Any]:
        c = self.cost
        return {
            "where": c.where,
            "op": c.op_name,
            "kind": c.kind,
            "axes": list(c.axes),
            "group_size": c.group_size,
            "value": self.value.spec if self.value else None,
            "source": self.value.location if self.value else None,
            "buffer_bytes": c.buffer_bytes,
            "bytes_sent": c.bytes_sent,
            "bytes_received": c.bytes_received,
            "bytes_received_per_device": list(c.received),
            "bytes_sent_per_device": list(c.sent),
            "needed_bytes": c.needed_bytes,
            "steps": c.steps,
            "time_s": c.time_s,
            "algorithm": c.algorithm,
        }


@dataclass(frozen=True)
class CollectiveGroup:
    """Collectives of one kind over the same axes from the same source line:
    how many, the bytes the busiest device receives in each summed, their time."""

    kind: str
    axes: tuple[str, ...]
    source: str
    rows: tuple[CollectiveRow, ...]

    @property
    def bytes_received(self) -> int:
        return sum(r.cost.bytes_received for r in self.rows)

    @property
    def time_s(self) -> float:
        return sum(r.cost.time_s for r in self.rows)

    @property
    def values(self) -> str:
        names = list(dict.fromkeys(r.value.spec for r in self.rows if r.value is not None))
        return ", ".join(names[:3]) + (f" +{len(names) - 3}" if len(names) > 3 else "") or "-"


@dataclass(frozen=True)
class PartitionReport:
    """The collectives of a partitioned program and its totals (see the
    module docstring). `program` says whose collectives `rows` and `costs`
    are: `per-device` where that program communicates more than the global
    program shows, else `global`."""

    rows: tuple[CollectiveRow, ...]
    costs: CostReport
    program: str
    peak_memory: int
    unpartitioned_memory: int

    def groups(self) -> list[CollectiveGroup]:
        """Rows grouped by (kind, axes, source), most bytes first."""
        grouped: dict[tuple, list[CollectiveRow]] = {}
        for row in self.rows:
            key = (row.cost.kind, row.cost.axes, row.source)
            grouped.setdefault(key, []).append(row)
        groups = [CollectiveGroup(*key, tuple(rows)) for key, rows in grouped.items()]
        return sorted(groups, key=lambda g: (-g.bytes_received, -g.time_s))

    def text(self, top: int = 10, all_rows: bool = False) -> str:
        """The summary: a totals line, the `top` groups (every collective with
        `all_rows`), what each device moves and the peak memory."""
        costs = self.costs
        lines = [
            f"collectives: {len(costs.communicating)} of {len(costs.collectives)} communicate on "
            f"{costs.num_devices} devices; busiest device sends {human_bytes(costs.bytes_sent)}, "
            f"receives {human_bytes(costs.bytes_received)}; time {human_time(costs.time_s)}"
        ]
        if all_rows:
            table = [("where", "op", "axes", "n", "recv/device", "time", "value")]
            for r in self.rows:
                c = r.cost
                table.append(
                    (c.where, c.op_name, ",".join(c.axes) or "-", str(c.group_size),
                     human_bytes(c.bytes_received), human_time(c.time_s), str(r.value or "-"))
                )  # fmt: skip
            lines += _columns(table)
        else:
            groups = self.groups()
            table = [("kind", "axes", "count", "recv/device", "time", "values", "source")]
            for g in groups[:top]:
                table.append(
                    (g.kind, ",".join(g.axes) or "-", str(len(g.rows)),
                     human_bytes(g.bytes_received), human_time(g.time_s), g.values, g.source)
                )  # fmt: skip
            lines += _columns(table)
            if len(groups) > top:
                rest = groups[top:]
                lines.append(
                    f"... {len(rest)} more groups ({sum(len(g.rows) for g in rest)} collectives, "
                    f"{human_bytes(sum(g.bytes_received for g in rest))}): --all lists every one"
                )
        if self.program == "per-device":
            lines.append(
                "the per-device program communicates more than the global program's collectives "
                "show (ops left to the per-device code): these are its collectives"
            )
        sent, received = costs.sent_per_device, costs.received_per_device
        if len(set(sent)) <= 1 and len(set(received)) <= 1:
            lines.append(
                f"every device sends {human_bytes(max(sent, default=0))} and receives "
                f"{human_bytes(max(received, default=0))}"
            )
        else:
            lines.append(
                f"devices send {human_bytes(min(sent))} to {human_bytes(max(sent))} and receive "
                f"{human_bytes(min(received))} to {human_bytes(max(received))}"
            )
        lines.append(
            f"peak memory per device: {human_bytes(self.peak_memory)} (the unpartitioned "
            f"program on one device: {human_bytes(self.unpartitioned_memory)})"
        )
        return "\n".join(lines)

    def to_json(self) -> dict[str, Any]:
        """Every collective and the totals (bytes as integers, times in seconds)."""
        costs = self.costs
        return {
            "program": self.program,
            "collectives": [r.to_json() for r in self.rows],
            "num_devices": costs.num_devices,
            "bytes_sent_per_device": list(costs.sent_per_device),
            "bytes_received_per_device": list(costs.received_per_device),
            "busiest_device_bytes_received": costs.bytes_received,
            "time_s": costs.time_s,
            "peak_memory_bytes": self.peak_memory,
            "unpartitioned_memory_bytes": self.unpartitioned_memory,
        }


def _columns(rows: list[tuple[str, ...]]) -> list[str]:
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = ["  ".join(v.ljust(w) for v, w in zip(r, widths, strict=True)).rstrip() for r in rows]
    lines.insert(1, "  ".join("-" * w for w in widths))
    return lines


def _communicated(v: Value) -> Value:
    """The value a chain of communication ops starts from."""
    while v.op is not None and v.op.name in COMMUNICATION_OPS:
        v = v.op.operands[0]
    return v


# A Shardy collective and the StableHLO collective it becomes per device.
_PER_DEVICE_KIND = {
    "all_gather": "all_gather",
    "all_reduce": "all_reduce",
    "reduce_scatter": "reduce_scatter",
    "all_to_all": "all_to_all",
    "collective_permute": "collective_permute",
}


def partition_report(
    module: Module, propagated: Module, explicit: Module, local: Module
) -> PartitionReport:
    """The report of `module`, whose propagated program is `propagated`, global
    program with explicit collectives `explicit` and per-device program `local`."""
    with building():  # it makes many small tracked objects and no cycles to collect
        global_costs = collective_costs(explicit)
        communicated = [
            _communicated(c.op.operands[0]) if c.op is not None and c.op.operands else None
            for c in global_costs.collectives
        ]
        same = corresponding_values(propagated, explicit, [v for v in communicated if v])
        names = value_names(propagated, same.values())
        rows: list[CollectiveRow] = []
        for c, value in zip(global_costs.collectives, communicated, strict=True):
            rows.append(CollectiveRow(c, names.get(same.get(value)) if value else None))
        local_costs = collective_costs(local)
        memory = peak_memory(local), peak_memory(module)
        if local_costs.bytes_received <= global_costs.bytes_received:
            return PartitionReport(tuple(rows), global_costs, "global", *memory)
        # The per-device program's collectives, named after the global collectives
        # they come from (in order, per function and kind).
        pending: dict[tuple[str, str], list[ValueName | None]] = {}
        for row in rows:
            kind = _PER_DEVICE_KIND.get(row.cost.kind)
            if kind is not None and (row.cost.steps or any(row.cost.received)):
                pending.setdefault((_function(row.cost), kind), []).append(row.value)
        local_names = value_names(
            local, [c.op.operands[0] for c in local_costs.collectives if c.op and c.op.operands]
        )
        local_rows = []
        for c in local_costs.collectives:
            queue = pending.get((_function(c), c.kind))
            value = queue.pop(0) if queue else _argument_name(c, local_names, local)
            local_rows.append(CollectiveRow(c, value))
        return PartitionReport(tuple(local_rows), local_costs, "per-device", *memory)


def report_of(
    module: Module,
    explicit: Module,
    local: Module,
    *,
    propagate: bool = True,
    propagated: Module | None = None,
) -> PartitionReport:
    """`partition_report` of `module`, its values named as `propagated` (its
    `propagated_program`, computed again when not given) prints them."""
    if propagated is None:
        propagated = propagated_program(module, propagate=propagate)
    return partition_report(module, propagated, explicit, local)


def _argument_name(
    c: CollectiveCost, names: dict[Value, ValueName], local: Module
) -> ValueName | None:
    """The name of a per-device collective's operand where it is a function
    argument (named alike in every program), with the source line of the op
    that uses the collective's result."""
    if c.op is None or not c.op.operands:
        return None
    name = names.get(c.op.operands[0])
    if name is None or name.op is not None or not name.name.startswith("%arg"):
        return None
    users = [u for r in c.op.results for u in r.users]
    where = next((w for u in users if (w := source_location(u, local))), None)
    return replace(name, location=where)


def _function(c: CollectiveCost) -> str:
    return c.where.split(" ")[0]
