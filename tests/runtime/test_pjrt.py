"""`runtime.pjrt.run_on_devices`: partitioned programs on real XLA (CPU) devices.

The per-device programs of `shardonnay.partition` are compiled by XLA and
run on host devices; their results must be the simulator's (which runs the
same program on numpy) and the reference interpreter's (which runs the
unpartitioned program), within `compare_output`'s tolerance. Among them are
programs on meshes of different device counts and with values pinned to one
device, whose `collective_broadcast`s and groups padded with -1 reach XLA
rewritten by `runtime.xla_compat`; that rewrite is also checked on the
simulator, where the rewritten program must give every device the very bits
the original gives it.

XLA's CPU client has as many devices as `--xla_force_host_platform_device_count`
says when JAX is first imported, and other tests import JAX in this process
first, so the programs run in a fresh process: this file run as a script,
which prints one JSON object of comparisons.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import shardonnay
from shardonnay.errors import UnsupportedOpError
from shardonnay.mesh import Mesh
from shardonnay.ops.collectives import replica_groups
from shardonnay.runtime.devices import ManualDevices
from shardonnay.runtime.interpreter import random_inputs, run_devices
from shardonnay.runtime.numerics import compare_output
from shardonnay.runtime.simulator import device_count, device_inputs
from shardonnay.runtime.xla_compat import (
    broadcast_rounds,
    filled_groups,
    regrouping,
    xla_compatible,
)
from shardonnay.testing.partitioned_programs import (
    ON_TWO_MESHES,
    TWO_SIZES_ANNOTATED,
    two_mesh_program,
)
from shardonnay.testing.pinned_programs import PINNED_PROGRAMS, pinned_program

ROOT = Path(__file__).parent.parent.parent
CORPUS = ROOT / "tests" / "corpus"
MLP = ROOT / "examples" / "mlp.mlir"
CORPUS_NAMES = sorted(p.stem for p in CORPUS.glob("*.mlir"))
HOST_DEVICES = 64  # the random programs' meshes have up to 192 devices; most fit in 64
RANDOM_PROGRAMS = 20
RTOL = 1e-5
PINNED_SEEDS = range(40)  # random programs with pinned values; those on up to 8 devices run
MAX_PINNED_DEVICES = 8

SMALL = """
sdy.mesh @mesh = <["x"=4]>
func.func @main(%arg0: tensor<6xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>})
    -> (tensor<f32> {sdy.sharding = #sdy.sharding<@mesh, []>}) {
  %cst = stablehlo.constant dense<0.000000e+00> : tensor<f32>
  %0 = stablehlo.reduce(%arg0 init: %cst) applies stablehlo.add across dimensions = [0]
      : (tensor<6xf32>, tensor<f32>) -> tensor<f32>
  return %0 : tensor<f32>
}
"""


# Programs on meshes of different device counts and with values pinned to a
# device: their per-device programs have collective_broadcasts and groups of
# different sizes.
UNEVEN_PROGRAMS = {
    **{f"pinned_{name}": text for name, text in PINNED_PROGRAMS.items()},
    **{
        f"two_meshes_{name}": two_mesh_program(shape, small, "[{x}, {}]", body, result)
        for name, (shape, small, body, result) in ON_TWO_MESHES.items()
    },
    "meshes_of_3_and_8": TWO_SIZES_ANNOTATED,
}


def _collective(i: int, name: str, groups: list[list[int]], t: str, kind: str = "") -> str:
    """`%r<i>`: collective `name` of `%arg<i>` (of local type `t`) in `groups`
    (padded with -1 to one width), reducing by `kind` (all_reduce)."""
    width = max(len(g) for g in groups)
    padded = [g + [-1] * (width - len(g)) for g in groups]
    attributes = (
        f"channel_handle = #stablehlo.channel_handle<handle = {i + 1}, type = 1>, "
        f"replica_groups = dense<{padded}> : tensor<{len(groups)}x{width}xi64>"
    )
    if not kind:
        return (
            f'  %r{i} = "stablehlo.collective_broadcast"(%arg{i}) <{{{attributes}}}> : ({t}) -> {t}'
        )
    scalar = f"tensor<{t.split('x')[-1]}"
    return (
        f'  %r{i} = "stablehlo.all_reduce"(%arg{i}) <{{{attributes}, use_global_device_ids}}> ({{\n'
        f"  ^bb0(%a: {scalar}, %b: {scalar}):\n"
        f"    %s = stablehlo.{kind} %a, %b : {scalar}\n"
        f"    stablehlo.return %s : {scalar}\n"
        f"  }}) : ({t}) -> {t}"
    )


# A per-device program on 6 devices (each holding row `d` of every argument)
# whose collectives XLA cannot run as they are: all_reduces in groups of
# different sizes (evened out by regrouping the devices alone, or by devices
# contributing the reduction's identity) and collective_broadcasts (one with
# devices in no group, which receive zeros).
PADDED_COLLECTIVES = [
    ("all_reduce", [[0, 1, 2, 3], [4], [5]], "f32", "add"),
    ("all_reduce", [[0, 1], [2, 3], [4], [5]], "f32", "maximum"),
    ("all_reduce", [[0, 1, 2], [3, 4], [5]], "i32", "minimum"),
    ("all_reduce", [[0, 1, 2, 3, 4], [5]], "f32", "multiply"),
    ("all_reduce", [[1, 3, 5, 0], [2], [4]], "i1", "or"),
    ("all_reduce", [[0, 5], [2, 3], [1], [4]], "i32", "add"),
    ("collective_broadcast", [[0, 4], [1, 5], [2], [3]], "f32", ""),
    ("collective_broadcast", [[5, 0, 1, 2]], "f32", ""),
    ("collective_broadcast", [[3, 0, 1, 2, 4, 5]], "i1", ""),
]


def padded_groups_program() -> str:
    local = [f"tensor<1x4x{e}>" for _, _, e, _ in PADDED_COLLECTIVES]
    on_mesh = ' {sdy.sharding = #sdy.sharding<@mesh, [{"d"}, {}]>}'
    arguments = ", ".join(f"%arg{i}: {t}{on_mesh}" for i, t in enumerate(local))
    results = ", ".join(f"{t}{on_mesh}" for t in local)
    body = "\n".join(
        _collective(i, name, groups, t, kind)
        for i, ((name, groups, _, kind), t) in enumerate(
            zip(PADDED_COLLECTIVES, local, strict=True)
        )
    )
    returned = ", ".join(f"%r{i}" for i in range(len(local)))
    return (
        'sdy.mesh @mesh = <["d"=6]>\n'
        f"func.func @main({arguments}) -> ({results}) {{\n{body}\n"
        f"  return {returned} : {', '.join(local)}\n}}"
    )


def padded_groups_inputs(zeros_and_nan: bool = True) -> list[np.ndarray]:
    """Small nonzero integers (exact in every order of summation), with
    infinities among the floats, and -0.0 and NaN with `zeros_and_nan`.

    XLA's CPU all_reduce, given groups of one size, sums -0.0s to +0.0 and
    its maximum drops NaN, where StableHLO (and the simulator) keep them: on
    XLA the program runs without them."""
    rng = np.random.default_rng(7)
    out = []
    for _, _, element, _ in PADDED_COLLECTIVES:
        if element == "i1":
            out.append(rng.random((6, 4)) < 0.3)
            continue
        magnitudes = rng.integers(1, 4, size=(6, 4)) * rng.choice([-1, 1], size=(6, 4))
        x = magnitudes.astype(np.float32 if element == "f32" else np.int32)
        if element == "f32":
            x[2, 1], x[4, 2] = np.inf, -np.inf
        if element == "f32" and zeros_and_nan:
            x[:, 0], x[1, 3] = -0.0, np.nan
        out.append(x)
    return out


def identical(expected, got) -> bool:
    """Same dtype, shape and bits (NaN matching NaN)."""
    e, g = np.asarray(expected), np.asarray(got)
    if e.dtype != g.dtype or e.shape != g.shape:
        return False
    if e.dtype.kind == "f":
        nan = np.isnan(e)
        if not np.array_equal(nan, np.isnan(g)):
            return False
        e, g = np.where(nan, 0, e), np.where(nan, 0, g)
    return np.array_equal(
        np.ascontiguousarray(e).view(np.uint8), np.ascontiguousarray(g).view(np.uint8)
    )


def _comparisons(expected, got) -> list[str]:
    """The mismatching outputs of `got`, described (empty when all match)."""
    if len(expected) != len(got):
        return [f"{len(got)} outputs, expected {len(expected)}"]
    found = []
    for i, (e, g) in enumerate(zip(expected, got, strict=True)):
        c = compare_output(i, np.asarray(e), np.asarray(g), rtol=RTOL, atol=None)
        if not c.ok:
            found.append(f"output {i}: max abs error {c.max_abs_error:.3g}; {c.detail}")
    return found


def _check(module, local, inputs) -> dict:
    """The comparisons of one program, or the error it raised (so that one
    program that fails does not hide the others)."""
    from shardonnay.runtime.pjrt import run_on_devices

    try:
        on_devices = run_on_devices(local, *inputs)
        return {
            "outputs": len(on_devices),
            "vs_simulate": _comparisons(shardonnay.simulate(local, *inputs), on_devices),
            "vs_run": _comparisons(shardonnay.run(module, *inputs), on_devices),
        }
    except Exception as e:
        return {"error": f"{type(e).__name__}: {e}"}


def _partition(module):
    try:
        return shardonnay.partition(module), None
    except Exception as e:
        return None, {"error": f"partition: {type(e).__name__}: {e}"}


def _run_all() -> dict:
    """Runs the corpus and the random programs on XLA devices (in a process
    whose JAX sees `HOST_DEVICES` devices)."""
    from shardonnay.runtime.simulator import device_count
    from shardonnay.testing.program_generator import random_program_with_inputs

    corpus = {}
    for name in CORPUS_NAMES:
        module = shardonnay.parse_module((CORPUS / f"{name}.mlir").read_text())
        data = np.load(CORPUS / f"{name}.npz")
        inputs = [data[f"input{i}"] for i in range(len(module.function("main").type.inputs))]
        local, failed = _partition(module)
        corpus[name] = failed or _check(module, local, inputs)
    random, seed = {}, 0
    while len(random) < RANDOM_PROGRAMS:
        text, inputs = random_program_with_inputs(seed)
        module = shardonnay.parse_module(text)
        local, failed = _partition(module)
        if failed or device_count(local) <= HOST_DEVICES:
            random[seed] = failed or _check(module, local, inputs)
        seed += 1
    return {
        "corpus": corpus,
        "random": random,
        "uneven": _run_uneven(),
        "pinned_random": _run_pinned_random(),
        "padded_groups": _run_padded_groups(),
        "cli": _run_cli(),
        "peak": _run_peak(),
    }


def _run_uneven() -> dict:
    """The programs on meshes of different sizes and with pinned values."""
    out = {}
    for name, text in UNEVEN_PROGRAMS.items():
        module = shardonnay.parse_module(text)
        local, failed = _partition(module)
        out[name] = failed or _check(module, local, random_inputs(module, seed=1))
    return out


def _run_pinned_random() -> dict:
    """`test_maximal`'s random programs with pinned values that partition and
    run on at most `MAX_PINNED_DEVICES` devices."""
    out = {}
    for seed in PINNED_SEEDS:
        text = pinned_program(seed)
        if text is None:
            continue
        module = shardonnay.parse_module(text)
        local, failed = _partition(module)
        if failed is None and device_count(local) <= MAX_PINNED_DEVICES:
            out[seed] = _check(module, local, random_inputs(module, seed=seed))
    return out


def _run_padded_groups() -> dict:
    """Whether each result of the hand-written program with padded groups is,
    on XLA's devices, bit for bit the simulator's."""
    from shardonnay.runtime.pjrt import run_on_devices

    local = shardonnay.parse_module(padded_groups_program())
    inputs = padded_groups_inputs(zeros_and_nan=False)
    try:
        got = run_on_devices(local, *inputs)
    except Exception as e:
        return {"error": f"{type(e).__name__}: {e}"}
    expected = shardonnay.simulate(local, *inputs)
    return {"identical": [identical(e, g) for e, g in zip(expected, got, strict=True)]}


# Each device negates its 4x8 shard of f32 (128 B): XLA needs the argument and
# the result, nothing else.
NEGATE = """sdy.mesh @mesh = <["x"=4]>
func.func @main(%arg0: tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>})
    -> (tensor<16x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>}) {
  %0 = stablehlo.negate %arg0 : tensor<16x8xf32>
  return %0 : tensor<16x8xf32>
}"""


def _run_peak() -> dict:
    """`compiled_peak_memory` of the per-device programs of NEGATE and of the
    example MLP, beside their arguments' and results' bytes per device."""
    from shardonnay.runtime.pjrt import compiled_peak_memory

    out = {}
    for name, text in (("negate", NEGATE), ("mlp", MLP.read_text())):
        local = shardonnay.partition(shardonnay.parse_module(text))
        main = local.function("main").type
        sizes = [t.num_elements * np.dtype(t.dtype).itemsize for t in main.inputs + main.results]
        out[name] = {"peak": compiled_peak_memory(local), "arguments_and_results": sum(sizes)}
    return out


def _run_cli() -> dict:
    from shardonnay.cli import main

    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        status = main(["partition", str(MLP), "--devices"])
    lines = printed.getvalue().splitlines()
    return {"status": status, "comments": [line for line in lines if line.startswith("// ")]}


@pytest.fixture(scope="module")
def on_xla() -> dict:
    pytest.importorskip("jax")
    env = dict(os.environ, XLA_FLAGS=f"--xla_force_host_platform_device_count={HOST_DEVICES}")
    done = subprocess.run(
        [sys.executable, __file__], env=env, capture_output=True, text=True, cwd=ROOT
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.splitlines()[-1])


@pytest.mark.parametrize("name", CORPUS_NAMES)
def test_partitioned_corpus_program_runs_on_xla_devices_as_simulated(on_xla, name):
    result = on_xla["corpus"][name]
    assert "error" not in result, result["error"]
    assert result["outputs"] >= 1
    assert result["vs_simulate"] == []
    assert result["vs_run"] == []


def test_partitioned_random_programs_run_on_xla_devices_as_simulated(on_xla):
    results = on_xla["random"]
    assert len(results) == RANDOM_PROGRAMS
    bad = {
        seed: [r["error"]] if "error" in r else r["vs_simulate"] + r["vs_run"]
        for seed, r in results.items()
        if "error" in r or r["vs_simulate"] or r["vs_run"]
    }
    assert bad == {}


@pytest.mark.parametrize("name", sorted(UNEVEN_PROGRAMS))
def test_program_on_meshes_of_different_sizes_or_pinned_runs_on_xla_devices(on_xla, name):
    result = on_xla["uneven"][name]
    assert "error" not in result, result["error"]
    assert result["outputs"] >= 1
    assert result["vs_simulate"] == []
    assert result["vs_run"] == []


def test_random_programs_with_pinned_values_run_on_xla_devices_as_simulated(on_xla):
    results = on_xla["pinned_random"]
    assert len(results) >= 10
    bad = {
        seed: [r["error"]] if "error" in r else r["vs_simulate"] + r["vs_run"]
        for seed, r in results.items()
        if "error" in r or r["vs_simulate"] or r["vs_run"]
    }
    assert bad == {}


def test_padded_groups_and_broadcasts_give_the_simulators_bits_on_xla_devices(on_xla):
    result = on_xla["padded_groups"]
    assert "error" not in result, result["error"]
    assert result["identical"] == [True] * len(PADDED_COLLECTIVES)


def test_compiled_peak_memory_is_what_xla_allocates(on_xla):
    """An elementwise op keeps exactly its argument and result; a program
    never needs less than its arguments and results."""
    negate, mlp = on_xla["peak"]["negate"], on_xla["peak"]["mlp"]
    assert negate["arguments_and_results"] == 2 * 4 * 8 * 4
    assert negate["peak"] == negate["arguments_and_results"]
    assert mlp["peak"] >= mlp["arguments_and_results"]


def test_cli_partition_devices_compares_the_xla_run(on_xla):
    from shardonnay.runtime.simulator import device_count

    module = shardonnay.parse_module(MLP.read_text())
    count = device_count(shardonnay.partition(module))
    outputs = len(module.function("main").type.results)
    assert on_xla["cli"]["status"] == 0
    assert on_xla["cli"]["comments"][-1] == (
        f"// on {count} XLA devices: {outputs} of {outputs} outputs match the unpartitioned program"
    )


def test_xla_text_runs_the_device_program_in_a_manual_computation():
    pytest.importorskip("jax")
    from shardonnay.runtime.pjrt import xla_text
    from shardonnay.testing.mlir_oracle import jaxlib_asm

    local = shardonnay.partition(shardonnay.parse_module(SMALL))
    text = xla_text(local, 4)
    device_program, entry = text.split("func.func public @main")
    assert "func.func private @shardonnay_device_program(%arg0: tensor<3xf32>)" in device_program
    assert device_program.count("sdy.") == 1  # the partitions' mesh; no shardings
    assert 'sdy.mesh @shardonnay_partitions = <["p"=4]>' in device_program
    assert "stablehlo.all_reduce" in device_program
    # each partition's 3 elements are a slice of the 12 of @main; the scalar result is per partition
    assert (
        '(%arg0: tensor<12xf32> {sdy.sharding = #sdy.sharding<@shardonnay_partitions, [{"p"}]>})'
        in entry
    )
    assert 'manual_axes={"p"}' in entry and "call @shardonnay_device_program" in entry
    assert "mhlo.sharding" not in text
    assert "mhlo.num_partitions = 4 : i32" in text
    assert jaxlib_asm(text) == text


def test_too_few_devices_is_an_error_naming_the_flag():
    jax = pytest.importorskip("jax")
    from shardonnay.errors import DeviceUnavailableError
    from shardonnay.runtime.pjrt import run_on_devices

    local = shardonnay.partition(shardonnay.parse_module(SMALL))
    with pytest.raises(DeviceUnavailableError, match="xla_force_host_platform_device_count=4"):
        run_on_devices(local, np.arange(6, dtype=np.float32), devices=jax.devices()[:1])


def test_missing_jax_is_an_error(monkeypatch):
    from shardonnay.errors import DeviceUnavailableError
    from shardonnay.runtime.pjrt import run_on_devices

    monkeypatch.setitem(sys.modules, "jax", None)
    local = shardonnay.partition(shardonnay.parse_module(SMALL))
    with pytest.raises(DeviceUnavailableError, match=r"shardonnay\[jax\]"):
        run_on_devices(local, np.arange(6, dtype=np.float32))


# -- the rewrite for XLA, on the simulator ------------------------------------------------------


def _on_every_device(local, inputs) -> list[list[np.ndarray]]:
    """`results[d][r]`: result `r` of `local`'s `@main` on device `d`."""
    count, per_device = device_inputs(local, inputs)
    devices = ManualDevices(Mesh({"devices": count}), {}, ("devices",))
    return run_devices(local, devices, local.function("main").op.regions[0], per_device)


def _assert_runs_on_xla(module, devices: int) -> None:
    """No collective_broadcast; every group of a collective of one size, all
    of them naming each device once; each permute's sources and targets distinct."""
    for op in module.walk():
        assert op.name != "stablehlo.collective_broadcast"
        if "replica_groups" in op.attributes:
            array = np.asarray(op.attributes["replica_groups"].to_numpy())
            assert sorted(array.ravel().tolist()) == list(range(devices)), op.name
        if op.name == "stablehlo.collective_permute":
            pairs = replica_groups(op, "source_target_pairs")
            assert len({s for s, _ in pairs}) == len({t for _, t in pairs}) == len(pairs)


def _local_and_inputs(name: str):
    if name == "padded_groups":
        return shardonnay.parse_module(padded_groups_program()), padded_groups_inputs()
    module = shardonnay.parse_module(UNEVEN_PROGRAMS[name])
    return shardonnay.partition(module), random_inputs(module, seed=1)


@pytest.mark.parametrize("name", [*sorted(UNEVEN_PROGRAMS), "padded_groups"])
def test_rewritten_program_gives_every_device_the_same_bits(name):
    local, inputs = _local_and_inputs(name)
    devices = device_count(local)
    before = local.to_text()
    rewritten = xla_compatible(local, devices)
    assert local.to_text() == before
    _assert_runs_on_xla(rewritten, devices)
    original = _on_every_device(local, inputs)
    again = _on_every_device(rewritten, inputs)
    for d in range(devices):
        for r, (e, g) in enumerate(zip(original[d], again[d], strict=True)):
            assert identical(e, g), (d, r)


def test_a_sum_padded_by_identity_keeps_negative_zero():
    local = shardonnay.parse_module(padded_groups_program())
    rewritten = xla_compatible(local, 6)
    (sums, *_) = shardonnay.simulate(rewritten, *padded_groups_inputs())
    assert np.signbit(sums[:, 0]).all() and (sums[:, 0] == 0).all()


def _random_groups(rng: np.random.Generator, devices: int) -> list[list[int]]:
    order = rng.permutation(devices).tolist()
    cuts = sorted(
        rng.choice(np.arange(1, devices), size=rng.integers(0, devices - 1), replace=False)
    )
    return [order[a:b] for a, b in zip([0, *cuts], [*cuts, devices], strict=True)]


@pytest.mark.parametrize("seed", range(30))
def test_broadcast_rounds_reach_every_member_from_a_holder(seed):
    rng = np.random.default_rng(seed)
    groups = _random_groups(rng, int(rng.integers(2, 13)))
    rounds = broadcast_rounds(groups)
    holders = {g[0]: g[0] for g in groups}  # device -> the first member it got the value of
    for pairs in rounds:
        assert len({s for s, _ in pairs}) == len({t for _, t in pairs}) == len(pairs)
        for source, target in pairs:
            assert source in holders and target not in holders
        for source, target in pairs:
            holders[target] = holders[source]
    assert holders == {d: g[0] for g in groups for d in g}
    largest = max(len(g) for g in groups)
    assert len(rounds) == int(np.ceil(np.log2(largest)))


@pytest.mark.parametrize("seed", range(30))
def test_evened_groups_cover_every_device_once_and_keep_each_group(seed):
    rng = np.random.default_rng(seed)
    devices = int(rng.integers(2, 13))
    groups = _random_groups(rng, devices)
    several = [g for g in groups if len(g) > 1]
    if not several:
        assert regrouping(groups, devices) == []
        return
    plan = regrouping(groups, devices)
    if plan is not None:
        ((rows),) = plan
        assert all(sorted(g) in [sorted(r) for r in rows] for g in several)
        assert len({len(r) for r in rows}) == 1
        assert sorted(d for r in rows for d in r) == list(range(devices))
        return
    computed = []
    for rows, members in filled_groups(groups, devices):
        assert len({len(r) for r in rows}) == 1 and devices % len(rows[0]) == 0
        assert sorted(d for r in rows for d in r) == list(range(devices))
        active = [g for g in several if set(g) <= set(members)]
        assert sorted(d for g in active for d in g) == members
        for g in active:  # each active group in a row of its own
            (row,) = [r for r in rows if set(g) & set(r)]
            assert set(g) <= set(row) and not (set(row) - set(g)) & set(members)
        computed += active
    assert sorted(map(sorted, computed)) == sorted(map(sorted, several))


def test_a_padded_reduction_without_a_known_identity_is_unsupported():
    text = padded_groups_program().replace(
        "%s = stablehlo.add %a, %b : tensor<f32>", "%s = stablehlo.subtract %a, %b : tensor<f32>"
    )
    with pytest.raises(UnsupportedOpError, match="stablehlo.all_reduce.*no known identity"):
        xla_compatible(shardonnay.parse_module(text), 6)


def test_padded_groups_of_an_all_gather_are_unsupported():
    text = """
    sdy.mesh @mesh = <["d"=3]>
    func.func @main(%arg0: tensor<2xf32>) -> tensor<4xf32> {
      %0 = "stablehlo.all_gather"(%arg0) <{all_gather_dim = 0 : i64,
          channel_handle = #stablehlo.channel_handle<handle = 1, type = 1>,
          replica_groups = dense<[[0, 1], [2, -1]]> : tensor<2x2xi64>, use_global_device_ids}>
          : (tensor<2xf32>) -> tensor<4xf32>
      return %0 : tensor<4xf32>
    }
    """
    with pytest.raises(UnsupportedOpError, match="stablehlo.all_gather.*padded with -1"):
        xla_compatible(shardonnay.parse_module(text), 3)


if __name__ == "__main__":
    print(json.dumps(_run_all()))
