"""`shardonnay convert`: every sharding format into every other and back, modules in and out."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

import shardonnay
from shardonnay import Mesh, TensorSharding
from shardonnay.cli import main
from shardonnay.cli.convert import MODULE_FORMATS
from shardonnay.layout import device_slices

CORPUS = Path(__file__).parent.parent / "corpus_gspmd"

# One sharding of a 16x8 tensor on 8 devices in each language; all put the same data on
# the same devices (the mesh <["x"=2, "y"=4]>, dim 0 split along "y").
SAME_SHARDING = {
    "sdy": ('<@mesh, [{"y"}, {}]>', '<["x"=2, "y"=4]>'),
    "gspmd": ("{devices=[4,1,2]<=[2,4]T(1,0) last_tile_dim_replicate}", None),
    "shard": ("[[1], []]", "2x4"),
}


def _convert(capsys, *argv) -> str:
    assert main(["convert", *argv]) == 0
    return capsys.readouterr().out


def _layout(text: str) -> dict:
    """Which slices of the 16x8 tensor each device holds, from `convert --to sdy` output."""
    mesh_line, sharding_line = text.strip().splitlines()
    mesh = Mesh.parse(mesh_line.split(" = ", 1)[1])
    return device_slices((16, 8), TensorSharding.parse(sharding_line), mesh)


@pytest.mark.parametrize(("source", "target"), list(itertools.permutations(SAME_SHARDING, 2)))
def test_each_sharding_format_converts_to_each_other(capsys, source, target):
    text, mesh = SAME_SHARDING[source]
    argv = ["--sharding", text, "--shape", "16x8", "--from", source, "--to", target]
    out = _convert(capsys, *argv, *(["--mesh", mesh] if mesh else []))
    back = ["--sharding", out.strip().splitlines()[-1], "--shape", "16x8", "--from", target]
    if target == "sdy":
        back += ["--mesh", out.split(" = ", 1)[1].splitlines()[0]]
    elif target == "shard":
        back += ["--mesh", out.split("shape = ", 1)[1].split(")")[0]]
    as_sdy = _convert(capsys, *back, "--to", "sdy")
    reference = _convert(
        capsys, "--sharding", SAME_SHARDING["sdy"][0], "--mesh", SAME_SHARDING["sdy"][1],
        "--shape", "16x8", "--from", "sdy", "--to", "sdy",
    )  # fmt: skip
    assert _layout(as_sdy) == _layout(reference)


def test_gspmd_sharding_output(capsys):
    out = _convert(
        capsys, "--sharding", '<@mesh, [{"y"}, {}]>', "--mesh", '<["x"=2, "y"=4]>',
        "--shape", "16x8", "--from", "sdy", "--to", "gspmd",
    )  # fmt: skip
    assert out == "{devices=[4,1,2]<=[2,4]T(1,0) last_tile_dim_replicate}\n"


def test_gspmd_module_to_sdy_partitions_like_its_twin(capsys, tmp_path):
    out = _convert(capsys, str(CORPUS / "mlp.gspmd.mlir"), "--from", "gspmd", "--to", "sdy")
    assert 'sdy.mesh @mesh = <["_axis_0"=2, "_axis_1"=4]>' in out
    assert "mhlo.sharding" not in out
    imported = shardonnay.parse_module(out)
    twin = shardonnay.parse_module((CORPUS / "mlp.sdy.mlir").read_text())
    ours, theirs = shardonnay.check(imported), shardonnay.check(twin)
    assert ours.ok and (ours.num_collectives, ours.bytes_received) == (
        theirs.num_collectives,
        theirs.bytes_received,
    )
    path = tmp_path / "mlp.sdy.mlir"
    path.write_text(out)
    back = _convert(capsys, str(path), "--from", "sdy", "--to", "gspmd")
    assert back == (CORPUS / "mlp.gspmd.mlir").read_text()


SHARD_PROGRAM = """\
module {
  shard.grid @grid(shape = 2x3)
  func.func @main(%arg0: tensor<6x6xf32>) -> tensor<6x6xf32> {
    %sharding = shard.sharding @grid split_axes = [[0], [1]] : !shard.sharding
    %sharding_annotated = shard.shard %arg0 to %sharding : tensor<6x6xf32>
    %0 = stablehlo.negate %sharding_annotated : tensor<6x6xf32>
    %sharding_0 = shard.sharding @grid split_axes = [[1], [0]] : !shard.sharding
    %sharding_annotated_1 = shard.shard %0 to %sharding_0 annotate_for_users : tensor<6x6xf32>
    return %sharding_annotated_1 : tensor<6x6xf32>
  }
}
"""


def test_shard_module_through_every_module_format(capsys, tmp_path):
    source = tmp_path / "program.mlir"
    source.write_text(SHARD_PROGRAM)
    sdy = _convert(capsys, str(source), "--from", "shard", "--to", "sdy")
    assert '#sdy.sharding<@grid, [{"axis_1"}, {"axis_0"}]>' in sdy
    assert shardonnay.check(shardonnay.parse_module(sdy)).ok
    gspmd = tmp_path / "program.gspmd.mlir"
    gspmd.write_text(_convert(capsys, str(source), "--from", "shard", "--to", "gspmd"))
    assert "{devices=[2,3]<=[6]}" in gspmd.read_text()
    again = _convert(capsys, str(gspmd), "--from", "gspmd", "--to", "shard")
    # the GSPMD module keeps its device count as a module attribute; the grid its name
    again = again.replace("module attributes {mhlo.num_partitions = 6 : i32} {", "module {")
    assert again.replace("@mesh", "@grid") == SHARD_PROGRAM


def test_every_module_format_reads_what_it_writes(capsys, tmp_path):
    source = tmp_path / "program.mlir"
    source.write_text(SHARD_PROGRAM)
    sdy = _convert(capsys, str(source), "--from", "shard", "--to", "sdy")
    for name in MODULE_FORMATS:
        written = tmp_path / f"program.{name}"
        (tmp_path / "program.sdy").write_text(sdy)
        written.write_text(_convert(capsys, str(tmp_path / "program.sdy"), "--from", "sdy",
                                    "--to", name))  # fmt: skip
        read = _convert(capsys, str(written), "--from", name, "--to", "sdy")
        module = shardonnay.parse_module(read)
        assert shardonnay.check(module).ok, name


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["--sharding", "[[0]]", "--from", "shard", "--to", "sdy"], "--shape"),
        (["--sharding", "[[0]]", "--shape", "4", "--from", "shard", "--to", "sdy"], "--mesh"),
        (["--sharding", "x", "--shape", "4", "--from", "klingon", "--to", "sdy"], "unknown"),
        (["--from", "gspmd"], "module file"),
        (
            [
                "--sharding",
                '<@mesh, [{"x"}], unreduced={"y"}>',
                "--mesh",
                '<["x"=2, "y"=2]>',
                "--shape",
                "4",
                "--from",
                "sdy",
                "--to",
                "gspmd",
            ],
            "unreduced",
        ),
        (
            [
                "--sharding",
                '<@mesh, [{"x":(1)2}]>',
                "--mesh",
                '<["x"=4]>',
                "--shape",
                "4",
                "--from",
                "sdy",
                "--to",
                "shard",
            ],
            "sub-axis",
        ),
    ],
)
def test_errors_are_one_line(capsys, argv, message):
    assert main(["convert", *argv]) == 1
    err = capsys.readouterr().err
    assert err.startswith("error: ") and message in err and "Traceback" not in err


def test_commands_that_read_a_program_read_every_format(capsys, tmp_path):
    """`--from gspmd|shard` on propagate, partition and explain: the program is read as
    `convert --to sdy` reads it."""
    gspmd = str(CORPUS / "mlp.gspmd.mlir")
    assert main(["partition", gspmd, "--from", "gspmd", "--simulate"]) == 0
    assert "1 of 1 outputs match" in capsys.readouterr().out
    source = tmp_path / "program.mlir"
    source.write_text(SHARD_PROGRAM)
    assert main(["propagate", str(source), "--from", "shard"]) == 0
    propagated = shardonnay.parse_module(capsys.readouterr().out)
    negate = next(op for op in propagated.walk() if op.name == "stablehlo.negate")
    assert str(negate.attributes["sdy.sharding"]) == (
        '#sdy.sharding_per_value<[<@grid, [{"axis_1"}, {"axis_0"}]>]>'
    )
    assert main(["explain", str(source), "--from", "shard", "%0"]) == 0
    assert "axis_1" in capsys.readouterr().out
