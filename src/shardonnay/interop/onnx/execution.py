"""What the specs of an annotated ONNX model mean numerically: running it
device by device.

`run_per_device(model, inputs)` executes the model node by node the way its
specs say (the formalism's operational reading): each input is cut into the
pieces its spec gives every device (`shardonnay.layout.shard` of the
spec's sharding on the model's mesh), the node runs on each device's local
pieces (ONNX's reference implementation, `onnx.reference`), partial results
along split reduction axes are combined across the devices that hold them
(sum, max or min), and the global value is reassembled with
`shardonnay.layout.unshard`, which also checks that devices holding the same
piece computed the same values. The result, for a model whose specs mean
what they say, equals running the model whole (onnxruntime).

A node's local computation follows its factor rule: the axes of a factor
come from the first input that maps it; dims the op needs whole
(`need_replication`, `permutation`) are gathered first; an input whose spec
disagrees with the others is resharded first, an output whose spec differs
from what the node computes is resharded after (`ShardedRun.reshards` lists
both). Reshape and Expand get their local target shapes; a bias added after
a split contraction (Gemm's C, Conv's B) is added by one device of each
group; ReduceMean's local means are weighted by their share of the count;
the padding of uneven shards reduced by ReduceMax (ReduceMin) is -inf (+inf).

>>> from onnx import helper, TensorProto
>>> import numpy as np
>>> from shardonnay.interop.onnx.specs import ShardingSpec
>>> info = lambda n, s: helper.make_tensor_value_info(n, TensorProto.FLOAT, s)
>>> node = helper.make_node("ReduceSum", ["X", "axes"], ["Y"], keepdims=0)
>>> spec = ShardingSpec("X", devices=(0, 1), dims=((1, 2),))
>>> config = node.device_configurations.add(configuration_id="mesh")
>>> config.sharding_spec.extend([spec.to_proto()])
>>> axes = helper.make_tensor("axes", TensorProto.INT64, [1], [1])
>>> g = helper.make_graph([node], "g", [info("X", [2, 4])], [info("Y", [2])], [axes])
>>> model = helper.make_model(g, opset_imports=[helper.make_opsetid("", 18)])
>>> _ = model.configuration.add(name="mesh", num_devices=2)
>>> x = np.arange(8, dtype=np.float32).reshape(2, 4)
>>> run_per_device(model, {"X": x}).values["Y"]
array([ 6., 22.], dtype=float32)
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from shardonnay import layout
from shardonnay.errors import ShardingError, UnsupportedOpError
from shardonnay.interop.onnx.checker import resolve_inputs
from shardonnay.interop.onnx.graph import ModelView, node_label
from shardonnay.interop.onnx.operators import node_rule, reduction_kind
from shardonnay.interop.onnx.specs import ShardingSpec, mesh_for_specs, spec_to_sharding
from shardonnay.mesh import Mesh
from shardonnay.propagation.projection import (
    FactorSharding,
    ShardingProjection,
    TensorFactorShardings,
)
from shardonnay.sharding import TensorSharding

__all__ = ["ShardedRun", "run_per_device"]

_BIAS = {"Gemm": 2, "Conv": 2}


@dataclass(frozen=True)
class ShardedRun:
    """Every tensor's global value, reassembled from the devices' pieces, and
    the node inputs (outputs) resharded before (after) their node ran."""

    values: Mapping[str, np.ndarray]
    reshards: tuple[str, ...]
    mesh: Mesh


def run_per_device(
    model: Any, inputs: Mapping[str, np.ndarray], mesh: Mesh | None = None
) -> ShardedRun:
    """Runs `model` device by device as its specs say (see the module docstring)."""
    view = ModelView(model)
    specs = [view.node_specs(i) for i in range(len(view.nodes))]
    if mesh is None:
        every = [
            s.normalized(len(view.shape(s.tensor_name)))
            for n in specs
            for s in [*n.inputs.values(), *n.outputs.values()]
        ]
        mesh = mesh_for_specs(every, view.num_devices)
    values: dict[str, np.ndarray] = {k: np.asarray(v) for k, v in inputs.items()}
    values.update(view.constants)
    known: dict[str, ShardingSpec | None] = {}
    reshards: list[str] = []
    for index, node in enumerate(view.nodes):
        node_inputs = resolve_inputs(view, index, specs[index].inputs, known)
        outputs = _run_node(view, index, node_inputs, specs[index].outputs, values, mesh, reshards)
        values.update(outputs)
        for name in node.output:
            known[name] = specs[index].outputs.get(name)
    return ShardedRun(values, tuple(reshards), mesh)


def _run_node(
    view: ModelView,
    index: int,
    specs: list[ShardingSpec | None],
    out_specs: Mapping[str, ShardingSpec],
    values: dict[str, np.ndarray],
    mesh: Mesh,
    reshards: list[str],
) -> dict[str, np.ndarray]:
    node = view.nodes[index]
    label = node_label(node, index)
    names = [n for n in node.input if n]
    if node.op_type == "Constant":
        return {node.output[0]: view.constants[node.output[0]]}
    if any(s is None for s in specs):
        raise ShardingError(f"{label}: an input has no spec (run `infer` first)")
    in_shapes = [view.shape(n) for n in names]
    out_shapes = [view.shape(n) for n in node.output]
    rule = node_rule(node, in_shapes, out_shapes, view.constants)
    given = [
        spec_to_sharding(s.normalized(len(shape)), shape, mesh)
        for s, shape in zip(specs, in_shapes, strict=True)
    ]
    operands, results = _executed(rule, given, mesh)
    for name, shape, g, o in zip(names, in_shapes, given, operands, strict=True):
        if not layout.equivalent(g, o, mesh, shape):
            reshards.append(f"{label}: {name!r} {g} -> {o}")
    kind = reduction_kind(node.op_type)
    if any(r.unreduced for r in results) and kind is None:
        raise UnsupportedOpError(f"{label}: partial results of {node.op_type} do not combine")
    local_inputs = {
        name: layout.shard(values[name], s, mesh) for name, s in zip(names, operands, strict=True)
    }
    if kind in ("max", "min") and results[0].unreduced:
        _fill_padding(local_inputs[names[0]], values[names[0]].shape, operands[0], mesh, kind)
    evaluator = _evaluator(view, node)
    per_device: dict[str, dict[int, np.ndarray]] = {n: {} for n in node.output}
    for device in mesh.device_list:
        feeds = {name: local_inputs[name][device] for name in names}
        _localize(node, feeds, names, results, out_shapes, operands, mesh, device)
        outs = evaluator.run(None, feeds)
        for name, r, out in zip(node.output, results, outs, strict=True):
            out = np.asarray(out)
            if kind == "mean" and r.unreduced:
                out = out * _share(in_shapes[0], operands[0], mesh, rule)
            per_device[name][device] = out
    combined = {}
    for name, r, shape in zip(node.output, results, out_shapes, strict=True):
        if r.unreduced:
            r = TensorSharding(r.mesh, r.dims, r.replicated, r.unreduced, _combine(kind))
        combined[name] = layout.unshard(per_device[name], r, mesh, shape)
        given = out_specs.get(name)
        if given is None:
            continue
        wanted = spec_to_sharding(given.normalized(len(shape)), shape, mesh)
        if not layout.equivalent(_without_unreduced(r), wanted, mesh, shape):
            reshards.append(f"{label}: output {name!r} {_without_unreduced(r)} -> {wanted}")
    return combined


def _executed(
    rule, given: list[TensorSharding], mesh: Mesh
) -> tuple[list[TensorSharding], list[TensorSharding]]:
    """The shardings the node computes with: per factor, the axes of the first
    input mapping it (none for factors the op needs whole or that reach no
    output, like a broadcast size-1 dim, and none already taken by an earlier
    factor); split reduction factors leave the results unreduced along their
    axes."""
    projection = ShardingProjection.build(given, [None] * len(rule.result_mappings), rule, mesh)
    chosen: dict[int, list] = {}
    taken: set = set()
    in_results = {f for m in rule.result_mappings for dim in m for f in dim}
    for f in range(rule.num_factors):
        axes: list = []
        kind = rule.factor_kind(f)
        if kind == "reduction" or (kind == "pass_through" and f in in_results):
            for t in projection.operands:
                if f in t.factors:
                    axes = list(t.factors[f].axes)
                    break
        kept = []
        for a in axes:
            if any(a.overlaps(b) for b in taken):
                break
            kept.append(a)
        taken.update(kept)
        chosen[f] = kept
    _drop_strided(rule, chosen, mesh)

    def unprojected(mapping) -> TensorSharding:
        tensor = TensorFactorShardings()
        for dim in mapping:
            for i, f in enumerate(dim):
                tensor.factors[f] = FactorSharding(
                    list(chosen[f]), is_closed=True, is_minor_most=i == len(dim) - 1
                )
        return tensor.to_tensor_sharding(mapping, rule.factor_sizes, "mesh", mesh)

    operands = [unprojected(m) for m in rule.operand_mappings]
    unreduced = tuple(a for f in rule.reduction_factors for a in chosen[f])
    results = []
    for m in rule.result_mappings:
        s = unprojected(m)
        results.append(TensorSharding(s.mesh, s.dims, (), tuple(sorted(unreduced))))
    return operands, results


def _drop_strided(rule, chosen: dict[int, list], mesh: Mesh) -> None:
    """Unshards, in place, in a dim of several factors (a reshape's `[ij]`),
    a factor but the last that its axes do not divide evenly, and every
    factor after one not fully sharded: their pieces would be padded or
    strided, which no sharding of that dim expresses."""
    changed = True
    while changed:
        changed = False
        for mapping in rule.tensor_mappings():
            for dim in mapping:
                for major, minor in itertools.pairwise(dim):
                    size = math.prod(a.size(mesh) for a in chosen[major])
                    if rule.factor_sizes[major] % size and chosen[major]:
                        chosen[major] = []
                        changed = True
                    elif size < rule.factor_sizes[major] and chosen[minor]:
                        chosen[minor] = []
                        changed = True


def _localize(node, feeds, names, results, out_shapes, operands, mesh, device) -> None:
    """Local target shapes for Reshape/Expand; the bias of a split contraction
    on one device of each group only."""
    if node.op_type in ("Reshape", "Expand"):
        local = layout.local_shape(out_shapes[0], _without_unreduced(results[0]), mesh)
        feeds[names[1]] = np.asarray(local, dtype=np.int64)
    bias = _BIAS.get(node.op_type)
    split = bias is not None and len(names) > bias and results[0].unreduced
    if split and layout.unreduced_index(device, results[0], mesh) != 0:
        feeds[names[bias]] = np.zeros_like(feeds[names[bias]])


def _fill_padding(buffers, shape, sharding: TensorSharding, mesh: Mesh, kind: str) -> None:
    """Padding slots of uneven shards hold the identity of a max (min) reduction
    instead of zeros, so they never win."""
    for device, region in layout.device_slices(shape, sharding, mesh).items():
        buffer = buffers[device]
        if np.issubdtype(buffer.dtype, np.floating):
            identity = -np.inf if kind == "max" else np.inf
        else:
            info = np.iinfo(buffer.dtype)
            identity = info.min if kind == "max" else info.max
        valid = np.zeros(buffer.shape, dtype=bool)
        valid[tuple(slice(0, r.stop - r.start) for r in region)] = True
        buffer[~valid] = identity


def _share(shape, sharding: TensorSharding, mesh: Mesh, rule) -> float:
    """A device's share of a ReduceMean's count: local over global size of the
    reduced dims."""
    local = layout.local_shape(shape, sharding, mesh)
    reduced = [
        d
        for d, factors in enumerate(rule.operand_mappings[0])
        if any(f in rule.reduction_factors for f in factors)
    ]
    return float(np.prod([local[d] for d in reduced]) / np.prod([shape[d] for d in reduced]))


def _combine(kind: str | None) -> str:
    return {"max": "max", "min": "min"}.get(kind or "", "sum")


def _without_unreduced(s: TensorSharding) -> TensorSharding:
    return TensorSharding(s.mesh, s.dims, s.replicated)


def _evaluator(view: ModelView, node: Any) -> Any:
    """ONNX's reference implementation of `node` alone, at the model's opsets."""
    from onnx import helper
    from onnx.reference import ReferenceEvaluator

    local = helper.make_node(
        node.op_type, list(node.input), list(node.output), domain=node.domain or None
    )
    local.attribute.extend(node.attribute)
    names = [n for n in node.input if n]
    graph = helper.make_graph(
        [local],
        "node",
        [helper.make_empty_tensor_value_info(n) for n in names],
        [helper.make_empty_tensor_value_info(n) for n in node.output],
    )
    model = helper.make_model(graph, opset_imports=list(view.model.opset_import))
    model.ir_version = view.model.ir_version
    return ReferenceEvaluator(model)
