"""The corpus of real programs exported from JAX (tests/corpus, made by
scripts/export_corpus.py): every module reads, prints exactly as MLIR prints
it, round-trips, and runs to the numbers JAX computed."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from shardonnay import parse_module, run

CORPUS = Path(__file__).parent.parent / "corpus"
PROGRAMS = sorted(CORPUS.glob("*.mlir"))


def ids(paths: list[Path]) -> list[str]:
    return [p.stem for p in paths]


@pytest.mark.parametrize("path", PROGRAMS, ids=ids(PROGRAMS))
def test_round_trip_is_a_fixed_point(path: Path) -> None:
    text = parse_module(path.read_text()).to_text()
    assert parse_module(text).to_text() == text
    generic = parse_module(text).to_text(generic=True)
    assert parse_module(generic).to_text() == text


@pytest.mark.parametrize("path", PROGRAMS, ids=ids(PROGRAMS))
def test_prints_what_mlir_prints(path: Path) -> None:
    pytest.importorskip("jax")
    from shardonnay.testing.mlir_oracle import jaxlib_asm

    source = path.read_text()
    module = parse_module(source)
    assert module.to_text() == jaxlib_asm(source)
    assert module.to_text(generic=True) == jaxlib_asm(source, generic=True)


@pytest.mark.parametrize("path", PROGRAMS, ids=ids(PROGRAMS))
def test_runs_to_the_numbers_jax_computed(path: Path) -> None:
    expected = np.load(path.with_suffix(".npz"))
    inputs = [expected[f"input{i}"] for i in range(_count(expected, "input"))]
    outputs = run(parse_module(path.read_text()), *inputs)
    assert len(outputs) == _count(expected, "output")
    for i, got in enumerate(outputs):
        want = expected[f"output{i}"]
        assert got.shape == want.shape and got.dtype == want.dtype, (i, got.dtype, want.dtype)
        if np.issubdtype(want.dtype, np.floating):
            np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5, err_msg=f"output {i}")
        else:
            np.testing.assert_array_equal(got, want, err_msg=f"output {i}")


def _count(archive, prefix: str) -> int:
    return sum(1 for k in archive.files if k.startswith(prefix))
