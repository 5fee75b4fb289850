"""bf16 training programs exported from JAX (tests/corpus/bf16, made by
scripts/export_corpus.py): a transformer block forward and backward and a
T5-style training step whose layers are scanned with gradient checkpointing.

The reference interpreter computes what JAX computed up to bf16 rounding, and
the partitioned programs, run on every device, pass `check` on JAX's inputs.
The archives keep bf16 arrays as f32 (exactly: numpy files cannot tell bf16
from other 2-byte types); the inputs take `@main`'s element types again.
"""

from pathlib import Path

import numpy as np
import pytest

from shardonnay import parse_module, run
from shardonnay.ir.types import numpy_dtype
from shardonnay.runtime.check import check

FOLDER = Path(__file__).parent.parent / "corpus" / "bf16"
PROGRAMS = sorted(FOLDER.glob("*.mlir"))
# XLA computes bf16 ops in f32 and rounds at the end of its fusions, the
# interpreter rounds after every op: through two layers and their gradients
# the results drift apart by a few bf16 ulps (2**-8) of the largest value
DRIFT = 2**-4


def program_and_inputs(path: Path):
    module = parse_module(path.read_text())
    archive = np.load(path.with_suffix(".npz"))
    types = module.function("main").type.inputs
    inputs = [archive[f"input{i}"].astype(numpy_dtype(t.element_type)) for i, t in enumerate(types)]
    outputs = [archive[k] for k in sorted(archive.files, key=_index) if k.startswith("output")]
    return module, inputs, outputs


def _index(key: str) -> int:
    return int(key.removeprefix("input").removeprefix("output"))


def test_the_bf16_programs_are_exported() -> None:
    assert [p.stem for p in PROGRAMS] == [
        "t5_remat_train_bf16",
        "transformer_block_backward_bf16",
        "transformer_block_forward_bf16",
    ]
    for path in PROGRAMS:
        module = parse_module(path.read_text())
        assert "bf16" in {t.element_type for t in module.function("main").type.inputs}
    t5 = PROGRAMS[0].read_text()
    assert "stablehlo.while" in t5  # the scan over layers, with its rematerialized forward


@pytest.mark.parametrize("path", PROGRAMS, ids=[p.stem for p in PROGRAMS])
def test_the_interpreter_computes_what_jax_computed(path: Path) -> None:
    module, inputs, expected = program_and_inputs(path)
    got = run(module, *inputs)
    assert len(got) == len(expected)
    for i, (g, e) in enumerate(zip(got, expected, strict=True)):
        assert g.shape == e.shape, i
        scale = float(np.max(np.abs(e))) or 1.0
        error = float(np.max(np.abs(g.astype(np.float64) - e.astype(np.float64))))
        assert error <= DRIFT * scale, (i, error, scale)


@pytest.mark.parametrize("path", PROGRAMS, ids=[p.stem for p in PROGRAMS])
def test_the_partitioned_bf16_programs_pass_check(path: Path) -> None:
    module, inputs, _ = program_and_inputs(path)
    # check judges each output against the unpartitioned program's own bf16
    # rounding error (measured against a float64 run), not a fixed tolerance
    result = check(module, inputs=inputs)
    assert result.ok
    assert result.num_collectives > 0
    assert "xbf16>" in result.local.to_text()  # the devices compute in bf16
