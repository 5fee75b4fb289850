"""`sdy.manual_computation`: a body written per device (JAX's `shard_map`).

    %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}, {}]>]
        out_shardings=[<@mesh, [{"x"}, {}]>] manual_axes={"x"} (%arg1: tensor<4x16xf32>) {
      %1 = "stablehlo.all_reduce"(%arg1) <{...}> ({...}) : (tensor<4x16xf32>) -> tensor<4x16xf32>
      sdy.return %1 : tensor<4x16xf32>
    } : (tensor<8x16xf32>) -> tensor<8x16xf32>

The operands and results are global; the body's arguments and returned
values are local: each dim divided by the sizes of the manual axes sharding
it. In the generic form the shardings are `#sdy.sharding_per_value<[...]>`
and the axes `#sdy<manual_axes{"x"}>`.

On the global program the body runs once per device of the manual axes, in
lockstep (the interpreter's `run_manual`), on that device's slices of the operands
(`layout.shard` along the manual axes); the results are the devices' values
put back together (`layout.unshard`). Free axes are not split.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from shardonnay.errors import IRError
from shardonnay.ir.core import Module, Op
from shardonnay.ir.shardings import module_meshes
from shardonnay.ir.types import TensorType, Type
from shardonnay.layout import shard, unshard
from shardonnay.mesh import Mesh
from shardonnay.ops.registry import OpDef, mark_inherent, register
from shardonnay.ops.sdy import (
    read_stripped_per_value,
    write_body_and_signature,
    write_stripped_per_value,
)
from shardonnay.ops.traits import (
    COMPUTATION,
    DATA_FLOW,
    ISOLATED_FROM_ABOVE,
    RECURSIVE_EFFECTS,
)
from shardonnay.sharding import (
    DimSharding,
    ManualAxes,
    TensorSharding,
    TensorShardingPerValue,
    read_manual_axes,
)


def inside_manual_computation(op: Op) -> bool:
    """Whether `op` is in the body of an `sdy.manual_computation` (at any
    depth): its values are local along the manual axes and name the free
    axes only."""
    parent = op.parent_op
    while parent is not None:
        if parent.name == "sdy.manual_computation":
            return True
        parent = parent.parent_op
    return False


_ATTRS = ("in_shardings", "out_shardings", "manual_axes")


class ManualComputationOp(OpDef):
    """Facets of `sdy.manual_computation`; see the module docstring."""

    traits = frozenset({ISOLATED_FROM_ABOVE, DATA_FLOW, COMPUTATION, RECURSIVE_EFFECTS})
    pure = False

    def parse(self, p, name: str) -> Op:
        p.expect("(", "'(' and the operands")
        operands = p.operands_until(")")
        p.expect(")", "')' after the operands")
        attrs: dict[str, Any] = {}
        for key in ("in_shardings", "out_shardings"):
            p.expect(key, f"'{key}'")
            p.expect("=", f"'=' after '{key}'")
            attrs[key] = read_stripped_per_value(p)
        p.expect("manual_axes", "'manual_axes'")
        p.expect("=", "'=' after 'manual_axes'")
        attrs["manual_axes"] = read_manual_axes(p)
        p.skip_space()
        args_pos = p.pos
        arguments = p.block_argument_list()
        region = p.region([(n, t) for n, t, _, _ in arguments], isolated=True)
        ftype = p.signature(operands, attrs)
        if len(arguments) != len(operands):
            raise p.error(
                f"{len(arguments)} block arguments for {len(operands)} operands", args_pos
            )
        op = p.make_op(name, operands, ftype.results, attrs, [region])
        return mark_inherent(op, _ATTRS)

    def print(self, op: Op, w) -> None:
        w.write("(")
        w.operands(op.operands)
        w.write(")")
        for key in ("in_shardings", "out_shardings"):
            shardings = _per_value(op, key)
            write_stripped_per_value(w, key, shardings)
        w.write(f" manual_axes={_manual_axes(op).body()}")
        write_body_and_signature(op, w, _ATTRS)

    def infer_types(self, op: Op) -> list[Type] | None:
        return None  # the global result types are not implied by the body alone

    def verify(self, op: Op) -> None:
        manual = _manual_axes(op).names
        if len(op.regions) != 1 or len(op.regions[0].blocks) != 1:
            raise IRError(f"{op.name}: needs a body of one block")
        body = op.regions[0].entry
        terminator = body.terminator
        if terminator is None or terminator.name != "sdy.return":
            raise IRError(f"{op.name}: the body must end with sdy.return")
        in_shardings, out_shardings = (
            _per_value(op, "in_shardings"),
            _per_value(op, "out_shardings"),
        )
        if not len(in_shardings) and not len(out_shardings) and manual and len(body.ops) > 1:
            raise IRError(
                f"{op.name}: cannot have manual_axes when there are no in/out shardings "
                "and the body is not empty."
            )
        meshes = {s.mesh for s in (*in_shardings.shardings, *out_shardings.shardings)}
        if len(meshes) > 1 and manual:
            raise IRError(
                f"{op.name}: all in and out shardings must be bound to the same mesh or an "
                "empty mesh."
            )
        mesh = _resolve(op, next(iter(meshes)), None) if meshes else None
        if mesh is not None:
            for axis in manual:
                if not mesh.has_axis(axis):
                    raise IRError(f'{op.name}: unknown manual axis: "{axis}"')
        for kind, globals_, locals_, shardings in (
            (
                "operand",
                [v.type for v in op.operands],
                [a.type for a in body.arguments],
                in_shardings,
            ),
            ("result", list(op.result_types), [v.type for v in terminator.operands], out_shardings),
        ):
            _verify_values(op, kind, globals_, locals_, shardings, set(manual), mesh)

    def evaluate(self, op: Op, args: list, interp) -> list:
        in_shardings, out_shardings = (
            _per_value(op, "in_shardings"),
            _per_value(op, "out_shardings"),
        )
        shardings = (*in_shardings.shardings, *out_shardings.shardings)
        mesh = _resolve(op, shardings[0].mesh, interp.module) if shardings else Mesh()
        manual = _manual_axes(op).names
        local_mesh = Mesh([(a, mesh.axis_size(a)) for a in manual])
        count = local_mesh.size  # one device per coordinate along the manual axes
        per_device: list[list[np.ndarray]] = [[] for _ in range(count)]
        for x, sharding in zip(args, in_shardings.shardings, strict=True):
            buffers = shard(x, _restrict(sharding, manual, local_mesh), local_mesh)
            for i in range(count):
                per_device[i].append(buffers[i])
        results = interp.run_manual(mesh, manual, op.regions[0], per_device)
        out = []
        for k, (sharding, t) in enumerate(
            zip(out_shardings.shardings, op.result_types, strict=True)
        ):
            buffers = {i: results[i][k] for i in range(count)}
            shape = t.shape if isinstance(t, TensorType) else ()
            out.append(unshard(buffers, _restrict(sharding, manual, local_mesh), local_mesh, shape))
        return out


def _per_value(op: Op, key: str) -> TensorShardingPerValue:
    value = op.attributes.get(key)
    if not isinstance(value, TensorShardingPerValue):
        raise IRError(f"{op.name}: needs {key} (#sdy.sharding_per_value<[...]>)")
    return value


def _manual_axes(op: Op) -> ManualAxes:
    value = op.attributes.get("manual_axes")
    if not isinstance(value, ManualAxes):
        raise IRError(f"{op.name}: needs manual_axes (#sdy<manual_axes{{...}}>)")
    return value


def _resolve(op: Op, mesh: str | Mesh, module: Module | None) -> Mesh | None:
    """The mesh a sharding names (None when it names one and `module` is unknown)."""
    if isinstance(mesh, Mesh):
        return mesh
    if module is None:
        module = module_meshes(op)
        if module is None:
            return None
    meshes = module.meshes if isinstance(module, Module) else module
    if mesh not in meshes:
        raise IRError(f"{op.name}: unknown mesh @{mesh}")
    return meshes[mesh]


def _restrict(sharding: TensorSharding, manual: tuple[str, ...], mesh: Mesh) -> TensorSharding:
    """`sharding` on `mesh` (the manual axes only), keeping only manual axes."""
    dims = tuple(DimSharding(tuple(a for a in d.axes if a.name in manual)) for d in sharding.dims)
    return TensorSharding(mesh, dims)


def _verify_values(
    op: Op,
    kind: str,
    global_types: list[Type],
    local_types: list[Type],
    shardings: TensorShardingPerValue,
    manual: set[str],
    mesh: Mesh | None,
) -> None:
    """Shardy's checks of one side (operands or results) of a manual computation."""
    if not global_types and not local_types and not len(shardings):
        return
    if len(shardings) != len(global_types):
        raise IRError(
            f"{op.name}: {kind} shardings don't match number of values: "
            f"{len(shardings)} shardings vs {len(global_types)} values"
        )
    if len(global_types) != len(local_types):
        raise IRError(
            f"{op.name}: number of op {kind}s and region {kind}s must match. Op has "
            f"{len(global_types)} op {kind}s and {len(local_types)} region {kind}s"
        )
    for index, (g, local, sharding) in enumerate(
        zip(global_types, local_types, shardings.shardings, strict=True)
    ):
        if not isinstance(g, TensorType):
            continue
        if sharding.rank != len(g.shape):
            raise IRError(
                f"{op.name}: {kind} sharding at index {index} has rank {sharding.rank}, "
                f"but the type {g} has rank {len(g.shape)}"
            )
        shape = []
        for dim, (size, dim_sharding) in enumerate(zip(g.shape, sharding.dims, strict=True)):
            axes = dim_sharding.axes
            first_free = next((i for i, a in enumerate(axes) if a.name not in manual), len(axes))
            late = [a for a in axes[first_free:] if a.name in manual]
            if late:
                raise IRError(
                    f"{op.name}: {kind} sharding at index {index} must have all manual axes "
                    f"come before free axes in its dimension sharding at index {dim}"
                )
            if mesh is None:
                break
            factor = math.prod(a.size(mesh) for a in axes[:first_free])
            if size % factor:
                raise IRError(
                    f"{op.name}: {kind} dimension size {size} is not divisible by the manual "
                    f"axes size {factor}"
                )
            shape.append(size // factor)
        if mesh is None:
            continue
        expected = TensorType(tuple(shape), g.element_type)
        if local != expected:
            raise IRError(
                f"{op.name}: {kind} shape, corresponding sharding, and region {kind} shape at "
                f"index {index} must match. Expected local shape {expected}, actual local "
                f"shape {local}"
            )


register("sdy.manual_computation", ManualComputationOp())
