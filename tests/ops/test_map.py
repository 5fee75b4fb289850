"""`stablehlo.map` end to end, each facet against the real thing.

Syntax and the verifier against jaxlib's MLIR (its printer, its verdicts on
valid and invalid maps), the interpreter's numbers against XLA's (the
unpartitioned program compiled and run by XLA), the traits and the missing
sharding rule against Shardy (`sdy-populate-op-sharding-rules`, the
propagation pipeline), and the partitioned program against the reference
interpreter through `shardonnay.layout` (the simulator), bit for bit.
"""

from __future__ import annotations

import numpy as np
import pytest

import shardonnay
from shardonnay.errors import IRError
from shardonnay.ir.verifier import verify
from shardonnay.ops.rules import populate_rules, rule_for
from shardonnay.ops.traits import ELEMENTWISE, RECURSIVE_EFFECTS, has_trait, is_elementwise
from shardonnay.partitioner.analysis.cost import collective_costs
from shardonnay.runtime.interpreter import Interpreter, random_inputs, run
from shardonnay.syntax.mlir_reader import parse_module


def _map(
    body: str,
    *,
    shape: str = "4x8",
    element: str = "f32",
    result: str = "f32",
    operands: int = 2,
    dims: str = "0, 1",
    args: tuple[str, ...] | None = None,
) -> str:
    """A module whose `@main` maps `body` on its `operands` arguments; the
    body's arguments (`%x`, `%y`, ...) are of types `args` (by default one
    scalar per operand)."""
    t = f"tensor<{shape}x{element}>" if shape else f"tensor<{element}>"
    r = f"tensor<{shape}x{result}>" if shape else f"tensor<{result}>"
    args = args or (f"tensor<{element}>",) * operands
    names = ("%x", "%y", "%z")[: len(args)]
    block = ", ".join(f"{n}: {a}" for n, a in zip(names, args, strict=True))
    params = ", ".join(f"%a{i}: {t}" for i in range(operands))
    values = ", ".join(f"%a{i}" for i in range(operands))
    types = ", ".join([t] * operands)
    dimensions = f"array<i64: {dims}>" if dims else "array<i64>"
    return f"""func.func @main({params}) -> {r} {{
  %0 = "stablehlo.map"({values}) <{{dimensions = {dimensions}}}> ({{
  ^bb0({block}):
    {body}
  }}) : ({types}) -> {r}
  return %0 : {r}
}}"""


_FMA = (
    "%1 = stablehlo.multiply %x, %y : tensor<f32>\n"
    "    %2 = stablehlo.maximum %1, %x : tensor<f32>\n"
    "    stablehlo.return %2 : tensor<f32>"
)
_INTEGER = (
    "%1 = stablehlo.multiply %x, %y : tensor<i32>\n"
    "    %c = stablehlo.constant dense<7> : tensor<i32>\n"
    "    %2 = stablehlo.remainder %1, %c : tensor<i32>\n"
    "    %3 = stablehlo.compare GT, %2, %x, SIGNED : (tensor<i32>, tensor<i32>) -> tensor<i1>\n"
    "    %4 = stablehlo.select %3, %2, %y : tensor<i1>, tensor<i32>\n"
    "    stablehlo.return %4 : tensor<i32>"
)
# Not elementwise inside: the body broadcasts its scalar and reduces it (runs per element).
_PER_ELEMENT = (
    "%b = stablehlo.broadcast_in_dim %x, dims = [] : (tensor<i32>) -> tensor<3xi32>\n"
    "    %i = stablehlo.iota dim = 0 : tensor<3xi32>\n"
    "    %m = stablehlo.multiply %b, %i : tensor<3xi32>\n"
    "    %c = stablehlo.constant dense<0> : tensor<i32>\n"
    "    %s = stablehlo.reduce(%m init: %c) applies stablehlo.add across dimensions = [0]"
    " : (tensor<3xi32>, tensor<i32>) -> tensor<i32>\n"
    "    %r = stablehlo.add %s, %y : tensor<i32>\n"
    "    stablehlo.return %r : tensor<i32>"
)
_TO_BOOL = (
    "%1 = stablehlo.compare LT, %x, %y, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>\n"
    "    stablehlo.return %1 : tensor<i1>"
)

PROGRAMS = {
    "float": _map(_FMA),
    "integer": _map(_INTEGER, element="i32", result="i32"),
    "per_element": _map(_PER_ELEMENT, element="i32", result="i32"),
    "to_bool": _map(_TO_BOOL, result="i1"),
    "rank_0": _map("stablehlo.return %y : tensor<f32>", shape="", dims=""),
    "one_operand": _map(
        "%1 = stablehlo.negate %x : tensor<f32>\n    stablehlo.return %1 : tensor<f32>",
        operands=1,
        shape="3x2x5",
        dims="0, 1, 2",
    ),
    "empty": _map(_FMA, shape="0x8"),
}


# -- syntax --------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_map_reads_and_prints_as_jaxlib(name: str) -> None:
    pytest.importorskip("jax")
    from shardonnay.testing.mlir_oracle import assert_text_as_jaxlib

    assert_text_as_jaxlib(PROGRAMS[name])


def test_a_map_with_a_sharding_and_a_value_from_above_prints_as_jaxlib() -> None:
    pytest.importorskip("jax")
    from shardonnay.testing.mlir_oracle import assert_text_as_jaxlib

    assert_text_as_jaxlib(_ANNOTATED)
    assert_text_as_jaxlib(_FROM_ABOVE)


# -- the verifier --------------------------------------------------------------------------------

_RESHAPE_BODY = (
    "%1 = stablehlo.reshape %x : (tensor<1xf32>) -> tensor<f32>\n"
    "    stablehlo.return %1 : tensor<f32>"
)
_INVALID = {
    "dimensions out of order": _map(_FMA, dims="1, 0"),
    "dimensions not all": _map(_FMA, dims="0"),
    "dimensions too many": _map(_FMA, dims="0, 1, 2"),
    "dimensions with a gap": _map(_FMA, dims="0, 2"),
    "operand shapes differ": _map(_FMA)
    .replace("%a1: tensor<4x8xf32>", "%a1: tensor<4x4xf32>")
    .replace("(tensor<4x8xf32>, tensor<4x8xf32>) ->", "(tensor<4x8xf32>, tensor<4x4xf32>) ->"),
    "result shape differs": _map(_FMA)
    .replace("-> tensor<4x8xf32>", "-> tensor<8x4xf32>")
    .replace("return %0 : tensor<4x8xf32>", "return %0 : tensor<8x4xf32>"),
    "body argument not rank 0": _map(_RESHAPE_BODY, operands=1, args=("tensor<1xf32>",)),
    "body argument element type": _map(
        "stablehlo.return %x : tensor<f32>", args=("tensor<f32>", "tensor<i32>")
    ),
    "body takes too few arguments": _map(
        "stablehlo.return %x : tensor<f32>", args=("tensor<f32>",)
    ),
    "body returns two values": _map("stablehlo.return %x, %y : tensor<f32>, tensor<f32>"),
    "body returns rank 1": _map(
        "%1 = stablehlo.reshape %x : (tensor<f32>) -> tensor<1xf32>\n"
        "    stablehlo.return %1 : tensor<1xf32>"
    ),
    "result element type": _map(_FMA, result="f16"),
    "no operands": """func.func @main() -> tensor<4xf32> {
  %0 = "stablehlo.map"() <{dimensions = array<i64: 0>}> ({
    %c = stablehlo.constant dense<1.0> : tensor<f32>
    stablehlo.return %c : tensor<f32>
  }) : () -> tensor<4xf32>
  return %0 : tensor<4xf32>
}""",
    "no dimensions": _map(_FMA).replace(" <{dimensions = array<i64: 0, 1>}>", ""),
}


def _ours_accepts(text: str) -> bool:
    try:
        verify(parse_module(text))
    except IRError:
        return False
    return True


@pytest.mark.parametrize("name", sorted(_INVALID))
def test_the_verifier_rejects_what_jaxlib_rejects(name: str) -> None:
    pytest.importorskip("jax")
    from shardonnay.testing.mlir_oracle import jaxlib_accepts

    text = _INVALID[name]
    assert not jaxlib_accepts(text)
    assert not _ours_accepts(text)


def test_the_verifier_accepts_what_jaxlib_accepts() -> None:
    pytest.importorskip("jax")
    from shardonnay.testing.mlir_oracle import jaxlib_accepts

    for text in (*PROGRAMS.values(), _ANNOTATED, _FROM_ABOVE):
        assert jaxlib_accepts(text) and _ours_accepts(text)


@pytest.mark.parametrize(
    ("name", "message"),
    [
        (
            "operand shapes differ",
            "in @main, op 0 (stablehlo.map): stablehlo.map: operand 1 is tensor<4x4xf32> but "
            "operand 0 is tensor<4x8xf32>: the operands and the result of a map have one shape",
        ),
        (
            "body argument element type",
            "in @main, op 0 (stablehlo.map): stablehlo.map: argument 1 of the body is "
            "tensor<i32>, not tensor<f32> (a rank-0 tensor of the element type of operand 1)",
        ),
        (
            "dimensions not all",
            "in @main, op 0 (stablehlo.map): stablehlo.map: dimensions [0] name 1 of the "
            "operands' 2 dimensions; a map applies to every dimension",
        ),
        (
            "result element type",
            "in @main, op 0 (stablehlo.map): result types (tensor<4x8xf16>) differ from the "
            "inferred (tensor<4x8xf32>)",
        ),
    ],
)
def test_a_broken_map_says_where_and_why(name: str, message: str) -> None:
    with pytest.raises(IRError) as e:
        verify(parse_module(_INVALID[name]))
    assert str(e.value) == message


# -- semantics -----------------------------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_the_interpreter_computes_what_xla_computes(name: str) -> None:
    """Bit for bit: no body here has an `a * b + c` that XLA would fuse into
    one rounding."""
    pytest.importorskip("jax")
    from shardonnay.runtime.pjrt import run_on_devices

    module = parse_module(PROGRAMS[name])
    inputs = random_inputs(module, seed=3)
    (ours,) = run(module, *inputs)
    (xla,) = run_on_devices(module, *inputs)
    assert ours.dtype == xla.dtype and ours.shape == xla.shape
    np.testing.assert_array_equal(ours, xla)


def test_a_body_sees_values_defined_above_the_map() -> None:
    module = parse_module(_FROM_ABOVE)
    x = np.arange(8, dtype=np.float32).reshape(2, 4)
    (got,) = run(module, x, np.float32(0.5))
    np.testing.assert_array_equal(got, x * np.float32(0.5) + np.float32(1.0))


def test_a_body_that_is_not_elementwise_runs_per_element() -> None:
    """Run on whole arrays, this body's broadcast and reduce would mix
    elements; per element, each result is `3x + y` (x * (0 + 1 + 2) + y)."""
    module = parse_module(PROGRAMS["per_element"])
    x = np.arange(32, dtype=np.int32).reshape(4, 8)
    y = np.full((4, 8), 5, np.int32)
    (got,) = run(module, x, y)
    np.testing.assert_array_equal(got, 3 * x + y)


@pytest.mark.parametrize(("name", "runs"), [("float", 0), ("integer", 0), ("per_element", 32)])
def test_a_body_runs_on_whole_arrays_when_elementwise(name: str, runs: int, monkeypatch) -> None:
    """A body of elementwise ops (and constants) is evaluated op by op on the
    whole operands, never element by element; any other runs per element."""
    module = parse_module(PROGRAMS[name])
    (op,) = [op for op in module.walk() if op.name == "stablehlo.map"]
    bodies = []
    run_region = Interpreter.run_region

    def counted(self, region, args, env):
        bodies.append(region is op.regions[0])
        return run_region(self, region, args, env)

    monkeypatch.setattr(Interpreter, "run_region", counted)
    inputs = random_inputs(module, seed=0)
    run(module, *inputs)
    assert sum(bodies) == runs


# -- traits and the sharding rule, as Shardy ------------------------------------------------------


def test_a_map_has_recursive_effects_and_is_not_elementwise() -> None:
    """StableHLO declares `RecursiveMemoryEffects` on map, not MLIR's
    `Elementwise` (which Shardy's `isElementwise` asks)."""
    op = parse_module(PROGRAMS["float"]).functions[0].body.ops[0]
    assert has_trait(op, RECURSIVE_EFFECTS)
    assert not has_trait(op, ELEMENTWISE) and not is_elementwise(op)
    assert rule_for(op) is None


def test_a_map_has_no_sharding_rule_in_shardy_either() -> None:
    pytest.importorskip("jax")
    from shardonnay.testing.mlir_oracle import run_pass_pipeline

    pipeline = "builtin.module(func.func(sdy-populate-op-sharding-rules))"
    theirs = run_pass_pipeline(_PROPAGATED["through"], pipeline)
    assert "sdy.sharding_rule" in theirs  # the ops around and inside the map have rules
    assert populate_rules(parse_module(_PROPAGATED["through"])).to_text() == theirs


_PROPAGATED = {
    # an operand sharded: nothing passes the map
    "through": """sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @main(%a: tensor<4x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>},
                %b: tensor<4x8xf32>) -> tensor<4x8xf32> {
  %n = stablehlo.negate %a : tensor<4x8xf32>
  %0 = "stablehlo.map"(%n, %b) <{dimensions = array<i64: 0, 1>}> ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %1 = stablehlo.multiply %x, %y : tensor<f32>
    stablehlo.return %1 : tensor<f32>
  }) : (tensor<4x8xf32>, tensor<4x8xf32>) -> tensor<4x8xf32>
  %2 = stablehlo.exponential %0 : tensor<4x8xf32>
  return %2 : tensor<4x8xf32>
}""",
    # a map of a constant, used twice: no constant expression (the constant is
    # split, not the map); the map's result is sharded by its users; an unused
    # map goes
    "constants": """sdy.mesh @mesh = <["x"=2]>
func.func @main(%a: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>})
    -> (tensor<8xf32>, tensor<8xf32>) {
  %c = stablehlo.constant dense<2.0> : tensor<8xf32>
  %0 = "stablehlo.map"(%c) <{dimensions = array<i64: 0>}> ({
  ^bb0(%x: tensor<f32>):
    %1 = stablehlo.multiply %x, %x : tensor<f32>
    stablehlo.return %1 : tensor<f32>
  }) : (tensor<8xf32>) -> tensor<8xf32>
  %u = "stablehlo.map"(%a) <{dimensions = array<i64: 0>}> ({
  ^bb0(%x: tensor<f32>):
    stablehlo.return %x : tensor<f32>
  }) : (tensor<8xf32>) -> tensor<8xf32>
  %r = stablehlo.add %0, %a : tensor<8xf32>
  %s = stablehlo.multiply %0, %a : tensor<8xf32>
  return %r, %s : tensor<8xf32>, tensor<8xf32>
}""",
    # an unused map whose body has an effect stays
    "effects": """sdy.mesh @mesh = <["x"=2]>
func.func @main(%a: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>})
    -> tensor<8xf32> {
  %u = "stablehlo.map"(%a) <{dimensions = array<i64: 0>}> ({
  ^bb0(%x: tensor<f32>):
    stablehlo.custom_call @effect() {has_side_effect = true} : () -> ()
    stablehlo.return %x : tensor<f32>
  }) : (tensor<8xf32>) -> tensor<8xf32>
  return %a : tensor<8xf32>
}""",
}


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("name", sorted(_PROPAGATED))
def test_propagation_around_a_map_matches_shardy(name: str) -> None:
    pytest.importorskip("jax")
    from shardonnay.testing.mlir_oracle import run_pass_pipeline

    text = _PROPAGATED[name]
    theirs = run_pass_pipeline(text, "builtin.module(sdy-propagation-pipeline)")
    assert shardonnay.propagate(parse_module(text)).to_text() == theirs
    maps = theirs.count('"stablehlo.map"')
    assert maps == {"through": 1, "constants": 1, "effects": 1}[name]


# -- partitioning --------------------------------------------------------------------------------

# Operands and result sharded alike: each device maps its own shards.
_ANNOTATED = """sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @main(%a: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>},
                %b: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>})
    -> (tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}) {
  %0 = "stablehlo.map"(%a, %b) <{dimensions = array<i64: 0, 1>}> ({
  ^bb0(%x: tensor<f32>, %y: tensor<f32>):
    %1 = stablehlo.multiply %x, %y : tensor<f32>
    %2 = stablehlo.maximum %1, %x : tensor<f32>
    stablehlo.return %2 : tensor<f32>
  }) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {"y"}]>]>}
    : (tensor<8x8xf32>, tensor<8x8xf32>) -> tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}"""

_FROM_ABOVE = """func.func @main(%a: tensor<2x4xf32>, %s: tensor<f32>) -> tensor<2x4xf32> {
  %one = stablehlo.constant dense<1.0> : tensor<f32>
  %0 = "stablehlo.map"(%a) <{dimensions = array<i64: 0, 1>}> ({
  ^bb0(%x: tensor<f32>):
    %1 = stablehlo.multiply %x, %s : tensor<f32>
    %2 = stablehlo.add %1, %one : tensor<f32>
    stablehlo.return %2 : tensor<f32>
  }) : (tensor<2x4xf32>) -> tensor<2x4xf32>
  return %0 : tensor<2x4xf32>
}"""


def _partitioned_equals_reference(text: str) -> shardonnay.Module:
    """The partitioned program, after checking that the devices' results,
    put together by `shardonnay.layout`, are the reference's, bit for bit."""
    module = parse_module(text)
    local = shardonnay.partition(module)
    for seed in range(3):
        inputs = random_inputs(module, seed=seed)
        for ours, reference in zip(
            shardonnay.simulate(local, *inputs), run(module, *inputs), strict=True
        ):
            np.testing.assert_array_equal(ours, reference)
    shardonnay.check(module)
    return local


def test_a_map_sharded_alike_runs_on_each_devices_shards(monkeypatch) -> None:
    """Its row in the lowering table keeps the map local: the two operands are
    no longer gathered (4 all_gathers, 384 bytes into the busiest device)."""
    from shardonnay.partitioner.local import dispatch

    local = _partitioned_equals_reference(_ANNOTATED)
    (op,) = [op for op in local.walk() if op.name == "stablehlo.map"]
    assert [v.type.shape for v in op.operands] == [(4, 4), (4, 4)]
    moved = collective_costs(local).bytes_received

    monkeypatch.delitem(dispatch.LOWERINGS, "stablehlo.map")
    gathered = _partitioned_equals_reference(_ANNOTATED)
    assert (moved, collective_costs(gathered).bytes_received) == (0, 384)


_B = "%b: tensor<8x8xf32>"


@pytest.mark.parametrize(
    "change",
    [
        # uneven shards
        ("8x8xf32", "7x8xf32"),
        # the result sharded otherwise than the operands
        ('per_value<[<@mesh, [{"x"}, {"y"}]>]>', 'per_value<[<@mesh, [{"y"}, {}]>]>'),
        # one operand replicated
        ('%b: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>}', _B),
    ],
    ids=["uneven", "result_elsewhere", "operand_replicated"],
)
def test_a_map_sharded_otherwise_partitions_exactly(change: tuple[str, str]) -> None:
    _partitioned_equals_reference(_ANNOTATED.replace(*change))


@pytest.mark.filterwarnings("ignore::UserWarning")
@pytest.mark.parametrize("name", ["through", "constants"])
def test_propagated_programs_with_a_map_partition_exactly(name: str) -> None:
    _partitioned_equals_reference(_PROPAGATED[name])
