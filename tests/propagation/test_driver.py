"""`shardonnay.propagate` against Shardy's propagation passes, value by value.

The reference is jaxlib's Shardy: `sdy-add-data-flow-edges`, then
`sdy-basic-propagate` or `sdy-aggressive-propagate`, then
`sdy-sink-data-flow-edges` (with `data_flow_edges=False`: the propagation pass
alone). Every sharding of a function argument, function result, op result and
`sdy.sharding_constraint` is compared.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from shardonnay.ir.core import Module
from shardonnay.propagation.driver import propagate
from shardonnay.syntax.mlir_reader import parse_module

pytest.importorskip("jax")

from shardonnay.testing.mlir_oracle import run_pass_pipeline

CORPUS = sorted((Path(__file__).parent.parent / "corpus").glob("*.mlir"))
STRATEGIES = ("basic", "aggressive")

# Corpus values where we differ from Shardy, with the reason.
KNOWN_DEVIATIONS: dict[str, str] = {}


def _pipeline(strategy: str, data_flow_edges: bool) -> str:
    step = f"sdy-{strategy}-propagate"
    if not data_flow_edges:
        return f"builtin.module({step})"
    return f"builtin.module(sdy-add-data-flow-edges,{step},func.func(sdy-sink-data-flow-edges))"


def _values(module: Module) -> list[tuple[str, str]]:
    """(where, sharding text) for every value that can hold a sharding."""
    out = []
    for func in module.functions:
        for i in range(len(func.type.inputs)):
            out.append((f"@{func.name} arg {i}", str(func.arg_attrs(i).get("sdy.sharding"))))
        for i in range(len(func.type.results)):
            out.append((f"@{func.name} result {i}", str(func.result_attrs(i).get("sdy.sharding"))))
        for k, op in enumerate(func.walk()):
            if op.name == "sdy.sharding_constraint":
                out.append((f"@{func.name} op {k} {op.name}", str(op.attributes["sharding"])))
                continue
            per_value = op.attributes.get("sdy.sharding")
            for j in range(len(op.results)):
                text = str(per_value[j]) if per_value is not None else "None"
                out.append((f"@{func.name} op {k} {op.name} #{j}", text))
    return out


def _compare(text: str, strategy: str, *, data_flow_edges: bool = True):
    """(matching values, all values, mismatches) of our propagation vs Shardy's."""
    expected = _values(parse_module(run_pass_pipeline(text, _pipeline(strategy, data_flow_edges))))
    module = parse_module(text)
    before = module.to_text()
    got = _values(propagate(module, strategy=strategy, data_flow_edges=data_flow_edges))
    assert module.to_text() == before, "propagate modified its input"
    assert [k for k, _ in got] == [k for k, _ in expected]
    mismatches = [(k, g, e) for (k, g), (_, e) in zip(got, expected, strict=True) if g != e]
    return len(got) - len(mismatches), len(got), mismatches


@pytest.mark.parametrize("strategy", STRATEGIES)
@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.stem)
def test_corpus_matches_shardy(path: Path, strategy: str) -> None:
    matching, total, mismatches = _compare(path.read_text(), strategy)
    if path.stem in KNOWN_DEVIATIONS:
        assert mismatches, "a known deviation went away; remove it from KNOWN_DEVIATIONS"
        pytest.xfail(f"{matching}/{total} values match: {KNOWN_DEVIATIONS[path.stem]}")
    assert not mismatches, mismatches


@pytest.mark.parametrize("strategy", STRATEGIES)
@pytest.mark.parametrize("path", CORPUS[:6], ids=lambda p: p.stem)
def test_corpus_without_data_flow_edges(path: Path, strategy: str) -> None:
    _, _, mismatches = _compare(path.read_text(), strategy, data_flow_edges=False)
    assert not mismatches, mismatches


MESH = 'sdy.mesh @mesh = <["a"=2, "b"=4, "c"=2]>'


def _sharding(spec: str) -> str:
    return "{sdy.sharding = #sdy.sharding<@mesh, " + spec + ">}"


_PROGRAMS = {
    "elementwise_chain_forward": """$MESH
func.func @main(%arg0: tensor<8x16xf32> $S<[{"a"}, {"b"}]>$, %arg1: tensor<8x16xf32>)
    -> tensor<8x16xf32> {
  %0 = stablehlo.abs %arg0 : tensor<8x16xf32>
  %1 = stablehlo.add %0, %arg1 : tensor<8x16xf32>
  %2 = stablehlo.exponential %1 : tensor<8x16xf32>
  return %2 : tensor<8x16xf32>
}""",
    "elementwise_backward_from_result": """$MESH
func.func @main(%arg0: tensor<8x16xf32>, %arg1: tensor<8x16xf32>)
    -> (tensor<8x16xf32> $S<[{"b"}, {?}]>$) {
  %0 = stablehlo.multiply %arg0, %arg1 : tensor<8x16xf32>
  %1 = stablehlo.negate %0 : tensor<8x16xf32>
  return %1 : tensor<8x16xf32>
}""",
    "conflicting_operands": """$MESH
func.func @main(%arg0: tensor<8x16xf32> $S<[{"a", ?}, {?}]>$,
                %arg1: tensor<8x16xf32> $S<[{"b", ?}, {"c", ?}]>$) -> tensor<8x16xf32> {
  %0 = stablehlo.add %arg0, %arg1 : tensor<8x16xf32>
  %1 = stablehlo.sine %0 : tensor<8x16xf32>
  return %1 : tensor<8x16xf32>
}""",
    "matmul_dag": """$MESH
func.func @main(%arg0: tensor<8x32xf32> $S<[{"a"}, {"b"}]>$,
                %arg1: tensor<32x16xf32> $S<[{}, {"c"}]>$,
                %arg2: tensor<16x4xf32>) -> tensor<8x4xf32> {
  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] :
      (tensor<8x32xf32>, tensor<32x16xf32>) -> tensor<8x16xf32>
  %1 = stablehlo.tanh %0 : tensor<8x16xf32>
  %2 = stablehlo.dot_general %1, %arg2, contracting_dims = [1] x [0] :
      (tensor<8x16xf32>, tensor<16x4xf32>) -> tensor<8x4xf32>
  %3 = stablehlo.add %2, %2 : tensor<8x4xf32>
  return %3 : tensor<8x4xf32>
}""",
    "batched_dot": """$MESH
func.func @main(%arg0: tensor<4x8x32xf32> $S<[{"b"}, {"a"}, {}]>$,
                %arg1: tensor<4x32x16xf32>) -> tensor<4x8x16xf32> {
  %0 = stablehlo.dot_general %arg0, %arg1, batching_dims = [0] x [0],
      contracting_dims = [2] x [1] : (tensor<4x8x32xf32>, tensor<4x32x16xf32>) -> tensor<4x8x16xf32>
  return %0 : tensor<4x8x16xf32>
}""",
    "reshape_split_and_merge": """$MESH
func.func @main(%arg0: tensor<16x6xf32> $S<[{"b", "c"}, {}]>$) -> tensor<96xf32> {
  %0 = stablehlo.reshape %arg0 : (tensor<16x6xf32>) -> tensor<2x8x6xf32>
  %1 = stablehlo.cosine %0 : tensor<2x8x6xf32>
  %2 = stablehlo.reshape %1 : (tensor<2x8x6xf32>) -> tensor<96xf32>
  return %2 : tensor<96xf32>
}""",
    "transpose_broadcast": """$MESH
func.func @main(%arg0: tensor<8x16xf32> $S<[{"a"}, {"b"}]>$, %arg1: tensor<16xf32>)
    -> tensor<4x16x8xf32> {
  %0 = stablehlo.transpose %arg0, dims = [1, 0] : (tensor<8x16xf32>) -> tensor<16x8xf32>
  %1 = stablehlo.broadcast_in_dim %0, dims = [1, 2] : (tensor<16x8xf32>) -> tensor<4x16x8xf32>
  %2 = stablehlo.broadcast_in_dim %arg1, dims = [1] : (tensor<16xf32>) -> tensor<4x16x8xf32>
  %3 = stablehlo.add %1, %2 : tensor<4x16x8xf32>
  return %3 : tensor<4x16x8xf32>
}""",
    "reduce": """$MESH
func.func @main(%arg0: tensor<8x16xf32> $S<[{"a"}, {"b"}]>$) -> tensor<8xf32> {
  %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.add across dimensions = [1] :
      (tensor<8x16xf32>, tensor<f32>) -> tensor<8xf32>
  %1 = stablehlo.negate %0 : tensor<8xf32>
  return %1 : tensor<8xf32>
}""",
    "constraint_and_closed_dims": """$MESH
func.func @main(%arg0: tensor<8x16xf32> $S<[{"a"}, {?}]>$) -> tensor<8x16xf32> {
  %0 = stablehlo.abs %arg0 : tensor<8x16xf32>
  %1 = sdy.sharding_constraint %0 <@mesh, [{?}, {"b", ?}]> : tensor<8x16xf32>
  %2 = stablehlo.negate %1 : tensor<8x16xf32>
  %3 = sdy.sharding_constraint %2 <@mesh, [{}, {"b"}]> : tensor<8x16xf32>
  %4 = stablehlo.sine %3 : tensor<8x16xf32>
  return %4 : tensor<8x16xf32>
}""",
    "closed_result_blocks": """$MESH
func.func @main(%arg0: tensor<8x16xf32> $S<[{"a", "b"}, {"c"}]>$)
    -> (tensor<8x16xf32> $S<[{}, {?}]>$) {
  %0 = stablehlo.abs %arg0 : tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}""",
    "replicated_axes": """$MESH
func.func @main(%arg0: tensor<8x16xf32> $S<[{"a", ?}, {?}], replicated={"b"}>$,
                %arg1: tensor<8x16xf32> $S<[{?}, {"b", ?}]>$) -> tensor<8x16xf32> {
  %0 = stablehlo.add %arg0, %arg1 : tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}""",
    "priorities_in_input": """$MESH
func.func @main(%arg0: tensor<8x16xf32> $S<[{"a"}p0, {?}]>$,
                %arg1: tensor<8x16xf32> $S<[{?}, {"b"}p1]>$) -> tensor<8x16xf32> {
  %0 = stablehlo.add %arg0, %arg1 : tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}""",
    "sub_axes_from_reshape": """$MESH
func.func @main(%arg0: tensor<8xf32> $S<[{"b"}]>$) -> tensor<2x4xf32> {
  %0 = stablehlo.reshape %arg0 : (tensor<8xf32>) -> tensor<2x4xf32>
  %1 = stablehlo.negate %0 : tensor<2x4xf32>
  return %1 : tensor<2x4xf32>
}""",
    "while_loop": """$MESH
func.func @main(%arg0: tensor<8x16xf32> $S<[{"a"}, {?}]>$) -> tensor<8x16xf32> {
  %0 = stablehlo.abs %arg0 : tensor<8x16xf32>
  %1 = sdy.sharding_constraint %0 <@mesh, [{?}, {"b", ?}]> : tensor<8x16xf32>
  %2:2 = stablehlo.while(%i = %1, %j = %0) : tensor<8x16xf32>, tensor<8x16xf32>
  cond {
    %c = stablehlo.constant dense<true> : tensor<i1>
    stablehlo.return %c : tensor<i1>
  } do {
    %5 = stablehlo.add %i, %j : tensor<8x16xf32>
    stablehlo.return %5, %j : tensor<8x16xf32>, tensor<8x16xf32>
  }
  return %2#0 : tensor<8x16xf32>
}""",
    "optimization_barrier_and_group": """$MESH
func.func @main(%arg0: tensor<8x16xf32> $S<[{"a"}, {?}]>$, %arg1: tensor<8x16xf32>)
    -> tensor<8x16xf32> {
  %0:2 = stablehlo.optimization_barrier %arg0, %arg1 : tensor<8x16xf32>, tensor<8x16xf32>
  %1 = stablehlo.abs %0#0 : tensor<8x16xf32>
  sdy.sharding_group %1 group_id=0 : tensor<8x16xf32>
  sdy.sharding_group %0#1 group_id=0 : tensor<8x16xf32>
  %2 = stablehlo.add %1, %0#1 : tensor<8x16xf32>
  return %2 : tensor<8x16xf32>
}""",
    "propagation_barrier": """$MESH
func.func @main(%arg0: tensor<8x16xf32> $S<[{"a"}, {?}]>$) -> (tensor<8x16xf32>
    $S<[{?}, {"b"}]>$) {
  %0 = sdy.propagation_barrier %arg0 allowed_direction=BACKWARD : tensor<8x16xf32>
  %1 = stablehlo.abs %0 : tensor<8x16xf32>
  return %1 : tensor<8x16xf32>
}""",
    "two_meshes_do_not_mix": """sdy.mesh @m1 = <["a"=2]>
sdy.mesh @m2 = <["b"=4]>
func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@m1, [{"a", ?}]>},
                %arg1: tensor<8xf32> {sdy.sharding = #sdy.sharding<@m2, [{"b", ?}]>})
    -> tensor<8xf32> {
  %0 = stablehlo.abs %arg0 : tensor<8xf32>
  %1 = stablehlo.add %0, %arg1 : tensor<8xf32>
  return %1 : tensor<8xf32>
}""",
}


def _expand(text: str) -> str:
    text = text.replace("$MESH", MESH)
    return re.sub(r"\$S<(.*?)>\$", lambda m: _sharding(m.group(1)), text)


PROGRAMS = {name: _expand(text) for name, text in _PROGRAMS.items()}


@pytest.mark.parametrize("strategy", STRATEGIES)
@pytest.mark.parametrize("name", PROGRAMS)
def test_program_matches_shardy(name: str, strategy: str) -> None:
    _, _, mismatches = _compare(PROGRAMS[name], strategy)
    assert not mismatches, mismatches


@pytest.mark.parametrize("name", ["sub_axes_from_reshape", "reshape_split_and_merge"])
def test_conservative_never_splits_axes(name: str) -> None:
    module = propagate(parse_module(PROGRAMS[name]), conservative=True)
    text = module.to_text()
    assert ":(1)" not in text and ":(2)" not in text, text


def test_propagation_is_visible() -> None:
    """The first example: the argument's sharding reaches the result, open."""
    out = propagate(parse_module(PROGRAMS["elementwise_chain_forward"]))
    assert str(out.functions[0].result_attrs(0)["sdy.sharding"]) == (
        '#sdy.sharding<@mesh, [{"a", ?}, {"b", ?}]>'
    )


def test_unknown_strategy() -> None:
    with pytest.raises(ValueError, match="unknown propagation strategy"):
        propagate(parse_module(PROGRAMS["reduce"]), strategy="eager")  # type: ignore[arg-type]


# Manual computations: shardings cross the body's boundary without the manual
# axes (they stay major in every dim outside).
_MANUAL = {
    "free_axes_flow_in_and_out": """sdy.mesh @mesh = <["a"=2, "b"=2, "c"=2]>
func.func @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", "b"}, {?}]>})
    -> tensor<8x16xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"a", ?}, {?}]>]
      out_shardings=[<@mesh, [{"a", ?}, {?}]>] manual_axes={"a"} (%arg1: tensor<4x16xf32>) {
    %1 = stablehlo.tanh %arg1 : tensor<4x16xf32>
    %2 = sdy.sharding_constraint %1 <@mesh, [{?}, {"c", ?}]> : tensor<4x16xf32>
    sdy.return %2 : tensor<4x16xf32>
  } : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %3 = stablehlo.negate %0 : tensor<8x16xf32>
  return %3 : tensor<8x16xf32>
}""",
    "backward_into_the_body": """sdy.mesh @mesh = <["a"=2, "b"=2, "c"=2]>
func.func @main(%arg0: tensor<8x16xf32>)
    -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"b", "a"}, {"c"}]>}) {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"b", ?}, {?}]>]
      out_shardings=[<@mesh, [{"b", ?}, {?}]>] manual_axes={"b"} (%arg1: tensor<4x16xf32>) {
    %1 = stablehlo.abs %arg1 : tensor<4x16xf32>
    sdy.return %1 : tensor<4x16xf32>
  } : (tensor<8x16xf32>) -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}""",
    "nested": """sdy.mesh @mesh = <["a"=2, "b"=2, "c"=2]>
func.func @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"a", "c"}, {"b"}]>})
    -> tensor<8x16xf32> {
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"a", ?}, {?}]>]
      out_shardings=[<@mesh, [{"a", ?}, {?}]>] manual_axes={"a"} (%arg1: tensor<4x16xf32>) {
    %1 = sdy.manual_computation(%arg1) in_shardings=[<@mesh, [{?}, {"b", ?}]>]
        out_shardings=[<@mesh, [{?}, {"b", ?}]>] manual_axes={"b"} (%arg2: tensor<4x8xf32>) {
      %2 = stablehlo.sine %arg2 : tensor<4x8xf32>
      sdy.return %2 : tensor<4x8xf32>
    } : (tensor<4x16xf32>) -> tensor<4x16xf32>
    %3 = stablehlo.cosine %1 : tensor<4x16xf32>
    sdy.return %3 : tensor<4x16xf32>
  } : (tensor<8x16xf32>) -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>
}""",
}


@pytest.mark.parametrize("strategy", STRATEGIES)
@pytest.mark.parametrize("name", _MANUAL)
def test_manual_computation_prints_what_shardy_prints(name: str, strategy: str) -> None:
    text = _MANUAL[name]
    expected = run_pass_pipeline(text, _pipeline(strategy, True))
    assert propagate(parse_module(text), strategy=strategy).to_text() == expected


def test_manual_axes_are_stripped_inside_and_added_back_outside() -> None:
    out = propagate(parse_module(_MANUAL["free_axes_flow_in_and_out"]))
    op = out.functions[0].body.ops[0]
    assert str(op.attributes["in_shardings"]) == (
        '#sdy.sharding_per_value<[<@mesh, [{"a", "b", ?}, {"c", ?}]>]>'
    )
    inner = op.regions[0].entry.ops[0]
    assert str(inner.attributes["sdy.sharding"]) == (
        '#sdy.sharding_per_value<[<@mesh, [{"b", ?}, {"c", ?}]>]>'
    )


# -- sharding groups ---------------------------------------------------------------------

_GROUP_PROGRAM = """module {{
  sdy.mesh @mesh = <["a"=2, "b"=4]>
  func.func @main(%arg0: tensor<8x8xf32>{a}, %arg1: tensor<8x8xf32>) -> tensor<8x8xf32> {{
    %0 = stablehlo.negate %arg1{b} : tensor<8x8xf32>
    %1 = stablehlo.add %arg0, %0 : tensor<8x8xf32>
    sdy.sharding_group %0 group_id=0 : tensor<8x8xf32>
    sdy.sharding_group %arg0 group_id=0 : tensor<8x8xf32>
    return %1 : tensor<8x8xf32>
  }}
}}"""


def _group_program(a: str | None, b: str | None) -> str:
    arg = "" if a is None else " " + _sharding(a)
    result = "" if b is None else " {sdy.sharding = #sdy.sharding_per_value<[<@mesh, " + b + ">]>}"
    return _GROUP_PROGRAM.format(a=arg, b=result)


def test_sync_gives_a_lone_sharding_to_every_member() -> None:
    from shardonnay.ir.shardings import sharding_of
    from shardonnay.propagation.importing.sharding_groups import sync_group_members

    module = parse_module(_group_program('[{"a"}, {}]', None))
    groups = sync_group_members(module)
    assert [[str(sharding_of(v)) for v in g] for g in groups] == [
        ['#sdy.sharding<@mesh, [{"a"}, {}]>'] * 2
    ]
    assert (
        'stablehlo.negate %arg1 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"a"}, {}]>]>}'
        in (module.to_text())
    )


def test_sync_constrains_every_member_of_a_conflicting_group() -> None:
    from shardonnay.propagation.importing.sharding_groups import sync_group_members

    module = parse_module(_group_program('[{"a"}, {}]', '[{}, {"b"}]'))
    groups = sync_group_members(module)
    body = module.functions[0].body
    names = [op.name for op in body.ops]
    assert names[:4] == [
        "sdy.sharding_constraint",  # on %arg0, at the start of the block
        "stablehlo.negate",
        "sdy.sharding_constraint",  # on %0, right after it
        "stablehlo.add",
    ]
    constraints = [body.ops[2], body.ops[0]]
    assert groups == [[c.results[0] for c in constraints]]
    for c in constraints:
        assert str(c.attributes["sharding"]) == "#sdy.sharding<@mesh, [{?}, {?}]>"
    # Every other use of a member now reads its constraint.
    add = body.ops[3]
    assert list(add.operands) == [body.ops[0].results[0], body.ops[2].results[0]]
    # Shardy agrees, and propagation merges the two shardings.
    text = _group_program('[{"a"}, {}]', '[{}, {"b"}]')
    out = propagate(parse_module(text), data_flow_edges=False).to_text()
    assert out == run_pass_pipeline(text, _pipeline("aggressive", False))
    assert '<@mesh, [{"a", ?}, {"b", ?}]>' in out


def test_fully_open_members_do_not_count() -> None:
    from shardonnay.propagation.importing.sharding_groups import sync_group_members

    module = parse_module(_group_program("[{?}, {?}]", '[{}, {"b"}]'))
    sync_group_members(module)
    assert "sharding_constraint" not in module.to_text()
    assert _sharding('[{}, {"b"}]') in module.to_text()


def test_a_value_in_two_groups_is_rejected() -> None:
    from shardonnay.errors import ShardingError
    from shardonnay.propagation.importing.sharding_groups import sync_group_members

    text = _group_program(None, None).replace(
        "sdy.sharding_group %arg0 group_id=0", "sdy.sharding_group %0 group_id=1"
    )
    with pytest.raises(ShardingError, match="sharding groups 0 and 1"):
        sync_group_members(parse_module(text))


@pytest.mark.parametrize("strategy", STRATEGIES)
def test_a_reshard_propagates_its_sharding_like_a_constraint(strategy: str) -> None:
    text = """sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @main(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {
  %0 = sdy.reshard %arg0 <@mesh, [{"x"}, {}]> : tensor<8x8xf32>
  %1 = stablehlo.negate %0 : tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}"""
    ours = propagate(parse_module(text), strategy=strategy, data_flow_edges=False)
    negate = ours.functions[0].body.ops[1]
    assert str(negate.attributes["sdy.sharding"]) == (
        '#sdy.sharding_per_value<[<@mesh, [{"x", ?}, {?}]>]>'
    )
    assert ours.to_text() == run_pass_pipeline(text, _pipeline(strategy, False))


@pytest.mark.parametrize("pipeline", ["sdy-aggressive-propagate", "sdy-propagation-pipeline"])
def test_a_value_pinned_to_one_device_takes_no_part_in_propagation(pipeline: str) -> None:
    from shardonnay.passes import run_pipeline

    text = """sdy.mesh @mesh = <["x"=2]>
sdy.mesh @maximal = <[], device_ids=[3]>
func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>})
    -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@maximal, []>}) {
  %0 = stablehlo.negate %arg0 : tensor<8xf32>
  return %0 : tensor<8xf32>
}"""
    pipeline = f"builtin.module({pipeline})"
    ours = run_pipeline(parse_module(text), pipeline).to_text()
    assert ours == run_pass_pipeline(text, pipeline)
