"""Every pass Shardy registers, by its name: accepted by `shardonnay opt` and
`run_pipeline` with Shardy's options, printing what jaxlib's Shardy prints.

Each pass runs in the pipeline `pass_programs.PASS_PIPELINES` names for it,
on random programs of `program_generator` (made into calls, inline meshes,
manual computations or size-1 axes where the pass needs them) and on
hand-written worked cases; the printed modules must be identical. The full
sweep (500 programs a pass) is `benchmarks/parity.py`.
"""

from __future__ import annotations

import warnings

import pytest

from shardonnay import parse_module
from shardonnay.cli import main
from shardonnay.errors import IRError, ShardonnayError
from shardonnay.ir.verifier import verify
from shardonnay.passes import known_passes, pass_options, run_pipeline
from shardonnay.propagation.importing.validation import PropagationWarning
from shardonnay.testing.pass_programs import PASS_PIPELINES, program

PROGRAMS_PER_PASS = 12

# Shardy's passes, as jaxlib 0.10.2 registers them, and MLIR's two that its
# pipelines run; verify-unreduced-axes, which jaxlib lacks, is tested below.
SHARDY_PASSES = sorted({*PASS_PIPELINES, "sdy-verify-unreduced-axes"})


def test_every_pass_is_known() -> None:
    assert set(SHARDY_PASSES) <= set(known_passes())


@pytest.mark.parametrize("name", SHARDY_PASSES)
def test_opt_accepts_every_pass_with_its_default_options(name: str, tmp_path, capsys) -> None:
    path = tmp_path / "p.mlir"
    path.write_text('sdy.mesh @mesh = <["x"=2]>\nfunc.func @main() {\n  return\n}\n')
    options = " ".join(f"{key}={value}" for key, value in pass_options(name).items())
    pipeline = f"builtin.module({name}{{{options}}})" if options else f"builtin.module({name})"
    assert main(["opt", str(path), "--pass-pipeline", pipeline]) == 0
    assert "func.func @main()" in capsys.readouterr().out


def test_options_are_checked() -> None:
    module = parse_module("func.func @main() {\n  return\n}")
    with pytest.raises(ShardonnayError, match="has no option 'nope'.*enable-full-version"):
        run_pipeline(module, "builtin.module(sdy-insert-explicit-reshards{nope=1})")
    with pytest.raises(ShardonnayError, match="'sdy-close-shardings' has no option 'x'.*none"):
        run_pipeline(module, "builtin.module(sdy-close-shardings{x=1})")
    with pytest.raises(ShardonnayError, match="is a flag"):
        run_pipeline(module, "builtin.module(sdy-basic-propagate{keep-sharding-rules=maybe})")


def _shardy(text: str, pipeline: str) -> str | None:
    from shardonnay.testing.mlir_oracle import run_pass_pipeline

    try:
        return run_pass_pipeline(text, pipeline)
    except Exception:  # Shardy rejects the program (or its own output)
        return None


def _ours(text: str, pipeline: str) -> str:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", PropagationWarning)
        return run_pipeline(parse_module(text), pipeline).to_text()


# (sdy-convert-global-to-local fails on most small programs in jaxlib, and
# errs on some: it is compared in tests/partitioner/test_global_to_local.py.)
@pytest.mark.parametrize("name", sorted(set(PASS_PIPELINES) - {"sdy-convert-global-to-local"}))
def test_each_pass_prints_what_shardy_prints(name: str) -> None:
    pytest.importorskip("jax")
    case = PASS_PIPELINES[name]
    pipeline = f"builtin.module({case.pipeline})"
    from shardonnay.testing.mlir_oracle import run_pass_pipelines_isolated

    compared = differing = 0
    texts = [program(seed, case.programs) for seed in range(PROGRAMS_PER_PASS)]
    # (in a child process: some of Shardy's passes abort on inputs they do not support)
    shardy = run_pass_pipelines_isolated([(text, pipeline) for text in texts])
    for text, expected in zip(texts, shardy, strict=True):
        if expected is None:
            continue
        compared += 1
        if _ours(text, pipeline) != expected:
            differing += 1
    assert compared >= PROGRAMS_PER_PASS // 3
    assert differing == 0


# -- worked cases ------------------------------------------------------------------------

MESH = 'sdy.mesh @mesh = <["x"=2, "y"=2]>\n'

# Every data-flow op: a while (and its i32 counter), an optimization barrier
# with a token, a named computation and a manual computation whose body sees
# its sharding without the manual axis.
DATA_FLOW = (
    MESH
    + """func.func @main(
    %arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>},
    %arg1: tensor<8x4xf32>, %arg2: !stablehlo.token) -> (tensor<8x4xf32>, tensor<8x4xf32>) {
  %c = stablehlo.constant dense<0> : tensor<i32>
  %0:2 = stablehlo.while(%iterArg = %arg0, %i = %c) : tensor<8x4xf32>, tensor<i32>
   cond {
    %l = stablehlo.constant dense<3> : tensor<i32>
    %cmp = stablehlo.compare LT, %i, %l : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %cmp : tensor<i1>
  } do {
    %n = stablehlo.negate %iterArg : tensor<8x4xf32>
    %one = stablehlo.constant dense<1> : tensor<i32>
    %ni = stablehlo.add %i, %one : tensor<i32>
    stablehlo.return %n, %ni : tensor<8x4xf32>, tensor<i32>
  }
  %1:2 = stablehlo.optimization_barrier %arg1, %arg2 : tensor<8x4xf32>, !stablehlo.token
  %2 = sdy.named_computation<"foo">(%1#0) in_shardings=[<@mesh, [{"y"}, {}]>]
      (%a: tensor<8x4xf32>) {
    %3 = stablehlo.negate %a : tensor<8x4xf32>
    sdy.return %3 : tensor<8x4xf32>
  } : (tensor<8x4xf32>) -> tensor<8x4xf32>
  %4 = sdy.manual_computation(%2) in_shardings=[<@mesh, [{"x", "y"}, {}]>]
      out_shardings=[<@mesh, [{"x"}, {?}]>] manual_axes={"x"} (%b: tensor<4x4xf32>) {
    %5 = stablehlo.abs %b : tensor<4x4xf32>
    sdy.return %5 : tensor<4x4xf32>
  } : (tensor<8x4xf32>) -> tensor<8x4xf32>
  %6 = stablehlo.add %0#0, %4 : tensor<8x4xf32>
  return %6, %1#0 : tensor<8x4xf32>, tensor<8x4xf32>
}
"""
)

# A function called twice, calling another; a call sharded unlike its callee.
CALLS = (
    MESH
    + """func.func @main(%arg0: tensor<8x4xf32>) -> tensor<8x4xf32> {
  %0 = call @f(%arg0) {sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{"x"}, {}]>]>}
      : (tensor<8x4xf32>) -> tensor<8x4xf32>
  %1 = call @g(%0) : (tensor<8x4xf32>) -> tensor<8x4xf32>
  %2 = call @g(%1) : (tensor<8x4xf32>) -> tensor<8x4xf32>
  return %2 : tensor<8x4xf32>
}
func.func private @f(%arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>})
    -> tensor<8x4xf32> {
  %0 = stablehlo.abs %arg0 : tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}
func.func private @g(%arg0: tensor<8x4xf32>)
    -> (tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}]>}) {
  %0 = call @h(%arg0) : (tensor<8x4xf32>) -> tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}
func.func private @h(%arg0: tensor<8x4xf32>) -> tensor<8x4xf32> {
  return %arg0 : tensor<8x4xf32>
}
"""
)

# Duplicate meshes, inline meshes (one equal to a declared mesh, a device's
# maximal mesh, two new ones), debug origins, manual axes out of mesh order.
MESHES = """sdy.mesh @mesh = <["x"=2, "y"=3]>
sdy.mesh @mesh2 = <["x"=2, "y"=3]>
func.func @main(
    %arg0: tensor<8x6xf32> {sdy.sharding = #sdy.sharding<mesh<["x"=2, "y"=3]>, [{"x"}, {}]>},
    %arg1: tensor<8x6xf32> {sdy.sharding = #sdy.sharding<mesh<[], device_ids=[3]>, []>},
    %arg2: tensor<8x6xf32> {sdy.sharding = #sdy.sharding<mesh<["a"=2]>, [{"a"}, {}]>})
    -> (tensor<8x6xf32> {sdy.sharding = #sdy.sharding<@mesh2, [{"y"}, {}]>}, tensor<8x6xf32>) {
  %0 = stablehlo.add %arg0, %arg1 {sdy.sharding = #sdy.sharding_per_value<[<mesh<["b"=2]>,
      [{"b"}, {}]>]>, sdy.sharding_origins = [{"x" = "input: 0"}]} : tensor<8x6xf32>
  %1 = sdy.sharding_constraint %0 <mesh<["a"=2]>, [{}, {}]> : tensor<8x6xf32>
  %2 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{}, {"y"}]>]
      out_shardings=[<@mesh, [{}, {"y"}]>] manual_axes={"y", "x"} (%b: tensor<8x2xf32>) {
    sdy.return %b : tensor<8x2xf32>
  } : (tensor<8x6xf32>) -> tensor<8x6xf32>
  return %1, %2 : tensor<8x6xf32>, tensor<8x6xf32>
}
"""

# Three copies of one function (after sdy-flatten-call-graph and propagation),
# two of them sharded alike.
FLAT = (
    MESH
    + """func.func @main(%arg0: tensor<8x4xf32>)
    -> (tensor<8x4xf32>, tensor<8x4xf32>, tensor<8x4xf32>) {
  %0 = call @f(%arg0) : (tensor<8x4xf32>) -> tensor<8x4xf32>
  %1 = call @f_0(%0) : (tensor<8x4xf32>) -> tensor<8x4xf32>
  %2 = call @f_1(%1) : (tensor<8x4xf32>) -> tensor<8x4xf32>
  return %0, %1, %2 : tensor<8x4xf32>, tensor<8x4xf32>, tensor<8x4xf32>
}
"""
    + "".join(
        f"""func.func private @{name}(%arg0: tensor<8x4xf32> {{sdy.sharding = {s}}})
    -> (tensor<8x4xf32> {{sdy.sharding = {s}}}){original} {{
  return %arg0 : tensor<8x4xf32>
}}
"""
        for name, s, original in (
            ("f", '#sdy.sharding<@mesh, [{"x"}, {}]>', ""),
            (
                "f_0",
                '#sdy.sharding<@mesh, [{}, {"y"}]>',
                ' attributes {sdy.original_func_name = "f"}',
            ),
            (
                "f_1",
                '#sdy.sharding<@mesh, [{}, {"y"}]>',
                ' attributes {sdy.original_func_name = "f"}',
            ),
        )
    )
)

WORKED = {
    "add-data-flow-edges": (DATA_FLOW, "sdy-add-data-flow-edges"),
    "propagate-through-edges": (
        DATA_FLOW,
        "sdy-add-data-flow-edges,sdy-aggressive-propagate",
    ),
    "sink-after-propagation": (
        DATA_FLOW,
        "sdy-add-data-flow-edges,sdy-basic-propagate,func.func(sdy-sink-data-flow-edges)",
    ),
    "constraints-after-edges": (
        DATA_FLOW.replace(
            "  %6 = stablehlo.add",
            '  %7 = sdy.sharding_constraint %0#0 <@mesh, [{}, {"y"}]> : tensor<8x4xf32>\n'
            "  %6 = stablehlo.add",
        ),
        "sdy-add-data-flow-edges,sdy-apply-sharding-constraints",
    ),
    "func-data-flow-edges": (CALLS, "sdy-add-func-data-flow-edges"),
    "sink-func-data-flow-edges": (
        CALLS,
        "sdy-add-func-data-flow-edges,func.func(sdy-sink-func-data-flow-edges)",
    ),
    "flatten-call-graph": (CALLS, "sdy-flatten-call-graph"),
    "import-func-calls": (CALLS, "sdy-flatten-call-graph,sdy-import-func-calls"),
    "insert-func-call-reshards": (CALLS, "sdy-insert-func-call-reshards"),
    "unflatten-call-graph": (FLAT, "sdy-unflatten-call-graph"),
    "unflatten-call-graph-fully": (FLAT, "sdy-unflatten-call-graph{dedup-functions-fully=true}"),
    "lift-inlined-meshes": (MESHES, "sdy-lift-inlined-meshes"),
    "inline-meshes": (MESHES, "sdy-inline-meshes"),
    "manual-axes-cleanup": (MESHES, "sdy-manual-axes-cleanup"),
    "remove-propagation-debug-info": (MESHES, "sdy-remove-propagation-debug-info"),
    "import-pipeline": (DATA_FLOW, "sdy-import-pipeline"),
}


@pytest.mark.parametrize("name", sorted(WORKED))
def test_worked_cases_print_what_shardy_prints(name: str) -> None:
    pytest.importorskip("jax")
    text, passes = WORKED[name]
    pipeline = f"builtin.module({passes})"
    expected = _shardy(text, pipeline)
    assert expected is not None
    assert _ours(text, pipeline) == expected


def test_the_expanded_propagation_pipeline_runs_pass_by_pass() -> None:
    """jaxlib's `sdy-propagation-pipeline`, expanded into its passes, run by
    name one after the other, prints what the named pipeline prints."""
    pytest.importorskip("jax")
    from shardonnay.testing.mlir_oracle import expanded_propagation_pipeline

    pipeline = expanded_propagation_pipeline()
    # (jaxlib's pipeline rejects DATA_FLOW: its sdy-import-func-calls adds a
    # second edge to the named computation's values, which its verifier refuses)
    for text in (CALLS, program(5, "calls"), program(7, "manual")):
        expected = _shardy(text, "builtin.module(sdy-propagation-pipeline)")
        assert expected is not None
        assert _ours(text, pipeline) == expected
        assert _ours(text, "builtin.module(sdy-propagation-pipeline)") == expected


def test_data_flow_edge_verifiers_say_what_shardy_says() -> None:
    two_users = MESH + (
        "func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {\n"
        "  %0 = sdy.data_flow_edge %arg0 : tensor<8xf32>\n"
        "  %1 = stablehlo.add %arg0, %0 : tensor<8xf32>\n"
        "  return %1 : tensor<8xf32>\n}"
    )
    with pytest.raises(IRError, match="expected input of sdy.data_flow_edge to have a single"):
        verify(parse_module(two_users))
    of_a_constraint = MESH + (
        "func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {\n"
        '  %c = sdy.sharding_constraint %arg0 <@mesh, [{"x"}]> : tensor<8xf32>\n'
        "  %0 = sdy.data_flow_edge %c : tensor<8xf32>\n"
        "  return %0 : tensor<8xf32>\n}"
    )
    with pytest.raises(IRError, match="not be defined by an SdyDialect op"):
        verify(parse_module(of_a_constraint))
    func_edge_of_an_op = MESH + (
        "func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {\n"
        "  %0 = stablehlo.abs %arg0 : tensor<8xf32>\n"
        "  %1 = sdy.func_data_flow_edge %0 : tensor<8xf32>\n"
        "  return %1 : tensor<8xf32>\n}"
    )
    with pytest.raises(IRError, match="to be a result of call op"):
        verify(parse_module(func_edge_of_an_op))
    pytest.importorskip("jax")
    from shardonnay.testing.mlir_oracle import jaxlib_accepts

    for text in (two_users, of_a_constraint, func_edge_of_an_op):
        assert not jaxlib_accepts(text)


# -- passes jaxlib 0.10.2's Shardy lacks (written from Shardy's source) ---------------------

UNREDUCED_X = '<@mesh, [{}, {}], unreduced={"x"}>'


def _unreduced_program(negated: str, returned: str, reshard: bool = False) -> str:
    """A dot_general whose contracting dim is split over "x" (its result
    unreduced over "x"), maybe resharded, negated (`negated`: the negate's
    sharding, if any) and returned (`returned`: the result's, if any)."""
    source = "%0"
    lines = []
    if reshard:
        lines.append("  %r = sdy.reshard %0 <@mesh, [{}, {}]> : tensor<8x2xf32>")
        source = "%r"
    negate = f" {{sdy.sharding = #sdy.sharding_per_value<[{negated}]>}}" if negated else ""
    lines.append(f"  %1 = stablehlo.negate {source}{negate} : tensor<8x2xf32>")
    result = f" {{sdy.sharding = #sdy.sharding{returned}}}" if returned else ""
    return MESH + (
        "func.func @main(\n"
        '    %arg0: tensor<8x4xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"x"}]>},\n'
        '    %arg1: tensor<4x2xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {}]>})\n'
        f"    -> (tensor<8x2xf32>{result}) {{\n"
        "  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0]\n"
        f"      {{sdy.sharding = #sdy.sharding_per_value<[{UNREDUCED_X}]>}}\n"
        "      : (tensor<8x4xf32>, tensor<4x2xf32>) -> tensor<8x2xf32>\n"
        + "\n".join(lines)
        + "\n  return %1 : tensor<8x2xf32>\n}\n"
    )


def test_jaxlib_lacks_verify_unreduced_axes() -> None:
    pytest.importorskip("jax")
    from jaxlib.mlir import passmanager

    from shardonnay.testing.mlir_oracle import context

    with context(), pytest.raises(Exception, match="does not refer to a registered pass"):
        passmanager.PassManager.parse("builtin.module(func.func(sdy-verify-unreduced-axes))")


def test_verify_unreduced_axes_follows_shardys_rules() -> None:
    pipeline = "builtin.module(func.func(sdy-verify-unreduced-axes))"
    # a dot_general may make its result unreduced; an elementwise op keeps it
    kept = _unreduced_program(UNREDUCED_X, UNREDUCED_X)
    assert _ours(kept, pipeline) == parse_module(kept).to_text()
    with pytest.raises(IRError, match="stablehlo.negate: dropped unreduced axis 'x' without"):
        _ours(_unreduced_program("", UNREDUCED_X), pipeline)
    with pytest.raises(IRError, match="func.return: has unreduced axes mismatch for 'x'"):
        _ours(_unreduced_program(UNREDUCED_X, ""), pipeline)
    # a reshard (an sdy op) is where an unreduced axis may be reduced
    reduced = _unreduced_program("", "", reshard=True)
    assert _ours(reduced, pipeline) == parse_module(reduced).to_text()


@pytest.mark.parametrize(
    "passes",
    [
        "sdy-add-data-flow-edges,sdy-aggressive-propagate",
        "sdy-add-data-flow-edges,sdy-basic-propagate,func.func(sdy-sink-data-flow-edges)",
        "sdy-add-data-flow-edges,sdy-apply-sharding-constraints",
    ],
)
def test_edges_of_optimization_barriers_print_what_shardy_prints(passes: str) -> None:
    pytest.importorskip("jax")
    pipeline = f"builtin.module({passes})"
    compared = 0
    for seed in range(PROGRAMS_PER_PASS):
        text = program(seed, "barrier")
        expected = _shardy(text, pipeline)
        if expected is not None:
            compared += 1
            assert _ours(text, pipeline) == expected, f"seed {seed}"
    assert compared >= PROGRAMS_PER_PASS // 2


@pytest.mark.parametrize(
    "passes",
    [
        "sdy-user-priority-propagate{run-op-priority-propagation=false}",
        "sdy-op-priority-propagate{run-op-priority-propagation=false}",
        "sdy-aggressive-propagate{propagation-strategy=basic}",
        "sdy-basic-propagate{keep-sharding-rules=true conservative-propagation=true}",
    ],
)
def test_propagation_options_print_what_shardy_prints(passes: str) -> None:
    pytest.importorskip("jax")
    pipeline = f"builtin.module(sdy-add-data-flow-edges,{passes})"
    for seed in range(PROGRAMS_PER_PASS):
        text = program(seed, "plain")
        expected = _shardy(text, pipeline)
        assert expected is not None
        assert _ours(text, pipeline) == expected, f"seed {seed}"


def test_options_parse_as_mlir_writes_them() -> None:
    from shardonnay.passes import PassSpec, parse_pipeline

    assert parse_pipeline(
        "builtin.module(sdy-basic-propagate{module-dump-directory= keep-sharding-rules=true},"
        "canonicalize{enable-patterns={sdy-collective}  max-iterations=10})"
    ) == [
        PassSpec(
            "sdy-basic-propagate", {"module-dump-directory": "", "keep-sharding-rules": "true"}
        ),
        PassSpec("canonicalize", {"enable-patterns": "{sdy-collective}", "max-iterations": "10"}),
    ]


def _dumps(directory) -> dict[str, str]:
    return {p.name: p.read_text() for p in sorted(directory.iterdir())}


@pytest.mark.parametrize("variant", ["plain", "calls", "manual"])
def test_the_module_dump_directory_receives_what_shardy_saves(variant: str, tmp_path) -> None:
    """jaxlib's `sdy-user-priority-propagate` saves the module after each of
    its rounds but the last (`00.propagation_after_user_priority_P.mlir`, P
    the round's priority, 0 first); the other propagation passes save
    nothing. The same files, with the same text, for every program."""
    pytest.importorskip("jax")
    from shardonnay.testing.mlir_oracle import run_pass_pipeline

    compared = 0
    for seed in range(12):
        text = program(seed, variant)
        for name in ("sdy-user-priority-propagate", "sdy-aggressive-propagate"):
            theirs, ours = tmp_path / f"{seed}-{name}-shardy", tmp_path / f"{seed}-{name}-ours"
            theirs.mkdir()
            ours.mkdir()
            run_pass_pipeline(text, f"builtin.module({name}{{module-dump-directory={theirs}}})")
            _ours(text, f"builtin.module({name}{{module-dump-directory={ours}}})")
            assert _dumps(ours) == _dumps(theirs), (seed, name)
            compared += bool(_dumps(ours))
    assert compared >= 4  # programs with priorities saved rounds


def test_user_priority_rounds_are_saved_after_each_but_the_last(tmp_path) -> None:
    text = """sdy.mesh @mesh = <["x"=2, "y"=2]>
func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}p2, {}]>},
    %arg1: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}, {"y"}p5]>})
    -> tensor<8x8xf32> {
  %0 = stablehlo.add %arg0, %arg1 : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}"""
    out = _ours(
        text, f"builtin.module(sdy-user-priority-propagate{{module-dump-directory={tmp_path}}})"
    )
    saved = _dumps(tmp_path)
    assert list(saved) == [
        "00.propagation_after_user_priority_0.mlir",
        "00.propagation_after_user_priority_2.mlir",
    ]
    # round 0 sees neither prioritized dim; round 2 sees "x", not yet "y"
    assert 'replicated={"x"}' in saved["00.propagation_after_user_priority_0.mlir"]
    after_2 = saved["00.propagation_after_user_priority_2.mlir"]
    assert '[{"x"}, {}]>' in after_2 and 'replicated={"y"}' in after_2
    assert "sdy.sharding_rule" in after_2 and "sdy.sharding_rule" not in out


def test_an_unwritable_module_dump_directory_is_reported(tmp_path, capsys) -> None:
    """As in jaxlib 0.10.2: a directory that does not exist is not made; the
    error is printed and the pass goes on."""
    missing = tmp_path / "missing"
    text = """sdy.mesh @mesh = <["x"=2]>
func.func @main(%arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}p1]>})
    -> tensor<8xf32> {
  %0 = stablehlo.negate %arg0 : tensor<8xf32>
  return %0 : tensor<8xf32>
}"""
    pipeline = f"builtin.module(sdy-user-priority-propagate{{module-dump-directory={missing}}})"
    out = _ours(text, pipeline)
    assert out == _ours(text, "builtin.module(sdy-user-priority-propagate)")
    assert capsys.readouterr().err == (
        f"error when writing file {missing}/00.propagation_after_user_priority_0.mlir: "
        "No such file or directory\n"
    )
    assert not missing.exists()


@pytest.mark.parametrize("name", ["mlp_train_step", "scan_rnn", "shard_map_psum"])
def test_run_pipeline_copies_unless_in_place(name: str) -> None:
    from pathlib import Path

    text = (Path(__file__).parent.parent / "corpus" / f"{name}.mlir").read_text()
    pipeline = "builtin.module(sdy-propagation-pipeline)"
    module = parse_module(text)
    before = module.to_text()
    copied = run_pipeline(module, pipeline)
    assert module.to_text() == before  # the argument is left as it was
    in_place = run_pipeline(module, pipeline, in_place=True)
    assert in_place.to_text() == copied.to_text() != before
    assert module.to_text() == in_place.to_text()  # the argument itself was transformed
