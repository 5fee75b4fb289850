"""One definition per sdy collective: the op's verifier is the collective's
check, it agrees with the rule the planner uses, and the cost model's bytes
are the bytes the collective's exchange moves."""

from __future__ import annotations

import random

import pytest

from shardonnay import Mesh, TensorSharding
from shardonnay.collectives import (
    AllGather,
    AllReduce,
    AllToAll,
    CollectivePermute,
    ReduceScatter,
    collective_of,
)
from shardonnay.errors import IRError, PartitionError
from shardonnay.ir.verifier import verify
from shardonnay.layout import local_shape
from shardonnay.partitioner.reshard.layout_moves import axis_groups
from shardonnay.syntax.mlir_reader import parse_module
from shardonnay.testing.collective_ops import (
    collective_module,
    collective_op_text,
    on_mesh,
    random_collective_case,
)


def ir_verdict(text: str) -> str | None:
    try:
        verify(parse_module(text))
    except IRError as e:
        return str(e)
    return None


def test_an_all_gather_to_another_sharding_is_rejected_as_by_shardy():
    text = collective_module(
        'sdy.all_gather [{}, {"y"}] %arg0 out_sharding=<@mesh, [{"y"}, {"x"}]>'
    )
    assert ir_verdict(text) == (
        "in @main, op 0 (sdy.all_gather): 'sdy.all_gather' op result sharding doesn't match "
        'expected sharding ["x"] on dimension 0'
    )


def test_the_op_is_read_as_the_collective_it_performs():
    text = collective_module('sdy.all_gather [{}, {"y"}] %arg0 out_sharding=<@mesh, [{"x"}, {}]>')
    (op,) = [op for op in parse_module(text).walk() if op.name == "sdy.all_gather"]
    collective = collective_of(op.name).from_attributes(op.attributes)
    assert collective == AllGather([(), ("y",)])
    assert collective_op_text(collective, op.attributes["out_sharding"]) in text


@pytest.mark.parametrize("seed", range(3))
def test_the_ir_verifier_accepts_what_the_rule_accepts_and_rejects_in_its_words(seed):
    """`Collective.verify` (the planner's check: Shardy's and the pending
    reductions) accepting an op means the IR verifier accepts it; the IR
    verifier rejecting one means `verify` rejects it with the same message."""
    rng = random.Random(seed)
    verdicts = set()
    for _ in range(150):
        mesh, operand, collective, result = random_collective_case(rng)
        if operand is None:
            continue
        text = collective_module(
            collective_op_text(collective, result),
            on_mesh(operand).body(),
            rank=result.rank,
            mesh=str(mesh),
        )
        ours = ir_verdict(text)
        try:
            collective.verify(operand, result, mesh)
            rule = None
        except PartitionError as e:
            rule = str(e)
        if rule is None:
            assert ours is None, (text, ours)
        if ours is not None:
            assert ours.endswith(f": {rule}"), (text, ours, rule)
        verdicts.add((ours is None, rule is None))
    assert verdicts == {(True, True), (True, False), (False, False)}


def _axes(collective) -> list:
    """The axes a collective works over."""
    if isinstance(collective, AllToAll):
        return [a for p in collective.params for a in p.axes]
    attr = collective.axes_attribute()
    return [a for axes in attr.lists for a in axes] if hasattr(attr, "lists") else list(attr.axes)


@pytest.mark.parametrize("seed", range(2))
def test_the_cost_models_bytes_are_the_bytes_the_exchange_moves_on_divisible_shapes(seed):
    """The ring (all_gather, reduce_scatter, all_reduce, all_to_all) and the
    local collectives: per device, what `traffic` says it receives and sends
    is what the exchange, which builds the result's `layout` buffers, moves."""
    rng = random.Random(seed)
    kinds = set()
    for _ in range(200):
        mesh, operand, collective, _ = random_collective_case(rng)
        if operand is None or isinstance(collective, CollectivePermute):
            continue
        try:
            result = collective.result_sharding(operand, mesh)
        except PartitionError:
            continue
        shape = (48,) * operand.rank
        exchange = collective.exchange(operand, mesh, shape)
        buffers = (local_shape(shape, operand, mesh), local_shape(shape, result, mesh))
        groups = axis_groups(mesh, _axes(collective))
        sent, received, _ = collective.traffic(groups, mesh.size, buffers, 4)
        for d in mesh.device_list:
            assert received[d] == exchange.bytes_received(d), (collective, operand, d)
            assert sent[d] == exchange.bytes_sent(d), (collective, operand, d)
        kinds.add(type(collective))
    assert {AllGather, ReduceScatter, AllReduce, AllToAll} <= kinds


def test_a_permute_to_a_mesh_of_another_name_with_the_same_devices_is_rejected():
    mesh = Mesh({"x": 2, "y": 2})
    operand = TensorSharding.parse('<@a, [{"x"}, {"y"}]>')
    result = TensorSharding.parse('<@b, [{"y"}, {"x"}]>')
    with pytest.raises(PartitionError, match="result mesh name is different but same device ids"):
        CollectivePermute(result).check(operand, result, mesh, mesh)
    AllReduce(()).check(None, TensorSharding.parse("<@b, [{}, {}]>"), None, mesh)
