"""Small ONNX models built with `onnx.helper`, partially annotated with
sharding specs, for the ONNX interop tests (and the README's example).

Needs the `onnx` extra (imported where a model is built)::

    model = mlp(seed=0)                      # annotated for 4 devices
    inputs = random_inputs(model, seed=1)    # {"X": float32[8, 16]}
    onnxruntime_values(model, inputs)        # every tensor, as onnxruntime computes it
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from shardonnay.interop.onnx.specs import ShardingSpec

if TYPE_CHECKING:
    import onnx

OPSET = 18


def spec(name: str, dims=(), devices=None, groups=None) -> ShardingSpec:
    """A spec: `dims` are `(axis, num_shards)`, `groups` a list of device
    lists (one group key per list, in order) when shards are replicated."""
    if groups is not None:
        keys = tuple(-(i + 1) for i in range(len(groups)))
        return ShardingSpec(
            name, keys, tuple(zip(keys, map(tuple, groups), strict=True)), tuple(dims)
        )
    return ShardingSpec(name, tuple(devices), (), tuple(dims))


def annotate(node: onnx.NodeProto, *specs: ShardingSpec, config: str = "mesh") -> None:
    c = node.device_configurations.add(configuration_id=config)
    for s in specs:
        c.sharding_spec.append(s.to_proto())


def _info(name: str, shape) -> onnx.ValueInfoProto:
    from onnx import TensorProto, helper

    return helper.make_tensor_value_info(name, TensorProto.FLOAT, list(shape))


def _weights(rng: np.random.Generator, **shapes) -> list[onnx.TensorProto]:
    from onnx import numpy_helper

    return [
        numpy_helper.from_array((rng.standard_normal(s) * 0.3).astype(np.float32), name)
        for name, s in shapes.items()
    ]


def _model(nodes, inputs, outputs, initializers, devices: int) -> onnx.ModelProto:
    from onnx import helper

    graph = helper.make_graph(nodes, "g", inputs, outputs, initializers)
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", OPSET)])
    model.ir_version = 11
    model.configuration.add(name="mesh", num_devices=devices)
    return model


def mlp(seed: int = 0) -> onnx.ModelProto:
    """X[8,16] -> MatMul W1 -> Add b1 -> Relu -> MatMul W2 -> Add b2 -> Y[8,8] on
    4 devices; only the first MatMul is annotated: X split by rows over
    groups {0,1},{2,3}, W1 by columns over groups {0,2},{1,3}."""
    from onnx import helper

    rng = np.random.default_rng(seed)
    fc1 = helper.make_node("MatMul", ["X", "W1"], ["H"], name="fc1")
    annotate(
        fc1,
        spec("X", [(0, 2)], groups=[[0, 1], [2, 3]]),
        spec("W1", [(1, 2)], groups=[[0, 2], [1, 3]]),
    )
    nodes = [
        fc1,
        helper.make_node("Add", ["H", "b1"], ["Hb"], name="bias1"),
        helper.make_node("Relu", ["Hb"], ["A"], name="relu"),
        helper.make_node("MatMul", ["A", "W2"], ["O"], name="fc2"),
        helper.make_node("Add", ["O", "b2"], ["Y"], name="bias2"),
    ]
    weights = _weights(rng, W1=(16, 32), b1=(32,), W2=(32, 8), b2=(8,))
    return _model(nodes, [_info("X", (8, 16))], [_info("Y", (8, 8))], weights, 4)


def transformer_block(seed: int = 0) -> onnx.ModelProto:
    """Pre-norm attention block on X[2,8,16] (4 heads of 4): LayerNormalization,
    Q/K/V projections, heads by Reshape+Transpose, softmax(QK^T/2) V, output
    projection, residual Add. Annotated: X split by batch over groups
    {0,1},{2,3}; Wq, Wk, Wv split by columns (heads) over {0,2},{1,3}."""
    return transformer_stack(1, seed)


def transformer_stack(layers: int, seed: int = 0, *, batch: int = 2) -> onnx.ModelProto:
    """`layers` attention blocks in a row (`transformer_block`'s, tensors of
    layer `i > 0` prefixed `l{i}_`), each annotated alike; the model input X
    is split by batch."""
    from onnx import helper, numpy_helper

    rng = np.random.default_rng(seed)
    b, s, d, h = batch, 8, 16, 4
    nodes, weights = [], []
    x = "X"
    for layer in range(layers):
        p = f"l{layer}_" if layer else ""
        ln = helper.make_node(
            "LayerNormalization", [x, "gamma", "beta"], [f"{p}N"], axis=-1, name=f"{p}ln"
        )
        if layer == 0:
            annotate(ln, spec("X", [(0, 2)], groups=[[0, 1], [2, 3]]))
        nodes.append(ln)
        for name in "QKV":
            w = f"{p}W{name.lower()}"
            proj = helper.make_node("MatMul", [f"{p}N", w], [p + name], name=f"{p}proj_{name}")
            annotate(proj, spec(w, [(1, 2)], groups=[[0, 2], [1, 3]]))
            nodes += [
                proj,
                helper.make_node(
                    "Reshape", [p + name, "heads"], [f"{p}{name}4"], name=f"{p}split_{name}"
                ),
                helper.make_node(
                    "Transpose",
                    [f"{p}{name}4"],
                    [f"{p}{name}h"],
                    perm=[0, 2, 3, 1] if name == "K" else [0, 2, 1, 3],
                    name=f"{p}heads_{name}",
                ),
            ]
        y = "Y" if layer == layers - 1 else f"l{layer}_out"
        nodes += [
            helper.make_node("MatMul", [f"{p}Qh", f"{p}Kh"], [f"{p}S"], name=f"{p}scores"),
            helper.make_node("Mul", [f"{p}S", "scale"], [f"{p}Ss"], name=f"{p}scale"),
            helper.make_node("Softmax", [f"{p}Ss"], [f"{p}P"], axis=-1, name=f"{p}softmax"),
            helper.make_node("MatMul", [f"{p}P", f"{p}Vh"], [f"{p}C"], name=f"{p}context"),
            helper.make_node(
                "Transpose", [f"{p}C"], [f"{p}Ct"], perm=[0, 2, 1, 3], name=f"{p}merge"
            ),
            helper.make_node("Reshape", [f"{p}Ct", "model"], [f"{p}Cm"], name=f"{p}merge_heads"),
            helper.make_node("MatMul", [f"{p}Cm", f"{p}Wo"], [f"{p}O"], name=f"{p}proj_out"),
            helper.make_node("Add", [f"{p}O", x], [y], name=f"{p}residual"),
        ]
        weights += _weights(rng, **{f"{p}W{n}": (d, d) for n in "qkvo"})
        x = y
    weights += [
        numpy_helper.from_array(np.ones(d, np.float32) * 1.5, "gamma"),
        numpy_helper.from_array(np.full(d, 0.1, np.float32), "beta"),
        numpy_helper.from_array(np.array([b, s, h, d // h], np.int64), "heads"),
        numpy_helper.from_array(np.array([b, s, d], np.int64), "model"),
        numpy_helper.from_array(np.array(0.5, np.float32), "scale"),
    ]
    return _model(nodes, [_info("X", (b, s, d))], [_info("Y", (b, s, d))], weights, 4)


def conv_net(seed: int = 0) -> onnx.ModelProto:
    """X[4,3,8,8] -> Conv(8, 3x3, pad 1) -> Relu -> MaxPool 2x2 -> Conv(16, 3x3)
    -> Relu -> GlobalAveragePool -> Flatten -> Gemm(10) -> Y[4,10], on 4
    devices. Annotated: X split by batch over {0,1},{2,3}; the second
    convolution's weights by output channel over {0,2},{1,3}."""
    from onnx import helper

    rng = np.random.default_rng(seed)
    conv2 = helper.make_node("Conv", ["P1", "K2", "c2"], ["C2"], pads=[1, 1, 1, 1], name="conv2")
    annotate(conv2, spec("K2", [(0, 2)], groups=[[0, 2], [1, 3]]))
    conv1 = helper.make_node("Conv", ["X", "K1", "c1"], ["C1"], pads=[1, 1, 1, 1], name="conv1")
    annotate(conv1, spec("X", [(0, 2)], groups=[[0, 1], [2, 3]]))
    nodes = [
        conv1,
        helper.make_node("Relu", ["C1"], ["R1"], name="relu1"),
        helper.make_node("MaxPool", ["R1"], ["P1"], kernel_shape=[2, 2], strides=[2, 2]),
        conv2,
        helper.make_node("Relu", ["C2"], ["R2"], name="relu2"),
        helper.make_node("GlobalAveragePool", ["R2"], ["G"], name="gap"),
        helper.make_node("Flatten", ["G"], ["F"], name="flatten"),
        helper.make_node("Gemm", ["F", "Wfc", "bfc"], ["Y"], transB=1, name="fc"),
    ]
    weights = _weights(rng, K1=(8, 3, 3, 3), c1=(8,), K2=(16, 8, 3, 3), c2=(16,))
    weights += _weights(rng, Wfc=(10, 16), bfc=(10,))
    return _model(nodes, [_info("X", (4, 3, 8, 8))], [_info("Y", (4, 10))], weights, 4)


def embedding_mixer(seed: int = 0) -> onnx.ModelProto:
    """tokens[4,6] (int64) -> Gather(table[50,16]) -> Einsum('bsd,de->bse', W[16,8]) ->
    two Slices of the features, Concat swapped, ReduceMean over the sequence,
    ReduceMax over the batch, on 4 devices. Annotated: tokens split by batch
    over {0,1},{2,3}; the table by columns over {0,2},{1,3}."""
    from onnx import TensorProto, helper, numpy_helper

    rng = np.random.default_rng(seed)
    gather = helper.make_node("Gather", ["table", "tokens"], ["E"], axis=0, name="embed")
    annotate(
        gather,
        spec("tokens", [(0, 2)], groups=[[0, 1], [2, 3]]),
        spec("table", [(1, 2)], groups=[[0, 2], [1, 3]]),
    )
    nodes = [
        gather,
        helper.make_node("Einsum", ["E", "W"], ["M"], equation="bsd,de->bse", name="mix"),
        helper.make_node("Slice", ["M", "zero", "half", "two"], ["L"], name="low"),
        helper.make_node("Slice", ["M", "half", "full", "two"], ["U"], name="high"),
        helper.make_node("Concat", ["U", "L"], ["S"], axis=2, name="swap"),
        helper.make_node("ReduceMean", ["S", "one"], ["R"], keepdims=0, name="mean"),
        helper.make_node("ReduceMax", ["R", "zero"], ["Y"], keepdims=1, name="max"),
    ]
    weights = _weights(rng, table=(50, 16), W=(16, 8))
    for name, value in {"zero": 0, "one": 1, "two": 2, "half": 4, "full": 8}.items():
        weights.append(numpy_helper.from_array(np.array([value], np.int64), name))
    tokens = helper.make_tensor_value_info("tokens", TensorProto.INT64, [4, 6])
    return _model(nodes, [tokens], [_info("Y", (1, 8))], weights, 4)


MODELS = {
    "mlp": mlp,
    "transformer_block": transformer_block,
    "conv_net": conv_net,
    "embedding_mixer": embedding_mixer,
    "two_transformer_blocks": lambda seed=0: transformer_stack(2, seed),
}


def random_inputs(model: onnx.ModelProto, seed: int = 0) -> dict[str, np.ndarray]:
    from onnx import TensorProto

    rng = np.random.default_rng(seed)
    initializers = {i.name for i in model.graph.initializer}
    out = {}
    for info in model.graph.input:
        if info.name in initializers:
            continue
        shape = [d.dim_value for d in info.type.tensor_type.shape.dim]
        if info.type.tensor_type.elem_type == TensorProto.INT64:  # token ids
            out[info.name] = rng.integers(0, 50, shape).astype(np.int64)
        else:
            out[info.name] = rng.standard_normal(shape).astype(np.float32)
    return out


def onnxruntime_values(model: onnx.ModelProto, inputs: dict[str, np.ndarray]) -> dict:
    """Every tensor's value as onnxruntime computes it: the model's outputs
    from the model as written, intermediates from a copy listing them as
    outputs."""
    import onnx
    import onnxruntime

    def session(m):
        return onnxruntime.InferenceSession(
            m.SerializeToString(), providers=["CPUExecutionProvider"]
        )

    names = [o.name for o in model.graph.output]
    values = dict(zip(names, session(model).run(names, inputs), strict=True))
    inferred = onnx.shape_inference.infer_shapes(model)
    exposed = onnx.ModelProto()
    exposed.CopyFrom(inferred)
    extra = [v for v in inferred.graph.value_info if v.name not in values]
    exposed.graph.output.extend(extra)
    extra_names = [v.name for v in extra]
    if extra_names:
        values.update(zip(extra_names, session(exposed).run(extra_names, inputs), strict=True))
    return values
