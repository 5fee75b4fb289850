"""A JAX function as a shardonnay `Module`.

`lower(f, *args, **kwargs)` takes what a JAX user has: a plain function (it
is jitted), a `jax.jit`-wrapped function, a `jax.stages.Traced` or a
`jax.stages.Lowered`; `args` are arrays (their shardings become the
arguments' `sdy.sharding`s) or `jax.ShapeDtypeStruct`s (with or without a
`sharding=`). The module is read from JAX's text with debug information, so
every op keeps its `loc(...)`: `module.to_text(debug_info=True)` prints them
back, as JAX's `Lowered.as_text(debug_info=True)` does.

>>> import jax, jax.numpy as jnp
>>> m = lower(lambda x: jnp.sin(x) * 2, jax.ShapeDtypeStruct((4,), jnp.float32))
>>> m.function("main").body.ops[0].name
'stablehlo.sine'
>>> "loc(" in m.to_text(debug_info=True)
True
"""

from __future__ import annotations

from typing import Any

from shardonnay.errors import DeviceUnavailableError, ShardonnayError
from shardonnay.ir.core import Module
from shardonnay.syntax.mlir_reader import parse_module


def lower(f: Any, *args: Any, **kwargs: Any) -> Module:
    """The StableHLO/sdy module JAX lowers `f(*args, **kwargs)` to (see the
    module docstring). A `Lowered` or `Traced` takes no arguments."""
    lowered = lowered_of(f, *args, **kwargs)
    return parse_module(lowered.as_text(debug_info=True), "<lowered by jax>")


def lowered_of(f: Any, *args: Any, **kwargs: Any):
    """`f` as a `jax.stages.Lowered` (see `lower`)."""
    try:
        import jax
        from jax import stages
    except ImportError as e:
        raise DeviceUnavailableError(
            "lowering a JAX function needs JAX: pip install 'shardonnay[jax]'"
        ) from e
    if isinstance(f, stages.Lowered | stages.Traced):
        if args or kwargs:
            raise ShardonnayError(
                f"a {type(f).__name__} is already specialised to its arguments; pass it alone"
            )
        return f if isinstance(f, stages.Lowered) else f.lower()
    if not callable(f):
        raise ShardonnayError(
            f"lower takes a function, a jax.jit-wrapped function, a Traced or a Lowered; "
            f"got {type(f).__name__}"
        )
    jitted = f if hasattr(f, "lower") and hasattr(f, "trace") else jax.jit(f)
    return jitted.lower(*args, **kwargs)


__all__ = ["lower", "lowered_of"]
