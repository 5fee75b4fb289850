"""The corpus of real models (tests/models, made by scripts/export_models.py):
training and inference steps of flax linen and nnx, transformers' GPT-2 and
BERT, equinox and optax, sharded as their users shard them.

Every model reads, prints back to a fixed point, and its stored arguments and
JAX's outputs match `@main`'s types. The small models also run to JAX's
numbers, partition, and pass `check` on their stored arguments (bf16-aware:
judged against the unpartitioned program's own rounding), with their
per-device program receiving no more than XLA's compiled HLO (stored with the
model). The large ones (a few seconds
each to partition and simulate) are measured and checked by
`python benchmarks/partition.py --models --check`.
"""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import numpy as np
import pytest

from shardonnay import parse_module, run
from shardonnay.ir.types import TensorType
from shardonnay.partitioner.analysis.cost import collective_costs
from shardonnay.partitioner.program import partition
from shardonnay.runtime.check import check

MODELS = Path(__file__).parent.parent / "models"
ALL = sorted(p.stem for p in MODELS.glob("*.mlir"))
SMALL = (
    "linen_mlp_dp_train",
    "nnx_mlp_fsdp_tp_train",
    "equinox_mlp_dp_tp_train",
    "gpt2_tp_generate_logits",  # bf16
)


def _arrays(name: str, prefix: str) -> list[np.ndarray]:
    """The stored inputs or outputs of model `name`; bf16 arrays (which `.npz` keeps as
    raw 2-byte values) viewed as `@main`'s types say."""
    main = parse_module((MODELS / f"{name}.mlir").read_text()).function("main").type
    types = main.inputs if prefix == "input" else main.results
    with np.load(MODELS / f"{name}.npz") as archive:
        count = sum(1 for k in archive.files if k.startswith(prefix))
        arrays = [archive[f"{prefix}{i}"] for i in range(count)]
    return [
        a.view(t.dtype) if a.dtype.kind == "V" else a for a, t in zip(arrays, types, strict=True)
    ]


def _xla(name: str) -> dict:
    return json.loads((MODELS / f"{name}.json").read_text())["xla"]


def test_the_corpus_has_the_libraries_and_meshes_it_claims() -> None:
    assert len(ALL) >= 6
    text = {name: (MODELS / f"{name}.mlir").read_text() for name in ALL}
    assert any("bf16" in t for t in text.values())
    assert any("stablehlo.while" in t for t in text.values())  # nn.scan
    assert any("optimization_barrier" in t for t in text.values())  # nn.remat
    assert any("chlo.square" in t for t in text.values())
    meshes = {m.shape for t in text.values() for m in parse_module(t).meshes.values()}
    assert {(8,), (2, 4), (4, 2), (2, 2, 2)} <= meshes


@pytest.mark.parametrize("name", ALL)
def test_reads_prints_back_and_matches_its_arrays(name: str) -> None:
    module = parse_module((MODELS / f"{name}.mlir").read_text())
    text = module.to_text()
    assert parse_module(text).to_text() == text
    main = module.function("main").type
    for types, arrays in (
        (main.inputs, _arrays(name, "input")),
        (main.results, _arrays(name, "output")),
    ):
        assert len(types) == len(arrays)
        for t, a in zip(types, arrays, strict=True):
            assert isinstance(t, TensorType) and t.shape == a.shape and t.dtype == a.dtype
    info = _xla(name)
    assert info["bytes_received"] > 0 and info["peak_bytes"] > 0


@pytest.mark.parametrize("name", SMALL)
def test_small_models_run_to_the_numbers_jax_computed(name: str) -> None:
    module = parse_module((MODELS / f"{name}.mlir").read_text())
    outputs = run(module, *_arrays(name, "input"))
    for i, (got, want) in enumerate(zip(outputs, _arrays(name, "output"), strict=True)):
        assert got.dtype == want.dtype
        # bf16 keeps 8 bits: XLA and the interpreter round intermediate values differently.
        tol = 2e-5 if want.dtype.itemsize >= 4 else 2**-8 * 8
        scale = float(np.max(np.abs(want.astype(np.float32)), initial=1.0))
        np.testing.assert_allclose(
            got.astype(np.float32),
            want.astype(np.float32),
            rtol=tol,
            atol=tol * scale,
            err_msg=f"output {i}",
        )


@pytest.mark.parametrize("name", SMALL)
def test_small_models_partition_and_pass_check(name: str) -> None:
    module = parse_module((MODELS / f"{name}.mlir").read_text())
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # notes about ops without rules
        result = check(module, inputs=_arrays(name, "input"))
    assert len(result.outputs) == len(module.function("main").type.results)


@pytest.mark.parametrize("name", SMALL)
def test_per_device_program_receives_no_more_than_xla(name: str) -> None:
    module = parse_module((MODELS / f"{name}.mlir").read_text())
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        received = collective_costs(partition(module)).bytes_received
    assert received <= _xla(name)["bytes_received"]
