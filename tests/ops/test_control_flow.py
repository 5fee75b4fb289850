# ruff: noqa: E501
"""Control flow and structural StableHLO ops: syntax against MLIR's printer,
semantics against JAX and the StableHLO spec."""

from __future__ import annotations

import numpy as np
import pytest

from shardonnay.errors import IRError, ParseError, UnsupportedOpError
from shardonnay.ops.registry import lookup
from shardonnay.runtime.interpreter import TOKEN, run
from shardonnay.syntax.mlir_reader import parse_module

# -- syntax: hand-written modules that use only the ops of this family ------------------------

LOOPS_AND_BRANCHES = """
func.func @main(%p: tensor<i1>, %a: tensor<8xf32>, %i: tensor<i32>) -> tensor<8xf32> {
  %0:2 = "stablehlo.while"(%p, %a) ({
    ^bb0(%x: tensor<i1>, %y: tensor<8xf32>):
      stablehlo.return %x : tensor<i1>
  }, {
    ^bb0(%x: tensor<i1>, %y: tensor<8xf32>):
      %b:2 = stablehlo.optimization_barrier %y, %x : tensor<8xf32>, tensor<i1>
      %n = "stablehlo.while"(%b#0) ({
        ^bb0(%z: tensor<8xf32>):
          stablehlo.return %p : tensor<i1>
      }, {
        ^bb0(%z: tensor<8xf32>):
          stablehlo.return %z : tensor<8xf32>
      }) {foo = 1 : i32, "mhlo.bar" = "q"} : (tensor<8xf32>) -> tensor<8xf32>
      stablehlo.return %b#1, %n : tensor<i1>, tensor<8xf32>
  }) : (tensor<i1>, tensor<8xf32>) -> (tensor<i1>, tensor<8xf32>)
  %1 = "stablehlo.case"(%i) ({
    stablehlo.return %a : tensor<8xf32>
  }, {
    %c = "stablehlo.optimization_barrier"(%0#1) {k = 2} : (tensor<8xf32>) -> tensor<8xf32>
    stablehlo.return %c : tensor<8xf32>
  }, {
    %c = "stablehlo.if"(%p) ({
      stablehlo.return %a : tensor<8xf32>
    }, {
      stablehlo.return %0#1 {x = 1} : tensor<8xf32>
    }) {y = 3} : (tensor<i1>) -> tensor<8xf32>
    stablehlo.return %c : tensor<8xf32>
  }) : (tensor<i32>) -> tensor<8xf32>
  "stablehlo.optimization_barrier"() {q = 1} : () -> ()
  "stablehlo.optimization_barrier"() : () -> ()
  "stablehlo.while"() ({
    stablehlo.return %p : tensor<i1>
  }, {
    "stablehlo.return"() {x = 1} : () -> ()
  }) {y = 2}: () -> ()
  "stablehlo.while"() ({
    stablehlo.return %p : tensor<i1>
  }, {
    stablehlo.return
  }) : () -> ()
  return %1 : tensor<8xf32>
}
"""

TOKENS_AND_TUPLES = """
func.func @main(%a: tensor<8xf32>, %t: !stablehlo.token) -> tensor<8xf32> {
  %t1 = stablehlo.after_all : !stablehlo.token
  %t2 = stablehlo.after_all %t, %t1 {a = 1} : !stablehlo.token
  %t3 = "stablehlo.after_all"() {a = 1} : () -> !stablehlo.token
  %u = stablehlo.tuple %a, %t2 : tuple<tensor<8xf32>, !stablehlo.token>
  %u2 = stablehlo.tuple : tuple<>
  %u3 = stablehlo.tuple %u, %u2 {k = "v"} : tuple<tuple<tensor<8xf32>, !stablehlo.token>, tuple<>>
  %g = stablehlo.get_tuple_element %u3[0]
      : (tuple<tuple<tensor<8xf32>, !stablehlo.token>, tuple<>>) -> tuple<tensor<8xf32>, !stablehlo.token>
  %g2 = stablehlo.get_tuple_element %g[0] {z = 2} : (tuple<tensor<8xf32>, !stablehlo.token>) -> tensor<8xf32>
  return %g2 : tensor<8xf32>
}
"""

CALLS = """
func.func @main(%a: tensor<4xf32>, %b: tensor<2x3xi32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %0 = "stablehlo.custom_call"(%a) {call_target_name = "Sharding", mhlo.sharding = "{replicated}"} : (tensor<4xf32>) -> tensor<4xf32>
  %1:2 = "stablehlo.custom_call"(%a, %b) {call_target_name = "foo", has_side_effect = true, backend_config = "cfg", api_version = 2 : i32} : (tensor<4xf32>, tensor<2x3xi32>) -> (tensor<4xf32>, tensor<2x3xi32>)
  %2 = "stablehlo.custom_call"(%a) {call_target_name = "bar", has_side_effect = false, backend_config = "", api_version = 1 : i32} : (tensor<4xf32>) -> tensor<4xf32>
  %3 = "stablehlo.custom_call"(%a) {call_target_name = "baz", api_version = 4 : i32, backend_config = {x = 1 : i32}, operand_layouts = [dense<0> : tensor<1xindex>], result_layouts = [dense<0> : tensor<1xindex>], output_operand_aliases = [#stablehlo.output_operand_alias<output_tuple_indices = [], operand_index = 0, operand_tuple_indices = []>]} : (tensor<4xf32>) -> tensor<4xf32>
  %4 = "stablehlo.custom_call"(%a) {call_target_name = "qq", called_computations = [@helper], api_version = 3 : i32} : (tensor<4xf32>) -> tuple<tensor<4xf32>, tensor<i32>>
  "stablehlo.custom_call"() {call_target_name = "nothing", has_side_effect = true} : () -> ()
  %5 = "stablehlo.custom_call"(%a) {call_target_name = "weird name.x", mhlo.frontend_attributes = {a = "b"}, called_computations = [], output_operand_aliases = []} : (tensor<4xf32>) -> tensor<4xf32>
  %6 = "stablehlo.composite"(%a) {name = "a.b", decomposition = @helper, version = 0 : i32, composite_attributes = {}} : (tensor<4xf32>) -> tensor<4xf32>
  %7 = "stablehlo.composite"() {name = "a.c", decomposition = @k, mhlo.x = 1} : () -> tensor<4xf32>
  %8:2 = "stablehlo.composite"(%a, %7) {name = "a.d", decomposition = @m, version = 1 : i32, composite_attributes = {s = 2.0 : f32}} : (tensor<4xf32>, tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  %9 = "stablehlo.custom_call"(%8#0) {call_target_name = "annotate_device_placement", has_side_effect = true, mhlo.frontend_attributes = {_xla_buffer_placement = "device"}} : (tensor<4xf32>) -> tensor<4xf32>
  return %0, %6, %9 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}
func.func private @helper(%a: tensor<4xf32>) -> tensor<4xf32> {
  return %a : tensor<4xf32>
}
func.func private @k() -> tensor<4xf32> {
  %c = "stablehlo.custom_call"() {call_target_name = "k"} : () -> tensor<4xf32>
  return %c : tensor<4xf32>
}
func.func private @m(%a: tensor<4xf32>, %b: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  return %b, %a : tensor<4xf32>, tensor<4xf32>
}
"""


def assert_matches_oracle(text: str) -> None:
    """The four-way comparison with MLIR's own parser and printer."""
    from shardonnay.testing.mlir_oracle import jaxlib_asm

    pretty = jaxlib_asm(text)
    generic = jaxlib_asm(text, generic=True)
    from_generic = parse_module(generic)
    assert from_generic.to_text() == pretty
    assert from_generic.to_text(generic=True) == generic
    from_pretty = parse_module(pretty)
    assert from_pretty.to_text() == pretty
    # The pretty form elides defaults, so compare with MLIR's reading of it.
    assert from_pretty.to_text(generic=True) == jaxlib_asm(pretty, generic=True)


@pytest.mark.parametrize(
    "text", [LOOPS_AND_BRANCHES, TOKENS_AND_TUPLES, CALLS], ids=["loops", "tuples", "calls"]
)
def test_syntax_matches_mlir(text: str) -> None:
    pytest.importorskip("jax")
    assert_matches_oracle(text)


def test_while_pretty_form_details() -> None:
    pytest.importorskip("jax")
    from shardonnay.testing.mlir_oracle import jaxlib_asm

    out = parse_module(jaxlib_asm(LOOPS_AND_BRANCHES)).to_text()
    assert (
        "stablehlo.while(%iterArg = %arg0, %iterArg_0 = %arg1) : tensor<i1>, tensor<8xf32>\n" in out
    )
    assert "\n      cond {\n" in out  # the nested loop: `cond` at the op's indentation
    assert 'attributes {foo = 1 : i32, mhlo.bar = "q"}' in out
    assert "stablehlo.while() attributes {y = 2 : i64}\n    cond {" in out
    assert "stablehlo.return \n" in out and "stablehlo.return  {x = 1 : i64}\n" in out
    assert "stablehlo.optimization_barrier {q = 1 : i64}()" in out


def test_custom_call_elides_only_defaults() -> None:
    pytest.importorskip("jax")
    from shardonnay.testing.mlir_oracle import jaxlib_asm

    out = parse_module(jaxlib_asm(CALLS, generic=True)).to_text()
    assert 'stablehlo.custom_call @bar(%arg0) {backend_config = ""} :' in out
    assert '@foo(%arg0, %arg1) {api_version = 2 : i32, backend_config = "cfg", ' in out
    assert '@"weird name.x"(%arg0) {mhlo.frontend_attributes' in out
    assert 'stablehlo.composite "a.b" %arg0 {decomposition = @helper} :' in out
    assert 'stablehlo.composite "a.c"  {decomposition = @k, mhlo.x = 1 : i64}' in out


# -- syntax and numerics of programs JAX writes ---------------------------------------------------


def _check_against_jax(f, *args) -> None:
    import jax

    text = jax.jit(f).lower(*args).as_text()
    assert_matches_oracle(text)
    got = run(parse_module(text), *args)
    want = [np.asarray(w) for w in jax.tree.leaves(jax.jit(f)(*args))]
    assert len(got) == len(want)
    for g, w in zip(got, want, strict=True):
        assert g.dtype == w.dtype and g.shape == w.shape
        np.testing.assert_allclose(g, w, rtol=1e-5, atol=1e-6)


def _rand(shape, dtype, seed=0):
    rng = np.random.default_rng(seed)
    if np.dtype(dtype).kind == "f":
        return rng.normal(size=shape).astype(dtype)
    return rng.integers(-5, 5, size=shape).astype(dtype)


@pytest.mark.parametrize("shape", [(), (3,), (2, 3)])
@pytest.mark.parametrize("dtype", [np.float32, np.int32])
@pytest.mark.parametrize("trips", [0, 1, 4])
def test_fori_loop(shape, dtype, trips) -> None:
    jax = pytest.importorskip("jax")
    scale = dtype(2)

    def f(x):
        return jax.lax.fori_loop(0, trips, lambda i, c: c * scale + i.astype(dtype), x)

    _check_against_jax(f, _rand(shape, dtype))


@pytest.mark.parametrize("limit", [-3, 0, 5])
def test_while_loop_data_dependent(limit) -> None:
    jax = pytest.importorskip("jax")

    def f(x, n):
        def body(c):
            i, acc = c
            return i + 1, acc * 0.5 + x

        return jax.lax.while_loop(lambda c: c[0] < n, body, (np.int32(0), x))

    _check_against_jax(f, _rand((2, 2), np.float32), np.int32(limit))


@pytest.mark.parametrize("length", [1, 5])
def test_scan_with_several_carries(length) -> None:
    jax = pytest.importorskip("jax")

    def f(xs):
        def step(carry, x):
            a, b, k = carry
            return (a + x, b * 2.0 - x, k + 1), a * x

        return jax.lax.scan(step, (xs[0], xs[0] * 0.0, np.int32(0)), xs)

    _check_against_jax(f, _rand((length, 3), np.float32))


@pytest.mark.parametrize("pred", [True, False])
def test_cond(pred) -> None:
    jax = pytest.importorskip("jax")

    def f(p, x, y):
        return jax.lax.cond(p, lambda a, b: (a + b, a), lambda a, b: (a * b, b), x, y)

    _check_against_jax(f, np.bool_(pred), _rand((4,), np.float32), _rand((4,), np.float32, 1))


@pytest.mark.parametrize("index", [-2, 0, 1, 2, 7])
def test_switch_three_branches(index) -> None:
    jax = pytest.importorskip("jax")
    branches = [lambda y: y + 1.0, lambda y: y - 1.0, lambda y: y * 2.0]

    def f(i, x):
        return jax.lax.switch(i, branches, x)

    _check_against_jax(f, np.int32(index), _rand((2, 3), np.float32))


@pytest.mark.parametrize("pred", [True, False])
def test_while_nested_in_cond(pred) -> None:
    jax = pytest.importorskip("jax")

    def f(p, x):
        loop = lambda y: jax.lax.fori_loop(0, 3, lambda i, c: c * 2.0 + 1.0, y)  # noqa: E731
        return jax.lax.cond(p, loop, lambda y: y - 1.0, x)

    _check_against_jax(f, np.bool_(pred), _rand((8, 4), np.float32))


def test_optimization_barrier() -> None:
    jax = pytest.importorskip("jax")

    def f(x, y):
        a, b = jax.lax.optimization_barrier((x * 2.0, y))
        return a + 1.0, b

    _check_against_jax(f, _rand((3,), np.float32), _rand((2, 2), np.int32))


# -- semantics on hand-written programs ------------------------------------------------------------

CLOSURE = """
func.func @main(%arg0: tensor<4xf32>, %arg1: tensor<4xf32>) -> tensor<4xf32> {
  %c0 = "stablehlo.constant"() <{value = dense<0> : tensor<i32>}> : () -> tensor<i32>
  %c1 = "stablehlo.constant"() <{value = dense<1> : tensor<i32>}> : () -> tensor<i32>
  %c3 = "stablehlo.constant"() <{value = dense<3> : tensor<i32>}> : () -> tensor<i32>
  %0:2 = stablehlo.while(%iterArg = %c0, %iterArg_0 = %arg0) : tensor<i32>, tensor<4xf32>
  cond {
    %1 = "stablehlo.compare"(%iterArg, %c3) <{comparison_direction = #stablehlo<comparison_direction LT>}> : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  } do {
    %1 = "stablehlo.add"(%iterArg_0, %arg1) : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    %2 = "stablehlo.add"(%iterArg, %c1) : (tensor<i32>, tensor<i32>) -> tensor<i32>
    stablehlo.return %2, %1 : tensor<i32>, tensor<4xf32>
  }
  return %0#1 : tensor<4xf32>
}
"""


def test_while_body_uses_a_value_defined_above_the_loop() -> None:
    x, y = _rand((4,), np.float32), _rand((4,), np.float32, 1)
    (got,) = run(parse_module(CLOSURE), x, y)
    np.testing.assert_allclose(got, x + y + y + y, rtol=1e-6)


BRANCHES_ONLY = """
func.func @main(%p: tensor<i1>, %stop: tensor<i1>, %i: tensor<i32>, %a: tensor<3xf32>,
                %b: tensor<3xf32>, %c: tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>, tensor<i1>) {
  %0 = "stablehlo.case"(%i) ({
    stablehlo.return %a : tensor<3xf32>
  }, {
    stablehlo.return %b : tensor<3xf32>
  }, {
    stablehlo.return %c : tensor<3xf32>
  }) : (tensor<i32>) -> tensor<3xf32>
  %1 = "stablehlo.if"(%p) ({
    stablehlo.return %a : tensor<3xf32>
  }, {
    stablehlo.return %b : tensor<3xf32>
  }) : (tensor<i1>) -> tensor<3xf32>
  %2:2 = stablehlo.while(%iterArg = %p, %iterArg_0 = %a) : tensor<i1>, tensor<3xf32>
  cond {
    stablehlo.return %iterArg : tensor<i1>
  } do {
    stablehlo.return %stop, %c : tensor<i1>, tensor<3xf32>
  }
  return %0, %1, %2#0 : tensor<3xf32>, tensor<3xf32>, tensor<i1>
}
"""


@pytest.mark.parametrize("index", [-1, 0, 1, 2, 3, 100])
@pytest.mark.parametrize("pred", [True, False])
def test_case_if_and_closures_without_arithmetic(index, pred) -> None:
    a, b, c = (np.full(3, v, np.float32) for v in (1, 2, 3))
    case, if_, stopped = run(parse_module(BRANCHES_ONLY), pred, False, index, a, b, c)
    # Out-of-range indices select the last branch.
    np.testing.assert_array_equal(case, [a, b, c][index if 0 <= index < 3 else 2])
    np.testing.assert_array_equal(if_, a if pred else b)
    # The loop body replaces the carry with values defined above the loop.
    assert not stopped


COMPOSITE = """
func.func @main(%a: tensor<4xf32>, %b: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
  %0:2 = stablehlo.composite "my.swap" %a, %b {decomposition = @swap, version = 2 : i32} : (tensor<4xf32>, tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  %1 = stablehlo.custom_call @Sharding(%0#0) {mhlo.sharding = "{replicated}"} : (tensor<4xf32>) -> tensor<4xf32>
  %2 = stablehlo.custom_call @annotate_device_placement(%0#1) {has_side_effect = true} : (tensor<4xf32>) -> tensor<4xf32>
  %3 = stablehlo.custom_call @SPMDFullToShardShape(%2) {mhlo.sharding = "{manual}"} : (tensor<4xf32>) -> tensor<4xf32>
  return %1, %2, %3 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
}
func.func private @swap(%a: tensor<4xf32>, %b: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  return %b, %a : tensor<4xf32>, tensor<4xf32>
}
"""


def test_composite_and_annotation_calls() -> None:
    a, b = _rand((4,), np.float32), _rand((4,), np.float32, 1)
    first, second, third = run(parse_module(COMPOSITE), a, b)
    np.testing.assert_array_equal(first, b)
    np.testing.assert_array_equal(second, a)
    np.testing.assert_array_equal(third, a)


@pytest.mark.parametrize(
    ("call", "message"),
    [
        ('@my_kernel(%a) {backend_config = ""} : (tensor<4xf32>) -> tensor<4xf32>', "@my_kernel"),
        (
            '@SPMDFullToShardShape(%a) {mhlo.sharding = "{manual}"} : (tensor<4xf32>) -> '
            "tensor<2xf32>",
            "changes the shape",
        ),
    ],
)
def test_unsupported_custom_calls(call: str, message: str) -> None:
    result = call.rsplit("-> ", 1)[1]
    text = (
        f"func.func @main(%a: tensor<4xf32>) -> {result} {{\n"
        f"  %0 = stablehlo.custom_call {call}\n"
        f"  return %0 : {result}\n}}"
    )
    with pytest.raises(UnsupportedOpError, match=message):
        run(parse_module(text), np.zeros(4, np.float32))


def test_tokens_and_tuples_evaluate() -> None:
    a = _rand((8,), np.float32)
    (got,) = run(parse_module(TOKENS_AND_TUPLES), a, TOKEN)
    np.testing.assert_array_equal(got, a)


# -- verification and errors ---------------------------------------------------------------------


def _first(text: str, name: str):
    return next(op for op in parse_module(text).walk() if op.name == name)


def _while(cond_result: str, body_result: str) -> str:
    return f"""
func.func @main(%p: tensor<i1>, %i: tensor<i32>, %a: tensor<3xf32>) -> tensor<3xf32> {{
  %0 = stablehlo.while(%iterArg = %a) : tensor<3xf32>
  cond {{
    stablehlo.return {cond_result}
  }} do {{
    stablehlo.return {body_result}
  }}
  return %0 : tensor<3xf32>
}}"""


def test_verify_accepts_well_formed_ops() -> None:
    lookup("stablehlo.while").verify(
        _first(_while("%p : tensor<i1>", "%iterArg : tensor<3xf32>"), "stablehlo.while")
    )
    module = parse_module(BRANCHES_ONLY)
    for op in module.walk():
        lookup(op.name).verify(op)


@pytest.mark.parametrize(
    ("cond_result", "body_result", "message"),
    [
        ("%i : tensor<i32>", "%iterArg : tensor<3xf32>", r"cond region returns \(tensor<i32>\)"),
        ("%p, %p : tensor<i1>, tensor<i1>", "%iterArg : tensor<3xf32>", "cond region returns"),
        ("%p : tensor<i1>", "%i : tensor<i32>", r"body region returns \(tensor<i32>\)"),
        ("%p : tensor<i1>", "", r"body region returns \(\), expected \(tensor<3xf32>\)"),
    ],
)
def test_verify_rejects_bad_while_regions(cond_result, body_result, message) -> None:
    op = _first(_while(cond_result, body_result), "stablehlo.while")
    with pytest.raises(IRError, match=message):
        lookup("stablehlo.while").verify(op)


def test_verify_rejects_bad_branches() -> None:
    bad_if = BRANCHES_ONLY.replace(
        "  }, {\n    stablehlo.return %b : tensor<3xf32>\n  }) : (tensor<i1>)",
        "  }, {\n    stablehlo.return %i : tensor<i32>\n  }) : (tensor<i1>)",
    )
    with pytest.raises(IRError, match=r"branch 1 returns \(tensor<i32>\)"):
        lookup("stablehlo.if").verify(_first(bad_if, "stablehlo.if"))
    bad_case = BRANCHES_ONLY.replace('"stablehlo.case"(%i)', '"stablehlo.case"(%p)').replace(
        ": (tensor<i32>) -> tensor<3xf32>", ": (tensor<i1>) -> tensor<3xf32>"
    )
    with pytest.raises(IRError, match="branch index must be a tensor<i32>"):
        lookup("stablehlo.case").verify(_first(bad_case, "stablehlo.case"))
    bad_pred = BRANCHES_ONLY.replace('"stablehlo.if"(%p)', '"stablehlo.if"(%i)').replace(
        ": (tensor<i1>) -> tensor<3xf32>", ": (tensor<i32>) -> tensor<3xf32>"
    )
    with pytest.raises(IRError, match="predicate must be a tensor<i1>"):
        lookup("stablehlo.if").verify(_first(bad_pred, "stablehlo.if"))


@pytest.mark.parametrize(
    ("op", "message"),
    [
        ("%0 = stablehlo.while(%iterArg = %a) : tensor<2xf32>\n cond {", "use of a value of type"),
        ("%0 = stablehlo.while(%iterArg %a) : tensor<3xf32>", "expected '='"),
        ("%0 = stablehlo.while(%iterArg = %a) : tensor<3xf32> cond {} {}", "expected 'do'"),
        ("%0 = stablehlo.custom_call @f(%a) (tensor<3xf32>) -> tensor<3xf32>", "expected ':'"),
        (
            '%0 = stablehlo.custom_call @f(%a) {call_target_name = "g"} : '
            "(tensor<3xf32>) -> tensor<3xf32>",
            "given as @target",
        ),
        ("%0 = stablehlo.optimization_barrier : tensor<3xf32>", "expected operands or '\\(\\)'"),
        ("%0 = stablehlo.after_all %a : !stablehlo.token", "use of a value of type"),
        ("%0 = stablehlo.tuple %a : tensor<3xf32>", "not a tuple type"),
        ('%0 = stablehlo.composite "x" %a : (tensor<3xf32>) -> tensor<3xf32> {', "expected"),
    ],
)
def test_parse_errors(op: str, message: str) -> None:
    text = f"func.func @main(%a: tensor<3xf32>) -> tensor<3xf32> {{\n  {op}\n}}"
    with pytest.raises(ParseError, match=message):
        parse_module(text)
