"""The largest value the reference interpreter and the simulator may hold.

Running a program makes every value a numpy array, and a tiny file can
declare a huge one: `dense<1.0> : tensor<65536x65536xf32>` is 16 GiB, twice
that once `check` runs its reference in float64. So before anything is
allocated, every value of the program (function arguments, op results) is
checked against a limit of elements: `max_elements` when given, else the
`SHARDONNAY_MAX_ELEMENTS` environment variable, else
`DEFAULT_MAX_ELEMENTS` (2**28 elements: 2 GiB in float64). A program over
it raises `ShardonnayError` at once, naming the value, instead of running
out of memory part of the way through.

>>> from shardonnay.syntax.mlir_reader import parse_module
>>> module = parse_module('''
... func.func @main(%arg0: tensor<65536x65536xf32>) -> tensor<65536x65536xf32> {
...   return %arg0 : tensor<65536x65536xf32>
... }''')
>>> check_value_sizes(module)
Traceback (most recent call last):
...
shardonnay.errors.ShardonnayError: argument 0 of @main (tensor<65536x65536xf32>) has \
4294967296 elements, more than the 268435456 a value may have when the program runs \
(raise the limit with SHARDONNAY_MAX_ELEMENTS=N)
>>> check_value_sizes(module, max_elements=2**32)  # allowed: no error
"""

from __future__ import annotations

import os

from shardonnay.errors import ShardonnayError
from shardonnay.ir.core import Module
from shardonnay.ir.types import TensorType

__all__ = ["DEFAULT_MAX_ELEMENTS", "ENVIRONMENT_VARIABLE", "check_value_sizes", "element_limit"]

DEFAULT_MAX_ELEMENTS = 2**28
ENVIRONMENT_VARIABLE = "SHARDONNAY_MAX_ELEMENTS"


def element_limit(max_elements: int | None = None) -> int:
    """`max_elements` when given, else `$SHARDONNAY_MAX_ELEMENTS`, else the
    default; `ShardonnayError` when it is not a positive integer."""
    source = "max_elements"
    if max_elements is None:
        text = os.environ.get(ENVIRONMENT_VARIABLE, "").strip()
        if not text:
            return DEFAULT_MAX_ELEMENTS
        source = ENVIRONMENT_VARIABLE
        try:
            max_elements = int(text)
        except ValueError:
            raise ShardonnayError(f"{source}={text!r} is not a number of elements") from None
    if isinstance(max_elements, bool) or not isinstance(max_elements, int) or max_elements < 1:
        raise ShardonnayError(f"{source}={max_elements!r} is not a positive number of elements")
    return max_elements


def check_value_sizes(module: Module, *, max_elements: int | None = None) -> None:
    """Raises `ShardonnayError` naming the first value of `module` (a function
    argument or an op's result) with more elements than the limit (see the
    module docstring)."""
    limit = element_limit(max_elements)
    for func in module.functions:
        for i, argument_type in enumerate(func.type.inputs):
            _check(argument_type, f"argument {i} of @{func.name}", limit)
        for op in func.walk():
            for result in op.results:
                _check(result.type, f"result {result.index} of {op.name} in @{func.name}", limit)


def _check(type_: object, what: str, limit: int) -> None:
    if isinstance(type_, TensorType) and type_.num_elements > limit:
        raise ShardonnayError(
            f"{what} ({type_}) has {type_.num_elements} elements, more than the {limit} "
            f"a value may have when the program runs "
            f"(raise the limit with {ENVIRONMENT_VARIABLE}=N)"
        )
