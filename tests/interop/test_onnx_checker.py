"""The ONNX sharding formalism's checker and inference: the proposal's worked
examples (Add with mismatched specs, [M,1] + [1,N] over device groups,
reductions, MatMul) with its conclusions, and the rules per operator family."""

from __future__ import annotations

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

from shardonnay.interop.onnx.checker import check_model, check_node, resolve_inputs
from shardonnay.interop.onnx.graph import ModelView
from shardonnay.interop.onnx.inference import infer_formalism
from shardonnay.interop.onnx.specs import ShardingSpec
from shardonnay.testing.onnx_models import annotate, spec


def one_node(node, inputs, outputs, devices=4, initializers=()):
    """A model of `node` alone; `inputs`/`outputs` map names to shapes."""

    def info(name, shape):
        return helper.make_tensor_value_info(name, TensorProto.FLOAT, list(shape))

    graph = helper.make_graph(
        [node],
        "g",
        [info(n, s) for n, s in inputs.items()],
        [info(n, s) for n, s in outputs.items()],
        list(initializers),
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])
    model.ir_version = 11
    model.configuration.add(name="mesh", num_devices=devices)
    onnx.checker.check_model(model, full_check=True)
    return model


def inferred_outputs(model) -> dict[str, ShardingSpec | None]:
    view = ModelView(model)
    inputs = resolve_inputs(view, 0, view.node_specs(0).inputs, {})
    return dict(check_node(view, 0, inputs).outputs)


def rules(findings) -> list[tuple[str, str | None, str]]:
    return [(f.rule, f.tensor, f.severity) for f in findings]


# -- the proposal's examples ---------------------------------------------------------------


def test_add_of_two_inputs_split_along_different_axes_does_not_make_sense():
    # "Sharding the first input between two devices along axis 0 and the second input
    # between the same two devices along axis 1 does not make sense."
    add = helper.make_node("Add", ["A", "B"], ["C"], name="add")
    annotate(add, spec("A", [(0, 2)], devices=[0, 1]), spec("B", [(1, 2)], devices=[0, 1]))
    model = one_node(add, {"A": (32, 1024), "B": (32, 1024)}, {"C": (32, 1024)}, devices=2)
    findings = check_model(model)
    assert rules(findings) == [("non-broadcast axes sharded alike", "B", "invalid")] * 2
    assert "sharded differently from axis 0 of 'A'" in str(findings[0])


def test_add_of_two_inputs_sharded_alike_gives_the_same_output_sharding():
    add = helper.make_node("Add", ["A", "B"], ["C"], name="add")
    annotate(add, spec("A", [(0, 2)], devices=[0, 1]), spec("B", [(0, 2)], devices=[0, 1]))
    model = one_node(add, {"A": (32, 1024), "B": (32, 1024)}, {"C": (32, 1024)}, devices=2)
    assert check_model(model) == []
    assert inferred_outputs(model)["C"] == ShardingSpec("C", (0, 1), (), ((0, 2),))


PROPOSAL_INPUT1 = spec("A", [(0, 2)], groups=[[0, 1], [2, 3]])  # device_map {-1: [0,1], -2: [2,3]}
PROPOSAL_INPUT2 = spec("B", [(1, 2)], groups=[[0, 2], [1, 3]])  # "analogous"


def test_broadcast_of_m1_and_1n_composes_into_one_device_per_output_shard():
    add = helper.make_node("Add", ["A", "B"], ["C"], name="add")
    annotate(add, PROPOSAL_INPUT1, PROPOSAL_INPUT2)
    model = one_node(add, {"A": (8, 1), "B": (1, 6)}, {"C": (8, 6)})
    assert check_model(model) == []
    # device = [0, 1, 2, 3], axes 0 and 1 in 2 shards each: output shard [i, j] is on
    # the intersection of the devices of input-1 shard i and input-2 shard j.
    assert inferred_outputs(model)["C"] == ShardingSpec("C", (0, 1, 2, 3), (), ((0, 2), (1, 2)))


def test_broadcast_inputs_whose_device_sets_do_not_intersect_are_incompatible():
    add = helper.make_node("Add", ["A", "B"], ["C"], name="add")
    annotate(add, spec("A", [(0, 2)], devices=[0, 1]), spec("B", [(1, 2)], devices=[2, 3]))
    model = one_node(add, {"A": (8, 1), "B": (1, 6)}, {"C": (8, 6)})
    (finding,) = check_model(model)
    assert rules([finding]) == [("broadcast composition", "B", "invalid")]
    assert "no device holds all of A[0:4, 0:1], B[0:1, 0:3]" in finding.message
    assert inferred_outputs(model)["C"] is None


def test_a_broadcast_axis_of_size_one_must_be_replicated():
    add = helper.make_node("Add", ["A", "B"], ["C"], name="add")
    annotate(add, spec("A", [(0, 2)], devices=[0, 1]), spec("B", [(0, 2)], devices=[0, 1]))
    model = one_node(add, {"A": (8, 6), "B": (1, 6)}, {"C": (8, 6)}, devices=2)
    findings = check_model(model)
    assert ("broadcast axis replicated", "B", "invalid") in rules(findings)


@pytest.mark.parametrize("keepdims, out_shape", [(1, (8, 1)), (0, (8,))])
def test_a_reduction_over_a_split_axis_is_replicated_on_every_participant(keepdims, out_shape):
    # Local reduce, then across devices; the result goes to all devices that took part.
    node = helper.make_node("ReduceSum", ["X", "axes"], ["Y"], keepdims=keepdims, name="sum")
    annotate(node, spec("X", [(1, 4)], devices=[0, 1, 2, 3]))
    axes = numpy_helper.from_array(np.array([1], np.int64), "axes")
    model = one_node(node, {"X": (8, 16)}, {"Y": out_shape}, initializers=[axes])
    assert check_model(model) == []
    assert inferred_outputs(model)["Y"] == ShardingSpec("Y", (-1,), ((-1, (0, 1, 2, 3)),), ())


def test_a_reduction_keeps_the_sharding_of_the_other_axes():
    node = helper.make_node("ReduceMax", ["X", "axes"], ["Y"], keepdims=1, name="max")
    annotate(node, spec("X", [(0, 2), (1, 2)], devices=[0, 1, 2, 3]))
    axes = numpy_helper.from_array(np.array([1], np.int64), "axes")
    model = one_node(node, {"X": (8, 16)}, {"Y": (8, 1)}, initializers=[axes])
    # Rows 0:4 are on devices 0 and 1 (each with half the columns), rows 4:8 on 2 and 3.
    expected = ShardingSpec("Y", (-1, -2), ((-1, (0, 1)), (-2, (2, 3))), ((0, 2),))
    assert inferred_outputs(model)["Y"] == expected


def test_matmul_contracted_axes_must_be_sharded_alike():
    mm = helper.make_node("MatMul", ["A", "B"], ["C"], name="mm")
    annotate(mm, spec("A", [(1, 2)], devices=[0, 1]), spec("B", [(0, 2)], devices=[1, 0]))
    model = one_node(mm, {"A": (8, 16), "B": (16, 6)}, {"C": (8, 6)}, devices=2)
    assert rules(check_model(model)) == [("contracted axes sharded alike", "B", "invalid")]


def test_matmul_m_and_n_compose_like_broadcast_axes():
    mm = helper.make_node("MatMul", ["A", "B"], ["C"], name="mm")
    annotate(
        mm,
        spec("A", [(0, 2)], groups=[[0, 1], [2, 3]]),
        spec("B", [(1, 2)], groups=[[0, 2], [1, 3]]),
    )
    model = one_node(mm, {"A": (8, 16), "B": (16, 6)}, {"C": (8, 6)})
    assert check_model(model) == []
    assert inferred_outputs(model)["C"] == ShardingSpec("C", (0, 1, 2, 3), (), ((0, 2), (1, 2)))


def test_matmul_with_a_split_contraction_is_reduced_onto_its_participants():
    mm = helper.make_node("MatMul", ["A", "B"], ["C"], name="mm")
    groups = [[0, 1], [2, 3]]
    annotate(mm, spec("A", [(1, 2)], groups=groups), spec("B", [(0, 2)], groups=groups))
    model = one_node(mm, {"A": (8, 16), "B": (16, 6)}, {"C": (8, 6)})
    assert check_model(model) == []
    assert inferred_outputs(model)["C"] == ShardingSpec("C", (-1,), ((-1, (0, 1, 2, 3)),), ())


def test_unary_ops_keep_the_input_sharding():
    node = helper.make_node("Tanh", ["X"], ["Y"], name="tanh")
    annotate(node, spec("X", [(1, 2)], groups=[[0, 3], [1, 2]]))
    model = one_node(node, {"X": (4, 6)}, {"Y": (4, 6)})
    out = inferred_outputs(model)["Y"]
    assert (out.devices, out.groups, out.dims) == (
        (-1, -2),
        ((-1, (0, 3)), (-2, (1, 2))),
        ((1, 2),),
    )


# -- "does not make sense" versus "not supported" ---------------------------------------------


def test_operators_the_formalism_leaves_out_are_unsupported_not_invalid():
    conv = helper.make_node("Conv", ["X", "W"], ["Y"], name="conv")
    annotate(conv, spec("X", [(0, 2)], devices=[0, 1]))
    model = one_node(conv, {"X": (2, 3, 5, 5), "W": (4, 3, 3, 3)}, {"Y": (2, 4, 3, 3)}, 2)
    assert rules(check_model(model)) == [("operator scope", None, "unsupported")]


def test_a_softmax_axis_split_across_devices_is_unsupported():
    node = helper.make_node("Softmax", ["X"], ["Y"], axis=-1, name="softmax")
    annotate(node, spec("X", [(1, 2)], devices=[0, 1]))
    model = one_node(node, {"X": (4, 6)}, {"Y": (4, 6)}, devices=2)
    assert rules(check_model(model)) == [("parallel axis", "X", "unsupported")]


def test_ill_formed_specs_are_named():
    node = helper.make_node("Relu", ["X"], ["Y"], name="relu")
    annotate(node, spec("X", [(0, 2)], devices=[0, 5]), spec("Z", [], devices=[0]))
    model = one_node(node, {"X": (4, 6)}, {"Y": (4, 6)}, devices=2)
    (finding,) = check_model(model)
    assert "'Z', which is neither an input nor an output" in finding.message
    node.device_configurations[0].ClearField("sharding_spec")
    annotate(node, spec("X", [(0, 2)], devices=[0, 5]), config="elsewhere")
    node.device_configurations.pop(0)
    model = one_node(node, {"X": (4, 6)}, {"Y": (4, 6)}, devices=2)
    messages = [f.message for f in check_model(model)]
    assert "configuration_id 'elsewhere' names no DeviceConfigurationProto of the model" in messages
    assert "device(s) [5] outside the configuration's 2 devices" in messages


# -- the formalism's inference over a graph ---------------------------------------------------


def test_formalism_inference_follows_producers_and_leaves_model_inputs_unsharded():
    from shardonnay.testing.onnx_models import mlp

    result = infer_formalism(mlp())
    onnx.checker.check_model(result.model, full_check=True)
    specs = result.node_specs
    assert specs[0].outputs["H"] == ShardingSpec("H", (0, 1, 2, 3), (), ((0, 2), (1, 2)))
    # bias1: H is its producer's; b1, an initializer, is unsharded: the formalism flags it.
    assert specs[1].inputs["H"].dims == ((0, 2), (1, 2))
    assert specs[1].inputs["b1"] == ShardingSpec("b1", (-1,), ((-1, (0, 1, 2, 3)),))
    assert any("non-broadcast axes sharded alike" in note for note in result.notes)
    assert "Y" not in specs[4].outputs  # nothing inferred past the invalid node


def test_an_operator_without_a_rule_is_unsupported_only_when_its_inputs_are_split():
    node = helper.make_node("Shrink", ["X"], ["Y"], name="shrink")
    model = one_node(node, {"X": (4, 6)}, {"Y": (4, 6)}, devices=2)
    assert check_model(model) == []
    assert inferred_outputs(model)["Y"] == ShardingSpec("Y", (-1,), ((-1, (0, 1)),))
    annotate(node, spec("X", [(0, 2)], devices=[0, 1]))
    model = one_node(node, {"X": (4, 6)}, {"Y": (4, 6)}, devices=2)
    assert rules(check_model(model)) == [("operator scope", None, "unsupported")]


FORMALISM_EXAMPLES = {
    "broadcast composition": (
        helper.make_node("Add", ["A", "B"], ["C"]),
        [PROPOSAL_INPUT1, PROPOSAL_INPUT2],
        {"A": (8, 1), "B": (1, 6)},
        {"C": (8, 6)},
    ),
    "matmul composition": (
        helper.make_node("MatMul", ["A", "B"], ["C"]),
        [
            spec("A", [(0, 2)], groups=[[0, 1], [2, 3]]),
            spec("B", [(1, 2)], groups=[[0, 2], [1, 3]]),
        ],
        {"A": (8, 16), "B": (16, 6)},
        {"C": (8, 6)},
    ),
    "matmul split contraction": (
        helper.make_node("MatMul", ["A", "B"], ["C"]),
        [spec("A", [(1, 4)], devices=[0, 1, 2, 3]), spec("B", [(0, 4)], devices=[0, 1, 2, 3])],
        {"A": (8, 16), "B": (16, 6)},
        {"C": (8, 6)},
    ),
    "reduction": (
        helper.make_node("ReduceMax", ["A"], ["C"], keepdims=1),
        [spec("A", [(0, 2), (1, 2)], devices=[0, 1, 2, 3])],
        {"A": (8, 16)},
        {"C": (1, 1)},
    ),
    "unary": (
        helper.make_node("Tanh", ["A"], ["C"]),
        [spec("A", [(1, 2)], groups=[[0, 3], [1, 2]])],
        {"A": (4, 6)},
        {"C": (4, 6)},
    ),
}


@pytest.mark.parametrize("example", FORMALISM_EXAMPLES)
def test_the_formalisms_output_specs_are_what_the_devices_compute(example):
    # The formalism infers where each output shard lives; running the node device by
    # device from its input specs puts exactly that data on exactly those devices.
    from shardonnay.interop.onnx.execution import run_per_device
    from shardonnay.testing.onnx_models import onnxruntime_values

    node, specs, inputs, outputs = FORMALISM_EXAMPLES[example]
    annotate(node, *specs)
    done = infer_formalism(one_node(node, inputs, outputs)).model
    rng = np.random.default_rng(0)
    data = {n: rng.standard_normal(s).astype(np.float32) for n, s in inputs.items()}
    run = run_per_device(done, data)
    assert run.reshards == ()
    np.testing.assert_allclose(run.values["C"], onnxruntime_values(done, data)["C"], rtol=1e-5)
