"""JAX as the oracle of what a program computes: a function lowered by JAX
and run by shardonnay's interpreter equals the function run by JAX.

Needs the `jax` extra (tests that use it start with `pytest.importorskip("jax")`)::

    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    assert_interpreter_matches_jax(lambda a: jnp.transpose(a) * 2, x)

JAX lowers the function to StableHLO text; jaxlib prints it in the generic
form, which shardonnay reads, verifies and runs on the same arguments. A
test helper: it skips (pytest) a program whose ops have no semantics yet.
"""

from __future__ import annotations

import numpy as np
import pytest

from shardonnay.ir.core import Module
from shardonnay.ir.verifier import verify
from shardonnay.ops.registry import OpDef, is_registered, lookup
from shardonnay.runtime.interpreter import run
from shardonnay.syntax.mlir_reader import parse_module
from shardonnay.testing.mlir_oracle import jaxlib_asm


def assert_interpreter_matches_jax(f, *args, rtol: float = 1e-5) -> None:
    """`f` lowered by JAX and run by the interpreter equals `f` run by JAX
    (same shapes, dtypes, and values within `rtol`); skips (pytest) when an
    op of the lowered program has no semantics registered."""
    import jax

    text = jax.jit(f).lower(*args).as_text()
    module = parse_module(jaxlib_asm(text, generic=True))
    verify(module)
    require_semantics(module)
    got = run(module, *[np.asarray(a) for a in args])
    want = jax.tree_util.tree_leaves(jax.jit(f)(*args))
    assert len(got) == len(want)
    for g, w in zip(got, want, strict=True):
        w = np.asarray(w)
        assert g.shape == w.shape and g.dtype == w.dtype
        np.testing.assert_allclose(g, w, rtol=rtol)


def require_semantics(module: Module) -> None:
    """Skips (pytest) when an op of `module` has no semantics registered."""
    for op in module.walk():
        if op.name.startswith("func.") or op.name.endswith(".return"):
            continue
        definition = lookup(op.name)
        if not is_registered(op.name) or type(definition).evaluate is OpDef.evaluate:
            pytest.skip(f"{op.name} has no semantics registered")
