"""`implicit_communication`: the ops of a global program with explicit
collectives that still need communication, found on hand-written programs and
on what Shardy's own partitioner leaves in the corpus programs."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from shardonnay.errors import IRError
from shardonnay.partitioner.analysis.cost import collective_costs
from shardonnay.partitioner.analysis.implicit import implicit_communication
from shardonnay.partitioner.program import explicit_collectives, partition
from shardonnay.syntax.mlir_reader import parse_module

CORPUS = Path(__file__).parent.parent / "corpus"
SHARDY_PARTITIONER = (
    "builtin.module(sdy-propagation-pipeline, "
    "func.func(sdy-insert-explicit-reshards{enable-full-version=true}), "
    "func.func(sdy-reshard-to-collectives))"
)

MESHES = """
sdy.mesh @pinned = <[], device_ids=[3]>
sdy.mesh @mesh = <["x"=2, "y"=4]>
sdy.mesh @flat = <["i"=8]>
sdy.mesh @other = <["a"=4, "b"=2]>
"""


def _found(body: str, args: str, results: str) -> list[str]:
    module = parse_module(f"{MESHES}\nfunc.func @main({args}) -> ({results}) {{\n{body}\n}}")
    return [f"{f.op}: {f.reason}" for f in implicit_communication(module)]


def _sharded(spec: str, shape: str = "8x16") -> str:
    return f"tensor<{shape}xf32> {{sdy.sharding = #sdy.sharding<{spec}>}}"


def _per_value(spec: str) -> str:
    return f"{{sdy.sharding = #sdy.sharding_per_value<[{spec}]>}}"


ROWS = '@mesh, [{"x"}, {}]'
ROWS_PV = '<@mesh, [{"x"}, {}]>'


def test_ops_that_run_on_their_shards_need_nothing():
    body = f"""
  %0 = stablehlo.negate %a {_per_value(ROWS_PV)} : tensor<8x16xf32>
  %1 = stablehlo.iota dim = 0 {_per_value(ROWS_PV)} : tensor<8x16xf32>
  %2 = stablehlo.add %0, %1 {_per_value(ROWS_PV)} : tensor<8x16xf32>
  %3 = stablehlo.reverse %2, dims = [1] {_per_value(ROWS_PV)} : tensor<8x16xf32>
  return %3 : tensor<8x16xf32>"""
    assert _found(body, f"%a: {_sharded(ROWS)}", _sharded(ROWS)) == []


MOVING = {
    "reverse": "stablehlo.reverse %a, dims = [0] {s} : tensor<8x16xf32>",
    "slice": "stablehlo.slice %a [1:8, 0:16] {s} : (tensor<8x16xf32>) -> tensor<7x16xf32>",
    "pad": "stablehlo.pad %a, %p, low = [1, 0], high = [0, 0], interior = [0, 0] {s}"
    " : (tensor<8x16xf32>, tensor<f32>) -> tensor<9x16xf32>",
}


@pytest.mark.parametrize("name", MOVING)
def test_ops_moving_elements_along_a_sharded_dim_are_found(name):
    shape = {"reverse": "8x16", "slice": "7x16", "pad": "9x16"}[name]
    body = f"""
  %p = stablehlo.constant dense<0.0> : tensor<f32>
  %0 = {MOVING[name].format(s=_per_value(ROWS_PV))}
  return %0 : tensor<{shape}xf32>"""
    (found,) = _found(body, f"%a: {_sharded(ROWS)}", _sharded(ROWS, shape))
    assert found.startswith(f"stablehlo.{name}: permutation factor")


def test_an_op_without_rule_or_a_layout_change_without_op_is_found():
    square = """
  %0 = chlo.square %a : tensor<8x16xf32> -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>"""
    (found,) = _found(square, f"%a: {_sharded(ROWS)}", "tensor<8x16xf32>")
    assert found.startswith("chlo.square") and "replicated is expected" in found
    same = f"""
  %0 = chlo.square %a {_per_value(ROWS_PV)} : tensor<8x16xf32> -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>"""
    assert _found(same, f"%a: {_sharded(ROWS)}", _sharded(ROWS)) == []
    returned = "  return %a : tensor<8x16xf32>"
    (found,) = _found(returned, f"%a: {_sharded(ROWS)}", "tensor<8x16xf32>")
    assert found.startswith("func.return")


def test_a_move_between_meshes_is_found_only_where_the_layout_changes():
    body = """
  %0 = stablehlo.negate %a {sdy.sharding = #sdy.sharding_per_value<[SHARDING]>} : tensor<8x16xf32>
  return %0 : tensor<8x16xf32>"""
    args = "%a: " + _sharded('@mesh, [{"x", "y"}, {}]')
    # "i" walks the 8 devices in the order ("x", "y") does: nothing moves.
    same = '<@flat, [{"i"}, {}]>'
    assert _found(body.replace("SHARDING", same), args, _sharded('@flat, [{"i"}, {}]')) == []
    # ("a", "b") = 4x2 puts other rows on most devices.
    other = '<@other, [{"b", "a"}, {}]>'
    (found,) = _found(body.replace("SHARDING", other), args, _sharded('@other, [{"b", "a"}, {}]'))
    assert "used on another mesh" in found


@pytest.mark.parametrize(
    ("operand", "result", "found"),
    [
        ("@pinned, []", "<@pinned, []>", None),
        ("@mesh, [{}, {}]", "<@pinned, []>", None),
        (ROWS, "<@pinned, []>", "device 3 lacks the other shards"),
        ("@pinned, []", ROWS_PV, "a result computed on device 3 is needed elsewhere"),
    ],
)
def test_an_op_on_a_value_pinned_to_a_device(operand, result, found):
    body = f"""
  %0 = stablehlo.negate %a {_per_value(result)} : tensor<8x16xf32>
  return %0 : tensor<8x16xf32>"""
    result_attr = _sharded(result[1:-1])
    found_now = _found(body, f"%a: {_sharded(operand)}", result_attr)
    if found is None:
        assert found_now == []
    else:
        assert len(found_now) == 1 and found in found_now[0]


def test_unknown_meshes_are_an_ir_error_naming_the_op():
    body = """
  %0 = stablehlo.negate %a {sdy.sharding = #sdy.sharding_per_value<[<@zz, [{}, {}]>]>}
      : tensor<8x16xf32>
  return %0 : tensor<8x16xf32>"""
    with pytest.raises(IRError, match="stablehlo.negate.*unknown mesh @zz"):
        _found(body, "%a: tensor<8x16xf32>", "tensor<8x16xf32>")


def test_an_update_every_device_holds_needs_nothing_but_a_split_one_does():
    def program(update_sharding: str) -> str:
        return (
            f"""
  %c = stablehlo.constant dense<2> : tensor<i32>
  %0 = stablehlo.dynamic_update_slice %a, %u, %c, %c {_per_value(ROWS_PV)}
      : (tensor<8x16xf32>, tensor<4x4xf32>, tensor<i32>, tensor<i32>) -> tensor<8x16xf32>
  return %0 : tensor<8x16xf32>""",
            f"%a: {_sharded(ROWS)}, %u: {update_sharding}",
        )

    body, args = program("tensor<4x4xf32>")
    assert _found(body, args, _sharded(ROWS)) == []
    body, args = program(_sharded('@mesh, [{}, {"y"}]', "4x4"))
    (found,) = _found(body, args, _sharded(ROWS))
    assert found.startswith("stablehlo.dynamic_update_slice")


def test_an_argmax_all_reduced_one_result_at_a_time_is_found():
    body = """
  %i = stablehlo.iota dim = 0 {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}]>]>}
      : tensor<8xi32>
  %init = stablehlo.constant dense<0xFF800000> : tensor<f32>
  %zero = stablehlo.constant dense<0> : tensor<i32>
  %0:2 = stablehlo.reduce(%a init: %init), (%i init: %zero) across dimensions = [0]
      {sdy.sharding = #sdy.sharding_per_value<[<@mesh, []>, <@mesh, []>]>}
      : (tensor<8xf32>, tensor<8xi32>, tensor<f32>, tensor<i32>) -> (tensor<f32>, tensor<i32>)
   reducer(%x: tensor<f32>, %y: tensor<f32>) (%j: tensor<i32>, %k: tensor<i32>) {
    %gt = stablehlo.compare GT, %x, %y, FLOAT : (tensor<f32>, tensor<f32>) -> tensor<i1>
    %v = stablehlo.select %gt, %x, %y : tensor<i1>, tensor<f32>
    %w = stablehlo.select %gt, %j, %k : tensor<i1>, tensor<i32>
    stablehlo.return %v, %w : tensor<f32>, tensor<i32>
  }
  %1 = sdy.all_reduce {"x"} %0#0 out_sharding=<@mesh, []> : tensor<f32>
  %2 = sdy.all_reduce {"x"} %0#1 out_sharding=<@mesh, []> : tensor<i32>
  return %1, %2 : tensor<f32>, tensor<i32>"""
    args = "%a: " + _sharded('@mesh, [{"x"}]', "8")
    found = _found(body, args, "tensor<f32>, tensor<i32>")
    assert [f.split(":")[0] for f in found] == ["sdy.all_reduce", "sdy.all_reduce"]


# -- Shardy's partitioner on the corpus ---------------------------------------------------


@pytest.fixture(scope="module")
def shardy_partitioned():
    pytest.importorskip("jax")
    from shardonnay.testing import mlir_oracle

    return {
        path.stem: (
            parse_module(path.read_text()),
            parse_module(mlir_oracle.run_pass_pipeline(path.read_text(), SHARDY_PARTITIONER)),
        )
        for path in sorted(CORPUS.glob("*.mlir"))
    }


def test_every_corpus_program_where_the_device_program_moves_more_leaves_implicit_traffic(
    shardy_partitioned,
):
    """Where the per-device program receives more bytes than the collectives of
    Shardy's partitioned program, that program left ops needing communication
    its collectives do not make. Ours leaves the same ops implicit or fewer:
    not the elementwise chlo ops, which ours gives the rules of what they
    compute, nor an op that ours computes at its user's sharding, where it
    moves nothing (`shardonnay.partitioner.computed_at_use`)."""
    more = []
    for name, (original, shardy) in shardy_partitioned.items():
        found = implicit_communication(shardy)
        ours = implicit_communication(explicit_collectives(original))
        ruled = [f for f in found if f.op.startswith("chlo.") and f.op != "chlo.top_k"]
        expected = [(f.op, f.reason) for f in found if f not in ruled]
        assert Counter((f.op, f.reason) for f in ours) <= Counter(expected), name
        local = collective_costs(partition(original)).bytes_received
        if local > collective_costs(shardy).bytes_received:
            more.append(name)
            assert found, f"{name}: the device program moves more, with nothing implicit"
    assert more  # the corpus has such programs (a reverse, a mesh change, a top_k, ...)


def test_programs_whose_ops_all_run_on_their_shards_move_no_more_than_shardy_counts(
    shardy_partitioned,
):
    for name, (original, shardy) in shardy_partitioned.items():
        if implicit_communication(shardy):
            continue
        local = collective_costs(partition(original)).bytes_received
        assert local <= collective_costs(shardy).bytes_received, name
