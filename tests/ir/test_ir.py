"""The IR builder and the verifier."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from shardonnay.errors import IRError
from shardonnay.ir.builder import Builder
from shardonnay.ir.core import Block, Func, Module, Op, Region, Use
from shardonnay.ir.types import TensorType
from shardonnay.ir.verifier import verify
from shardonnay.mesh import Mesh
from shardonnay.ops import registry
from shardonnay.ops.registry import OpDef
from shardonnay.runtime.interpreter import run
from shardonnay.sharding import TensorSharding, TensorShardingPerValue
from shardonnay.syntax.mlir_reader import parse_module

ROOT = Path(__file__).parent.parent.parent
F8 = TensorType((8,), "f32")
F4 = TensorType((4,), "f32")


class _Double(OpDef):
    """`test.double`: twice its operand, with its type inferred."""

    def infer_types(self, op):
        return [op.operands[0].type]

    def evaluate(self, op, args, interp):
        return [args[0] * 2]


class _Sum(OpDef):
    """`test.sum`: a region op whose body is a binary combiner (no inference)."""

    def verify(self, op):
        if len(op.regions) != 1:
            raise IRError("test.sum needs one region")


@pytest.fixture
def test_ops():
    names = {"test.double": _Double(), "test.sum": _Sum()}
    for name, definition in names.items():
        registry.register(name, definition)
    yield
    for name in names:
        registry._REGISTRY.pop(name, None)


# -- the builder ----------------------------------------------------------------------


def test_builder_module_round_trips_and_runs(test_ops):
    b = Builder.module()
    mesh = b.mesh("mesh", Mesh({"x": 2}))
    sharding = TensorSharding.from_axes(mesh, ["x"])
    with b.function("helper", [F8], visibility="private") as f:
        (x,) = f.arguments
        f.returns(b.op("test.double", [x]))
    with b.function("main", [F8], arg_shardings=[sharding]) as f:
        (x,) = f.arguments
        y = b.func_call("helper", [x])
        z = b.sharding_constraint(y, sharding)
        f.returns(z, x)
    module = b.module
    verify(module)
    main = module.function("main")
    assert main.type.results == (F8, F8)
    assert main.arg_attrs(0)["sdy.sharding"] == sharding
    text = module.to_text()
    assert "call @helper(%arg0)" in text
    assert '%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}' in text
    again = parse_module(text)
    verify(again)
    assert again.to_text() == text
    a = np.arange(8, dtype=np.float32)
    out = run(module, a)
    np.testing.assert_array_equal(out[0], 2 * a)
    np.testing.assert_array_equal(out[1], a)


def test_builder_needs_result_types_when_they_cannot_be_inferred():
    b = Builder.module()
    with pytest.raises(IRError, match=r"foo\.opaque.*result_types"), b.function("main", [F8]) as f:
        b.op("foo.opaque", f.arguments)
    assert b.module.function("main").body.ops == []  # nothing half-made was inserted


def test_builder_explicit_result_types_multi_results_and_no_results():
    b = Builder.module()
    with b.function("main", [F8]) as f:
        (x,) = f.arguments
        lo, hi = b.op("foo.split", [x], result_types=[F4, F4])
        assert b.op("foo.sink", [lo, hi], result_types=[]) == ()
        f.returns(lo)
    verify(b.module)
    assert '%0:2 = "foo.split"(%arg0)' in b.module.to_text()
    assert b.module.function("main").type.results == (F4,)


def test_builder_insertion_points(test_ops):
    b = Builder.module()
    with b.function("main", [F8]) as f:
        (x,) = f.arguments
        last = b.create("test.double", [x])
        with b.before(last):
            first = b.op("test.double", [x])
        assert b.insertion_block is f.func.body
        f.returns(last.result, first)
    names = [op.name for op in b.module.function("main").walk()]
    assert names == ["test.double", "test.double", "func.return"]
    body = b.module.function("main").body
    assert body.ops[0].result is first
    with b.at_end(body):
        pass
    with pytest.raises(IRError, match="not in a block"):
        b.set_insertion_point_before(Op("foo.detached"))


def test_builder_regions_and_constants(test_ops):
    scalar = TensorType((), "f32")
    b = Builder.module()
    with b.function("main", [F8]) as f:
        with b.region([scalar, scalar]) as r:
            a, c = r.arguments
            r.returns(b.op("foo.combine", [a, c], result_types=[scalar]))
        total = b.op("test.sum", f.arguments, regions=[r.region], result_types=[scalar])
        cst = b.constant(np.array([1.5, -2.0], np.float32))
        f.returns(total, cst)
    verify(b.module)
    op = cst.op
    assert op.name == "stablehlo.constant" and cst.type == TensorType((2,), "f32")
    np.testing.assert_array_equal(op.attributes["value"].to_numpy(), [1.5, -2.0])
    assert b.module.function("main").walk().__next__().regions[0].entry.ops[-1].name == (
        "stablehlo.return"
    )


def test_builder_refuses_duplicates_and_unfinished_functions():
    b = Builder.module()
    b.mesh("m", Mesh({"x": 2}))
    with pytest.raises(IRError, match="already declared"):
        b.mesh("m", Mesh({"y": 2}))
    with pytest.raises(IRError, match="without f.returns"), b.function("main", [F8]):
        pass
    with pytest.raises(IRError, match="already defined"), b.function("main", [F8]) as f:
        f.returns()
    with pytest.raises(IRError, match="no function @nope"):
        b.func_call("nope", [])


def test_meshes_go_before_functions():
    b = Builder.module()
    with b.function("main", []) as f:
        f.returns()
    b.mesh("a", Mesh({"x": 2}))
    b.mesh("b", Mesh({"y": 2}))
    assert [op.name for op in b.module.ops] == ["sdy.mesh", "sdy.mesh", "func.func"]
    assert list(b.module.meshes) == ["a", "b"]


# -- the verifier ------------------------------------------------------------------------

GOOD = """
sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @main(%arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>})
    -> tensor<8x4xf32> {
  %0 = sdy.sharding_constraint %arg0 <@mesh, [{}, {"y"}]> : tensor<8x4xf32>
  %1 = "foo.bar"(%0) ({
  ^bb0(%a: tensor<f32>):
    "foo.anything"(%a) : (tensor<f32>) -> ()
  }) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"y"}, {}]>]>}
      : (tensor<8x4xf32>) -> tensor<8x4xf32>
  %2 = call @id(%1) : (tensor<8x4xf32>) -> tensor<8x4xf32>
  return %2 : tensor<8x4xf32>
}
func.func private @id(%arg0: tensor<8x4xf32>) -> tensor<8x4xf32> {
  return %arg0 : tensor<8x4xf32>
}
"""


def test_a_valid_module_verifies():
    verify(parse_module(GOOD))


@pytest.mark.parametrize(
    "old, new, message",
    [
        (
            "return %2 : tensor<8x4xf32>\n}\nfunc.func private",
            "return %1 : tensor<8x4xf32>\n}\nfunc.func private",
            None,  # still valid: the call result is simply unused
        ),
        (
            "-> tensor<8x4xf32> {\n  %0",
            "-> tensor<4x8xf32> {\n  %0",
            r"in @main, op 4 \(func\.return\): returns \(tensor<8x4xf32>\) but @main's results "
            r"are \(tensor<4x8xf32>\)",
        ),
        ("call @id(%1)", "call @nope(%1)", r"op 3 \(func\.call\): call of unknown function @nope"),
        (
            "  return %arg0 : tensor<8x4xf32>\n}\n",
            '  "foo.last"(%arg0) : (tensor<8x4xf32>) -> ()\n}\n',
            r"in @id: a block of its region ends with foo\.last, not a terminator",
        ),
        (
            '[{"x"}, {}]>})',
            '[{"z"}, {}]>})',
            r"in @main: the sharding of argument 0 .* is invalid: unknown axis name: \"z\"",
        ),
        ('[{"x"}, {}]>})', "[{}]>})", r"in @main: the sharding of argument 0 .*rank: 1 != 2"),
        (
            '#sdy.sharding<@mesh, [{"x"}, {}]>})',
            '#sdy.sharding<@other, [{"x"}, {}]>})',
            "refers to unknown mesh @other",
        ),
        (
            '<[<@mesh, [{"y"}, {}]>]>',
            '<[<@mesh, [{"y"}, {}]>, <@mesh, [{}, {}]>]>',
            r"op 1 \(foo\.bar\): sdy\.sharding has 2 shardings for 1 results",
        ),
        (
            '<[<@mesh, [{"y"}, {}]>]>',
            '<[<@mesh, [{"y"}, {"y"}]>]>',
            r"op 1 \(foo\.bar\): sharding 0 of sdy\.sharding .* is invalid: duplicate axis",
        ),
        (
            '<@mesh, [{}, {"y"}]> : tensor<8x4xf32>',
            '<@nomesh, [{}, {"y"}]> : tensor<8x4xf32>',
            r"op 0 \(sdy\.sharding_constraint\): the sharding sharding refers to unknown mesh",
        ),
    ],
)
def test_verifier_errors_name_function_op_and_problem(old, new, message):
    assert old in GOOD
    module = parse_module(GOOD.replace(old, new))
    if message is None:
        verify(module)
    else:
        with pytest.raises(IRError, match=message):
            verify(module)


def test_call_with_mismatched_types():
    text = """
    func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {
      %0 = call @f(%arg0) : (tensor<4xf32>) -> tensor<4xf32>
      return %0 : tensor<4xf32>
    }
    func.func @f(%arg0: tensor<8xf32>) -> tensor<8xf32> {
      return %arg0 : tensor<8xf32>
    }"""
    with pytest.raises(IRError, match=r"op 0 \(func\.call\): call type .* differs from @f's"):
        verify(parse_module(text))


def test_use_before_definition_in_the_same_block():
    text = """
    func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {
      %0 = "foo.a"(%1) : (tensor<4xf32>) -> tensor<4xf32>
      %1 = "foo.b"(%arg0) : (tensor<4xf32>) -> tensor<4xf32>
      return %0 : tensor<4xf32>
    }"""
    with pytest.raises(IRError, match=r"in @main, op 0 \(foo\.a\): operand 0 .*before its defin"):
        verify(parse_module(text))


def test_value_from_a_sibling_region_is_not_visible():
    b = Builder.module()
    with b.function("main", [F4]) as f:
        with b.region() as first:
            inner = b.op("foo.inner", result_types=[F4])
            first.returns(inner)
        with b.region() as second:
            second.returns(inner)  # defined in the sibling region
        b.op("foo.two_regions", regions=[first.region, second.region], result_types=[])
        f.returns(*f.arguments)
    with pytest.raises(IRError, match=r"op 3 \(stablehlo\.return\): operand 0 .* not visible"):
        verify(b.module)


def test_values_do_not_cross_isolated_from_above_ops():
    b = Builder.module()
    with b.function("main", [F4]) as f:
        f.returns(*f.arguments)
    outer = b.module.function("main").arguments[0]
    with b.function("other", []) as g:
        g.returns(outer)
    with pytest.raises(IRError, match=r"in @other, op 0 \(func\.return\): operand 0 .*argument"):
        verify(b.module)


def test_nested_regions_see_enclosing_values():
    b = Builder.module()
    with b.function("main", [F4]) as f:
        (x,) = f.arguments
        with b.region() as r:
            r.returns(x)
        y = b.op("foo.wrap", regions=[r.region], result_types=[F4])
        f.returns(y)
    verify(b.module)


def test_result_types_must_match_inference(test_ops):
    b = Builder.module()
    with b.function("main", [F4]) as f:
        (x,) = f.arguments
        y = b.op("test.double", [x], result_types=[F8])
        f.returns(y)
    with pytest.raises(IRError, match=r"op 0 \(test\.double\): result types \(tensor<8xf32>\) "):
        verify(b.module)


def test_op_verify_facet_and_terminators_of_registered_ops(test_ops):
    b = Builder.module()
    with b.function("main", [F4]) as f:
        b.op("test.sum", f.arguments, result_types=[F4])
        f.returns(*f.arguments)
    with pytest.raises(IRError, match=r"op 0 \(test\.sum\): test\.sum needs one region"):
        verify(b.module)
    region = Region([Block()])
    b2 = Builder.module()
    with b2.function("main", [F4]) as f:
        b2.op("test.sum", f.arguments, regions=[region], result_types=[F4])
        f.returns(*f.arguments)
    with pytest.raises(IRError, match=r"test\.sum\): a block of its region is empty"):
        verify(b2.module)


def test_unknown_ops_are_not_checked_beyond_visibility():
    text = """
    func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {
      %0 = "foo.anything"(%arg0) ({
        "foo.no_terminator"() : () -> ()
      }, {
      }) {foo.attr = 3 : i64} : (tensor<4xf32>) -> tensor<4xf32>
      return %0 : tensor<4xf32>
    }"""
    verify(parse_module(text))


def test_locations_appear_in_messages():
    text = (
        "func.func @main(%arg0: tensor<4xf32>) -> tensor<4xf32> {\n"
        '  return %arg0 : tensor<4xf32> loc("model.py":3:7)\n'
        "}\n"
    ).replace("-> tensor<4xf32> {", "-> tensor<2xf32> {")
    with pytest.raises(IRError, match=r'op 0 \(func\.return\) at loc\("model\.py":3:7\)'):
        verify(parse_module(text))


def test_use_list_consistency():
    module = parse_module(GOOD)
    arg = module.function("main").arguments[0]
    user = arg.uses[0].owner
    arg.uses.append(Use(user, 5))
    with pytest.raises(IRError, match="use-list of .* names operand 5"):
        verify(module)
    module = parse_module(GOOD)
    arg = module.function("main").arguments[0]
    arg.uses.clear()
    with pytest.raises(IRError, match="misses operand 0 of sdy.sharding_constraint"):
        verify(module)
    module = parse_module(GOOD)
    arg = module.function("main").arguments[0]
    Op("foo.detached", [arg])  # records a use by an op outside the module
    with pytest.raises(IRError, match="foo.detached, which is not in the module"):
        verify(module)


def test_func_shardings_on_results_and_inline_meshes():
    b = Builder.module()
    inline = TensorSharding.from_axes(Mesh({"a": 4}), ["a"])
    with b.function("main", [F8], arg_shardings=[inline]) as f:
        f.returns(*f.arguments)
        f.set_result_sharding(0, TensorSharding.from_axes("missing", [None]))
    with pytest.raises(IRError, match="the sharding of result 0 .* unknown mesh @missing"):
        verify(b.module)
    Func(b.module.ops[0]).result_attrs(0)["sdy.sharding"] = inline
    verify(b.module)


def test_duplicate_symbols():
    module = Module()
    for _ in range(2):
        module.append(Func.create("f", [], []))
    with pytest.raises(IRError, match="redefinition of function @f"):
        verify(module)


def test_per_value_in_and_out_shardings_use_operand_and_result_shapes():
    mesh_op = Op("sdy.mesh", attributes={"sym_name": "m", "mesh": Mesh({"x": 2})})
    b = Builder(Module([mesh_op]))
    good = TensorShardingPerValue((TensorSharding.from_axes("m", ["x"]),))
    bad = TensorShardingPerValue((TensorSharding.from_axes("m", ["x", None]),))
    with b.function("main", [F8]) as f:
        b.op(
            "foo.call_like",
            f.arguments,
            attributes={"in_shardings": bad, "out_shardings": good},
            result_types=[F4],
        )
        f.returns()
    with pytest.raises(IRError, match=r"sharding 0 of in_shardings .*rank: 2 != 1"):
        verify(b.module)


def test_modules_print_through_the_installed_writer():
    """`Module.to_text` and `str` write with the installed `ModuleWriter`: the
    MLIR writer (which sits above the op definitions that give each op its
    custom form) until another is installed."""
    from shardonnay.ir.core import install_module_writer
    from shardonnay.syntax.mlir_writer import write_module

    module = parse_module((ROOT / "tests" / "corpus" / "mlp_forward.mlir").read_text())
    calls = []

    def recording(m, *, generic, debug_info):
        calls.append((m, generic, debug_info))
        return write_module(m, generic=generic, debug_info=debug_info)

    installed = install_module_writer(recording)
    try:
        assert installed is write_module
        assert module.to_text(generic=True) == write_module(module, generic=True)
        assert str(module) == write_module(module)
        assert calls == [(module, True, False), (module, False, False)]
    finally:
        install_module_writer(installed)


@pytest.mark.parametrize("name", ["mlp_forward", "control_flow", "conv_net", "elementwise_zoo"])
def test_the_type_grammar_of_the_ir_reads_every_type_the_writer_prints(name):
    """`ir.types.parse_type` (the grammar the MLIR reader extends) reads back
    the text of every value type and function type of a real program."""
    from shardonnay.ir.types import FunctionType, parse_type

    module = parse_module((ROOT / "tests" / "corpus" / f"{name}.mlir").read_text())
    types = {f.type for f in module.functions}
    for op in module.walk():
        types.update(v.type for v in op.results)
        types.update(a.type for r in op.regions for b in r.blocks for a in b.arguments)
    assert any(isinstance(t, FunctionType) for t in types)
    for t in types:
        assert parse_type(str(t)) == t
