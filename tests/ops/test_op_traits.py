"""The traits declared on op definitions (`shardonnay.ops.traits`) state true facts.

Each trait is checked against the op itself: its sharding rule, its numpy
semantics (the reference interpreter), where it sits in a block, or the
values the data-flow accessor ties, never against a second list of names.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from shardonnay.ir.core import Module, Op
from shardonnay.ops.registry import lookup
from shardonnay.ops.rules import rule_for
from shardonnay.ops.traits import (
    BROADCASTING_ELEMENTWISE,
    COMPUTATION,
    CONTRACTION,
    COPIES_ELEMENTS,
    DATA_FLOW,
    DEVICE_COLLECTIVE,
    ELEMENTWISE,
    GROUPED_DEVICES,
    ISOLATED_FROM_ABOVE,
    PASS_THROUGH,
    RECURSIVE_EFFECTS,
    SHARDING_COLLECTIVE,
    TERMINATOR,
    Combiner,
    ConservativeRule,
    NeedsCommunication,
    Trait,
    has_trait,
    is_elementwise,
    names_with,
    trait_of,
    traits_of,
)
from shardonnay.propagation.data_flow import data_flow_edges_of
from shardonnay.runtime.interpreter import run
from shardonnay.syntax.mlir_reader import parse_module

CORPUS = Path(__file__).parent.parent / "corpus"


def _module(body: str, args: str, results: str) -> Module:
    return parse_module(f"func.func @main({args}) -> ({results}) {{\n{body}\n}}")


def _ops(module: Module) -> list[Op]:
    return list(module.walk())


# -- the queries -----------------------------------------------------------------------------


def test_an_unregistered_op_has_no_traits() -> None:
    assert traits_of("mydialect.frobnicate") == frozenset()
    assert not any(has_trait("mydialect.frobnicate", t) for t in Trait)
    assert trait_of("mydialect.frobnicate", Combiner) is None


def test_every_trait_is_declared_on_some_op() -> None:
    """No trait of the vocabulary is left without an op (a trait nobody has
    would be a query that is always false)."""
    kinds = [*Trait, Combiner, NeedsCommunication, ConservativeRule]
    assert [k for k in kinds if not names_with(k)] == []


# -- elementwise ops: the identity factor map -------------------------------------------------

_OPERAND_TYPES = ("f32", "i32", "complex<f32>", "i1")


def _elementwise_op(name: str, shape: str) -> Op | None:
    """`name` on operands of `shape`, with the first element type it accepts."""
    arity = getattr(lookup(name), "arity", 2)
    for element in _OPERAND_TYPES:
        t = f"tensor<{shape}x{element}>"
        args = ", ".join(f"%a{i}: {t}" for i in range(arity))
        operands = ", ".join(f"%a{i}" for i in range(arity))
        attrs = " {comparison_direction = #stablehlo<comparison_direction LT>}"
        attrs = attrs if name == "stablehlo.compare" else ""
        for result in (t, f"tensor<{shape}xi1>", f"tensor<{shape}xf32>"):
            text = (
                f'%r = "{name}"({operands}){attrs} : ({", ".join([t] * arity)}) -> {result}\n'
                f"return %r : {result}"
            )
            try:
                return _module(text, args, result).functions[0].body.ops[0]
            except Exception:
                continue
    return None


@pytest.mark.parametrize("name", names_with(ELEMENTWISE))
def test_an_elementwise_rule_is_the_identity_factor_map(name: str) -> None:
    op = _elementwise_op(name, "4x6")
    assert op is not None, f"{name} takes none of {_OPERAND_TYPES}"
    rule = rule_for(op)
    if rule is None:
        pytest.skip(f"{name} has no sharding rule")
    assert rule.factor_sizes == (4, 6)
    identity = ((0,), (1,))
    assert all(m == identity for m in (*rule.operand_mappings, *rule.result_mappings))
    assert not (rule.reduction_factors or rule.need_replication_factors)
    assert not rule.permutation_factors


@pytest.mark.parametrize(
    "text",
    [
        "%r = stablehlo.select %p, %a, %b : tensor<i1>, tensor<4x6xf32>\n"
        "return %r : tensor<4x6xf32>",
        "%r = stablehlo.clamp %p, %a, %b : (tensor<f32>, tensor<4x6xf32>, tensor<4x6xf32>) "
        "-> tensor<4x6xf32>\nreturn %r : tensor<4x6xf32>",
    ],
)
def test_a_broadcasting_elementwise_rule_maps_a_scalar_to_no_factor(text: str) -> None:
    predicate = "tensor<i1>" if "select" in text else "tensor<f32>"
    op = _module(
        text, f"%p: {predicate}, %a: tensor<4x6xf32>, %b: tensor<4x6xf32>", "tensor<4x6xf32>"
    )
    op = op.functions[0].body.ops[0]
    assert has_trait(op, BROADCASTING_ELEMENTWISE) and not has_trait(op, ELEMENTWISE)
    rule = rule_for(op)
    assert rule is not None
    assert rule.operand_mappings[0] == ()
    assert rule.operand_mappings[1:] == rule.result_mappings * 2 == (((0,), (1,)),) * 2


def test_bitcast_convert_is_not_elementwise() -> None:
    """Between bit widths that differ it changes the shape (StableHLO does not
    declare it elementwise)."""
    assert not has_trait("stablehlo.bitcast_convert", ELEMENTWISE)
    text = (
        "%r = stablehlo.bitcast_convert %a : (tensor<4x2xi32>) -> tensor<4xi64>\n"
        "return %r : tensor<4xi64>"
    )
    op = _module(text, "%a: tensor<4x2xi32>", "tensor<4xi64>").functions[0].body.ops[0]
    assert op.operands[0].type.shape != op.results[0].type.shape


# -- terminators end their blocks -------------------------------------------------------------


def test_terminators_end_blocks_and_blocks_end_in_terminators() -> None:
    seen = set()
    for path in sorted(CORPUS.glob("*.mlir")):
        module = parse_module(path.read_text(), str(path))
        for op in module.walk():
            block = op.parent
            assert block is not None
            if has_trait(op, TERMINATOR):
                seen.add(op.name)
                assert block.ops[-1] is op, f"{path.name}: {op.name} is not last in its block"
            for region in op.regions:
                for b in region.blocks:
                    assert has_trait(b.ops[-1], TERMINATOR), f"{path.name}: {b.ops[-1].name}"
    assert seen == set(names_with(TERMINATOR))


# -- data-flow ops tie the values the accessor expects ----------------------------------------

_DATA_FLOW_PROGRAM = """
sdy.mesh @mesh = <["x"=2]>
func.func @main(%a: tensor<8xf32>, %i: tensor<i32>) -> (tensor<8xf32>, tensor<8xf32>) {
  %c = stablehlo.constant dense<0> : tensor<i32>
  %w:2 = stablehlo.while(%x = %a, %n = %c) : tensor<8xf32>, tensor<i32>
    cond {
      %lt = stablehlo.compare LT, %n, %i : (tensor<i32>, tensor<i32>) -> tensor<i1>
      stablehlo.return %lt : tensor<i1>
    } do {
      %y = stablehlo.negate %x : tensor<8xf32>
      stablehlo.return %y, %n : tensor<8xf32>, tensor<i32>
    }
  %k = "stablehlo.case"(%i) ({
    stablehlo.return %a : tensor<8xf32>
  }, {
    stablehlo.return %w#0 : tensor<8xf32>
  }) : (tensor<i32>) -> tensor<8xf32>
  %b:2 = stablehlo.optimization_barrier %k, %i : tensor<8xf32>, tensor<i32>
  %nc = sdy.named_computation<"f">(%b#0) (%arg: tensor<8xf32>) {
    sdy.return %arg : tensor<8xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  %m = sdy.manual_computation(%nc) in_shardings=[<@mesh, [{"x"}]>]
      out_shardings=[<@mesh, [{"x"}]>] manual_axes={"x"} (%arg: tensor<4xf32>) {
    sdy.return %arg : tensor<4xf32>
  } : (tensor<8xf32>) -> tensor<8xf32>
  return %m, %w#0 : tensor<8xf32>, tensor<8xf32>
}
"""


def test_data_flow_ops_tie_each_result_and_computation_argument() -> None:
    module = parse_module(_DATA_FLOW_PROGRAM)
    found = set()
    for op in module.walk():
        args, results = data_flow_edges_of(op)
        if not has_trait(op, DATA_FLOW):
            assert (args, results) == ([], []), op.name
            continue
        found.add(op.name)
        assert [e.owner for e in results] == list(op.results)
        body_args = list(op.regions[0].entry.arguments) if has_trait(op, COMPUTATION) else []
        assert [e.owner for e in args] == body_args
        manual = op.name == "sdy.manual_computation"
        for edge in (*args, *results):
            for v in (*edge.sources, *edge.targets):
                if not manual:  # (a manual body sees local shapes)
                    assert v.type == edge.owner.type
    assert found == set(names_with(DATA_FLOW))


def test_computations_are_isolated_from_above() -> None:
    assert set(names_with(COMPUTATION)) <= set(names_with(ISOLATED_FROM_ABOVE))
    assert set(names_with(COMPUTATION)) <= set(names_with(DATA_FLOW))


# -- ops that copy elements --------------------------------------------------------------------

_COPYING_OPS = {
    "stablehlo.reshape": (
        "%r = stablehlo.reshape %a : (tensor<4x6xf32>) -> tensor<6x4xf32>",
        "6x4",
    ),
    "stablehlo.transpose": (
        "%r = stablehlo.transpose %a, dims = [1, 0] : (tensor<4x6xf32>) -> tensor<6x4xf32>",
        "6x4",
    ),
    "stablehlo.broadcast_in_dim": (
        "%r = stablehlo.broadcast_in_dim %a, dims = [0, 2]"
        " : (tensor<4x6xf32>) -> tensor<4x3x6xf32>",
        "4x3x6",
    ),
    "stablehlo.slice": (
        "%r = stablehlo.slice %a [1:4, 0:6:2] : (tensor<4x6xf32>) -> tensor<3x3xf32>",
        "3x3",
    ),
    "stablehlo.pad": (
        "%z = stablehlo.constant dense<-1.0> : tensor<f32>\n"
        "%r = stablehlo.pad %a, %z, low = [1, -1], high = [0, 2], interior = [1, 0]"
        " : (tensor<4x6xf32>, tensor<f32>) -> tensor<8x7xf32>",
        "8x7",
    ),
    "stablehlo.reverse": (
        "%r = stablehlo.reverse %a, dims = [1] : tensor<4x6xf32>",
        "4x6",
    ),
    "stablehlo.concatenate": (
        "%r = stablehlo.concatenate %a, %a, dim = 0 : (tensor<4x6xf32>, tensor<4x6xf32>)"
        " -> tensor<8x6xf32>",
        "8x6",
    ),
}


def test_the_copying_ops_are_those_checked_here() -> None:
    assert set(names_with(COPIES_ELEMENTS)) == set(_COPYING_OPS)


@pytest.mark.parametrize("name", sorted(_COPYING_OPS))
def test_every_result_element_of_a_copying_op_is_an_operand_element(name: str) -> None:
    body, shape = _COPYING_OPS[name]
    result = f"tensor<{shape}xf32>"
    module = _module(f"{body}\nreturn %r : {result}", "%a: tensor<4x6xf32>", result)
    ids = np.arange(1, 25, dtype=np.float32).reshape(4, 6)
    (out,) = run(module, ids)
    allowed = {*ids.ravel().tolist(), -1.0}  # (-1: the padding value)
    assert set(out.ravel().tolist()) <= allowed


# -- combiners --------------------------------------------------------------------------------


def _apply(name: str, element: str, x: np.ndarray, y: np.ndarray) -> np.ndarray:
    t = f"tensor<{x.size}x{element}>"
    module = _module(f"%r = {name} %x, %y : {t}\nreturn %r : {t}", f"%x: {t}, %y: {t}", t)
    return run(module, x, y)[0]


_ELEMENTS = {"f32": np.float32, "i32": np.int32, "ui8": np.uint8, "i1": np.bool_}


@pytest.mark.parametrize("name", names_with(Combiner))
@pytest.mark.parametrize("element", sorted(_ELEMENTS))
def test_a_combiners_identity_and_laws_hold(name: str, element: str) -> None:
    combiner = trait_of(name, Combiner)
    assert isinstance(combiner, Combiner)
    dtype = np.dtype(_ELEMENTS[element])
    if combiner.kind in ("and", "or", "xor") and dtype.kind == "f":
        pytest.skip("bitwise combiners take integers and booleans")
    rng = np.random.default_rng(0)
    if dtype == np.bool_:
        x, y, z = (rng.integers(0, 2, 16).astype(bool) for _ in range(3))
    elif dtype.kind == "f":
        x, y, z = (rng.standard_normal(16).astype(dtype) for _ in range(3))
        x[:2] = [-0.0, 0.0]
    else:
        info = np.iinfo(dtype)
        x, y, z = (
            rng.integers(info.min, info.max, 16, endpoint=True).astype(dtype) for _ in range(3)
        )
    e = np.full(16, combiner.identity(dtype), dtype=dtype)
    same = _apply(name, element, e, x)
    assert np.array_equal(same, x) and np.array_equal(np.signbit(same), np.signbit(x))
    assert np.array_equal(_apply(name, element, x, y), _apply(name, element, y, x))
    if dtype.kind != "f":  # (float sums and products round)
        left = _apply(name, element, _apply(name, element, x, y), z)
        right = _apply(name, element, x, _apply(name, element, y, z))
        assert np.array_equal(left, right)
    # (on booleans a sum is an or and a product an and: both idempotent)
    if combiner.idempotent or dtype == np.bool_:
        assert np.array_equal(_apply(name, element, x, x), x) or not combiner.idempotent
    else:
        assert not np.array_equal(_apply(name, element, x, x), x)


# -- rules ------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", names_with(CONTRACTION))
def test_a_contraction_sums_over_a_reduction_factor(name: str) -> None:
    texts = {
        "stablehlo.dot_general": "%r = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0]"
        " : (tensor<4x6xf32>, tensor<6x6xf32>) -> tensor<4x6xf32>",
        "stablehlo.dot": "%r = stablehlo.dot %a, %b : (tensor<4x6xf32>, tensor<6x6xf32>)"
        " -> tensor<4x6xf32>",
        "stablehlo.convolution": "%r = stablehlo.convolution(%a, %b)"
        " dim_numbers = [b, f]x[i, o]->[b, f], window = {}"
        " {batch_group_count = 1 : i64, feature_group_count = 1 : i64}"
        " : (tensor<4x6xf32>, tensor<6x6xf32>) -> tensor<4x6xf32>",
    }
    module = _module(
        f"{texts[name]}\nreturn %r : tensor<4x6xf32>",
        "%a: tensor<4x6xf32>, %b: tensor<6x6xf32>",
        "tensor<4x6xf32>",
    )
    rule = rule_for(module.functions[0].body.ops[0])
    assert rule is not None
    assert [rule.factor_sizes[f] for f in rule.reduction_factors] == [6]


def test_pass_through_ops_neither_reduce_nor_replicate() -> None:
    for name, (body, shape) in _COPYING_OPS.items():
        if not has_trait(name, PASS_THROUGH):
            continue
        result = f"tensor<{shape}xf32>"
        op = _module(f"{body}\nreturn %r : {result}", "%a: tensor<4x6xf32>", result)
        rule = rule_for(op.functions[0].body.ops[0])
        assert rule is not None
        assert not (rule.reduction_factors or rule.need_replication_factors), name


def test_only_ops_with_a_conservative_rule_change_under_conservative_propagation() -> None:
    changed = set()
    for path in sorted(CORPUS.glob("*.mlir")):
        for op in parse_module(path.read_text(), str(path)).walk():
            try:
                regular = rule_for(op)
            except Exception:
                continue
            if regular is not None and rule_for(op, conservative=True) != regular:
                changed.add(op.name)
    assert changed
    assert changed <= set(names_with(ConservativeRule))


def test_a_pad_needs_communication_only_where_it_shifts_a_dim() -> None:
    def pad(low: int, high: int, size: int) -> Op:
        t = f"tensor<{size}xf32>"
        text = (
            f"%z = stablehlo.constant dense<0.0> : tensor<f32>\n"
            f"%r = stablehlo.pad %a, %z, low = [{low}], high = [{high}], interior = [0]"
            f" : (tensor<8xf32>, tensor<f32>) -> {t}\nreturn %r : {t}"
        )
        return _module(text, "%a: tensor<8xf32>", t).functions[0].body.ops[1]

    needs = trait_of("stablehlo.pad", NeedsCommunication)
    assert isinstance(needs, NeedsCommunication)
    assert needs.holds_for(pad(1, -1, 8))
    assert not needs.holds_for(pad(1, 0, 9))
    assert not needs.holds_for(pad(0, 0, 8))


# -- collectives ------------------------------------------------------------------------------


def test_collectives_are_of_one_kind() -> None:
    sharding, device = set(names_with(SHARDING_COLLECTIVE)), set(names_with(DEVICE_COLLECTIVE))
    assert sharding and device and not sharding & device
    assert all(n.startswith("sdy.") for n in sharding)
    assert set(names_with(GROUPED_DEVICES)) <= device


def test_grouped_collectives_run_within_their_replica_groups() -> None:
    t = "tensor<4xf32>"
    for name in names_with(GROUPED_DEVICES):
        body = {
            "stablehlo.all_gather": f'%r = "stablehlo.all_gather"(%a) {{all_gather_dim = 0 : i64, '
            f"replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}} : ({t}) -> tensor<8xf32>",
            "stablehlo.reduce_scatter": f'%r = "stablehlo.reduce_scatter"(%a) ({{\n'
            "^bb0(%p: tensor<f32>, %q: tensor<f32>):\n"
            "  %s = stablehlo.add %p, %q : tensor<f32>\n  stablehlo.return %s : tensor<f32>\n"
            "}) {scatter_dimension = 0 : i64, replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}"
            f" : ({t}) -> tensor<2xf32>",
            "stablehlo.all_reduce": f'%r = "stablehlo.all_reduce"(%a) ({{\n'
            "^bb0(%p: tensor<f32>, %q: tensor<f32>):\n"
            "  %s = stablehlo.add %p, %q : tensor<f32>\n  stablehlo.return %s : tensor<f32>\n"
            f"}}) {{replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}} : ({t}) -> {t}",
            "stablehlo.all_to_all": f'%r = "stablehlo.all_to_all"(%a) {{split_dimension = 0 : i64,'
            " concat_dimension = 0 : i64, split_count = 2 : i64,"
            f" replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}} : ({t}) -> {t}",
            "stablehlo.collective_broadcast": f'%r = "stablehlo.collective_broadcast"(%a)'
            f" {{replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>}} : ({t}) -> {t}",
        }[name]
        result = body.rsplit("-> ", 1)[1]
        op = _module(f"{body}\nreturn %r : {result}", f"%a: {t}", result).functions[0].body.ops[0]
        assert "replica_groups" in op.attributes, name


# -- Shardy's isElementwise ---------------------------------------------------------------------

_SPLIT_OPS = {
    # op of a constant, used twice: Shardy clones the constant expression per
    # use when the op is elementwise and pure (`sdy-constant-or-scalar-splitter`)
    "chlo.erf": "chlo.erf %c : tensor<8xf32> -> tensor<8xf32>",
    "sdy.reshard": "sdy.reshard %c <@mesh, [{}]> : tensor<8xf32>",
    "sdy.propagation_barrier": "sdy.propagation_barrier %c allowed_direction=NONE : tensor<8xf32>",
    "sdy.sharding_constraint": "sdy.sharding_constraint %c <@mesh, [{}]> : tensor<8xf32>",
    "stablehlo.bitcast_convert": "stablehlo.bitcast_convert %c : (tensor<8xf32>) -> tensor<8xi32>",
}


@pytest.mark.parametrize("name", sorted(_SPLIT_OPS))
def test_elementwise_ops_of_constants_split_as_in_shardy(name: str) -> None:
    """The elementwise ops (the `ELEMENTWISE` trait, as Shardy's `ops.td` and
    CHLO's declare it: on `sdy.reshard`, `sdy.sharding_constraint` and
    `sdy.propagation_barrier` too) make constant expressions where they are
    pure, as in Shardy's constant splitter."""
    pytest.importorskip("jax")
    from shardonnay.pipeline import constant_or_scalar_splitter
    from shardonnay.testing.mlir_oracle import run_pass_pipeline

    result = _SPLIT_OPS[name].rsplit(" ", 1)[1]
    text = f"""
sdy.mesh @mesh = <["x"=2]>
func.func @main(%a: {result}, %b: {result}) -> ({result}, {result}) {{
  %c = stablehlo.constant dense<1.0> : tensor<8xf32>
  %e = {_SPLIT_OPS[name]}
  %r = stablehlo.add %e, %a : {result}
  %s = stablehlo.multiply %e, %b : {result}
  return %r, %s : {result}, {result}
}}
"""
    theirs = run_pass_pipeline(text, "builtin.module(sdy-constant-or-scalar-splitter)")
    ours = parse_module(text)
    constant_or_scalar_splitter(ours)
    assert str(ours).count(name) == theirs.count(name)
    assert str(ours).count("sdy.constant") == theirs.count("sdy.constant")
    assert is_elementwise(parse_module(text).functions[0].body.ops[1])


# -- recursive effects ------------------------------------------------------------------------

_UNUSED_MANUAL = """
sdy.mesh @mesh = <["x"=2]>
func.func @main(%a: tensor<8xf32>) -> tensor<8xf32> {{
  %m = sdy.manual_computation(%a) in_shardings=[<@mesh, [{{"x"}}]>]
      out_shardings=[<@mesh, [{{"x"}}]>] manual_axes={{"x"}} (%arg: tensor<4xf32>) {{
    {body}
    sdy.return %n : tensor<4xf32>
  }} : (tensor<8xf32>) -> tensor<8xf32>
  return %a : tensor<8xf32>
}}
"""
_BODIES = {
    "pure": "%n = stablehlo.negate %arg : tensor<4xf32>",
    "effectful": "%n = stablehlo.custom_call @effect(%arg) {has_side_effect = true}"
    " : (tensor<4xf32>) -> tensor<4xf32>",
}


@pytest.mark.filterwarnings("ignore:.*custom call @effect is unknown")
@pytest.mark.parametrize("body", sorted(_BODIES))
@pytest.mark.parametrize("pipeline", ["canonicalize", "sdy-propagation-pipeline"])
def test_an_unused_op_with_recursive_effects_goes_as_in_shardy(body: str, pipeline: str) -> None:
    """An unused manual computation (`RECURSIVE_EFFECTS`, as Shardy's `ops.td`
    declares) goes when its body has no effects, and stays otherwise."""
    pytest.importorskip("jax")
    from shardonnay.passes import run_pipeline
    from shardonnay.testing.mlir_oracle import run_pass_pipeline

    assert has_trait("sdy.manual_computation", RECURSIVE_EFFECTS)
    text = _UNUSED_MANUAL.format(body=_BODIES[body])
    theirs = run_pass_pipeline(text, f"builtin.module({pipeline})")
    ours = run_pipeline(parse_module(text), f"builtin.module({pipeline})")
    kept = "sdy.manual_computation" in str(ours)
    assert kept == ("sdy.manual_computation" in theirs) == (body == "effectful")


_COMBINERS = {
    "add": "stablehlo.add",
    "max": "stablehlo.maximum",
    "set": None,  # the update replaces the value
}


def _region_op_module(kind: str, body: str) -> str:
    combine = (
        f"%r = {_COMBINERS[body]} %a, %b : tensor<f32>\n      stablehlo.return %r : tensor<f32>"
        if _COMBINERS[body]
        else "stablehlo.return %b : tensor<f32>"
    )
    if kind == "reduce":
        head = (
            "%0 = stablehlo.reduce(%x init: %c) across dimensions = [0] : "
            "(tensor<8x4xf32>, tensor<f32>) -> tensor<4xf32>\n    reducer(%a: tensor<f32>, "
            "%b: tensor<f32>) {\n      " + combine + "\n    }"
        )
        result = "tensor<4xf32>"
    else:
        head = (
            '%0 = "stablehlo.scatter"(%x, %i, %u) <{scatter_dimension_numbers = '
            "#stablehlo.scatter<update_window_dims = [1], inserted_window_dims = [0], "
            "scatter_dims_to_operand_dims = [0], index_vector_dim = 1>}> ({\n    "
            "^bb0(%a: tensor<f32>, %b: tensor<f32>):\n      " + combine + "\n    }) : "
            "(tensor<8x4xf32>, tensor<2x1xi32>, tensor<2x4xf32>) -> tensor<8x4xf32>"
        )
        result = "tensor<8x4xf32>"
    return (
        "func.func @main(%x: tensor<8x4xf32>, %i: tensor<2x1xi32>, %u: tensor<2x4xf32>, "
        f"%c: tensor<f32>) -> {result} {{\n    {head}\n    return %0 : {result}\n}}"
    )


@pytest.mark.parametrize("kind", ["reduce", "scatter"])
def test_rule_reads_regions_says_whether_the_body_changes_the_rule(kind: str) -> None:
    """A definition that says its rule ignores its regions (`rule_reads_regions
    = False`) has the same rule whatever the body; scatter says it reads its
    body, and a replacing scatter's rule differs from an adding one's. Rules
    are remembered by the op's types and attributes (and by its body only
    where the definition says the rule reads it), so both stay right."""
    from shardonnay import parse_module

    rules = {
        body: rule_for(parse_module(_region_op_module(kind, body)).functions[0].body.ops[0])
        for body in _COMBINERS
    }
    reads = lookup(f"stablehlo.{kind}").rule_reads_regions
    assert reads == (kind == "scatter")
    if reads:
        assert str(rules["set"]) != str(rules["add"])
    else:
        assert len({str(r) for r in rules.values()}) == 1
