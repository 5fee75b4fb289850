"""How long big `dense<[...]>` literals take to read, and to reject.

    python benchmarks/literals.py [--megabytes 10]

For each element type, a list literal of about `--megabytes` of text is read
as the constant of a program, then read again with a type of one element
more (rejected: `inferred shape of elements literal ... does not match`),
and with its middle element malformed (rejected: `expected a floating point
literal, found '1.5q'`, or an integer element).
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from shardonnay.errors import ParseError
from shardonnay.syntax.mlir_reader import parse_module


def program(body: str, type: str) -> str:
    return (
        f"func.func @main() -> {type} {{\n  %0 = stablehlo.constant dense<{body}> : {type}\n"
        f"  return %0 : {type}\n}}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--megabytes", type=float, default=10.0)
    args = parser.parse_args()
    rng = np.random.default_rng(0)
    print(
        "| element | elements | text | read | rejected (one element short) "
        "| rejected (one malformed element) |"
    )
    print("|---|---:|---:|---:|---:|---:|")
    for element, write, width in [
        ("f32", lambda v: f"{v:.8e}", 16),
        ("bf16", lambda v: f"{v:.3e}", 11),
        ("i32", lambda v: str(int(v * 1000)), 7),
        ("i8", lambda v: str(int(v * 40) % 128), 5),
    ]:
        n = int(args.megabytes * 1e6 / width)
        elements = list(map(write, rng.standard_normal(n).tolist()))
        body = "[" + ", ".join(elements) + "]"
        start = time.perf_counter()
        parse_module(program(body, f"tensor<{n}x{element}>"))
        read = time.perf_counter() - start
        start = time.perf_counter()
        try:
            parse_module(program(body, f"tensor<{n + 1}x{element}>"))
            raise SystemExit("a literal one element short was accepted")
        except ParseError:
            rejected = time.perf_counter() - start
        elements[n // 2] = "1.5q"
        malformed = "[" + ", ".join(elements) + "]"
        start = time.perf_counter()
        try:
            parse_module(program(malformed, f"tensor<{n}x{element}>"))
            raise SystemExit("a literal with a malformed element was accepted")
        except ParseError:
            bad_element = time.perf_counter() - start
        print(
            f"| {element} | {n:,} | {len(body) / 1e6:.1f} MB | {read:.2f} s | {rejected:.2f} s "
            f"| {bad_element:.2f} s |"
        )


if __name__ == "__main__":
    main()
