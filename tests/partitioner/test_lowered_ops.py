"""`local.dispatch.LoweredOps`: ops that look alike are lowered once, the
others get copies; the per-device program is the one lowering each op
afresh makes, text, locations and channel ids included."""

from __future__ import annotations

import re
import warnings

import pytest

from shardonnay.ir.attributes import (
    DenseArrayAttr,
    FloatAttr,
    IntegerAttr,
    NoExactKey,
    StructAttr,
    exact_key,
)
from shardonnay.partitioner.local import dispatch
from shardonnay.partitioner.local.convert import convert_global_to_local
from shardonnay.partitioner.program import explicit_collectives
from shardonnay.syntax.mlir_reader import parse_module
from shardonnay.syntax.mlir_writer import write_module
from shardonnay.testing.program_generator import random_program

# Three slices alike along a sharded dim (each a halo exchange: a collective
# with a channel id of its own), adds alike, each op at its own location.
REPEATED = """
module {
  sdy.mesh @mesh = <["x"=4]>
  func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>},
                  %arg1: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>})
      -> (tensor<7xf32>, tensor<7xf32>, tensor<7xf32>) {
    %0 = stablehlo.slice %arg0 [1:8] : (tensor<8xf32>) -> tensor<7xf32> loc("first")
    %1 = stablehlo.slice %arg1 [1:8] : (tensor<8xf32>) -> tensor<7xf32> loc("second")
    %2 = stablehlo.slice %arg0 [1:8] : (tensor<8xf32>) -> tensor<7xf32>
    %3 = stablehlo.add %0, %1 : tensor<7xf32> loc("third")
    %4 = stablehlo.add %1, %2 : tensor<7xf32> loc("fourth")
    %5 = stablehlo.add %2, %2 : tensor<7xf32>
    %6 = stablehlo.multiply %3, %4 : tensor<7xf32>
    return %6, %5, %2 : tensor<7xf32>, tensor<7xf32>, tensor<7xf32>
  }
}
"""


def _local_text(text: str) -> str:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        local = convert_global_to_local(explicit_collectives(parse_module(text)))
    return write_module(local, debug_info=True)


def _both_ways(text: str, monkeypatch: pytest.MonkeyPatch) -> tuple[str, str]:
    """The per-device program of `text`, then the same with every op lowered afresh."""
    copied = _local_text(text)
    with monkeypatch.context() as m:
        m.setattr(
            dispatch.LoweredOps,
            "lower",
            lambda self, ctx, op, operands: dispatch.lower_op(ctx, op, operands, []),
        )
        m.setattr(
            dispatch.LoweredOps,
            "lower_collective",
            lambda self, ctx, op, x: dispatch.lower_collective(ctx, op, x),
        )
        m.setattr(
            dispatch.LoweredOps,
            "lower_with_regions",
            lambda self, ctx, op, operands, regions: dispatch.lower_op(
                ctx, op, operands, regions()
            ),
        )
        afresh = _local_text(text)
    return copied, afresh


def test_repeated_ops_are_copies_with_their_own_locations_and_channels(monkeypatch):
    copied, afresh = _both_ways(REPEATED, monkeypatch)
    assert copied == afresh
    assert 'loc("third")' in copied and 'loc("fourth")' in copied
    handles = re.findall(r"<handle = (\d+)", copied)
    assert len(handles) == len(set(handles)) >= 3


def _instantiations(monkeypatch) -> list[str]:
    """The names of the ops made from templates from now on, in order."""
    made: list[str] = []
    instantiate = dispatch._instantiate

    def counted(ctx, template, op, operands):
        made.append(op.name)
        return instantiate(ctx, template, op, operands)

    monkeypatch.setattr(dispatch, "_instantiate", counted)
    return made


def test_templates_are_used(monkeypatch):
    """The second slice and add are copies of the first, not lowered again;
    the third slice (no location) and `%2 + %2` (one operand twice) are kinds
    of their own."""
    made = _instantiations(monkeypatch)
    _local_text(REPEATED)
    assert [name for name in made if not name.startswith("sdy.")] == [
        "stablehlo.slice",
        "stablehlo.add",
    ]
    # the sdy collectives that reshards leave are lowered once per kind too
    assert all(name == "sdy.all_gather" for name in made if name.startswith("sdy."))


# Ops alike that read one value twice, and a reduction alike (copied with its body).
TWICE = """
module {
  sdy.mesh @mesh = <["x"=4]>
  func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>},
                  %arg1: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}]>})
      -> (tensor<8xf32>, tensor<f32>) {
    %0 = stablehlo.multiply %arg0, %arg0 : tensor<8xf32>
    %1 = stablehlo.multiply %arg1, %arg1 : tensor<8xf32>
    %2 = stablehlo.subtract %0, %1 : tensor<8xf32>
    %zero = stablehlo.constant dense<0.0> : tensor<f32>
    %3 = stablehlo.reduce(%0 init: %zero) applies stablehlo.add across dimensions = [0]
        : (tensor<8xf32>, tensor<f32>) -> tensor<f32>
    %4 = stablehlo.reduce(%2 init: %zero) applies stablehlo.add across dimensions = [0]
        : (tensor<8xf32>, tensor<f32>) -> tensor<f32>
    %5 = stablehlo.add %3, %4 : tensor<f32>
    %6 = stablehlo.clamp %0, %0, %2 : tensor<8xf32>
    %7 = stablehlo.clamp %1, %1, %2 : tensor<8xf32>
    %8 = stablehlo.add %6, %7 : tensor<8xf32>
    return %8, %5 : tensor<8xf32>, tensor<f32>
  }
}
"""


def test_copies_of_ops_reading_a_value_twice_read_their_own_results(monkeypatch):
    """A copy reads the values a template read by their place: its operands
    (one given twice counts twice), then the results of the ops it made."""
    made = _instantiations(monkeypatch)
    copied, afresh = _both_ways(TWICE, monkeypatch)
    assert copied == afresh
    assert {"stablehlo.multiply", "stablehlo.reduce", "stablehlo.clamp"} <= set(made)


# Sums along a sharded dim (partial sums: a mask of the padding, inits counted
# once) alike but for their locations and the literal of their init, and a max.
REDUCTIONS = """
module {
  sdy.mesh @mesh = <["x"=4]>
  func.func @main(%arg0: tensor<6x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
                  %arg1: tensor<6x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>})
      -> (tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) {
    %zero = stablehlo.constant dense<0.0> : tensor<f32>
    %one = stablehlo.constant dense<1.0> : tensor<f32>
    %0 = stablehlo.reduce(%arg0 init: %zero) applies stablehlo.add across dimensions = [0]
        : (tensor<6x4xf32>, tensor<f32>) -> tensor<4xf32> loc("first")
    %1 = stablehlo.reduce(%arg1 init: %zero) applies stablehlo.add across dimensions = [0]
        : (tensor<6x4xf32>, tensor<f32>) -> tensor<4xf32> loc("second")
    %2 = stablehlo.reduce(%arg1 init: %one) applies stablehlo.add across dimensions = [0]
        : (tensor<6x4xf32>, tensor<f32>) -> tensor<4xf32> loc("third")
    %3 = stablehlo.reduce(%arg0 init: %zero) applies stablehlo.maximum across dimensions = [0]
        : (tensor<6x4xf32>, tensor<f32>) -> tensor<4xf32> loc("fourth")
    return %0, %1, %2, %3 : tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>
  }
}
"""


def test_reductions_alike_are_copies(monkeypatch):
    """The second sum is a copy of the first (at its own location); the sum
    from another init and the max are lowered afresh; the program is the one
    lowering each op afresh makes."""
    made = _instantiations(monkeypatch)
    copied, afresh = _both_ways(REDUCTIONS, monkeypatch)
    assert copied == afresh
    assert 'loc("second")' in copied
    assert made.count("stablehlo.reduce") == 1  # (the bodies' adds are copies too)


@pytest.mark.parametrize("seed", range(40))
def test_random_programs_lower_alike_either_way(seed, monkeypatch):
    text = random_program(seed, max_ops=20)
    try:
        copied, afresh = _both_ways(text, monkeypatch)
    except Exception as error:  # a program either way fails alike
        with pytest.raises(type(error)):
            _local_text(text)
        return
    assert copied == afresh


@pytest.mark.parametrize(
    "a, b",
    [
        (FloatAttr(0.0), FloatAttr(-0.0)),
        (IntegerAttr(1, "i1"), IntegerAttr(True, "i1")),
        (DenseArrayAttr("f32", (0.0,)), DenseArrayAttr("f32", (-0.0,))),
        (StructAttr("s", (("a", 1),)), StructAttr("s", (("a", 1.0),))),
        (1, True),
    ],
)
def test_attribute_keys_tell_apart_what_prints_differently(a, b):
    assert a == b  # equal as Python values, printed differently
    assert exact_key(a) != exact_key(b)
    assert exact_key(a) == exact_key(a)


def test_attributes_of_unknown_classes_have_no_key():
    with pytest.raises(NoExactKey):  # then the op is lowered afresh
        exact_key(object())
