"""The `shardonnay` command.

    shardonnay layout examples/layouts.sdy
    shardonnay layout --mesh '<["x"=2, "y"=4]>' --shape 8x6 '<@mesh, [{"x"}, {"y"}]>'
    shardonnay fmt program.mlir [--generic] [--split-input-file]
    shardonnay run program.mlir --seed 0 [--func main]
    shardonnay propagate program.mlir [--strategy STRATEGY] [--conservative] [--no-pipeline]
        [--debug-origins] [--debug-edges]
    shardonnay explain program.mlir %12 [--why-not AXIS]
    shardonnay opt program.mlir --pass-pipeline 'builtin.module(sdy-aggressive-propagate)'
    shardonnay partition program.mlir [--report] [--simulate [--seed N]] [--devices]
        [--no-propagate]

Errors in the input are printed as `error: ...` (with the source line and a
caret for syntax errors) and exit with status 1, without a traceback.
"""

from __future__ import annotations

import argparse
import hashlib
import re
import sys
import warnings
from collections.abc import Sequence
from pathlib import Path

from shardonnay import __version__
from shardonnay.errors import ShardonnayError
from shardonnay.layout_report import describe_layout
from shardonnay.mesh import Mesh, read_mesh
from shardonnay.sharding import TensorSharding, read_symbol_name, read_tensor_sharding
from shardonnay.syntax.cursor import Cursor

_TENSOR_TYPE = re.compile(r"tensor<((?:\d+x)*)[a-z][a-z0-9]*>")


def main(argv: Sequence[str] | None = None) -> int:
    parser = _parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 0
    try:
        with warnings.catch_warnings():
            warnings.showwarning = _print_warning
            return args.run(args)
    except ShardonnayError as e:
        print(f"error: {e}", file=sys.stderr)
        return 1
    except OSError as e:
        print(f"error: {e.filename}: {e.strerror}", file=sys.stderr)
        return 1


def _print_warning(message, category, filename, lineno, file=None, line=None) -> None:
    """Warnings (e.g. Shardy's propagation warnings) as one `warning:` line."""
    print(f"warning: {message}", file=sys.stderr)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="shardonnay",
        description="Axis-based tensor sharding on named device meshes (Shardy's model).",
    )
    parser.add_argument("--version", action="version", version=f"shardonnay {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")

    layout = commands.add_parser(
        "layout",
        help="show which part of a tensor each device holds",
        description=(
            "Show which region of a tensor each device holds under a sharding. Either read a "
            "file of `sdy.mesh @name = <...>` declarations and `tensor<...> #sdy.sharding<...>` "
            "lines, or give one sharding with --shape (and --mesh unless it inlines its mesh)."
        ),
    )
    layout.add_argument("input", help="a file ('-' for stdin), or a sharding with --shape")
    layout.add_argument("--shape", help="tensor shape like 8x6 (the input is then a sharding)")
    layout.add_argument("--mesh", help='the mesh, like \'<["x"=2, "y"=4]>\'')
    layout.add_argument(
        "--strict", action="store_true", help="also apply the RFC's stricter dim-size rules"
    )
    layout.set_defaults(run=_run_layout)

    fmt = commands.add_parser(
        "fmt",
        help="parse a program and print it in MLIR's form",
        description="Parse an MLIR program (StableHLO + sdy) and print it as MLIR prints it.",
    )
    fmt.add_argument("input", help="the program file ('-' for stdin)")
    fmt.add_argument("--generic", action="store_true", help="print ops in the generic form")
    fmt.add_argument(
        "--split-input-file",
        action="store_true",
        help="the file holds several modules separated by '// -----' lines",
    )
    fmt.add_argument("--debug-info", action="store_true", help="keep the locations")
    fmt.add_argument("--verify", action="store_true", help="also check the program's invariants")
    fmt.set_defaults(run=_run_fmt)

    run = commands.add_parser(
        "run",
        help="run a function on random inputs and summarize its outputs",
        description=(
            "Run a function of an MLIR program with the reference interpreter on random "
            "inputs (normal floats, small integers) and print each output's shape, dtype, "
            "sum and a hash of its bytes."
        ),
    )
    run.add_argument("input", help="the program file ('-' for stdin)")
    run.add_argument("--seed", type=int, default=0, help="seed of the random inputs")
    run.add_argument("--func", default="main", help="the function to run (default: main)")
    run.set_defaults(run=_run_program)

    propagate = commands.add_parser(
        "propagate",
        help="propagate the shardings of a program and print it",
        description=(
            "Propagate the shardings of an MLIR program (function arguments and results, "
            "sharding constraints, sharding groups) to every value, with Shardy's semantics, "
            "and print the program. Runs Shardy's sdy-propagation-pipeline (--no-pipeline: "
            "the propagation pass alone)."
        ),
    )
    propagate.add_argument("input", help="the program file ('-' for stdin)")
    _add_propagation_options(propagate)
    propagate.add_argument(
        "--debug-origins",
        action="store_true",
        help="note where each axis came from (sdy.sharding_origins, as Shardy's "
        "debug-sharding-origins=true)",
    )
    propagate.add_argument(
        "--debug-edges",
        action="store_true",
        help="note the steps that carried each axis (sdy.propagation_edges, as Shardy's "
        "debug-propagation-edge-sharding=true)",
    )
    propagate.add_argument(
        "--no-pipeline",
        action="store_true",
        help="run Shardy's propagation pass alone (sdy-<strategy>-propagate: open dims stay "
        "open, no import/export steps) instead of sdy-propagation-pipeline",
    )
    propagate.set_defaults(run=_run_propagate, command_parser=propagate)

    explain = commands.add_parser(
        "explain",
        help="show where the propagated sharding of a value came from",
        description=(
            "Propagate the shardings of an MLIR program and print, for one value (named as "
            "in the propagated program: '%12' in @main, or 'func:%name'), its sharding and, "
            "for each axis, the annotation it came from and the ops that carried it (split or "
            "merged sub-axes, data-flow edges, named and manual computations, sharding groups, "
            "user-priority rounds), where its replicated and unreduced axes came from, and "
            "Shardy's sharding origins; or, with --why-not, why an axis does not shard it."
        ),
    )
    explain.add_argument("input", help="the program file ('-' for stdin)")
    explain.add_argument("value", help="the value, e.g. '%%12' or 'main:%%arg0'")
    explain.add_argument(
        "--why-not", metavar="AXIS", help="say why mesh axis AXIS does not shard the value"
    )
    _add_propagation_options(explain)
    explain.set_defaults(run=_run_explain)

    opt = commands.add_parser(
        "opt",
        help="run Shardy passes on a program, like sdy_opt",
        description=(
            "Run a pipeline of Shardy's passes, named as Shardy names them, on an MLIR program "
            "and print the result, e.g. --pass-pipeline "
            "'builtin.module(func.func(sdy-populate-op-sharding-rules))'."
        ),
    )
    opt.add_argument("input", help="the program file ('-' for stdin)")
    opt.add_argument("--pass-pipeline", required=True, help="'builtin.module(PASS, ...)'")
    opt.add_argument(
        "--debug-origins",
        action="store_true",
        help="run the propagation passes with debug-sharding-origins=true",
    )
    opt.add_argument(
        "--split-input-file",
        action="store_true",
        help="the file holds several modules separated by '// -----' lines",
    )
    opt.set_defaults(run=_run_opt)

    partition = commands.add_parser(
        "partition",
        help="partition a program and print the program of one device",
        description=(
            "Propagate the shardings of an MLIR program, partition it as Shardy does (explicit "
            "reshards, reshards to collectives) and print the program every device runs, with "
            "StableHLO collectives. The report and the comparison print after it as '//' "
            "comments."
        ),
    )
    partition.add_argument("input", help="the program file ('-' for stdin)")
    partition.add_argument(
        "--report",
        action="store_true",
        help="print the collectives (bytes per device, mesh axes, alpha-beta time) and the "
        "peak memory per device",
    )
    partition.add_argument(
        "--simulate",
        action="store_true",
        help="run the partitioned program on every device on random inputs and compare each "
        "output with the unpartitioned program's (status 1 when one differs)",
    )
    partition.add_argument(
        "--devices",
        action="store_true",
        help="--simulate, and also run the partitioned program on XLA devices through JAX "
        "(needs the jax extra; on a CPU, set XLA_FLAGS=--xla_force_host_platform_device_count=N "
        "first) and compare each output with the unpartitioned program's",
    )
    partition.add_argument("--seed", type=int, default=0, help="seed of the random inputs")
    partition.add_argument(
        "--rtol", type=float, default=1e-5, help="relative tolerance of --simulate (1e-5)"
    )
    partition.add_argument(
        "--atol",
        type=float,
        help="absolute tolerance of --simulate (default: sqrt(eps) times the output's largest "
        "magnitude)",
    )
    partition.add_argument(
        "--no-propagate",
        action="store_true",
        help="partition the shardings as written, without Shardy's propagation pipeline",
    )
    partition.add_argument(
        "--global",
        dest="global_program",
        action="store_true",
        help="print the global program with explicit sdy collectives instead",
    )
    partition.set_defaults(run=_run_partition)
    return parser


def _add_propagation_options(command: argparse.ArgumentParser) -> None:
    command.add_argument(
        "--strategy",
        choices=("aggressive", "basic", "op-priority", "user-priority"),
        default="aggressive",
        help="Shardy's propagation strategy (default: aggressive)",
    )
    command.add_argument(
        "--conservative", action="store_true", help="never split an axis into sub-axes"
    )


def _read_modules(args: argparse.Namespace) -> list:
    """The module of `args.input`, or its `// -----`-separated modules."""
    from shardonnay.syntax.mlir_reader import parse_module, parse_modules

    text, source = _read_input(args.input)
    if args.split_input_file:
        return parse_modules(text, source)
    return [parse_module(text, source)]


def _read_input(name: str) -> tuple[str, str]:
    """The text of file `name` ('-': stdin) and the source name for messages."""
    if name == "-":
        return sys.stdin.read(), "<stdin>"
    return Path(name).read_text(), name


def _run_fmt(args: argparse.Namespace) -> int:
    from shardonnay.ir.verifier import verify

    modules = _read_modules(args)
    texts = []
    for module in modules:
        if args.verify:
            verify(module)
        texts.append(module.to_text(generic=args.generic, debug_info=args.debug_info))
    sys.stdout.write("// -----\n".join(texts))
    return 0


def _run_propagate(args: argparse.Namespace) -> int:
    from shardonnay.syntax.mlir_reader import parse_module

    text, source = _read_input(args.input)
    module = parse_module(text, source)
    options = {"strategy": args.strategy, "conservative": args.conservative}
    if not args.no_pipeline:
        from shardonnay.propagation.pipeline import propagation_pipeline

        if args.strategy not in ("aggressive", "basic"):
            args.command_parser.error(
                f"--strategy {args.strategy} is a propagation pass of its own: add --no-pipeline "
                "(the pipeline always runs user and op priorities)"
            )
        result = propagation_pipeline(
            module, debug_origins=args.debug_origins, debug_edges=args.debug_edges, **options
        )
    elif args.debug_origins or args.debug_edges:
        from shardonnay.propagation.origin_attributes import propagate_with_origins

        result = propagate_with_origins(
            module, origins=args.debug_origins, edges=args.debug_edges, **options
        )
    else:
        from shardonnay.propagation.driver import propagate

        result = propagate(module, **options)
    sys.stdout.write(result.to_text())
    return 0


def _run_explain(args: argparse.Namespace) -> int:
    from shardonnay.propagation.explain import explain_propagation
    from shardonnay.syntax.mlir_reader import parse_module

    text, source = _read_input(args.input)
    module = parse_module(text, source)
    explanation = explain_propagation(
        module, strategy=args.strategy, conservative=args.conservative
    )
    if args.why_not is not None:
        print(explanation.why_not(args.value, args.why_not))
    else:
        print(explanation.explain(args.value))
    return 0


def _run_opt(args: argparse.Namespace) -> int:
    from shardonnay.passes import run_pipeline

    modules = _read_modules(args)
    pipeline = args.pass_pipeline
    if args.debug_origins:
        from shardonnay.propagation.origin_attributes import with_debug_origins

        pipeline = with_debug_origins(pipeline)
    texts = [run_pipeline(module, pipeline).to_text() for module in modules]
    sys.stdout.write("// -----\n".join(texts))
    return 0


def _run_partition(args: argparse.Namespace) -> int:
    from shardonnay.errors import CheckError
    from shardonnay.ir.verifier import verify
    from shardonnay.partition.global_to_local import convert_global_to_local
    from shardonnay.partition.program import check, describe_costs, explicit_collectives
    from shardonnay.syntax.mlir_reader import parse_module

    text, source = _read_input(args.input)
    module = parse_module(text, source)
    verify(module)
    propagate = not args.no_propagate
    result = failure = None
    if args.simulate or args.devices:
        try:
            result = check(module, args.seed, rtol=args.rtol, atol=args.atol, propagate=propagate)
        except CheckError as e:
            if e.result is None:
                raise
            result, failure = e.result, e
        explicit, local = result.explicit, result.local
    else:
        explicit = explicit_collectives(module, propagate=propagate)
        local = convert_global_to_local(explicit)
    sys.stdout.write((explicit if args.global_program else local).to_text())
    comments = []
    if args.report:
        comments.append(describe_costs(module, explicit, local))
    if result is not None:
        comments.append(result.table())
    if args.devices and failure is None:
        line, failure = _compare_on_devices(module, local, args)
        comments.append(line)
    for block in comments:
        print("\n".join(f"// {line}".rstrip() for line in block.splitlines()))
    if failure is not None:
        raise failure
    return 0


def _compare_on_devices(module, local, args: argparse.Namespace):
    """Runs per-device program `local` on XLA devices on the inputs of
    `--simulate`; returns a line saying how many outputs match `module`'s, and
    the `CheckError` of the first that does not (or None)."""
    import numpy as np

    from shardonnay.errors import CheckError
    from shardonnay.ir.types import TensorType
    from shardonnay.partition.program import compare_output
    from shardonnay.runtime.interpreter import random_inputs, run
    from shardonnay.runtime.pjrt import run_on_devices
    from shardonnay.runtime.simulator import device_count

    inputs = random_inputs(module, seed=args.seed)
    with np.errstate(all="ignore"):
        expected = run(module, *inputs)
    got = run_on_devices(local, *inputs)
    outputs = [
        compare_output(i, expected[i], got[i], rtol=args.rtol, atol=args.atol)
        for i, t in enumerate(module.function("main").type.results)
        if isinstance(t, TensorType)
    ]
    line = (
        f"on {device_count(local)} XLA devices: {sum(o.ok for o in outputs)} of {len(outputs)} "
        "outputs match the unpartitioned program"
    )
    bad = next((o for o in outputs if not o.ok), None)
    if bad is None:
        return line, None
    return line, CheckError(
        f"output {bad.index} on XLA devices differs from the unpartitioned program's: "
        f"max abs error {bad.max_abs_error:.3g}; {bad.detail}",
        bad,
    )


def _run_program(args: argparse.Namespace) -> int:
    import numpy as np

    from shardonnay.ir.verifier import verify
    from shardonnay.runtime.interpreter import random_inputs, run
    from shardonnay.syntax.mlir_reader import parse_module

    text, source = _read_input(args.input)
    module = parse_module(text, source)
    verify(module)
    inputs = random_inputs(module, seed=args.seed, func=args.func)
    with np.errstate(all="ignore"):
        outputs = run(module, *inputs, func=args.func)
    print(format_outputs(outputs))
    return 0


def format_outputs(outputs: Sequence) -> str:
    """A table of outputs: index, shape, dtype, sum and a hash of the bytes.

    >>> import numpy as np
    >>> print(format_outputs([np.arange(6, dtype=np.float32).reshape(2, 3)]))
    output  shape   dtype    sum           sha256
    0       (2, 3)  float32  1.500000e+01  e2c0a71510b5
    """
    import numpy as np

    rows = [("output", "shape", "dtype", "sum", "sha256")]
    for i, value in enumerate(outputs):
        array = np.ascontiguousarray(value)
        if array.dtype.kind in "fc":
            total = array.sum(dtype=np.complex128 if array.dtype.kind == "c" else np.float64)
            sum_text = f"{total:.6e}"
        else:
            sum_text = str(int(array.astype(np.int64).sum()))
        digest = hashlib.sha256(array.tobytes()).hexdigest()[:12]
        rows.append((str(i), str(array.shape), str(array.dtype), sum_text, digest))
    widths = [max(len(row[c]) for row in rows) for c in range(len(rows[0]))]
    return "\n".join(
        "  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip()
        for row in rows
    )


def _run_layout(args: argparse.Namespace) -> int:
    if args.shape is not None:
        shape = _parse_shape(args.shape)
        mesh = Mesh.parse(args.mesh) if args.mesh else None
        entries = [(shape, TensorSharding.parse(args.input), mesh)]
    else:
        text, source = _read_input(args.input)
        entries = read_layout_file(text, source)
    reports = []
    for shape, sharding, mesh in entries:
        sharding.validate(sharding.resolve_mesh(mesh), shape, strict=args.strict)
        reports.append(describe_layout(shape, sharding, mesh))
    print("\n\n".join(reports))
    return 0


def read_layout_file(text: str, source: str) -> list[tuple[tuple[int, ...], TensorSharding, Mesh]]:
    """Mesh declarations and `tensor<AxBxf32> #sdy.sharding<...>` lines, in any order."""
    cursor = Cursor(text, source)
    meshes: dict[str, Mesh] = {}
    entries = []
    while not cursor.at_end():
        if cursor.accept("sdy.mesh"):
            cursor.expect("@", "'@' before the mesh name")
            name = read_symbol_name(cursor)
            cursor.expect("=", "'=' after the mesh name")
            meshes[name] = read_mesh(cursor)
            continue
        type_text = cursor.match(_TENSOR_TYPE, "'sdy.mesh' or a tensor type like tensor<8x6xf32>")
        shape = _parse_shape(_TENSOR_TYPE.fullmatch(type_text).group(1)[:-1])
        cursor.skip_space()
        start = cursor.pos
        cursor.expect("#sdy.sharding", "'#sdy.sharding' after the tensor type")
        sharding = read_tensor_sharding(cursor)
        if isinstance(sharding.mesh, str):
            if sharding.mesh not in meshes:
                raise cursor.invalid(f"unknown mesh: @{sharding.mesh}", start)
            mesh = meshes[sharding.mesh]
        else:
            mesh = sharding.mesh
        try:
            sharding.validate(mesh, shape)
        except ShardonnayError as e:
            raise cursor.invalid(str(e), start) from None
        entries.append((shape, sharding, mesh))
    return entries


def _parse_shape(text: str) -> tuple[int, ...]:
    if text == "":
        return ()
    if not re.fullmatch(r"\d+(x\d+)*", text):
        raise ShardonnayError(f"invalid shape {text!r}: expected sizes separated by 'x', like 8x6")
    return tuple(int(d) for d in text.split("x"))


if __name__ == "__main__":
    sys.exit(main())
