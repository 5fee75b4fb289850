"""The MLIR reader and writer themselves: generic ops, attributes, locations, errors.

Most programs here use ops of unknown dialects in the generic form, so they
exercise only the reader and writer. Where jaxlib's MLIR accepts a text (with
unregistered dialects allowed), our print must equal its print.
"""

from __future__ import annotations

import pytest

from shardonnay.errors import ParseError
from shardonnay.ir.attributes import (
    UNIT,
    DenseArrayAttr,
    DenseElementsAttr,
    EnumAttr,
    FloatAttr,
    IntegerAttr,
    OpaqueAttr,
    StructAttr,
    SymbolRefAttr,
)
from shardonnay.ir.types import FunctionType, TensorType
from shardonnay.mesh import Mesh
from shardonnay.ops.registry import lookup
from shardonnay.sharding import TensorSharding, TensorShardingPerValue
from shardonnay.syntax.mlir_reader import parse_module, parse_modules


def _jaxlib(text: str, *, generic: bool = False) -> str | None:
    """jaxlib's print of `text` (unregistered dialects allowed), or None without jax."""
    try:
        import jax  # noqa: F401
    except ImportError:
        return None
    from shardonnay.testing.mlir_oracle import context, jaxlib_asm

    context().allow_unregistered_dialects = True
    return jaxlib_asm(text, generic=generic)


def _round_trip(text: str) -> str:
    """Our pretty print of `text`, after checking that it is a fixed point."""
    printed = parse_module(text).to_text()
    assert parse_module(printed).to_text() == printed
    generic = parse_module(text).to_text(generic=True)
    assert parse_module(generic).to_text(generic=True) == generic
    assert parse_module(generic).to_text() == printed
    return printed


def _agree(text: str) -> str:
    """Our prints (pretty and generic) equal jaxlib's; returns the pretty one."""
    printed = _round_trip(text)
    expected = _jaxlib(text)
    if expected is not None:
        assert printed == expected
        assert parse_module(text).to_text(generic=True) == _jaxlib(text, generic=True)
    return printed


# -- generic ops -----------------------------------------------------------------------

UNKNOWN_OP = """\
module {
  func.func @main(%arg0: tensor<2xf32>) -> tensor<2xf32> {
    %0 = "foo.bar"(%arg0) <{p = 1 : i64}> {d.x = "s"} : (tensor<2xf32>) -> tensor<2xf32>
    return %0 : tensor<2xf32>
  }
}
"""


def test_unknown_op_with_properties_and_attributes():
    assert _agree(UNKNOWN_OP) == UNKNOWN_OP
    op = parse_module(UNKNOWN_OP).function("main").body.ops[0]
    assert op.attributes == {"p": IntegerAttr(1), "d.x": "s"}
    assert op.is_inherent("p") and not op.is_inherent("d.x")


def test_properties_and_attributes_keep_their_split():
    text = UNKNOWN_OP.replace('<{p = 1 : i64}> {d.x = "s"}', '<{d.x = "s"}> {p = 1 : i64}')
    assert _agree(text) == text


MULTI = """\
module {
  func.func @main(%arg0: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>) {
    %0:2 = "foo.split"(%arg0) ({
    ^bb0(%arg1: tensor<2xf32>, %arg2: tensor<2xf32>):
      %2 = "foo.inner"(%arg1, %arg2) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
      "foo.yield"(%2) : (tensor<2xf32>) -> ()
    }, {
      "foo.yield"(%arg0) : (tensor<2xf32>) -> ()
    }) : (tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>)
    %1 = "foo.use"(%0#1, %0#0) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    return %1, %0#0 : tensor<2xf32>, tensor<2xf32>
  }
}
"""


def test_multi_result_ops_and_regions_with_block_arguments():
    assert _agree(MULTI) == MULTI
    main = parse_module(MULTI).function("main")
    split, use, _ = main.body.ops
    assert [u.owner.name for u in split.results[1].uses] == ["foo.use"]
    assert use.operands == (split.results[1], split.results[0])
    assert len(split.regions) == 2 and len(split.regions[0].entry.arguments) == 2
    inner = split.regions[1].entry.ops[0]
    assert inner.operands[0] is main.arguments[0]


def test_multiple_blocks_round_trip():
    text = """\
module {
  func.func @main(%arg0: tensor<2xf32>) {
    "foo.loop"() ({
      "foo.br"() : () -> ()
    ^bb1(%0: tensor<2xf32>):
      "foo.use"(%0, %arg0) : (tensor<2xf32>, tensor<2xf32>) -> ()
    ^bb2:
      "foo.end"() : () -> ()
    }) : () -> ()
    return
  }
}
"""
    printed = _round_trip(text)
    loop = parse_module(printed).function("main").body.ops[0]
    assert [len(b.ops) for b in loop.regions[0].blocks] == [1, 1, 1]
    assert "^bb1(%0: tensor<2xf32>):" in printed and "^bb2:" in printed


def test_forward_references_resolve():
    text = """\
module {
  func.func @main(%arg0: tensor<2xf32>) {
    "foo.graph"() ({
      "foo.use"(%late) : (tensor<2xf32>) -> ()
      %late = "foo.def"(%arg0) : (tensor<2xf32>) -> tensor<2xf32>
    }) : () -> ()
    return
  }
}
"""
    module = parse_module(text)
    graph = module.function("main").body.ops[0]
    use, define = graph.regions[0].entry.ops
    assert use.operands[0] is define.result
    assert [u.owner for u in define.result.uses] == [use]
    assert '"foo.use"(%0)' in _round_trip(text)


def test_generic_module_and_module_attributes():
    text = """\
module @named attributes {mhlo.num_partitions = 2 : i32, sdy.flag} {
  func.func private @f() {
    return
  }
}
"""
    module = parse_module(text)
    assert module.name == "named"
    assert module.attributes == {"mhlo.num_partitions": IntegerAttr(2, "i32"), "sdy.flag": UNIT}
    assert _agree(text) == text
    generic = module.to_text(generic=True)
    assert generic.startswith('"builtin.module"() <{sym_name = "named"}> ({')
    assert parse_module(generic).to_text() == text


def test_split_input_files():
    text = UNKNOWN_OP + "\n// -----\n" + MULTI + "// ----- trailing words\n" + UNKNOWN_OP
    modules = parse_modules(text)
    assert [m.to_text() for m in modules] == [UNKNOWN_OP, MULTI, UNKNOWN_OP]


# -- attributes ----------------------------------------------------------------------------


def _attr_program(attr: str) -> str:
    return (
        "module {\n  func.func @main(%arg0: tensor<2xf32>) -> tensor<2xf32> {\n"
        f'    %0 = "foo.bar"(%arg0) {{a = {attr}}} : (tensor<2xf32>) -> tensor<2xf32>\n'
        "    return %0 : tensor<2xf32>\n  }\n}\n"
    )


def _attr(text: str):
    return parse_module(text).function("main").body.ops[0].attributes["a"]


ATTRIBUTES = [
    ("5 : i32", IntegerAttr(5, "i32")),
    ("-3 : i64", IntegerAttr(-3)),
    ("7 : ui8", IntegerAttr(7, "ui8")),
    ("1 : index", IntegerAttr(1, "index")),
    ("true", True),
    ("false", False),
    ("unit", UNIT),
    ('"esc\\22\\0A"', 'esc"\n'),
    ("1.500000e+00 : f32", FloatAttr(1.5, "f32")),
    ("-0.000000e+00 : bf16", None),
    ("-1.000000e+00 : f16", FloatAttr(-1.0, "f16")),
    ("0x7FC00000 : f32", None),
    ("0x7F800000 : f32", FloatAttr(float("inf"), "f32")),
    ("0xFF800000 : f32", FloatAttr(float("-inf"), "f32")),
    ("dense<1.000000e+00> : tensor<2x3xf32>", None),
    ("dense<[1, 2, 3]> : tensor<3xi32>", None),
    ("dense<[[1, 2], [3, 4]]> : tensor<2x2xi8>", None),
    ("dense<[true, false]> : tensor<2xi1>", None),
    ("dense<> : tensor<0xf32>", None),
    ("dense<0xFFFFFFFF> : tensor<3xf32>", None),
    ("dense<(1.000000e+00,2.000000e+00)> : tensor<complex<f32>>", None),
    ("dense<[(1,2), (3,4)]> : tensor<2xcomplex<i32>>", None),
    ("array<i64: 1, 2>", DenseArrayAttr("i64", (1, 2))),
    ("array<i64>", DenseArrayAttr("i64", ())),
    ("array<f32: 1.000000e+00>", DenseArrayAttr("f32", (1.0,))),
    ("array<i1: true, false>", DenseArrayAttr("i1", (True, False))),
    ('{a, b = [1 : i32, "x", {c}]}', {"a": UNIT, "b": (IntegerAttr(1, "i32"), "x", {"c": UNIT})}),
    ("[]", ()),
    ("@sym", SymbolRefAttr(("sym",))),
    ("@a::@b", SymbolRefAttr(("a", "b"))),
    ("tensor<2xf32>", TensorType((2,), "f32")),
    ("(tensor<2xf32>) -> tensor<3xi1>", None),
    ("#stablehlo<comparison_direction LT>", EnumAttr("stablehlo", "comparison_direction", "LT")),
    (
        "#stablehlo.gather<offset_dims = [1], collapsed_slice_dims = [0], "
        "start_index_map = [0], index_vector_dim = 1>",
        None,
    ),
    (
        "#stablehlo.dot<lhs_batching_dimensions = [0], rhs_batching_dimensions = [0], "
        "lhs_contracting_dimensions = [2], rhs_contracting_dimensions = [1]>",
        None,
    ),
    ('#foo.bar<"x" 1 [2]>', OpaqueAttr('#foo.bar<"x" 1 [2]>')),
    ('#sdy.sharding<@mesh, [{"x", ?}, {}p1], replicated={"y"}>', None),
    ('#sdy.sharding_per_value<[<@mesh, [{}]>, <@mesh, [{"x"}]>]>', None),
    ('#sdy.mesh<["x"=2, "y"=4]>', Mesh({"x": 2, "y": 4})),
    ("#sdy.op_sharding_rule<([i, j])->([i, j]) {i=2, j=4}>", None),
    ('#sdy<manual_axes{"x"}>', None),
]


@pytest.mark.parametrize("attr, value", ATTRIBUTES, ids=[a for a, _ in ATTRIBUTES])
def test_attribute_round_trips(attr, value):
    text = _attr_program(attr)
    printed = _agree(text)
    assert printed == (text if attr != "unit" else text.replace("{a = unit}", "{a}"))
    if value is not None:
        parsed = _attr(text)
        assert type(parsed) is type(value)
        if isinstance(value, FloatAttr):  # the literal's text is kept for reprinting
            assert (parsed.value, parsed.type) == (value.value, value.type)
        else:
            assert parsed == value


def test_attribute_values_are_modelled():
    nan = _attr(_attr_program("0x7FC00000 : f32"))
    assert isinstance(nan, FloatAttr) and nan.value != nan.value
    gather = _attr(_attr_program(ATTRIBUTES[33][0]))
    assert isinstance(gather, StructAttr) and gather["offset_dims"] == (1,)
    assert gather["index_vector_dim"] == 1
    dense = _attr(_attr_program("dense<[[1, 2], [3, 4]]> : tensor<2x2xi8>"))
    assert isinstance(dense, DenseElementsAttr) and dense.to_numpy().tolist() == [[1, 2], [3, 4]]
    assert _attr(_attr_program("dense<0xFFFFFFFF> : tensor<3xf32>")).to_numpy().shape == (3,)
    sharding = _attr(_attr_program('#sdy.sharding<@mesh, [{"x", ?}, {}p1], replicated={"y"}>'))
    assert isinstance(sharding, TensorSharding) and sharding.mesh == "mesh"
    per_value = _attr(_attr_program('#sdy.sharding_per_value<[<@mesh, [{}]>, <@mesh, [{"x"}]>]>'))
    assert isinstance(per_value, TensorShardingPerValue) and len(per_value) == 2
    assert isinstance(_attr(_attr_program("(tensor<2xf32>) -> tensor<3xi1>")), FunctionType)


def test_a_struct_attribute_broken_across_lines_is_the_struct():
    channel = _attr(_attr_program("#stablehlo.channel_handle<handle = 1,\n      type = 1>"))
    assert isinstance(channel, StructAttr) and channel["handle"] == 1
    assert str(channel) == "#stablehlo.channel_handle<handle = 1, type = 1>"
    spaced = _attr(_attr_program("#stablehlo.channel_handle<handle=1, type=1>"))
    assert isinstance(spaced, OpaqueAttr)  # other spellings keep their exact text


@pytest.mark.parametrize(
    "attr, canonical",
    [
        ("1.5 : f64", "1.500000e+00 : f64"),
        ("[1 : i64, 2]", "[1, 2]"),
        ('dense<"0x0000803F00000040"> : tensor<2xf32>', "dense<[1.000000e+00, 2.000000e+00]>"),
    ],
)
def test_non_canonical_literals_print_canonically(attr, canonical):
    assert f"a = {canonical}" in parse_module(_attr_program(attr)).to_text()


# -- locations ----------------------------------------------------------------------------------

WITH_LOCATIONS = """\
#loc1 = loc("model.py":3:4)
module @jit_f attributes {mhlo.num_partitions = 1 : i32} {
  func.func public @main(%arg0: tensor<2xf32> loc("x")) -> (tensor<2xf32> {jax.result_info = ""}) {
    %0 = "foo.bar"(%arg0) : (tensor<2xf32>) -> tensor<2xf32> loc(#loc3)
    return %0 : tensor<2xf32> loc(#loc)
  } loc(#loc)
} loc(#loc)
#loc = loc(unknown)
#loc2 = loc("model.py":7:9)
#loc3 = loc("jit(f)/neg"(#loc2))
"""


def test_locations_and_trailing_aliases_parse_and_disappear():
    module = parse_module(WITH_LOCATIONS)
    op = module.function("main").body.ops[0]
    assert op.location == "loc(#loc3)"
    assert module.aliases["loc3"] == 'loc("jit(f)/neg"(#loc2))'
    plain = module.to_text(debug_info=False)
    assert "loc" not in plain
    expected = _jaxlib(WITH_LOCATIONS)
    if expected is not None:
        assert plain == expected
    with_debug = module.to_text(debug_info=True)
    assert '"foo.bar"(%arg0) : (tensor<2xf32>) -> tensor<2xf32> loc(#loc3)' in with_debug
    assert '#loc3 = loc("jit(f)/neg"(#loc2))' in with_debug
    assert parse_module(with_debug).to_text() == plain


def test_jax_debug_info_text_parses():
    jax = pytest.importorskip("jax")
    import jax.numpy as jnp
    from jaxlib.mlir import ir

    from shardonnay.testing.mlir_oracle import context

    lowered = jax.jit(lambda x: x * 2).lower(jnp.ones((2,), jnp.float32))
    with context():
        generic = ir.Module.parse(lowered.as_text(debug_info=True)).operation.get_asm(
            enable_debug_info=True, print_generic_op_form=True
        )
    assert "loc(#loc" in generic and "\n#loc" in generic
    module = parse_module(generic)
    assert "loc(" not in module.to_text(generic=True)
    assert module.to_text(generic=True) == _jaxlib(generic, generic=True)
    again = parse_module(module.to_text(generic=True, debug_info=True))
    assert again.to_text(generic=True) == module.to_text(generic=True)
    pretty = lowered.as_text(debug_info=True)
    try:
        module = parse_module(pretty)
    except ParseError as e:
        if "no custom syntax known" in e.message:
            pytest.skip(f"an op's pretty syntax is not available yet: {e.message}")
        raise
    assert module.to_text() == _jaxlib(pretty)


# -- errors ----------------------------------------------------------------------------------------

ERRORS = [
    (
        'func.func @main() {\n  "foo.x"(%zz) : (tensor<f32>) -> ()\n  return\n}',
        "%zz",
        "use of undefined value '%zz'",
    ),
    (
        "func.func @main() {\n"
        '  %0 = "foo.x"() : () -> tensor<f32>\n'
        '  %0 = "foo.x"() : () -> tensor<f32>\n'
        "  return\n}",
        '%0 = "foo.x"() : () -> tensor<f32>\n  return',
        "redefinition of SSA value '%0'",
    ),
    (
        'func.func @main(%arg0: tensor<f32>) {\n  "foo.x"(%arg0) : (tensor<2xf32>) -> ()\n'
        "  return\n}",
        '"foo.x"(%arg0) : (tensor<2xf32>)',
        "use of a value of type tensor<f32> as tensor<2xf32>",
    ),
    (
        'func.func @main() {\n  "foo.x"() {a = dense<[1, 2> : tensor<2xi32>} : () -> ()\n'
        "  return\n}",
        "> : tensor<2xi32>",
        "unclosed '['",
    ),
    (
        'func.func @main() {\n  "foo.x"() {a = #foo.b<[1, 2>} : () -> ()\n  return\n}',
        ">} : ()",
        "unbalanced '>'",
    ),
    (
        'func.func @main() {\n  "foo.x"() {a = [1, 2} : () -> ()\n  return\n}',
        "} : ()",
        "expected ']' closing the array",
    ),
    (
        'func.func @main() {\n  "foo.x"() : () -> ()\n  return\n',
        None,
        "expected",
    ),
    (
        'func.func @main() {\n  %0:2 = "foo.x"() : () -> tensor<f32>\n  return\n}',
        '"foo.x"',
        "foo.x has 1 results but 2 are named",
    ),
]


@pytest.mark.parametrize("text, at, message", ERRORS, ids=[m for _, _, m in ERRORS])
def test_errors_say_where(text, at, message):
    with pytest.raises(ParseError) as info:
        parse_module(text)
    error = info.value
    assert message in error.message
    offset = len(text) if at is None else text.index(at)
    line = text.count("\n", 0, offset) + 1
    column = offset - (text.rfind("\n", 0, offset) + 1) + 1
    assert (error.line, error.column) == (line, column)
    if _jaxlib("module {}") is not None:
        with pytest.raises(Exception):  # noqa: B017 (jaxlib's error type is generic)
            _jaxlib(text)


def test_errors_in_split_files_count_lines_of_the_whole_file():
    bad = 'func.func @f() {\n  "foo.x"(%nope) : (tensor<f32>) -> ()\n  return\n}\n'
    with pytest.raises(ParseError) as info:
        parse_modules(UNKNOWN_OP + "// -----\n" + bad)
    assert info.value.line == UNKNOWN_OP.count("\n") + 3


# -- value names ------------------------------------------------------------------------------


@pytest.mark.skipif(
    lookup("stablehlo.constant").print is None or lookup("stablehlo.while").print is None,
    reason="needs the pretty syntax of stablehlo.constant and stablehlo.while",
)
def test_value_names_in_nested_regions_match_mlir():
    jax = pytest.importorskip("jax")
    import jax.numpy as jnp

    def f(x):
        def body(c):
            i, v = c
            return i + 1, v * 2.0 + 1.0

        _, y = jax.lax.while_loop(lambda c: c[0] < 3, body, (0, x))
        return y + 1.0, jnp.zeros((2,)), jnp.ones((2,))

    text = jax.jit(f).lower(jnp.ones((2,), jnp.float32)).as_text()
    assert "%cst_0" in text or "%c_0" in text
    try:
        module = parse_module(text)
    except ParseError as e:
        if "no custom syntax known" in e.message:
            pytest.skip(f"an op's pretty syntax is not available yet: {e.message}")
        raise
    assert module.to_text() == _jaxlib(text)
    assert parse_module(module.to_text(generic=True)).to_text() == module.to_text()


@pytest.mark.parametrize(
    "body",
    ["return {foo = 1 : i64} %arg0 : tensor<2xf32>", "return {foo = 1 : i64}"],
    ids=["operands", "no operands"],
)
def test_a_return_with_attributes_reads_back_what_it_prints(body):
    """`func.return` is `attr-dict ($operands^ : type($operands))?`, as MLIR
    prints it: the attributes come first, and the printed text reads back."""
    results = " -> tensor<2xf32>" if "%" in body else ""
    text = f"func.func @main(%arg0: tensor<2xf32>){results} {{\n  {body}\n}}"
    module = parse_module(text)
    (ret,) = module.functions[0].body.ops
    assert ret.attributes["foo"].value == 1
    assert parse_module(module.to_text()).to_text() == module.to_text()
    assert body in module.to_text()
