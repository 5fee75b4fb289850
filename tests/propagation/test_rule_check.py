"""The rule soundness checker: every rule we have survives shard-by-shard runs,
and wrong rules are caught."""

from __future__ import annotations

import glob
import os

import numpy as np
import pytest

from shardonnay.errors import ShardonnayError
from shardonnay.ops.rules import RULE_ATTRIBUTE, register_rule, rule_for, unregister_rule
from shardonnay.propagation.checks.rule_check import RuleError, check_rule, reduction_kind
from shardonnay.sharding_rule import OpShardingRule
from shardonnay.syntax.mlir_reader import parse_module

CORPUS = sorted(glob.glob(os.path.join(os.path.dirname(__file__), "..", "corpus", "*.mlir")))
assert CORPUS, "the corpus of tests/corpus is missing"

# Shardy's own rules for these ops let propagation pass a sharding through
# even where the sharded op then needs communication; shard by shard they are
# wrong, and the checker sees it (each is shown by a test below):
KNOWN_UNSOUND = {
    # Operand and result dims that the update only partly covers share a
    # pass-through factor: each shard applies the update at its global offset.
    "stablehlo.dynamic_update_slice": "updated dims are pass-through factors",
    # Input dims that indices address share a pass-through factor with the
    # result: each shard receives updates aimed at global indices.
    "stablehlo.scatter": "indexed input dims are pass-through factors",
    # When a spatial dim has fewer windows than the window size, its window
    # factor is a reduction factor; with padding, each shard pads its own
    # edges and the halos are missing.
    "stablehlo.convolution": "padded spatial dims need halo exchange",
}


def checkable_ops(module):
    """The ops of `module` that have a rule and whose whole-tensor run works."""
    for op in module.walk():
        if rule_for(op) is not None:
            yield op


def check_all(module, *, trials: int, seed: int = 0) -> list[str]:
    """Checks every op with a rule; returns the names of the ops checked."""
    checked = []
    for op in checkable_ops(module):
        if op.name in KNOWN_UNSOUND:
            continue
        try:
            check_rule(op, seed=seed, trials=trials, module=module)
        except RuleError:
            raise
        except ShardonnayError as e:  # the interpreter cannot run the op alone
            if "exchanges data between devices" in str(e):
                continue
            raise
        checked.append(op.name)
    return checked


@pytest.mark.parametrize("path", CORPUS, ids=[os.path.basename(p) for p in CORPUS])
def test_corpus_rules_are_sound(path):
    with open(path) as f:
        module = parse_module(f.read())
    check_all(module, trials=6)


def test_corpus_covers_the_main_ops():
    names = set()
    for path in CORPUS:
        with open(path) as f:
            names.update(check_all(parse_module(f.read()), trials=1))
    for name in (
        "stablehlo.dot_general",
        "stablehlo.reduce",
        "stablehlo.reshape",
        "stablehlo.transpose",
        "stablehlo.broadcast_in_dim",
        "stablehlo.gather",
        "stablehlo.slice",
    ):
        assert name in names


def _lowered(f, *args) -> str:
    import jax

    return jax.jit(f).lower(*args).as_text()


def _jax_programs():
    jnp = pytest.importorskip("jax.numpy")
    lax = pytest.importorskip("jax.lax")
    f32 = np.float32
    x = np.ones((4, 6, 8), f32)
    m = np.ones((6, 8), f32)
    i32 = np.ones((4, 6), np.int32)
    return [
        (lambda a, b: jnp.einsum("bij,jk->bik", a, b), (x, np.ones((8, 4), f32))),
        (lambda a, b: jnp.einsum("bij,bjk->bik", a, b), (x, np.ones((4, 8, 2), f32))),
        (lambda a, b: jnp.einsum("bij,bij->b", a, b), (x, x)),
        (lambda a: a.sum(axis=(0, 2)), (x,)),
        (lambda a: a.max(axis=1), (x,)),
        (lambda a: a.min(axis=(0, 1)), (x,)),
        (lambda a: a.sum(axis=1), (i32,)),
        (lambda a: jnp.argmax(a, axis=1), (x,)),
        (lambda a: a.transpose(2, 0, 1), (x,)),
        (lambda a: a.reshape(24, 8), (x,)),
        (lambda a: a.reshape(4, 2, 3, 8), (x,)),
        (lambda a: a.reshape(2, 12, 8), (x,)),
        (lambda a: a.reshape(8, 24), (x,)),
        (lambda a: jnp.broadcast_to(a, (4, 6, 8)), (m,)),
        (lambda a: jnp.sort(a, axis=1), (x,)),
        (lambda a: a[:, 1:5, ::2], (x,)),
        (lambda a: jnp.concatenate([a, a], axis=1), (x,)),
        (lambda a: jnp.pad(a, ((0, 0), (1, 2), (0, 0))), (x,)),
        (lambda a: jnp.cumsum(a, axis=1), (x,)),
        (lambda a: lax.dynamic_slice(a, (1, 2, 0), (2, 3, 8)), (x,)),
        (lambda a, i: a[i], (m, np.array([3, 1, 0], np.int32))),
        (lambda a: jnp.tanh(a) * 2 + jnp.exp(a), (x,)),
        (lambda a: jnp.where(a > 0, a, -a), (x,)),
        (lambda a: a.astype(np.int32) >> 1, (x,)),
    ]


@pytest.mark.parametrize("index", range(24))
def test_rules_of_jax_programs_are_sound(index):
    pytest.importorskip("jax")
    f, args = _jax_programs()[index]
    module = parse_module(_lowered(f, *args))
    assert check_all(module, trials=8, seed=index)


# -- wrong rules are caught ------------------------------------------------------------------


TRANSPOSE = """func.func @main(%arg0: tensor<4x4xf32>) -> tensor<4x4xf32> {
  %0 = stablehlo.transpose %arg0, dims = [1, 0] : (tensor<4x4xf32>) -> tensor<4x4xf32>
  return %0 : tensor<4x4xf32>
}"""

REDUCE = """func.func @main(%arg0: tensor<4x8xf32>) -> tensor<4xf32> {
  %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.add across dimensions = [1]
      : (tensor<4x8xf32>, tensor<f32>) -> tensor<4xf32>
  return %0 : tensor<4xf32>
}"""


def _op(text: str, name: str):
    module = parse_module(text)
    return next(op for op in module.walk() if op.name == name)


def test_registered_wrong_transpose_rule_is_caught():
    op = _op(TRANSPOSE, "stablehlo.transpose")
    check_rule(op)  # Shardy's rule: ([i, j])->([j, i])
    register_rule("stablehlo.transpose")(
        lambda op: OpShardingRule.parse("#sdy.op_sharding_rule<([i, j])->([i, j]) {i=4, j=4}>")
    )
    try:
        with pytest.raises(RuleError, match="stablehlo.transpose with rule"):
            check_rule(op)
    finally:
        unregister_rule("stablehlo.transpose")
    check_rule(op)


def test_wrong_reduce_rule_written_on_the_op_is_caught():
    op = _op(REDUCE, "stablehlo.reduce")
    assert reduction_kind(op) == "sum"
    check_rule(op)
    # the reduced dim as a pass-through factor: devices holding different
    # columns claim to hold the same (replicated) result
    op.attributes[RULE_ATTRIBUTE] = OpShardingRule.parse(
        "#sdy.op_sharding_rule<([i, j], [])->([i]) {i=4, j=8}>"
    )
    with pytest.raises(RuleError, match="replicas disagree"):
        check_rule(op)


def test_wrong_dot_rule_is_caught():
    text = """func.func @main(%a: tensor<4x6xf32>, %b: tensor<6x6xf32>) -> tensor<4x6xf32> {
  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0]
      : (tensor<4x6xf32>, tensor<6x6xf32>) -> tensor<4x6xf32>
  return %0 : tensor<4x6xf32>
}"""
    op = _op(text, "stablehlo.dot_general")
    check_rule(op)
    # contracting and output dims swapped on the rhs
    op.attributes[RULE_ATTRIBUTE] = OpShardingRule.parse(
        "#sdy.op_sharding_rule<([i, k], [j, k])->([i, j]) {i=4, j=6, k=6} reduction={k}>"
    )
    with pytest.raises(RuleError):
        check_rule(op)


def test_no_rule_is_an_error():
    op = _op(REDUCE, "stablehlo.constant")
    with pytest.raises(RuleError, match="no sharding rule"):
        check_rule(op)


# -- Shardy's known-unsound rules ------------------------------------------------------------


def test_known_unsound_rules_are_seen():
    pytest.importorskip("jax")
    import jax
    from jax import lax

    x = np.ones((8, 8), np.float32)
    programs = {
        "stablehlo.dynamic_update_slice": (
            lambda a, u: lax.dynamic_update_slice(a, u, (2, 0)),
            (x, np.ones((2, 8), np.float32)),
        ),
        "stablehlo.scatter": (
            lambda a, u: a.at[np.array([1, 6])].add(u),
            (x, np.ones((2, 8), np.float32)),
        ),
        "stablehlo.convolution": (
            lambda a, k: lax.conv_general_dilated(a, k, (2, 2), [(1, 1), (1, 1)]),
            (np.ones((2, 3, 3, 3), np.float32), np.ones((4, 3, 3, 3), np.float32)),
        ),
    }
    assert set(programs) == set(KNOWN_UNSOUND)
    for name, (f, args) in programs.items():
        module = parse_module(jax.jit(f).lower(*args).as_text())
        op = next(op for op in module.walk() if op.name == name)
        with pytest.raises(RuleError):
            check_rule(op, trials=40, module=module)
