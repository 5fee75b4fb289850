"""The command line on careless input: a clear `error:` line or an argparse
usage error, never a traceback; Unix pipe manners; help that helps."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from shardonnay.cli import main
from shardonnay.passes import known_passes

ROOT = Path(__file__).parent.parent.parent
MLP = ROOT / "examples" / "mlp.mlir"


def write(tmp_path: Path, name: str, data: bytes) -> str:
    path = tmp_path / name
    path.write_bytes(data)
    return str(path)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"\xff\xfe\x00garbage", "not UTF-8 text (byte 0xFF at offset 0)"),
        (b"ML\xefR\x00\x01\x02", "MLIR bytecode, not text"),
        (b"HloModule jit_f\n\nENTRY main.3 {\n  ROOT p = f32[] parameter(0)\n}\n", "XLA HLO"),
        (b"import jax\nprint(jax.devices())\n", "found text starting with 'import'"),
        (b'{"nodes": []}', "expected an MLIR module"),
    ],
)
@pytest.mark.parametrize("command", ["fmt", "run", "propagate", "partition"])
def test_files_that_are_no_mlir_say_what_they_look_like(tmp_path, capsys, command, data, message):
    path = write(tmp_path, "input.mlir", data)
    assert main([command, path]) == 1
    err = capsys.readouterr().err
    assert err.startswith("error: ") and message in err
    assert "Traceback" not in err
    assert "jax.jit(f).lower(*args).as_text()" in err


def test_stdin_of_invalid_utf8_is_an_error():
    result = subprocess.run(
        [sys.executable, "-m", "shardonnay.cli", "fmt", "-"],
        input=b"func.func @main() {\xc3\x28 }",
        capture_output=True,
        timeout=60,
    )
    assert result.returncode == 1
    assert result.stderr.decode().startswith("error: <stdin>: not UTF-8 text (byte 0xC3")


@pytest.mark.parametrize(
    "argv",
    [
        ["run", str(MLP), "--seed", "-5"],
        ["partition", str(MLP), "--simulate", "--seed", "-1"],
        ["run", str(MLP), "--seed", "x"],
    ],
)
def test_negative_or_malformed_seeds_are_usage_errors(capsys, argv):
    with pytest.raises(SystemExit) as info:
        main(argv)
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert "argument --seed: invalid seed" in err and "Traceback" not in err


class _ClosedPipe:
    """A stdout whose reader has gone away (`shardonnay fmt F | head -1`)."""

    def write(self, text: str) -> int:
        raise BrokenPipeError(32, "Broken pipe")

    def flush(self) -> None:
        raise BrokenPipeError(32, "Broken pipe")


@pytest.mark.parametrize("command", ["fmt", "propagate", "partition"])
def test_a_closed_pipe_ends_quietly_with_the_sigpipe_status(monkeypatch, capsys, command):
    """No message, and the status of a process ended by SIGPIPE (as `yes | head -1`
    leaves `yes`), not `error: None: Broken pipe`."""
    monkeypatch.setattr(sys, "stdout", _ClosedPipe())
    assert main([command, str(MLP)]) == 141
    assert capsys.readouterr().err == ""


def test_why_not_an_axis_no_mesh_has_is_an_error(capsys):
    assert main(["explain", str(MLP), "main:%arg2", "--why-not", "nosuchaxis"]) == 1
    err = capsys.readouterr().err
    assert 'no mesh of the program has an axis "nosuchaxis"' in err
    assert '"data", "model"' in err
    assert main(["explain", str(MLP), "main:%arg2", "--why-not", "data"]) == 0


def test_run_prints_a_scalar_output_with_the_shape_of_a_scalar(tmp_path, capsys):
    program = b"""func.func @main(%a: tensor<4xf32>) -> (tensor<f32>, tensor<1xf32>) {
  %c = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = stablehlo.reduce(%a init: %c) applies stablehlo.add across dimensions = [0]
    : (tensor<4xf32>, tensor<f32>) -> tensor<f32>
  %1 = stablehlo.reshape %0 : (tensor<f32>) -> tensor<1xf32>
  return %0, %1 : tensor<f32>, tensor<1xf32>
}
"""
    assert main(["run", write(tmp_path, "scalar.mlir", program)]) == 0
    rows = [line.split() for line in capsys.readouterr().out.splitlines()[1:]]
    assert [row[1] for row in rows] == ["()", "(1,)"]
    assert rows[0][3] == rows[1][3]  # the same sum


def test_opt_help_lists_the_passes(capsys):
    with pytest.raises(SystemExit):
        main(["opt", "--help"])
    out = capsys.readouterr().out
    for name in known_passes():
        assert f"\n  {name}\n" in out
    assert "sdy-propagation-pipeline" in known_passes()


def test_explain_help_says_how_values_are_named(capsys):
    with pytest.raises(SystemExit):
        main(["explain", "--help"])
    out = " ".join(capsys.readouterr().out.split())
    assert "'%12' in @main, 'relu:%1' in @relu" in out


def test_a_malformed_pass_option_is_an_error(capsys):
    assert main(["opt", str(MLP), "--pass-pipeline", "builtin.module(x{!})"]) == 1
    assert "expected an option like name=value" in capsys.readouterr().err
