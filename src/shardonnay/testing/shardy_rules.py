"""Shardy's own sharding rules (from jaxlib), to compare ours with.

`shardy_rules(text)` runs `sdy-populate-op-sharding-rules` on a module and
returns, for each op that got a rule, in walk order: (op name, rule text).
"""

from __future__ import annotations

from shardonnay import parse_module
from shardonnay.ops.rules import RULE_ATTRIBUTE, populate_rules
from shardonnay.testing.mlir_oracle import run_pass_pipeline

POPULATE = "builtin.module(func.func(sdy-populate-op-sharding-rules))"


def shardy_rules(text: str) -> list[tuple[str, str]]:
    module = parse_module(run_pass_pipeline(text, POPULATE))
    return [
        (op.name, str(op.attributes[RULE_ATTRIBUTE]))
        for op in module.walk()
        if RULE_ATTRIBUTE in op.attributes
    ]


def our_rules(text: str) -> list[tuple[str, str]]:
    module = populate_rules(parse_module(text))
    return [
        (op.name, str(op.attributes[RULE_ATTRIBUTE]))
        for op in module.walk()
        if RULE_ATTRIBUTE in op.attributes
    ]


def assert_rules_match_shardy(text: str) -> None:
    """Our rule of every op equals Shardy's (and the same ops have rules)."""
    theirs, ours = shardy_rules(text), our_rules(text)
    assert ours == theirs, _diff(theirs, ours)


def _diff(theirs, ours) -> str:
    lines = []
    for i in range(max(len(theirs), len(ours))):
        t = theirs[i] if i < len(theirs) else None
        o = ours[i] if i < len(ours) else None
        if t != o:
            lines.append(f"  #{i}: shardy {t}\n       ours   {o}")
    return "rules differ:\n" + "\n".join(lines[:10])
