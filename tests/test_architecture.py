"""The floor plan of `src/shardonnay`, read from its import graph.

Every module of the package is parsed (no module is imported) and each
`import` is an edge, at module level or inside a function alike; imports under
`if TYPE_CHECKING:` are only for the type checker and are left out. The layers
below are the floor plan, low to high: an import may point to the same or a
lower layer, never up, and the graph has no cycles. Imports inside functions
are kept for optional dependencies (jax, onnx, matplotlib, ...), so that
`import shardonnay` needs only numpy; a shardonnay module imported inside a
function is a hidden edge and fails, and so is a module imported by name
(`importlib.import_module`), unless allowed below with its reason. Facts about
ops are declared on the op definitions in `shardonnay.ops`: a module-level
table of op names elsewhere is a second copy of such a fact.
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

PACKAGE = "shardonnay"
SOURCE = Path(__file__).resolve().parents[1] / "src" / PACKAGE

# The floor plan, low to high: (name, module prefixes relative to the package).
# A module belongs to the layer of its longest matching prefix; "" is the
# package root (`shardonnay/__init__.py`, the public front door).
LAYERS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("foundations", ("errors", "progress", "syntax.cursor")),
    # `interop.shard_dialect` converts the shard dialect's `split_axes` to and from
    # shardings with these values alone; the dialect's op definitions read theirs with it.
    (
        "values",
        (
            "axes",
            "mesh",
            "sharding",
            "layout",
            "layout_report",
            "sharding_rule",
            "interop.shard_dialect",
        ),
    ),
    # The op registry and the traits it answers for (`has_trait(op, DATA_FLOW)`)
    # import no op definition (the families register themselves when first
    # looked up), so the IR may ask an op's facts: the sharding accessor asks
    # which ops tie values by data-flow edges, the builder an op's types.
    ("ir", ("ir", "ops.registry", "ops.traits")),
    ("collectives", ("collectives",)),
    ("ops", ("ops",)),
    # The reader and writer dispatch to the op definitions; the verifier runs them;
    # values are named as the writer prints them (`ir.naming`).
    ("syntax", ("syntax", "ir.verifier", "ir.naming")),
    # The reference interpreter runs the ops' semantics on numpy arrays (it needs
    # only ir and the op registry): the oracle of the checks and passes above it.
    # A manual computation's body runs on its devices in lockstep (`runtime.devices`).
    ("interpreter", ("runtime.interpreter", "runtime.devices", "runtime.value_limit")),
    ("propagation", ("propagation",)),
    ("export", ("export",)),
    # The checks of propagated modules compare with what the whole pipeline does
    # (its import and export passes), so they sit beside it.
    ("pipeline", ("pipeline", "explain", "propagation.checks")),
    ("partitioner", ("partitioner",)),
    ("runtime", ("runtime",)),
    ("tools", ("passes", "interop", "jax", "pictures")),
    ("front", ("cli", "")),
    # The generators and oracles of the tests and benchmarks drive the whole
    # tool, its command line included (the structural fuzzer runs the CLI).
    ("testing", ("testing",)),
)

# Libraries a module may import inside a function: optional dependencies (and
# their parts), imported where they are used so that `import shardonnay` needs
# only numpy.
LAZY_DEPENDENCIES = frozenset(
    {
        "jax",
        "jaxlib",
        "onnx",
        "onnxruntime",
        "google",  # protobuf, onnx's serialization
        "matplotlib",
        "torch",
        "rich",
        "hypothesis",  # the test extras, which shardonnay.testing uses
        "pytest",
        "ml_dtypes",  # bfloat16 and the float8 types, looked up on first use
    }
)

# Function-level imports of shardonnay modules that are still allowed:
# (importing module, imported module) -> why it cannot be at module level.
FUNCTION_LEVEL_ALLOWED: dict[tuple[str, str], str] = {}

# Modules that import others by name at run time (a hidden edge of the graph):
# module -> why.
IMPORTS_BY_NAME_ALLOWED: dict[str, str] = {
    "shardonnay.ops.registry": "the registry loads the op families (the modules beside it, "
    "each registering its ops) on the first lookup, so that it sits below them",
    "shardonnay.ir.core": "the first module printed loads the MLIR writer of the syntax layer "
    "(ir.core.WRITER_MODULE), which prints ops through their definitions built on the IR",
    "shardonnay": "the package root loads each public name's module on first use (PEP 562), "
    "so that `import shardonnay` runs no module of the package; its `_EXPORTS` table names "
    "them and its TYPE_CHECKING imports spell the same names out (tests/test_package_root.py)",
    "shardonnay.cli": "the command line loads the module of the chosen command only "
    "(its `COMMANDS` table), so that `shardonnay --help` and `shardonnay fmt` start fast",
}

# Tables of op names allowed outside `shardonnay.ops`: "module.TABLE" -> why.
OP_NAME_TABLES_ALLOWED: dict[str, str] = {
    "shardonnay.partitioner.local.dispatch.LOWERINGS": "the partitioner's one lowering table: "
    "each op kind's row names the function that makes it local (see its module docstring)",
}

OP_NAME = re.compile(r"(stablehlo|sdy|func|chlo|shard|mhlo)\.[a-z][a-z0-9_]*")


@dataclass(frozen=True)
class Import:
    importer: str
    imported: str
    line: int
    in_function: bool


def _module_name(path: Path) -> str:
    parts = path.relative_to(SOURCE.parent).with_suffix("").parts
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


@cache
def _modules() -> dict[str, Path]:
    return {_module_name(p): p for p in sorted(SOURCE.rglob("*.py"))}


@cache
def _tree(name: str) -> ast.Module:
    path = _modules()[name]
    return ast.parse(path.read_text(), str(path))


def _known(name: str) -> str | None:
    """The module `name` names, or the package module of the longest prefix."""
    modules = _modules()
    while name and name not in modules:
        name = name.rpartition(".")[0]
    return name or None


def _is_type_checking(node: ast.AST) -> bool:
    return isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)


def _imported_names(node: ast.Import | ast.ImportFrom, package: str) -> list[str]:
    """The absolute names of what `node` imports (`package`: the package a
    relative import starts from); a submodule imported with `from package
    import module` is the module itself."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    base = node.module or ""
    if node.level:
        parts = package.split(".")[: len(package.split(".")) - node.level + 1]
        base = ".".join([*parts, base] if base else parts)
    names = []
    for alias in node.names:
        full = f"{base}.{alias.name}"
        names.append(full if full in _modules() else base)
    return names


def imports_in(tree: ast.Module, importer: str, package: str) -> list[Import]:
    """The imports of the module `importer` (parsed as `tree`, inside `package`).

    Imports are statements, so only the statement lists are walked (bodies of
    functions, classes, branches, loops, `with` and `try`), not expressions."""
    found: list[Import] = []

    def walk(statements: list[ast.stmt], in_function: bool) -> None:
        for node in statements:
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                for name in _imported_names(node, package):
                    found.append(Import(importer, name, node.lineno, in_function))
                continue
            if _is_type_checking(node):
                assert isinstance(node, ast.If)
                walk(node.orelse, in_function)
                continue
            inside = in_function or isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
            for field in ("body", "orelse", "finalbody"):
                walk(getattr(node, field, None) or [], inside)
            for handler in getattr(node, "handlers", ()):
                walk(handler.body, inside)
            for case in getattr(node, "cases", ()):
                walk(case.body, inside)

    walk(tree.body, False)
    return found


@cache
def _all_imports() -> tuple[Import, ...]:
    out = []
    for name, path in _modules().items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        out.extend(imports_in(_tree(name), name, package))
    return tuple(out)


@cache
def _internal_imports() -> tuple[Import, ...]:
    """Imports of shardonnay modules, each resolved to a module of the package."""
    out = []
    for i in _all_imports():
        if i.imported.split(".")[0] != PACKAGE:
            continue
        target = _known(i.imported)
        assert target is not None, f"{i.importer} line {i.line}: no module {i.imported}"
        if target != i.importer:
            out.append(Import(i.importer, target, i.line, i.in_function))
    return tuple(dict.fromkeys(out))  # (one import statement may name a module twice)


def layer_of(module: str) -> tuple[int, str]:
    """(index, name) of the layer of `module` (its longest matching prefix).

    >>> layer_of("shardonnay.propagation.checks.consistency")[1]
    'pipeline'
    """
    relative = module.removeprefix(PACKAGE).removeprefix(".")
    best: tuple[int, int, str] | None = None  # (prefix length, index, name)
    for index, (name, prefixes) in enumerate(LAYERS):
        for prefix in prefixes:
            matches = relative == prefix or relative.startswith(prefix + ".") or prefix == ""
            if matches and (best is None or len(prefix) > best[0]):
                best = (len(prefix), index, name)
    assert best is not None
    return best[1], best[2]


def _describe(i: Import) -> str:
    low, low_name = layer_of(i.imported)
    high, high_name = layer_of(i.importer)
    where = "inside a function" if i.in_function else "at module level"
    return (
        f"{i.importer} (layer {high} {high_name}) line {i.line} imports {i.imported} "
        f"(layer {low} {low_name}) {where}"
    )


def test_every_module_is_on_the_floor_plan() -> None:
    prefixes = [p for _, group in LAYERS for p in group]
    assert len(prefixes) == len(set(prefixes)), "a prefix is in two layers"
    for prefix in prefixes:
        assert prefix == "" or _known(f"{PACKAGE}.{prefix}") == f"{PACKAGE}.{prefix}", (
            f"the floor plan names {prefix!r}, which is no module of {PACKAGE}"
        )
    assert len(_modules()) > 100  # the whole package was read


def test_imports_point_to_the_same_or_a_lower_layer() -> None:
    upward = [
        _describe(i)
        for i in _internal_imports()
        if layer_of(i.imported)[0] > layer_of(i.importer)[0]
    ]
    assert not upward, "imports that point up:\n" + "\n".join(upward)


def test_the_import_graph_has_no_cycles() -> None:
    edges: dict[str, dict[str, Import]] = {}
    for i in _internal_imports():
        edges.setdefault(i.importer, {}).setdefault(i.imported, i)
    cycles = [
        " -> ".join(component)
        + "\n    "
        + "\n    ".join(
            _describe(edges[a][b]) for a in component for b in component if b in edges.get(a, {})
        )
        for component in _strongly_connected(edges)
    ]
    assert not cycles, "modules that import each other:\n" + "\n".join(cycles)


def _init_imports(package: str) -> bool:
    """Whether the `__init__` of `package` imports modules of its own."""
    return any(
        i.imported.startswith(package + ".") for i in _internal_imports() if i.importer == package
    )


def test_modules_import_their_siblings_by_full_name() -> None:
    """`from shardonnay.cli import inputs` inside `shardonnay.cli.explain` goes
    through the package's `__init__`, which imports `explain` itself: a cycle
    the graph of submodules hides. Inside a package whose `__init__` imports
    its modules, a module names a sibling in full
    (`from shardonnay.cli.inputs import read_program`)."""
    found = []
    for name, path in _modules().items():
        for node in ast.walk(_tree(name)):
            if not isinstance(node, ast.ImportFrom) or node.level or not node.module:
                continue
            package = node.module
            is_package = path.name != "__init__.py" and name.startswith(package + ".")
            through = [a.name for a in node.names if f"{package}.{a.name}" in _modules()]
            if is_package and package != PACKAGE and through and _init_imports(package):
                found.append(f"{name}:{node.lineno} imports {through} through {package}")
    assert not found, "\n".join(found)


def test_shardonnay_modules_are_imported_at_module_level() -> None:
    hidden = [
        _describe(i)
        for i in _internal_imports()
        if i.in_function and (i.importer, i.imported) not in FUNCTION_LEVEL_ALLOWED
    ]
    assert not hidden, "function-level imports of shardonnay modules:\n" + "\n".join(hidden)
    stale = set(FUNCTION_LEVEL_ALLOWED) - {
        (i.importer, i.imported) for i in _internal_imports() if i.in_function
    }
    assert not stale, f"allowed function-level imports that no longer exist: {sorted(stale)}"


def test_only_optional_dependencies_are_imported_inside_functions() -> None:
    eager = [
        f"{i.importer} line {i.line} imports {i.imported} inside a function"
        for i in _all_imports()
        if i.in_function
        and i.imported.split(".")[0] != PACKAGE
        and i.imported.split(".")[0] not in LAZY_DEPENDENCIES
    ]
    assert not eager, "import these at module level:\n" + "\n".join(eager)


def _imports_by_name(tree: ast.Module) -> list[int]:
    """The lines of `tree` that import a module by name (`importlib.import_module`,
    `__import__`)."""
    return [
        node.lineno
        for node in ast.walk(tree)
        if isinstance(node, ast.Call)
        and ast.unparse(node.func) in ("importlib.import_module", "import_module", "__import__")
    ]


def test_modules_are_not_imported_by_name() -> None:
    """An import by name is an edge the import graph cannot see."""
    found = {name: lines for name in _modules() if (lines := _imports_by_name(_tree(name)))}
    hidden = [
        f"{name} line {line} imports a module by name"
        for name, lines in found.items()
        if name not in IMPORTS_BY_NAME_ALLOWED
        for line in lines
    ]
    assert not hidden, "imports the graph cannot see:\n" + "\n".join(hidden)
    stale = set(IMPORTS_BY_NAME_ALLOWED) - set(found)
    assert not stale, f"allowed imports by name that no longer exist: {sorted(stale)}"


def _root_exports() -> dict[str, str]:
    """The package root's `_EXPORTS` table (public name -> module), as written."""
    for node in _tree(PACKAGE).body:
        if isinstance(node, ast.AnnAssign) and ast.unparse(node.target) == "_EXPORTS":
            assert node.value is not None
            return ast.literal_eval(node.value)
    raise AssertionError(f"{PACKAGE}/__init__.py has no _EXPORTS table")


def test_the_roots_names_load_from_modules_below_it() -> None:
    """The root loads its names by module name (PEP 562), edges the graph
    cannot see: each must name a module of the package on a layer the root
    may import from."""
    wrong = [
        f"{name}: {module}"
        for name, module in _root_exports().items()
        if _known(module) != module or layer_of(module)[0] > layer_of(PACKAGE)[0]
    ]
    assert not wrong, "names the root cannot load:\n" + "\n".join(wrong)


def _op_names(node: ast.AST) -> set[str]:
    return {
        n.value
        for n in ast.walk(node)
        if isinstance(n, ast.Constant) and isinstance(n.value, str) and OP_NAME.fullmatch(n.value)
    }


def _tables(tree: ast.Module) -> Iterator[tuple[int, str, set[str]]]:
    """(line, target, op names) of the module-level literal tables of `tree`."""
    literals = (ast.Set, ast.Tuple, ast.List, ast.Dict)
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            continue
        if isinstance(node, ast.Assign):
            value, targets = node.value, node.targets
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            value, targets = node.value, [node.target]
        else:
            continue
        if isinstance(value, ast.Call) and value.args:  # frozenset({...}), dict(...)
            value = value.args[0]
        if isinstance(value, literals) and len(names := _op_names(value)) >= 2:
            yield node.lineno, ", ".join(ast.unparse(t) for t in targets), names


def _module_level(tree: ast.Module) -> ast.Module:
    """`tree` without the bodies of its functions."""
    body = [
        node for node in tree.body if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
    ]
    return ast.Module(body=body, type_ignores=[])


def test_no_table_of_op_names_outside_ops() -> None:
    found = {
        f"{name}.{target}": f"{name} line {line}: {target} names {len(names)} ops "
        f"({', '.join(sorted(names)[:3])}, ...)"
        for name in _modules()
        if name.split(".")[:2] != [PACKAGE, "ops"]
        for line, target, names in _tables(_module_level(_tree(name)))
    }
    tables = [where for key, where in found.items() if key not in OP_NAME_TABLES_ALLOWED]
    assert not tables, "tables of op names outside shardonnay.ops:\n" + "\n".join(tables)
    stale = set(OP_NAME_TABLES_ALLOWED) - set(found)
    assert not stale, f"allowed tables of op names that no longer exist: {sorted(stale)}"


def test_the_checks_find_what_they_look_for() -> None:
    """Each check, on a small made-up module, finds its kind of problem."""
    source = (
        "from typing import TYPE_CHECKING\n"
        "from shardonnay.mesh import Mesh\n"
        "if TYPE_CHECKING:\n"
        "    from shardonnay.cli import main\n"
        "_KINDS = frozenset({'stablehlo.add', 'stablehlo.and', 'x'})\n"
        "_ONE = ('stablehlo.add',)\n"
        "def f():\n"
        "    import jax\n"
        "    from shardonnay.runtime import simulator\n"
        "    local = {'stablehlo.or', 'sdy.reshard'}\n"
    )
    tree = ast.parse(source)
    assert list(imports_in(tree, "shardonnay.m", "shardonnay")) == [
        Import("shardonnay.m", "typing", 1, False),
        Import("shardonnay.m", "shardonnay.mesh", 2, False),
        Import("shardonnay.m", "jax", 8, True),
        Import("shardonnay.m", "shardonnay.runtime.simulator", 9, True),
    ]
    [table] = _tables(_module_level(tree))
    assert _imports_by_name(ast.parse("import importlib\nimportlib.import_module('x')")) == [2]
    assert table == (5, "_KINDS", {"stablehlo.add", "stablehlo.and"})
    assert layer_of("shardonnay.runtime.simulator") > layer_of("shardonnay.mesh")
    assert layer_of("shardonnay.runtime.interpreter")[1] == "interpreter"
    assert layer_of("shardonnay")[1] == "front"
    assert layer_of("shardonnay.errors") == (0, "foundations")
    edges = {"a": {"b": None}, "b": {"c": None}, "c": {"a": None}, "d": {"a": None}}
    assert _strongly_connected(edges) == [["a", "b", "c"]]


def test_importing_shardonnay_needs_only_numpy() -> None:
    """`import shardonnay` loads none of the optional libraries."""
    optional = sorted(LAZY_DEPENDENCIES - {"ml_dtypes", "google"})
    code = f"import sys, shardonnay\nprint(sorted(m for m in {optional!r} if m in sys.modules))"
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    )
    assert out.stdout.strip() == "[]"


def _strongly_connected(edges: dict[str, dict]) -> list[list[str]]:
    """The components of more than one node (Tarjan's algorithm, iterative),
    each sorted, in the order of their smallest node."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    components: list[list[str]] = []
    for root in sorted(edges):
        if root in index:
            continue
        work = [(root, iter(sorted(edges.get(root, {}))))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, successors = work[-1]
            for succ in successors:
                if succ not in index:
                    index[succ] = low[succ] = len(index)
                    stack.append(succ)
                    on_stack.add(succ)
                    work.append((succ, iter(sorted(edges.get(succ, {})))))
                    break
                if succ in on_stack:
                    low[node] = min(low[node], index[succ])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        components.append(sorted(component))
    return sorted(components)
