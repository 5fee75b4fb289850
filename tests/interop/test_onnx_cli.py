"""`shardonnay onnx check|infer|show` on a partially annotated MLP."""

from __future__ import annotations

from pathlib import Path

import onnx
import pytest

from shardonnay.cli import main
from shardonnay.testing.onnx_models import annotate, mlp, spec


@pytest.fixture
def model_file(tmp_path):
    path = tmp_path / "mlp.onnx"
    onnx.save(mlp(), path)
    return path


def test_check_reports_the_formalisms_findings_and_fails_on_invalid_ones(model_file, capsys):
    assert main(["onnx", "check", str(model_file)]) == 1
    out = capsys.readouterr().out
    assert "invalid: node 1 (Add \"bias1\"), 'b1': axis 0 is sharded differently" in out
    assert out.endswith("1 invalid, 0 unsupported\n")


def test_infer_writes_a_complete_model_that_checks_clean(model_file, tmp_path, capsys):
    out_file = tmp_path / "done.onnx"
    assert main(["onnx", "infer", str(model_file), "-o", str(out_file)]) == 0
    out = capsys.readouterr().out
    assert 'mesh <["x"=2, "y"=2]>' in out
    assert 'W2  #sdy.sharding<@mesh, [{"y"}, {}]>' in out
    onnx.checker.check_model(onnx.load(out_file), full_check=True)
    assert main(["onnx", "check", str(out_file)]) == 0
    assert capsys.readouterr().out == "0 invalid, 0 unsupported\n"


def test_infer_by_the_formalism_alone_notes_what_it_could_not_infer(model_file, tmp_path, capsys):
    out_file = tmp_path / "formalism.onnx"
    assert main(["onnx", "infer", str(model_file), "-o", str(out_file), "--formalism"]) == 0
    out = capsys.readouterr().out
    assert 'note: invalid: node 1 (Add "bias1")' in out
    assert "note: node 1 (Add \"bias1\"): no spec inferred for output 'Hb'" in out


def test_show_draws_a_tensor_of_the_completed_model(model_file, tmp_path, capsys):
    out_file = tmp_path / "done.onnx"
    main(["onnx", "infer", str(model_file), "-o", str(out_file)])
    capsys.readouterr()
    mesh = '<["d"=2, "m"=2]>'  # ONNX keeps devices, not axis names: name them to draw
    assert main(["onnx", "show", str(out_file), "A", "--width", "40", "--mesh", mesh]) == 0
    out = capsys.readouterr().out
    assert '8x32 #sdy.sharding<@mesh, [{"d"}, {"m"}]> on <["d"=2, "m"=2]>' in out
    assert "     3  1  1  [4:8, 16:32]" in out


def test_infer_takes_priorities_per_tensor(tmp_path, capsys):
    # W1's spec puts H's columns on one axis, A's on the other: the p0 tensor wins.
    model = mlp()
    fc1, fc2 = model.graph.node[0], model.graph.node[3]
    del fc1.device_configurations[:]
    annotate(fc1, spec("W1", [(1, 2)], groups=[[0, 2], [1, 3]]))
    annotate(fc2, spec("A", [(1, 2)], groups=[[0, 1], [2, 3]]))
    onnx.save(model, tmp_path / "conflict.onnx")
    argv = ["onnx", "infer", str(tmp_path / "conflict.onnx"), "-o", str(tmp_path / "p.onnx")]
    lines = {}
    for winner, loser in (("A", "W1"), ("W1", "A")):
        assert main([*argv, "--priority", f"{winner}=0", "--priority", f"{loser}=1"]) == 0
        out = capsys.readouterr().out
        lines[winner] = {line.split()[0]: line.split(None, 1)[1] for line in out.splitlines()}
    assert lines["A"]["H"] == lines["A"]["A"]  # H sharded like A
    assert lines["W1"]["H"] != lines["W1"]["A"]  # H sharded like W1's columns instead


@pytest.mark.parametrize(
    "argv, message",
    [
        (["onnx", "show", "MODEL", "nothing"], "no node carries a spec for 'nothing'"),
        (["onnx", "infer", "MODEL", "-o", "x.onnx", "--mesh", '<["x"=8]>'], "has 8 devices"),
        (["onnx", "check", "NOT_ONNX"], "not an ONNX model"),
        (["onnx", "infer", "MODEL", "-o", "x.onnx", "--priority", "W1"], "expected TENSOR=N"),
    ],
)
def test_errors_are_one_line(argv, message, model_file, tmp_path, capsys):
    bad = tmp_path / "bad.onnx"
    bad.write_bytes(b"\xff\xff not a protobuf")
    argv = [{"MODEL": str(model_file), "NOT_ONNX": str(bad)}.get(a, a) for a in argv]
    argv = [str(tmp_path / a) if a == "x.onnx" else a for a in argv]
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert err.startswith("error: ") and message in err and "Traceback" not in err


def test_the_bundled_example_is_the_test_mlp():
    bundled = Path(__file__).parent.parent.parent / "examples" / "mlp_partial.onnx"
    assert onnx.load(bundled).SerializeToString() == mlp().SerializeToString()
