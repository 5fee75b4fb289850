"""MLIR's own parser and printer (inside jaxlib), as an oracle for our text.

Everything here needs jaxlib (the `jax` extra); tests that use it start with
`pytest.importorskip("jax")`. Shardy's passes run through MLIR's pass
manager, as `mlir-opt` would run them::

    run_pass_pipeline(text, "builtin.module(sdy-basic-propagate)")
    jaxlib_asm(text, generic=True)      # `text` verified and printed generically
    assert_text_as_jaxlib(text)         # our reader and writer agree with jaxlib's

Some of Shardy's passes abort the whole process on inputs they do not
support (an `SDY_CHECK`); `run_pass_pipelines_isolated` runs such jobs in a
child process (`python -m shardonnay.testing.mlir_oracle`), restarted past
any job it dies on.
"""

from __future__ import annotations

import functools
import json
import subprocess
import sys
from collections.abc import Sequence

from shardonnay.ir.verifier import verify
from shardonnay.syntax.mlir_reader import parse_module


@functools.cache
def context():
    """The MLIR context of jaxlib with the StableHLO, CHLO and Shardy dialects and passes."""
    from jax._src.interpreters import mlir as jmlir

    return jmlir.make_ir_context()


def jaxlib_asm(text: str, *, generic: bool = False) -> str:
    """`text` parsed and printed by jaxlib's MLIR (verifying it on the way)."""
    from jaxlib.mlir import ir

    with context():
        module = ir.Module.parse(text)
        return module.operation.get_asm(enable_debug_info=False, print_generic_op_form=generic)


def jaxlib_accepts(text: str) -> bool:
    """Whether jaxlib's MLIR parses and verifies `text`."""
    try:
        jaxlib_asm(text)
    except Exception:
        return False
    return True


def assert_text_as_jaxlib(text: str) -> None:
    """Our reader and writer agree with jaxlib on `text`: generic -> pretty,
    pretty -> pretty and pretty -> generic print what jaxlib prints, and our
    verifier accepts it."""
    generic = jaxlib_asm(text, generic=True)
    pretty = jaxlib_asm(text)
    from_generic = parse_module(generic)
    assert from_generic.to_text() == pretty
    from_pretty = parse_module(pretty)
    assert from_pretty.to_text() == pretty
    assert from_pretty.to_text(generic=True) == generic
    verify(from_pretty)


def run_pass_pipeline(text: str, pipeline: str) -> str:
    """Runs an MLIR pass pipeline (e.g. Shardy's) on `text`, returns the result."""
    from jaxlib.mlir import ir, passmanager

    with context():
        module = ir.Module.parse(text)
        passmanager.PassManager.parse(pipeline).run(module.operation)
        return module.operation.get_asm(enable_debug_info=False)


def run_pass_pipeline_with_diagnostics(text: str, pipeline: str) -> tuple[str, list[str]]:
    """`run_pass_pipeline(text, pipeline)` and the messages of the
    diagnostics (warnings) MLIR emitted on the way."""
    messages: list[str] = []

    def keep(diagnostic) -> bool:
        messages.append(str(diagnostic.message))
        return True

    handler = context().attach_diagnostic_handler(keep)
    try:
        return run_pass_pipeline(text, pipeline), messages
    finally:
        handler.detach()


def run_pass_pipelines_isolated(jobs: Sequence[tuple[str, str]]) -> list[str | None]:
    """The output of each `(text, pipeline)` job, run in a child process;
    None where the pipeline failed or the child died on it (a job it dies on
    is left out and the child restarted past it)."""
    results: list[str | None] = []
    while len(results) < len(jobs):
        pending = [list(job) for job in jobs[len(results) :]]
        proc = subprocess.run(
            [sys.executable, "-m", __name__, "--worker"],
            input=json.dumps(pending),
            capture_output=True,
            text=True,
            check=False,
        )
        done = [
            json.loads(line[len(_RESULT) :])
            for line in proc.stdout.splitlines()
            if line.startswith(_RESULT)
        ]
        results += done
        if len(done) < len(pending):
            results.append(None)  # the child died on this one
    return results


_RESULT = "result: "


def _worker() -> None:
    """Runs the jobs (a JSON list of `[text, pipeline]`) from stdin, one
    result line each, flushed, so that the parent knows where a crash was."""
    for text, pipeline in json.loads(sys.stdin.read()):
        try:
            out = run_pass_pipeline(text, pipeline)
        except Exception:  # (MLIR's errors, raised by jaxlib)
            out = None
        sys.stdout.write(_RESULT + json.dumps(out) + "\n")
        sys.stdout.flush()


@functools.cache
def expanded_propagation_pipeline(**options: str) -> str:
    """Shardy's `sdy-propagation-pipeline` expanded into its passes, with the
    given options changed (`{"conservative-propagation": "true"}`, ...): the
    named pipeline takes no options in jaxlib, its expanded text does.
    `sdy-save-module` (a debugging dump, not registered here) is left out."""
    from jaxlib.mlir import passmanager

    with context():
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


if __name__ == "__main__" and sys.argv[1:] == ["--worker"]:
    _worker()
