"""The `shardonnay` command: output on the bundled example and errors without tracebacks."""

import subprocess
import sys
from pathlib import Path

import pytest

from shardonnay.cli import main

EXAMPLE = Path(__file__).parent.parent.parent / "examples" / "layouts.sdy"


def test_layout_of_bundled_example(capsys):
    assert main(["layout", str(EXAMPLE)]) == 0
    out = capsys.readouterr().out
    assert '8x6 tensor sharded #sdy.sharding<@mesh, [{"x"}, {"y"}]>' in out
    assert "     3  0  3  [0:4, 6:6] + 8 padding" in out
    assert 'devices along "y" hold values whose sum is the data' in out


def test_layout_of_one_sharding_from_arguments(capsys):
    assert main(["layout", "--shape", "5", "--mesh", '<["x"=2]>', '<@m, [{"x"}]>']) == 0
    assert "     1  1  [3:5] + 1 padding" in capsys.readouterr().out


@pytest.mark.parametrize(
    "argv, message",
    [
        (["layout", "--shape", "5", "--mesh", '<["x"=2]>', '<@m, [{"x", "x"}]>'], "duplicate axis"),
        (["layout", "--shape", "5x", '<@m, [{"x"}]>'], "invalid shape"),
        (["layout", "--shape", "5", '<@m, [{"x"}]>'], "refers to mesh @m"),
        (["layout", "--shape", "5", "--mesh", '<["x"=2]>', '<@m, [{"x"}'], "^"),
        (["layout", "no/such/file.sdy"], "No such file"),
        (
            ["layout", "--strict", "--shape", "1", "--mesh", '<["x"=2]>', '<@m, [{"x"}]>'],
            "split into 1 shards",
        ),
    ],
)
def test_bad_input_is_an_error_message_and_status_1(argv, message, capsys):
    assert main(argv) == 1
    err = capsys.readouterr().err
    assert err.startswith("error: ") and message in err and "Traceback" not in err


def test_layout_file_errors_point_at_the_line(tmp_path, capsys):
    bad = tmp_path / "bad.sdy"
    bad.write_text('sdy.mesh @m = <["x"=2]>\ntensor<4xf32> #sdy.sharding<@n, [{"x"}]>\n')
    assert main(["layout", str(bad)]) == 1
    assert f"{bad}:2:15: unknown mesh: @n" in capsys.readouterr().err


def test_console_script_version_and_help():
    version = subprocess.run(
        [sys.executable, "-m", "shardonnay.cli", "--version"], capture_output=True, text=True
    )
    assert version.returncode == 0 and version.stdout.strip().startswith("shardonnay ")
    help_text = subprocess.run(
        [sys.executable, "-m", "shardonnay.cli", "--help"], capture_output=True, text=True
    )
    assert help_text.returncode == 0 and "layout" in help_text.stdout


MLP = EXAMPLE.parent / "mlp.mlir"


@pytest.mark.parametrize("command", [["propagate"], ["explain", "main:%arg2"]])
def test_a_strategy_of_its_own_needs_no_pipeline(command, capsys):
    # sdy-propagation-pipeline runs only aggressive or basic factor propagation.
    argv = [command[0], str(MLP), *command[1:], "--strategy", "op-priority"]
    with pytest.raises(SystemExit) as exit_info:
        main(argv)
    assert exit_info.value.code == 2
    assert "--strategy op-priority is a propagation pass of its own: add --no-pipeline" in (
        capsys.readouterr().err
    )
    assert main([*argv, "--no-pipeline"]) == 0
