"""`--verify-each` of `shardonnay opt` and `shardonnay propagate`: the same
output, the program verified after every pass."""

from __future__ import annotations

import pytest

from shardonnay.cli import main

PROGRAM = """
sdy.mesh @mesh = <["x"=2]>
func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>})
    -> tensor<8xf32> {
  %0 = stablehlo.negate %arg0 : tensor<8xf32>
  return %0 : tensor<8xf32>
}
"""


@pytest.mark.parametrize(
    "argv",
    [
        ["opt", "--pass-pipeline", "builtin.module(sdy-propagation-pipeline)"],
        ["opt", "--pass-pipeline", "builtin.module(sdy-import-pipeline,sdy-export-pipeline)"],
        ["propagate", "--quiet"],
        ["propagate", "--quiet", "--no-pipeline"],
    ],
)
def test_verify_each_prints_the_same_program(tmp_path, capsys, argv):
    path = tmp_path / "program.mlir"
    path.write_text(PROGRAM)
    assert main([*argv, str(path)]) == 0
    plain = capsys.readouterr().out
    assert main([*argv, "--verify-each", str(path)]) == 0
    assert capsys.readouterr().out == plain
    assert "sdy.sharding" in plain
