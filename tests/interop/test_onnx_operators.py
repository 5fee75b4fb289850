"""Every ONNX operator rule is sound on data: a one-node model whose first
input is split along mesh axes (every way that fits, a few drawn per
operator) is completed by `infer`, run device by device, and equals
onnxruntime's result."""

from __future__ import annotations

import itertools
import random

import numpy as np
import onnx
import pytest
from onnx import TensorProto, helper, numpy_helper

from shardonnay import Mesh, TensorSharding
from shardonnay.interop.onnx.execution import run_per_device
from shardonnay.interop.onnx.inference import infer
from shardonnay.interop.onnx.specs import sharding_to_spec
from shardonnay.testing.onnx_models import annotate, onnxruntime_values

MESH = Mesh({"x": 2, "y": 2})
F, I64, BOOL = TensorProto.FLOAT, TensorProto.INT64, TensorProto.BOOL


def const(name, values, dtype=np.int64):
    return numpy_helper.from_array(np.array(values, dtype), name)


# name -> (node, inputs {name: (shape, type)}, outputs {name: shape or (shape, type)}, constants)
CASES = {
    "Relu": (helper.make_node("Relu", ["X"], ["Y"]), {"X": (4, 6)}, {"Y": (4, 6)}, []),
    "Add broadcast": (
        helper.make_node("Add", ["X", "B"], ["Y"]),
        {"X": (4, 6), "B": (6,)},
        {"Y": (4, 6)},
        [],
    ),
    "Where": (
        helper.make_node("Where", ["C", "X", "B"], ["Y"]),
        {"C": ((4, 1), BOOL), "X": (4, 6), "B": (1, 6)},
        {"Y": (4, 6)},
        [],
    ),
    "Clip": (
        helper.make_node("Clip", ["X", "lo", "hi"], ["Y"]),
        {"X": (4, 6)},
        {"Y": (4, 6)},
        [const("lo", -0.5, np.float32), const("hi", 0.5, np.float32)],
    ),
    "MatMul batched": (
        helper.make_node("MatMul", ["X", "W"], ["Y"]),
        {"X": (2, 4, 6), "W": (6, 8)},
        {"Y": (2, 4, 8)},
        [],
    ),
    "MatMul vector": (
        helper.make_node("MatMul", ["X", "W"], ["Y"]),
        {"X": (6,), "W": (6, 4)},
        {"Y": (4,)},
        [],
    ),
    "Gemm transposed": (
        helper.make_node("Gemm", ["X", "W", "C"], ["Y"], transA=1, transB=1, beta=0.5),
        {"X": (6, 4), "W": (8, 6), "C": (1, 8)},
        {"Y": (4, 8)},
        [],
    ),
    "Einsum": (
        helper.make_node("Einsum", ["X", "W"], ["Y"], equation="bij,bjk->bki"),
        {"X": (2, 4, 6), "W": (2, 6, 4)},
        {"Y": (2, 4, 4)},
        [],
    ),
    "ReduceSum": (
        helper.make_node("ReduceSum", ["X", "axes"], ["Y"], keepdims=1),
        {"X": (4, 6, 2)},
        {"Y": (4, 1, 2)},
        [const("axes", [1])],
    ),
    "ReduceMean": (
        helper.make_node("ReduceMean", ["X", "axes"], ["Y"], keepdims=0),
        {"X": (4, 6, 2)},
        {"Y": (6,)},
        [const("axes", [0, 2])],
    ),
    "ReduceL2": (
        helper.make_node("ReduceL2", ["X", "axes"], ["Y"], keepdims=0),
        {"X": (4, 6)},
        {"Y": (4,)},
        [const("axes", [1])],
    ),
    "ArgMax": (
        helper.make_node("ArgMax", ["X"], ["Y"], axis=1, keepdims=0),
        {"X": (4, 6)},
        {"Y": ((4,), I64)},
        [],
    ),
    "Transpose": (
        helper.make_node("Transpose", ["X"], ["Y"], perm=[2, 0, 1]),
        {"X": (4, 6, 2)},
        {"Y": (2, 4, 6)},
        [],
    ),
    "Reshape split": (
        helper.make_node("Reshape", ["X", "shape"], ["Y"]),
        {"X": (4, 6)},
        {"Y": (2, 2, 6)},
        [const("shape", [2, 2, 6])],
    ),
    "Reshape merge": (
        helper.make_node("Reshape", ["X", "shape"], ["Y"]),
        {"X": (4, 6)},
        {"Y": (24,)},
        [const("shape", [24])],
    ),
    "Flatten": (
        helper.make_node("Flatten", ["X"], ["Y"], axis=1),
        {"X": (2, 3, 4)},
        {"Y": (2, 12)},
        [],
    ),
    "Unsqueeze": (
        helper.make_node("Unsqueeze", ["X", "axes"], ["Y"]),
        {"X": (4, 6)},
        {"Y": (4, 1, 6)},
        [const("axes", [1])],
    ),
    "Concat": (
        helper.make_node("Concat", ["X", "B"], ["Y"], axis=1),
        {"X": (4, 2), "B": (4, 4)},
        {"Y": (4, 6)},
        [],
    ),
    "Slice": (
        helper.make_node("Slice", ["X", "starts", "ends", "axes"], ["Y"]),
        {"X": (4, 6)},
        {"Y": (4, 4)},
        [const("starts", [1]), const("ends", [5]), const("axes", [1])],
    ),
    "Slice reversed": (
        helper.make_node("Slice", ["X", "starts", "ends", "axes", "steps"], ["Y"]),
        {"X": (4, 6)},
        {"Y": (4, 6)},
        [const("starts", [-1]), const("ends", [-100]), const("axes", [0]), const("steps", [-1])],
    ),
    "Gather": (
        helper.make_node("Gather", ["X", "idx"], ["Y"], axis=1),
        {"X": (4, 6), "idx": ((2, 3), I64)},
        {"Y": (4, 2, 3)},
        [],
    ),
    "Expand": (
        helper.make_node("Expand", ["X", "shape"], ["Y"]),
        {"X": (4, 1)},
        {"Y": (4, 6)},
        [const("shape", [4, 6])],
    ),
    "Softmax": (
        helper.make_node("Softmax", ["X"], ["Y"], axis=1),
        {"X": (4, 6)},
        {"Y": (4, 6)},
        [],
    ),
    "LayerNormalization": (
        helper.make_node("LayerNormalization", ["X", "g", "b"], ["Y", "M", "R"], axis=1),
        {"X": (4, 6, 2), "g": (6, 2), "b": (6, 2)},
        {"Y": (4, 6, 2), "M": (4, 1, 1), "R": (4, 1, 1)},
        [],
    ),
    "BatchNormalization": (
        helper.make_node("BatchNormalization", ["X", "s", "b", "m", "v"], ["Y"]),
        {"X": (2, 4, 3, 3), "s": (4,), "b": (4,), "m": (4,)},
        {"Y": (2, 4, 3, 3)},
        [numpy_helper.from_array(np.full(4, 2.0, np.float32), "v")],
    ),
    "Conv": (
        helper.make_node("Conv", ["X", "W", "B"], ["Y"], pads=[1, 1, 1, 1]),
        {"X": (2, 4, 5, 5), "W": (6, 4, 3, 3), "B": (6,)},
        {"Y": (2, 6, 5, 5)},
        [],
    ),
    "MaxPool": (
        helper.make_node("MaxPool", ["X"], ["Y"], kernel_shape=[2, 2], strides=[2, 2]),
        {"X": (2, 4, 6, 6)},
        {"Y": (2, 4, 3, 3)},
        [],
    ),
    "GlobalAveragePool": (
        helper.make_node("GlobalAveragePool", ["X"], ["Y"]),
        {"X": (2, 4, 3, 3)},
        {"Y": (2, 4, 1, 1)},
        [],
    ),
    "Shape": (
        helper.make_node("Shape", ["X"], ["Y"]),
        {"X": (4, 6)},
        {"Y": ((2,), I64)},
        [],
    ),
}


def model_of(case: str):
    node, inputs, outputs, constants = CASES[case]

    def info(name, spec):
        shape, dtype = spec if spec and isinstance(spec[0], tuple) else (spec, F)
        return helper.make_tensor_value_info(name, dtype, list(shape))

    graph = helper.make_graph(
        [node],
        "g",
        [info(n, s) for n, s in inputs.items()],
        [info(n, s) for n, s in outputs.items()],
        constants,
    )
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 18)])
    model.ir_version = 11
    model.configuration.add(name="mesh", num_devices=MESH.size)
    onnx.checker.check_model(model, full_check=True)
    return model


def first_input_splits(shape, count: int, seed: int):
    """Up to `count` shardings of `shape` on MESH: each axis on a dim or unused."""
    out = []
    for x_dim, y_dim in itertools.product(range(-1, len(shape)), repeat=2):
        dims = [[] for _ in shape]
        for axis, dim in (("x", x_dim), ("y", y_dim)):
            if dim >= 0:
                dims[dim].append(axis)
        out.append(TensorSharding.from_axes("mesh", [tuple(d) for d in dims]))
        if x_dim == y_dim >= 0:
            out.append(TensorSharding.from_axes("mesh", [tuple(reversed(d)) for d in dims]))
    random.Random(seed).shuffle(out)
    return out[:count]


def inputs_for(model, seed: int):
    rng = np.random.default_rng(seed)
    constants = {i.name for i in model.graph.initializer}
    out = {}
    for info in model.graph.input:
        if info.name in constants:
            continue
        shape = [d.dim_value for d in info.type.tensor_type.shape.dim]
        kind = info.type.tensor_type.elem_type
        if kind == BOOL:
            out[info.name] = rng.integers(0, 2, shape).astype(bool)
        elif kind == I64:
            out[info.name] = rng.integers(0, 6, shape).astype(np.int64)
        else:
            out[info.name] = rng.standard_normal(shape).astype(np.float32)
    return out


@pytest.mark.parametrize("case", CASES)
def test_operator_computed_device_by_device_equals_onnxruntime(case):
    node = CASES[case][0]
    first = node.input[0]
    shape = next(s for n, s in CASES[case][1].items() if n == first)
    shape = shape[0] if isinstance(shape[0], tuple) else shape
    for i, sharding in enumerate(first_input_splits(shape, 4, seed=len(case))):
        model = model_of(case)
        annotate(model.graph.node[0], sharding_to_spec(first, sharding, MESH, shape))
        done = infer(model, mesh=MESH)
        assert done.notes == ()
        inputs = inputs_for(done.model, seed=i)
        run = run_per_device(done.model, inputs, mesh=MESH)
        expected = onnxruntime_values(done.model, inputs)
        for name, value in expected.items():
            np.testing.assert_allclose(
                run.values[name], value, rtol=1e-4, atol=1e-5, err_msg=f"{case} {sharding}"
            )
