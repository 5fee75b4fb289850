"""`shardonnay opt`: Shardy's pass names and pipelines."""

from __future__ import annotations

from pathlib import Path

import pytest

from shardonnay import parse_module
from shardonnay.cli import main
from shardonnay.errors import ParseError, ShardonnayError
from shardonnay.passes import PassSpec, parse_pipeline, run_pipeline

CORPUS = sorted((Path(__file__).parent.parent / "corpus").glob("*.mlir"))
POPULATE = "builtin.module(func.func(sdy-populate-op-sharding-rules))"


def test_pipelines_parse_like_mlir_pass_pipelines() -> None:
    assert parse_pipeline("builtin.module(a, func.func(b{x=1 flag}), c)") == [
        PassSpec("a"),
        PassSpec("b", {"x": "1", "flag": "true"}),
        PassSpec("c"),
    ]
    assert parse_pipeline("builtin.module()") == []
    for bad in ("builtin.module(", "builtin.module(a b)", "a", "builtin.module(a))"):
        with pytest.raises(ParseError):
            parse_pipeline(bad)


def test_unknown_passes_are_named() -> None:
    module = parse_module(CORPUS[0].read_text())
    with pytest.raises(ShardonnayError, match="unknown pass 'sdy-nothing'.*implements"):
        run_pipeline(module, "builtin.module(sdy-nothing)")


@pytest.mark.parametrize("path", CORPUS, ids=[p.stem for p in CORPUS])
def test_populating_rules_prints_what_shardy_prints(path: Path, capsys) -> None:
    pytest.importorskip("jax")
    from shardonnay.testing.mlir_oracle import run_pass_pipeline

    assert main(["opt", str(path), "--pass-pipeline", POPULATE]) == 0
    assert capsys.readouterr().out == run_pass_pipeline(path.read_text(), POPULATE)


def test_opt_reports_errors_without_a_traceback(capsys) -> None:
    assert main(["opt", str(CORPUS[0]), "--pass-pipeline", "builtin.module(x"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("error: <pass-pipeline>:1:17") and "Traceback" not in err


@pytest.mark.parametrize("strategy", ["basic", "aggressive"])
@pytest.mark.parametrize("path", CORPUS, ids=[p.stem for p in CORPUS])
def test_propagation_passes_print_what_shardy_prints(path: Path, strategy: str) -> None:
    pytest.importorskip("jax")
    from shardonnay.testing.mlir_oracle import run_pass_pipeline

    pipeline = f"builtin.module(sdy-{strategy}-propagate)"
    ours = run_pipeline(parse_module(path.read_text()), pipeline).to_text()
    assert ours == run_pass_pipeline(path.read_text(), pipeline)


def test_propagate_command_prints_the_propagated_example(capsys) -> None:
    example = Path(__file__).parent.parent.parent / "examples" / "mlp.mlir"
    assert main(["propagate", str(example)]) == 0
    out = capsys.readouterr().out
    # the second weight takes "model" on its contracting dim from the first layer
    assert '%arg2: tensor<64x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"model"}, {}]>}' in out
    assert main(["propagate", str(example), "--no-pipeline"]) == 0
    bare = capsys.readouterr().out
    assert '{sdy.sharding = #sdy.sharding<@mesh, [{"model", ?}, {?}]>}' in bare
    pytest.importorskip("jax")
    from shardonnay.testing.mlir_oracle import run_pass_pipeline

    assert out == run_pass_pipeline(example.read_text(), "builtin.module(sdy-propagation-pipeline)")
    assert bare == run_pass_pipeline(
        example.read_text(), "builtin.module(sdy-aggressive-propagate)"
    )
