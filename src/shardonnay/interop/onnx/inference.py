"""Completing the sharding specs of an ONNX model.

Two ways, both returning an `Inference` with the completed model:

- `infer_formalism(model)`: the ONNX proposal's inference, node by node in
  graph order: a missing input spec is the producer's output spec, a model
  input without one is unsharded on every device, a missing output spec
  follows the operator family's rule (`shardonnay.interop.onnx.checker`).
  Nodes the formalism cannot infer are reported and left as they are.
- `infer(model)`: shardonnay's propagation over the whole graph. Each node
  becomes an op `onnx.<OpType>` carrying its factor rule
  (`shardonnay.interop.onnx.operators`), each spec a sharding on one mesh
  (`shardonnay.interop.onnx.specs`): a node's output specs are its op's
  result shardings, its input specs sharding constraints on its operands.
  `shardonnay.propagate` (priorities, conservative mode, Shardy's pipeline)
  then shards every tensor, forwards and backwards, and every node gets a
  complete spec for each of its inputs and outputs.

>>> from onnx import helper, TensorProto
>>> from shardonnay.interop.onnx.specs import ShardingSpec
>>> info = lambda n, s: helper.make_tensor_value_info(n, TensorProto.FLOAT, s)
>>> mm = helper.make_node("MatMul", ["X", "W"], ["H"], name="mm")
>>> relu = helper.make_node("Relu", ["H"], ["Y"], name="relu")
>>> spec = ShardingSpec("Y", devices=(0, 1), dims=((0, 2),))
>>> config = relu.device_configurations.add(configuration_id="mesh")
>>> config.sharding_spec.extend([spec.to_proto()])
>>> inputs = [info("X", [8, 4]), info("W", [4, 6])]
>>> g = helper.make_graph([mm, relu], "g", inputs, [info("Y", [8, 6])])
>>> model = helper.make_model(g, opset_imports=[helper.make_opsetid("", 18)])
>>> _ = model.configuration.add(name="mesh", num_devices=2)
>>> done = infer(model)
>>> print(done.shardings["X"], done.shardings["W"])
#sdy.sharding<@mesh, [{"x"}, {}]> #sdy.sharding<@mesh, [{}, {}]>
>>> [s.tensor_name for s in done.node_specs[0].inputs.values()]
['X', 'W']
"""

from __future__ import annotations

import warnings
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from shardonnay.errors import ShardingError, UnsupportedOpError
from shardonnay.interop.onnx.checker import checked_nodes
from shardonnay.interop.onnx.graph import ModelView, NodeSpecs, node_label
from shardonnay.interop.onnx.operators import node_rule
from shardonnay.interop.onnx.specs import (
    ShardingSpec,
    mesh_for_specs,
    replicated_spec,
    sharding_to_spec,
    spec_to_sharding,
)
from shardonnay.ir.attributes import IntegerAttr
from shardonnay.ir.builder import Builder
from shardonnay.ir.shardings import SHARDING, func_arg_sharding, open_sharding, sharding_of
from shardonnay.ir.types import TensorType, element_type_of
from shardonnay.mesh import Mesh
from shardonnay.ops.registry import OpDef, register
from shardonnay.ops.rules import RULE_ATTRIBUTE
from shardonnay.pipeline import propagate
from shardonnay.propagation.importing.validation import PropagationWarning
from shardonnay.sharding import DimSharding, TensorSharding, TensorShardingPerValue

__all__ = ["Inference", "infer", "infer_formalism", "node_shardings"]

NODE_INDEX = "onnx.node"
_MESH = "mesh"


@dataclass(frozen=True)
class Inference:
    """A completed model. `node_specs[i]` are node `i`'s specs, `notes` what
    could not be inferred and why (and, for `infer_formalism`, the checker's
    findings). `infer` also gives the `mesh` and each tensor's sharding as
    its producer (or the model input) holds it."""

    model: Any
    node_specs: tuple[NodeSpecs, ...]
    notes: tuple[str, ...] = ()
    mesh: Mesh | None = None
    shardings: Mapping[str, TensorSharding] | None = None


# -- the formalism's inference ------------------------------------------------------------


def infer_formalism(model: Any) -> Inference:
    """The proposal's inference (see the module docstring)."""
    view = ModelView(model)
    out, notes = [], []
    for checked in checked_nodes(view):
        label, node = checked.label, checked.node
        if checked.error is not None:
            notes.append(f"{label}: not inferred: {checked.error}")
            out.append(NodeSpecs())
            continue
        notes += [str(f) for f in checked.check.findings]
        names = [n for n in node.input if n]
        in_specs = {n: s for n, s in zip(names, checked.inputs, strict=True) if s is not None}
        out_specs = {}
        for name in node.output:
            spec = checked.output_spec(name)
            if spec is None:
                notes.append(f"{label}: no spec inferred for output {name!r}")
            else:
                out_specs[name] = spec
        out.append(NodeSpecs(in_specs, out_specs))
    return Inference(view.with_specs(out, view.num_devices), tuple(out), tuple(notes))


# -- propagation ------------------------------------------------------------------------------


def infer(
    model: Any,
    *,
    mesh: Mesh | None = None,
    strategy: str = "aggressive",
    conservative: bool = False,
    priorities: Mapping[str, int] | None = None,
    inputs_unsharded: bool = False,
) -> Inference:
    """Complete specs for every node by shardonnay's propagation (see the
    module docstring). `mesh`: the mesh the specs are written on (default:
    one built from the specs, `mesh_for_specs`). `priorities`: tensor name
    -> priority of its specs (`p0` is propagated first, as in Shardy).
    `inputs_unsharded`: model inputs without a spec stay unsharded, as the
    formalism assumes (default: propagation may shard them).
    `strategy`/`conservative` are `shardonnay.propagate`'s."""
    view = ModelView(model)
    explicit = [_normalized(view, view.node_specs(i)) for i in range(len(view.nodes))]
    mesh = _model_mesh(view, explicit, mesh)
    module, notes = _module(view, explicit, mesh, priorities or {}, inputs_unsharded)
    with warnings.catch_warnings():
        # ops without rules are reported in `notes`
        warnings.simplefilter("ignore", PropagationWarning)
        done = propagate(module, strategy=strategy, conservative=conservative)
    per_node = node_shardings(done)
    node_specs, shardings = [], {}
    for index, node in enumerate(view.nodes):
        operands, results = per_node[index]
        names = [n for n in node.input if n]
        ins = {n: _spec(n, s, mesh, view.shape(n)) for n, s in zip(names, operands, strict=True)}
        outs = {
            n: _spec(n, s, mesh, view.shape(n))
            for n, s in zip(node.output, results, strict=True)
            if n
        }
        node_specs.append(NodeSpecs(ins, outs))
        for n, s in zip(node.output, results, strict=True):
            shardings[n] = _or_replicated(s, view.shape(n))
    main = done.function("main")
    for i, name in enumerate(_arguments(view)):
        shardings[name] = _or_replicated(func_arg_sharding(main, i), view.shape(name))
    written = view.with_specs(node_specs, mesh.size)
    return Inference(written, tuple(node_specs), tuple(notes), mesh, shardings)


def node_shardings(module: Any) -> dict[int, tuple[list, list]]:
    """Per node index (`onnx.node` attribute), the shardings its op sees on
    its operands (after any constraint or reshard) and gives its results."""
    out = {}
    for op in module.walk():
        index = op.attributes.get(NODE_INDEX)
        if index is None:
            continue
        out[index.value] = (
            [sharding_of(v) for v in op.operands],
            [sharding_of(r) for r in op.results],
        )
    return out


def _normalized(view: ModelView, specs: NodeSpecs) -> NodeSpecs:
    def norm(spec: ShardingSpec) -> ShardingSpec:
        return spec.normalized(len(view.shape(spec.tensor_name)))

    return NodeSpecs(
        {n: norm(s) for n, s in specs.inputs.items()},
        {n: norm(s) for n, s in specs.outputs.items()},
    )


def _model_mesh(view: ModelView, explicit: list[NodeSpecs], mesh: Mesh | None) -> Mesh:
    specs = [s for n in explicit for s in [*n.inputs.values(), *n.outputs.values()]]
    if mesh is None:
        return mesh_for_specs(specs, view.num_devices)
    if view.configurations and mesh.size != view.num_devices:
        raise ShardingError(
            f"mesh {mesh} has {mesh.size} devices, the model's configuration {view.num_devices}"
        )
    return mesh


def _arguments(view: ModelView) -> list[str]:
    """The propagation function's arguments: model inputs, then initializers."""
    return [*view.graph_inputs, *(i.name for i in view.model.graph.initializer)]


def _module(
    view: ModelView,
    explicit: list[NodeSpecs],
    mesh: Mesh,
    priorities: Mapping[str, int],
    inputs_unsharded: bool,
) -> tuple[Any, list[str]]:
    """The propagation module of the graph (see the module docstring)."""

    notes = []
    arguments = _arguments(view)
    b = Builder.module()
    b.mesh(_MESH, mesh)

    def sharding(spec: ShardingSpec) -> TensorSharding:
        s = spec_to_sharding(spec, view.shape(spec.tensor_name), mesh, _MESH)
        priority = priorities.get(spec.tensor_name)
        if priority is None:
            return s
        dims = tuple(DimSharding(d.axes, True, priority if d.axes else None) for d in s.dims)
        return TensorSharding(s.mesh, dims)

    def tensor_type(name: str) -> TensorType:
        return TensorType(view.shape(name), _element_type(view, name))

    with b.function("main", [tensor_type(n) for n in arguments]) as f:
        values = dict(zip(arguments, f.arguments, strict=True))
        if inputs_unsharded:
            for i, name in enumerate(arguments):
                f.set_arg_sharding(i, TensorSharding.replicated_on(_MESH, len(view.shape(name))))
        for index, node in enumerate(view.nodes):
            label = node_label(node, index)
            names = [n for n in node.input if n]
            operands = []
            for name in names:
                if name not in values:
                    raise ShardingError(f"{label}: input {name!r} is produced by no earlier node")
                value = values[name]
                if name in explicit[index].inputs:
                    value = b.sharding_constraint(value, sharding(explicit[index].inputs[name]))
                operands.append(value)
            attributes: dict[str, Any] = {NODE_INDEX: IntegerAttr(index)}
            try:
                attributes[RULE_ATTRIBUTE] = node_rule(
                    node,
                    [view.shape(n) for n in names],
                    [view.shape(n) for n in node.output],
                    view.constants,
                )
            except UnsupportedOpError as e:
                notes.append(f"{label}: not propagated through: {e}")
            _register(node.op_type)
            types = [tensor_type(n) for n in node.output]
            op = b.create(
                f"onnx.{node.op_type}", operands, attributes=attributes, result_types=types
            )
            given = explicit[index].outputs
            if given:
                op.attributes[SHARDING] = TensorShardingPerValue(
                    tuple(
                        sharding(given[n]) if n in given else open_sharding(_MESH, t)
                        for n, t in zip(node.output, types, strict=True)
                    )
                )
            values.update(zip(node.output, op.results, strict=True))
        f.returns(*(values[o.name] for o in view.model.graph.output))
    return b.module, notes


_REGISTERED: set[str] = set()


def _register(op_type: str) -> None:
    """Makes `onnx.<op_type>` known to the op registry: an op with effects
    (propagation keeps every node) whose rule is the one written on it."""
    name = f"onnx.{op_type}"
    if name in _REGISTERED:
        return

    class _OnnxNode(OpDef):
        pure = False

    register(name, _OnnxNode())
    _REGISTERED.add(name)


def _spec(name: str, sharding: TensorSharding | None, mesh: Mesh, shape) -> ShardingSpec:
    if sharding is None:
        return replicated_spec(name, mesh.device_list)
    return sharding_to_spec(name, _closed(sharding), mesh, shape)


def _or_replicated(sharding: TensorSharding | None, shape) -> TensorSharding:
    if sharding is None:
        return TensorSharding.replicated_on(_MESH, len(shape))
    return _closed(sharding)


def _closed(s: TensorSharding) -> TensorSharding:
    return TensorSharding(
        s.mesh, tuple(DimSharding(d.axes) for d in s.dims), (), s.unreduced, s.reduction
    )


_ELEMENT_TYPES = {1: "f32", 2: "ui8", 3: "i8", 5: "i16", 6: "i32", 7: "i64", 9: "i1", 10: "f16"}
_ELEMENT_TYPES.update({11: "f64", 12: "ui32", 13: "ui64", 16: "bf16"})


def _element_type(view: ModelView, name: str) -> str:
    """The MLIR element type of tensor `name` (f32 where the model does not say)."""
    for info in [*view.model.graph.input, *view.model.graph.value_info, *view.model.graph.output]:
        if info.name == name:
            return _ELEMENT_TYPES.get(info.type.tensor_type.elem_type, "f32")
    for init in view.model.graph.initializer:
        if init.name == name:
            return _ELEMENT_TYPES.get(init.data_type, "f32")
    if name in view.constants:
        return element_type_of(view.constants[name].dtype)
    return "f32"
