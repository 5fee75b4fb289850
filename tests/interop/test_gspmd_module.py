"""GSPMD-annotated modules: imported, they propagate and partition as their Shardy twins.

`tests/corpus_gspmd/NAME.gspmd.mlir` and `NAME.sdy.mlir` are one JAX program lowered with
Shardy off and on (`scripts/export_gspmd_corpus.py`). The imported GSPMD module must give every
value the same data on every device (`shardonnay.layout.device_slices`) as the twin, before and
after propagation, and partition to a program that computes the same thing with the same
communication.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import shardonnay
from shardonnay import (
    AxisRef,
    DimSharding,
    IRError,
    Mesh,
    ShardingError,
    TensorSharding,
    UnsupportedOpError,
)
from shardonnay.interop.gspmd import HloSharding, from_tensor_sharding
from shardonnay.interop.gspmd_module import export_gspmd, import_gspmd, parse_hlo_shardings
from shardonnay.ir.core import Module
from shardonnay.layout import device_slices
from shardonnay.syntax.mlir_reader import parse_module

CORPUS = Path(__file__).parent.parent / "corpus_gspmd"
NAMES = sorted(p.name.removesuffix(".gspmd.mlir") for p in CORPUS.glob("*.gspmd.mlir"))


def _read(name: str, kind: str) -> Module:
    return parse_module((CORPUS / f"{name}.{kind}.mlir").read_text(), f"{name}.{kind}.mlir")


def _layouts(module: Module) -> list:
    """Per annotated value, in program order: which slices each device holds (None: no
    sharding)."""
    meshes = module.meshes

    def slices(sharding, type):
        if sharding is None:
            return None
        mesh = sharding.resolve_mesh(
            meshes.get(sharding.mesh) if isinstance(sharding.mesh, str) else None
        )
        return device_slices(type.shape, sharding, mesh)

    out = []
    for f in module.functions:
        for i, t in enumerate(f.type.inputs):
            out.append(("arg", f.name, i, slices(f.arg_attrs(i).get("sdy.sharding"), t)))
        for i, t in enumerate(f.type.results):
            out.append(("result", f.name, i, slices(f.result_attrs(i).get("sdy.sharding"), t)))
        for op in f.walk():
            per_value = op.attributes.get("sdy.sharding")
            for i, r in enumerate(op.results):
                s = per_value.shardings[i] if per_value is not None else None
                if op.name == "sdy.sharding_constraint":
                    s = op.attributes["sharding"]
                out.append((op.name, i, slices(s, r.type)))
            for key in ("in_shardings", "out_shardings"):
                if key in op.attributes:
                    values = op.operands if key == "in_shardings" else op.results
                    for s, v in zip(op.attributes[key].shardings, values, strict=True):
                        out.append((key, slices(s, v.type)))
    return out


def _open_dims(module: Module) -> list:
    """Which dims are closed, for every sharding constraint and manual computation."""
    out = []
    for op in module.walk():
        if op.name == "sdy.sharding_constraint":
            out.append([d.is_closed for d in op.attributes["sharding"].dims])
        elif op.name == "sdy.manual_computation":
            for key in ("in_shardings", "out_shardings"):
                out += [[d.is_closed for d in s.dims] for s in op.attributes[key].shardings]
    return out


@pytest.mark.parametrize("name", NAMES)
def test_imported_module_annotates_as_its_shardy_twin(name):
    imported, twin = import_gspmd(_read(name, "gspmd")), _read(name, "sdy")
    assert [op.name for op in imported.walk()] == [op.name for op in twin.walk()]
    assert _layouts(imported) == _layouts(twin)
    assert _open_dims(imported) == _open_dims(twin)


@pytest.mark.parametrize("name", NAMES)
def test_imported_module_propagates_as_its_shardy_twin(name):
    imported, twin = import_gspmd(_read(name, "gspmd")), _read(name, "sdy")
    assert _layouts(shardonnay.propagate(imported)) == _layouts(shardonnay.propagate(twin))


@pytest.mark.parametrize("name", NAMES)
def test_imported_module_partitions_as_its_shardy_twin(name):
    imported, twin = import_gspmd(_read(name, "gspmd")), _read(name, "sdy")
    ours, theirs = shardonnay.check(imported, seed=0), shardonnay.check(twin, seed=0)
    assert ours.ok and theirs.ok
    assert (ours.num_collectives, ours.bytes_received) == (
        theirs.num_collectives,
        theirs.bytes_received,
    )


@pytest.mark.parametrize("name", NAMES)
def test_export_of_the_import_keeps_every_sharding(name):
    gspmd = _read(name, "gspmd")
    again = export_gspmd(import_gspmd(gspmd))
    assert _annotations(again) == _annotations(gspmd)
    assert _layouts(import_gspmd(again)) == _layouts(import_gspmd(gspmd))


def _annotations(module: Module) -> list:
    """Every mhlo.sharding of `main`'s arguments and results, and every custom call with
    its sharding and backend_config, in order."""
    main = module.function("main")
    out = [a.get("mhlo.sharding") for a in main.op.attributes.get("arg_attrs", ())]
    out += [a.get("mhlo.sharding") for a in main.op.attributes.get("res_attrs", ())]
    for op in module.walk():
        if op.name == "stablehlo.custom_call":
            attrs = op.attributes
            out.append((attrs["call_target_name"], attrs["mhlo.sharding"], attrs["backend_config"]))
    return out


@pytest.mark.parametrize("name", NAMES)
def test_export_of_the_shardy_twin_is_what_jax_writes_without_shardy(name):
    """Exporting the Shardy twin gives the shardings and custom calls JAX wrote with Shardy
    off (shard_map bodies included), and otherwise the same program."""
    exported = export_gspmd(_read(name, "sdy"))
    assert _annotations(exported) == _annotations(_read(name, "gspmd"))
    assert [op.name for op in exported.walk()] == [op.name for op in _read(name, "gspmd").walk()]


def test_random_shardings_round_trip_through_a_module():
    """sdy → GSPMD → sdy keeps each device's data, on random meshes and shardings."""
    rng = random.Random(0)
    for _ in range(60):
        sizes = [rng.choice([2, 3, 4]) for _ in range(rng.randint(1, 3))]
        mesh = Mesh([(f"m{i}", s) for i, s in enumerate(sizes)])
        names = list(mesh.axis_names)
        rng.shuffle(names)
        dims = [[], []]
        for n in names[: rng.randint(0, len(names))]:
            dims[rng.randint(0, 1)].append(n)
        sharding = TensorSharding.from_axes("mesh", [tuple(d) or None for d in dims])
        shape = tuple(mesh.size * rng.randint(1, 2) for _ in range(2))
        text = (
            f"sdy.mesh @mesh = {mesh}\n"
            f"func.func @main(%arg0: tensor<{shape[0]}x{shape[1]}xf32> "
            f"{{sdy.sharding = {sharding}}}) -> tensor<{shape[0]}x{shape[1]}xf32> {{\n"
            f"  %0 = sdy.sharding_constraint %arg0 <@mesh, [{{}}, {{?}}]> "
            f": tensor<{shape[0]}x{shape[1]}xf32>\n"
            f"  return %0 : tensor<{shape[0]}x{shape[1]}xf32>\n}}"
        )
        module = parse_module(text)
        exported = export_gspmd(module)
        hlo = exported.function("main").arg_attrs(0)["mhlo.sharding"]
        assert hlo == str(from_tensor_sharding(sharding, mesh))
        back = import_gspmd(exported)
        assert _layouts(back) == _layouts(module), (mesh, sharding)


def _hlo_slices(hlo: HloSharding, shape) -> dict:
    """Per device, the slices of its tile: the GSPMD reading of `hlo`, without meshes."""
    out = {}
    for device, tile in hlo.tile_index().items():
        counts = hlo.data_dims or (1,) * len(shape)
        out[device] = tuple(
            slice(min(n, i * -(-n // k)), min(n, (i + 1) * -(-n // k)))
            for n, k, i in zip(shape, counts, tile or (0,) * len(shape), strict=True)
        )
    return out


def _random_hlo(rng: random.Random) -> HloSharding:
    """A random tiled sharding of a rank-2 tensor on 8 or 12 devices, sub-axes included."""
    sizes = rng.choice([[2, 4], [4, 2], [2, 2, 2], [8], [3, 4], [2, 6]])
    mesh = Mesh([(f"m{i}", s) for i, s in enumerate(sizes)])
    pieces = []
    for name, size in mesh.axes:
        if size >= 4 and rng.random() < 0.5:
            pieces += [AxisRef(name, (1, 2)), AxisRef(name, (2, size // 2))]
        else:
            pieces.append(AxisRef(name))
    rng.shuffle(pieces)
    dims: list[list[AxisRef]] = [[], []]
    for piece in pieces[: rng.randint(1, len(pieces))]:
        dim = rng.randint(0, 1)
        if dims[dim] and dims[dim][-1].can_merge(piece):  # Shardy wants them merged
            dim = 1 - dim
        dims[dim].append(piece)
    sharding = TensorSharding("mesh", tuple(DimSharding(tuple(d)) for d in dims))
    return from_tensor_sharding(sharding, mesh)


def test_random_gspmd_modules_round_trip_exactly():
    """GSPMD → sdy → GSPMD gives the same text, and each imported sharding puts the tiles
    of the HloSharding on the same devices, for two random shardings sharing one mesh."""
    rng = random.Random(1)
    checked = 0
    for _ in range(120):
        first, second = _random_hlo(rng), _random_hlo(rng)
        if len(first.devices) != len(second.devices):
            continue
        module = parse_module(
            f"module attributes {{mhlo.num_partitions = {len(first.devices)} : i32}} {{\n"
            f'func.func @main(%a: tensor<24x12xf32> {{mhlo.sharding = "{first}"}},\n'
            f'    %b: tensor<24x12xf32> {{mhlo.sharding = "{second}"}}) -> tensor<24x12xf32> {{\n'
            "  return %a : tensor<24x12xf32>\n}\n}"
        )
        try:
            imported = import_gspmd(module)
        except ShardingError as e:  # two iota cuts that no one mesh refines
            assert "do not divide one another" in str(e)
            continue
        main, mesh = imported.function("main"), imported.meshes["mesh"]
        for i, hlo in enumerate((first, second)):
            sharding = main.arg_attrs(i)["sdy.sharding"]
            assert device_slices((24, 12), sharding, mesh) == _hlo_slices(hlo, (24, 12))
        assert export_gspmd(imported).to_text() == module.to_text()
        checked += 1
    assert checked >= 40


@pytest.mark.parametrize("name", ["shard_map_psum", "partial_manual"])
def test_shard_map_bodies_written_inline_import_as_called_ones(name):
    """A shard_map whose body sits between its custom calls (no `call @shmap_body`)."""
    from shardonnay.ir.inline import inline_calls

    called = _read(name, "gspmd")
    inline = inline_calls(called)
    assert not [op for op in inline.walk() if op.name == "func.call"]
    assert import_gspmd(inline).to_text() == import_gspmd(called).to_text()


def test_nested_manual_computations_round_trip():
    """A shard_map inside a shard_map: the inner `{manual}` names every axis, of which
    the inner manual computation takes those the outer one left free."""
    module = parse_module(
        """
        sdy.mesh @mesh = <["x"=2, "y"=2]>
        func.func @main(%arg0: tensor<8x8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"x"}, {"y"}]>})
            -> tensor<8x8xf32> {
          %0 = sdy.manual_computation(%arg0) in_shardings=[<@mesh, [{"x"}, {"y"}]>]
              out_shardings=[<@mesh, [{"x"}, {"y"}]>] manual_axes={"x"} (%arg1: tensor<4x8xf32>) {
            %1 = sdy.manual_computation(%arg1) in_shardings=[<@mesh, [{}, {"y"}]>]
                out_shardings=[<@mesh, [{}, {"y"}]>] manual_axes={"y"} (%arg2: tensor<4x4xf32>) {
              %2 = stablehlo.negate %arg2 : tensor<4x4xf32>
              sdy.return %2 : tensor<4x4xf32>
            } : (tensor<4x8xf32>) -> tensor<4x8xf32>
            sdy.return %1 : tensor<4x8xf32>
          } : (tensor<8x8xf32>) -> tensor<8x8xf32>
          return %0 : tensor<8x8xf32>
        }"""  # noqa: E501
    )
    exported = export_gspmd(module)
    marks = [
        op.attributes["mhlo.sharding"] for op in exported.walk() if "mhlo.sharding" in op.attributes
    ]
    assert "{devices=[1,1,2,2]<=[4] last_tile_dims={manual, replicated}}" in marks
    back = import_gspmd(exported)
    axes = [
        op.attributes["manual_axes"].names for op in back.walk() if "manual_axes" in op.attributes
    ]
    assert axes == [("_axis_0",), ("_axis_1",)]
    assert _layouts(back) == _layouts(module)
    assert shardonnay.check(back).ok


def test_tuple_shardings_annotate_each_result():
    module = parse_module(
        """
        func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
          %0:2 = stablehlo.custom_call @foo(%arg0)
              {mhlo.sharding = "{{devices=[2]<=[2]}, {replicated}}"}
              : (tensor<8xf32>) -> (tensor<8xf32>, tensor<8xf32>)
          return %0#0 : tensor<8xf32>
        }"""
    )
    imported = import_gspmd(module)
    op = next(op for op in imported.walk() if op.name == "stablehlo.custom_call")
    assert str(op.attributes["sdy.sharding"]) == (
        '#sdy.sharding_per_value<[<@mesh, [{"_axis_0"}]>, <@mesh, [{}]>]>'
    )
    exported = export_gspmd(imported)
    op = next(op for op in exported.walk() if op.name == "stablehlo.custom_call")
    assert parse_hlo_shardings(op.attributes["mhlo.sharding"]) == (
        HloSharding.parse("{devices=[2]<=[2]}"),
        HloSharding.parse("{replicated}"),
    )


def test_maximal_shardings_get_maximal_meshes():
    module = parse_module(
        """
        func.func @main(%arg0: tensor<8xf32> {mhlo.sharding = "{maximal device=1}"})
            -> (tensor<8xf32> {mhlo.sharding = "{devices=[2]<=[2]}"}) {
          return %arg0 : tensor<8xf32>
        }"""
    )
    imported = import_gspmd(module)
    assert {k: str(m) for k, m in imported.meshes.items()} == {
        "mesh": '<["_axis_0"=2]>',
        "maximal_mesh_1": "<[], device_ids=[1]>",
    }
    assert export_gspmd(imported).function("main").arg_attrs(0) == {
        "mhlo.sharding": "{maximal device=1}"
    }


def test_device_lists_that_are_no_iota_get_a_mesh_with_device_ids():
    module = parse_module(
        """
        module attributes {mhlo.num_partitions = 4 : i32} {
        func.func @main(%a: tensor<8x4xf32> {mhlo.sharding = "{devices=[4,1]0,3,1,2}"},
                        %b: tensor<8x4xf32> {mhlo.sharding = "{devices=[2,2]<=[4]}"})
            -> tensor<8x4xf32> {
          return %a : tensor<8x4xf32>
        }
        }"""
    )
    imported = import_gspmd(module)
    assert {k: str(m) for k, m in imported.meshes.items()} == {
        "mesh": '<["_axis_0"=2, "_axis_1"=2]>',
        "mesh_1": '<["_axis_0"=4], device_ids=[0, 3, 1, 2]>',
    }
    sharding = imported.function("main").arg_attrs(0)["sdy.sharding"]
    hlo = HloSharding.parse("{devices=[4,1]0,3,1,2}")
    assert device_slices((8, 4), sharding, imported.meshes["mesh_1"]) == _hlo_slices(hlo, (8, 4))
    assert export_gspmd(imported).to_text() == module.to_text()
    assert shardonnay.check(imported).ok


def test_incompatible_cuts_raise():
    module = parse_module(
        """
        func.func @main(
            %arg0: tensor<6xf32> {mhlo.sharding = "{devices=[2,3]<=[6] last_tile_dim_replicate}"},
            %arg1: tensor<6xf32> {mhlo.sharding = "{devices=[3,2]<=[6] last_tile_dim_replicate}"}
        ) -> tensor<6xf32> {
          return %arg0 : tensor<6xf32>
        }"""
    )
    with pytest.raises(ShardingError, match="do not divide one another"):
        import_gspmd(module)


def test_unpaired_shard_map_custom_call_raises():
    module = parse_module(
        """
        func.func @main(%arg0: tensor<8xf32>) -> tensor<4xf32> {
          %0 = stablehlo.custom_call @SPMDFullToShardShape(%arg0) {mhlo.sharding = "{manual}"}
              : (tensor<8xf32>) -> tensor<4xf32>
          return %0 : tensor<4xf32>
        }"""
    )
    with pytest.raises(IRError, match="escapes it without @Sharding"):
        import_gspmd(module)


def test_export_refuses_what_gspmd_cannot_say():
    unreduced = parse_module(
        """
        sdy.mesh @mesh = <["x"=2]>
        func.func @main(
            %arg0: tensor<8xf32> {sdy.sharding = #sdy.sharding<@mesh, [{}], unreduced={"x"}>}
        ) -> tensor<8xf32> {
          return %arg0 : tensor<8xf32>
        }"""
    )
    with pytest.raises(ShardingError, match="unreduced"):
        export_gspmd(unreduced)
    group = parse_module(
        """
        sdy.mesh @mesh = <["x"=2]>
        func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
          sdy.sharding_group %arg0 group_id=0 : tensor<8xf32>
          return %arg0 : tensor<8xf32>
        }"""
    )
    with pytest.raises(UnsupportedOpError, match="sdy.sharding_group"):
        export_gspmd(group)


def test_module_without_gspmd_annotations_is_unchanged():
    text = (
        "func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {\n"
        "  return %arg0 : tensor<8xf32>\n}"
    )
    module = parse_module(text)
    assert import_gspmd(module).to_text() == module.to_text()


@pytest.mark.oracle
def test_corpus_is_what_jax_writes():
    """The stored modules are what JAX lowers today, with Shardy off and on
    (`scripts/export_gspmd_corpus.py`, imported and run in this process)."""
    import importlib.util
    import os

    os.environ.setdefault("XLA_FLAGS", "--xla_force_host_platform_device_count=8")
    jax = pytest.importorskip("jax")
    if len(jax.devices("cpu")) < 8:
        pytest.skip("needs 8 host devices (XLA_FLAGS was set before jax was imported)")
    path = Path(__file__).parent.parent.parent / "scripts" / "export_gspmd_corpus.py"
    spec = importlib.util.spec_from_file_location("export_gspmd_corpus", path)
    script = importlib.util.module_from_spec(spec)
    was = jax.config.jax_use_shardy_partitioner
    try:
        spec.loader.exec_module(script)
        for make in script.PROGRAMS:
            for kind, use_shardy in (("gspmd", False), ("sdy", True)):
                text = (CORPUS / f"{make.__name__}.{kind}.mlir").read_text()
                assert script.lowered_text(make, use_shardy) == text, (make.__name__, kind)
    finally:
        jax.config.update("jax_use_shardy_partitioner", was)
