"""`shardonnay fmt` and `shardonnay run` on programs."""

from __future__ import annotations

import hashlib
import io
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from shardonnay.cli import main
from shardonnay.runtime.interpreter import random_inputs, run
from shardonnay.syntax.mlir_reader import parse_module

GENERIC = """\
"builtin.module"() ({
  "sdy.mesh"() <{mesh = #sdy.mesh<["x"=2]>, sym_name = "mesh"}> : () -> ()
  "func.func"() <{function_type = (tensor<4x2xf32>, tensor<3xi32>) -> (tensor<4x2xf32>, \
tensor<3xi32>), sym_name = "main"}> ({
  ^bb0(%arg1: tensor<4x2xf32>, %arg2: tensor<3xi32>):
    %0 = "sdy.sharding_constraint"(%arg1) <{sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}> \
: (tensor<4x2xf32>) -> tensor<4x2xf32>
    %1 = "func.call"(%arg2) <{callee = @id}> : (tensor<3xi32>) -> tensor<3xi32>
    "func.return"(%0, %1) : (tensor<4x2xf32>, tensor<3xi32>) -> ()
  }) : () -> ()
  "func.func"() <{function_type = (tensor<3xi32>) -> tensor<3xi32>, sym_name = "id", \
sym_visibility = "private"}> ({
  ^bb0(%arg0: tensor<3xi32>):
    "func.return"(%arg0) : (tensor<3xi32>) -> ()
  }) : () -> ()
}) : () -> ()
"""

PRETTY = """\
module {
  sdy.mesh @mesh = <["x"=2]>
  func.func @main(%arg0: tensor<4x2xf32>, %arg1: tensor<3xi32>) -> (tensor<4x2xf32>, \
tensor<3xi32>) {
    %0 = sdy.sharding_constraint %arg0 <@mesh, [{"x"}, {}]> : tensor<4x2xf32>
    %1 = call @id(%arg1) : (tensor<3xi32>) -> tensor<3xi32>
    return %0, %1 : tensor<4x2xf32>, tensor<3xi32>
  }
  func.func private @id(%arg0: tensor<3xi32>) -> tensor<3xi32> {
    return %arg0 : tensor<3xi32>
  }
}
"""


@pytest.fixture
def program(tmp_path: Path) -> Path:
    path = tmp_path / "program.mlir"
    path.write_text(GENERIC)
    return path


def test_fmt_prints_pretty_and_generic(program, capsys):
    assert main(["fmt", str(program)]) == 0
    assert capsys.readouterr().out == PRETTY
    assert main(["fmt", "--generic", str(program)]) == 0
    assert capsys.readouterr().out == GENERIC


def test_texts_are_what_mlir_prints():
    pytest.importorskip("jax")
    from shardonnay.testing.mlir_oracle import jaxlib_asm

    assert jaxlib_asm(PRETTY) == PRETTY
    assert jaxlib_asm(PRETTY, generic=True) == GENERIC


def test_fmt_reads_stdin(monkeypatch, capsys):
    monkeypatch.setattr(sys, "stdin", io.StringIO(PRETTY))
    assert main(["fmt", "-"]) == 0
    assert capsys.readouterr().out == PRETTY


def test_fmt_split_input_file(tmp_path, capsys):
    second = 'func.func @f() {\n  "foo.op"() : () -> ()\n  return\n}\n'
    path = tmp_path / "two.mlir"
    path.write_text(PRETTY + "\n// -----\n\n" + second)
    assert main(["fmt", "--split-input-file", str(path)]) == 0
    out = capsys.readouterr().out
    first, rest = out.split("// -----\n")
    assert first == PRETTY
    assert rest == 'module {\n  func.func @f() {\n    "foo.op"() : () -> ()\n    return\n  }\n}\n'


def test_fmt_errors_point_at_the_file_line_and_column(tmp_path, capsys):
    path = tmp_path / "bad.mlir"
    path.write_text(PRETTY.replace("call @id(%arg1)", "call @id(%arg7)"))
    assert main(["fmt", str(path)]) == 1
    err = capsys.readouterr().err
    assert err.startswith(f"error: {path}:5:") and "%arg7" in err and "Traceback" not in err
    path.write_text(PRETTY + "\n// -----\nfunc.func @g( {\n")
    assert main(["fmt", "--split-input-file", str(path)]) == 1
    assert (
        f"{path}:14:15: expected a type" in capsys.readouterr().err
    )  # lines count from the file's start


def test_fmt_verify_reports_invalid_programs(tmp_path, capsys):
    path = tmp_path / "invalid.mlir"
    path.write_text(PRETTY.replace('<@mesh, [{"x"}, {}]>', '<@mesh, [{"y"}, {}]>'))
    assert main(["fmt", str(path)]) == 0  # well-formed text
    capsys.readouterr()
    assert main(["fmt", "--verify", str(path)]) == 1
    err = capsys.readouterr().err
    assert "in @main, op 0 (sdy.sharding_constraint)" in err and 'unknown axis name: "y"' in err


def _expected_table(seed: int) -> list[list[str]]:
    module = parse_module(GENERIC)
    outputs = run(module, *random_inputs(module, seed=seed))
    rows = []
    for i, out in enumerate(outputs):
        digest = hashlib.sha256(np.ascontiguousarray(out).tobytes()).hexdigest()[:12]
        rows.append([str(i), str(out.shape).replace(" ", ""), str(out.dtype), digest])
    return rows


def _table(out: str) -> list[list[str]]:
    lines = out.strip().splitlines()
    assert lines[0].split() == ["output", "shape", "dtype", "sum", "sha256"]
    rows = []
    for line in lines[1:]:
        index, rest = line.split("  ", 1)
        shape = rest[rest.index("(") : rest.index(")") + 1]
        dtype, total, digest = rest[rest.index(")") + 1 :].split()
        rows.append([index, shape.replace(" ", ""), dtype, digest, total])
    return rows


def test_run_prints_shape_dtype_sum_and_hash(program, capsys):
    assert main(["run", str(program), "--seed", "3"]) == 0
    rows = _table(capsys.readouterr().out)
    assert [r[:4] for r in rows] == _expected_table(3)
    module = parse_module(GENERIC)
    x, n = random_inputs(module, seed=3)
    assert rows[0][1:3] == ["(4,2)", "float32"]
    assert float(rows[0][4]) == pytest.approx(float(x.sum(dtype=np.float64)), rel=1e-6)
    assert int(rows[1][4]) == int(n.sum())
    assert main(["run", str(program), "--seed", "4"]) == 0
    assert _table(capsys.readouterr().out)[0][3] != rows[0][3]  # other inputs, other hash


def test_run_another_function(program, capsys):
    assert main(["run", str(program), "--seed", "0", "--func", "id"]) == 0
    rows = _table(capsys.readouterr().out)
    assert [r[:3] for r in rows] == [["0", "(3,)", "int32"]]


@pytest.mark.parametrize(
    "args, message",
    [
        (["--func", "nope"], "no function @nope in the module (functions: @main, @id)"),
        (["--seed", "1", "--func", "missing"], "no function @missing"),
    ],
)
def test_run_errors(program, args, message, capsys):
    assert main(["run", str(program), *args]) == 1
    err = capsys.readouterr().err
    assert err.startswith("error: ") and message in err and "Traceback" not in err


def test_run_of_an_op_without_semantics_is_an_error(tmp_path, capsys):
    path = tmp_path / "unknown.mlir"
    path.write_text(
        "func.func @main(%arg0: tensor<2xf32>) -> tensor<2xf32> {\n"
        '  %0 = "foo.mystery"(%arg0) : (tensor<2xf32>) -> tensor<2xf32>\n'
        "  return %0 : tensor<2xf32>\n}\n"
    )
    assert main(["run", str(path)]) == 1
    assert "foo.mystery" in capsys.readouterr().err


def test_missing_file(capsys):
    assert main(["fmt", "no/such/program.mlir"]) == 1
    assert "No such file" in capsys.readouterr().err


def test_installed_console_script(program):
    script = Path(sys.executable).parent / "shardonnay"
    if not script.exists():
        pytest.skip("the shardonnay console script is not installed in this environment")
    done = subprocess.run([str(script), "fmt", "-"], input=GENERIC, capture_output=True, text=True)
    assert done.returncode == 0 and done.stdout == PRETTY
    done = subprocess.run(
        [str(script), "run", str(program), "--seed", "3"], capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    assert [r[:4] for r in _table(done.stdout)] == _expected_table(3)
    bad = subprocess.run([str(script), "fmt", "-"], input=b"func.func @(", capture_output=True)
    assert bad.returncode == 1 and bad.stderr.startswith(b"error: <stdin>:1:")
