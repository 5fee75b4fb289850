"""Shardy's propagation passes, by their Shardy names (see `shardonnay.passes`)."""

from __future__ import annotations

from shardonnay.ir.core import Module
from shardonnay.passes import register_pass
from shardonnay.propagation.rules import populate_rules


@register_pass("sdy-populate-op-sharding-rules")
def _populate_op_sharding_rules(module: Module, options: dict[str, str]) -> Module:
    return populate_rules(
        module, conservative=options.get("conservative-propagation", "false") == "true"
    )


def _propagation_pass(strategy: str):
    def run(module: Module, options: dict[str, str]) -> Module:
        from shardonnay.propagation.driver import drop_sharding_rules, propagate

        conservative = options.get("conservative-propagation", "false") == "true"
        origins = options.get("debug-sharding-origins", "false") == "true"
        edges = options.get("debug-propagation-edge-sharding", "false") == "true"
        if origins or edges:
            from shardonnay.propagation.origin_attributes import propagate_with_origins

            return propagate_with_origins(
                module,
                origins=origins,
                edges=edges,
                strategy=strategy,
                conservative=conservative,
                data_flow_edges=False,
            )
        keep = options.get("keep-sharding-rules", "false") == "true"
        result = propagate(
            module,
            strategy=strategy,
            conservative=conservative,
            data_flow_edges=False,
            keep_sharding_rules=keep,
        )
        if not keep:
            drop_sharding_rules(result)
        return result

    return run


register_pass("sdy-basic-propagate")(_propagation_pass("basic"))
register_pass("sdy-aggressive-propagate")(_propagation_pass("aggressive"))
register_pass("sdy-op-priority-propagate")(_propagation_pass("op-priority"))
register_pass("sdy-user-priority-propagate")(_propagation_pass("user-priority"))


def _pipeline_pass(module: Module, options: dict[str, str]) -> Module:
    from shardonnay.propagation.pipeline import propagation_pipeline

    conservative = options.get("conservative-propagation", "false") == "true"
    return propagation_pipeline(
        module,
        strategy=options.get("propagation-strategy", "aggressive"),
        conservative=conservative,
        debug_origins=options.get("debug-sharding-origins", "false") == "true",
        debug_edges=options.get("debug-propagation-edge-sharding", "false") == "true",
    )


register_pass("sdy-propagation-pipeline")(_pipeline_pass)
