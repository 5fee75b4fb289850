"""The package root loads its public names on first use (PEP 562).

`import shardonnay` runs no module of the package: the partitioner, the
runtime, the pictures and jax stay unloaded until a name that needs them is
asked for. Each test that looks at `sys.modules` runs in a fresh interpreter.
"""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

import shardonnay

ROOT = Path(__file__).resolve().parents[1]
HEAVY = (
    "shardonnay.partitioner",
    "shardonnay.runtime",
    "shardonnay.pictures",
    "shardonnay.pipeline",
    "shardonnay.propagation",
    "shardonnay.syntax",
    "jax",
    "numpy",
)


def _loaded_after(code: str) -> list[str]:
    """The modules of `HEAVY` (or inside them) loaded after running `code` in a
    fresh interpreter."""
    probe = (
        f"import sys\n{code}\nimport json\n"
        f"print(json.dumps(sorted(m for m in sys.modules "
        f"if any(m == h or m.startswith(h + '.') for h in {HEAVY!r}))))"
    )
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=120
    )
    return json.loads(out.stdout)


def test_importing_the_package_loads_none_of_its_modules() -> None:
    assert _loaded_after("import shardonnay") == []
    assert _loaded_after("import shardonnay; shardonnay.__version__") == []


def test_a_name_loads_only_what_it_needs() -> None:
    loaded = _loaded_after("from shardonnay import Mesh")
    assert not [m for m in loaded if m.startswith(("shardonnay.partitioner", "shardonnay.runtime"))]
    loaded = _loaded_after("import shardonnay; shardonnay.parse_module")
    assert "shardonnay.syntax.mlir_reader" in loaded
    assert not [m for m in loaded if m.startswith(("shardonnay.partitioner", "jax"))]


@pytest.mark.parametrize("name", shardonnay.__all__)
def test_every_public_name_resolves(name: str) -> None:
    assert name in dir(shardonnay)
    value = getattr(shardonnay, name)
    assert value is not None
    if name != "__version__":
        assert value.__name__ == name  # the function or class itself, not a module
        assert vars(shardonnay)[name] is value  # kept, so it is loaded once


def test_from_import_and_attribute_give_the_same_object() -> None:
    from shardonnay import partition
    from shardonnay.partitioner.program import partition as defined

    assert partition is shardonnay.partition is defined


def test_an_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no attribute 'partitioner_of_everything'"):
        shardonnay.partitioner_of_everything  # noqa: B018
    assert not hasattr(shardonnay, "no_such_name")


def test_the_type_checking_imports_spell_out_the_table() -> None:
    """What type checkers see (the `if TYPE_CHECKING:` imports) is what the
    loader loads (`_EXPORTS`), and `__all__` lists both."""
    tree = ast.parse((ROOT / "src" / "shardonnay" / "__init__.py").read_text())
    [block] = [n for n in tree.body if isinstance(n, ast.If) and "TYPE_CHECKING" in ast.unparse(n)]
    seen = {
        alias.name: node.module
        for node in block.body
        if isinstance(node, ast.ImportFrom)
        for alias in node.names
    }
    assert seen == shardonnay._EXPORTS
    assert sorted(shardonnay.__all__) == sorted([*shardonnay._EXPORTS, "__version__"])


def test_a_module_built_without_the_reader_prints() -> None:
    """The MLIR writer is loaded when the first module prints, whatever was
    imported before (here only the IR and its builder)."""
    code = (
        "from shardonnay.ir.builder import Builder\n"
        "from shardonnay.ir.types import TensorType\n"
        "b = Builder()\n"
        "with b.function('main', [TensorType((2,), 'f32')]) as f:\n"
        "    f.returns(*f.arguments)\n"
        "import sys\n"
        "assert 'shardonnay.syntax.mlir_writer' not in sys.modules\n"
        "print(b.module)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    )
    assert "func.func @main(%arg0: tensor<2xf32>) -> tensor<2xf32>" in out.stdout
