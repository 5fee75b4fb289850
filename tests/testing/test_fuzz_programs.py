"""Robustness of the reader on broken program texts, and print/parse fixed points.

Mutated or truncated versions of valid modules must either parse or raise a
`ParseError` that points inside the text, never another exception. Random
generic-form programs must print, parse and print to the same text.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shardonnay.errors import ParseError
from shardonnay.ir.attributes import (
    UNIT,
    DenseArrayAttr,
    EnumAttr,
    FloatAttr,
    IntegerAttr,
    SymbolRefAttr,
)
from shardonnay.ir.builder import Builder
from shardonnay.ir.types import TensorType
from shardonnay.mesh import Mesh
from shardonnay.sharding import TensorSharding, TensorShardingPerValue
from shardonnay.syntax.mlir_reader import parse_module

SEEDS = [
    """\
sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @main(%arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>})
    -> (tensor<8x4xf32> {jax.result_info = "r"}) {
  %0 = sdy.sharding_constraint %arg0 <@mesh, [{}, {"y"}]> : tensor<8x4xf32>
  %1:2 = "foo.split"(%0) ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %2 = "foo.add"(%a, %b) : (tensor<f32>, tensor<f32>) -> tensor<f32>
    "foo.yield"(%2) : (tensor<f32>) -> ()
  }) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {}]>, <@mesh, [{}, {}]>]>}
      : (tensor<8x4xf32>) -> (tensor<8x4xf32>, tensor<8x4xf32>)
  %3 = call @id(%1#1) : (tensor<8x4xf32>) -> tensor<8x4xf32>
  return %3 : tensor<8x4xf32>
}
func.func private @id(%arg0: tensor<8x4xf32>) -> tensor<8x4xf32> {
  return %arg0 : tensor<8x4xf32>
}
""",
    """\
#loc1 = loc("model.py":3:4)
module @m attributes {mhlo.num_partitions = 2 : i32, sdy.flag} {
  func.func public @main(%arg0: tensor<2xf32> loc("x")) -> tensor<2xf32> {
    %0 = "foo.bar"(%arg0) <{p = 1 : i64, q = array<i64: 1, 2>}> {d.x = "s\\22"}
        : (tensor<2xf32>) -> tensor<2xf32> loc(#loc1)
    %1 = "foo.c"() {v = dense<[1.000000e+00, 0x7FC00000]> : tensor<2xf32>,
        w = #stablehlo<comparison_direction LT>, z = [@a::@b, unit, {k = -3 : i8}]}
        : () -> tensor<2xf32>
    return %1 : tensor<2xf32> loc(#loc)
  } loc(#loc)
} loc(#loc)
#loc = loc(unknown)
""",
    """\
"builtin.module"() ({
  "func.func"() <{function_type = (tensor<4xi32>) -> tensor<4xi32>, sym_name = "main"}> ({
  ^bb0(%arg0: tensor<4xi32>):
    %0 = "foo.g"(%arg0) {dims = #stablehlo.gather<offset_dims = [1], index_vector_dim = 1>,
        rule = #sdy.op_sharding_rule<([i])->([i]) {i=4}>, t = tensor<2xcomplex<f32>>}
        : (tensor<4xi32>) -> tensor<4xi32>
    "func.return"(%0) : (tensor<4xi32>) -> ()
  }) : () -> ()
}) : () -> ()
""",
    """\
sdy.mesh @m = <["a"=2]>
func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {
  %0 = sdy.named_computation<"f">(%arg0) in_shardings=[<@m, [{"a"}]>] \
out_shardings=[<@m, [{}]>] (%arg1: tensor<4xf32>) {
    sdy.return %arg1 : tensor<4xf32>
  } : (tensor<4xf32>) -> tensor<4xf32>
  %1 = sdy.data_flow_edge %0 sharding=<@m, [{"a", ?}]> : tensor<4xf32>
  sdy.sharding_group %1 group_id=3 : tensor<4xf32>
  return %1 : tensor<4xf32>
}
""",
]

_ALPHABET = '%@#^"{}[]()<>:=,.-x0123456789 \nabcdefghijkltensorf32i64?!/\\'


def _mutate(text: str, rng: random.Random) -> str:
    for _ in range(rng.randint(1, 3)):
        kind = rng.randrange(5)
        i = rng.randrange(len(text) + 1)
        if kind == 0 and text:  # delete a run of characters
            text = text[:i] + text[i + rng.randint(1, 4) :]
        elif kind == 1:  # duplicate a slice
            j = min(len(text), i + rng.randint(1, 12))
            text = text[:i] + text[i:j] + text[i:]
        elif kind == 2 and text:  # replace a character
            text = text[:i] + rng.choice(_ALPHABET) + text[i + 1 :]
        elif kind == 3:  # insert a character
            text = text[:i] + rng.choice(_ALPHABET) + text[i:]
        else:  # truncate
            text = text[:i]
    return text


def _check_parse(text: str) -> None:
    try:
        parse_module(text)
    except ParseError as e:
        lines = text.split("\n")
        assert 1 <= e.line <= len(lines), (e.line, text)
        assert 1 <= e.column <= len(lines[e.line - 1]) + 1, (e.line, e.column, text)


@pytest.mark.parametrize("seed", range(len(SEEDS)))
def test_seed_programs_are_valid(seed):
    module = parse_module(SEEDS[seed])
    assert parse_module(module.to_text()).to_text() == module.to_text()


@pytest.mark.parametrize("chunk", range(10))
def test_mutated_programs_raise_only_parse_errors(chunk):
    rng = random.Random(1000 + chunk)
    for n in range(1000):
        _check_parse(_mutate(SEEDS[(chunk + n) % len(SEEDS)], rng))


def test_every_truncation_raises_only_parse_errors():
    for seed in SEEDS:
        for end in range(0, len(seed), 3):
            _check_parse(seed[:end])


# -- random generic programs: print -> parse -> print is a fixed point --------------------------

_TYPES = [
    TensorType((2,), "f32"),
    TensorType((), "i32"),
    TensorType((4, 2), "bf16"),
    TensorType((3,), "complex<f32>"),
    TensorType((0,), "i1"),
]
_MESH = Mesh({"x": 2, "y": 2})
_ATTRIBUTES = st.one_of(
    st.integers(-(2**40), 2**40).map(lambda v: IntegerAttr(v, "i64")),
    st.integers(0, 255).map(lambda v: IntegerAttr(v, "ui8")),
    st.sampled_from([0.0, 1.5, -2.25, 1e-3]).map(lambda v: FloatAttr(v, "f32")),
    st.booleans(),
    st.just(UNIT),
    st.text('ab"\\\n é', max_size=5),
    st.lists(st.integers(-5, 5), max_size=3).map(lambda v: DenseArrayAttr("i64", tuple(v))),
    st.sampled_from(["LT", "EQ", "GE"]).map(
        lambda v: EnumAttr("stablehlo", "comparison_direction", v)
    ),
    st.sampled_from(["f", "g"]).map(lambda v: SymbolRefAttr((v,))),
    st.sampled_from(_TYPES),
    st.sampled_from([TensorSharding.from_axes("mesh", ["x"]), TensorSharding.from_axes(_MESH, [])]),
)
_ATTR_VALUES = st.recursive(
    _ATTRIBUTES,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3).map(tuple),
        st.dictionaries(st.sampled_from(["k", "l.m", "n"]), inner, max_size=2),
    ),
    max_leaves=6,
)
_NAMES = st.sampled_from(["foo.a", "foo.b_c", "bar.d", "x.y.z"])


@st.composite
def _programs(draw) -> str:
    b = Builder.module()
    b.mesh("mesh", _MESH)
    arg_types = draw(st.lists(st.sampled_from(_TYPES), min_size=1, max_size=3))

    def ops(visible: list, depth: int) -> list:
        for _ in range(draw(st.integers(0, 4))):
            operands = draw(st.lists(st.sampled_from(visible), max_size=3))
            results = draw(st.lists(st.sampled_from(_TYPES), max_size=3))
            attributes = draw(st.dictionaries(st.sampled_from(["p", "q", "d.r"]), _ATTR_VALUES))
            if results and draw(st.booleans()):
                attributes["sdy.sharding"] = TensorShardingPerValue(
                    tuple(TensorSharding.replicated_on("mesh", t.rank) for t in results)
                )
            regions = []
            if depth < 2:
                for _ in range(draw(st.integers(0, 2))):
                    with b.region(draw(st.lists(st.sampled_from(_TYPES), max_size=2))) as r:
                        inner = ops(visible + r.arguments, depth + 1)
                        r.returns(*draw(st.lists(st.sampled_from(visible + inner), max_size=2)))
                    regions.append(r.region)
            op = b.create(
                draw(_NAMES),
                operands,
                attributes=attributes,
                result_types=results,
                regions=regions,
            )
            visible = visible + op.results
        return visible

    with b.function("main", arg_types) as f:
        visible = ops(list(f.arguments), 0)
        f.returns(*draw(st.lists(st.sampled_from(visible), max_size=2)))
    if draw(st.booleans()):
        b.module.attributes["sdy.flag"] = UNIT
        b.module.name = "m"
    return b.module.to_text(generic=draw(st.booleans()))


@settings(max_examples=200, deadline=None)
@given(_programs())
def test_random_programs_print_to_a_fixed_point(text):
    module = parse_module(text)
    for generic in (False, True):
        printed = module.to_text(generic=generic)
        assert parse_module(printed).to_text(generic=generic) == printed
    assert parse_module(module.to_text(generic=True)).to_text() == module.to_text()


def test_a_known_program_prints_to_itself():
    b = Builder.module()
    with b.function("main", [_TYPES[0]]) as f:
        attributes = {"p": (IntegerAttr(1), {"k": UNIT})}
        op = b.create("foo.a", f.arguments, attributes=attributes, result_types=[])
        f.returns()
    text = b.module.to_text(generic=True)
    assert parse_module(text).to_text(generic=True) == text
    assert '"foo.a"(%arg0) <{p = [1, {k}]}> : (tensor<2xf32>) -> ()' in text  # i64 elided in arrays
    assert parse_module(text).function("main").body.ops[0].attributes == op.attributes
