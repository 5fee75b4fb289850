"""The languages of whole annotated modules: `MODULE_FORMATS`, what a program's shardings
are read from (`--from`, `read_program`) and written in (`shardonnay convert --to`).

Apart from `shardonnay.cli.inputs` so that the commands that read only sdy (`fmt`, `opt`,
`run`) do not import the GSPMD and shard dialect converters."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from dataclasses import dataclass

from shardonnay.cli.inputs import read_input
from shardonnay.interop.gspmd_module import export_gspmd, import_gspmd
from shardonnay.interop.shard_program import export_shard, import_shard
from shardonnay.ir.core import Module
from shardonnay.syntax.mlir_reader import parse_module


def add_input_format_option(command: argparse.ArgumentParser) -> None:
    """`--from FORMAT`: the language the program's shardings are written in."""
    command.add_argument(
        "--from",
        dest="input_format",
        choices=sorted(MODULE_FORMATS),
        default="sdy",
        help="the language of the program's shardings: sdy (default), gspmd (mhlo.sharding, "
        "as JAX writes it without Shardy) or shard (the MLIR shard dialect); read as "
        "`shardonnay convert --from FORMAT --to sdy` would",
    )


def read_program(args: argparse.Namespace):
    """The module of `args.input`, its shardings read from `args.input_format` (default sdy)."""
    text, source = read_input(args.input)
    return MODULE_FORMATS[getattr(args, "input_format", "sdy")].read(text, source)


# -- modules ----------------------------------------------------------------------------


@dataclass(frozen=True)
class ModuleFormat:
    """A language for whole annotated modules: `read(text, source)` gives an sdy
    `Module`, `write(module)` prints one."""

    describe: str
    read: Callable[[str, str], Module]
    write: Callable[[Module], str]


def _read_sdy_module(text: str, source: str) -> Module:
    return parse_module(text, source)


def _write_sdy_module(module: Module) -> str:
    return module.to_text()


def _read_gspmd_module(text: str, source: str) -> Module:
    return import_gspmd(parse_module(text, source))


def _write_gspmd_module(module: Module) -> str:
    return export_gspmd(module).to_text()


def _read_shard_module(text: str, source: str) -> Module:
    return import_shard(parse_module(text, source))


def _write_shard_module(module: Module) -> str:
    return export_shard(module).to_text()


#: Whole modules: format name -> how to read one into sdy and write one back.
MODULE_FORMATS: dict[str, ModuleFormat] = {
    "sdy": ModuleFormat(
        "StableHLO with sdy meshes, shardings and ops", _read_sdy_module, _write_sdy_module
    ),
    "gspmd": ModuleFormat(
        "StableHLO with mhlo.sharding attributes and @Sharding / shard_map custom calls",
        _read_gspmd_module,
        _write_gspmd_module,
    ),
    "shard": ModuleFormat(
        "the MLIR shard dialect: shard.grid, shard.sharding and shard.shard",
        _read_shard_module,
        _write_shard_module,
    ),
}
