"""Bad input to propagation: typed errors that say where, or Shardy's warnings.

Every malformed annotation below makes `propagate` and `propagation_pipeline`
raise a `ShardonnayError` naming the function and the op (never a Python
exception from inside the driver), and `shardonnay propagate FILE` print it
without a traceback and exit with status 1. The real Shardy (MLIR inside
jaxlib, `shardonnay.testing.mlir_oracle`) rejects the same programs, for the same reason:
each case names a phrase both messages contain. What Shardy only warns about
(an op without a sharding rule, sharding groups whose members disagree) gives
a `PropagationWarning` and the same output as Shardy's.
"""

from __future__ import annotations

import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

from shardonnay.cli import main
from shardonnay.errors import IRError, ShardingError, ShardonnayError
from shardonnay.pipeline import propagation_pipeline
from shardonnay.propagation.driver import propagate
from shardonnay.propagation.importing.validation import PropagationWarning
from shardonnay.syntax.mlir_reader import parse_module
from shardonnay.testing.mlir_oracle import run_pass_pipeline_with_diagnostics
from shardonnay.testing.program_generator import random_program

MESH = 'sdy.mesh @mesh = <["x"=2, "y"=2]>'
PIPELINE = "builtin.module(sdy-propagation-pipeline)"
AGGRESSIVE = "builtin.module(sdy-aggressive-propagate)"
CORPUS = sorted((Path(__file__).parent.parent / "corpus").glob("*.mlir"))


def _negate(arg: str = "", attrs: str = "", shape: str = "8x8") -> str:
    return f"""{MESH}
func.func @main(%arg0: tensor<{shape}xf32>{arg}) -> tensor<{shape}xf32> {{
  %0 = stablehlo.negate %arg0{attrs} : tensor<{shape}xf32>
  return %0 : tensor<{shape}xf32>
}}"""


def _manual(in_sharding: str, local: str, *, shape: str = "8x8", manual: str = '"x"') -> str:
    return f"""{MESH}
func.func @main(%arg0: tensor<{shape}xf32>) -> tensor<{shape}xf32> {{
  %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, {in_sharding}>]
      out_shardings=[<@mesh, {in_sharding}>] manual_axes={{{manual}}}
      (%arg1: tensor<{local}xf32>) {{
    sdy.return %arg1 : tensor<{local}xf32>
  }} : (tensor<{shape}xf32>) -> tensor<{shape}xf32>
  return %0 : tensor<{shape}xf32>
}}"""


def _sharded(sharding: str) -> str:
    return f" {{sdy.sharding = #sdy.sharding<@mesh, {sharding}>}}"


def _per_value(*shardings: str) -> str:
    body = ", ".join(f"<@mesh, {s}>" for s in shardings)
    return f" {{sdy.sharding = #sdy.sharding_per_value<[{body}]>}}"


# name: (program, error type, where it is, a phrase in our message and in Shardy's
# (None: Shardy rejects it for another reason first))
ERRORS = {
    "duplicate axis": (
        _negate(_sharded('[{"x", "x"}, {}]')),
        IRError,
        "in @main: the sharding of argument 0",
        "duplicate axis ref",
    ),
    "unknown axis": (
        _negate(attrs=_per_value('[{"z"}, {}]')),
        IRError,
        "in @main, op 0 (stablehlo.negate)",
        'unknown axis name: "z"',
    ),
    "rank mismatch": (
        f"""{MESH}
func.func @main(%arg0: tensor<8x8xf32>) -> tensor<8x8xf32> {{
  %0 = stablehlo.negate %arg0 : tensor<8x8xf32>
  %1 = sdy.sharding_constraint %0 <@mesh, [{{"x"}}]> : tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}}""",
        IRError,
        "in @main, op 1 (sdy.sharding_constraint)",
        "sharding doesn't match tensor rank: 1 != 2",
    ),
    "unknown mesh": (
        _negate(_sharded('[{"x"}, {}]').replace("@mesh", "@other")),
        IRError,
        "in @main: the sharding of argument 0",
        "unknown mesh",
    ),
    "unknown mesh of an op": (
        _negate(attrs=_per_value('[{"x"}, {}]').replace("@mesh", "@nomesh")),
        IRError,
        "in @main, op 0 (stablehlo.negate)",
        "unknown mesh",
    ),
    "unknown mesh next to a mesh with a size-one axis": (
        _negate(_sharded('[{"x"}, {}]').replace("@mesh", "@other")).replace(
            '["x"=2, "y"=2]', '["x"=2, "one"=1]'
        ),
        IRError,
        "in @main: the sharding of argument 0",
        "unknown mesh",
    ),
    "one sharding too many": (
        _negate(attrs=_per_value('[{"x"}, {}]', '[{"x"}, {}]')),
        IRError,
        "in @main, op 0 (stablehlo.negate)",
        "2 shardings",
    ),
    "manual axis after a free axis": (
        _manual('[{"y", "x"}, {}]', "2x8"),
        IRError,
        "in @main, op 0 (sdy.manual_computation)",
        "must have all manual axes come before free axes",
    ),
    "manual body type not the local shape": (
        _manual('[{"x"}, {}]', "8x8"),
        IRError,
        "in @main, op 0 (sdy.manual_computation)",
        "Expected local shape",
    ),
    "manual dim not divisible": (
        _manual('[{"x"}, {}]', "4x8", shape="7x8"),
        IRError,
        "in @main, op 0 (sdy.manual_computation)",
        "operand dimension size 7 is not divisible by the manual axes size 2",
    ),
    "unknown manual axis": (
        _manual('[{"x"}, {}]', "4x8", manual='"q"'),
        IRError,
        "in @main, op 0 (sdy.manual_computation)",
        None,
    ),
    "manual axis used inside the body": (
        _manual('[{"x"}, {}]', "4x8").replace(
            "    sdy.return %arg1 : tensor<4x8xf32>",
            "    %1 = stablehlo.negate %arg1"
            + _per_value('[{"x"}, {}]')
            + " : tensor<4x8xf32>\n    sdy.return %1 : tensor<4x8xf32>",
        ),
        IRError,
        "in @main, op 1 (stablehlo.negate)",
        'operates on axis "x"',
    ),
    "rule that does not fit its op": (
        _negate(
            _sharded('[{"x"}, {}]'),
            " {sdy.sharding_rule = #sdy.op_sharding_rule<([i])->([i]) {i=8}>}",
        ),
        IRError,
        "in @main, op 0 (stablehlo.negate)",
        "mapping rank must match: 1 != 2",
    ),
}

TWO_GROUPS = f"""{MESH}
func.func @main(%arg0: tensor<8x8xf32>, %arg1: tensor<8x8xf32>) -> tensor<8x8xf32> {{
  sdy.sharding_group %arg0 group_id=0 : tensor<8x8xf32>
  sdy.sharding_group %arg0 group_id=1 : tensor<8x8xf32>
  sdy.sharding_group %arg1 group_id=1 : tensor<8x8xf32>
  %0 = stablehlo.add %arg0, %arg1 : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}}"""


# -- errors --------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ERRORS)
def test_propagate_raises_a_typed_error_that_says_where(name: str) -> None:
    text, error, where, phrase = ERRORS[name]
    with pytest.raises(error) as raised:
        propagate(parse_module(text))
    message = str(raised.value)
    assert message.startswith(where) and (phrase is None or phrase in message)


@pytest.mark.parametrize("name", ERRORS)
def test_the_pipeline_raises_it_before_any_pass(name: str) -> None:
    text, error, where, _ = ERRORS[name]
    with pytest.raises(error) as raised:
        propagation_pipeline(parse_module(text))
    assert str(raised.value).startswith(where)


@pytest.mark.oracle
@pytest.mark.parametrize("name", ERRORS)
def test_shardy_rejects_it_for_the_same_reason(name: str) -> None:
    pytest.importorskip("jax")
    from shardonnay.testing.mlir_oracle import run_pass_pipeline

    text, _, _, phrase = ERRORS[name]
    for pipeline in (AGGRESSIVE, PIPELINE):
        with pytest.raises(Exception) as raised:
            run_pass_pipeline(text, pipeline)
        assert phrase is None or phrase in str(raised.value)


@pytest.mark.parametrize("name", ERRORS)
def test_the_cli_prints_the_error_without_a_traceback(name, tmp_path, capsys) -> None:
    text, _, where, phrase = ERRORS[name]
    path = tmp_path / "bad.mlir"
    path.write_text(text)
    assert main(["propagate", str(path)]) == 1
    captured = capsys.readouterr()
    assert captured.err.startswith(f"error: {where}") and "Traceback" not in captured.err
    assert phrase is None or phrase in captured.err
    assert captured.out == ""


def test_the_console_command_exits_with_status_1(tmp_path) -> None:
    path = tmp_path / "bad.mlir"
    path.write_text(ERRORS["manual axis after a free axis"][0])
    done = subprocess.run(
        [sys.executable, "-m", "shardonnay.cli", "propagate", str(path)],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert done.stderr.startswith("error: in @main, op 0 (sdy.manual_computation)")


def test_a_value_in_two_sharding_groups_is_an_error_of_propagate() -> None:
    # Shardy's propagation passes abort the process on it ("Value can only
    # map to one sharding group id after import"); its pipeline merges the
    # groups first.
    with pytest.raises(ShardingError, match=r"^in @main, op 1 \(sdy.sharding_group\): .*group 0"):
        propagate(parse_module(TWO_GROUPS))


@pytest.mark.oracle
def test_the_pipeline_merges_groups_that_share_a_value_as_shardy_does() -> None:
    pytest.importorskip("jax")
    from shardonnay.testing.mlir_oracle import run_pass_pipeline

    ours = propagation_pipeline(parse_module(TWO_GROUPS)).to_text()
    assert ours == run_pass_pipeline(TWO_GROUPS, PIPELINE)


@pytest.mark.oracle
def test_a_split_manual_axis_is_judged_as_shardy_judges_it() -> None:
    """Shardy in jaxlib 0.10.2 accepts a manual axis split into sub-axes (the
    body's local shape divides by the sub-axis), and so does shardonnay."""
    pytest.importorskip("jax")
    from shardonnay.testing.mlir_oracle import run_pass_pipeline

    text = _manual('[{"x":(1)2}, {}]', "4x8").replace('["x"=2, "y"=2]', '["x"=4, "y"=2]')
    try:
        run_pass_pipeline(text, PIPELINE)
        shardy_accepts = True
    except Exception:
        shardy_accepts = False
    try:
        propagate(parse_module(text))
        we_accept = True
    except ShardonnayError:
        we_accept = False
    assert we_accept == shardy_accepts


# -- warnings ------------------------------------------------------------------------------

CUSTOM_CALL = f"""{MESH}
func.func @main(%arg0: tensor<8x8xf32> {{sdy.sharding = #sdy.sharding<@mesh, [{{"x"}}, {{}}]>}})
    -> tensor<8x8xf32> {{
  %0 = stablehlo.custom_call @my_kernel(%arg0) : (tensor<8x8xf32>) -> tensor<8x8xf32>
  %1 = stablehlo.negate %0 : tensor<8x8xf32>
  return %1 : tensor<8x8xf32>
}}"""

GROUPS_DISAGREE = f"""{MESH}
func.func @main(%arg0: tensor<8x8xf32> {{sdy.sharding = #sdy.sharding<@mesh, [{{"x"}}, {{}}]>}},
                %arg1: tensor<8x8xf32> {{sdy.sharding = #sdy.sharding<@mesh, [{{}}, {{"y"}}]>}})
    -> tensor<8x8xf32> {{
  sdy.sharding_group %arg0 group_id=0 : tensor<8x8xf32>
  sdy.sharding_group %arg1 group_id=0 : tensor<8x8xf32>
  %0 = stablehlo.add %arg0, %arg1 : tensor<8x8xf32>
  return %0 : tensor<8x8xf32>
}}"""

# name: (program, a phrase of our warning, one of Shardy's)
WARNINGS = {
    "custom call without a rule": (
        CUSTOM_CALL,
        r"in @main, op 0 \(stablehlo.custom_call\): custom call @my_kernel is unknown",
        "custom call @my_kernel is unknown",
    ),
    "sharding groups that disagree": (
        GROUPS_DISAGREE,
        "the initial shardings of the members of sharding group 0 do not match",
        "sharding groups of groupID: 0 do not match",
    ),
}


@pytest.mark.parametrize("name", WARNINGS)
def test_what_shardy_tolerates_is_a_warning(name: str) -> None:
    text, ours, _ = WARNINGS[name]
    with pytest.warns(PropagationWarning, match=ours):
        propagate(parse_module(text))


@pytest.mark.oracle
@pytest.mark.parametrize("name", WARNINGS)
def test_shardy_warns_and_propagates_alike(name: str) -> None:
    pytest.importorskip("jax")
    text, _, theirs = WARNINGS[name]
    for pipeline, ours in ((AGGRESSIVE, propagate), (PIPELINE, propagation_pipeline)):
        expected, _ = run_pass_pipeline_with_diagnostics(text, pipeline)
        with pytest.warns(PropagationWarning):
            assert ours(parse_module(text)).to_text() == expected
    # Shardy warns of an op without a rule once per process: ask a fresh one.
    script = (
        "import sys\n"
        "from shardonnay.testing.mlir_oracle import run_pass_pipeline_with_diagnostics\n"
        "print(run_pass_pipeline_with_diagnostics(sys.stdin.read(), sys.argv[1])[1])"
    )
    done = subprocess.run(
        [sys.executable, "-c", script, PIPELINE],
        input=text,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr
    assert theirs in done.stdout


def test_an_op_of_an_unknown_dialect_warns_and_stops_propagation() -> None:
    text = CUSTOM_CALL.replace(
        "stablehlo.custom_call @my_kernel(%arg0)", '"mydialect.kernel"(%arg0)'
    )
    with pytest.warns(PropagationWarning, match="op 'mydialect.kernel' is unknown"):
        out = propagate(parse_module(text))
    kernel, negate = out.functions[0].body.ops[:2]
    assert "sdy.sharding" not in kernel.attributes and "sdy.sharding" not in negate.attributes


@pytest.mark.oracle
def test_a_group_across_regions_is_accepted_as_shardy_accepts_it() -> None:
    pytest.importorskip("jax")
    from shardonnay.testing.mlir_oracle import run_pass_pipeline

    text = f"""{MESH}
func.func @main(%arg0: tensor<8x8xf32> {{sdy.sharding = #sdy.sharding<@mesh, [{{"x"}}, {{}}]>}},
                %arg1: tensor<i32>) -> tensor<8x8xf32> {{
  sdy.sharding_group %arg0 group_id=0 : tensor<8x8xf32>
  %0:2 = stablehlo.while(%iterArg = %arg0, %iterArg_0 = %arg1) : tensor<8x8xf32>, tensor<i32>
  cond {{
    %c = stablehlo.constant dense<2> : tensor<i32>
    %1 = stablehlo.compare LT, %iterArg_0, %c : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  }} do {{
    %1 = stablehlo.negate %iterArg : tensor<8x8xf32>
    sdy.sharding_group %1 group_id=0 : tensor<8x8xf32>
    stablehlo.return %1, %iterArg_0 : tensor<8x8xf32>, tensor<i32>
  }}
  return %0#0 : tensor<8x8xf32>
}}"""
    assert propagate(parse_module(text)).to_text() == run_pass_pipeline(text, AGGRESSIVE)
    assert propagation_pipeline(parse_module(text)).to_text() == run_pass_pipeline(text, PIPELINE)


# -- nothing else escapes --------------------------------------------------------------------

_SHARDING = re.compile(r"<@(\w+), \[((?:\{[^{}]*\}(?:p\d+)?(?:, )?)*)\]")


def _mutate(text: str, rng: random.Random) -> str:
    """`text` with one sharding spoiled: an unknown or repeated axis, a dim
    more or less, or an unknown mesh."""
    found = list(_SHARDING.finditer(text))
    if not found:
        return text
    match = rng.choice(found)
    mesh = match.group(1)
    dims = re.findall(r"\{[^{}]*\}(?:p\d+)?", match.group(2))
    axes = re.findall(r'"\w+"', match.group(2)) or ['"x"']
    kind = rng.randrange(5)
    if kind == 0:
        dims = ['{"zz"}', *dims[1:]]
    elif kind == 1:
        dims = [f"{{{axes[0]}, {axes[0]}}}", *dims[1:]]
    elif kind == 2:
        dims = [*dims, "{}"]
    elif kind == 3:
        dims = dims[1:]
    else:
        mesh = "nomesh"
    return text[: match.start()] + f"<@{mesh}, [{', '.join(dims)}]" + text[match.end() :]


def _programs() -> list[str]:
    return [path.read_text() for path in CORPUS] + [random_program(s) for s in range(40)]


@pytest.mark.parametrize("chunk", range(4))
def test_spoiled_annotations_raise_only_typed_errors(chunk: int) -> None:
    rng = random.Random(chunk)
    programs = _programs()
    raised = ran = 0
    for k in range(chunk, len(programs), 4):
        text = _mutate(programs[k], rng)
        for run in (propagate, propagation_pipeline):
            ran += 1
            try:
                run(parse_module(text))
            except ShardonnayError:
                raised += 1
    assert raised >= ran // 2, f"only {raised} of {ran} spoiled programs were rejected"


def test_the_cli_prints_a_warning_as_one_line(tmp_path, capsys) -> None:
    from shardonnay.cli import main

    path = tmp_path / "kernel.mlir"
    path.write_text(
        CUSTOM_CALL.replace("stablehlo.custom_call @my_kernel(%arg0)", '"mydialect.kernel"(%arg0)')
    )
    assert main(["propagate", str(path)]) == 0
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1 and err[0].startswith("warning: ") and "mydialect.kernel" in err[0]
