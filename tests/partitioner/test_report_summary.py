"""The report of `shardonnay partition --report`: grouped, readable, complete, and as JSON."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from shardonnay import parse_module
from shardonnay.cli import main
from shardonnay.partitioner.analysis.cost import collective_costs
from shardonnay.partitioner.analysis.report import human_bytes, report_of
from shardonnay.partitioner.local.convert import convert_global_to_local
from shardonnay.partitioner.program import explicit_collectives, partition

ROOT = Path(__file__).parent.parent.parent
MLP = ROOT / "examples" / "mlp.mlir"
CORPUS = ROOT / "tests" / "corpus"

# An op without a sharding rule on a sharded operand: Shardy's global program
# has no collective, the per-device program gathers the operand.
NO_RULE = """
sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @main(%arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>})
    -> tensor<8x4xf32> {
  %0 = stablehlo.custom_call @lapack_sgetrf_ffi(%arg0) : (tensor<8x4xf32>) -> tensor<8x4xf32>
  %1 = stablehlo.negate %0 : tensor<8x4xf32>
  return %1 : tensor<8x4xf32>
}
"""


def _json(capsys, *argv: str) -> dict:
    assert main(["partition", *argv, "--report", "--json"]) == 0
    return json.loads(capsys.readouterr().out)


@pytest.mark.parametrize(
    "name", ["transformer_block_backward", "sharding_constraints", "two_meshes"]
)
def test_json_rows_sum_to_the_totals(capsys, name: str) -> None:
    path = CORPUS / f"{name}.mlir"
    report = _json(capsys, str(path))
    rows = report["collectives"]
    per_device = [0] * report["num_devices"]
    for row in rows:
        for d, b in enumerate(row["bytes_received_per_device"]):
            per_device[d] += b
    assert per_device == report["bytes_received_per_device"]
    assert max(per_device) == report["busiest_device_bytes_received"]
    assert sum(r["time_s"] for r in rows) == pytest.approx(report["time_s"])
    global_costs = collective_costs(explicit_collectives(parse_module(path.read_text())))
    if report["program"] == "global":
        assert len(rows) == len(global_costs.collectives)
        assert report["busiest_device_bytes_received"] == global_costs.bytes_received


@pytest.mark.filterwarnings("ignore:.*unknown to the sharding rule registry")
def test_per_device_communication_is_counted(capsys, tmp_path: Path) -> None:
    path = tmp_path / "no_rule.mlir"
    path.write_text(NO_RULE)
    module = parse_module(NO_RULE)
    explicit = explicit_collectives(module)
    assert not collective_costs(explicit).communicating  # the global program shows nothing
    report = _json(capsys, str(path))
    assert report["program"] == "per-device"
    kinds = [r["kind"] for r in report["collectives"]]
    assert kinds == ["all_gather"]
    local = collective_costs(convert_global_to_local(explicit))
    assert report["busiest_device_bytes_received"] == local.bytes_received == 64
    assert main(["partition", str(path), "--report"]) == 0
    text = capsys.readouterr().out
    assert "// collectives: 1 of 1 communicate" in text
    assert "the per-device program communicates more" in text


def test_summary_groups_by_kind_axes_and_source(capsys) -> None:
    path = CORPUS / "transformer_block_backward.mlir"
    module = parse_module(path.read_text())
    explicit = explicit_collectives(module)
    report = report_of(module, explicit, partition(module))  # the program the CLI prints
    groups = report.groups()
    assert sum(len(g.rows) for g in groups) == len(report.rows)
    assert [g.bytes_received for g in groups] == sorted(
        (g.bytes_received for g in groups), reverse=True
    )
    text = report.text(top=2)
    lines = text.splitlines()
    header = lines[1].split()
    assert header == ["kind", "axes", "count", "recv/device", "time", "values", "source"]
    assert len([g for g in groups]) > 2
    assert lines[5].startswith(f"... {len(groups) - 2} more groups")
    first = lines[3].split()
    assert first[:3] == [groups[0].kind, ",".join(groups[0].axes), str(len(groups[0].rows))]
    assert human_bytes(groups[0].bytes_received) in lines[3]
    every = report.text(all_rows=True).splitlines()
    assert len(every) == 2 + len(report.rows) + 3  # totals, header, rule, rows, 2 lines after
    assert main(["partition", str(path), "--report", "--all"]) == 0
    out = capsys.readouterr().out
    assert "\n".join(f"// {line}".rstrip() for line in every) in out


def test_human_units() -> None:
    assert [human_bytes(n) for n in (0, 1023, 1024, 1536, 10 * 2**20)] == [
        "0 B", "1023 B", "1 KiB", "1.5 KiB", "10 MiB"
    ]  # fmt: skip
