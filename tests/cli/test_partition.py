"""`shardonnay partition`: the per-device program, its costs and its numeric check."""

from pathlib import Path

import pytest

from shardonnay import parse_module
from shardonnay.cli import main
from shardonnay.partitioner.analysis.cost import collective_costs
from shardonnay.partitioner.analysis.memory import peak_memory
from shardonnay.partitioner.analysis.report import human_bytes
from shardonnay.partitioner.program import explicit_collectives, partition
from shardonnay.testing.pinned_programs import RESULTS_ON_TWO_DEVICES

ROOT = Path(__file__).parent.parent.parent
MLP = ROOT / "examples" / "mlp.mlir"
CORPUS = ROOT / "tests" / "corpus"


def _comments(out: str) -> list[str]:
    return [line[3:] for line in out.splitlines() if line.startswith("// ")]


def test_prints_the_program_of_one_device(capsys):
    assert main(["partition", str(MLP)]) == 0
    out = capsys.readouterr().out
    expected = partition(parse_module(MLP.read_text())).to_text()
    assert out == expected
    assert "stablehlo.all_reduce" in out and not _comments(out)


def test_global_prints_the_program_with_explicit_collectives(capsys):
    assert main(["partition", str(MLP), "--global"]) == 0
    out = capsys.readouterr().out
    assert out == explicit_collectives(parse_module(MLP.read_text())).to_text()
    assert "sdy.all_reduce" in out


def test_report_lists_the_collectives_and_the_peak_memory(capsys):
    path = CORPUS / "transformer_block_forward.mlir"
    assert main(["partition", str(path), "--report"]) == 0
    out = capsys.readouterr().out
    module = parse_module(path.read_text())
    costs = collective_costs(explicit_collectives(module))
    report = "\n".join(_comments(out))
    assert (
        f"collectives: {len(costs.communicating)} of {len(costs.collectives)} communicate" in report
    )
    assert (
        f"every device sends {human_bytes(costs.bytes_sent)} and receives "
        f"{human_bytes(costs.bytes_received)}" in report
    )
    assert f"peak memory per device: {human_bytes(peak_memory(partition(module)))}" in report
    assert f"on one device: {human_bytes(peak_memory(module))})" in report
    assert parse_module(out).to_text() == partition(module).to_text()  # comments only


def test_report_lists_what_each_device_moves_when_devices_differ(capsys):
    path = CORPUS / "sharding_constraints.mlir"
    assert main(["partition", str(path), "--report"]) == 0
    costs = collective_costs(explicit_collectives(parse_module(path.read_text())))
    sent, received = costs.sent_per_device, costs.received_per_device
    expected = (
        f"devices send {human_bytes(min(sent))} to {human_bytes(max(sent))} and receive "
        f"{human_bytes(min(received))} to {human_bytes(max(received))}"
    )
    assert expected in capsys.readouterr().out


def test_simulate_prints_each_output_and_ok(capsys):
    path = CORPUS / "scan_rnn.mlir"
    assert main(["partition", str(path), "--simulate", "--seed", "4"]) == 0
    rows = _comments(capsys.readouterr().out)
    assert rows[0].split() == [
        "output", "shape", "dtype", "own_err", "max_abs_err", "max_rel_err", "abs_tol", "result"
    ]  # fmt: skip
    assert [r.split()[-1] for r in rows[1:3]] == ["OK", "OK"]
    assert rows[3].startswith("2 of 2 outputs match the unpartitioned program")
    assert "seed 4" in rows[3]


def test_a_failed_simulation_is_status_1_after_the_table(capsys):
    assert main(["partition", str(MLP), "--simulate", "--rounding", "0", "--atol", "0"]) == 1
    captured = capsys.readouterr()
    assert "FAIL" in "\n".join(_comments(captured.out))
    # the output named as the propagated program names it (`%2`, the second dot)
    assert captured.err.startswith("error: output 0 (%2: (16, 8) float32) of @main differs")
    assert "Traceback" not in captured.err


def test_no_propagate_partitions_the_shardings_as_written(capsys):
    assert main(["partition", str(MLP), "--no-propagate", "--simulate"]) == 0
    out = capsys.readouterr().out
    assert "%arg2: tensor<64x8xf32>" in out  # %w2 has no sharding: not split
    assert _comments(out)[-1].startswith("1 of 1 outputs match")


@pytest.mark.parametrize(
    "text, message",
    [
        (
            RESULTS_ON_TWO_DEVICES,
            "its results are pinned to different devices",
        ),
        ("func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {\n", "expected"),
    ],
)
def test_errors_are_one_message_and_status_1(tmp_path, capsys, text, message):
    path = tmp_path / "program.mlir"
    path.write_text(text)
    assert main(["partition", str(path), "--report", "--simulate"]) == 1
    captured = capsys.readouterr()
    assert captured.err.startswith("error: ") and message in captured.err
    assert "Traceback" not in captured.err and captured.out == ""
