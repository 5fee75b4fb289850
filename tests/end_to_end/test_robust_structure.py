"""Programs of any shape get typed errors, never Python's RecursionError.

Recursive call graphs (a function calling itself, `@main` calling `@main`,
mutual recursion) are rejected by the verifier with the cycle named, and
propagation, partitioning and the interpreter never recurse without end.
Regions, attributes, function types and ranks nest only as deep as
documented (64 levels), and deeper text is a `ParseError`; below the limit
every stage runs.
"""

from __future__ import annotations

import numpy as np
import pytest

import shardonnay
from shardonnay.errors import IRError, ParseError
from shardonnay.ir.core import Block, Func, Module, Op, Region
from shardonnay.ir.structure import MAX_REGION_DEPTH, check_structure, region_depth
from shardonnay.ir.types import TensorType
from shardonnay.ir.verifier import verify
from shardonnay.runtime.interpreter import random_inputs
from shardonnay.syntax.mlir_reader import MAX_NESTING, MAX_RANK, parse_module

SELF = """
func.func @main(%arg0: tensor<2xf32>) -> tensor<2xf32> {
  %0 = call @f(%arg0) : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
func.func private @f(%arg0: tensor<2xf32>) -> tensor<2xf32> {
  %0 = call @f(%arg0) : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}"""

MAIN = """
func.func @main(%arg0: tensor<2xf32>) -> tensor<2xf32> {
  %0 = call @main(%arg0) : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}"""

MUTUAL = """
sdy.mesh @mesh = <["x"=2]>
func.func @main(%arg0: tensor<2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>})
    -> tensor<2xf32> {
  %0 = call @even(%arg0) : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
func.func private @even(%arg0: tensor<2xf32>) -> tensor<2xf32> {
  %0 = call @odd(%arg0) : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
func.func private @odd(%arg0: tensor<2xf32>) -> tensor<2xf32> {
  %0 = stablehlo.negate %arg0 : tensor<2xf32>
  %1 = call @even(%0) : (tensor<2xf32>) -> tensor<2xf32>
  return %1 : tensor<2xf32>
}"""

RECURSIVE = {
    "self": (SELF, "@f -> @f"),
    "main": (MAIN, "@main -> @main"),
    "mutual": (MUTUAL, "@even -> @odd -> @even"),
}


def _stages(module):
    inputs = [np.ones(2, np.float32)]
    return {
        "verify": lambda: verify(module),
        "propagate": lambda: shardonnay.propagate(module),
        "partition": lambda: shardonnay.partition(module),
        "partition unpropagated": lambda: shardonnay.partition(module, propagate=False),
        "check": lambda: shardonnay.check(module),
        "run": lambda: shardonnay.run(module, *inputs),
    }


@pytest.mark.parametrize("name", sorted(RECURSIVE))
def test_recursive_call_graphs_are_ir_errors_naming_the_cycle(name):
    text, cycle = RECURSIVE[name]
    module = parse_module(text)
    for stage, call in _stages(module).items():
        with pytest.raises(IRError, match="recursive call graph") as info:
            call()
        assert cycle in str(info.value), (stage, str(info.value))


def test_a_call_graph_without_cycles_passes():
    module = parse_module(
        MUTUAL.replace(
            "%1 = call @even(%0) : (tensor<2xf32>) -> tensor<2xf32>",
            "%1 = stablehlo.abs %0 : tensor<2xf32>",
        )
    )
    check_structure(module)
    (out,) = shardonnay.run(module, np.array([1.0, -2.0], np.float32))
    assert out.tolist() == [1.0, 2.0]  # even(x) = odd(x) = |-x|


def nested_cases(depth: int) -> str:
    """`depth` `stablehlo.case` ops, each in the single branch of the one outside."""
    body = "%c = stablehlo.constant dense<1.0> : tensor<f32>\n  stablehlo.return %c : tensor<f32>"
    for i in range(depth - 1):
        body = (
            f"%i{i} = stablehlo.constant dense<0> : tensor<i32>\n"
            f'%r{i} = "stablehlo.case"(%i{i}) ({{\n{body}\n}}) : (tensor<i32>) -> tensor<f32>\n'
            f"stablehlo.return %r{i} : tensor<f32>"
        )
    body = body.rsplit("stablehlo.return", 1)[0] + f"return %r{depth - 2} : tensor<f32>"
    return "func.func @main() -> tensor<f32> {\n" + body + "\n}"


def test_regions_at_the_limit_go_through_every_stage():
    module = parse_module(nested_cases(MAX_REGION_DEPTH))
    assert region_depth(module) == MAX_REGION_DEPTH
    verify(module)
    assert parse_module(str(module)).to_text() == module.to_text()
    (out,) = shardonnay.run(module)
    assert out == 1.0
    (simulated,) = shardonnay.simulate(shardonnay.partition(module))
    assert simulated == 1.0


@pytest.mark.parametrize("depth", [MAX_REGION_DEPTH + 1, 600, 5000])
def test_regions_deeper_than_the_limit_are_parse_errors(depth):
    for text in (nested_cases(depth), "module {\n" + nested_cases(depth) + "\n}"):
        with pytest.raises(ParseError, match=f"nested more than {MAX_REGION_DEPTH} levels"):
            parse_module(text)


def test_built_programs_deeper_than_the_limit_are_ir_errors():
    """A program built in Python, not read, is bounded by the verifier and every
    walk over it is iterative."""
    t = TensorType((), "f32")
    depth = 20 * MAX_REGION_DEPTH
    main = Func.create("main", [t], [t])
    inner = None
    for level in range(depth):
        block = Block([t])
        value = block.arguments[0]
        if inner is not None:
            block.append(inner)
            inner.set_operand(0, value)
            value = inner.results[0]
        block.append(Op("stablehlo.return", [value]))
        operand = main.arguments[0] if level == depth - 1 else block.arguments[0]
        inner = Op("stablehlo.while", [operand], [t], regions=[Region([block])])
    main.body.append(inner)
    main.body.append(Op("func.return", [inner.results[0]]))
    module = Module([main.op])
    assert region_depth(module) == depth + 1
    assert sum(1 for _ in module.walk()) == len(list(module.walk_post_order())) == 2 * depth + 2
    for call in (lambda: verify(module), lambda: shardonnay.propagate(module), module.to_text):
        with pytest.raises(IRError, match=f"regions nested {MAX_REGION_DEPTH + 1} deep"):
            call()


@pytest.mark.parametrize(
    "attribute",
    [
        "[" * 1000 + "]" * 1000,
        "{a = " * 1000 + "1" + "}" * 1000,
        "(" * 1000 + ") -> ()" * 1000,
    ],
)
def test_deep_attributes_and_types_are_parse_errors(attribute):
    text = f"func.func @main() -> () attributes {{x = {attribute}}} {{\n  return\n}}"
    with pytest.raises(ParseError, match=f"nested more than {MAX_NESTING} levels") as info:
        parse_module(text)
    assert len(str(info.value)) < 400  # the message shows the part of the line around the error


def test_attributes_at_the_limit_print_and_read_back():
    depth = MAX_NESTING - 1  # the attribute dictionary around it is one level
    text = f"func.func @main() attributes {{x = {'[' * depth}1{']' * depth}}} {{\n  return\n}}"
    module = parse_module(text)
    assert parse_module(str(module)).to_text() == str(module)


def test_deep_dialect_attributes_stay_text():
    nested = "#a.b<k = " * 1000 + "1" + ">" * 1000
    module = parse_module(f"func.func @main() attributes {{x = {nested}}} {{\n  return\n}}")
    assert nested in str(module)


def test_ranks_beyond_numpy_are_parse_errors():
    ok = parse_module(f"func.func @main(%a: tensor<{'1x' * MAX_RANK}f32>) {{\n  return\n}}")
    (arg,) = random_inputs(ok)
    assert arg.ndim == MAX_RANK
    with pytest.raises(ParseError, match="rank 65"):
        parse_module(f"func.func @main(%a: tensor<{'1x' * (MAX_RANK + 1)}f32>) {{\n  return\n}}")


def call_chain(length: int) -> str:
    """@main calls @f1, which calls @f2, ... each returning its argument negated."""
    t = "tensor<2xf32>"
    functions = [
        f"func.func @main(%arg0: {t}) -> {t} {{\n"
        f"  %0 = call @f1(%arg0) : ({t}) -> {t}\n  return %0 : {t}\n}}"
    ]
    for i in range(1, length):
        nxt = f"call @f{i + 1}(%0) : ({t}) -> {t}" if i < length - 1 else f"stablehlo.abs %0 : {t}"
        functions.append(
            f"func.func private @f{i}(%arg0: {t}) -> {t} {{\n"
            f"  %0 = stablehlo.negate %arg0 : {t}\n  %1 = {nxt}\n  return %1 : {t}\n}}"
        )
    return "\n".join(functions)


def test_call_chains_at_the_limit_run_and_deeper_ones_are_ir_errors():
    module = parse_module(call_chain(MAX_REGION_DEPTH))
    check_structure(module)
    (out,) = shardonnay.run(module, np.array([1.0, -2.0], np.float32))
    assert out.tolist() == [1.0, 2.0]
    shardonnay.propagate(module)
    deep = parse_module(call_chain(10 * MAX_REGION_DEPTH))
    for call in (lambda: verify(deep), lambda: shardonnay.propagate(deep)):
        with pytest.raises(IRError, match=r"regions and calls nested 65 deep from @f\d+"):
            call()


def test_built_attributes_nested_too_deep_are_ir_errors_when_printed():
    from shardonnay.ir.attributes import attr_str

    deep: object = ()
    for _ in range(5 * MAX_NESTING):
        deep = (deep,)
    with pytest.raises(IRError, match=f"nested more than {MAX_NESTING} levels"):
        attr_str(deep)
    nested: object = 1
    for _ in range(5 * MAX_NESTING):
        nested = {"a": nested}
    with pytest.raises(IRError, match=f"nested more than {MAX_NESTING} levels"):
        attr_str(nested)
    shallow: object = ()
    for _ in range(MAX_NESTING):
        shallow = (shallow,)
    assert attr_str(shallow) == "[" * (MAX_NESTING + 1) + "]" * (MAX_NESTING + 1)
