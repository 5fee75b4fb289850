"""The data of a source checkout that the generators and oracles read.

The programs of the tests (`tests/corpus`, `tests/models`, `examples/`) live
in the repository, not in the installed package. Readers take the folder as a
parameter whose default is the folder in the checkout this package runs from;
where there is none (shardonnay installed from a wheel), the default is an
error that says what to pass, never an empty result:

>>> checkout_folder("tests", "corpus").relative_to(REPOSITORY).as_posix()
'tests/corpus'
>>> try:
...     checkout_folder("tests", "no such folder")
... except FileNotFoundError as error:
...     print(str(error).partition("; ")[2])
shardonnay.testing reads it from a source checkout of shardonnay: pass the folder explicitly
"""

from __future__ import annotations

from pathlib import Path

#: The repository root when running from a source checkout (`src/shardonnay/testing/..`).
REPOSITORY = Path(__file__).resolve().parents[3]


def checkout_folder(*parts: str) -> Path:
    """The folder `REPOSITORY/parts...`; FileNotFoundError when it is missing."""
    folder = REPOSITORY.joinpath(*parts)
    if not folder.is_dir():
        raise FileNotFoundError(
            f"{folder}: not found; shardonnay.testing reads it from a source checkout "
            "of shardonnay: pass the folder explicitly"
        )
    return folder
