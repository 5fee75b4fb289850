"""The axis lists Shardy's collectives carry, as attribute values.

Inside an op they print as their bodies; in the generic form as attributes of
their own:

- `AxisRefList`: `#sdy<axis_ref_list{"z"}>`, the axes of `sdy.all_reduce`
  and `sdy.replicated_to_unreduced` (`{"z"}` inside the op);
- `ListOfAxisRefLists`: `#sdy<list_of_axis_ref_lists[{"x"}, {}]>`, one axis
  list per dimension, of `sdy.all_gather`, `sdy.all_slice`,
  `sdy.reduce_scatter` and `sdy.sharded_to_unreduced`;
- `AllToAllParamList`: `#sdy<all_to_all_param_list[{"x"}: 1->0]>`, the
  parameters of `sdy.all_to_all`.

>>> str(read_axis_list_attr(Cursor('#sdy<list_of_axis_ref_lists[{"x"}, {}]>')).lists[0][0])
'"x"'
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from shardonnay.axes import AxisRef, axes_str, read_axis_ref
from shardonnay.syntax.cursor import Cursor


def _read_axis_list(cursor: Cursor) -> tuple[AxisRef, ...]:
    """`{"x", "y":(1)2}`, possibly empty."""
    cursor.expect("{", "'{' starting an axis list")
    return tuple(cursor.comma_separated("}", lambda: read_axis_ref(cursor), "an axis"))


def _axis_list_str(axes: tuple[AxisRef, ...]) -> str:
    return "{" + axes_str(axes) + "}"


@dataclass(frozen=True, slots=True)
class AxisRefList:
    """`#sdy<axis_ref_list{"z", "w"}>`: one list of axes (`{"z", "w"}` inside an op).

    >>> str(AxisRefList.parse('{"z", "w":(1)2}'))
    '#sdy<axis_ref_list{"z", "w":(1)2}>'
    """

    axes: tuple[AxisRef, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "axes", tuple(_axis(a) for a in self.axes))

    @classmethod
    def parse(cls, text: str) -> AxisRefList:
        return _parse_whole(text, cls)

    @classmethod
    def read_body(cls, cursor: Cursor) -> AxisRefList:
        return cls(_read_axis_list(cursor))

    def body(self) -> str:
        return _axis_list_str(self.axes)

    def __str__(self) -> str:
        return f"#sdy<axis_ref_list{self.body()}>"


@dataclass(frozen=True, slots=True)
class ListOfAxisRefLists:
    """`#sdy<list_of_axis_ref_lists[{"x"}, {}]>`: one axis list per tensor dimension.

    >>> lists = ListOfAxisRefLists.parse('[{"x"}, {}]')
    >>> str(lists), len(lists)
    ('#sdy<list_of_axis_ref_lists[{"x"}, {}]>', 2)
    """

    lists: tuple[tuple[AxisRef, ...], ...]

    def __post_init__(self) -> None:
        object.__setattr__(
            self, "lists", tuple(tuple(_axis(a) for a in axes) for axes in self.lists)
        )

    @classmethod
    def parse(cls, text: str) -> ListOfAxisRefLists:
        return _parse_whole(text, cls)

    @classmethod
    def read_body(cls, cursor: Cursor) -> ListOfAxisRefLists:
        cursor.expect("[", "'[' starting the axis lists")
        lists = cursor.comma_separated("]", lambda: _read_axis_list(cursor), "an axis list")
        return cls(tuple(lists))

    def body(self) -> str:
        return "[" + ", ".join(_axis_list_str(axes) for axes in self.lists) + "]"

    def __str__(self) -> str:
        return f"#sdy<list_of_axis_ref_lists{self.body()}>"

    def __len__(self) -> int:
        return len(self.lists)

    def __getitem__(self, dim: int) -> tuple[AxisRef, ...]:
        return self.lists[dim]


@dataclass(frozen=True, slots=True)
class AllToAllParam:
    """`{"x", "y"}: 0->2`: move the axes sharding dim 0 onto dim 2."""

    axes: tuple[AxisRef, ...]
    src_dim: int
    tgt_dim: int

    def __post_init__(self) -> None:
        object.__setattr__(self, "axes", tuple(_axis(a) for a in self.axes))

    @classmethod
    def read(cls, cursor: Cursor) -> AllToAllParam:
        axes = _read_axis_list(cursor)
        cursor.expect(":", "':' and the source dimension")
        src = cursor.integer("a source dimension")
        cursor.expect("->", "'->' and the target dimension")
        tgt = cursor.integer("a target dimension")
        return cls(axes, src, tgt)

    def __str__(self) -> str:
        return f"{_axis_list_str(self.axes)}: {self.src_dim}->{self.tgt_dim}"


@dataclass(frozen=True, slots=True)
class AllToAllParamList:
    """`#sdy<all_to_all_param_list[{"x"}: 0->2, {"y"}: 1->3]>`.

    >>> params = AllToAllParamList.parse('[{"x"}: 0->2, {"y"}: 1->3]')
    >>> [(p.src_dim, p.tgt_dim) for p in params.params]
    [(0, 2), (1, 3)]
    """

    params: tuple[AllToAllParam, ...]

    def __post_init__(self) -> None:
        object.__setattr__(self, "params", tuple(self.params))

    @classmethod
    def parse(cls, text: str) -> AllToAllParamList:
        return _parse_whole(text, cls)

    @classmethod
    def read_body(cls, cursor: Cursor) -> AllToAllParamList:
        cursor.expect("[", "'[' starting the all-to-all parameters")
        params = cursor.comma_separated(
            "]", lambda: AllToAllParam.read(cursor), "an all-to-all parameter"
        )
        return cls(tuple(params))

    def body(self) -> str:
        return "[" + ", ".join(str(p) for p in self.params) + "]"

    def __str__(self) -> str:
        return f"#sdy<all_to_all_param_list{self.body()}>"


_KINDS: dict[str, Any] = {
    "axis_ref_list": AxisRefList,
    "list_of_axis_ref_lists": ListOfAxisRefLists,
    "all_to_all_param_list": AllToAllParamList,
}
AXIS_LIST_KEYWORDS = tuple(f"#sdy<{k}" for k in _KINDS)


def read_axis_list_attr(cursor: Cursor) -> AxisRefList | ListOfAxisRefLists | AllToAllParamList:
    """`#sdy<axis_ref_list{...}>`, `#sdy<list_of_axis_ref_lists[...]>` or
    `#sdy<all_to_all_param_list[...]>` (the module reader's hook)."""
    cursor.skip_space()
    start = cursor.pos
    cursor.expect("#sdy<", "'#sdy<'")
    keyword = cursor.identifier("an sdy attribute keyword")
    kind = _KINDS.get(keyword)
    if kind is None:
        raise cursor.error(f"unknown sdy attribute '{keyword}'", start)
    value = kind.read_body(cursor)
    cursor.expect(">", f"'>' closing the {keyword}")
    return value


def _parse_whole(text: str, kind):
    """`text` as the full `#sdy<...>` attribute or only the body the ops print."""
    cursor = Cursor(text)
    value = read_axis_list_attr(cursor) if cursor.peek("#") else kind.read_body(cursor)
    if not isinstance(value, kind):
        raise cursor.error(f"expected a {kind.__name__}", 0)
    cursor.expect_end()
    return value


def _axis(a: str | AxisRef) -> AxisRef:
    return a if isinstance(a, AxisRef) else AxisRef(a)
