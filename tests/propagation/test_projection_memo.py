"""`ShardingProjection.build` remembers projections by the identities of its
arguments (in the `Projections` of a propagation): on random programs, every
projection it hands out equals one dealt afresh, and none shares a mutable
list with another (the builder expands its projection in place)."""

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


@pytest.mark.parametrize("seed", range(40))
def test_remembered_projections_equal_fresh_ones(seed: int, monkeypatch) -> None:
    built = ShardingProjection.build.__func__
    handed_out: list[ShardingProjection] = []

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
        return projection

    monkeypatch.setattr(ShardingProjection, "build", classmethod(checked))
    propagation_pipeline(parse_module(random_program(seed, max_ops=20)))
    lists = [
        id(lst)
        for p in handed_out
        for t in p.tensors
        for lst in (
            t.replicated,
            t.unreduced,
            *(f.axes for f in t.factors.values()),
            *(f.overflow_axes for f in t.factors.values()),
        )
    ]
    assert len(lists) == len(set(lists))  # (and the pipeline expanded some in place)
