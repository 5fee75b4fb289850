"""Propagation over ONNX graphs: partially annotated models (an MLP, a
transformer block, a conv net, an embedding with Einsum, Slice and Concat) are
completed by `infer`; the written models pass `onnx.checker`, run unchanged in
onnxruntime, and the per-device computation their specs imply (numpy through
`shardonnay.layout`, node by node) reproduces onnxruntime's value of every
tensor."""

from __future__ import annotations

import numpy as np
import onnx
import pytest
from onnx import helper

from shardonnay import Mesh, TensorSharding
from shardonnay.errors import ShardingError
from shardonnay.interop.onnx.checker import check_model
from shardonnay.interop.onnx.execution import run_per_device
from shardonnay.interop.onnx.graph import ModelView
from shardonnay.interop.onnx.inference import infer
from shardonnay.testing.onnx_models import (
    MODELS,
    annotate,
    mlp,
    onnxruntime_values,
    random_inputs,
    spec,
    transformer_block,
)

INFERRED = {name: infer(build()) for name, build in MODELS.items()}


@pytest.mark.parametrize("name", MODELS)
def test_every_node_gets_a_spec_for_every_input_and_output(name):
    model = INFERRED[name].model
    onnx.checker.check_model(model, full_check=True)
    view = ModelView(model)
    for index, node in enumerate(view.nodes):
        specs = view.node_specs(index)
        assert set(specs.inputs) == {n for n in node.input if n}
        assert set(specs.outputs) == set(node.output)
    assert INFERRED[name].notes == ()


@pytest.mark.parametrize("name", MODELS)
def test_the_specs_written_by_hand_are_kept(name):
    original = ModelView(MODELS[name]())
    written = ModelView(INFERRED[name].model)
    for index in range(len(original.nodes)):
        given = original.node_specs(index)
        got = written.node_specs(index)
        for tensor, s in given.inputs.items():
            assert got.inputs[tensor] == s
        for tensor, s in given.outputs.items():
            assert got.outputs[tensor] == s


@pytest.mark.parametrize("name", MODELS)
def test_onnxruntime_runs_the_annotated_model_unchanged(name):
    inputs = random_inputs(MODELS[name]())
    plain = onnxruntime_values(MODELS[name](), inputs)
    annotated = onnxruntime_values(INFERRED[name].model, inputs)
    for tensor, value in plain.items():
        np.testing.assert_array_equal(annotated[tensor], value)


@pytest.mark.parametrize("name", MODELS)
def test_per_device_computation_reproduces_onnxruntime(name):
    model = INFERRED[name].model
    inputs = random_inputs(model, seed=1)
    expected = onnxruntime_values(model, inputs)
    run = run_per_device(model, inputs)
    # every node's inputs agree on its factors, and it computes its outputs as their specs say
    assert run.reshards == ()
    assert run.mesh.size == 4
    for tensor, value in expected.items():
        np.testing.assert_allclose(run.values[tensor], value, rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("name", MODELS)
def test_completed_specs_break_none_of_the_formalisms_rules(name):
    findings = check_model(INFERRED[name].model)
    assert [f for f in findings if f.severity == "invalid"] == []


def test_mlp_is_data_and_model_parallel_after_inference():
    s = {k: str(v) for k, v in INFERRED["mlp"].shardings.items()}
    assert s["H"] == '#sdy.sharding<@mesh, [{"x"}, {"y"}]>'  # rows on x, columns on y
    assert s["b1"] == '#sdy.sharding<@mesh, [{"y"}]>'  # follows H's columns
    assert s["W2"] == '#sdy.sharding<@mesh, [{"y"}, {}]>'  # contraction split on y
    assert s["Y"] == '#sdy.sharding<@mesh, [{"x"}, {}]>'  # reduced over y, rows stay on x


def test_transformer_heads_follow_the_projection_split_through_reshape_and_transpose():
    s = {k: str(v) for k, v in INFERRED["transformer_block"].shardings.items()}
    assert s["Q"] == '#sdy.sharding<@mesh, [{"x"}, {}, {"y"}]>'
    assert s["Qh"] == '#sdy.sharding<@mesh, [{"x"}, {"y"}, {}, {}]>'  # [batch, head, seq, d]
    assert s["P"] == '#sdy.sharding<@mesh, [{"x"}, {"y"}, {}, {}]>'  # softmax axis whole
    assert s["Wo"] == '#sdy.sharding<@mesh, [{"y"}, {}]>'


def test_a_mesh_given_by_name_is_used_for_every_spec():
    mesh = Mesh({"data": 2, "model": 2})
    result = infer(mlp(), mesh=mesh)
    assert result.mesh == mesh
    assert result.shardings["H"] == TensorSharding.from_axes("mesh", ["data", "model"])
    run = run_per_device(result.model, random_inputs(result.model), mesh=mesh)
    assert run.reshards == ()


def test_inputs_unsharded_keeps_model_inputs_whole_and_reshards_at_the_annotated_node():
    result = infer(mlp(), inputs_unsharded=True)
    assert result.shardings["X"] == TensorSharding.from_axes("mesh", [None, None])
    assert result.node_specs[0].inputs["X"].dims == ((0, 2),)  # the node's own spec
    inputs = random_inputs(result.model)
    run = run_per_device(result.model, inputs)
    np.testing.assert_allclose(
        run.values["Y"], onnxruntime_values(result.model, inputs)["Y"], rtol=1e-4, atol=1e-5
    )


def test_priorities_decide_between_conflicting_specs():
    # W1's spec puts H's columns on one axis, A's (fc2's input) on the other; p0 wins.
    model = mlp()
    fc1, fc2 = model.graph.node[0], model.graph.node[3]
    del fc1.device_configurations[:]
    annotate(fc1, spec("W1", [(1, 2)], groups=[[0, 2], [1, 3]]))
    annotate(fc2, spec("A", [(1, 2)], groups=[[0, 1], [2, 3]]))
    first = infer(model, priorities={"A": 0, "W1": 1})
    second = infer(model, priorities={"A": 1, "W1": 0})
    for result, winner in ((first, "A"), (second, "W1")):
        columns = result.shardings[winner].dims[1].axes
        assert result.shardings["H"].dims[1].axes == columns
        assert result.shardings["b1"].dims[0].axes == columns
    assert first.shardings["A"].dims[1].axes != first.shardings["W1"].dims[1].axes


def test_conservative_inference_never_splits_an_axis():
    model = transformer_block()
    conservative = infer(model, mesh=Mesh({"x": 2, "z": 2}), conservative=True)
    for sharding in conservative.shardings.values():
        assert not any(a.is_sub_axis for a in sharding.dim_axes())


def test_operators_without_a_rule_are_reported():
    model = mlp()
    model.graph.node[2].op_type = "Shrink"  # elementwise, but shardonnay has no rule for it
    result = infer(model)
    assert result.notes == (
        'node 2 (Shrink "relu"): not propagated through: no sharding rule for ONNX operator Shrink',
    )
    assert str(result.shardings["W2"]) == "#sdy.sharding<@mesh, [{}, {}]>"  # nothing crossed


def test_specs_no_mesh_holds_together_are_an_error():
    model = mlp()
    relu = model.graph.node[2]
    annotate(relu, spec("A", [(0, 4)], devices=[0, 3, 1, 2]))
    with pytest.raises(ShardingError, match="no 4-device mesh expresses every spec"):
        infer(model)


def test_a_mesh_of_another_size_than_the_configuration_is_an_error():
    with pytest.raises(ShardingError, match="has 8 devices, the model's configuration 4"):
        infer(mlp(), mesh=Mesh({"x": 8}))


def test_per_device_run_reshards_inputs_whose_specs_disagree():
    # bias1's own spec splits b1 four ways while H's columns are split two ways: b1 is
    # resharded to H's split before the node runs, and the result is still right.
    model = mlp()
    annotate(model.graph.node[1], spec("b1", [(0, 4)], devices=[0, 1, 2, 3]))
    done = infer(model).model
    inputs = random_inputs(done)
    run = run_per_device(done, inputs)
    assert run.reshards == (
        'node 1 (Add "bias1"): \'b1\' #sdy.sharding<@mesh, [{"x", "y"}]> -> '
        '#sdy.sharding<@mesh, [{"y"}]>',
        # propagation settled Hb on rows only: the node's result is resharded after it
        'node 1 (Add "bias1"): output \'Hb\' #sdy.sharding<@mesh, [{"x"}, {"y"}]> -> '
        '#sdy.sharding<@mesh, [{"x"}, {}]>',
    )
    expected = onnxruntime_values(done, inputs)
    np.testing.assert_allclose(run.values["Y"], expected["Y"], rtol=1e-4, atol=1e-5)


def test_unannotated_single_node_models_are_replicated():
    x = helper.make_tensor_value_info("X", onnx.TensorProto.FLOAT, [4])
    g = helper.make_graph([helper.make_node("Exp", ["X"], ["Y"])], "g", [x], [x])
    g.output[0].name = "Y"
    model = helper.make_model(g, opset_imports=[helper.make_opsetid("", 18)])
    result = infer(model)
    assert result.mesh == Mesh({}) and result.model.configuration[0].num_devices == 1
    onnx.checker.check_model(result.model, full_check=True)


@pytest.mark.parametrize("op", ["ReduceSum", "ReduceMean", "ReduceMax", "ReduceMin"])
@pytest.mark.parametrize("size", [8, 5])  # 5: uneven shards with padding
def test_reductions_over_a_split_axis_combine_partial_results(op, size):
    node = helper.make_node(op, ["X", "axes"], ["Y"], keepdims=0, name="reduce")
    annotate(node, spec("X", [(1, 2)], devices=[0, 1]))
    axes = onnx.numpy_helper.from_array(np.array([1], np.int64), "axes")
    x = helper.make_tensor_value_info("X", onnx.TensorProto.FLOAT, [3, size])
    y = helper.make_tensor_value_info("Y", onnx.TensorProto.FLOAT, [3])
    graph = helper.make_graph([node], "g", [x], [y], [axes])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])
    model.configuration.add(name="mesh", num_devices=2)
    data = -np.abs(np.random.default_rng(0).standard_normal((3, size))).astype(np.float32) - 1
    if op == "ReduceMin":
        data = -data
    got = run_per_device(model, {"X": data}).values["Y"]
    expected = onnxruntime_values(model, {"X": data})["Y"]
    np.testing.assert_allclose(got, expected, rtol=1e-5)


def test_symbolic_dims_are_named_in_the_error():
    x = helper.make_tensor_value_info("X", onnx.TensorProto.FLOAT, ["N", 4])
    y = helper.make_tensor_value_info("Y", onnx.TensorProto.FLOAT, ["N", 4])
    graph = helper.make_graph([helper.make_node("Relu", ["X"], ["Y"])], "g", [x], [y])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])
    with pytest.raises(ShardingError, match="tensor 'X' has no static shape"):
        infer(model)
