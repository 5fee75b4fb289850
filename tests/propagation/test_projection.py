"""Projection of tensor shardings onto the factors of a sharding rule, and back."""

from __future__ import annotations

from shardonnay import AxisRef, DimSharding, Mesh, TensorSharding
from shardonnay.propagation.projection import (
    PrefixStatus,
    ShardingProjection,
    axis_list_prefix_status,
    project_tensor,
)
from shardonnay.sharding_rule import RuleBuilder

X4 = Mesh({"x": 4})
XY = Mesh({"x": 4, "y": 2})


def A(text: str) -> AxisRef:
    return AxisRef.parse(text)


def test_reshape_8_to_2x4_splits_the_axis() -> None:
    t = project_tensor(TensorSharding.from_axes("m", ["x"]), ((0, 1),), (2, 4), X4)
    assert t.factors[0].axes == [A('"x":(1)2')]
    assert t.factors[1].axes == [A('"x":(2)2')]
    assert not t.factors[0].is_minor_most and t.factors[1].is_minor_most


def test_minor_most_factor_takes_all_remaining_axes() -> None:
    t = project_tensor(TensorSharding.from_axes("m", [("x", "y")]), ((0, 1),), (2, 4), XY)
    assert t.factors[0].axes == [A('"x":(1)2')]
    assert t.factors[1].axes == [A('"x":(2)2'), A('"y"')]


def test_coprime_axis_overflows_and_closes_later_factors() -> None:
    mesh = Mesh({"x": 3, "y": 2})
    t = project_tensor(TensorSharding.from_axes("m", [("y", "x")]), ((0, 1),), (4, 3), mesh)
    assert t.factors[0].axes == [A('"y"')]
    assert t.factors[0].overflow_axes == [A('"x"')]
    assert t.factors[1].is_closed and t.factors[1].axes == []


def test_closed_dim_closes_its_factors_and_missing_sharding_is_open() -> None:
    closed = TensorSharding("m", (DimSharding((), True),))
    assert project_tensor(closed, ((0, 1),), (2, 4), X4).factors[1].is_closed
    missing = project_tensor(None, ((0, 1),), (2, 4), X4)
    assert not missing.factors[0].is_closed and missing.factors[0].axes == []


def test_unprojection_merges_sub_axes_and_stops_at_partly_sharded_factor() -> None:
    rule = RuleBuilder([(8,)], [(2, 4)]).add_factor([0], [0], 2).add_factor([0], [1], 4).build()
    p = ShardingProjection.build([TensorSharding.from_axes("m", ["x"])], [None], rule, X4)
    p.results[0].factors[0].axes = [A('"x":(1)2')]
    p.results[0].factors[1].axes = [A('"x":(2)2')]
    operands, results = p.to_tensor_shardings(rule, "m", X4)
    assert str(operands[0]) == '#sdy.sharding<@m, [{"x"}]>'
    assert str(results[0]) == '#sdy.sharding<@m, [{"x":(1)2, ?}, {"x":(2)2, ?}]>'
    # factor i only half sharded: j's axes would need a strided view, so they are dropped.
    p.operands[0].factors[0].axes = []
    assert str(p.to_tensor_shardings(rule, "m", X4)[0][0]) == "#sdy.sharding<@m, [{}]>"


def test_round_trip_keeps_replicated_and_unreduced() -> None:
    s = TensorSharding.from_axes("m", [None, "x"], replicated=["y"])
    rule = RuleBuilder([(4, 8)], [(4, 8)]).add_pointwise((4, 8)).build()
    p = ShardingProjection.build([s], [s], rule, XY)
    assert p.to_tensor_shardings(rule, "m", XY)[0][0] == s


def test_axis_list_prefix_status() -> None:
    a, b, half = A('"x"'), A('"y"'), A('"x":(1)2')
    assert axis_list_prefix_status([a], [a]) is PrefixStatus.EQUAL
    assert axis_list_prefix_status([a], [a, b]) is PrefixStatus.STRICT_PREFIX
    assert axis_list_prefix_status([half], [a]) is PrefixStatus.STRICT_PREFIX
    assert axis_list_prefix_status([a], [half]) is PrefixStatus.NOT_A_PREFIX
    assert axis_list_prefix_status([b], [a, b]) is PrefixStatus.NOT_A_PREFIX
