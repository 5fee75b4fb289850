"""Propagation verifies its input once, copies it once, and can verify after
every step (`verify_each`, as `mlir-opt --verify-each`)."""

from __future__ import annotations

import pytest

from shardonnay import pipeline
from shardonnay.errors import IRError
from shardonnay.ir.core import Module
from shardonnay.passes import PASSES, RegisteredPass, run_pipeline
from shardonnay.syntax.mlir_reader import parse_module

PROGRAM = """
sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @main(%arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
                %arg1: tensor<4x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>})
    -> tensor<8x4xf32> {
  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0]
      : (tensor<8x4xf32>, tensor<4x4xf32>) -> tensor<8x4xf32>
  %1 = stablehlo.negate %0 : tensor<8x4xf32>
  %2 = sdy.sharding_constraint %1 <@mesh, [{}, {"x"}]> : tensor<8x4xf32>
  return %2 : tensor<8x4xf32>
}
"""
PIPELINE = "builtin.module(sdy-propagation-pipeline)"


def _break_return_type(module: Module) -> None:
    """Makes @main return a value of another type than its signature's."""
    main = module.function("main")
    main.return_op.set_operand(0, main.arguments[1])


def test_the_argument_is_left_as_it_was():
    module = parse_module(PROGRAM)
    before = module.to_text()
    out = run_pipeline(module, PIPELINE)
    assert module.to_text() == before
    assert pipeline.propagation_pipeline(module).to_text() == out.to_text()
    assert module.to_text() == before


def test_in_place_transforms_the_module_itself():
    module = parse_module(PROGRAM)
    expected = pipeline.propagation_pipeline(module).to_text()
    pipeline.propagation_pipeline_in_place(module)
    assert module.to_text() == expected


def test_verify_each_gives_the_same_result():
    module = parse_module(PROGRAM)
    expected = run_pipeline(module, PIPELINE).to_text()
    assert run_pipeline(module, PIPELINE, verify_each=True).to_text() == expected
    both = "builtin.module(sdy-import-pipeline,sdy-export-pipeline)"
    assert (
        run_pipeline(module, both, verify_each=True).to_text()
        == run_pipeline(module, both).to_text()
    )


def test_verify_each_names_the_pipeline_step_that_broke_the_module(monkeypatch):
    steps = (*pipeline._IMPORT_STEPS, ("break-the-return", _break_return_type))
    monkeypatch.setattr(pipeline, "_IMPORT_STEPS", steps)
    with pytest.raises(IRError, match=r"after break-the-return: in @main, op \d+ \(func\.return\)"):
        pipeline.propagation_pipeline(parse_module(PROGRAM), verify_each=True)


def test_verify_each_names_the_pass_that_broke_the_module(monkeypatch):
    def broken(module: Module, options: dict[str, str]) -> Module:
        _break_return_type(module)
        return module

    monkeypatch.setitem(PASSES, "symbol-dce", RegisteredPass("symbol-dce", broken))  # type: ignore[index]
    module = parse_module(PROGRAM)
    run_pipeline(module, "builtin.module(symbol-dce)")  # not verified: no error
    with pytest.raises(IRError, match=r"after symbol-dce: in @main"):
        run_pipeline(module, "builtin.module(symbol-dce)", verify_each=True)


def test_invalid_input_is_rejected_once_on_entry():
    module = parse_module(PROGRAM)
    _break_return_type(module)
    with pytest.raises(IRError, match=r"in @main, op \d+ \(func\.return\)"):
        pipeline.propagation_pipeline(module)
