"""Shardy's `sdy-propagation-pipeline`: import passes, propagation, export passes.

`propagation_pipeline(module)` returns a copy of `module` transformed as
`builtin.module(sdy-propagation-pipeline)` transforms it: each step below is
a function named after the Shardy pass it stands for, run in the pipeline's
order (passes that change nothing shardonnay prints are left out):

import
    `symbol_dce`, `remove_size_one_axes`,
    `propagate_sharding_from_func_to_call`, `constant_or_scalar_splitter`,
    `import_func_calls` (every `func.call` becomes an
    `sdy.named_computation` on its own copy of the callee),
    `apply_sharding_constraints`, `sharding_group_import`,
    `pre_order_funcs`;
propagation
    user-priority propagation (op-priority stages, aggressive factor
    propagation) with data-flow edges (`shardonnay.propagation.driver`);
export
    `export_named_computations` (back to calls of private functions),
    `propagate_to_func_results`, `unflatten_call_graph`, `symbol_dce`,
    `insert_func_call_reshards`, `constant_or_scalar_merger`,
    `remove_sharding_groups`, `sharding_constraint_to_reshard`,
    `update_non_divisible_input_output_shardings`,
    `remove_sub_axes_in_input_output_shardings`, `close_shardings`,
    explicit reshards.

The call steps live in `shardonnay.propagation.importing.call_graph`, the constant
splitter and merger in `shardonnay.propagation.importing.constants`, the
sharding-constraint steps in `shardonnay.propagation.importing.sharding_constraints`;
the others are here.

>>> from shardonnay.syntax.mlir_reader import parse_module
>>> module = parse_module('''
... sdy.mesh @mesh = <["x"=4]>
... func.func @main(%arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>})
...     -> tensor<8x4xf32> {
...   %0 = stablehlo.negate %arg0 : tensor<8x4xf32>
...   %1 = sdy.sharding_constraint %0 <@mesh, [{}, {"x"}]> : tensor<8x4xf32>
...   return %1 : tensor<8x4xf32>
... }''')
>>> out = propagation_pipeline(module)
>>> [str(op.attributes.get("sdy.sharding") or op.attributes.get("sharding"))
...  for op in out.functions[0].body.ops[:2]]
['#sdy.sharding_per_value<[<@mesh, [{}, {"x"}]>]>', '#sdy.sharding<@mesh, [{}, {"x"}]>']
>>> out.functions[0].body.ops[1].name
'sdy.reshard'
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Sequence
from typing import Any, Literal

from shardonnay.axes import AxisRef
from shardonnay.errors import IRError
from shardonnay.export.explicit_reshards import insert_explicit_reshards
from shardonnay.ir.attributes import IntegerAttr
from shardonnay.ir.core import Module, Op, Value
from shardonnay.ir.shardings import SHARDING, mesh_of
from shardonnay.ir.types import TensorType
from shardonnay.ir.verifier import verify
from shardonnay.mesh import Mesh
from shardonnay.ops.traits import ISOLATED_FROM_ABOVE, has_trait
from shardonnay.propagation.debugging.origin_attributes import (
    BLOCK_ARG_ORIGINS,
    ORIGINS,
    RESULT_ORIGINS,
    debug_recorder,
    propagate_with_origins,
    save_origins,
)
from shardonnay.propagation.debugging.propagation_edges import (
    BLOCK_ARG_EDGES,
    EDGES,
    RESULT_EDGES,
)
from shardonnay.propagation.driver import (
    drop_sharding_rules,
    erase_dead_ops,
    pausing_cyclic_gc,
    propagate_in_place,
)
from shardonnay.propagation.driver import propagate as propagate_pass
from shardonnay.propagation.importing.call_graph import (
    export_named_computations,
    import_func_calls,
    insert_func_call_reshards,
    pre_order_funcs,
    propagate_sharding_from_func_to_call,
    propagate_to_func_results,
    symbol_dce,
    unflatten_call_graph,
)
from shardonnay.propagation.importing.constants import (
    constant_or_scalar_merger,
    constant_or_scalar_splitter,
)
from shardonnay.propagation.importing.mesh_passes import lift_inlined_meshes
from shardonnay.propagation.importing.sharding_constraints import (
    apply_sharding_constraints,
    sharding_constraint_to_reshard,
)
from shardonnay.propagation.importing.validation import validate_for_propagation
from shardonnay.propagation.module_edits import transform_shardings
from shardonnay.sharding import DimSharding, ManualAxes, TensorSharding, TensorShardingPerValue

__all__ = [
    "apply_sharding_constraints",
    "close_shardings",
    "constant_or_scalar_merger",
    "constant_or_scalar_splitter",
    "propagate",
    "propagation_pipeline",
    "propagation_pipeline_in_place",
    "remove_sharding_groups",
    "remove_size_one_axes",
    "remove_sub_axes_in_input_output_shardings",
    "sharding_constraint_to_reshard",
    "sharding_group_import",
    "update_non_divisible_input_output_shardings",
    "verify_after",
]


@pausing_cyclic_gc
def propagation_pipeline(
    module: Module,
    *,
    strategy: Literal["aggressive", "basic"] = "aggressive",
    conservative: bool = False,
    debug_origins: bool = False,
    debug_edges: bool = False,
    recorder: Any = None,
    verify_each: bool = False,
) -> Module:
    """A copy of `module` after Shardy's `sdy-propagation-pipeline` (see the
    module docstring); `module` itself is not changed: it is copied once,
    and the copy transformed in place (`propagation_pipeline_in_place`, which
    says what the options do)."""
    module = module.copy()
    propagation_pipeline_in_place(
        module,
        strategy=strategy,
        conservative=conservative,
        debug_origins=debug_origins,
        debug_edges=debug_edges,
        recorder=recorder,
        verify_each=verify_each,
    )
    return module


@pausing_cyclic_gc
def propagation_pipeline_in_place(
    module: Module,
    *,
    strategy: Literal["aggressive", "basic"] = "aggressive",
    conservative: bool = False,
    debug_origins: bool = False,
    debug_edges: bool = False,
    recorder: Any = None,
    verify_each: bool = False,
) -> None:
    """Shardy's `sdy-propagation-pipeline` on `module` itself, which it
    changes (see the module docstring).

    `module` is validated once, on entry (`validate_for_propagation`: the IR
    verifier and what propagation requires); every step after keeps those
    invariants, so none verifies again. `verify_each`: run the verifier
    after every step too, as `mlir-opt --verify-each` does (an `IRError`
    naming the step that broke an invariant), for debugging the steps.

    `strategy`: the factor propagation of its user-priority propagation
    (`propagation-strategy=aggressive|basic`). `conservative`: never split an
    axis into sub-axes while propagating (`conservative-propagation=true`).
    `debug_origins`: note where each axis came from
    (`debug-sharding-origins=true`, see `shardonnay.propagation.debugging.origins`);
    `debug_edges`: note the steps that carried each axis
    (`debug-propagation-edge-sharding=true`); `recorder`: told about every
    step of the propagation (see `shardonnay.propagation.debugging.recording`), as
    `shardonnay.explain` asks."""
    validate_for_propagation(module, groups_merged=False, warn=False)

    def run(steps: Sequence[tuple[str, Callable[[Module], object]]]) -> None:
        for name, step in steps:
            step(module)
            if verify_each:
                verify_after(module, name)

    run(_IMPORT_STEPS)
    if debug_origins or debug_edges:
        recorder = debug_recorder(module, origins=debug_origins, edges=debug_edges)
    # The import steps keep the IR valid: only the groups are checked, and the
    # warnings given, on the module they made.
    validate_for_propagation(module, verify_ir=False)
    propagate_in_place(
        module,
        strategy="user-priority",
        factor_strategy=strategy,
        conservative=conservative,
        data_flow_edges=True,
        keep_sharding_rules=True,
        recorder=recorder,
    )
    if verify_each:
        verify_after(module, "sdy-user-priority-propagate")
    if debug_origins or debug_edges:
        save_origins(
            recorder, sink_named_computations=False, origins=debug_origins, edges=debug_edges
        )
    run(_EXPORT_STEPS)


def verify_after(module: Module, step: str) -> None:
    """`ir.verifier.verify(module)`, its `IRError` saying that `step` (a pass
    name) left the module so."""
    try:
        verify(module)
    except IRError as e:
        raise IRError(f"after {step}: {e}") from e


# -- rewriting shardings ----------------------------------------------------------------


def _with_dims(
    sharding: TensorSharding,
    dims: tuple[DimSharding, ...],
    replicated: tuple[AxisRef, ...] | None = None,
    unreduced: tuple[AxisRef, ...] | None = None,
) -> TensorSharding:
    return TensorSharding(
        sharding.mesh,
        dims,
        sharding.replicated if replicated is None else replicated,
        sharding.unreduced if unreduced is None else unreduced,
        sharding.reduction,
    )


# -- import -------------------------------------------------------------------------


DEBUG_ATTRIBUTES = (
    ORIGINS,
    EDGES,
    BLOCK_ARG_ORIGINS,
    RESULT_ORIGINS,
    BLOCK_ARG_EDGES,
    RESULT_EDGES,
)


def remove_propagation_debug_info(module: Module) -> None:
    """`sdy-remove-propagation-debug-info`: the attributes that
    `debug-sharding-origins` and `debug-propagation-edge-sharding` write
    (`DEBUG_ATTRIBUTES`) go, from ops and from function arguments/results."""
    for func in module.functions:
        for key in ("arg_attrs", "res_attrs"):
            for attrs in func.op.attributes.get(key, ()):
                for name in DEBUG_ATTRIBUTES:
                    attrs.pop(name, None)
    for op in module.walk():
        for name in DEBUG_ATTRIBUTES:
            op.attributes.pop(name, None)


def manual_axes_cleanup(module: Module) -> None:
    """`sdy-manual-axes-cleanup`: a manual computation's manual axes are
    sorted in mesh order, and each of its in/out shardings that does not use
    every manual axis gets the unused ones as replicated axes (sorted in
    mesh order; a sharding on the empty mesh takes the computation's mesh).

    `manual_axes={"y", "x"}` on `<["x"=2, "y"=2]>` becomes `{"x", "y"}`, and
    an in-sharding `[{"x"}, {}]` becomes `[{"x"}, {}], replicated={"y"}`.
    """
    for op in module.walk():
        if op.name != "sdy.manual_computation":
            continue
        ins, outs = op.attributes.get("in_shardings"), op.attributes.get("out_shardings")
        all_shardings = [*(ins or ()), *(outs or ())]
        if not all_shardings:
            continue
        common = next(
            (s.mesh for s in all_shardings if mesh_of(s, module.meshes).axes), all_shardings[0].mesh
        )
        mesh = common if isinstance(common, Mesh) else module.meshes[common]
        order = {name: k for k, (name, _) in enumerate(mesh.axes)}
        manual = tuple(sorted(op.attributes["manual_axes"].names, key=lambda n: order[n]))
        op.attributes["manual_axes"] = ManualAxes(manual)

        def cleaned(sharding: TensorSharding, t, manual=manual, mesh=mesh, common=common):
            if not isinstance(t, TensorType):
                return sharding
            used = {a.name for d in sharding.dims for a in d.axes}
            used |= {a.name for a in (*sharding.replicated, *sharding.unreduced)}
            unused = [n for n in manual if n not in used]
            if not unused:
                return sharding
            replicated = sorted(
                (*sharding.replicated, *(AxisRef(n) for n in unused)),
                key=lambda a: a.mesh_sort_key(mesh),
            )
            target = common if not mesh_of(sharding, module.meshes).axes else sharding.mesh
            return TensorSharding(
                target, sharding.dims, tuple(replicated), sharding.unreduced, sharding.reduction
            )

        for key, values in (("in_shardings", op.operands), ("out_shardings", op.results)):
            current = op.attributes.get(key)
            if current is None:
                continue
            op.attributes[key] = TensorShardingPerValue(
                tuple(cleaned(s, v.type) for s, v in zip(current, values, strict=True))
            )


def remove_size_one_axes(module: Module) -> None:
    """`sdy-remove-size-one-axes`: axes of size 1 leave every sharding (a dim
    left closed and empty loses its priority); the meshes keep them.

    `[{"x", "one"}p1, {"one"}p0]` on `<["x"=2, "one"=1]>` becomes `[{"x"}p1, {}]`.
    """
    if not any(size == 1 for mesh in module.meshes.values() for _, size in mesh.axes):
        return

    def remove(sharding: TensorSharding) -> TensorSharding:
        mesh = mesh_of(sharding, module.meshes)

        def big(axes: tuple[AxisRef, ...]) -> tuple[AxisRef, ...]:
            return tuple(a for a in axes if a.size(mesh) != 1)

        dims = []
        for d in sharding.dims:
            axes = big(d.axes)
            priority = None if not axes and d.is_closed else d.priority
            dims.append(DimSharding(axes, d.is_closed, priority))
        return _with_dims(sharding, tuple(dims), big(sharding.replicated), big(sharding.unreduced))

    transform_shardings(module, remove)


def sharding_group_import(module: Module) -> None:
    """`sdy-sharding-group-import`: sharding groups that share a value become
    one group, renumbered from 0, and a value keeps one `sdy.sharding_group`
    op (its first; the others go).

    Values are visited in order of their first `sdy.sharding_group` op; each
    joins every group it is in to the group of its first op, whose
    representative stays the representative (as `llvm::EquivalenceClasses`
    `unionSets` keeps the first set's leader). Group ids are numbered in the
    order they were first met, a merged group taking the number of its
    representative. So with `%a` in group 1, then `%b` in 3, then `%c` in 2
    and 1, the representative of {1, 2} is 2, met after 3: `%b` gets group
    0, and `%a` and `%c` group 1.
    """
    ops_of: dict[Value, list[Op]] = {}
    for op in module.walk():
        if op.name == "sdy.sharding_group":
            ops_of.setdefault(op.operands[0], []).append(op)
    if not ops_of:
        return
    leader: dict[int, int] = {}  # group id -> its parent, up to the representative

    def find(g: int) -> int:
        while leader.setdefault(g, g) != g:
            g = leader[g]
        return g

    for ops in ops_of.values():
        canonical = ops[0].attributes["group_id"].value
        for op in ops:
            root, other = find(canonical), find(op.attributes["group_id"].value)
            if root != other:
                leader[other] = root
    numbering = {g: k for k, g in enumerate(g for g in leader if find(g) == g)}
    for ops in ops_of.values():
        group = IntegerAttr(numbering[find(ops[0].attributes["group_id"].value)], "i64")
        ops[0].attributes["group_id"] = group
        for duplicate in ops[1:]:
            duplicate.erase()


# -- export -------------------------------------------------------------------------


def remove_sharding_groups(module: Module) -> None:
    """`sdy-remove-sharding-groups`: `sdy.sharding_group` ops go."""
    for op in [o for o in module.walk() if o.name == "sdy.sharding_group"]:
        op.erase()


def evenly_sharded(sharding: TensorSharding, shape: tuple[int, ...], mesh: Mesh) -> TensorSharding:
    """The longest prefix of each dim's axes that divides the dim's size (the
    last axis possibly cut to a sub-axis), as Shardy's
    `sdy-update-non-divisible-input-output-shardings` keeps.

    >>> mesh = Mesh({"x": 4, "y": 2})
    >>> s = TensorSharding.from_axes("mesh", [("y", "x")])
    >>> str(evenly_sharded(s, (4,), mesh))
    '#sdy.sharding<@mesh, [{"y", "x":(1)2}]>'
    """
    if mesh.is_maximal:  # pins the value to one device, no dims
        return sharding
    dims = []
    for d, size in zip(sharding.dims, shape, strict=True):
        if size % d.sharded_size(mesh) == 0:
            dims.append(d)
            continue
        remaining = size
        axes: list[AxisRef] = []
        for axis in d.axes:
            axis_size = axis.size(mesh)
            gcd = math.gcd(axis_size, remaining)
            if gcd == 1:
                break
            if gcd == axis_size:
                axes.append(axis)
                remaining //= gcd
                continue
            axes.append(AxisRef(axis.name, (axis.pre_size, gcd)))
            break
        dims.append(DimSharding(tuple(axes), d.is_closed))
    return _with_dims(sharding, tuple(dims))  # unreduced axes stay, as in Shardy


def update_non_divisible_input_output_shardings(module: Module) -> None:
    """`sdy-update-non-divisible-input-output-shardings`: the shardings of
    function arguments and results, and of `func.call` results, keep only
    what divides their dims evenly (see `evenly_sharded`)."""

    def even(s: TensorSharding, t) -> TensorSharding:
        return (
            evenly_sharded(s, t.shape, mesh_of(s, module.meshes))
            if isinstance(t, TensorType)
            else s
        )

    for func in module.functions:
        for key, types in (("arg_attrs", func.type.inputs), ("res_attrs", func.type.results)):
            attrs_list = func.op.attributes.get(key) or [{}] * len(types)
            for attrs, t in zip(attrs_list, types, strict=True):
                s = attrs.get(SHARDING)
                if isinstance(s, TensorSharding):
                    attrs[SHARDING] = even(s, t)
    for call in module.walk():
        per_value = call.attributes.get(SHARDING) if call.name == "func.call" else None
        if isinstance(per_value, TensorShardingPerValue):
            call.attributes[SHARDING] = TensorShardingPerValue(
                tuple(even(s, r.type) for s, r in zip(per_value, call.results, strict=True))
            )


def remove_sub_axes_in_input_output_shardings(module: Module) -> None:
    """`sdy-remove-sub-axes-in-input-output-shardings`: in the shardings of
    the main function's arguments and results, an open dim keeps its axes up
    to its first sub-axis."""
    funcs = [f for f in module.functions if not f.is_declaration]
    main = funcs[0] if len(funcs) == 1 else next((f for f in funcs if f.name == "main"), None)
    if main is None:
        return

    def remove(sharding: TensorSharding) -> TensorSharding:
        dims = []
        for d in sharding.dims:
            if d.is_closed:
                dims.append(d)
                continue
            axes: list[AxisRef] = []
            for a in d.axes:
                if a.is_sub_axis:
                    break
                axes.append(a)
            dims.append(DimSharding(tuple(axes), d.is_closed, d.priority))
        return _with_dims(sharding, tuple(dims))

    for key in ("arg_attrs", "res_attrs"):
        for attrs in main.op.attributes.get(key, ()):
            if isinstance(attrs.get(SHARDING), TensorSharding):
                attrs[SHARDING] = remove(attrs[SHARDING])


def close_shardings(module: Module) -> None:
    """`sdy-close-shardings`: every dim of every sharding becomes closed, and
    the replicated axes are dropped (closed dims say it already)."""

    def close(sharding: TensorSharding) -> TensorSharding:
        return _with_dims(
            sharding,
            tuple(DimSharding(d.axes, True, d.priority) for d in sharding.dims),
            replicated=(),
        )

    transform_shardings(module, close)


def canonicalize(module: Module) -> None:
    """`canonicalize` (with only Shardy's collective patterns enabled): the
    constants are uniqued and hoisted (`hoist_constants`), then ops without
    effects whose results are all unused go (an `sdy.reshard` among them,
    and then what only it used)."""
    hoist_constants(module)
    erase_dead_ops(module)


def hoist_constants(module: Module) -> None:
    """What MLIR's rewrite driver does to `stablehlo.constant` ops before
    rewriting: visited in post-order, each goes to the front of the entry
    block of its nearest isolated region (a function's body, a manual or
    named computation's), unless it is already first there or right after a
    constant placed before it; a constant equal to one already placed (same
    value and type) is replaced by it. So constants `0`, `2`, `1` met in
    that order end up `1`, `2`, `0` at the top. (`sdy.constant` stays where
    it is, as Shardy's constants do.)"""
    for func in module.functions:
        if func.is_declaration:
            continue
        placed: dict[tuple[int, str, str], Op] = {}
        owned: set[Op] = set()
        for op in func.body.walk_post_order():
            if op.name != "stablehlo.constant":
                continue
            block = op.parent
            assert block is not None
            # (the regions of an op isolated from above keep their own constants)
            while block.parent_op is not None and not has_trait(
                block.parent_op, ISOLATED_FROM_ABOVE
            ):
                outer = block.parent_op.parent
                assert outer is not None
                block = outer
            region = block.parent
            assert region is not None
            entry = region.blocks[0]
            key = (id(entry), str(op.attributes.get("value")), str(op.result_types[0]))
            if key in placed:
                op.results[0].replace_all_uses_with(placed[key].results[0])
                op.erase()
                continue
            placed[key] = op
            current = op.parent
            first = current is entry and entry.ops[0] is op
            index = current.ops.index(op)
            after_owned = current is entry and index > 0 and entry.ops[index - 1] in owned
            if not (first or after_owned):
                current.ops.remove(op)
                entry.insert(0, op)
            owned.add(op)


_STRATEGIES = ("basic", "aggressive", "op-priority", "user-priority")


def propagate(
    module: Module,
    *,
    strategy: Literal["basic", "aggressive", "op-priority", "user-priority"] = "aggressive",
    pipeline: bool = True,
    conservative: bool = False,
    explain: bool = False,
) -> Module:
    """A copy of `module` in which every value has a sharding, decided as
    Shardy decides it; `module` itself is not modified.

    `pipeline=True` (the default) runs Shardy's `sdy-propagation-pipeline`
    (import steps, user-priority and op-priority propagation, export steps:
    see `shardonnay.pipeline`), with `strategy` `"aggressive"` or
    `"basic"` as its factor propagation (`propagation-strategy`).
    `pipeline=False` runs only the propagation pass `sdy-<strategy>-propagate`
    (any of `"basic"`, `"aggressive"`, `"op-priority"`, `"user-priority"`),
    values tied by control flow sharing one sharding; open dims stay open.
    `conservative`: never split an axis into sub-axes
    (`conservative-propagation=true`).
    `explain`: every sharded value also gets Shardy's debug attributes:
    `sdy.sharding_origins` (the annotation each axis came from: `input: N`,
    `output: N`, a constraint or manual computation by its
    `sdy.sharding_origin_name`) and `sdy.propagation_edges` (the ops that
    carried each axis, step by step). `shardonnay.explain`
    tells the same story in words.
    """
    if strategy not in _STRATEGIES:
        raise ValueError(
            f"unknown propagation strategy {strategy!r}; expected one of {', '.join(_STRATEGIES)}"
        )
    if pipeline:
        if strategy not in ("basic", "aggressive"):
            raise ValueError(
                f"the propagation pipeline always runs user and op priorities; its strategy "
                f"is 'aggressive' or 'basic', not {strategy!r} (use pipeline=False for the "
                f"sdy-{strategy}-propagate pass alone)"
            )
        return propagation_pipeline(
            module,
            strategy=strategy,
            conservative=conservative,
            debug_origins=explain,
            debug_edges=explain,
        )
    if explain:
        return propagate_with_origins(
            module, origins=True, edges=True, strategy=strategy, conservative=conservative
        )
    return propagate_pass(module, strategy=strategy, conservative=conservative)


# The steps of `propagation_pipeline` before and after propagating, by the
# names of the Shardy passes they stand for.
_IMPORT_STEPS: tuple[tuple[str, Callable[[Module], object]], ...] = (
    ("symbol-dce", symbol_dce),
    ("sdy-lift-inlined-meshes", lift_inlined_meshes),
    ("sdy-remove-size-one-axes", remove_size_one_axes),
    ("sdy-propagate-sharding-from-func-to-call", propagate_sharding_from_func_to_call),
    ("sdy-constant-or-scalar-splitter", constant_or_scalar_splitter),
    # (the functions whose calls the splitter copied, with their callees, go)
    ("symbol-dce", symbol_dce),
    ("sdy-import-func-calls", import_func_calls),
    ("sdy-apply-sharding-constraints", apply_sharding_constraints),
    ("sdy-sharding-group-import", sharding_group_import),
    ("sdy-pre-order-funcs", pre_order_funcs),
)
_EXPORT_STEPS: tuple[tuple[str, Callable[[Module], object]], ...] = (
    ("sdy-export-named-computations", export_named_computations),
    ("sdy-propagate-to-func-results", propagate_to_func_results),
    ("sdy-unflatten-call-graph", unflatten_call_graph),
    ("symbol-dce", symbol_dce),
    ("sdy-insert-func-call-reshards", insert_func_call_reshards),
    ("sdy-constant-or-scalar-merger", constant_or_scalar_merger),
    ("sdy-remove-sharding-groups", remove_sharding_groups),
    ("sdy-sharding-constraint-to-reshard", sharding_constraint_to_reshard),
    (
        "sdy-update-non-divisible-input-output-shardings",
        update_non_divisible_input_output_shardings,
    ),
    ("sdy-remove-sub-axes-in-input-output-shardings", remove_sub_axes_in_input_output_shardings),
    ("sdy-close-shardings", close_shardings),
    (
        "sdy-insert-explicit-reshards",
        functools.partial(insert_explicit_reshards, full_version=False),
    ),
    ("canonicalize", canonicalize),
    ("sdy-drop-sharding-rules", drop_sharding_rules),
)
