"""Shardy's annotation ops and collectives: text as MLIR prints it, identity semantics."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shardonnay.axes import AxisRef
from shardonnay.collectives.attributes import (
    AllToAllParam,
    AllToAllParamList,
    AxisRefList,
    ListOfAxisRefLists,
)
from shardonnay.errors import IRError, ParseError
from shardonnay.ir.attributes import IntegerAttr
from shardonnay.ops.registry import lookup
from shardonnay.runtime.interpreter import run
from shardonnay.sharding import TensorSharding, TensorShardingPerValue
from shardonnay.syntax.mlir_reader import parse_attribute, parse_module

MESH = 'sdy.mesh @mesh = <["x"=2, "y"=2, "z"=4, "w"=2]>\n'
T = "tensor<8x16xf32>"
T4 = "tensor<8x16x4x4xf32>"

# Each case is one function `@main` (plus helpers) exercising some ops.
ANNOTATIONS = {
    "sharding_constraint": f"""
func.func @main(%arg0: {T}) -> {T} {{
  %0 = sdy.sharding_constraint %arg0 <@mesh, [{{"x"}}, {{}}]> : {T}
  %1 = sdy.sharding_constraint %0 <@mesh, [{{"x", ?}}p1, {{?}}], replicated={{"y"}}>
      {{foo = 1 : i64}} : {T}
  %2 = sdy.sharding_constraint %1 <@mesh, [{{}}, {{"z":(1)2}}], unreduced={{"w"}}>
      {{sdy.keep}} : {T}
  return %2 : {T}
}}""",
    "reshard": f"""
func.func @main(%arg0: {T}) -> {T} {{
  %0 = sdy.reshard %arg0 <@mesh, [{{}}, {{"y"}}]> {{bar}} : {T}
  %1 = sdy.reshard %0 <mesh<["a"=2]>, [{{"a"}}, {{}}]> : {T}
  return %1 : {T}
}}""",
    "sharding_group": f"""
func.func @main(%arg0: {T}, %arg1: tensor<4xi32>) -> {T} {{
  sdy.sharding_group %arg0 group_id=0 : {T}
  sdy.sharding_group %arg1 group_id=3 {{baz = "q"}} : tensor<4xi32>
  sdy.sharding_group %arg0 group_id = 12 : {T}
  return %arg0 : {T}
}}""",
    "propagation_barrier": f"""
func.func @main(%arg0: {T}) -> {T} {{
  %0 = sdy.propagation_barrier %arg0 allowed_direction=NONE : {T}
  %1 = sdy.propagation_barrier %0 allowed_direction=FORWARD
      {{sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{{"x"}}, {{}}]>]>}} : {T}
  %2 = sdy.propagation_barrier %1 allowed_direction=BACKWARD {{q}} : {T}
  return %2 : {T}
}}""",
    "data_flow_edge": f"""
func.func @main(%arg0: {T}, %arg1: {T}) -> {T} {{
  %0 = sdy.data_flow_edge %arg0 sharding=<@mesh, [{{"x"}}, {{}}]> {{z = 1 : i32}} : {T}
  %1 = call @g(%arg1) : ({T}) -> {T}
  %2 = sdy.data_flow_edge %1 : {T}
  %3 = call @h(%0, %2) : ({T}, {T}) -> {T}
  return %3 : {T}
}}
func.func private @g(%arg0: {T}) -> {T} {{
  return %arg0 : {T}
}}
func.func private @h(%arg0: {T}, %arg1: {T}) -> {T} {{
  %0 = sdy.func_data_flow_edge %arg0 {{r}} : {T}
  return %0 : {T}
}}""",
    "constant": """
func.func @main(%arg0: tensor<4xi32>) -> (tensor<4xi32>, tensor<2x3xf32>, tensor<i1>) {
  %0 = sdy.constant dense<[1, -2, 3, 4]> : tensor<4xi32>
  %1 = sdy.constant {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>}
      dense<[[1.0, 2.5, -3.0], [0.0, 1.0e10, 7.0]]> : tensor<2x3xf32>
  %2 = sdy.constant dense<true> : tensor<i1>
  return %0, %1, %2 : tensor<4xi32>, tensor<2x3xf32>, tensor<i1>
}""",
    "named_computation": f"""
func.func @main(%arg0: {T}, %arg1: tensor<4xi32>) -> ({T}, tensor<4xi32>, {T}) {{
  %0 = sdy.named_computation<"foo">(%arg0) in_shardings=[<@mesh, [{{"x"}}, {{}}]>]
      out_shardings=[<@mesh, [{{"x"}}, {{}}]>] (%arg2: {T}) {{
    sdy.return %arg2 : {T}
  }} : ({T}) -> {T}
  %1:2 = sdy.named_computation<"b\\"ar">(%0, %arg1)
      out_shardings=[<@mesh, [{{"x"}}, {{}}]>, <@mesh, [{{}}]>] (%q: {T}, %r: tensor<4xi32>) {{
    %s = sdy.constant dense<[1, 2, 3, 4]> : tensor<4xi32>
    %t = func.call @add(%r, %s) : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
    sdy.return %q, %t : {T}, tensor<4xi32>
  }} {{mhlo.x = 1 : i64}} : ({T}, tensor<4xi32>) -> ({T}, tensor<4xi32>)
  %2 = sdy.named_computation<"c">() in_shardings=[] () {{
    %s = sdy.constant dense<2.0> : {T}
    sdy.return %s : {T}
  }} : () -> {T}
  sdy.named_computation<"d">() () {{
    sdy.return
  }} : () -> ()
  return %1#0, %1#1, %2 : {T}, tensor<4xi32>, {T}
}}
func.func private @add(%arg0: tensor<4xi32>, %arg1: tensor<4xi32>) -> tensor<4xi32> {{
  return %arg1 : tensor<4xi32>
}}""",
    "attributes": f"""
func.func @main(%arg0: {T} {{sdy.sharding = #sdy.sharding<@mesh, [{{"x"}}, {{"y", ?}}]>}})
    -> ({T} {{sdy.sharding = #sdy.sharding<@mesh, [{{}}, {{"y"}}]>, jax.result_info = "r"}}) {{
  %0 = call @g(%arg0) {{sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{{"x"}}, {{}}]>]>,
      sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {{i=8, j=16}}>}} : ({T}) -> {T}
  %1 = sdy.reshard %0 <@mesh, [{{"x"}}, {{}}]>
      {{sdy.sharding_rule = #sdy.op_sharding_rule<([i, j])->([i, j]) {{i=8, j=16}}, custom>}} : {T}
  return %1 : {T}
}}
func.func private @g(%arg0: {T}) -> {T} {{
  return %arg0 : {T}
}}""",
}

COLLECTIVES = {
    "rank2": f"""
func.func @main(%arg0: {T} {{sdy.sharding = #sdy.sharding<@mesh, [{{"x"}}, {{"y"}}]>}})
    -> {T} {{
  %0 = sdy.all_gather [{{"x"}}, {{}}] %arg0
      out_sharding=<@mesh, [{{}}, {{"y"}}]> : {T}
  %1 = sdy.all_slice [{{}}, {{"x"}}] %0
      out_sharding=<@mesh, [{{}}, {{"y", "x"}}]> : {T}
  %2 = sdy.all_to_all [{{"x"}}: 1->0] %1
      out_sharding=<@mesh, [{{"x"}}, {{"y"}}]> : {T}
  %3 = sdy.collective_permute %2
      out_sharding=<@mesh, [{{"y"}}, {{"x"}}]> : {T}
  %4 = sdy.all_reduce {{"z"}} %3
      out_sharding=<@mesh, [{{"y"}}, {{"x"}}]> : {T}
  %5 = sdy.reduce_scatter [{{"z"}}, {{}}] %4
      out_sharding=<@mesh, [{{"y", "z"}}, {{"x"}}]> : {T}
  return %5 : {T}
}}""",
    "rank4": f"""
func.func @main(%arg0: {T4} {{sdy.sharding = #sdy.sharding<@mesh, [{{"x"}}, {{"y"}}, {{}}, {{}}]>}})
    -> {T4} {{
  %0 = sdy.all_to_all [{{"x"}}: 0->2, {{"y"}}: 1->3] %arg0
      out_sharding=<@mesh, [{{}}, {{}}, {{"x"}}, {{"y"}}]> {{foo}} : {T4}
  %1 = sdy.all_reduce {{}} %0
      out_sharding=<@mesh, [{{}}, {{}}, {{"x"}}, {{"y"}}]> : {T4}
  %2 = sdy.all_slice [{{"z":(1)2}}, {{"z":(2)2}}, {{}}, {{}}] %1
      out_sharding=<@mesh, [{{"z":(1)2}}, {{"z":(2)2}}, {{"x"}}, {{"y"}}]> : {T4}
  %3 = sdy.all_gather [{{"z":(1)2}}, {{}}, {{}}, {{}}] %2
      out_sharding=<@mesh, [{{}}, {{"z":(2)2}}, {{"x"}}, {{"y"}}]>
      {{sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{{"x"}}, {{}}, {{}}, {{}}]>]>}} : {T4}
  %4 = sdy.collective_permute %3
      out_sharding=<@mesh, [{{}}, {{"z":(2)2}}, {{"y"}}, {{"x"}}]> {{bar = 2 : i64}} : {T4}
  %5 = sdy.reduce_scatter [{{}}, {{}}, {{"z":(1)2}}, {{}}] %4
      out_sharding=<@mesh, [{{}}, {{"z":(2)2}}, {{"y", "z":(1)2}}, {{"x"}}]> : {T4}
  %6 = sdy.all_reduce {{"z":(1)2, "w"}} %0
      out_sharding=<@mesh, [{{}}, {{}}, {{"x"}}, {{"y"}}]> : {T4}
  return %5 : {T4}
}}""",
    "unreduced": f"""
func.func @main(
    %arg0: {T4} {{sdy.sharding = #sdy.sharding<@mesh, [{{"x", "y"}}, {{}}, {{}}, {{}}]>}})
    -> {T4} {{
  %0 = sdy.all_to_all [{{"x", "y"}}: 0->2] %arg0
      out_sharding=<@mesh, [{{}}, {{}}, {{"x", "y"}}, {{}}]> : {T4}
  %1 = sdy.replicated_to_unreduced {{"z", "w"}} %0
      out_sharding=<@mesh, [{{}}, {{}}, {{"x", "y"}}, {{}}], unreduced={{"z", "w"}}> {{q}} : {T4}
  %2 = sdy.sharded_to_unreduced [{{}}, {{}}, {{"y"}}, {{}}] %1
      out_sharding=<@mesh, [{{}}, {{}}, {{"x"}}, {{}}], unreduced={{"y", "z", "w"}}> : {T4}
  return %2 : {T4}
}}""",
}

CASES = {**ANNOTATIONS, **{f"collectives_{k}": v for k, v in COLLECTIVES.items()}}


# -- text: the oracle procedure -------------------------------------------------------------


@pytest.mark.parametrize("case", sorted(CASES))
def test_text_matches_jaxlib(case: str) -> None:
    pytest.importorskip("jax")
    from shardonnay.testing.mlir_oracle import jaxlib_asm

    source = MESH + CASES[case]
    pretty = jaxlib_asm(source)
    generic = jaxlib_asm(source, generic=True)
    from_pretty = parse_module(pretty)
    from_generic = parse_module(generic)
    assert from_generic.to_text() == pretty
    assert from_pretty.to_text() == pretty
    assert from_pretty.to_text(generic=True) == generic
    assert from_generic.to_text(generic=True) == generic
    # The pretty form is only a view: both readings hold the same attributes.
    for a, b in zip(from_pretty.walk(), from_generic.walk(), strict=True):
        assert a.name == b.name
        assert a.attributes == b.attributes, a.name


def test_jax_lowering_round_trips_and_runs() -> None:
    jax = pytest.importorskip("jax")
    from jax.experimental.shard_alike import shard_alike
    from jax.sharding import AxisType, NamedSharding
    from jax.sharding import PartitionSpec as P

    from shardonnay.testing.mlir_oracle import jaxlib_asm

    mesh = jax.make_mesh((1, 1), ("x", "y"), axis_types=(AxisType.Auto,) * 2)

    def f(a, b):
        a = jax.lax.with_sharding_constraint(a, NamedSharding(mesh, P("x", "y")))
        return shard_alike(a, b)

    rng = np.random.default_rng(0)
    a, b = (rng.normal(size=(8, 16)).astype(np.float32) for _ in range(2))
    text = jax.jit(f).lower(a, b).as_text()
    assert "sdy.sharding_constraint" in text and "sdy.sharding_group" in text
    pretty = jaxlib_asm(text)
    module = parse_module(text)
    assert module.to_text() == pretty
    assert module.to_text(generic=True) == jaxlib_asm(text, generic=True)
    for got, want in zip(run(module, a, b), f(a, b), strict=True):
        np.testing.assert_allclose(got, np.asarray(want), rtol=1e-5)


# -- the structured attributes ----------------------------------------------------------------


def _ops(case: str) -> dict[str, list]:
    out: dict[str, list] = {}
    for op in parse_module(MESH + CASES[case]).walk():
        out.setdefault(op.name, []).append(op)
    return out


def test_collective_attributes_are_structured() -> None:
    ops = _ops("collectives_rank4")
    assert ops["sdy.all_to_all"][0].attributes["params"] == AllToAllParamList(
        (AllToAllParam(("x",), 0, 2), AllToAllParam(("y",), 1, 3))
    )
    slicing = ops["sdy.all_slice"][0].attributes["slicing_axes"]
    assert slicing == ListOfAxisRefLists(((AxisRef("z", (1, 2)),), (AxisRef("z", (2, 2)),), (), ()))
    assert slicing[1] == (AxisRef("z", (2, 2)),)
    reductions = [op.attributes["reduction_axes"] for op in ops["sdy.all_reduce"]]
    assert reductions == [AxisRefList(()), AxisRefList((AxisRef("z", (1, 2)), "w"))]
    permute = ops["sdy.collective_permute"][0]
    assert set(permute.attributes) == {"out_sharding", "bar"}
    assert not permute.is_inherent("bar") and permute.is_inherent("out_sharding")


@pytest.mark.parametrize(
    "text",
    [
        '#sdy<list_of_axis_ref_lists[{"x"}, {}]>',
        "#sdy<list_of_axis_ref_lists[]>",
        '#sdy<axis_ref_list{"z":(1)2, "w"}>',
        "#sdy<axis_ref_list{}>",
        '#sdy<all_to_all_param_list[{"x", "y"}: 0->2, {"z"}: 1->3]>',
    ],
)
def test_axis_list_attributes_print_back(text: str) -> None:
    value = parse_attribute(text)
    assert isinstance(value, AxisRefList | ListOfAxisRefLists | AllToAllParamList)
    assert str(value) == text
    assert type(value).parse(text) == value
    assert type(value).parse(value.body()) == value


@pytest.mark.parametrize(
    "text",
    [
        '#sdy<list_of_axis_ref_lists[{"x"} {}]>',
        '#sdy<axis_ref_list{"x":(1}>',
        '#sdy<all_to_all_param_list[{"x"}: 0 2]>',
        '#sdy<all_to_all_param_list[{"x"}: 0->]>',
    ],
)
def test_malformed_axis_list_attributes(text: str) -> None:
    with pytest.raises(ParseError):
        parse_attribute(text)


def test_annotation_attributes() -> None:
    ops = _ops("propagation_barrier")
    directions = [op.attributes["allowed_direction"] for op in ops["sdy.propagation_barrier"]]
    assert directions == [IntegerAttr(0, "i32"), IntegerAttr(1, "i32"), IntegerAttr(2, "i32")]
    group = _ops("sharding_group")["sdy.sharding_group"]
    assert [op.attributes["group_id"] for op in group] == [
        IntegerAttr(0),
        IntegerAttr(3),
        IntegerAttr(12),
    ]
    assert all(not op.results for op in group)
    named = _ops("named_computation")["sdy.named_computation"]
    assert [op.attributes["name"] for op in named] == ["foo", 'b"ar', "c", "d"]
    assert named[0].attributes["in_shardings"] == TensorShardingPerValue(
        (TensorSharding.parse('<@mesh, [{"x"}, {}]>'),)
    )
    assert named[2].attributes["in_shardings"] == TensorShardingPerValue(())
    assert "in_shardings" not in named[1].attributes


def test_no_sdy_op_names_its_results() -> None:
    for case in CASES:
        for op in parse_module(MESH + CASES[case]).walk():
            if op.name.startswith("sdy."):
                assert lookup(op.name).result_names(op) is None


# -- semantics: the identity on the global program --------------------------------------------


def _identity_chain(shape: tuple[int, ...], dtype: str) -> str:
    t = f"tensor<{'x'.join(map(str, shape))}{'x' if shape else ''}{dtype}>"
    dims = ", ".join(["{}"] * len(shape))
    sharded = ", ".join(['{"x"}'] + ["{}"] * (len(shape) - 1))
    return f"""{MESH}
func.func @main(%arg0: {t} {{sdy.sharding = #sdy.sharding<@mesh, [{sharded}]>}}) -> ({t}, {t}) {{
  %0 = sdy.all_gather [{sharded}] %arg0 out_sharding=<@mesh, [{dims}]> : {t}
  %1 = sdy.all_slice [{sharded}] %0 out_sharding=<@mesh, [{sharded}]> : {t}
  %2 = sdy.collective_permute %1 out_sharding=<@mesh, [{sharded}]> : {t}
  %3 = sdy.all_reduce {{"z"}} %2 out_sharding=<@mesh, [{sharded}]> : {t}
  %4 = sdy.sharding_constraint %3 <@mesh, [{dims}]> : {t}
  %5 = sdy.reshard %4 <@mesh, [{sharded}]> : {t}
  sdy.sharding_group %5 group_id=0 : {t}
  %6 = sdy.propagation_barrier %5 allowed_direction=FORWARD : {t}
  %7 = sdy.data_flow_edge %6 sharding=<@mesh, [{dims}]> : {t}
  %8 = sdy.func_data_flow_edge %7 : {t}
  %9:2 = sdy.named_computation<"f">(%8, %arg0) (%arg1: {t}, %arg2: {t}) {{
    sdy.return %arg2, %arg1 : {t}, {t}
  }} : ({t}, {t}) -> ({t}, {t})
  return %9#1, %9#0 : {t}, {t}
}}"""


_NUMPY = {"f32": np.float32, "f64": np.float64, "i32": np.int32, "i1": np.bool_}


@settings(max_examples=15, deadline=None)
@given(
    shape=st.lists(st.integers(1, 5), min_size=1, max_size=3).map(tuple),
    dtype=st.sampled_from(["f32", "i32", "f64", "i1"]),
    seed=st.integers(0, 2**16),
)
def test_annotations_and_collectives_are_identities(shape, dtype, seed) -> None:
    shape = (2 * shape[0], *shape[1:])  # dim 0 is sharded along "x"=2
    module = parse_module(_identity_chain(shape, dtype))
    rng = np.random.default_rng(seed)
    x = (rng.normal(size=shape) * 4).astype(_NUMPY[dtype])
    results = run(module, x)
    t = str(module.function("main").type.inputs[0])
    plain = parse_module(f"func.func @main(%a: {t}) -> ({t}, {t}) {{ return %a, %a : {t}, {t} }}")
    assert len(results) == 2
    for r, p in zip(results, run(plain, x), strict=True):
        np.testing.assert_array_equal(r, p)
    for r in results:
        assert r.dtype == x.dtype and r.shape == x.shape
        np.testing.assert_array_equal(r, x)


@pytest.mark.parametrize("case", ["rank4", "unreduced"])
def test_collective_chains_are_identities(case: str) -> None:
    module = parse_module(MESH + COLLECTIVES[case])
    x = np.random.default_rng(1).normal(size=(8, 16, 4, 4)).astype(np.float32)
    (y,) = run(module, x)
    np.testing.assert_array_equal(y, x)


def test_named_computation_and_constants_run() -> None:
    module = parse_module(MESH + ANNOTATIONS["named_computation"])
    x = np.random.default_rng(2).normal(size=(8, 16)).astype(np.float32)
    ids = np.arange(4, dtype=np.int32)
    a, b, c = run(module, x, ids)
    np.testing.assert_array_equal(a, x)
    np.testing.assert_array_equal(b, np.array([1, 2, 3, 4], np.int32))  # @add returns its 2nd
    np.testing.assert_array_equal(c, np.full((8, 16), 2.0, np.float32))
    consts = run(parse_module(MESH + ANNOTATIONS["constant"]), ids)
    np.testing.assert_array_equal(consts[0], np.array([1, -2, 3, 4], np.int32))
    np.testing.assert_array_equal(
        consts[1], np.array([[1.0, 2.5, -3.0], [0.0, 1.0e10, 7.0]], np.float32)
    )
    assert consts[2].dtype == np.bool_ and consts[2].shape == () and bool(consts[2])


# -- verification and errors ---------------------------------------------------------------


def _verify_all(text: str) -> None:
    for op in parse_module(MESH + text).walk():
        lookup(op.name).verify(op)


def _main(body: str, arg: str = f"%arg0: {T}") -> str:
    return f"func.func @main({arg}) -> {T} {{\n  {body}\n  return %arg0 : {T}\n}}"


SHARDED_ARG = f'%arg0: {T} {{sdy.sharding = #sdy.sharding<@mesh, [{{"x"}}, {{}}]>}}'


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (
            f'%0 = sdy.sharding_constraint %arg0 <@mesh, [{{"x"}}]> : {T}',
            "sharding doesn't match tensor rank: 1 != 2",
        ),
        (
            f'%0 = "sdy.reshard"(%arg0) <{{sharding = #sdy.sharding<@mesh, [{{}}, {{}}]>}}> '
            f": ({T}) -> tensor<8x8xf32>",
            "requires the same type for all operands and results",
        ),
        (
            f'%0 = sdy.all_gather [{{"x"}}] %arg0 out_sharding=<@mesh, [{{}}, {{}}]> : {T}',
            "result sharding has rank 2 but collective axes has rank 1",
        ),
        (
            f'%0 = sdy.all_to_all [{{"x"}}: 0->2] %arg0 out_sharding=<@mesh, [{{}}, {{"x"}}]>'
            f" : {T}",
            "target dimension 2 is out of range [0, 2)",
        ),
        (
            f'%0 = sdy.all_to_all [{{"x"}}: 0->0] %arg0 out_sharding=<@mesh, [{{}}, {{"x"}}]>'
            f" : {T}",
            "overlapping source/target dimensions in all-to-all params: 0",
        ),
        (
            f'%0 = sdy.all_to_all [] %arg0 out_sharding=<@mesh, [{{"x"}}, {{}}]> : {T}',
            "parameter list is empty",
        ),
        (
            f"%0 = sdy.propagation_barrier %arg0 allowed_direction=BOTH : {T}",
            "cannot specify `BOTH` as the direction",
        ),
        (
            f'%0 = sdy.named_computation<"f">(%arg0) in_shardings=[] (%b: {T}) {{\n'
            f"    sdy.return %b : {T}\n  }} : ({T}) -> {T}",
            "in_shardings shardings don't match number of values: 0 shardings vs 1 values",
        ),
        (
            f'%0 = sdy.named_computation<"f">(%arg0) out_shardings=[<@mesh, [{{"x"}}]>] '
            f"(%b: {T}) {{\n    sdy.return %b : {T}\n  }} : ({T}) -> {T}",
            "out_shardings - sharding doesn't match tensor rank: 1 != 2",
        ),
        (
            '%0 = "sdy.constant"() <{value = dense<1.0> : tensor<8x16xf32>}> : () -> tensor<8xf32>',
            "inferred type(s) 'tensor<8x16xf32>' are incompatible with return type(s) of "
            "operation 'tensor<8xf32>'",
        ),
    ],
)
def test_verifier_agrees_with_shardy(body: str, message: str) -> None:
    text = _main(body, SHARDED_ARG)
    with pytest.raises(IRError, match=_escape(message)):
        _verify_all(text)
    jax = pytest.importorskip("jax")
    del jax
    from shardonnay.testing.mlir_oracle import jaxlib_accepts

    assert not jaxlib_accepts(MESH + text)


def _escape(message: str) -> str:
    import re

    return re.escape(message)


@pytest.mark.parametrize(
    ("body", "message"),
    [
        (f"%0 = sdy.propagation_barrier %arg0 allowed_direction=UP : {T}", "unknown direction"),
        ("%0 = sdy.sharding_constraint %arg0 <@mesh, [{}, {}]> : tensor<8xf32>", "type"),
        (f"sdy.sharding_group %arg0 group_id=x : {T}", "a group id"),
        (f"%0 = sdy.data_flow_edge %arg0 sharding <@mesh, [{{}}, {{}}]> : {T}", "'='"),
        ('%0 = sdy.constant "a" : tensor<f32>', "dense"),
        (f"%0 = sdy.all_reduce {{}} %arg0 : {T}", "out_sharding"),
        (f'%0 = sdy.all_reduce [{{"x"}}] %arg0 out_sharding=<@mesh, [{{}}, {{}}]> : {T}', "'{'"),
        (
            f'%0 = sdy.named_computation<"f">(%arg0) (%b: tensor<8xf32>) {{\n'
            f"    sdy.return %b : tensor<8xf32>\n  }} : ({T}) -> tensor<8xf32>",
            "block arguments",
        ),
    ],
)
def test_parse_errors(body: str, message: str) -> None:
    with pytest.raises(ParseError, match=_escape(message)):
        parse_module(MESH + _main(body))


def test_valid_cases_verify() -> None:
    for case in CASES:
        _verify_all(CASES[case])
