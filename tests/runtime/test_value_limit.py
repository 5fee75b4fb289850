"""A program with a value too big to hold is refused before anything is allocated."""

from __future__ import annotations

import numpy as np
import pytest

import shardonnay
from shardonnay.cli import main
from shardonnay.errors import ShardonnayError
from shardonnay.runtime.interpreter import random_inputs, run
from shardonnay.runtime.value_limit import (
    DEFAULT_MAX_ELEMENTS,
    ENVIRONMENT_VARIABLE,
    check_value_sizes,
    element_limit,
)

HUGE_RESULT = """
sdy.mesh @mesh = <["x"=2]>
func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.constant dense<1.0> : tensor<65536x65536xf32>
  return %arg0 : tensor<4xf32>
}
"""

HUGE_ARGUMENT = """
sdy.mesh @mesh = <["x"=2]>
func.func @main(%arg0: tensor<100000x65536xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>})
    -> tensor<100000x65536xf32> {
  %0 = stablehlo.negate %arg0 : tensor<100000x65536xf32>
  return %0 : tensor<100000x65536xf32>
}
"""


def test_a_huge_op_result_is_named_before_the_run() -> None:
    module = shardonnay.parse_module(HUGE_RESULT)
    with pytest.raises(ShardonnayError, match=r"result 0 of stablehlo.constant in @main"):
        run(module, np.zeros(4, np.float32))


def test_random_inputs_check_and_simulate_refuse_a_huge_argument() -> None:
    module = shardonnay.parse_module(HUGE_ARGUMENT)
    with pytest.raises(ShardonnayError, match=r"argument 0 of @main .* 6553600000 elements"):
        random_inputs(module)
    with pytest.raises(ShardonnayError, match="a value may have when the program runs"):
        shardonnay.check(module)
    local = shardonnay.partition(module)  # partitioning needs no arrays
    with pytest.raises(ShardonnayError, match="argument 0 of @main"):
        shardonnay.simulate(local)


def test_the_limit_is_overridable(monkeypatch: pytest.MonkeyPatch) -> None:
    module = shardonnay.parse_module(HUGE_RESULT)
    check_value_sizes(module, max_elements=2**32)
    monkeypatch.setenv(ENVIRONMENT_VARIABLE, str(2**32))
    assert element_limit() == 2**32
    check_value_sizes(module)
    monkeypatch.setenv(ENVIRONMENT_VARIABLE, "8")
    with pytest.raises(ShardonnayError, match="more than the 8 a value"):
        run(shardonnay.parse_module(HUGE_RESULT.replace("65536x65536", "3x3")), np.zeros(4))


@pytest.mark.parametrize("bad", [0, -1, 1.5, True])
def test_a_limit_that_is_not_a_positive_count_is_an_error(bad: object) -> None:
    with pytest.raises(ShardonnayError, match="not a positive number of elements"):
        element_limit(bad)  # type: ignore[arg-type]


def test_an_unreadable_environment_limit_is_an_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(ENVIRONMENT_VARIABLE, "lots")
    with pytest.raises(ShardonnayError, match="'lots' is not a number of elements"):
        element_limit()


def test_values_under_the_limit_run() -> None:
    assert element_limit() == DEFAULT_MAX_ELEMENTS
    module = shardonnay.parse_module(HUGE_RESULT.replace("65536x65536", "3x3"))
    (out,) = run(module, np.arange(4, dtype=np.float32))
    np.testing.assert_array_equal(out, np.arange(4, dtype=np.float32))


def test_the_command_line_prints_the_error(tmp_path, capsys: pytest.CaptureFixture) -> None:
    path = tmp_path / "huge.mlir"
    path.write_text(HUGE_ARGUMENT)
    assert main(["run", str(path)]) == 1
    err = capsys.readouterr().err
    assert err.startswith("error: argument 0 of @main")
    assert "Traceback" not in err
