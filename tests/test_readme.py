"""The README's Python examples run as pasted, each in a fresh interpreter."""

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).parent.parent
README = ROOT / "README.md"
BLOCKS = re.findall(r"```python\n(.*?)```", README.read_text(), flags=re.S)


def test_the_readme_has_python_examples():
    assert len(BLOCKS) >= 10


@pytest.mark.parametrize("index", range(len(BLOCKS)))
def test_each_python_block_runs_alone_in_a_fresh_interpreter(index):
    """As a user pastes it into `python` started in the repository: no name
    from another block, no state left by the tests."""
    block = BLOCKS[index]
    result = subprocess.run(
        [sys.executable, "-c", block],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert result.returncode == 0, f"README block {index}:\n{block}\n{result.stderr[-3000:]}"


def test_the_layout_block_computes_what_it_says():
    block = next(b for b in BLOCKS if "layout.equivalent" in b)
    namespace: dict = {}
    exec(compile(block, str(README), "exec"), namespace)
    assert namespace["layout"].local_shape((5, 6), namespace["s"], namespace["mesh"]) == (3, 2)
    assert namespace["layout"].equivalent(namespace["s"], namespace["t"], namespace["mesh"], (5, 6))
