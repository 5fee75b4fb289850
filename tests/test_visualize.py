"""Pictures of shardings (`shardonnay.visualize`, `shardonnay show`), tested as a person sees them:
the terminal picture against text snapshots, the image opened and its blocks counted, and every
block against `shardonnay.layout` (what each device really holds)."""

from __future__ import annotations

import io
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from rich.console import Console

import shardonnay
from shardonnay import Mesh, TensorSharding
from shardonnay.cli import main
from shardonnay.errors import ShardingError, ShardonnayError
from shardonnay.layout import device_slices
from shardonnay.pictures import visualize
from shardonnay.pipeline import propagation_pipeline
from shardonnay.testing.strategies import sharding_cases

os.environ.setdefault("XLA_FLAGS", "--xla_force_host_platform_device_count=8")

MLP = Path(__file__).resolve().parent.parent / "examples" / "mlp.mlir"


def _seen(picture, width: int, terminal: int | None = None) -> str:
    """What a terminal `terminal` columns wide (default `width`) shows of a
    picture `width` columns wide: the rich rendering as text, colours dropped."""
    console = Console(record=True, width=terminal or width, color_system=None, file=io.StringIO())
    picture.render(console, width=width)
    return "\n".join(line.rstrip() for line in console.export_text().splitlines()) + "\n"


NON_IOTA = """\
5x2x7 #sdy.sharding<@m, [{"b"}, {}, {"a"}]> on <["a"=3, "b"=2], device_ids=[0, 2, 4, 1, 3, 5]>
┌────────────────────────┬────────────────────────┬────────────┐
│                        │                        │            │
│       [0:3, 0:3]       │       [0:3, 3:6]       │ [0:3, 6:7] │
│         device         │         device         │   device   │
│           0            │           4            │     3      │
│                        │                        │            │
│                        │                        │            │
├────────────────────────┼────────────────────────┼────────────┤
│                        │                        │            │
│       [3:5, 0:3]       │       [3:5, 3:6]       │ [3:5, 6:7] │
│         device         │         device         │   device   │
│           2            │           1            │     5      │
│                        │                        │            │
└────────────────────────┴────────────────────────┴────────────┘
rows: dim 0 (5) split 2 ways along "b"; columns: dim 2 (7) split 3 ways along "a"
not drawn: dim 1 (2) whole
padding: dim 0 is cut in 2 shards of 3 slots; the last with data holds 2
padding: dim 2 is cut in 3 shards of 3 slots; the last with data holds 1
"""

SUB_AXIS_UNREDUCED = """\
4x6 #sdy.sharding<@m, [{"x":(1)2}, {}], unreduced={"u"}> on <["x"=4, "u"=2]>
┌──────────────────────────────────────┐
│                                      │
│              [0:2, 0:6]              │
│               devices                │
│              0, 1, 2, 3              │
│                                      │
├──────────────────────────────────────┤
│                                      │
│              [2:4, 0:6]              │
│               devices                │
│              4, 5, 6, 7              │
│                                      │
└──────────────────────────────────────┘
rows: dim 0 (4) split 2 ways along "x":(1)2; columns: dim 1 (6) whole
replicated along "x" (the rest of it)
unreduced along "u": the devices of a block hold values whose sum is the data
each block is held by 4 devices
"""


def test_uneven_dims_of_a_rank_3_tensor_on_a_non_iota_mesh() -> None:
    mesh = Mesh.parse('<["a"=3, "b"=2], device_ids=[0, 2, 4, 1, 3, 5]>')
    sharding = TensorSharding.parse('<@m, [{"b"}, {}, {"a"}]>')
    assert _seen(visualize(sharding, (5, 2, 7), mesh, dims=(0, 2)), 60) == NON_IOTA


def test_sub_axes_replicated_and_unreduced_axes() -> None:
    mesh = Mesh.parse('<["x"=4, "u"=2]>')
    sharding = TensorSharding.parse('<@m, [{"x":(1)2}, {}], unreduced={"u"}>')
    assert _seen(visualize(sharding, (4, 6), mesh), 40) == SUB_AXIS_UNREDUCED


def test_rank_one_and_scalar() -> None:
    mesh = Mesh.parse('<["x"=4]>')
    row = visualize(TensorSharding.parse('<@m, [{"x"}]>'), (6,), mesh)
    assert [b.columns for b in row.blocks] == [range(0, 2), range(2, 4), range(4, 6), range(6, 6)]
    assert "padding: dim 0 is cut in 4 shards of 2 slots; the last with data holds 2, 1 only " in (
        row.text(width=60)
    )
    scalar = visualize(TensorSharding.parse("<@m, []>"), (), mesh)
    assert [b.devices for b in scalar.blocks] == [(0, 1, 2, 3)]


@settings(max_examples=60, deadline=None)
@given(sharding_cases(max_devices=16))
def test_every_block_is_what_its_devices_hold(case) -> None:
    mesh, sharding, shape = case
    dims = tuple(range(min(len(shape), 2)))
    picture = visualize(sharding, shape, mesh, dims=dims)
    regions = device_slices(shape, sharding, mesh)
    listed = sorted(d for b in picture.blocks for d in b.devices)
    assert listed == sorted(regions)  # every device once
    for block in picture.blocks:
        for d in block.devices:
            spans = [range(s.start, s.stop) for s in regions[d]]
            drawn = [r for r in (block.rows, block.columns) if r is not None]
            assert [spans[k] for k in picture.dims] == drawn


def test_png_has_one_colour_per_block(tmp_path: Path) -> None:
    import matplotlib.image

    mesh = Mesh.parse('<["x"=2, "y"=4]>')
    picture = visualize(TensorSharding.parse('<@mesh, [{"x"}, {"y"}]>'), (8, 8), mesh)
    path = tmp_path / "p.png"
    picture.save(str(path))
    image = matplotlib.image.imread(str(path))
    height, width, _ = image.shape
    assert width > 300 and height > 300
    pixels = (image[..., :3] * 255).round().astype(int).reshape(-1, 3)
    colours = {tuple(p) for p in pixels}
    from shardonnay.pictures import _PALETTE

    blocks = {tuple(int(h[i : i + 2], 16) for i in (1, 3, 5)) for h, _ in _PALETTE[:8]}
    assert blocks <= colours  # each of the 8 blocks painted in its own colour
    counts = {c: int(np.sum(np.all(pixels == c, axis=1))) for c in blocks}
    assert max(counts.values()) < 1.5 * min(counts.values())  # blocks of equal size


def test_svg(tmp_path: Path, capsys) -> None:
    path = tmp_path / "p.svg"
    assert main(["show", "--shape", "8x6", "--mesh", '<["x"=2]>', '<@m, [{"x"}, {}]>',
                 "--svg", str(path)]) == 0  # fmt: skip
    assert path.read_text().lstrip().startswith("<?xml") and "<svg" in path.read_text()
    assert capsys.readouterr().out == f"wrote {path}\n"


def test_show_a_value_of_a_program(capsys) -> None:
    assert main(["show", str(MLP), "%1", "--width", "70"]) == 0
    out = capsys.readouterr().out
    propagated = propagation_pipeline(shardonnay.parse_module(MLP.read_text()))
    expected = _seen(visualize(propagated, "%1"), 70, terminal=80)  # not a terminal: 80
    assert [line.rstrip() for line in out.splitlines()] == expected.splitlines()
    assert out.startswith('%1: 16x64 #sdy.sharding<@mesh, [{"data"}, {"model"}]>')


def test_show_errors(capsys) -> None:
    assert main(["show", str(MLP), "%99"]) == 1
    assert capsys.readouterr().err.startswith("error: no value named '%99'")
    assert main(["show", "--shape", "8", "--mesh", '<["x"=2]>', '<@m, [{"x"}]>',
                 "--dims", "0,1"]) == 1  # fmt: skip
    assert "choose up to two different dims" in capsys.readouterr().err
    with pytest.raises(ShardingError):
        visualize(TensorSharding.parse('<@m, [{"x"}]>'), (8, 8), Mesh.parse('<["x"=2]>'))
    with pytest.raises(ShardonnayError, match="give the tensor's shape"):
        visualize(TensorSharding.parse('<@m, [{"x"}]>'))


def test_import_shardonnay_stays_light() -> None:
    code = (
        "import sys, shardonnay; assert 'rich' not in sys.modules; "
        "assert 'matplotlib' not in sys.modules; shardonnay.visualize; "
        "assert 'rich' not in sys.modules; print(callable(shardonnay.visualize))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "True"


def test_a_jax_array_as_jax_places_it() -> None:
    jax = pytest.importorskip("jax")
    from jax.sharding import NamedSharding
    from jax.sharding import PartitionSpec as P

    devices = np.array(jax.devices()[:8])[[0, 2, 4, 6, 1, 3, 5, 7]].reshape(2, 4)
    mesh = jax.sharding.Mesh(devices, ("a", "b"))
    array = jax.device_put(np.zeros((8, 3, 2)), NamedSharding(mesh, P("b", None, "a")))
    picture = visualize(array, dims=(0, 2))
    expected = array.sharding.devices_indices_map(array.shape)
    for block in picture.blocks:
        for d in block.devices:
            index = expected[jax.devices()[d]]
            assert (index[0].indices(8)[:2], index[2].indices(2)[:2]) == (
                (block.rows.start, block.rows.stop),
                (block.columns.start, block.columns.stop),
            )
    assert sorted(d for b in picture.blocks for d in b.devices) == list(range(8))
