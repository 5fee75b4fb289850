"""Typed errors. Every error a user can cause is a `ShardonnayError`.

A `ParseError` knows where it happened and renders the offending source line
with a caret under the column::

    <string>:1:24: expected '}' or ','
      #sdy.sharding<@mesh, [{"x" "y"}]>
                             ^
"""

from __future__ import annotations


class ShardonnayError(Exception):
    """Base class of all errors raised for bad user input."""


class ParseError(ShardonnayError):
    """Malformed text. `line` and `column` are 1-based."""

    def __init__(self, message: str, text: str, offset: int, source: str = "<string>"):
        self.message = message
        self.text = text
        self.offset = offset
        self.source = source
        self.line = text.count("\n", 0, offset) + 1
        line_start = text.rfind("\n", 0, offset) + 1
        self.column = offset - line_start + 1
        line_end = text.find("\n", offset)
        self.source_line = text[line_start : len(text) if line_end < 0 else line_end]
        super().__init__(str(self))

    def __str__(self) -> str:
        # A long line (a big literal) shows only the part around the column.
        line, column = self.source_line, self.column - 1
        if len(line) > 2 * _CONTEXT:
            start = max(0, min(column - _CONTEXT, len(line) - 2 * _CONTEXT))
            prefix = "..." if start else ""
            suffix = "..." if start + 2 * _CONTEXT < len(line) else ""
            line = prefix + line[start : start + 2 * _CONTEXT] + suffix
            column = column - start + len(prefix)
        caret = " " * column + "^"
        return f"{self.source}:{self.line}:{self.column}: {self.message}\n  {line}\n  {caret}"


_CONTEXT = 60  # characters shown on either side of an error's column


class ShardingError(ShardonnayError):
    """A sharding, mesh or sharding rule that violates an invariant."""


class LayoutError(ShardonnayError):
    """Per-device buffers that do not describe one global array."""


class InvalidAttributeError(ParseError, ShardingError):
    """Well-formed text for an attribute that violates an invariant: both a
    `ShardingError` (what is wrong) and a `ParseError` (where it is)."""


class IRError(ShardonnayError):
    """A malformed program: bad types, a value used where it is not visible, ..."""


class UnsupportedOpError(ShardonnayError):
    """An op (or an attribute of it) that this part of shardonnay cannot handle."""


class PartitionError(ShardonnayError):
    """A program the partitioner cannot turn into per-device programs (an op
    whose shardings it cannot realize locally), naming the op and why."""


class DeviceUnavailableError(ShardonnayError):
    """The XLA devices a program needs cannot be had: JAX is not installed, or
    it sees fewer devices than the program has partitions."""


class CheckError(ShardonnayError):
    """A partitioned program whose results differ from the unpartitioned one's,
    naming the first output that differs and by how much. `comparison` is that
    output's comparison and `result` all of them (both None when the devices'
    results do not even form one array)."""

    def __init__(self, message: str, comparison: object = None, result: object = None):
        super().__init__(message)
        self.comparison = comparison
        self.result = result
