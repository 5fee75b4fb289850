"""`ShardingProjection.build` remembers projections by the identities of its
arguments (in the `Projections` of a propagation): on random programs, every
projection it hands out equals one dealt afresh, and the tensors it
remembers stay as dealt, however the projections sharing them are expanded
(each expands a copy of its own: no two projections share a mutable list
with each other or with the remembered tensors once they expanded)."""

from __future__ import annotations

import pytest

from shardonnay.pipeline import propagation_pipeline
from shardonnay.propagation.projection import ShardingProjection, project_tensor
from shardonnay.syntax.mlir_reader import parse_module
from shardonnay.testing.program_generator import random_program


def _dealt_afresh(operands, results, rule, mesh, closed_if_missing):
    def project(s, m):
        return project_tensor(s, m, rule.factor_sizes, mesh, closed_if_missing=closed_if_missing)

    return ShardingProjection(
        [project(s, m) for s, m in zip(operands, rule.operand_mappings, strict=True)],
        [project(s, m) for s, m in zip(results, rule.result_mappings, strict=True)],
    )


def _lists(projection: ShardingProjection, expanded_only: bool) -> list[int]:
    shared = projection.shared or [False] * len(projection.tensors)
    return [
        id(lst)
        for t, is_shared in zip(projection.tensors, shared, strict=True)
        if not (expanded_only and is_shared)
        for lst in (
            t.replicated,
            t.unreduced,
            *(f.axes for f in t.factors.values()),
            *(f.overflow_axes for f in t.factors.values()),
        )
    ]


@pytest.mark.parametrize("seed", range(40))
def test_remembered_projections_equal_fresh_ones(seed: int, monkeypatch) -> None:
    built = ShardingProjection.build.__func__
    handed_out: list[ShardingProjection] = []
    remembered_all = {}

    def checked(cls, operands, results, rule, mesh, *, closed_if_missing=False, remembered=None):
        projection = built(
            cls,
            operands,
            results,
            rule,
            mesh,
            closed_if_missing=closed_if_missing,
            remembered=remembered,
        )
        assert projection == _dealt_afresh(operands, results, rule, mesh, closed_if_missing)
        handed_out.append(projection)  # (kept alive: their lists' ids stay theirs)
        if remembered is not None:
            remembered_all[id(remembered)] = remembered
        return projection

    monkeypatch.setattr(ShardingProjection, "build", classmethod(checked))
    propagation_pipeline(parse_module(random_program(seed, max_ops=20)))
    for remembered in remembered_all.values():
        for key, (tensor, sharding, mesh) in remembered.tensors.items():
            _, _, closed_if_missing, mapping, factor_sizes = key
            fresh = project_tensor(
                sharding, mapping, factor_sizes, mesh, closed_if_missing=closed_if_missing
            )
            assert tensor == fresh
    own = [lst for p in handed_out for lst in _lists(p, expanded_only=True)]
    assert len(own) == len(set(own))
    remembered_lists = {
        id(lst)
        for remembered in remembered_all.values()
        for tensor, _, _ in remembered.tensors.values()
        for lst in (
            tensor.replicated,
            tensor.unreduced,
            *(f.axes for f in tensor.factors.values()),
            *(f.overflow_axes for f in tensor.factors.values()),
        )
    }
    assert remembered_lists.isdisjoint(own)
