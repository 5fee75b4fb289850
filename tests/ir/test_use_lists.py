"""The verifier's use-list check: counted first, searched only when the counts disagree."""

from __future__ import annotations

import pytest

from shardonnay.errors import IRError
from shardonnay.ir.core import Use
from shardonnay.ir.verifier import verify
from shardonnay.syntax.mlir_reader import parse_module

TWO_USERS = """
func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = stablehlo.negate %arg0 : tensor<4xf32>
  %1 = stablehlo.add %0, %arg0 : tensor<4xf32>
  return %1 : tensor<4xf32>
}
"""


def test_a_well_formed_module_passes():
    verify(parse_module(TWO_USERS))


def test_a_use_listed_twice_does_not_stand_for_an_operand_it_misses():
    module = parse_module(TWO_USERS)
    arg = module.function("main").arguments[0]
    negate = arg.uses[0].owner
    arg.uses[:] = [Use(negate, 0), Use(negate, 0)]  # as many uses as operands, one missing
    with pytest.raises(IRError, match="misses operand 1 of stablehlo.add"):
        verify(module)


def test_a_use_of_the_same_operand_listed_again_is_tolerated():
    module = parse_module(TWO_USERS)
    arg = module.function("main").arguments[0]
    arg.uses.append(Use(arg.uses[0].owner, 0))
    verify(module)


def test_a_use_naming_another_value_is_reported():
    module = parse_module(TWO_USERS)
    negated = module.function("main").body.ops[0].results[0]
    add = negated.uses[0].owner
    negated.uses.append(Use(add, 1))  # operand 1 of the add is %arg0
    with pytest.raises(IRError, match="names operand 1 of stablehlo.add, which is another value"):
        verify(module)
