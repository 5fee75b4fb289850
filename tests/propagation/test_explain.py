"""Tests of `shardonnay.explain`: where each propagated axis came
from, and why an axis does not shard a value."""

from __future__ import annotations

from pathlib import Path

import pytest

from shardonnay.axes import AxisRef
from shardonnay.cli import main
from shardonnay.errors import ShardonnayError
from shardonnay.explain import explain_propagation
from shardonnay.propagation.debugging.origin_attributes import propagate_with_origins
from shardonnay.propagation.debugging.recording import ref_key as key_of
from shardonnay.propagation.driver import propagate
from shardonnay.sharding import TensorSharding
from shardonnay.syntax.mlir_reader import parse_module

MLP = Path(__file__).resolve().parent.parent.parent / "examples" / "mlp.mlir"
CORPUS = sorted((Path(__file__).parent.parent / "corpus").glob("*.mlir"))

CONSTRAINT = """
sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>})
    -> tensor<8x16xf32> {
  %0 = stablehlo.negate %arg0 : tensor<8x16xf32>
  %1 = sdy.sharding_constraint %0 <@mesh, [{?}, {"y", ?}]> : tensor<8x16xf32>
  %2 = stablehlo.tanh %1 : tensor<8x16xf32>
  %3 = stablehlo.abs %2 : tensor<8x16xf32>
  return %3 : tensor<8x16xf32>
}
"""

BACKWARD = """
sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @main(%arg0: tensor<8x16xf32>, %arg1: tensor<8x16xf32>)
    -> (tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}) {
  %0 = stablehlo.add %arg0, %arg1 : tensor<8x16xf32>
  %1 = stablehlo.exponential %0 : tensor<8x16xf32>
  return %1 : tensor<8x16xf32>
}
"""

DAG = """
sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
                %arg1: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>})
    -> tensor<8x16xf32> {
  %0 = stablehlo.negate %arg0 : tensor<8x16xf32>
  %1 = stablehlo.abs %arg1 : tensor<8x16xf32>
  %2 = stablehlo.add %0, %1 : tensor<8x16xf32>
  return %2 : tensor<8x16xf32>
}
"""

RESHAPE = """
sdy.mesh @mesh = <["x"=4, "y"=2]>
func.func @main(%arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>})
    -> (tensor<2x4x4xf32>, tensor<8x4xf32>) {
  %0 = stablehlo.negate %arg0 : tensor<8x4xf32>
  %1 = stablehlo.reshape %0 : (tensor<8x4xf32>) -> tensor<2x4x4xf32>
  %2 = stablehlo.reshape %1 : (tensor<2x4x4xf32>) -> tensor<8x4xf32>
  return %1, %2 : tensor<2x4x4xf32>, tensor<8x4xf32>
}
"""

PRIORITIES = """
sdy.mesh @mesh = <["x"=2, "y"=4, "z"=2]>
func.func @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
                %arg1: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>},
                %arg2: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"z", ?}p1, {}]>},
                %arg3: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}]>})
    -> (tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>) {
  %0 = stablehlo.add %arg0, %arg1 : tensor<8x16xf32>
  %1 = stablehlo.negate %arg2 : tensor<8x16xf32>
  %2 = stablehlo.abs %1 : tensor<8x16xf32>
  %3 = stablehlo.add %arg3, %arg0 : tensor<8x16xf32>
  return %0, %2, %3 : tensor<8x16xf32>, tensor<8x16xf32>, tensor<8x16xf32>
}
"""

LISTED = """
sdy.mesh @mesh = <["x"=2, "y"=4, "z"=2]>
func.func @main(
    %arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}], replicated={"z"}>},
    %arg1: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {}], unreduced={"z"}>})
    -> (tensor<8x16xf32>, tensor<8x4xf32>) {
  %0 = stablehlo.negate %arg0 : tensor<8x16xf32>
  %1 = stablehlo.abs %arg1 : tensor<8x4xf32>
  return %0, %1 : tensor<8x16xf32>, tensor<8x4xf32>
}
"""

CONTROL_FLOW = """
sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
                %arg1: tensor<i32>, %arg2: tensor<8x16xf32>)
    -> (tensor<8x16xf32>, tensor<8x16xf32>) {
  %c = stablehlo.constant dense<0> : tensor<i32>
  %0:2 = stablehlo.while(%iterArg = %arg0, %iterArg_0 = %c) : tensor<8x16xf32>, tensor<i32>
    cond {
    %1 = stablehlo.compare LT, %iterArg_0, %arg1 : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  } do {
    %1 = stablehlo.negate %iterArg : tensor<8x16xf32>
    stablehlo.return %1, %iterArg_0 : tensor<8x16xf32>, tensor<i32>
  }
  %2 = stablehlo.abs %0#0 : tensor<8x16xf32>
  %3 = "stablehlo.case"(%arg1) ({
    %4 = sdy.sharding_constraint %arg2 <@mesh, [{?}, {"y", ?}]> : tensor<8x16xf32>
    stablehlo.return %4 : tensor<8x16xf32>
  }, {
    stablehlo.return %arg2 : tensor<8x16xf32>
  }) : (tensor<i32>) -> tensor<8x16xf32>
  %5 = stablehlo.tanh %3 : tensor<8x16xf32>
  return %2, %5 : tensor<8x16xf32>, tensor<8x16xf32>
}
"""

COMPUTATIONS = """
sdy.mesh @mesh = <["a"=2, "b"=2, "c"=8]>
func.func @main(%arg0: tensor<32x32xf32>, %arg1: tensor<8x16xf32>)
    -> (tensor<32x32xf32>, tensor<32x32xf32>, tensor<8x16xf32>) {
  %0 = stablehlo.negate %arg0 : tensor<32x32xf32>
  %1:2 = sdy.manual_computation(%0) in_shardings=[<@mesh, [{"a", ?}, {"b", ?}]>]
      out_shardings=[<@mesh, [{"a"}, {?}]>, <@mesh, [{"a", ?}, {"c", ?}]>]
      manual_axes={"a"} (%arg2: tensor<16x32xf32>) {
    %2 = stablehlo.add %arg2, %arg2 : tensor<16x32xf32>
    sdy.return %2, %2 : tensor<16x32xf32>, tensor<16x32xf32>
  } : (tensor<32x32xf32>) -> (tensor<32x32xf32>, tensor<32x32xf32>)
  %3 = stablehlo.abs %1#1 : tensor<32x32xf32>
  %4 = sdy.named_computation<"foo">(%arg1) (%arg3: tensor<8x16xf32>) {
    %5 = stablehlo.negate %arg3 : tensor<8x16xf32>
    %6 = sdy.sharding_constraint %5 <@mesh, [{?}, {"c", ?}]> : tensor<8x16xf32>
    %7 = stablehlo.abs %6 : tensor<8x16xf32>
    sdy.return %7 : tensor<8x16xf32>
  } : (tensor<8x16xf32>) -> tensor<8x16xf32>
  %8 = stablehlo.tanh %4 : tensor<8x16xf32>
  return %1#0, %3, %8 : tensor<32x32xf32>, tensor<32x32xf32>, tensor<8x16xf32>
}
"""

GROUP = """
sdy.mesh @mesh = <["x"=2, "y"=4]>
func.func @main(%arg0: tensor<8x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x", ?}, {?}]>},
                %arg1: tensor<8x16xf32>) -> (tensor<8x16xf32>, tensor<8x16xf32>) {
  %0 = stablehlo.negate %arg0 : tensor<8x16xf32>
  %1 = stablehlo.abs %arg1 : tensor<8x16xf32>
  sdy.sharding_group %0 group_id = 3 : tensor<8x16xf32>
  sdy.sharding_group %1 group_id = 3 : tensor<8x16xf32>
  %2 = stablehlo.exponential %1 : tensor<8x16xf32>
  return %0, %2 : tensor<8x16xf32>, tensor<8x16xf32>
}
"""


def ops_of(origin) -> list[str]:
    return [op for op, _ in origin.chain]


def test_mlp_second_weight_from_input_1() -> None:
    e = explain_propagation(parse_module(MLP.read_text()))
    w2 = e.value("main:%arg2")
    origin = e.origin(w2, "model")
    assert origin.origin == "input 1 (%arg1)"
    ops = ops_of(origin)
    assert ops[0] == "stablehlo.dot_general" and ops[-1] == "stablehlo.dot_general"
    assert origin.chain[-1][1] == "%arg2"
    assert "stablehlo.tanh" in ops
    # The batch axis of the output comes from input 0 through both layers.
    out = e.origin(e.value("%2"), "data")
    assert out.origin == "input 0 (%arg0)"
    assert [v for _, v in out.chain] == ["%0", "%1", "%2"]


def test_annotated_value_is_its_own_origin() -> None:
    e = explain_propagation(parse_module(MLP.read_text()))
    origin = e.origin(e.value("%arg0"), "data")
    assert origin.origin == "input 0 (%arg0)" and origin.chain == ()
    assert str(origin) == "from input 0 (%arg0)"
    assert origin.holder is e.value("%arg0")


def test_constraint_origin() -> None:
    e = explain_propagation(parse_module(CONSTRAINT))
    v = e.value("%3")
    y = e.origin(v, "y")
    assert y.origin == "sharding constraint constraint_0 (%1)"
    assert ops_of(y) == ["stablehlo.tanh", "stablehlo.abs"]
    x = e.origin(v, "x")
    assert x.origin == "input 0 (%arg0)"
    assert [v for _, v in x.chain] == ["%0", "%1", "%2", "%3"]


def test_backward_from_output() -> None:
    e = explain_propagation(parse_module(BACKWARD))
    for name in ("%arg0", "%arg1"):
        origin = e.origin(e.value(name), "y")
        assert origin.origin == "output 0"
        assert origin.chain[0] == ("func.return", "%1")
        assert origin.chain[-1] == ("stablehlo.add", name)


def test_dag_two_origins() -> None:
    e = explain_propagation(parse_module(DAG))
    lines = e.explain("%2").splitlines()
    assert lines[0].startswith('%2 = stablehlo.add: #sdy.sharding<@mesh, [{"x"')
    assert lines[1] == (
        '  "x" on dim 0: from input 0 (%arg0) via stablehlo.negate (%0) -> stablehlo.add (%2)'
    )
    assert lines[2] == (
        '  "y" on dim 1: from input 1 (%arg1) via stablehlo.abs (%1) -> stablehlo.add (%2)'
    )
    assert lines[3] == '  Shardy\'s sharding origins: {x = "input: 0", y = "input: 1"}'


def test_story_object() -> None:
    e = explain_propagation(parse_module(DAG))
    story = e.story("%2")
    assert story.value == "%2" and story.op == "stablehlo.add"
    assert story.sharding == e.sharding(e.value("%2"))
    assert [(str(a.axis), a.dim, a.where) for a in story.axes] == [
        ('"x"', 0, "dim"),
        ('"y"', 1, "dim"),
    ]
    assert story.axes[0].origin == e.origin("%2", "x")
    assert str(story) == e.explain("%2")


def test_sub_axes_of_a_reshape() -> None:
    e = explain_propagation(parse_module(RESHAPE))
    story = e.story("%1")
    assert [(str(a.axis), a.dim) for a in story.axes] == [('"x":(1)2', 0), ('"x":(2)2', 1)]
    for a in story.axes:
        assert a.origin.origin == "input 0 (%arg0)"
        assert a.origin.notes == (f'"x" split into {a.axis} by stablehlo.reshape (%1)',)
    # Merged back by the second reshape: "x" again, from the same input.
    merged = e.origin("%2", "x")
    assert merged.origin == "input 0 (%arg0)"
    assert ops_of(merged)[-1] == "stablehlo.reshape"
    assert any("became" in n or "split" in n for n in merged.notes)
    assert e.origin("%1", '"x":(2)2') == story.axes[1].origin


def test_user_priorities() -> None:
    e = explain_propagation(parse_module(PRIORITIES), strategy="user-priority")
    origin = e.origin("%2", "z")
    assert origin.origin == "input 2 (%arg2)"
    assert origin.notes == (
        "dim 0 of that annotation has priority p1: it stayed closed, its axes replicated, "
        "until the round of p1",
        "carried in the round of priority p1",
    )
    # Without user priorities there is no round to speak of.
    plain = explain_propagation(parse_module(PRIORITIES), strategy="aggressive")
    assert "round" not in " ".join(plain.origin("%2", "z").notes[1:])


def test_replicated_and_unreduced_axes() -> None:
    e = explain_propagation(parse_module(LISTED))
    story = e.story("%arg0")
    z = [a for a in story.axes if a.where == "replicated"]
    assert len(z) == 1 and z[0].axis == AxisRef("z")
    assert z[0].origin.origin == "input 0 (%arg0)"
    assert z[0].origin.notes == ("its annotation lists it in replicated=",)
    assert '  "z" replicated: from input 0 (%arg0)' in str(story)
    unreduced = e.story("%arg1")
    assert [(str(a.axis), a.where) for a in unreduced.axes] == [('"z"', "unreduced")]
    assert str(unreduced).splitlines()[-1] == "  no axis shards a dim"
    assert e.why_not("%arg1", "z").endswith(
        "it is unreduced, from input 1 (%arg1); its annotation lists it in unreduced="
    )
    assert e.why_not("%0", "z") == (
        '%0 is not sharded along "z": no tensor next to it ever was '
        "(%arg0, at stablehlo.negate (%0), replicates it)"
    )


def test_data_flow_edges() -> None:
    e = explain_propagation(parse_module(CONTROL_FLOW))
    loop = e.origin("%1", "x")
    assert loop.origin == "input 0 (%arg0)"
    assert ops_of(loop) == ["stablehlo.while result 0 (data flow)", "stablehlo.abs"]
    branch = e.origin("%3", "y")
    assert branch.origin == "sharding constraint constraint_0 (%4)"
    assert ops_of(branch) == ["stablehlo.case result 0 (data flow)", "stablehlo.tanh"]


def test_manual_and_named_computations() -> None:
    e = explain_propagation(parse_module(COMPUTATIONS))
    into = e.origin("%0", "b")
    assert into.origin == "in_shardings[0] of sdy.manual_computation mc_0 (%1#0, %1#1)"
    assert ops_of(into) == ["sdy.manual_computation mc_0 body argument 0 (data flow)"]
    manual = e.origin("%1#0", "a")
    assert manual.origin == "out_shardings[0] of sdy.manual_computation mc_0 (%1#0, %1#1)"
    assert manual.notes == (
        "a manual axis of sdy.manual_computation mc_0: its body sees the tensor without it",
    )
    named = e.origin("%4", "c")
    assert named.origin == "sharding constraint constraint_0 (%6)"
    assert ops_of(named) == [
        "stablehlo.abs",
        'sdy.named_computation "foo" result 0 (data flow)',
        "stablehlo.tanh",
    ]


def test_sharding_group() -> None:
    e = explain_propagation(parse_module(GROUP))
    origin = e.origin("%2", "x")
    assert origin.origin == "input 0 (%arg0)"
    assert origin.chain == (
        ("stablehlo.negate", "%0"),
        ("sharding group 3, shared with %0", "%1"),
        ("stablehlo.exponential", "%2"),
    )
    assert e.shardy_origins("%2") == (("x", "input: 0"),)


def test_why_not() -> None:
    e = explain_propagation(parse_module(PRIORITIES))
    assert e.why_not("%0", "y") == (
        '%0 is not sharded along "y": at stablehlo.add (%0), operand 1 (%arg1) has "y" on '
        'dim 0, but operand 0 (%arg0) shards that dim along "x": a conflict'
    )
    assert e.why_not("%arg3", "x") == (
        '%arg3 is not sharded along "x": its annotation closes every dim '
        "(#sdy.sharding<@mesh, [{}, {}]>); at stablehlo.add (%3), operand 1 (%arg0) has "
        '"x" on dim 0, but dim 0 of operand 0 (%arg3) is closed'
    )
    assert e.why_not("%3", "x").startswith('%3 is sharded along "x" on dim 0: from input 0')


@pytest.mark.parametrize("path", CORPUS, ids=lambda p: p.stem)
def test_every_axis_traces_to_an_annotation_that_held_it(path: Path) -> None:
    """On the corpus: every axis of every sharding has a story, its chain
    ends at the value, and the value its origin names held an overlapping
    axis from the start."""
    e = explain_propagation(parse_module(path.read_text()), strategy="user-priority")
    for v, name in e.names.items():
        s = e.sharding(v)
        if s is None:
            continue
        story = e.story(v)
        assert len([a for a in story.axes if a.dim is not None]) == len(s.dim_axes())
        for a in story.axes:
            if a.dim is None:
                continue
            origin = a.origin
            if origin.chain:
                # A while region argument is told as the result that holds its sharding.
                assert origin.chain[-1][1] == e.name(e.driver._key(v))
            if origin.holder is None:
                continue
            initial = e.recorder.initial.get(key_of(origin.holder))
            held = isinstance(initial, TensorSharding) and any(
                b.overlaps(a.axis) or any(b.overlaps(c) for c in s.dim_axes())
                for b in initial.dim_axes()
            )
            manual = origin.origin.startswith(("in_shardings", "out_shardings"))
            assert held or manual, (name, str(a))


def test_shardy_origins_are_the_printed_ones() -> None:
    text = CONSTRAINT
    e = explain_propagation(parse_module(text))
    printed = propagate_with_origins(parse_module(text))
    ops = zip(printed.functions[0].body.ops, e.module.functions[0].body.ops, strict=True)
    for op, explained in ops:
        if op.name in ("stablehlo.negate", "stablehlo.tanh", "stablehlo.abs"):
            (entries,) = op.attributes["sdy.sharding_origins"]
            assert dict(e.shardy_origins(explained.results[0])) == entries


@pytest.mark.parametrize("text", [MLP.read_text(), CONSTRAINT, BACKWARD, DAG, GROUP, COMPUTATIONS])
@pytest.mark.parametrize("strategy", ["aggressive", "basic", "op-priority", "user-priority"])
def test_recording_does_not_change_the_result(text: str, strategy: str) -> None:
    module = parse_module(text)
    before = module.to_text()
    plain = propagate(module, strategy=strategy).to_text()
    assert explain_propagation(module, strategy=strategy).module.to_text() == plain
    assert module.to_text() == before


def test_unknown_value_and_axis() -> None:
    e = explain_propagation(parse_module(DAG))
    with pytest.raises(ShardonnayError, match="no value named"):
        e.explain("%42")
    with pytest.raises(ShardonnayError, match="is not sharded along"):
        e.origin("%arg0", "y")


def test_cli(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["explain", str(MLP), "main:%arg2"]) == 0
    out = capsys.readouterr().out.splitlines()
    # The pipeline's (closed) sharding, as `shardonnay propagate` prints it.
    assert out[0] == '%arg2: #sdy.sharding<@mesh, [{"model"}, {}]>'
    assert out[1].startswith('  "model" on dim 0: from input 1 (%arg1) via stablehlo.dot_general')
    assert main(["explain", str(MLP), "main:%arg2", "--no-pipeline"]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0] == '%arg2: #sdy.sharding<@mesh, [{"model", ?}, {?}]>'
    assert main(["explain", str(MLP), "%77"]) == 1
    assert "no value named" in capsys.readouterr().err
    path = tmp_path / "p.mlir"
    path.write_text(PRIORITIES)
    assert main(["explain", str(path), "%0", "--why-not", "y", "--no-pipeline"]) == 0
    assert capsys.readouterr().out.strip() == explain_propagation(parse_module(PRIORITIES)).why_not(
        "%0", "y"
    )
    assert main(["explain", str(path), "%0", "--why-not", "y"]) == 0
    expected = explain_propagation(parse_module(PRIORITIES), pipeline=True).why_not("%0", "y")
    assert capsys.readouterr().out.strip() == expected


def test_after_the_pipeline_a_constraint_is_still_the_origin() -> None:
    # The pipeline turns the constraint into an sdy.reshard (printed so): what it gave still
    # traces to the constraint, as Shardy's origins do.
    e = explain_propagation(parse_module(CONSTRAINT), pipeline=True)
    assert e.module.function("main").body.ops[1].name == "sdy.reshard"
    assert str(e.origin("%1", "y")) == "from sharding constraint constraint_0 (%1)"
    assert (
        str(e.origin("%0", "y"))
        == "from sharding constraint constraint_0 (%1) via sdy.reshard (%0)"
    )
    assert str(e.origin("%3", "y")) == (
        "from sharding constraint constraint_0 (%1) via stablehlo.tanh (%2) -> stablehlo.abs (%3)"
    )
    assert e.shardy_origins("%3") == (("x", "input: 0"), ("y", "constraint_0"))
    # a constrained value with no sharding of its own takes the constraint's at import
    moved = explain_propagation(parse_module(CONSTRAINT.replace("{?}, {\"y\", ?}", "{}, {\"y\"}")),
                                pipeline=True)  # fmt: skip
    assert str(moved.origin("%0", "y")) == "from sharding constraint constraint_0 (on %0)"


def test_after_the_pipeline_an_inserted_reshard_says_so() -> None:
    text = (CORPUS[0].parent / "elementwise_zoo.mlir").read_text()
    e = explain_propagation(parse_module(text), pipeline=True)
    reshards = [
        v
        for v, n in e.value_names.items()
        if n.op == "sdy.reshard" and e.sharding(e.value(v)) is None
    ]
    assert reshards
    v = reshards[0]
    name = e.value_names[v].spec
    source = e.value_names[v.op.operands[0]].spec
    story = e.story(name)
    assert story.notes == (f"an sdy.reshard of {source} that the propagation pipeline inserted",)
    axis = next(a for d in story.sharding.dims for a in d.axes)
    assert e.why_not(name, axis.name).endswith(f"an sdy.reshard of {source} the pipeline inserted")
