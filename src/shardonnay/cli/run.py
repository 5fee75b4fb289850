"""`shardonnay run`: run a function with the reference interpreter on random inputs."""

from __future__ import annotations

import argparse
import hashlib
from collections.abc import Sequence

import numpy as np

from shardonnay.cli.inputs import read_input, seed
from shardonnay.ir.verifier import verify
from shardonnay.runtime.interpreter import random_inputs, run
from shardonnay.syntax.mlir_reader import parse_module


def add_arguments(run: argparse.ArgumentParser) -> None:
    """The arguments of `shardonnay run` (its one-line help is in `cli.COMMANDS`)."""
    run.description = (
        "Run a function of an MLIR program with the reference interpreter on random "
        "inputs (normal floats, small integers) and print each output's shape, dtype, "
        "sum and a hash of its bytes."
    )
    run.add_argument("input", help="the program file ('-' for stdin)")
    run.add_argument("--seed", type=seed, default=0, help="seed of the random inputs (>= 0)")
    run.add_argument("--func", default="main", help="the function to run (default: main)")
    run.set_defaults(run=run_program)


def run_program(args: argparse.Namespace) -> int:
    text, source = read_input(args.input)
    module = parse_module(text, source)
    verify(module)
    inputs = random_inputs(module, seed=args.seed, func=args.func)
    with np.errstate(all="ignore"):
        outputs = run(module, *inputs, func=args.func)
    print(format_outputs(outputs))
    return 0


def format_outputs(outputs: Sequence) -> str:
    """A table of outputs: index, shape, dtype, sum and a hash of the bytes.

    >>> import numpy as np
    >>> print(format_outputs([np.arange(6, dtype=np.float32).reshape(2, 3), np.int32(7)]))
    output  shape   dtype    sum           sha256
    0       (2, 3)  float32  1.500000e+01  e2c0a71510b5
    1       ()      int32    7             e8613f5a5bc9
    """
    rows = [("output", "shape", "dtype", "sum", "sha256")]
    for i, value in enumerate(outputs):
        array = np.asarray(value)  # (ascontiguousarray would make a scalar 1-d)
        if array.dtype.kind in "fc":
            total = array.sum(dtype=np.complex128 if array.dtype.kind == "c" else np.float64)
            sum_text = f"{total:.6e}"
        else:
            sum_text = str(int(array.astype(np.int64).sum()))
        digest = hashlib.sha256(np.ascontiguousarray(array).tobytes()).hexdigest()[:12]
        rows.append((str(i), str(array.shape), str(array.dtype), sum_text, digest))
    widths = [max(len(row[c]) for row in rows) for c in range(len(rows[0]))]
    return "\n".join(
        "  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip()
        for row in rows
    )
