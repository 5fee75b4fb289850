"""The verifier checks one op per signature of the definitions that verify an
op alone (`VERIFIES_ALONE`): on random programs, and on random programs with
one op's result type or attribute broken, it says what the verifier that
checks every op says (the same error, or none)."""

from __future__ import annotations

import random

import pytest

from shardonnay.errors import IRError
from shardonnay.ir import verifier
from shardonnay.ir.attributes import DenseArrayAttr, IntegerAttr, exact_key
from shardonnay.ir.core import Module
from shardonnay.ir.types import TensorType
from shardonnay.ops.traits import VERIFIES_ALONE, has_trait
from shardonnay.syntax.mlir_reader import parse_module
from shardonnay.testing.program_generator import random_program


def _outcome(module: Module) -> str | None:
    try:
        verifier.verify(module)
    except IRError as e:
        return str(e)
    return None


def _outcome_checking_every_op(module: Module, monkeypatch) -> str | None:
    with monkeypatch.context() as patch:
        patch.setattr(verifier, "_signature", lambda op, definition: None)
        return _outcome(module)


def _break_one_op(module: Module, rng: random.Random) -> None:
    """Gives one op that verifies alone another result type, or another
    integer array, so that it no longer verifies (most often)."""
    ops = [op for op in module.walk() if has_trait(op, VERIFIES_ALONE) and op.results]
    if not ops:
        return
    op = rng.choice(ops)
    arrays = [k for k, v in op.attributes.items() if isinstance(v, DenseArrayAttr)]
    if arrays and rng.random() < 0.5:
        key = rng.choice(arrays)
        values = op.attributes[key].values
        op.attributes[key] = DenseArrayAttr("i64", (*reversed(values), 0))
        return
    t = op.results[0].type
    if isinstance(t, TensorType):
        op.results[0].type = TensorType((*t.shape, 3), t.element_type)


@pytest.mark.parametrize("seed", range(60))
def test_one_op_per_signature_says_what_every_op_says(seed: int, monkeypatch) -> None:
    module = parse_module(random_program(seed, max_ops=25))
    assert _outcome(module) is None
    assert _outcome_checking_every_op(module, monkeypatch) is None
    _break_one_op(module, random.Random(seed))
    assert _outcome(module) == _outcome_checking_every_op(module, monkeypatch)


def test_exact_keys_tell_apart_values_that_print_differently() -> None:
    assert exact_key(1) != exact_key(True)
    assert exact_key(1) != exact_key(1.0)
    assert exact_key(0.0) != exact_key(-0.0)
    assert exact_key(IntegerAttr(1, "i64")) != exact_key(IntegerAttr(True, "i64"))
    assert exact_key(DenseArrayAttr("i64", (1, 2))) == exact_key(DenseArrayAttr("i64", (1, 2)))
    assert exact_key({"a": 1}) != exact_key({"a": True})
