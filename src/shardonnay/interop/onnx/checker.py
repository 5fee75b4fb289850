"""The ONNX sharding formalism's validity checker and its output inference.

The formalism (ONNX proposal "Sharding Formalism") reads a node's specs as a
parallel loop nest: every axis of the computation is an iteration that may be
split across devices. In factor terms (`shardonnay.interop.onnx.operators`):

- an axis several inputs share (a *non-broadcast* axis: elementwise operands,
  MatMul's contracted K) must be sharded identically in all of them;
- an input axis of size 1 that broadcasting widens must be replicated;
- axes only one input has (*broadcast* axes: `[M, 1] + [1, N]`, MatMul's M
  and N) compose: output shard `[i, j]` lives on the intersection of the
  devices holding input shard `i` and those holding input shard `j`, and
  that intersection must not be empty;
- a sharded reduction axis is reduced locally, then across devices, and the
  result lives on all devices that took part.

`check_model(model)` returns the `Finding`s of every node, each naming the
node, the input and the rule broken. A finding is `invalid` when the specs do
not make sense, `unsupported` when they make sense but this implementation
(or the formalism) does not handle them (an operator the formalism leaves
out, a softmax axis split across devices).

`formalism_outputs(...)` gives the output specs the formalism infers for one
node from its input specs (the composition above).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from itertools import product
from typing import Any

from shardonnay.errors import ShardingError, UnsupportedOpError
from shardonnay.interop.onnx.graph import ModelView, NodeSpecs, node_label
from shardonnay.interop.onnx.operators import family, node_rule
from shardonnay.interop.onnx.specs import ShardingSpec, replicated_spec
from shardonnay.sharding_rule import OpShardingRule

__all__ = [
    "CheckedNode",
    "Finding",
    "NodeCheck",
    "check_model",
    "check_node",
    "checked_nodes",
    "resolve_inputs",
]

Interval = tuple[int, int]


@dataclass(frozen=True)
class Finding:
    """One broken rule: `severity` is `"invalid"` (the specs do not make
    sense) or `"unsupported"` (they do, but are not handled here)."""

    node: str
    tensor: str | None
    rule: str
    message: str
    severity: str = "invalid"

    def __str__(self) -> str:
        where = self.node + (f", {self.tensor!r}" if self.tensor else "")
        return f"{self.severity}: {where}: {self.message} [{self.rule}]"


@dataclass(frozen=True)
class NodeCheck:
    """What checking one node found, and the output specs the formalism infers
    (None for an output it cannot infer)."""

    findings: tuple[Finding, ...]
    outputs: Mapping[str, ShardingSpec | None]


def check_model(model: Any) -> list[Finding]:
    """Every finding of every node of `model` (see the module docstring).
    Missing input specs are the producer's output spec; model inputs without
    one are unsharded on all devices, as the formalism says."""
    view = ModelView(model)
    findings = _configuration_findings(view)
    for checked in checked_nodes(view):
        if checked.error is not None:
            findings.append(Finding(checked.label, None, "well-formed spec", str(checked.error)))
        else:
            findings.extend(checked.check.findings)
    return findings


@dataclass(frozen=True)
class CheckedNode:
    """One node of a model as `checked_nodes` meets it: its specs, its present
    inputs' specs and what `check_node` found, or the `ShardingError` that
    kept it from being checked (then the other fields are None)."""

    label: str
    node: Any
    specs: NodeSpecs | None
    inputs: list[ShardingSpec | None] | None
    check: NodeCheck | None
    error: ShardingError | None = None

    def output_spec(self, name: str) -> ShardingSpec | None:
        """Output `name`'s spec: the node's own, else the inferred one."""
        if self.error is not None:
            return None
        return self.specs.outputs.get(name) or self.check.outputs.get(name)


def checked_nodes(view: ModelView) -> Iterator[CheckedNode]:
    """Every node of `view` in order, checked on its inputs' specs (see
    `resolve_inputs`), the outputs of the nodes before it having their own
    specs, else those the formalism infers (unknown after an error)."""
    known: dict[str, ShardingSpec | None] = {}
    for index, node in enumerate(view.nodes):
        label = node_label(node, index)
        try:
            specs = view.node_specs(index)
            inputs = resolve_inputs(view, index, specs.inputs, known)
            checked = CheckedNode(
                label, node, specs, inputs, check_node(view, index, inputs, specs.outputs)
            )
        except ShardingError as e:
            checked = CheckedNode(label, node, None, None, None, e)
        yield checked
        known.update((name, checked.output_spec(name)) for name in node.output)


def resolve_inputs(
    view: ModelView,
    index: int,
    explicit: Mapping[str, ShardingSpec],
    known: Mapping[str, ShardingSpec | None],
) -> list[ShardingSpec | None]:
    """Node `index`'s present inputs' specs: its own, else the producer's,
    else (model inputs, initializers) unsharded on every device."""
    out = []
    for name in view.nodes[index].input:
        if not name:
            continue
        if name in explicit:
            out.append(explicit[name])
        elif name in view.producer:
            spec = known.get(name)
            out.append(None if spec is None else _renamed(spec, name))
        else:
            out.append(replicated_spec(name, range(view.num_devices)))
    return out


def check_node(
    view: ModelView,
    index: int,
    inputs: Sequence[ShardingSpec | None],
    explicit_outputs: Mapping[str, ShardingSpec] | None = None,
) -> NodeCheck:
    """The formalism's checks of node `index` for its present inputs' specs
    (None: unknown), and the output specs it infers."""
    node = view.nodes[index]
    label = node_label(node, index)
    names = [n for n in node.input if n]
    findings: list[Finding] = []
    outputs: dict[str, ShardingSpec | None] = dict.fromkeys(node.output)
    for name, spec in [*zip(names, inputs, strict=True), *(explicit_outputs or {}).items()]:
        if spec is not None:
            findings += _spec_findings(view, label, name, spec)
    if any(f.severity == "invalid" for f in findings) or any(s is None for s in inputs):
        return NodeCheck(tuple(findings), outputs)
    in_shapes = [view.shape(n) for n in names]
    out_shapes = [view.shape(n) for n in node.output]
    kind = family(node.op_type)
    sharded = any(s.num_shards > 1 for s in inputs)
    if kind == "unsupported" and sharded:
        findings.append(
            Finding(
                label,
                None,
                "operator scope",
                f"the formalism does not cover {node.op_type} (it lists it as not supported); "
                "shardonnay's propagation has a rule for it",
                "unsupported",
            )
        )
    try:
        rule = node_rule(node, in_shapes, out_shapes, view.constants)
    except UnsupportedOpError as e:
        devices = frozenset().union(*(s.device_set for s in inputs))
        if not sharded and all(s.device_set == devices for s in inputs):
            # unsharded inputs on the same devices: so is the output, whatever the op
            replicated = {n: replicated_spec(n, devices) for n in node.output}
            return NodeCheck(tuple(findings), replicated)
        findings.append(Finding(label, None, "operator scope", str(e), "unsupported"))
        return NodeCheck(tuple(findings), outputs)
    regions = [s.regions(shape) for s, shape in zip(inputs, in_shapes, strict=True)]
    findings += _axis_findings(label, names, in_shapes, rule, inputs, regions, kind)
    if any(f.severity == "invalid" for f in findings) or any(
        len(dim) > 1 for m in rule.tensor_mappings() for dim in m
    ):
        return NodeCheck(tuple(findings), outputs)
    composed = _compose(label, names, rule, regions, in_shapes, kind)
    if isinstance(composed, Finding):
        return NodeCheck((*findings, composed), outputs)
    for o, (name, shape) in enumerate(zip(node.output, out_shapes, strict=True)):
        outputs[name] = _output_spec(name, rule.result_mappings[o], shape, composed)
    return NodeCheck(tuple(findings), outputs)


# -- checks ---------------------------------------------------------------------------------


def _configuration_findings(view: ModelView) -> list[Finding]:
    out = []
    for index, node in enumerate(view.nodes):
        for config in node.device_configurations:
            if config.configuration_id not in view.configurations:
                out.append(
                    Finding(
                        node_label(node, index),
                        None,
                        "configuration",
                        f"configuration_id {config.configuration_id!r} names no "
                        "DeviceConfigurationProto of the model",
                    )
                )
    return out


def _spec_findings(view: ModelView, label: str, name: str, spec: ShardingSpec) -> list[Finding]:
    """Well-formedness: axes in range, one entry per shard, devices known,
    no device holding two shards, `dim_value` matching the tensor."""
    out = []

    def bad(message: str, rule: str = "well-formed spec", severity: str = "invalid") -> None:
        out.append(Finding(label, name, rule, message, severity))

    try:
        shape = view.shape(name)
        dims = spec.normalized_dims(len(shape))
        spec.holders()
        for device in spec.device_set:
            spec.shard_of(device)
    except ShardingError as e:
        bad(str(e))
        return out
    outside = sorted(d for d in spec.device_set if d >= view.num_devices)
    if outside:
        bad(f"device(s) {outside} outside the configuration's {view.num_devices} devices")
    for (axis, shards), size in zip(dims, spec.dim_sizes or (None,) * len(dims), strict=True):
        if isinstance(size, int) and size != shape[axis]:
            bad(f"axis {axis} is declared with dim_value {size}, but the tensor has {shape[axis]}")
        if shards > shape[axis]:
            bad(
                f"axis {axis} of size {shape[axis]} is split into {shards} shards, so some "
                "devices hold nothing of it",
                "even split",
                "unsupported",
            )
    return out


def _axis_findings(
    label: str,
    names: Sequence[str],
    shapes: Sequence[tuple[int, ...]],
    rule: OpShardingRule,
    specs: Sequence[ShardingSpec],
    regions: Sequence[dict[int, tuple[Interval, ...]]],
    kind: str,
) -> list[Finding]:
    out = []
    sharded_dims = [
        {a for a, n in s.normalized_dims(len(shape)) if n > 1}
        for s, shape in zip(specs, shapes, strict=True)
    ]
    for f, size in enumerate(rule.factor_sizes):
        holders = [
            (t, d)
            for t, mapping in enumerate(rule.operand_mappings)
            for d, factors in enumerate(mapping)
            if f in factors
        ]
        factor_kind = rule.factor_kind(f)
        in_results = any(f in dim for m in rule.result_mappings for dim in m)
        for t, d in holders:
            if d not in sharded_dims[t]:
                continue
            if size == 1 and len(holders) == 1 and not in_results:
                out.append(
                    Finding(
                        label,
                        names[t],
                        "broadcast axis replicated",
                        f"axis {d} has size 1 and is broadcast; it must be replicated across "
                        "the node's devices, not split",
                    )
                )
            elif factor_kind in ("need_replication", "permutation"):
                out.append(
                    Finding(
                        label,
                        names[t],
                        "parallel axis",
                        f"axis {d} is split across devices, but {kind_word(factor_kind)}; this "
                        "implementation computes it only on replicated data",
                        "unsupported",
                    )
                )
        first = holders[0] if holders else None
        for t, d in holders[1:]:
            t0, d0 = first
            if _along(regions[t0], d0) != _along(regions[t], d):
                what = "contracted" if factor_kind == "reduction" else "non-broadcast"
                out.append(
                    Finding(
                        label,
                        names[t],
                        f"{what} axes sharded alike",
                        f"axis {d} is sharded differently from axis {d0} of {names[t0]!r}; "
                        f"the {what} axes of a {kind} operator must be sharded identically",
                    )
                )
    return out


def kind_word(factor_kind: str) -> str:
    return {
        "need_replication": "the operator needs all of it at once",
        "permutation": "the operator moves data along it",
    }[factor_kind]


def _along(regions: Mapping[int, tuple[Interval, ...]], dim: int) -> dict[int, Interval]:
    return {device: region[dim] for device, region in regions.items()}


# -- composition ---------------------------------------------------------------------------


def _compose(
    label: str,
    names: Sequence[str],
    rule: OpShardingRule,
    regions: Sequence[dict[int, tuple[Interval, ...]]],
    shapes: Sequence[tuple[int, ...]],
    kind: str,
) -> dict[tuple[Interval, ...], frozenset[int]] | Finding:
    """Per output block (one interval per factor, reduction factors left
    whole), the devices that compute it: the union over the reduction
    pieces of the intersection, over inputs, of the devices holding the
    input's part of the block. A `Finding` if some piece has no device."""
    pieces: list[list[Interval]] = []
    for f, size in enumerate(rule.factor_sizes):
        found: set[Interval] = set()
        for t, mapping in enumerate(rule.operand_mappings):
            for d, factors in enumerate(mapping):
                if f in factors:
                    found |= set(_along(regions[t], d).values())
        pieces.append(sorted(p for p in found if p[0] < p[1]) or [(0, size)])
    reduction = set(rule.reduction_factors)
    blocks: dict[tuple[Interval, ...], frozenset[int]] = {}
    for combo in product(*pieces):
        devices: frozenset[int] | None = None
        for t, mapping in enumerate(rule.operand_mappings):
            need = [combo[factors[0]] if factors else (0, 1) for factors in mapping]
            holding = frozenset(
                device
                for device, region in regions[t].items()
                if all(r[0] <= n[0] and n[1] <= r[1] for r, n in zip(region, need, strict=True))
            )
            if devices is not None and not devices & holding:
                where = ", ".join(
                    f"{names[u]}[{_block_text(combo, m)}]"
                    for u, m in enumerate(rule.operand_mappings[: t + 1])
                )
                return Finding(
                    label,
                    names[t],
                    "broadcast composition",
                    f"no device holds all of {where}: the devices of the {kind} operator's "
                    "input shards do not intersect, so the output shard has no device",
                )
            devices = holding if devices is None else devices & holding
        key = tuple((0, s) if f in reduction else combo[f] for f, s in enumerate(rule.factor_sizes))
        blocks[key] = blocks.get(key, frozenset()) | (devices or frozenset())
    return blocks


def _block_text(combo: tuple[Interval, ...], mapping) -> str:
    return ", ".join(f"{combo[f[0]][0]}:{combo[f[0]][1]}" if f else "0:1" for f in mapping)


def _output_spec(
    name: str,
    mapping,
    shape: tuple[int, ...],
    blocks: Mapping[tuple[Interval, ...], frozenset[int]],
) -> ShardingSpec | None:
    """The spec placing each output block on its devices (None when the
    blocks do not form a regular split of the output)."""
    per_dim: list[list[Interval]] = []
    for factors in mapping:
        found = sorted({key[factors[0]] for key in blocks}) if factors else [(0, 1)]
        per_dim.append(found)
    dims = [(d, len(p)) for d, p in enumerate(per_dim) if len(p) > 1]
    for d, n in dims:
        chunk = -(-shape[d] // n)
        expected = [(min(i * chunk, shape[d]), min((i + 1) * chunk, shape[d])) for i in range(n)]
        if per_dim[d] != expected:
            return None
    shard_holders = []
    for index in product(*(range(n) for _, n in dims)):
        chosen = dict(zip((d for d, _ in dims), index, strict=True))
        members: set[int] = set()
        for key, holders in blocks.items():
            if all(key[mapping[d][0]] == per_dim[d][chosen[d]] for d in chosen):
                members |= holders
        shard_holders.append(members)
    return ShardingSpec.from_holders(name, dims, shard_holders, tuple(shape[d] for d, _ in dims))


def _renamed(spec: ShardingSpec, name: str) -> ShardingSpec:
    return ShardingSpec(name, spec.devices, spec.groups, spec.dims, spec.dim_sizes)
