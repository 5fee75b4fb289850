"""`shardonnay onnx`: sharding specs of ONNX models (check, infer, show).

shardonnay onnx check MODEL.onnx
shardonnay onnx infer MODEL.onnx -o OUT.onnx [--mesh MESH] [--formalism]
shardonnay onnx show MODEL.onnx TENSOR [--dims 0,1] [--png OUT | --svg OUT]
"""

from __future__ import annotations

import argparse
from typing import Any

from shardonnay.cli.picture_options import add_image_options, parse_dims, save_image
from shardonnay.errors import IRError, ShardonnayError
from shardonnay.interop.onnx.checker import check_model
from shardonnay.interop.onnx.graph import ModelView
from shardonnay.interop.onnx.inference import infer, infer_formalism
from shardonnay.interop.onnx.specs import mesh_for_specs, spec_to_sharding
from shardonnay.layout_report import describe_layout
from shardonnay.mesh import Mesh
from shardonnay.pictures import visualize


def add_arguments(onnx: argparse.ArgumentParser) -> None:
    """The arguments of `shardonnay onnx` (its one-line help is in `cli.COMMANDS`)."""
    onnx.description = (
        "Sharding specs of ONNX models (the onnx extra): 'check' applies the ONNX sharding "
        "formalism's validity rules to every node, 'infer' completes the specs (by "
        "shardonnay's propagation over the graph, or --formalism: the proposal's own "
        "inference) and writes the model, 'show' draws how one tensor lies on the devices."
    )
    actions = onnx.add_subparsers(dest="action", metavar="ACTION", required=True)

    check = actions.add_parser("check", help="the formalism's findings, node by node")
    check.add_argument("model", help="the .onnx file")
    check.set_defaults(run=run_check)

    infer = actions.add_parser("infer", help="complete the specs and write the model")
    infer.add_argument("model", help="the .onnx file")
    infer.add_argument("-o", "--output", required=True, help="where to write the model")
    infer.add_argument("--mesh", help='the mesh specs are written on, like \'<["x"=2, "y"=2]>\'')
    infer.add_argument(
        "--formalism",
        action="store_true",
        help="the ONNX proposal's inference only (node by node, model inputs unsharded)",
    )
    infer.add_argument(
        "--strategy",
        choices=("aggressive", "basic"),
        default="aggressive",
        help="factor propagation strategy (default: aggressive)",
    )
    infer.add_argument(
        "--conservative", action="store_true", help="never split a mesh axis into sub-axes"
    )
    infer.add_argument(
        "--priority",
        action="append",
        default=[],
        metavar="TENSOR=N",
        help="the priority of a tensor's specs (p0 is propagated first); repeatable",
    )
    infer.add_argument(
        "--inputs-unsharded",
        action="store_true",
        help="model inputs without a spec stay unsharded, as the formalism assumes",
    )
    infer.set_defaults(run=run_infer)

    show = actions.add_parser("show", help="draw how a tensor lies on the devices")
    show.add_argument("model", help="the .onnx file")
    show.add_argument("tensor", help="the tensor's name")
    show.add_argument("--mesh", help="the mesh to draw on (default: one built from the specs)")
    show.add_argument("--dims", help="the two dims drawn, like 0,2 (default: the first two)")
    show.add_argument("--width", type=int, help="width of the picture in columns")
    add_image_options(show)
    show.set_defaults(run=run_show)


def load_model(path: str) -> Any:
    """The `ModelProto` in file `path`; `IRError` if it is not one."""
    try:
        import onnx
    except ImportError:
        raise ShardonnayError("the onnx commands need the onnx extra: pip install onnx") from None
    from google.protobuf.message import DecodeError

    try:
        return onnx.load(path)
    except DecodeError as e:
        raise IRError(f"{path}: not an ONNX model ({e})") from None


def run_check(args: argparse.Namespace) -> int:
    findings = check_model(load_model(args.model))
    for finding in findings:
        print(finding)
    invalid = sum(f.severity == "invalid" for f in findings)
    print(f"{invalid} invalid, {len(findings) - invalid} unsupported")
    return 1 if invalid else 0


def run_infer(args: argparse.Namespace) -> int:
    import onnx

    model = load_model(args.model)
    if args.formalism:
        result = infer_formalism(model)
    else:
        result = infer(
            model,
            mesh=Mesh.parse(args.mesh) if args.mesh else None,
            strategy=args.strategy,
            conservative=args.conservative,
            priorities=_priorities(args.priority),
            inputs_unsharded=args.inputs_unsharded,
        )
    onnx.save(result.model, args.output)
    if result.mesh is not None:
        print(f"mesh {result.mesh}")
    if result.shardings is not None:
        width = max(map(len, result.shardings), default=0)
        for name, sharding in result.shardings.items():
            print(f"{name.ljust(width)}  {sharding}")
    for note in result.notes:
        print(f"note: {note}")
    print(f"wrote {args.output}")
    return 0


def _priorities(entries: list[str]) -> dict[str, int]:
    """`["W1=0", "A=1"]` as `{"W1": 0, "A": 1}`."""
    out = {}
    for entry in entries:
        name, _, value = entry.rpartition("=")
        if not name or not value.isdigit():
            raise ShardonnayError(f"--priority {entry!r}: expected TENSOR=N, like W1=0")
        out[name] = int(value)
    return out


def run_show(args: argparse.Namespace) -> int:
    view = ModelView(load_model(args.model))
    every, found = [], None
    for index in range(len(view.nodes)):
        specs = view.node_specs(index)
        for spec in [*specs.inputs.values(), *specs.outputs.values()]:
            spec = spec.normalized(len(view.shape(spec.tensor_name)))
            every.append(spec)
            producer = index == view.producer.get(args.tensor)
            if spec.tensor_name == args.tensor and (found is None or producer):
                found = spec
    if found is None:
        raise ShardonnayError(
            f"no node carries a spec for {args.tensor!r} (run 'shardonnay onnx infer' first)"
        )
    mesh = Mesh.parse(args.mesh) if args.mesh else mesh_for_specs(every, view.num_devices)
    shape = view.shape(args.tensor)
    sharding = spec_to_sharding(found, shape, mesh)
    picture = visualize(sharding, shape, mesh, dims=parse_dims(args.dims))
    if save_image(picture, args):
        return 0
    from rich.console import Console

    console = Console(highlight=False)
    console.print(f"{args.tensor}:")
    picture.render(console, width=args.width)
    console.print(describe_layout(shape, sharding, mesh))
    return 0
