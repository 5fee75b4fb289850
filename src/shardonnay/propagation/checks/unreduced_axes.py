"""Shardy's `sdy-verify-unreduced-axes`: no op drops an unreduced axis silently.

An unreduced axis (`unreduced={"x"}`) says the value still has to be summed
over `x`. Only an sdy op (`sdy.reshard`, a collective) may reduce it; so, in
every function:

- a `func.call`'s operands carry exactly the unreduced axes of the callee's
  arguments, and its results those of the callee's results;
- a return (`func.return`, `stablehlo.return` of a region) returns exactly
  the unreduced axes of what it returns into (the function's results, the
  region op's results);
- any other op (not of the sdy dialect) keeps every unreduced axis of its
  operands on its results (it may add some: a `dot_general` whose
  contracting dim is sharded makes its result unreduced).

jaxlib 0.10.2's Shardy does not have this pass; this follows Shardy's source.

>>> from shardonnay.syntax.mlir_reader import parse_module
>>> module = parse_module('''
... sdy.mesh @mesh = <["x"=2]>
... func.func @main(
...     %arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}], unreduced={"x"}>}
... ) -> tensor<8xf32> {
...   %0 = stablehlo.negate %arg0 : tensor<8xf32>
...   return %0 : tensor<8xf32>
... }''')
>>> verify_unreduced_axes(module)
Traceback (most recent call last):
...
shardonnay.errors.IRError: in @main, stablehlo.negate: dropped unreduced axis 'x' without a \
blessed operation (e.g., sdy.reshard). This is an invalid transition from unreduced to reduced.
"""

from __future__ import annotations

from shardonnay.axes import AxisRef
from shardonnay.errors import IRError
from shardonnay.ir.core import Func, Module, Op
from shardonnay.ir.shardings import func_arg_sharding, func_result_sharding, sharding_of
from shardonnay.sharding import TensorSharding

__all__ = ["verify_unreduced_axes"]

_UNBLESSED = (
    " without a blessed operation (e.g., sdy.reshard). "
    "This is an invalid transition from unreduced to reduced."
)


def _unreduced(sharding: TensorSharding | None) -> list[AxisRef]:
    return list(sharding.unreduced) if isinstance(sharding, TensorSharding) else []


def _equal(source: list[AxisRef], target: list[AxisRef], where: str, suffix: str) -> None:
    if source == target:
        return
    names = sorted(
        {a.name for a in source if a not in target} | {a.name for a in target if a not in source}
    )
    raise IRError(f"{where}: has unreduced axes mismatch for '{', '.join(names)}'{suffix}")


def _check_call(call: Op, funcs: dict[str, Func], where: str) -> None:
    callee = funcs.get(call.attributes["callee"].names[-1])
    if callee is None:
        return
    for i, operand in enumerate(call.operands):
        argument = func_arg_sharding(callee, i)
        _equal(
            _unreduced(sharding_of(operand)), _unreduced(argument), where, f" at call argument {i}."
        )
    for i, result in enumerate(call.results):
        _equal(
            _unreduced(func_result_sharding(callee, i)),
            _unreduced(sharding_of(result)),
            where,
            f" at call result {i}.",
        )


def _check_op(op: Op, func: Func, where: str) -> None:
    operand_axes = [a for v in op.operands for a in _unreduced(sharding_of(v))]
    if op.name in ("func.return", "stablehlo.return"):
        parent = op.parent_op
        result_axes: list[AxisRef] = []
        if parent is func.op:
            for i in range(len(op.operands)):
                result_axes += _unreduced(func_result_sharding(func, i))
        elif parent is not None:
            for i in range(min(len(op.operands), len(parent.results))):
                result_axes += _unreduced(sharding_of(parent.results[i]))
        if operand_axes or result_axes:
            _equal(operand_axes, result_axes, where, _UNBLESSED)
        return
    result_axes = [a for v in op.results for a in _unreduced(sharding_of(v))]
    for axis in operand_axes:
        if axis not in result_axes:
            raise IRError(f"{where}: dropped unreduced axis '{axis.name}'{_UNBLESSED}")


def verify_unreduced_axes(module: Module) -> None:
    """`sdy-verify-unreduced-axes` (see the module docstring): raises
    `IRError` at the first op that drops or changes unreduced axes."""
    funcs = {f.name: f for f in module.functions}
    for func in module.functions:
        if func.is_declaration:
            continue
        for op in func.walk():
            if op is func.op or op.dialect == "sdy":
                continue
            where = f"in @{func.name}, {op.name}"
            if op.name == "func.call":
                _check_call(op, funcs, where)
            else:
                _check_op(op, func, where)
