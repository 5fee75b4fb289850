"""Sharding rules of elementwise, constant, shape and chlo ops, against Shardy.

Each test writes modules with varied ranks, sizes and attributes and checks,
op by op, that our rule prints exactly as Shardy's
`sdy-populate-op-sharding-rules` writes it, and that the ops Shardy leaves
without a rule (constants, iota, get_dimension_size, chlo ops, empty
reshapes) get none from us either.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence

import pytest

pytest.importorskip("jax")

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shardonnay import OpShardingRule, parse_module
from shardonnay.ops.chlo import ElementwiseOp as ChloElementwiseOp
from shardonnay.ops.registry import lookup, registered_names
from shardonnay.ops.rules import rule_for
from shardonnay.testing.shardy_rules import assert_rules_match_shardy, our_rules
from shardonnay.testing.strategies import shapes, tensor_type

pytestmark = pytest.mark.oracle

SETTINGS = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])

UNARY_FLOAT = [
    "abs",
    "ceil",
    "cbrt",
    "cosine",
    "exponential",
    "exponential_minus_one",
    "floor",
    "log",
    "log_plus_one",
    "logistic",
    "negate",
    "round_nearest_afz",
    "round_nearest_even",
    "rsqrt",
    "sign",
    "sine",
    "sqrt",
    "tan",
    "tanh",
]
UNARY_INT = ["not", "popcnt", "count_leading_zeros"]
# Every unary elementwise chlo op shardonnay defines (`chlo.square`, `chlo.erf`, ...).
CHLO_UNARY = [
    name.removeprefix("chlo.")
    for name in registered_names()
    if isinstance(lookup(name), ChloElementwiseOp) and lookup(name).arity == 1
]
BINARY_FLOAT = [
    "add",
    "subtract",
    "multiply",
    "divide",
    "remainder",
    "maximum",
    "minimum",
    "power",
    "atan2",
]
BINARY_INT = ["and", "or", "xor", "shift_left", "shift_right_arithmetic", "shift_right_logical"]


def func(args: Sequence[str], lines: Sequence[str], results: Sequence[tuple[str, str]]) -> str:
    """A module with `func.func @main(args) -> results` whose body is `lines`."""
    params = ", ".join(f"%arg{i}: {t}" for i, t in enumerate(args))
    names = ", ".join(v for v, _ in results)
    types = ", ".join(t for _, t in results)
    body = "\n".join(f"    {line}" for line in lines)
    return f"func.func @main({params}) -> ({types}) {{\n{body}\n    return {names} : {types}\n}}"


def rules_of(text: str) -> list[str]:
    return [rule for _, rule in our_rules(text)]


# -- elementwise ------------------------------------------------------------------------------


@SETTINGS
@given(shapes(max_rank=4))
def test_elementwise_ops_are_pointwise(shape: tuple[int, ...]) -> None:
    f, i, b = tensor_type(shape), tensor_type(shape, "i32"), tensor_type(shape, "i1")
    c = tensor_type(shape, "complex<f32>")
    lines = [f'%f{n} = "stablehlo.{n}"(%arg0) : ({f}) -> {f}' for n in UNARY_FLOAT]
    lines += [f'%i{n} = "stablehlo.{n}"(%arg1) : ({i}) -> {i}' for n in UNARY_INT]
    lines += [f'%g{n} = "stablehlo.{n}"(%arg0, %arg0) : ({f}, {f}) -> {f}' for n in BINARY_FLOAT]
    lines += [f'%j{n} = "stablehlo.{n}"(%arg1, %arg1) : ({i}, {i}) -> {i}' for n in BINARY_INT]
    lines += [
        f"%fin = stablehlo.is_finite %arg0 : ({f}) -> {b}",
        f"%cvt = stablehlo.convert %arg1 : ({i}) -> {f}",
        f"%bc = stablehlo.bitcast_convert %arg0 : ({f}) -> {i}",
        f"%cplx = stablehlo.complex %arg0, %arg0 : {c}",
        f"%re = stablehlo.real %cplx : ({c}) -> {f}",
        f"%im = stablehlo.imag %cplx : ({c}) -> {f}",
        f"%abs = stablehlo.abs %cplx : ({c}) -> {f}",
        f"%lt = stablehlo.compare LT, %arg0, %arg0, FLOAT : ({f}, {f}) -> {b}",
        f"%eq = stablehlo.compare EQ, %arg1, %arg1 : ({i}, {i}) -> {b}",
        f"%sel = stablehlo.select %lt, %arg0, %arg0 : {b}, {f}",
        f"%clamp = stablehlo.clamp %arg0, %arg0, %arg0 : {f}",
    ]
    text = func([f, i], lines, [("%sel", f)])
    assert_rules_match_shardy(text)
    factors = ", ".join("ijklmnop"[d] for d in range(len(shape)))
    sizes = ", ".join(f"{'ijklmnop'[d]}={n}" for d, n in enumerate(shape))
    expected = f"([{factors}], [{factors}])->([{factors}])"
    if sizes:
        expected += f" {{{sizes}}}"
    assert f"#sdy.op_sharding_rule<{expected}>" in rules_of(text)


@SETTINGS
@given(shapes(max_rank=4), st.booleans(), st.booleans(), st.booleans())
def test_select_and_clamp_with_scalar_operands(
    shape: tuple[int, ...], scalar_pred: bool, scalar_low: bool, scalar_high: bool
) -> None:
    f = tensor_type(shape)
    pred = tensor_type(() if scalar_pred else shape, "i1")
    low = tensor_type(()) if scalar_low else f
    high = tensor_type(()) if scalar_high else f
    lines = [
        f"%0 = stablehlo.select %arg0, %arg1, %arg1 : {pred}, {f}",
        f"%1 = stablehlo.clamp %arg2, %0, %arg3 : ({low}, {f}, {high}) -> {f}",
    ]
    text = func([pred, f, low, high], lines, [("%1", f)])
    assert_rules_match_shardy(text)
    if shape and scalar_pred:
        assert rules_of(text)[0].startswith("#sdy.op_sharding_rule<([], [i")


BITCASTS = [
    ("f32", "i8", 4),
    ("f32", "i16", 2),
    ("f64", "f32", 2),
    ("f64", "i8", 8),
    ("i16", "i8", 2),
    ("f32", "i32", 1),
    ("bf16", "i16", 1),
]


@SETTINGS
@given(shapes(max_rank=3), st.sampled_from(BITCASTS), st.booleans())
def test_bitcast_convert_changing_width(
    shape: tuple[int, ...], bitcast: tuple[str, str, int], narrowing: bool
) -> None:
    wide, narrow, ratio = bitcast
    wide_type = tensor_type(shape, wide)
    narrow_type = tensor_type(shape + ((ratio,) if ratio > 1 else ()), narrow)
    source, target = (wide_type, narrow_type) if narrowing else (narrow_type, wide_type)
    text = func(
        [source],
        [f"%0 = stablehlo.bitcast_convert %arg0 : ({source}) -> {target}"],
        [("%0", target)],
    )
    assert_rules_match_shardy(text)
    if ratio > 1:
        assert "need_replication" in rules_of(text)[0]


# -- ops without rules ------------------------------------------------------------------------


@SETTINGS
@given(shapes(max_rank=3).filter(lambda s: len(s) > 0 and all(s)))
def test_ops_without_rules(shape: tuple[int, ...]) -> None:
    f = tensor_type(shape)
    k = min(shape[-1], 2)
    top = (*shape[:-1], k)
    lines = [
        f"%c = stablehlo.constant dense<1.0> : {f}",
        f"%io = stablehlo.iota dim = {len(shape) - 1} : {f}",
        f"%gds = stablehlo.get_dimension_size %arg0, dim = 0 : ({f}) -> tensor<i32>",
        *(f"%{n} = chlo.{n} %arg0 : {f} -> {f}" for n in CHLO_UNARY),
        f"%na = chlo.next_after %arg0, %arg0 : {f}, {f} -> {f}",
        f"%tk:2 = chlo.top_k(%arg0, k = {k}) : {f} -> "
        f"({tensor_type(top)}, {tensor_type(top, 'i32')})",
        "%empty = stablehlo.reshape %arg1 : (tensor<0x6xf32>) -> tensor<3x0x2xf32>",
    ]
    text = func([f, "tensor<0x6xf32>"], lines, [("%c", f)])
    assert_rules_match_shardy(text)
    assert rules_of(text) == []


# -- broadcast_in_dim ---------------------------------------------------------------------------


@st.composite
def broadcasts(draw: st.DrawFn) -> tuple[tuple[int, ...], tuple[int, ...], list[int]]:
    """(operand shape, result shape, broadcast_dimensions), operand dims of
    size 1 sometimes expanded."""
    out_shape = draw(shapes(max_rank=4))
    rank = draw(st.integers(0, len(out_shape)))
    dims = sorted(draw(st.permutations(range(len(out_shape))))[:rank])
    if draw(st.booleans()):
        dims = draw(st.permutations(dims))
    in_shape = tuple(1 if draw(st.booleans()) else out_shape[d] for d in dims)
    return in_shape, out_shape, list(dims)


@SETTINGS
@given(broadcasts())
def test_broadcast_in_dim(case: tuple[tuple[int, ...], tuple[int, ...], list[int]]) -> None:
    in_shape, out_shape, dims = case
    x, y = tensor_type(in_shape), tensor_type(out_shape)
    line = f"%0 = stablehlo.broadcast_in_dim %arg0, dims = {dims} : ({x}) -> {y}"
    assert_rules_match_shardy(func([x], [line], [("%0", y)]))


def test_broadcast_expanded_dim_gets_its_own_size_one_factor() -> None:
    line = (
        "%0 = stablehlo.broadcast_in_dim %arg0, dims = [2, 0] "
        ": (tensor<1x4xf32>) -> tensor<4x3x5xf32>"
    )
    text = func(["tensor<1x4xf32>"], [line], [("%0", "tensor<4x3x5xf32>")])
    assert rules_of(text) == ["#sdy.op_sharding_rule<([k, i])->([i, j, l]) {i=4, j=3, k=1, l=5}>"]
    assert_rules_match_shardy(text)


# -- reshape ------------------------------------------------------------------------------------


@st.composite
def reshapes(draw: st.DrawFn) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Two shapes with the same number of elements: one multiset of prime
    factors grouped into dims twice, independently, with size-1 dims."""
    primes = draw(st.lists(st.sampled_from([2, 2, 2, 3, 3, 5, 7]), max_size=7))

    def group() -> tuple[int, ...]:
        order = draw(st.permutations(primes))
        cuts = sorted(draw(st.sets(st.integers(1, max(len(order) - 1, 1)), max_size=4)))
        dims = [
            math.prod(order[a:b]) for a, b in itertools.pairwise([0, *cuts, len(order)]) if b > a
        ]
        for _ in range(draw(st.integers(0, 2))):
            dims.insert(draw(st.integers(0, len(dims))), 1)
        return tuple(dims)

    return group(), group()


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(reshapes())
def test_reshape(case: tuple[tuple[int, ...], tuple[int, ...]]) -> None:
    x, y = (tensor_type(s) for s in case)
    assert_rules_match_shardy(
        func([x], [f"%0 = stablehlo.reshape %arg0 : ({x}) -> {y}"], [("%0", y)])
    )


RESHAPE_EXAMPLES = [
    ((8,), (2, 4), "([ij])->([i, j]) {i=2, j=4}"),
    ((2, 4), (8,), "([i, j])->([ij]) {i=2, j=4}"),
    ((4, 6), (6, 4), "([ij, ln])->([ik, mn]) {i=2, j=2, k=3, l=3, m=2, n=2}"),
    ((7, 5), (5, 7), "([i, l])->([j, k]) {i=7, j=5, k=7, l=5}"),
    ((), (1, 1), "([])->([i, j]) {i=1, j=1}"),
    ((1,), (), "([i])->([]) {i=1}"),
    ((3, 1, 4), (12,), "([i, j, k])->([ik]) {i=3, j=1, k=4}"),
    ((6,), (2, 1, 3), "([ik])->([i, j, k]) {i=2, j=1, k=3}"),
]


@pytest.mark.parametrize(("source", "target", "rule"), RESHAPE_EXAMPLES)
def test_reshape_examples(source: tuple[int, ...], target: tuple[int, ...], rule: str) -> None:
    x, y = tensor_type(source), tensor_type(target)
    text = func([x], [f"%0 = stablehlo.reshape %arg0 : ({x}) -> {y}"], [("%0", y)])
    assert rules_of(text) == [f"#sdy.op_sharding_rule<{rule}>"]
    assert_rules_match_shardy(text)


# -- transpose, concatenate, reverse, pad -------------------------------------------------------


@SETTINGS
@given(shapes(max_rank=4).flatmap(lambda s: st.tuples(st.just(s), st.permutations(range(len(s))))))
def test_transpose(case: tuple[tuple[int, ...], list[int]]) -> None:
    shape, perm = case
    x, y = tensor_type(shape), tensor_type([shape[d] for d in perm])
    line = f"%0 = stablehlo.transpose %arg0, dims = {list(perm)} : ({x}) -> {y}"
    assert_rules_match_shardy(func([x], [line], [("%0", y)]))


@st.composite
def concatenations(draw: st.DrawFn) -> tuple[list[tuple[int, ...]], int]:
    shape = draw(shapes(max_rank=3).filter(len))
    dim = draw(st.integers(0, len(shape) - 1))
    sizes = draw(st.lists(st.integers(0, 5), min_size=1, max_size=4))
    return [(*shape[:dim], n, *shape[dim + 1 :]) for n in sizes], dim


@SETTINGS
@given(concatenations())
def test_concatenate(case: tuple[list[tuple[int, ...]], int]) -> None:
    operands, dim = case
    out = list(operands[0])
    out[dim] = sum(s[dim] for s in operands)
    types = [tensor_type(s) for s in operands]
    names = ", ".join(f"%arg{i}" for i in range(len(operands)))
    y = tensor_type(out)
    line = f"%0 = stablehlo.concatenate {names}, dim = {dim} : ({', '.join(types)}) -> {y}"
    text = func(types, [line], [("%0", y)])
    assert_rules_match_shardy(text)
    assert "need_replication={" in rules_of(text)[0]


# Operands of a concatenate: `a`, `b` (arguments) or slices of them (`sa`, `sb`,
# and `ssa`, a slice of `sa`). Shardy makes the concatenated dim a permutation
# factor when the concatenation only reassembles slices of its other operands.
CONCAT_OF_SLICES = {
    ("sa", "sb"): "permutation",
    ("a", "sa"): "permutation",
    ("sa", "a", "a"): "permutation",
    ("sa", "sa"): "permutation",
    ("a", "sb"): "need_replication",
    ("ssa", "sa", "a"): "need_replication",
    ("a", "a"): "need_replication",
    ("a", "b"): "need_replication",
}


@pytest.mark.parametrize("operands", list(CONCAT_OF_SLICES), ids="-".join)
def test_concatenate_of_slices_is_a_permutation(operands: tuple[str, ...]) -> None:
    t = tensor_type((4, 8))
    y = tensor_type((4, 8 * len(operands)))
    names = {"a": "%arg0", "b": "%arg1", "sa": "%sa", "sb": "%sb", "ssa": "%ssa"}
    lines = [
        f"%sa = stablehlo.slice %arg0 [0:4, 0:8] : ({t}) -> {t}",
        f"%sb = stablehlo.slice %arg1 [0:4, 0:8] : ({t}) -> {t}",
        f"%ssa = stablehlo.slice %sa [0:4, 0:8] : ({t}) -> {t}",
        f"%0 = stablehlo.concatenate {', '.join(names[o] for o in operands)}, dim = 1 "
        f": ({', '.join([t] * len(operands))}) -> {y}",
    ]
    text = func([t, t], lines, [("%0", y)])
    assert_rules_match_shardy(text)
    assert f"{CONCAT_OF_SLICES[operands]}={{" in rules_of(text)[-1]


@SETTINGS
@given(
    shapes(max_rank=4).flatmap(
        lambda s: st.tuples(
            st.just(s), st.sets(st.sampled_from(range(len(s)))) if s else st.just(set())
        )
    )
)
def test_reverse(case: tuple[tuple[int, ...], set[int]]) -> None:
    shape, dims = case
    x = tensor_type(shape)
    line = f"%0 = stablehlo.reverse %arg0, dims = {sorted(dims)} : {x}"
    text = func([x], [line], [("%0", x)])
    assert_rules_match_shardy(text)
    assert ("permutation" in rules_of(text)[0]) == bool(dims)


@st.composite
def pads(draw: st.DrawFn) -> tuple[tuple[int, ...], list[int], list[int], list[int]]:
    shape = draw(shapes(max_rank=3))
    low, high, interior = [], [], []
    for n in shape:
        interior.append(draw(st.integers(0, 2)))
        inner = n + max(n - 1, 0) * interior[-1]
        low.append(draw(st.integers(-inner, 3)))
        high.append(draw(st.integers(-(inner + low[-1]), 3)))
    return shape, low, high, interior


@SETTINGS
@given(pads())
def test_pad(case: tuple[tuple[int, ...], list[int], list[int], list[int]]) -> None:
    shape, low, high, interior = case
    out = [
        lo + hi + n + max(n - 1, 0) * it
        for n, lo, hi, it in zip(shape, low, high, interior, strict=True)
    ]
    x, y = tensor_type(shape), tensor_type(out)
    line = (
        f"%0 = stablehlo.pad %arg0, %arg1, low = {low}, high = {high}, interior = {interior} "
        f": ({x}, tensor<f32>) -> {y}"
    )
    text = func([x, "tensor<f32>"], [line], [("%0", y)])
    assert_rules_match_shardy(text)
    changed = {d for d in range(len(shape)) if shape[d] != out[d]}
    assert ("permutation" in rules_of(text)[0]) == bool(changed)


# -- rules are valid ----------------------------------------------------------------------------


def test_rules_validate_against_their_op_shapes() -> None:
    text = func(
        ["tensor<4x6xf32>", "tensor<f32>"],
        [
            "%0 = stablehlo.reshape %arg0 : (tensor<4x6xf32>) -> tensor<3x1x8xf32>",
            "%1 = stablehlo.broadcast_in_dim %0, dims = [0, 1, 3] "
            ": (tensor<3x1x8xf32>) -> tensor<3x5x2x8xf32>",
            "%2 = stablehlo.pad %arg0, %arg1, low = [1, 0], high = [0, 0], interior = [0, 1] "
            ": (tensor<4x6xf32>, tensor<f32>) -> tensor<5x11xf32>",
            "%3 = stablehlo.bitcast_convert %arg0 : (tensor<4x6xf32>) -> tensor<4x6x2xbf16>",
            "%4 = stablehlo.clamp %arg1, %arg0, %arg1 "
            ": (tensor<f32>, tensor<4x6xf32>, tensor<f32>) -> tensor<4x6xf32>",
        ],
        [("%1", "tensor<3x5x2x8xf32>")],
    )
    module = parse_module(text)
    for op in module.walk():
        rule = rule_for(op)
        if rule is None:
            continue
        assert isinstance(rule, OpShardingRule)
        rule.validate([v.type.shape for v in op.operands], [v.type.shape for v in op.results])
        assert OpShardingRule.parse(str(rule)) == rule
    assert_rules_match_shardy(text)


def _one_sided_factors(rule: OpShardingRule) -> set[int]:
    """Factors of size > 1 that only the operand or only the result of a
    reshape has: sharding them needs communication (Shardy leaves that to the
    partitioner), so the checker's communication-free claim does not apply."""
    sides = [{f for dim in m for f in dim} for m in rule.tensor_mappings()]
    shared = set.intersection(*sides)
    return {f for f in set.union(*sides) - shared if rule.factor_sizes[f] > 1}


def test_rules_are_sound() -> None:
    """Where the rule checker exists, it accepts the rules of these ops."""
    rule_check = pytest.importorskip("shardonnay.propagation.checks.rule_check")
    text = func(
        ["tensor<4x6xf32>", "tensor<f32>", "tensor<4x6xi1>"],
        [
            "%0 = stablehlo.reshape %arg0 : (tensor<4x6xf32>) -> tensor<24xf32>",
            "%1 = stablehlo.reshape %arg0 : (tensor<4x6xf32>) -> tensor<2x1x12xf32>",
            "%2 = stablehlo.broadcast_in_dim %1, dims = [1, 2, 0] "
            ": (tensor<2x1x12xf32>) -> tensor<12x2x3x2xf32>",
            "%3 = stablehlo.transpose %arg0, dims = [1, 0] : (tensor<4x6xf32>) -> tensor<6x4xf32>",
            "%4 = stablehlo.concatenate %3, %3, dim = 1 "
            ": (tensor<6x4xf32>, tensor<6x4xf32>) -> tensor<6x8xf32>",
            "%5 = stablehlo.reverse %arg0, dims = [0] : tensor<4x6xf32>",
            "%6 = stablehlo.pad %arg0, %arg1, low = [1, 0], high = [0, -1], interior = [1, 0] "
            ": (tensor<4x6xf32>, tensor<f32>) -> tensor<8x5xf32>",
            "%7 = stablehlo.add %5, %arg0 : tensor<4x6xf32>",
            "%8 = stablehlo.select %arg2, %7, %arg0 : tensor<4x6xi1>, tensor<4x6xf32>",
            "%9 = stablehlo.clamp %arg1, %8, %arg1 "
            ": (tensor<f32>, tensor<4x6xf32>, tensor<f32>) -> tensor<4x6xf32>",
            "%10 = stablehlo.bitcast_convert %9 : (tensor<4x6xf32>) -> tensor<4x6x4xi8>",
            "%11 = stablehlo.compare LT, %9, %arg0 : (tensor<4x6xf32>, tensor<4x6xf32>) "
            "-> tensor<4x6xi1>",
        ],
        [("%10", "tensor<4x6x4xi8>")],
    )
    checked = 0
    for op in parse_module(text).walk():
        if rule_for(op) is None:
            continue
        rule_check.check_rule(op, seed=checked, trials=10)
        checked += 1
    assert checked == 12
    assert_rules_match_shardy(text)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(reshapes(), broadcasts())
def test_reshape_and_broadcast_rules_are_sound(
    reshape: tuple[tuple[int, ...], tuple[int, ...]],
    broadcast: tuple[tuple[int, ...], tuple[int, ...], list[int]],
) -> None:
    rule_check = pytest.importorskip("shardonnay.propagation.checks.rule_check")
    (a, b), (c, d, dims) = reshape, broadcast
    x, y, z, w = (tensor_type(s) for s in (a, b, c, d))
    text = func(
        [x, z],
        [
            f"%0 = stablehlo.reshape %arg0 : ({x}) -> {y}",
            f"%1 = stablehlo.broadcast_in_dim %arg1, dims = {dims} : ({z}) -> {w}",
        ],
        [("%0", y), ("%1", w)],
    )
    for op in parse_module(text).walk():
        rule = rule_for(op) if op.name.startswith("stablehlo.") else None
        if rule is None or (op.name == "stablehlo.reshape" and _one_sided_factors(rule)):
            continue
        rule_check.check_rule(op, trials=4)
