"""Fuzzing the readers: mutated text only ever raises ParseError or ShardingError.

A seeded loop mutates a corpus of valid attributes (delete, insert, replace,
truncate, duplicate) and feeds every result to all six public parsers; what
parses is then validated against a fixed mesh, printed and re-parsed, and
(when valid on a small mesh) laid out. Any other exception fails with the
input that caused it.

Also here: the generators in `shardonnay.testing.strategies` only produce valid values.
"""

from __future__ import annotations

import random
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from shardonnay import (
    AxisRef,
    DimSharding,
    Mesh,
    OpShardingRule,
    ParseError,
    ShardingError,
    TensorSharding,
    TensorShardingPerValue,
)
from shardonnay.layout import device_slices, local_shape
from shardonnay.sharding import verify_axis_ref_lists
from shardonnay.testing.strategies import (
    ODD_AXIS_NAMES,
    meshes,
    op_sharding_rules,
    sharding_cases,
    shardings,
    shardings_per_value,
)

MESH = Mesh({"x": 2, "y": 4, "z": 2, "a": 1, "b": 8})

CORPUS = [
    # shardings
    '#sdy.sharding<@mesh, [{"x"}, {"y"}]>',
    '#sdy.sharding<@mesh, [{"x", "y"}, {}]>',
    '#sdy.sharding<@mesh, [{"y", ?}p1, {?}p0], replicated={"z"}>',
    '#sdy.sharding<@mesh, [{"b":(1)2}, {"b":(2)4}], replicated={"x"}, unreduced={"y"}>',
    '#sdy.sharding<@mesh, [{"b":(4)2, "x"}], unreduced=max{"y", "z"}>',
    '#sdy.sharding<@mesh, [{}], unreduced=min{"a"}>',
    "#sdy.sharding<@mesh, []>",
    '#sdy.sharding<mesh<["x"=2, "y"=2], device_ids=[3, 2, 1, 0]>, [{"x"}, {"y", ?}]>',
    "#sdy.sharding<mesh<[], device_ids=[3]>, []>",
    '<@"my mesh", [{"x"}p12]>',
    '#sdy.sharding<@mesh, [{"y":(2)2}], replicated={"y":(1)2}>',
    # meshes
    '#sdy.mesh<["x"=2, "y"=4]>',
    '<["a"=3, "b"=2], device_ids=[0, 2, 4, 1, 3, 5]>',
    "<[]>",
    "<[], device_ids=[7]>",
    'mesh<["data"=8, "model"=1]>',
    # per-value shardings
    '#sdy.sharding_per_value<[<@mesh, [{"x"}]>, <@mesh, [{}, {"y", ?}]>]>',
    "#sdy.sharding_per_value<[]>",
    '#sdy.sharding_per_value<[<mesh<["p"=2]>, [{"p"}]>]>',
    # sharding rules
    "#sdy.op_sharding_rule<([i, k], [k, j])->([i, j]) {i=8, j=16, k=32} reduction={k}>",
    "#sdy.op_sharding_rule<([ij])->([i, j]) {i=2, j=4}>",
    "#sdy.op_sharding_rule<([ij, mn])->([ik, ln]) {i=2, j=3, k=2, l=3, m=2, n=2}>",
    "#sdy.op_sharding_rule<([i, j, k], [])->([i, j, k]) {i=2, j=4, k=8} permutation={i, j}>",
    "#sdy.op_sharding_rule<([ij])->([i, j]) {i=2, j=4} need_replication={i} "
    "permutation={j} blocked_propagation={i}, custom>",
    "#sdy.op_sharding_rule<([ijklmnopq, rstuvwxyz])->([z_1]) {"
    + ", ".join(f"{f}=2" for f in "ijklmnopqrstuvwxyz")
    + ", z_1=3}>",
    # axis refs and dim shardings
    '"x"',
    '"b":(2)4',
    '{"x", "y":(1)2, ?}p3',
    "{?}",
    "{}",
    '{"z"}p0',
]

ALPHABET = '{}[]<>(),:=?@"p#0123456789xyzab -'
NUM_INPUTS = 20_000


def mutate(text: str, rng: random.Random) -> str:
    for _ in range(rng.choice((1, 1, 1, 1, 2, 2, 3))):
        op = rng.randrange(6)
        pos = rng.randint(0, len(text))
        if op == 0 and text:  # delete 1..3 characters
            text = text[:pos] + text[pos + rng.randint(1, 3) :]
        elif op == 1:  # insert
            text = text[:pos] + rng.choice(ALPHABET) + text[pos:]
        elif op == 2 and pos < len(text):  # replace
            text = text[:pos] + rng.choice(ALPHABET) + text[pos + 1 :]
        elif op == 3:  # truncate
            text = text[:pos]
        elif op == 4 and text:  # duplicate a substring somewhere
            start = rng.randrange(len(text))
            piece = text[start : start + rng.randint(1, 12)]
            text = text[:pos] + piece + text[pos:]
        elif op == 5 and len(text) > 1:  # swap two characters
            i, j = sorted(rng.sample(range(len(text)), 2))
            text = text[:i] + text[j] + text[i + 1 : j] + text[i] + text[j + 1 :]
    return text


def mutated_inputs() -> list[str]:
    rng = random.Random(20240611)
    return [mutate(rng.choice(CORPUS), rng) for _ in range(NUM_INPUTS)]


INPUTS = mutated_inputs()


# -- what to do with a value that parsed ---------------------------------------------


def named_mesh(sharding: TensorSharding) -> Mesh | None:
    """MESH for `@name` shardings, None for those that inline their mesh."""
    return MESH if isinstance(sharding.mesh, str) else None


def exercise_sharding(sharding: TensorSharding) -> None:
    assert TensorSharding.parse(str(sharding)) == sharding
    sharding.validate(named_mesh(sharding))
    shape = tuple(range(3, 3 + sharding.rank))
    sharding.validate(named_mesh(sharding), shape, strict=True)
    mesh = sharding.resolve_mesh(named_mesh(sharding))
    if mesh.size <= 64:
        assert len(device_slices(shape, sharding, mesh)) == mesh.size
        local_shape(shape, sharding, mesh)


def exercise_mesh(mesh: Mesh) -> None:
    assert Mesh.parse(str(mesh)) == mesh
    if mesh.size <= 64:
        assert sorted(mesh.device_list) == list(range(mesh.size)) or mesh.is_maximal
        for device in mesh.device_list:
            assert mesh.device_at(mesh.coords_of(device)) == device


def exercise_rule(rule: OpShardingRule) -> None:
    assert OpShardingRule.parse(str(rule)) == rule
    rule.validate()


def exercise_per_value(value: TensorShardingPerValue) -> None:
    assert TensorShardingPerValue.parse(str(value)) == value
    for sharding in value.shardings:
        sharding.validate(named_mesh(sharding))


def exercise_axis_ref(ref: AxisRef) -> None:
    assert AxisRef.parse(str(ref)) == ref
    verify_axis_ref_lists([[ref]], MESH)
    assert ref.size(MESH) >= 1


def exercise_dim(dim: DimSharding) -> None:
    assert DimSharding.parse(str(dim)) == dim
    TensorSharding("mesh", (dim,)).validate(MESH, (8,))


TARGETS: list[tuple[Callable[[str], object], Callable]] = [
    (TensorSharding.parse, exercise_sharding),
    (Mesh.parse, exercise_mesh),
    (OpShardingRule.parse, exercise_rule),
    (TensorShardingPerValue.parse, exercise_per_value),
    (AxisRef.parse, exercise_axis_ref),
    (DimSharding.parse, exercise_dim),
]


def check_parse_error(error: ParseError, text: str) -> None:
    assert 0 <= error.offset <= len(text), (text, error.offset)
    rendered = str(error).split("\n")
    assert rendered[-1].strip() == "^", (text, str(error))
    assert 1 <= error.column <= len(error.source_line) + 1, (text, str(error))
    # The caret points at the character at the column (long lines are clipped around it).
    shown, caret = rendered[-2][2:], rendered[-1].index("^") - 2
    assert shown[caret : caret + 1] == error.source_line[error.column - 1 : error.column]
    assert rendered[0].startswith(f"<string>:{error.line}:{error.column}: ")


def test_corpus_is_valid() -> None:
    parsed = 0
    for text in CORPUS:
        for parse, exercise in TARGETS:
            try:
                value = parse(text)
            except ParseError:
                continue
            exercise(value)
            parsed += 1
    assert parsed >= len(CORPUS)


def test_mutated_text_raises_only_shardonnay_errors() -> None:
    outcomes = {"parsed": 0, "parse_error": 0, "sharding_error": 0}
    failures: list[str] = []
    for text in INPUTS:
        for parse, exercise in TARGETS:
            try:
                value = parse(text)
            except ParseError as e:
                outcomes["parse_error"] += 1
                try:
                    check_parse_error(e, text)
                except AssertionError as bad:
                    failures.append(f"{parse.__qualname__}({text!r}): bad caret: {bad}")
                continue
            except Exception as e:  # anything else is a bug
                failures.append(f"{parse.__qualname__}({text!r}) raised {e!r}")
                continue
            outcomes["parsed"] += 1
            try:
                exercise(value)
            except ShardingError:
                outcomes["sharding_error"] += 1
            except Exception as e:
                failures.append(f"{exercise.__name__}({text!r}) raised {e!r}")
    assert not failures, f"{len(failures)} failures, first ones:\n" + "\n".join(failures[:20])
    # The mutations keep enough inputs parseable to reach the validators.
    assert outcomes["parsed"] > NUM_INPUTS // 20 and outcomes["sharding_error"] > 100, outcomes


@pytest.mark.parametrize(
    "text",
    ["", "#", "<", '"', '#sdy.sharding<@mesh, [{"x"', "\n\n  {", '{"x":(2', '<[\n"x"=2,\n'],
)
def test_parse_errors_point_into_the_text(text: str) -> None:
    for parse, _ in TARGETS:
        with pytest.raises(ParseError) as e:
            parse(text)
        check_parse_error(e.value, text)


# -- the generators only produce valid values ----------------------------------------


@settings(max_examples=500, deadline=None)
@given(sharding_cases(allow_maximal=True))
def test_generated_shardings_are_valid(case: tuple[Mesh, TensorSharding, tuple[int, ...]]) -> None:
    mesh, sharding, shape = case
    sharding.validate(mesh, shape)
    assert TensorSharding.parse(str(sharding)) == sharding


@settings(max_examples=200, deadline=None)
@given(st.data())
def test_generated_shardings_with_odd_axis_names_are_valid(data: st.DataObject) -> None:
    mesh = data.draw(meshes(names=ODD_AXIS_NAMES))
    assert Mesh.parse(str(mesh)) == mesh
    sharding = data.draw(shardings(mesh, data.draw(st.integers(0, 3))))
    sharding.validate(mesh)
    assert TensorSharding.parse(str(sharding)) == sharding
    value = data.draw(shardings_per_value(mesh))
    for s in value.shardings:
        s.validate(mesh)
    assert TensorShardingPerValue.parse(str(value)) == value


@settings(max_examples=300, deadline=None)
@given(op_sharding_rules())
def test_generated_rules_are_valid(rule: OpShardingRule) -> None:
    rule.validate()
    assert OpShardingRule.parse(str(rule)) == rule


def test_reduction_without_unreduced_axes_is_moot() -> None:
    """Found by fuzzing: `unreduced=min{}` parsed to a value that printed as
    plain `sum`. Like Shardy we now reject the empty set, and a constructed
    sharding with no unreduced axes normalizes its reduction."""
    with pytest.raises(ParseError, match="empty set"):
        TensorSharding.parse("#sdy.sharding<@mesh, [{}], unreduced=min{}>")
    moot = TensorSharding("mesh", (), reduction="min")
    assert moot == TensorSharding("mesh", ()) and TensorSharding.parse(str(moot)) == moot
