"""The partitioner and the simulator on valid programs that used to break them.

Each test partitions a small program written here, runs the per-device
program on every device (`check`, padding poisoned) and compares it with the
reference interpreter on the unpartitioned program.
"""

import itertools
import os
import time

import numpy as np
import pytest

import shardonnay
from shardonnay import parse_module
from shardonnay.cli import main
from shardonnay.errors import PartitionError
from shardonnay.ir.element_values import highest, lowest, poison, value_kind
from shardonnay.ir.types import ELEMENT_TYPES, is_complex, is_float, numpy_dtype
from shardonnay.partitioner.device_limit import ENVIRONMENT_VARIABLE
from shardonnay.partitioner.local.convert import convert_global_to_local
from shardonnay.partitioner.program import explicit_collectives
from shardonnay.runtime.check import check
from shardonnay.runtime.interpreter import run

MESH = 'sdy.mesh @mesh = <["x"=2, "y"=4]>\n'


def dims(axes_per_dim) -> str:
    return "[" + ", ".join("{" + ", ".join(f'"{a}"' for a in d) + "}" for d in axes_per_dim) + "]"


def tensor(shape, element_type: str = "f32") -> str:
    return "tensor<" + "".join(f"{n}x" for n in shape) + element_type + ">"


# -- reshapes whose shardings overflow a factor ---------------------------------------------------


def reshape_program(source, target, source_axes, target_axes) -> str:
    s, t = tensor(source), tensor(target)
    return MESH + (
        f"func.func @main(%arg0: {s} {{sdy.sharding = #sdy.sharding<@mesh, {dims(source_axes)}>}})"
        f" -> ({t} {{sdy.sharding = #sdy.sharding<@mesh, {dims(target_axes)}>}}) {{\n"
        f"  %0 = stablehlo.reshape %arg0 {{sdy.sharding = #sdy.sharding_per_value<[<@mesh, "
        f"{dims(target_axes)}>]>}} : ({s}) -> {t}\n"
        f"  return %0 : {t}\n}}"
    )


def test_a_rank_3_reshape_whose_sharding_overflows_is_partitioned() -> None:
    # 3x4x3 -> 36 with the result on {"y"}: "y" (4) overflows the first factor
    # (3) of the result's dim, so the projection has no entry for the factors
    # after it; dealing the axes again must still give each of them one.
    module = parse_module(reshape_program((3, 4, 3), (36,), [("x", "y"), (), ()], [("y",)]))
    result = check(module)
    assert result.ok
    assert result.local.function("main").type.results[0].shape == (9,)


OVERFLOWING_RESHAPES = [
    ((3, 4, 3), (36,)),
    ((2, 3, 4), (24,)),
    ((3, 4, 3), (12, 3)),
    ((4, 3, 2), (6, 4)),
    ((36,), (3, 4, 3)),
    ((2, 6, 2), (4, 6)),
]
AXES = [(), ("x",), ("y",), ("x", "y"), ("y", "x")]


def _shardings(rank: int):
    for axes in itertools.product(AXES, repeat=rank):
        used = [a for d in axes for a in d]
        if len(used) == len(set(used)):
            yield axes


def _sampled_reshapes(count: int):
    rng = np.random.default_rng(7)
    cases = [
        (source, target, a, b)
        for source, target in OVERFLOWING_RESHAPES
        for a in _shardings(len(source))
        for b in _shardings(len(target))
    ]
    for i in rng.choice(len(cases), size=count, replace=False):
        yield cases[i]


@pytest.mark.parametrize("case", list(_sampled_reshapes(24)), ids=str)
def test_reshapes_with_any_operand_and_result_sharding_compute_the_same(case) -> None:
    module = parse_module(reshape_program(*case))
    assert check(module, propagate=False).ok


# -- collectives after a value partial on another mesh --------------------------------------------


def test_a_collective_is_lowered_on_the_mesh_of_its_out_sharding() -> None:
    # The reduce's operand is split over "z" of @mesh_1 along the reduced dim,
    # so its result is partial there; the all_slice that follows names "x" of
    # @mesh, which @mesh_1 does not have.
    text = (
        'sdy.mesh @mesh = <["x"=2, "z"=4]>\nsdy.mesh @mesh_1 = <["z"=2, "w"=4]>\n'
        "func.func @main(%arg0: tensor<4x8xf32> "
        '{sdy.sharding = #sdy.sharding<@mesh_1, [{"z"}, {}]>})'
        ' -> (tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>}) {\n'
        "  %init = stablehlo.constant dense<0xFF800000> : tensor<f32>\n"
        "  %0 = stablehlo.reduce(%arg0 init: %init) applies stablehlo.maximum across "
        "dimensions = [0] {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{}]>]>} : "
        "(tensor<4x8xf32>, tensor<f32>) -> tensor<8xf32>\n"
        "  return %0 : tensor<8xf32>\n}"
    )
    module = parse_module(text)
    explicit = explicit_collectives(module, propagate=False)
    assert [op.name for op in explicit.function("main").body.ops].count("sdy.all_slice") == 1
    assert check(module, propagate=False).ok


# -- every element type ---------------------------------------------------------------------------


def _literal(element_type: str, value: float | bool) -> str:
    if element_type == "i1":
        return "true" if value else "false"
    if is_complex(element_type):
        return f"({float(value)}, 0.0)"
    return str(float(value)) if is_float(element_type) else str(int(value))


def _extreme(element_type: str, which) -> str:
    """The lowest or highest value of the type as MLIR literal text."""
    dtype = numpy_dtype(element_type)
    value = which(dtype)
    kind = value_kind(dtype)
    if kind == "c":
        part = np.dtype(f"f{dtype.itemsize // 2}")
        return f"({_float_bits(value.real, part)}, {_float_bits(value.imag, part)})"
    return _float_bits(value, dtype) if kind == "f" else _literal(element_type, value)


def _float_bits(value: float, dtype: np.dtype) -> str:
    bits = np.array(value, dtype=dtype).view(f"u{dtype.itemsize}").item()
    return f"0x{bits:0{2 * dtype.itemsize}X}"


def reduce_program(element_type: str, body: str, init: str, dim: int) -> str:
    """A reduce of a 6x3 value sharded 4 ways unevenly along dim 0 (6 = 2+2+2+0)."""
    t = element_type
    result = (3,) if dim == 0 else (6,)
    out_dims = "[{}]" if dim == 0 else '[{"y"}]'
    return MESH + (
        f"func.func @main(%arg0: {tensor((6, 3), t)} "
        '{sdy.sharding = #sdy.sharding<@mesh, [{"y"}, {}]>})'
        f" -> ({tensor(result, t)} {{sdy.sharding = #sdy.sharding<@mesh, {out_dims}>}}) {{\n"
        f"  %init = stablehlo.constant dense<{init}> : tensor<{t}>\n"
        f"  %0 = stablehlo.reduce(%arg0 init: %init) applies stablehlo.{body} across "
        f"dimensions = [{dim}] : ({tensor((6, 3), t)}, tensor<{t}>) -> {tensor(result, t)}\n"
        f"  return %0 : {tensor(result, t)}\n}}"
    )


def reshard_program(element_type: str) -> str:
    """Padded shards moved between dims: the padding slots are filled, then cut."""
    t = tensor((6, 3), element_type)
    return MESH + (
        f'func.func @main(%arg0: {t} {{sdy.sharding = #sdy.sharding<@mesh, [{{"y"}}, {{}}]>}})'
        f' -> ({t} {{sdy.sharding = #sdy.sharding<@mesh, [{{}}, {{"y"}}]>}}) {{\n'
        f'  %0 = sdy.reshard %arg0 <@mesh, [{{"x"}}, {{"y"}}]> : {t}\n'
        f"  return %0 : {t}\n}}"
    )


def dot_program(element_type: str) -> str:
    """A contraction over a dim sharded unevenly: partial sums, then all-reduced."""
    a, b, c = (tensor(s, element_type) for s in ((5, 6), (6, 3), (5, 3)))
    return MESH + (
        f'func.func @main(%arg0: {a} {{sdy.sharding = #sdy.sharding<@mesh, [{{"x"}}, {{"y"}}]>}},'
        f' %arg1: {b} {{sdy.sharding = #sdy.sharding<@mesh, [{{"y"}}, {{}}]>}})'
        f' -> ({c} {{sdy.sharding = #sdy.sharding<@mesh, [{{}}, {{"x"}}]>}}) {{\n'
        f"  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0] "
        f": ({a}, {b}) -> {c}\n"
        f"  return %0 : {c}\n}}"
    )


def _programs(element_type: str) -> dict[str, str]:
    t = element_type
    boolean = t == "i1"
    programs = {
        "max": reduce_program(t, "or" if boolean else "maximum", _extreme(t, lowest), 0),
        "min": reduce_program(t, "and" if boolean else "minimum", _extreme(t, highest), 1),
        "sum": reduce_program(t, "or" if boolean else "add", _literal(t, 0), 0),
        "reshard": reshard_program(t),
    }
    if not boolean:
        programs["dot"] = dot_program(t)
    return programs


TYPED_PROGRAMS = [(t, name) for t in ELEMENT_TYPES for name in _programs(t)]


@pytest.mark.parametrize(("element_type", "name"), TYPED_PROGRAMS)
def test_every_element_type_partitions_and_simulates(element_type: str, name: str) -> None:
    module = parse_module(_programs(element_type)[name])
    # check's default tolerance judges the per-device result against the
    # unpartitioned program's own rounding in its element type
    result = check(module)
    assert result.ok
    assert result.outputs[0].dtype == str(numpy_dtype(element_type))


@pytest.mark.parametrize("element_type", ELEMENT_TYPES)
def test_special_values_of_every_element_type(element_type: str) -> None:
    dtype = numpy_dtype(element_type)
    low, high = np.array(lowest(dtype), dtype), np.array(highest(dtype), dtype)
    values = np.array([0, 1], dtype)
    assert np.all(np.maximum(values, low) == values)
    assert np.all(np.minimum(values, high) == values)
    marked = np.array(poison(dtype), dtype)
    if value_kind(dtype) in "fc":
        assert np.isnan(marked)
    elif value_kind(dtype) in "iu":
        assert marked not in values


# -- zero-size tensors ----------------------------------------------------------------------------


def sharded(dims_text: str) -> str:
    return f"{{sdy.sharding = #sdy.sharding<@mesh, {dims_text}>}}"


ON_XY, ON_YX, ON_Y = sharded('[{"x"}, {"y"}]'), sharded('[{"y"}, {"x"}]'), sharded('[{"y"}, {}]')
EMPTY = f"%a: tensor<0x4xf32> {ON_XY}"
ZERO_SIZE_PROGRAMS = {
    "reduce": (
        f"func.func @main({EMPTY}) -> (tensor<0xf32>, tensor<4xf32>) {{\n"
        "  %init = stablehlo.constant dense<0.0> : tensor<f32>\n"
        "  %0 = stablehlo.reduce(%a init: %init) applies stablehlo.add across dimensions = [1]"
        " : (tensor<0x4xf32>, tensor<f32>) -> tensor<0xf32>\n"
        "  %1 = stablehlo.reduce(%a init: %init) applies stablehlo.add across dimensions = [0]"
        " : (tensor<0x4xf32>, tensor<f32>) -> tensor<4xf32>\n"
        "  return %0, %1 : tensor<0xf32>, tensor<4xf32>\n}"
    ),
    "max of nothing": (  # -inf on both sides is no difference
        f"func.func @main({EMPTY}) -> tensor<4xf32> {{\n"
        "  %init = stablehlo.constant dense<0xFF800000> : tensor<f32>\n"
        "  %0 = stablehlo.reduce(%a init: %init) applies stablehlo.maximum across dimensions = [0]"
        " : (tensor<0x4xf32>, tensor<f32>) -> tensor<4xf32>\n"
        "  return %0 : tensor<4xf32>\n}"
    ),
    "elementwise": (
        f"func.func @main({EMPTY}, %b: tensor<0x4xf32> {ON_Y})"
        " -> tensor<0x4xf32> {\n"
        "  %0 = stablehlo.add %a, %b : tensor<0x4xf32>\n"
        "  %1 = stablehlo.exponential %0 : tensor<0x4xf32>\n"
        "  return %1 : tensor<0x4xf32>\n}"
    ),
    "empty contraction": (
        f"func.func @main(%a: tensor<3x0xf32> {ON_XY},"
        f" %b: tensor<0x5xf32> {ON_Y}) -> tensor<3x5xf32> {{\n"
        "  %0 = stablehlo.dot_general %a, %b, contracting_dims = [1] x [0]"
        " : (tensor<3x0xf32>, tensor<0x5xf32>) -> tensor<3x5xf32>\n"
        "  return %0 : tensor<3x5xf32>\n}"
    ),
    "concatenate, pad, slice": (
        f"func.func @main({EMPTY}, %b: tensor<3x4xf32> {ON_Y})"
        " -> tensor<3x4xf32> {\n"
        "  %z = stablehlo.constant dense<1.0> : tensor<f32>\n"
        "  %0 = stablehlo.concatenate %a, %b, dim = 0"
        " : (tensor<0x4xf32>, tensor<3x4xf32>) -> tensor<3x4xf32>\n"
        "  %1 = stablehlo.pad %a, %z, low = [1, 0], high = [2, 0], interior = [0, 0]"
        " : (tensor<0x4xf32>, tensor<f32>) -> tensor<3x4xf32>\n"
        "  %2 = stablehlo.add %0, %1 : tensor<3x4xf32>\n"
        "  return %2 : tensor<3x4xf32>\n}"
    ),
    "reshard": (
        f"func.func @main({EMPTY}) -> (tensor<0x4xf32> {ON_YX}) {{\n"
        "  return %a : tensor<0x4xf32>\n}"
    ),
    "while": (
        f"func.func @main({EMPTY}) -> tensor<0x4xf32> {{\n"
        "  %c0 = stablehlo.constant dense<0> : tensor<i32>\n"
        "  %c3 = stablehlo.constant dense<3> : tensor<i32>\n"
        "  %c1 = stablehlo.constant dense<1> : tensor<i32>\n"
        "  %0:2 = stablehlo.while(%i = %c0, %x = %a) : tensor<i32>, tensor<0x4xf32>\n"
        "  cond {\n"
        "    %p = stablehlo.compare LT, %i, %c3 : (tensor<i32>, tensor<i32>) -> tensor<i1>\n"
        "    stablehlo.return %p : tensor<i1>\n"
        "  } do {\n"
        "    %n = stablehlo.add %i, %c1 : tensor<i32>\n"
        "    %y = stablehlo.add %x, %x : tensor<0x4xf32>\n"
        "    stablehlo.return %n, %y : tensor<i32>, tensor<0x4xf32>\n"
        "  }\n"
        "  return %0#1 : tensor<0x4xf32>\n}"
    ),
}


def test_the_interpreter_reduces_a_zero_size_tensor_along_either_dim() -> None:
    module = parse_module(MESH + ZERO_SIZE_PROGRAMS["reduce"])
    along_1, along_0 = run(module, np.zeros((0, 4), np.float32))
    assert along_1.shape == (0,)
    assert np.array_equal(along_0, np.zeros(4, np.float32))


@pytest.mark.parametrize("name", ZERO_SIZE_PROGRAMS)
def test_zero_size_tensors_partition_and_simulate(name: str) -> None:
    module = parse_module(MESH + ZERO_SIZE_PROGRAMS[name])
    result = check(module)
    assert result.ok
    results = module.function("main").type.results
    assert [o.shape for o in result.outputs] == [r.shape for r in results]


# -- meshes of many devices -----------------------------------------------------------------------


def mesh_program(x: int, y: int) -> str:
    return (
        f'sdy.mesh @mesh = <["x"={x}, "y"={y}]>\n'
        'func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>})'
        " -> tensor<8x8xf32> {\n"
        "  %0 = stablehlo.add %arg0, %arg0 : tensor<8x8xf32>\n"
        "  return %0 : tensor<8x8xf32>\n}"
    )


@pytest.mark.parametrize("size", [1000, 1_000_000])
def test_a_mesh_over_the_device_limit_is_rejected_up_front(size: int) -> None:
    module = parse_module(mesh_program(size, size))
    start = time.process_time()
    with pytest.raises(PartitionError, match=rf"{size * size} devices, more than the 1024"):
        shardonnay.partition(module)
    with pytest.raises(PartitionError, match="more than the 64"):
        convert_global_to_local(module, max_devices=64)
    assert time.process_time() - start < 5


def test_the_device_limit_can_be_raised(monkeypatch) -> None:
    module = parse_module(mesh_program(8, 16))  # 128 devices
    with pytest.raises(PartitionError, match="128 devices, more than the 100"):
        shardonnay.partition(module, max_devices=100)
    monkeypatch.setenv(ENVIRONMENT_VARIABLE, "100")
    with pytest.raises(PartitionError, match="more than the 100"):
        check(module)
    assert check(parse_module(mesh_program(2, 4))).ok
    local = shardonnay.partition(module, max_devices=128)
    assert local.function("main").type.inputs[0].shape == (1, 8)
    monkeypatch.setenv(ENVIRONMENT_VARIABLE, "many")
    with pytest.raises(PartitionError, match="not a number of devices"):
        shardonnay.partition(module)


def test_the_cli_says_how_to_raise_the_device_limit(tmp_path, capsys, monkeypatch) -> None:
    monkeypatch.delenv(ENVIRONMENT_VARIABLE, raising=False)  # unset again after the test
    path = tmp_path / "mesh.mlir"
    path.write_text(mesh_program(1000, 1000))
    assert main(["partition", str(path)]) == 1
    assert "--max-devices N" in capsys.readouterr().err
    path.write_text(mesh_program(8, 16))
    assert main(["partition", str(path), "--max-devices", "64"]) == 1
    assert "128 devices, more than the 64" in capsys.readouterr().err
    assert main(["partition", str(path), "--max-devices", "128"]) == 0
    assert ENVIRONMENT_VARIABLE not in os.environ  # the flag is no setting for what runs later
    assert main(["partition", str(path), "--max-devices", "128", "--simulate"]) == 0
