"""ONNX sharding specs at scale: stacks of attention blocks (each layer's
Q/K/V weights annotated, the model input split by batch) on 4 devices.

For each depth: the time to check the partial model with the formalism's
rules, to complete it by propagation (`infer`), to check the completed
model, and to run it device by device (`run_per_device`, numpy), with the
largest difference from onnxruntime over every tensor.

    python benchmarks/onnx_inference.py [--layers 1,4,16,64] [--run-up-to 16]
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from shardonnay.interop.onnx.checker import check_model
from shardonnay.interop.onnx.execution import run_per_device
from shardonnay.interop.onnx.inference import infer
from shardonnay.testing.onnx_models import onnxruntime_values, random_inputs, transformer_stack


def seconds(fn):
    start = time.perf_counter()
    result = fn()
    return result, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--layers", default="1,4,16,64", help="depths, comma-separated")
    parser.add_argument(
        "--run-up-to", type=int, default=16, help="run device by device up to this depth"
    )
    args = parser.parse_args()
    header = (
        f"{'layers':>6} {'nodes':>6} {'check':>8} {'infer':>8} {'check':>8} "
        f"{'per-device run':>15} {'max |diff| vs onnxruntime':>27} {'invalid':>8}"
    )
    print(header)
    print(f"{'':>6} {'':>6} {'partial':>8} {'':>8} {'complete':>8}")
    for layers in (int(n) for n in args.layers.split(",")):
        model = transformer_stack(layers)
        _, t_check = seconds(lambda m=model: check_model(m))
        done, t_infer = seconds(lambda m=model: infer(m))
        findings, t_check_done = seconds(lambda d=done: check_model(d.model))
        invalid = sum(f.severity == "invalid" for f in findings)
        run_text, diff_text = "-", "-"
        if layers <= args.run_up_to:
            inputs = random_inputs(done.model)
            run, t_run = seconds(lambda d=done, x=inputs: run_per_device(d.model, x))
            expected = onnxruntime_values(done.model, inputs)
            diff = max(float(np.max(np.abs(run.values[k] - v))) for k, v in expected.items())
            run_text, diff_text = f"{t_run:.2f} s", f"{diff:.1e}"
        print(
            f"{layers:>6} {len(model.graph.node):>6} {t_check:>7.2f}s {t_infer:>7.2f}s "
            f"{t_check_done:>7.2f}s {run_text:>15} {diff_text:>27} {invalid:>8}"
        )


if __name__ == "__main__":
    main()
