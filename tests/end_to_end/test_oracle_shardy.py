"""Oracle: the real Shardy (the `sdy` dialect bundled in jaxlib) agrees with us.

Printing: for random valid meshes, shardings, per-value shardings and sharding
rules, our `str` is what Shardy prints after parsing our text, and the
non-canonical spellings Shardy accepts parse to the same value.

Verifier: embedded in a module, every valid sharding is accepted by Shardy;
for hand-written invalid cases and random mutations of valid ones, we reject
exactly when Shardy does, with Shardy's message.

jaxlib 0.10.2 predates `unreduced=max{...}`/`unreduced=min{...}`, so only
`sum` shardings (the default, printed without a keyword) go through Shardy here.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator, Sequence

import pytest

pytest.importorskip("jax")

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jax._src.interpreters import mlir as jmlir
from jaxlib.mlir import ir

from shardonnay import (
    AxisRef,
    DimSharding,
    InvalidAttributeError,
    Mesh,
    OpShardingRule,
    ParseError,
    ShardingError,
    ShardonnayError,
    TensorSharding,
    TensorShardingPerValue,
)
from shardonnay.errors import IRError
from shardonnay.ir.verifier import verify
from shardonnay.syntax.mlir_reader import parse_module
from shardonnay.testing.collective_ops import (
    COLLECTIVE_MESH,
    COLLECTIVE_OPERAND,
    collective_module,
    random_collective_modules,
)
from shardonnay.testing.strategies import (
    ODD_AXIS_NAMES,
    meshes,
    op_sharding_rules,
    sharding_cases,
    shardings,
    shardings_per_value,
    tensor_type,
)

pytestmark = pytest.mark.oracle

SUM_ONLY = ("sum",)  # jaxlib 0.10.2 cannot parse `unreduced=max{...}`
ORACLE = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@pytest.fixture(scope="module", autouse=True)
def ctx() -> Iterator[ir.Context]:
    """One MLIR context with the sdy dialect, entered for the whole module."""
    context = jmlir.make_ir_context()
    with context:
        yield context


# -- talking to Shardy ----------------------------------------------------------------


def shardy_print(text: str) -> str:
    """What Shardy prints for the attribute `text`."""
    return str(ir.Attribute.parse(text))


def shardy_accepts_attribute(text: str) -> bool:
    try:
        ir.Attribute.parse(text)
    except ir.MLIRError:
        return False
    return True


def module_text(mesh: str, sharding: str, shape: Sequence[int]) -> str:
    t = tensor_type(shape)
    return (
        f"sdy.mesh @mesh = {mesh}\n"
        f"func.func @main(%arg0: {t} {{sdy.sharding = {sharding}}}) -> {t} {{\n"
        f"  return %arg0 : {t}\n"
        "}\n"
    )


_ARG_PREFIX = "'func.func' op arg 0 - "
_MESH_PREFIX = "custom op 'sdy.mesh' "


def shardy_verify(mesh: str, sharding: str, shape: Sequence[int]) -> str | None:
    """None if Shardy accepts the module, else its first message without the
    `arg 0 - ` (sharding) or `custom op 'sdy.mesh' ` (mesh) prefix."""
    try:
        ir.Module.parse(module_text(mesh, sharding, shape))
    except ir.MLIRError as e:
        message = e.error_diagnostics[0].message
        for prefix in (_ARG_PREFIX, _MESH_PREFIX):
            if message.startswith(prefix):
                return message[len(prefix) :]
        return "UNEXPECTED DIAGNOSTIC: " + message
    return None


def ours_verify(mesh: str, sharding: str, shape: Sequence[int]) -> str | None:
    """None if shardonnay accepts, else its message (Shardy's wording)."""
    try:
        parsed_mesh = Mesh.parse(mesh)
    except InvalidAttributeError as e:
        return e.message
    try:
        TensorSharding.parse(sharding).validate(parsed_mesh, shape)
    except InvalidAttributeError as e:
        return e.message
    except ShardingError as e:
        return str(e)
    return None


def assert_same_verdict(mesh: str, sharding: str, shape: Sequence[int]) -> str | None:
    ours = ours_verify(mesh, sharding, shape)
    theirs = shardy_verify(mesh, sharding, shape)
    assert ours == theirs, (
        f"\nmesh:     {mesh}\nsharding: {sharding}\nshape:    {shape}"
        f"\nshardonnay: {ours}\nshardy:     {theirs}"
    )
    return theirs


# -- printing parity -----------------------------------------------------------------


@ORACLE
@given(sharding_cases(reductions=SUM_ONLY, allow_maximal=True))
def test_sharding_prints_like_shardy(case: tuple[Mesh, TensorSharding, tuple[int, ...]]) -> None:
    _, sharding, _ = case
    text = str(sharding)
    assert shardy_print(text) == text
    assert TensorSharding.parse(text) == sharding


@ORACLE
@given(meshes(allow_maximal=True))
def test_mesh_prints_like_shardy(mesh: Mesh) -> None:
    # Our `str(mesh)` is the `<[...]>` body of `#sdy.mesh<[...]>`.
    assert shardy_print("#sdy.mesh" + str(mesh)) == "#sdy.mesh" + str(mesh)
    assert Mesh.parse("#sdy.mesh" + str(mesh)) == mesh


@ORACLE
@given(st.data())
def test_sharding_per_value_prints_like_shardy(data: st.DataObject) -> None:
    mesh = data.draw(meshes())
    value = data.draw(shardings_per_value(mesh, reductions=SUM_ONLY))
    text = str(value)
    assert shardy_print(text) == text
    assert TensorShardingPerValue.parse(text) == value


@ORACLE
@given(op_sharding_rules())
def test_sharding_rule_prints_like_shardy(rule: OpShardingRule) -> None:
    text = str(rule)
    assert shardy_print(text) == text
    assert OpShardingRule.parse(text) == rule


@ORACLE
@given(st.data())
def test_axis_names_that_need_escaping_print_like_shardy(data: st.DataObject) -> None:
    mesh = data.draw(meshes(names=ODD_AXIS_NAMES, min_axes=1))
    text = "#sdy.mesh" + str(mesh)
    assert shardy_print(text) == text
    sharding = data.draw(shardings(mesh, 2, reductions=SUM_ONLY))
    assert shardy_print(str(sharding)) == str(sharding)
    assert TensorSharding.parse(str(sharding)) == sharding


@pytest.mark.parametrize(
    "name", ["mesh", "m_2", "mesh.v2", "a$b", "1st", "with space", "a-b", "$x"]
)
def test_mesh_symbol_names_print_like_shardy(name: str) -> None:
    sharding = TensorSharding(name, (DimSharding((AxisRef("x"),)),))
    assert shardy_print(str(sharding)) == str(sharding)
    assert TensorSharding.parse(str(sharding)).mesh == name


# Spellings Shardy accepts but never prints.
NON_CANONICAL = [
    '#sdy.sharding<@mesh, [{"x"}, {  }]>',
    '#sdy.sharding<@mesh,[{"x","y"},{}]>',
    '#sdy.sharding<  @mesh ,  [ { "x" , ? } p1 , { ? } ] , replicated = { "y" } >',
    '#sdy.sharding<@mesh, [{"x" : ( 2 ) 4}]>',
    '#sdy.sharding<@mesh, [\n  {"x"},\n  {}\n]>',
    '#sdy.sharding<@"mesh", [{"x"}]>',
    '#sdy.sharding<mesh<["a"=2,"b"=2],device_ids=[3,2,1,0]>, [{"a"}]>',
    '#sdy.sharding<@mesh, [{"x"} // a comment\n]>',
    '#sdy.mesh<["a"=2,"b"=2], device_ids=[3,2,1,0]>',
    '#sdy.mesh<[ "a" = 2 , "b" = 2 ] , device_ids = [ 3 , 2 , 1 , 0 ]>',
    "#sdy.mesh<[\n]>",
    "#sdy.mesh<[], device_ids=[ 7 ]>",
    '#sdy.sharding_per_value<[ <@mesh, [{"x"}]> , <@m2,[]> ]>',
    "#sdy.op_sharding_rule<([i,j])->([ij]) {i=2,j=4}>",
    "#sdy.op_sharding_rule<( [i, j] ) -> ( [ij] ) { i = 2 , j = 4 }>",
    "#sdy.op_sharding_rule<([i])->([i]) {i=4} reduction={}>",
    "#sdy.op_sharding_rule<([i, j])->([i]) {i=4, j=2} reduction={j} , custom>",
    "#sdy.op_sharding_rule<([i, j])->([i]) {i=4, j=2} reduction={ j }need_replication={}>",
    "#sdy.op_sharding_rule<([i, j])->([i]) {i=4, j=2} // a comment\n reduction={j}>",
    "#sdy.op_sharding_rule<([i, j])->([i]) {i=4, j=2} // a comment\n, custom>",
]

_PARSERS = {
    "#sdy.sharding_per_value": TensorShardingPerValue.parse,
    "#sdy.sharding": TensorSharding.parse,
    "#sdy.mesh": Mesh.parse,
    "#sdy.op_sharding_rule": OpShardingRule.parse,
}


def parse_ours(text: str):
    for prefix, parse in _PARSERS.items():
        if text.startswith(prefix):
            return parse(text)
    raise AssertionError(f"no parser for {text!r}")


def print_ours(value) -> str:
    """Our text in Shardy's full attribute form (`str(mesh)` lacks `#sdy.mesh`)."""
    return "#sdy.mesh" + str(value) if isinstance(value, Mesh) else str(value)


@pytest.mark.parametrize("text", NON_CANONICAL)
def test_non_canonical_spellings_parse_to_shardys_canonical_value(text: str) -> None:
    canonical = shardy_print(text)
    ours = parse_ours(text)
    assert ours == parse_ours(canonical)
    assert print_ours(ours) == canonical


# Spellings Shardy's parser rejects; so do we.
SHARDY_REJECTS = {
    "priority with a leading zero": ('#sdy.sharding<@mesh, [{"x"}p01]>', ()),
    "space inside a priority": ('#sdy.sharding<@mesh, [{"x"}p 1]>', ()),
    "negative priority": ('#sdy.sharding<@mesh, [{"x"}p-1]>', ()),
    "axis after '?'": ('#sdy.sharding<@mesh, [{"x", ?, "y"}]>', ()),
    "empty replicated set": ("#sdy.sharding<@mesh, [{}], replicated={}>", ()),
    "empty unreduced set": ("#sdy.sharding<@mesh, [{}], unreduced={}>", ()),
    "space after #sdy.sharding": ("#sdy.sharding <@mesh, []>", ()),
    "space after #sdy.mesh": ('#sdy.mesh <["a"=2]>', ()),
    "space after @": ("#sdy.sharding<@ mesh, []>", ()),
    "axis size with a plus sign": ('#sdy.mesh<["a"=+2]>', ()),
    "trailing comma in a mesh": ('#sdy.mesh<["a"=2], device_ids=[1, 0],>', ()),
    "space inside a compound dim mapping": (
        "#sdy.op_sharding_rule<([i j])->([i, j]) {i=2, j=2}>",
        (),
    ),
    "factor sizes out of order": ("#sdy.op_sharding_rule<([i, j])->([ij]) {j=4, i=2}>", ()),
    "special factor sets out of order": (
        "#sdy.op_sharding_rule<([i, j])->([i]) {i=4, j=2} need_replication={i} reduction={j}>",
        (),
    ),
    "no operands": ("#sdy.op_sharding_rule<()->([i]) {i=2}>", ()),
    "no results": ("#sdy.op_sharding_rule<([i])->() {i=2}>", ()),
}


@pytest.mark.parametrize(
    "text",
    [pytest.param(text, marks=marks, id=name) for name, (text, marks) in SHARDY_REJECTS.items()],
)
def test_spellings_shardy_rejects_are_rejected(text: str) -> None:
    assert not shardy_accepts_attribute(text)
    with pytest.raises(ShardonnayError):
        parse_ours(text)


_STR = r'"(?:[^"\\]|\\.)*"'
_TOKEN = re.compile(
    rf"{_STR}|@(?:{_STR}|[A-Za-z_][A-Za-z0-9_$.]*)|#sdy\.[a-z_]+|->|[A-Za-z_][A-Za-z0-9_$.]*"
    r"|[+-]?\d+|\S"
)


def token_boundaries(text: str) -> list[int]:
    """Offsets between two tokens: never inside a string, `@name`, `->`, `p1` or
    `#sdy.x`, nor right after `#sdy.x` (Shardy wants its `<` there)."""
    tokens = list(_TOKEN.finditer(text))
    return [t.end() for t in tokens[1:-1]]


@ORACLE
@given(st.data())
def test_whitespace_and_comments_between_tokens_are_ignored_like_shardy(
    data: st.DataObject,
) -> None:
    mesh = data.draw(meshes())
    value = data.draw(
        st.one_of(
            shardings(mesh, data.draw(st.integers(0, 3)), reductions=SUM_ONLY),
            st.just(mesh),
            shardings_per_value(mesh, reductions=SUM_ONLY),
            op_sharding_rules(max_factors=6),
        )
    )
    text = print_ours(value)
    cuts = token_boundaries(text)
    chosen = data.draw(st.sets(st.sampled_from(cuts), max_size=6)) if cuts else set()
    spaced = text
    for cut in sorted(chosen, reverse=True):
        gap = data.draw(st.sampled_from([" ", "  ", "\n", "\t", " // note\n"]))
        spaced = spaced[:cut] + gap + spaced[cut:]
    assert shardy_print(spaced) == text
    assert parse_ours(spaced) == parse_ours(text)


# -- verifier parity -----------------------------------------------------------------


@ORACLE
@given(sharding_cases(reductions=SUM_ONLY, allow_maximal=True))
def test_valid_shardings_are_accepted_by_shardy(
    case: tuple[Mesh, TensorSharding, tuple[int, ...]],
) -> None:
    mesh, sharding, shape = case
    assert assert_same_verdict(str(mesh), str(sharding), shape) is None


M = '<["x"=8, "y"=2, "z"=4]>'
MAXIMAL = "<[], device_ids=[3]>"

# (mesh, sharding, shape): each rejected by Shardy's verifier.
INVALID = {
    "unknown axis in a dim": (M, '<@mesh, [{"w"}]>', (8,)),
    "unknown axis in replicated": (M, '<@mesh, [{}], replicated={"w"}>', (8,)),
    "unknown axis in unreduced": (M, '<@mesh, [{}], unreduced={"w"}>', (8,)),
    "unknown sub-axis": (M, '<@mesh, [{"w":(1)2}]>', (8,)),
    "duplicate axis in one dim": (M, '<@mesh, [{"x", "x"}]>', (8,)),
    "duplicate axis across dims": (M, '<@mesh, [{"x"}, {"y", "x"}]>', (8, 8)),
    "duplicate axis in dim and replicated": (M, '<@mesh, [{"x"}], replicated={"x"}>', (8,)),
    "duplicate axis in replicated and unreduced": (
        M,
        '<@mesh, [{}], replicated={"y"}, unreduced={"y"}>',
        (8,),
    ),
    "duplicate sub-axis across dims": (M, '<@mesh, [{"x":(1)2}, {"x":(1)2}]>', (8, 8)),
    "mergeable sub-axes in a dim": (M, '<@mesh, [{"x":(1)2, "x":(2)4}]>', (8,)),
    "mergeable sub-axes in a dim, not at the start": (
        M,
        '<@mesh, [{"y", "x":(2)2, "x":(4)2}]>',
        (8,),
    ),
    "mergeable sub-axes in replicated": (
        M,
        '<@mesh, [{}], replicated={"x":(1)2, "x":(2)2}>',
        (8,),
    ),
    "mergeable sub-axes in unreduced": (M, '<@mesh, [{}], unreduced={"z":(1)2, "z":(2)2}>', (8,)),
    "rank mismatch, too few dims": (M, '<@mesh, [{"x"}]>', (8, 8)),
    "rank mismatch, too many dims": (M, "<@mesh, [{}, {}]>", ()),
    "empty closed dim with priority": (M, '<@mesh, [{"x"}, {}p0]>', (8, 8)),
    "replicated not mesh-ordered": (M, '<@mesh, [{}], replicated={"y", "x"}>', (8,)),
    "replicated sub-axes not ordered": (
        M,
        '<@mesh, [{}], replicated={"x":(4)2, "x":(1)2}>',
        (8,),
    ),
    "replicated full axis before its sub-axis": (
        M,
        '<@mesh, [{}], replicated={"x", "x":(2)2}>',
        (8,),
    ),
    "replicated sub-axis before its full axis": (
        M,
        '<@mesh, [{}], replicated={"x":(2)2, "x"}>',
        (8,),
    ),
    "replicated unknown axis before a known one": (
        M,
        '<@mesh, [{}], replicated={"w", "x"}>',
        (8,),
    ),
    "replicated unknown axis after a known one": (
        M,
        '<@mesh, [{}], replicated={"x", "w"}>',
        (8,),
    ),
    "unreduced not mesh-ordered": (M, '<@mesh, [{}], unreduced={"z", "y"}>', (8,)),
    "sub-axis and full axis in dims": (M, '<@mesh, [{"x"}, {"x":(1)2}]>', (8, 8)),
    "sub-axis and full axis in replicated": (
        M,
        '<@mesh, [{"x":(1)2}], replicated={"x"}>',
        (8,),
    ),
    "overlapping sub-axes": (M, '<@mesh, [{"x":(1)4}, {"x":(2)2}]>', (8, 8)),
    "overlapping sub-axes, dim and replicated": (
        M,
        '<@mesh, [{"x":(1)4}], replicated={"x":(2)4}>',
        (8,),
    ),
    "sub-axis pre-size 0": (M, '<@mesh, [{"x":(0)2}]>', (8,)),
    "sub-axis size 1": (M, '<@mesh, [{"x":(2)1}]>', (8,)),
    "sub-axis size 0": (M, '<@mesh, [{"z":(2)0}]>', (8,)),
    "sub-axis next pre-size not dividing": (M, '<@mesh, [{"x":(3)2}]>', (8,)),
    "sub-axis size not dividing": (M, '<@mesh, [{"z":(1)3}]>', (8,)),
    "sub-axis beyond its axis": (M, '<@mesh, [{"x":(4)4}]>', (8,)),
    "sub-axis equal to the full axis": (M, '<@mesh, [{"x":(1)8}]>', (8,)),
    "sub-axis of a size-2 axis": (M, '<@mesh, [{"y":(1)2}]>', (8,)),
    # Several problems at once: the first one Shardy's verifier reaches is named.
    "duplicate in dim 0 before priority of dim 1": (M, '<@mesh, [{"x", "x"}, {}p1]>', (8, 8)),
    "unordered replicated before a duplicate in it": (
        M,
        '<@mesh, [{"x"}], replicated={"y", "x"}>',
        (8,),
    ),
    "duplicate before sub-axis validity": (M, '<@mesh, [{"x":(1)3, "x":(1)3}]>', (8,)),
    "mergeable before sub-axis validity": (M, '<@mesh, [{"x":(1)2, "x":(2)3}]>', (8,)),
    "unknown axis in a later dim before sub-axis validity": (
        M,
        '<@mesh, [{"x":(3)2}, {"w"}]>',
        (8, 8),
    ),
    "full and sub-axis before sub-axis validity": (M, '<@mesh, [{"x":(1)3}, {"x"}]>', (8, 8)),
    "sub-axes of one axis are checked in sorted order": (
        M,
        '<@mesh, [{"x":(7)2}, {"x":(3)2}]>',
        (8, 8),
    ),
    "overlap found before a later sub-axis is invalid": (
        M,
        '<@mesh, [{"x":(4)3}, {"x":(1)4}, {"x":(2)2}]>',
        (8, 8, 8),
    ),
    # Axis names that need escaping: Shardy prints the raw name in some messages.
    "unknown axis with a quote in its name": (M, r'<@mesh, [{"q\22t"}]>', (8,)),
    "duplicate axis ref with a quote in its name": (
        r'<["q\22t"=2]>',
        r'<@mesh, [{"q\22t", "q\22t"}]>',
        (8,),
    ),
    "mesh axis name with a quote used twice": (r'<["q\22t"=2, "q\22t"=2]>', "<@mesh, []>", ()),
    "sub and full axis with a backslash in its name": (
        r'<["b\\s"=4]>',
        r'<@mesh, [{"b\\s"}, {"b\\s":(1)2}]>',
        (8, 8),
    ),
    "maximal mesh with dims": (MAXIMAL, "<@mesh, [{}]>", (4,)),
    "maximal mesh with replicated axes": (MAXIMAL, '<@mesh, [], replicated={"x"}>', (4,)),
    "mesh with a duplicate axis name": ('<["x"=2, "x"=4]>', "<@mesh, []>", ()),
    "device ids not a permutation": (
        '<["x"=2, "y"=2], device_ids=[0, 1, 1, 3]>',
        "<@mesh, []>",
        (),
    ),
    "device ids not iota when sorted": (
        '<["x"=2, "y"=2], device_ids=[4, 1, 2, 3]>',
        "<@mesh, []>",
        (),
    ),
    "too many device ids": ('<["x"=2], device_ids=[1, 0, 2]>', "<@mesh, []>", ()),
    "too few device ids": ('<["x"=4], device_ids=[1, 0]>', "<@mesh, []>", ()),
    "negative device id": ('<["x"=2], device_ids=[-1, 0]>', "<@mesh, []>", ()),
    "negative maximal device id": ("<[], device_ids=[-3]>", "<@mesh, []>", ()),
    "empty axes with two device ids": ("<[], device_ids=[0, 1]>", "<@mesh, []>", ()),
    "axis size 0": ('<["x"=0]>', "<@mesh, []>", ()),
    "negative axis size": ('<["x"=2, "y"=-1]>', "<@mesh, []>", ()),
}


@pytest.mark.parametrize(("mesh", "sharding", "shape"), INVALID.values(), ids=INVALID.keys())
def test_invalid_cases_are_rejected_with_shardys_message(
    mesh: str, sharding: str, shape: tuple[int, ...]
) -> None:
    assert assert_same_verdict(mesh, "#sdy.sharding" + sharding, shape) is not None


def test_spelled_out_iota_device_ids_follow_newer_shardy() -> None:
    """A deliberate difference from jaxlib 0.10.2.

    jaxlib 0.10.2's Shardy silently drops `device_ids` equal to iota; newer
    Shardy's verifier rejects them, and so do we, with its message.
    """
    text = '#sdy.mesh<["a"=2, "b"=2], device_ids=[0, 1, 2, 3]>'
    assert shardy_print(text) == '#sdy.mesh<["a"=2, "b"=2]>'
    with pytest.raises(InvalidAttributeError) as e:
        Mesh.parse(text)
    assert e.value.message == (
        "if the ordered device ids are the same as iota(product(axes)), "
        "no need to specify them for simplicity"
    )


def test_empty_device_id_list_is_rejected_by_both() -> None:
    """Shardy rejects `device_ids=[]` as a syntax error ("expected integer value");
    we reject it as an invalid mesh."""
    for text in ("<[], device_ids=[]>", '<["x"=2], device_ids=[]>'):
        assert not shardy_accepts_attribute("#sdy.mesh" + text)
        with pytest.raises(ShardingError):
            Mesh.parse(text)


def test_negative_priority_cannot_be_written() -> None:
    """`p-1` is a syntax error for both parsers (the API-level check is in test_sharding)."""
    text = '#sdy.sharding<@mesh, [{"x"}p-1]>'
    assert not shardy_accepts_attribute(text)
    with pytest.raises(ParseError):
        TensorSharding.parse(text)
    with pytest.raises(ShardingError, match="dim 0 has a negative priority"):
        TensorSharding("mesh", (DimSharding(("x",), True, -1),)).validate(Mesh({"x": 2}), (4,))


# -- random mutations of valid shardings --------------------------------------------

_UNKNOWN = "unknown"

# Messages of Shardy's last phase (per axis, over a hash map of axis names): when
# two axes both have a problem there, which one Shardy names is hash-order luck.
_SUB_AXIS_PHASE = re.compile(
    r'^(?:sub-axis .*: "(?P<a>[^"]*)"|overlapping sub-axes: "(?P<b>[^"]*)"'
    r'|both sub-axis and full-axis are used for axis name: "(?P<c>[^"]*)")'
)


def _sub_axis_phase_axis(message: str | None) -> str | None:
    m = _SUB_AXIS_PHASE.match(message or "")
    return None if m is None else (m.group("a") or m.group("b") or m.group("c"))


def _lists(sharding: TensorSharding) -> list[list[AxisRef]]:
    """Dim lists, then replicated, then unreduced (mutable copies)."""
    return [list(d.axes) for d in sharding.dims] + [
        list(sharding.replicated),
        list(sharding.unreduced),
    ]


def _rebuild(sharding: TensorSharding, lists: list[list[AxisRef]]) -> TensorSharding:
    dims = tuple(
        DimSharding(tuple(axes), d.is_closed, d.priority)
        for d, axes in zip(sharding.dims, lists, strict=False)
    )
    return TensorSharding(
        sharding.mesh, dims, tuple(lists[-2]), tuple(lists[-1]), sharding.reduction
    )


@st.composite
def mutated(
    draw: st.DrawFn, case: tuple[Mesh, TensorSharding, tuple[int, ...]]
) -> tuple[TensorSharding, tuple[int, ...], list[str]]:
    mesh, sharding, shape = case
    shape = tuple(shape)
    done: list[str] = []
    for _ in range(draw(st.integers(1, 2))):
        lists = _lists(sharding)
        kind = draw(
            st.sampled_from(
                [
                    "swap_replicated",
                    "swap_unreduced",
                    "duplicate",
                    "unknown",
                    "pre_size",
                    "size",
                    "add_known",
                    "remove",
                    "priority",
                    "rank",
                ]
            )
        )
        all_axes = [(i, j) for i, axes in enumerate(lists) for j in range(len(axes))]
        subs = [(i, j) for i, j in all_axes if lists[i][j].is_sub_axis]
        target = draw(st.integers(0, len(lists) - 1))
        position = draw(st.integers(0, len(lists[target])))
        if kind in ("swap_replicated", "swap_unreduced"):
            axes = lists[-2 if kind == "swap_replicated" else -1]
            if len(axes) < 2:
                continue
            i, j = draw(
                st.lists(st.integers(0, len(axes) - 1), min_size=2, max_size=2, unique=True)
            )
            axes[i], axes[j] = axes[j], axes[i]
        elif kind == "duplicate":
            if not all_axes:
                continue
            i, j = draw(st.sampled_from(all_axes))
            lists[target].insert(position, lists[i][j])
        elif kind == "unknown":
            lists[target].insert(position, AxisRef(_UNKNOWN))
        elif kind in ("pre_size", "size"):
            if not subs:
                continue
            i, j = draw(st.sampled_from(subs))
            pre, size = lists[i][j].sub_axis
            new = draw(st.integers(0, 9))
            lists[i][j] = AxisRef(
                lists[i][j].name, (new, size) if kind == "pre_size" else (pre, new)
            )
        elif kind == "add_known":
            if not mesh.axes:
                continue
            name = draw(st.sampled_from(mesh.axis_names))
            ref = AxisRef(name)
            if draw(st.booleans()):
                ref = AxisRef(name, (draw(st.integers(1, 8)), draw(st.integers(1, 8))))
            lists[target].insert(position, ref)
        elif kind == "remove":
            if not all_axes:
                continue
            i, j = draw(st.sampled_from(all_axes))
            del lists[i][j]
        elif kind == "priority":
            if not sharding.dims:
                continue
            d = draw(st.integers(0, len(sharding.dims) - 1))
            dims = list(sharding.dims)
            dims[d] = DimSharding(dims[d].axes, dims[d].is_closed, draw(st.integers(0, 3)))
            sharding = TensorSharding(
                sharding.mesh, tuple(dims), sharding.replicated, sharding.unreduced
            )
            done.append(kind)
            continue
        elif kind == "rank":
            shape = shape[:-1] if shape and draw(st.booleans()) else (*shape, 4)
            done.append(kind)
            continue
        sharding = _rebuild(sharding, lists)
        done.append(kind)
    return sharding, shape, done


@settings(max_examples=1000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_mutated_shardings_are_judged_like_shardy(data: st.DataObject) -> None:
    case = data.draw(sharding_cases(reductions=SUM_ONLY, allow_maximal=True))
    sharding, shape, kinds = data.draw(mutated(case))
    mesh = str(case[0])
    text = str(sharding)
    ours = ours_verify(mesh, text, shape)
    theirs = shardy_verify(mesh, text, shape)
    if ours != theirs:
        a, b = _sub_axis_phase_axis(ours), _sub_axis_phase_axis(theirs)
        if a is not None and b is not None and a != b:
            return  # two axes with sub-axis problems; Shardy picks by hash order
    assert ours == theirs, (
        f"\nmutations: {kinds}\nmesh:     {mesh}\nsharding: {text}\nshape:    {shape}"
        f"\nshardonnay: {ours}\nshardy:     {theirs}"
    )


# -- sharding rules on an op -----------------------------------------------------------
#
# Shardy verifies a rule attached to an op (here a `stablehlo.custom_call`). Our
# `OpShardingRule.validate` promises the same verdict, not the same wording.

_RULE_PREFIX = "'stablehlo.custom_call' op "


def rule_shapes(rule: OpShardingRule) -> tuple[list[list[int]], list[list[int]]]:
    """Static shapes that fit `rule`: each dim the product of its factors' sizes."""

    def shapes(mappings) -> list[list[int]]:
        return [[math.prod(rule.factor_sizes[f] for f in dim) for dim in m] for m in mappings]

    return shapes(rule.operand_mappings), shapes(rule.result_mappings)


def rule_module(rule: str, operands: Sequence[Sequence[int]], results: Sequence[Sequence[int]]):
    ins = [tensor_type(s) for s in operands]
    outs = [tensor_type(s) for s in results]
    args = ", ".join(f"%arg{i}: {t}" for i, t in enumerate(ins))
    uses = ", ".join(f"%arg{i}" for i in range(len(ins)))
    values = ", ".join(f"%0#{i}" for i in range(len(outs)))
    return (
        f"func.func @main({args}) -> ({', '.join(outs)}) {{\n"
        f"  %0:{len(outs)} = stablehlo.custom_call @op({uses}) "
        f"{{sdy.sharding_rule = {rule}}} : ({', '.join(ins)}) -> ({', '.join(outs)})\n"
        f"  return {values} : {', '.join(outs)}\n"
        "}\n"
    )


def shardy_verify_rule(
    rule: str, operands: Sequence[Sequence[int]], results: Sequence[Sequence[int]]
) -> str | None:
    try:
        ir.Module.parse(rule_module(rule, operands, results))
    except ir.MLIRError as e:
        message = e.error_diagnostics[0].message
        return message.removeprefix(_RULE_PREFIX)
    return None


def ours_verify_rule(
    rule: str, operands: Sequence[Sequence[int]], results: Sequence[Sequence[int]]
) -> str | None:
    try:
        OpShardingRule.parse(rule).validate(operands, results)
    except ShardingError as e:
        return str(e)
    return None


def assert_same_rule_verdict(
    rule: str, operands: Sequence[Sequence[int]], results: Sequence[Sequence[int]]
) -> str | None:
    ours = ours_verify_rule(rule, operands, results)
    theirs = shardy_verify_rule(rule, operands, results)
    assert (ours is None) == (theirs is None), (
        f"\nrule:     {rule}\noperands: {operands}\nresults:  {results}"
        f"\nshardonnay: {ours}\nshardy:     {theirs}"
    )
    return theirs


@ORACLE
@given(op_sharding_rules(max_factors=8))
def test_valid_rules_are_accepted_by_shardy(rule: OpShardingRule) -> None:
    operands, results = rule_shapes(rule)
    assert assert_same_rule_verdict(str(rule), operands, results) is None


R = "#sdy.op_sharding_rule"
INVALID_RULES = {
    "unused factor": (f"{R}<([i])->([i]) {{i=8, j=2}}>", [[8]], [[8]]),
    "factor in two special sets": (
        f"{R}<([i, j])->([i]) {{i=8, j=2}} reduction={{j}} need_replication={{j}}>",
        [[8, 2]],
        [[8]],
    ),
    "reduction factor in a result": (f"{R}<([i])->([i]) {{i=8}} reduction={{i}}>", [[8]], [[8]]),
    "size-1 factor in a compound dim": (f"{R}<([ij])->([ij]) {{i=8, j=1}}>", [[8]], [[8]]),
    "operand rank mismatch": (f"{R}<([i, j])->([i]) {{i=8, j=2}}>", [[8]], [[8]]),
    "result rank mismatch": (f"{R}<([i])->([i]) {{i=8}}>", [[8]], [[8, 2]]),
    "factor reused in one tensor": (f"{R}<([ii])->([i]) {{i=8}}>", [[8]], [[8]]),
    "factor reused across dims of one tensor": (f"{R}<([i, i])->([i]) {{i=8}}>", [[8, 8]], [[8]]),
    "duplicate special factor": (
        f"{R}<([i])->([i]) {{i=8}} need_replication={{i, i}}>",
        [[8]],
        [[8]],
    ),
    "unsorted special factors": (
        f"{R}<([i, j])->([i, j]) {{i=8, j=2}} permutation={{j, i}}>",
        [[8, 2]],
        [[8, 2]],
    ),
    "unsorted blocked factors": (
        f"{R}<([i, j])->([i, j]) {{i=8, j=2}} blocked_propagation={{j, i}}>",
        [[8, 2]],
        [[8, 2]],
    ),
    "too few operand mappings": (f"{R}<([i])->([i]) {{i=8}}>", [[8], [8]], [[8]]),
    "too many result mappings": (f"{R}<([i])->([i], [i]) {{i=8}}>", [[8]], [[8]]),
}


@pytest.mark.parametrize(
    ("rule", "operands", "results"), INVALID_RULES.values(), ids=INVALID_RULES.keys()
)
def test_invalid_rules_are_rejected_by_both(
    rule: str, operands: list[list[int]], results: list[list[int]]
) -> None:
    assert assert_same_rule_verdict(rule, operands, results) is not None


def test_rule_factor_sizes_need_not_match_dim_sizes() -> None:
    """Neither verifier ties factor sizes to the op's dim sizes (padding ops need this)."""
    rule = f"{R}<([i])->([i]) {{i=3}}>"
    assert assert_same_rule_verdict(rule, [[8]], [[8]]) is None


@st.composite
def mutated_rules(draw: st.DrawFn) -> tuple[str, list[list[int]], list[list[int]], str]:
    rule = draw(op_sharding_rules(max_factors=6))
    operands, results = rule_shapes(rule)
    fields = {
        "factor_sizes": list(rule.factor_sizes),
        "operand_mappings": [[list(d) for d in m] for m in rule.operand_mappings],
        "result_mappings": [[list(d) for d in m] for m in rule.result_mappings],
        "reduction_factors": list(rule.reduction_factors),
        "need_replication_factors": list(rule.need_replication_factors),
        "permutation_factors": list(rule.permutation_factors),
        "blocked_propagation_factors": list(rule.blocked_propagation_factors),
    }
    n = rule.num_factors
    kind = draw(
        st.sampled_from(
            ["extra_factor", "reuse", "size_one", "special", "shape_rank", "tensor_count"]
        )
    )
    tensors = fields["operand_mappings"] + fields["result_mappings"]
    if kind == "extra_factor":  # a new factor no tensor uses
        fields["factor_sizes"].append(draw(st.integers(1, 4)))
    elif kind == "reuse":  # a factor twice in one tensor
        t = draw(st.sampled_from(tensors))
        t.append([draw(st.integers(0, n - 1))])
    elif kind == "size_one":  # a size-1 factor glued into a dim
        fields["factor_sizes"].append(1)
        t = draw(st.sampled_from(tensors))
        if t:
            t[draw(st.integers(0, len(t) - 1))].append(n)
        else:
            t.append([n])
    elif kind == "special":  # a factor added to some special set
        name = draw(st.sampled_from([k for k in fields if k.endswith("_factors")]))
        fields[name].insert(draw(st.integers(0, len(fields[name]))), draw(st.integers(0, n - 1)))
    elif kind == "shape_rank":
        shapes = draw(st.sampled_from([operands, results]))
        i = draw(st.integers(0, len(shapes) - 1))
        shapes[i] = shapes[i][:-1] if shapes[i] and draw(st.booleans()) else [*shapes[i], 2]
    elif kind == "tensor_count":
        shapes = draw(st.sampled_from([operands, results]))
        if len(shapes) > 1 and draw(st.booleans()):
            shapes.pop()
        else:
            shapes.append([2])
    mutant = OpShardingRule(**fields, is_custom=rule.is_custom)
    return str(mutant), operands, results, kind


@ORACLE
@given(mutated_rules())
def test_mutated_rules_get_shardys_verdict(case: tuple[str, list, list, str]) -> None:
    rule, operands, results, _ = case
    assert_same_rule_verdict(rule, operands, results)


# -- collectives: the IR verifier (each op's collective) against Shardy's ----------------


def shardy_module_verdict(text: str) -> str | None:
    """None if Shardy's verifier accepts the module, else its first message."""
    try:
        ir.Module.parse(text)
    except ir.MLIRError as e:
        return e.error_diagnostics[0].message
    return None


def ours_module_verdict(text: str) -> str | None:
    """None if `ir.verifier.verify` accepts the module, else its message."""
    try:
        verify(parse_module(text))
    except IRError as e:
        return str(e)
    return None


def assert_same_collective_verdict(text: str) -> str | None:
    ours, theirs = ours_module_verdict(text), shardy_module_verdict(text)
    assert (ours is None) == (theirs is None), f"\n{text}\nshardonnay: {ours}\nshardy:     {theirs}"
    if theirs is not None:
        assert theirs in ours, f"\n{text}\nshardonnay: {ours}\nshardy:     {theirs}"
    return theirs


GATHER = 'sdy.all_gather [{}, {"y"}] %arg0'
PERMUTE = "sdy.collective_permute %arg0"
R2U = 'sdy.replicated_to_unreduced {"z"} %arg0'
TWIN_MESH = f"sdy.mesh @twin = {COLLECTIVE_MESH}\n"
REVERSED_MESH = '<["x"=2, "y"=2, "z"=2], device_ids=[7, 6, 5, 4, 3, 2, 1, 0]>'
COLLECTIVE_CASES = {
    # (op, operand sharding or None, extra meshes): accepted
    "gather": (f'{GATHER} out_sharding=<@mesh, [{{"x"}}, {{}}]>', COLLECTIVE_OPERAND, ""),
    "gather keeping unreduced axes as Shardy does not check": (
        f'{GATHER} out_sharding=<@mesh, [{{"x"}}, {{}}], unreduced={{"z"}}>',
        COLLECTIVE_OPERAND,
        "",
    ),
    "gather to an equal mesh of another name": (
        f'{GATHER} out_sharding=<@twin, [{{"x"}}, {{}}]>',
        COLLECTIVE_OPERAND,
        TWIN_MESH,
    ),
    "slice of an operand without sharding": (
        'sdy.all_slice [{}, {"z"}] %arg0 out_sharding=<@mesh, [{}, {"z"}]>',
        None,
        "",
    ),
    "all_to_all": (
        'sdy.all_to_all [{"x"}: 0->1] %arg0 out_sharding=<@mesh, [{}, {"y", "x"}]>',
        COLLECTIVE_OPERAND,
        "",
    ),
    "permute": (f'{PERMUTE} out_sharding=<@mesh, [{{"y"}}, {{"x"}}]>', COLLECTIVE_OPERAND, ""),
    "permute to another device order": (
        f'{PERMUTE} out_sharding=<@reversed, [{{"x"}}, {{"y"}}]>',
        COLLECTIVE_OPERAND,
        f"sdy.mesh @reversed = {REVERSED_MESH}\n",
    ),
    "all_reduce of an axis the operand does not list unreduced": (
        'sdy.all_reduce {"z"} %arg0 out_sharding=<@mesh, [{"x"}, {"y"}]>',
        COLLECTIVE_OPERAND,
        "",
    ),
    "all_reduce of an operand without sharding": (
        'sdy.all_reduce {"z"} %arg0 out_sharding=<@mesh, [{}, {}]>',
        None,
        "",
    ),
    "reduce_scatter": (
        'sdy.reduce_scatter [{}, {"z"}] %arg0 out_sharding=<@mesh, [{"x"}, {"y", "z"}]>',
        '<@mesh, [{"x"}, {"y"}], unreduced={"z"}>',
        "",
    ),
    "replicated_to_unreduced": (
        f'{R2U} out_sharding=<@mesh, [{{"x"}}, {{"y"}}], unreduced={{"z"}}>',
        COLLECTIVE_OPERAND,
        "",
    ),
    "sharded_to_unreduced": (
        'sdy.sharded_to_unreduced [{"x"}, {}] %arg0 out_sharding=<@mesh, [{}, {"y"}], '
        'unreduced={"x"}>',
        COLLECTIVE_OPERAND,
        "",
    ),
    # rejected
    "gather whose result is not the gathered operand": (
        f'{GATHER} out_sharding=<@mesh, [{{"y"}}, {{"x"}}]>',
        COLLECTIVE_OPERAND,
        "",
    ),
    "gather of an axis that is not minor": (
        'sdy.all_gather [{"x"}, {}] %arg0 out_sharding=<@mesh, [{}, {"y"}]>',
        '<@mesh, [{"x", "z"}, {"y"}]>',
        "",
    ),
    "gather of an operand without sharding": (
        f'{GATHER} out_sharding=<@mesh, [{{"x"}}, {{}}]>',
        None,
        "",
    ),
    "gather axes of another rank": (
        'sdy.all_gather [{"y"}] %arg0 out_sharding=<@mesh, [{"x"}, {}]>',
        COLLECTIVE_OPERAND,
        "",
    ),
    "gather to another mesh": (
        f'{GATHER} out_sharding=<@small, [{{"x"}}, {{}}]>',
        COLLECTIVE_OPERAND,
        'sdy.mesh @small = <["x"=2, "y"=2]>\n',
    ),
    "all_to_all with unsorted sources": (
        'sdy.all_to_all [{"y"}: 1->0, {"x"}: 0->1] %arg0 out_sharding=<@mesh, [{"y"}, {"x"}]>',
        '<@mesh, [{"x"}, {"y"}]>',
        "",
    ),
    "all_to_all out of range": (
        'sdy.all_to_all [{"x"}: 0->2] %arg0 out_sharding=<@mesh, [{}, {"y", "x"}]>',
        COLLECTIVE_OPERAND,
        "",
    ),
    "permute changing the sharded size": (
        f'{PERMUTE} out_sharding=<@mesh, [{{"x", "z"}}, {{"y"}}]>',
        COLLECTIVE_OPERAND,
        "",
    ),
    "permute to an equal mesh of another name": (
        f'{PERMUTE} out_sharding=<@twin, [{{"y"}}, {{"x"}}]>',
        COLLECTIVE_OPERAND,
        TWIN_MESH,
    ),
    "all_reduce changing the dim shardings": (
        'sdy.all_reduce {"z"} %arg0 out_sharding=<@mesh, [{"x"}, {}]>',
        COLLECTIVE_OPERAND,
        "",
    ),
    "all_reduce of a sharded axis": (
        'sdy.all_reduce {"y"} %arg0 out_sharding=<@mesh, [{"x"}, {"y"}]>',
        COLLECTIVE_OPERAND,
        "",
    ),
    "all_reduce into unreduced axes": (
        'sdy.all_reduce {"z"} %arg0 out_sharding=<@mesh, [{"x"}, {"y"}], unreduced={"z"}>',
        '<@mesh, [{"x"}, {"y"}], unreduced={"z"}>',
        "",
    ),
    "all_reduce of an unknown axis": (
        'sdy.all_reduce {"q"} %arg0 out_sharding=<@mesh, [{"x"}, {"y"}]>',
        COLLECTIVE_OPERAND,
        "",
    ),
    "replicated_to_unreduced of an unreduced axis": (
        f'{R2U} out_sharding=<@mesh, [{{"x"}}, {{"y"}}], unreduced={{"z"}}>',
        '<@mesh, [{"x"}, {"y"}], unreduced={"z"}>',
        "",
    ),
    "replicated_to_unreduced without the new unreduced axes": (
        f'{R2U} out_sharding=<@mesh, [{{"x"}}, {{"y"}}]>',
        COLLECTIVE_OPERAND,
        "",
    ),
    "replicated_to_unreduced of unsorted axes": (
        'sdy.replicated_to_unreduced {"z", "x"} %arg0 '
        'out_sharding=<@mesh, [{}, {"y"}], unreduced={"x", "z"}>',
        '<@mesh, [{}, {"y"}]>',
        "",
    ),
    "sharded_to_unreduced of an axis that is not there": (
        'sdy.sharded_to_unreduced [{"y"}, {}] %arg0 out_sharding=<@mesh, [{}, {"y"}], '
        'unreduced={"x"}>',
        COLLECTIVE_OPERAND,
        "",
    ),
}


@pytest.mark.parametrize(
    ("op", "operand", "meshes"), COLLECTIVE_CASES.values(), ids=COLLECTIVE_CASES.keys()
)
def test_collective_ops_get_shardys_verdict(op: str, operand: str | None, meshes: str) -> None:
    assert_same_collective_verdict(collective_module(op, operand, meshes))


def test_the_collective_cases_are_both_accepted_and_rejected() -> None:
    verdicts = [
        shardy_module_verdict(collective_module(*case)) is None
        for case in COLLECTIVE_CASES.values()
    ]
    assert verdicts.count(True) >= 10 and verdicts.count(False) >= 15


def test_random_collective_ops_get_shardys_verdict() -> None:
    verdicts = [assert_same_collective_verdict(t) for t in random_collective_modules(5, 300)]
    accepted = verdicts.count(None)
    assert accepted >= 60 and len(verdicts) - accepted >= 60, accepted
