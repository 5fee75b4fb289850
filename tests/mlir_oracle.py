"""MLIR's own parser and printer (inside jaxlib), as an oracle for our text.

Tests that use it start with `pytest.importorskip("jax")`.
"""

from __future__ import annotations

import functools


@functools.cache
def _context():
    from jax._src.interpreters import mlir as jmlir

    return jmlir.make_ir_context()


def jaxlib_asm(text: str, *, generic: bool = False) -> str:
    """`text` parsed and printed by jaxlib's MLIR (verifying it on the way)."""
    from jaxlib.mlir import ir

    with _context():
        module = ir.Module.parse(text)
        return module.operation.get_asm(enable_debug_info=False, print_generic_op_form=generic)


def jaxlib_accepts(text: str) -> bool:
    try:
        jaxlib_asm(text)
    except Exception:
        return False
    return True


def run_pass_pipeline(text: str, pipeline: str) -> str:
    """Runs an MLIR pass pipeline (e.g. Shardy's) on `text`, returns the result."""
    from jaxlib.mlir import ir, passmanager

    with _context():
        module = ir.Module.parse(text)
        passmanager.PassManager.parse(pipeline).run(module.operation)
        return module.operation.get_asm(enable_debug_info=False)


@functools.cache
def expanded_propagation_pipeline(**options: str) -> str:
    """Shardy's `sdy-propagation-pipeline` expanded into its passes, with the
    given options changed (`{"conservative-propagation": "true"}`, ...): the
    named pipeline takes no options in jaxlib, its expanded text does.
    `sdy-save-module` (a debugging dump, not registered here) is left out."""
    from jaxlib.mlir import passmanager

    with _context():
        text = str(passmanager.PassManager.parse("builtin.module(sdy-propagation-pipeline)"))
    text = text.replace("sdy-save-module,", "").replace(",sdy-save-module", "")
    for name, value in options.items():
        words = text.replace("{", " ").replace("}", " ").split()
        found = [word for word in words if word.startswith(f"{name}=")]
        if not found:
            raise ValueError(f"the pipeline has no option {name!r}")
        for part in set(found):
            text = text.replace(part, f"{name}={value}")
    return text
