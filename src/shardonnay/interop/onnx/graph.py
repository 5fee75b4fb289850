"""An ONNX model seen for sharding: nodes with their specs, tensor shapes,
constant values, and the device configuration.

`ModelView(model)` reads a `ModelProto` once: shapes come from ONNX shape
inference (plus the graph's own `value_info`), constants from initializers
and `Constant` nodes, and each node's sharding specs from its
`device_configurations` (onnx >= 1.18). `with_specs` writes a copy of the
model with new specs; nothing else of the model changes, so every consumer
that ignores the annotations runs it as before.

>>> from onnx import helper, TensorProto
>>> x = helper.make_tensor_value_info("X", TensorProto.FLOAT, [4, 2])
>>> y = helper.make_tensor_value_info("Y", TensorProto.FLOAT, [4, 2])
>>> g = helper.make_graph([helper.make_node("Relu", ["X"], ["Y"], name="relu")], "g", [x], [y])
>>> view = ModelView(helper.make_model(g))
>>> view.shape("Y"), view.num_devices, [n.name for n in view.nodes]
((4, 2), 1, ['relu'])
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from shardonnay.errors import ShardingError
from shardonnay.interop.onnx.specs import ShardingSpec

__all__ = ["ModelView", "NodeSpecs", "node_label"]


@dataclass(frozen=True)
class NodeSpecs:
    """A node's specs by tensor name, split into its inputs and outputs."""

    inputs: Mapping[str, ShardingSpec] = field(default_factory=dict)
    outputs: Mapping[str, ShardingSpec] = field(default_factory=dict)


def node_label(node: Any, index: int) -> str:
    """`node 3 (MatMul "fc1")`: how messages name a node."""
    name = f' "{node.name}"' if node.name else ""
    return f"node {index} ({node.op_type}{name})"


class ModelView:
    """Read-only facts about one model (see the module docstring)."""

    def __init__(self, model: Any):
        import onnx

        self.model = model
        try:
            inferred = onnx.shape_inference.infer_shapes(model, strict_mode=False)
        except (onnx.shape_inference.InferenceError, onnx.checker.ValidationError):
            # shapes ONNX cannot infer (an unknown op): keep what the model says
            inferred = model
        graph = inferred.graph
        self.nodes = list(model.graph.node)
        self.shapes: dict[str, tuple[int, ...] | None] = {}
        for info in [*graph.input, *graph.value_info, *graph.output]:
            self.shapes[info.name] = _static_shape(info)
        self.constants: dict[str, np.ndarray] = {}
        for init in model.graph.initializer:
            self.constants[init.name] = onnx.numpy_helper.to_array(init)
            self.shapes.setdefault(init.name, tuple(init.dims))
        for node in self.nodes:
            if node.op_type == "Constant" and node.attribute:
                value = onnx.helper.get_attribute_value(node.attribute[0])
                if isinstance(value, onnx.TensorProto):
                    array = onnx.numpy_helper.to_array(value)
                    self.constants[node.output[0]] = array
                    self.shapes[node.output[0]] = array.shape
        self.graph_inputs = [i.name for i in model.graph.input if i.name not in self.constants]
        self.configurations = {c.name: c for c in model.configuration}
        self.producer: dict[str, int] = {}
        for index, node in enumerate(self.nodes):
            for name in node.output:
                if name:
                    self.producer[name] = index

    @property
    def num_devices(self) -> int:
        """Devices of the model's configuration (1 without one); several
        configurations must agree."""
        sizes = {c.num_devices for c in self.configurations.values()}
        if len(sizes) > 1:
            raise ShardingError(
                f"the model's device configurations have different device counts {sorted(sizes)}"
            )
        return sizes.pop() if sizes else 1

    def shape(self, name: str) -> tuple[int, ...]:
        """The static shape of tensor `name`; `ShardingError` if unknown or symbolic."""
        shape = self.shapes.get(name)
        if shape is None:
            raise ShardingError(
                f"tensor {name!r} has no static shape (ONNX shape inference could not give one; "
                "fix symbolic dims, e.g. with onnx.tools.update_model_dims)"
            )
        return shape

    def node_specs(self, index: int) -> NodeSpecs:
        """The specs node `index` carries (several configurations: the first
        one's); a spec naming a tensor that is not the node's raises."""
        node = self.nodes[index]
        inputs, outputs = {}, {}
        for config in node.device_configurations[:1]:
            for proto in config.sharding_spec:
                spec = ShardingSpec.from_proto(proto)
                if proto.tensor_name in node.output:
                    outputs[proto.tensor_name] = spec
                elif proto.tensor_name in node.input:
                    inputs[proto.tensor_name] = spec
                else:
                    raise ShardingError(
                        f"{node_label(node, index)}: sharding spec for {proto.tensor_name!r}, "
                        "which is neither an input nor an output of the node"
                    )
        return NodeSpecs(inputs, outputs)

    def configuration_name(self) -> str:
        return next(iter(self.configurations), "mesh")

    def with_specs(self, specs: Sequence[NodeSpecs], devices: int) -> Any:
        """A copy of the model whose node `i` carries `specs[i]` (replacing
        what it had), in a device configuration of `devices` devices (the
        model's own if it has one)."""
        import onnx

        model = onnx.ModelProto()
        model.CopyFrom(self.model)
        name = self.configuration_name()
        if not model.configuration:
            model.configuration.add(name=name, num_devices=devices)
        if model.ir_version < 11:
            model.ir_version = 11  # device configurations are IR version 11
        for node, node_specs in zip(model.graph.node, specs, strict=True):
            del node.device_configurations[:]
            if not node_specs.inputs and not node_specs.outputs:
                continue
            config = node.device_configurations.add(configuration_id=name)
            for spec in [*node_specs.inputs.values(), *node_specs.outputs.values()]:
                config.sharding_spec.append(spec.to_proto())
        return model


def _static_shape(info: Any) -> tuple[int, ...] | None:
    t = info.type.tensor_type
    if not t.HasField("shape"):
        return None
    dims = []
    for d in t.shape.dim:
        if not d.HasField("dim_value"):
            return None
        dims.append(d.dim_value)
    return tuple(dims)
