"""Sharding rules of contractions, reductions, sorting, random and indexing ops,
compared op by op with the rules Shardy (inside jaxlib) writes for the same
modules."""

from __future__ import annotations

import importlib.util
import pathlib

import pytest

pytest.importorskip("jax")

import jax
import jax.numpy as jnp
import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from shardonnay import parse_module
from shardonnay.ops.rules import rule_for
from shardonnay.testing.shardy_rules import shardy_rules

CORPUS = pathlib.Path(__file__).parent.parent / "corpus"

OURS = frozenset(
    "stablehlo." + name
    for name in [
        "dot_general",
        "dot",
        "convolution",
        "reduce",
        "reduce_window",
        "select_and_scatter",
        "sort",
        "rng_bit_generator",
        "rng",
        "reduce_precision",
        "slice",
        "dynamic_slice",
        "dynamic_update_slice",
        "gather",
        "scatter",
    ]
)

FAST = settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow], database=None
)


def rules_of_ours(text: str) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """(Shardy's rules, our rules) of the ops of this family in `text`, in walk order."""
    theirs = [(name, rule) for name, rule in shardy_rules(text) if name in OURS]
    ours = []
    for op in parse_module(text).walk():
        if op.name in OURS:
            rule = rule_for(op)
            if rule is not None:
                ours.append((op.name, str(rule)))
    return theirs, ours


def assert_match(text: str, at_least: int = 1) -> int:
    """Our rule of every op of this family equals Shardy's; returns how many."""
    theirs, ours = rules_of_ours(text)
    assert ours == theirs, (
        "\n".join(f"shardy {t}\nours   {o}" for t, o in zip(theirs, ours, strict=False) if t != o)
        or f"shardy {theirs}\nours   {ours}"
    )
    assert len(theirs) >= at_least, f"expected at least {at_least} rules, got {theirs}"
    return len(theirs)


def lower(f, *args) -> str:
    return jax.jit(f).lower(*args).as_text()


def tensor(shape, element: str = "f32") -> str:
    return "tensor<" + "".join(f"{n}x" for n in shape) + element + ">"


def ints(values) -> str:
    return "[" + ", ".join(map(str, values)) + "]"


def ones(*shape, dtype=jnp.float32):
    return jnp.ones(shape, dtype)


# -- programs as JAX writes them -------------------------------------------------------------

_IDX = jnp.array([1, 2, 3, 0], jnp.int32)

JAX_PROGRAMS = {
    "matmul": (lambda x, y: x @ y, (ones(8, 32), ones(32, 16))),
    "batched": (
        lambda a, b: jnp.einsum("bij,bjk->bik", a, b),
        (ones(2, 3, 4), ones(2, 4, 5)),
    ),
    "two_batch_dims": (
        lambda a, b: jnp.einsum("bhij,bhjk->bhki", a, b),
        (ones(2, 1, 3, 4), ones(2, 1, 4, 5)),
    ),
    "outer_no_contracting": (
        lambda a, b: jnp.einsum("ij,kl->ijkl", a, b),
        (ones(2, 3), ones(4, 5)),
    ),
    "vector_dot": (jnp.dot, (ones(4), ones(4))),
    "matvec": (jnp.dot, (ones(3, 4), ones(4))),
    "sum_max": (lambda x: (x.sum(0), x.max(1), x.sum()), (ones(8, 32),)),
    "argmax_variadic_reduce": (lambda x: jnp.argmax(x, 1), (ones(4, 8),)),
    "sort": (lambda x: jnp.sort(x, 0), (ones(8, 32),)),
    "sort_multiple_operands": (
        lambda a, b: jax.lax.sort((a, b), dimension=1, num_keys=1),
        (ones(4, 8), ones(4, 8)),
    ),
    "argsort_blocked": (lambda x: jnp.argsort(x, axis=1), (ones(1, 8),)),
    "reduce_precision": (lambda x: jax.lax.reduce_precision(x, 5, 10), (ones(8, 32),)),
    "rbg_bits": (lambda: jax.random.bits(jax.random.key(0, impl="rbg"), (3, 5)), ()),
    "slice": (lambda x: (x[1:3], x[:, ::2], x[:, :]), (ones(8, 32),)),
    "take_axis0": (lambda a, i: a[i], (ones(64, 32), _IDX)),
    "take_axis1": (lambda a, i: jnp.take(a, i, axis=1), (ones(8, 64, 32), _IDX)),
    "take_two_axes": (lambda a, i: a[i, i], (ones(8, 64, 32), _IDX)),
    "take_2d_indices": (lambda a, i: a[i], (ones(64, 32), jnp.zeros((4, 8), jnp.int32))),
    "vmap_gather": (jax.vmap(lambda a, i: a[i]), (ones(4, 64, 32), _IDX)),
    "vmap_gather_axis1": (
        jax.vmap(lambda a, i: a[i], in_axes=(1, None)),
        (ones(64, 4, 32), _IDX),
    ),
    "vmap_gather_batched_indices": (
        jax.vmap(lambda a, i: a[i]),
        (ones(3, 64, 32), jnp.zeros((3, 4), jnp.int32)),
    ),
    "scatter_add": (lambda a, i, u: a.at[i].add(u), (ones(64, 32), _IDX, ones(4, 32))),
    "scatter_set": (lambda a, i, u: a.at[i].set(u), (ones(64, 32), _IDX, ones(4, 32))),
    "scatter_max": (lambda a, i, u: a.at[i].max(u), (ones(64, 32), _IDX, ones(4, 32))),
    "scatter_mul": (lambda a, i, u: a.at[i].multiply(u), (ones(64, 32), _IDX, ones(4, 32))),
    "scatter_set_axis1": (
        lambda a, i, u: a.at[:, i].set(u),
        (ones(64, 32), _IDX, ones(64, 4)),
    ),
    "vmap_scatter_add": (
        jax.vmap(lambda a, i, u: a.at[i].add(u)),
        (ones(3, 64, 32), jnp.zeros((3, 4), jnp.int32), ones(3, 4, 32)),
    ),
    "dynamic_slice": (
        lambda a, i: jax.lax.dynamic_slice(a, (i, 0), (4, 32)),
        (ones(64, 32), 3),
    ),
    "dynamic_update_slice": (
        lambda a, u, i: jax.lax.dynamic_update_slice(a, u, (i, 0)),
        (ones(64, 32), ones(4, 32), 3),
    ),
    "dynamic_update_slice_row": (
        lambda a, u, i: jax.lax.dynamic_update_slice(a, u, (i, 0)),
        (ones(64, 32), ones(1, 32), 3),
    ),
    "max_pool": (
        lambda a: jax.lax.reduce_window(
            a, -jnp.inf, jax.lax.max, (1, 2, 2, 1), (1, 2, 2, 1), "VALID"
        ),
        (ones(2, 8, 8, 3),),
    ),
    "cumsum": (lambda a: jnp.cumsum(a, axis=1), (ones(4, 8),)),
    "max_pool_grad": (
        jax.grad(
            lambda a: jax.lax.reduce_window(
                a, -jnp.inf, jax.lax.max, (1, 2, 2, 1), (1, 2, 2, 1), "VALID"
            ).sum()
        ),
        (ones(2, 8, 8, 3),),
    ),
    "conv_same": (
        lambda a, w: jax.lax.conv_general_dilated(
            a, w, (1, 1), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC")
        ),
        (ones(2, 8, 8, 3), ones(3, 3, 3, 4)),
    ),
    "conv_grad": (
        jax.grad(
            lambda a, w: jax.lax.conv_general_dilated(
                a, w, (2, 2), "SAME", dimension_numbers=("NHWC", "HWIO", "NHWC")
            ).sum(),
            argnums=(0, 1),
        ),
        (ones(2, 8, 8, 3), ones(3, 3, 3, 4)),
    ),
}


@pytest.mark.parametrize("name", sorted(JAX_PROGRAMS))
def test_jax_programs(name):
    f, args = JAX_PROGRAMS[name]
    assert_match(lower(f, *args))


@pytest.mark.parametrize(
    "name",
    [
        "embedding_lookup",
        "scatter_add",
        "conv_net",
        "reductions_and_sort",
        "mlp_train_step",
        "transformer_block_backward",
        "uneven_shapes",
    ],
)
def test_corpus_programs(name):
    assert_match((CORPUS / f"{name}.mlir").read_text())


def test_corpus_gather_and_scatter_rules():
    """The rules of the corpus' gathers and scatters, spelled out."""
    theirs, ours = rules_of_ours((CORPUS / "embedding_lookup.mlir").read_text())
    gather = "#sdy.op_sharding_rule<([l, k], [i, j, m])->([i, j, k]) {i=4, j=8, k=32, l=64, m=1}"
    assert ("stablehlo.gather", gather + " reduction={l} need_replication={m}>") in ours
    assert ours == theirs
    _, ours = rules_of_ours((CORPUS / "scatter_add.mlir").read_text())
    assert any(
        name == "stablehlo.scatter" and "reduction={i} need_replication={l}" in rule
        for name, rule in ours
    )


# -- dot_general -------------------------------------------------------------------------------


@st.composite
def dot_generals(draw):
    sizes = st.integers(1, 4)
    nb, nc = draw(st.integers(0, 2)), draw(st.integers(0, 2))
    nl, nr = draw(st.integers(0, 2)), draw(st.integers(0, 2))
    batch = [draw(sizes) for _ in range(nb)]
    contract = [draw(sizes) for _ in range(nc)]
    lhs_roles = [("b", i) for i in range(nb)] + [("c", i) for i in range(nc)]
    lhs_roles += [("f", draw(sizes)) for _ in range(nl)]
    rhs_roles = [("b", i) for i in range(nb)] + [("c", i) for i in range(nc)]
    rhs_roles += [("f", draw(sizes)) for _ in range(nr)]
    lhs_roles = draw(st.permutations(lhs_roles))
    rhs_roles = draw(st.permutations(rhs_roles))

    def shape(roles):
        return tuple(batch[x] if r == "b" else contract[x] if r == "c" else x for r, x in roles)

    def dims(roles, kind, n):
        return tuple(next(d for d, r in enumerate(roles) if r == (kind, i)) for i in range(n))

    numbers = (
        (dims(lhs_roles, "c", nc), dims(rhs_roles, "c", nc)),
        (dims(lhs_roles, "b", nb), dims(rhs_roles, "b", nb)),
    )
    return shape(lhs_roles), shape(rhs_roles), numbers


@FAST
@given(dot_generals())
def test_dot_general(case):
    lhs, rhs, numbers = case
    text = lower(lambda a, b: jax.lax.dot_general(a, b, numbers), ones(*lhs), ones(*rhs))
    assert_match(text)


@pytest.mark.parametrize(
    ("lhs", "rhs"),
    [((4,), (4,)), ((3, 4), (4,)), ((4,), (4, 5)), ((3, 4), (4, 5)), ((1, 1), (1, 1))],
)
def test_dot(lhs, rhs):
    text = f"""func.func @f(%a: {tensor(lhs)}, %b: {tensor(rhs)}) -> tensor<*xf32> {{
  %0 = stablehlo.dot %a, %b : ({tensor(lhs)}, {tensor(rhs)}) -> {tensor(lhs[:-1] + rhs[1:])}
  return %0 : {tensor(lhs[:-1] + rhs[1:])}
}}""".replace("tensor<*xf32>", tensor(lhs[:-1] + rhs[1:]))
    assert_match(text)


# -- convolution -------------------------------------------------------------------------------


@st.composite
def convolutions(draw):
    n = draw(st.integers(1, 2))
    spatial = "HW"[:n]
    lhs_spec = "".join(draw(st.permutations("NC" + spatial)))
    rhs_spec = "".join(draw(st.permutations("OI" + spatial)))
    out_spec = "".join(draw(st.permutations("NC" + spatial)))
    groups = draw(st.sampled_from([(1, 1), (2, 1), (1, 2), (3, 1)]))
    fg, bg = groups
    batch = draw(st.integers(1, 2)) * bg
    in_features = draw(st.integers(1, 2)) * fg
    out_features = draw(st.integers(1, 2)) * fg * bg
    window = [draw(st.integers(1, 3)) for _ in range(n)]
    sizes = [draw(st.integers(w, 9)) for w in window]
    strides = [draw(st.integers(1, 2)) for _ in range(n)]
    padding = draw(st.sampled_from(["VALID", "SAME"]))
    lhs_shape = {"N": batch, "C": in_features, **dict(zip(spatial, sizes, strict=True))}
    rhs_shape = {
        "O": out_features,
        "I": in_features // fg,
        **dict(zip(spatial, window, strict=True)),
    }
    return (
        tuple(lhs_shape[c] for c in lhs_spec),
        tuple(rhs_shape[c] for c in rhs_spec),
        (lhs_spec, rhs_spec, out_spec),
        strides,
        padding,
        fg,
        bg,
    )


@FAST
@given(convolutions())
def test_convolution(case):
    lhs, rhs, specs, strides, padding, fg, bg = case

    def conv(a, w):
        return jax.lax.conv_general_dilated(
            a,
            w,
            strides,
            padding,
            dimension_numbers=specs,
            feature_group_count=fg,
            batch_group_count=bg,
        )

    assert_match(lower(conv, ones(*lhs), ones(*rhs)))


@pytest.mark.parametrize(
    ("lhs", "rhs", "kwargs"),
    [
        # The window larger than the number of windows; a kernel as large as the input.
        ((1, 4, 6), (3, 6, 4), {}),
        ((2, 5, 3), (5, 3, 2), {}),
        ((2, 9, 3), (3, 3, 2), {"lhs_dilation": (2,)}),
        ((2, 9, 3), (3, 3, 2), {"rhs_dilation": (3,)}),
        ((4, 8, 6), (3, 6, 4), {"batch_group_count": 2}),
        ((2, 8, 6), (3, 3, 4), {"feature_group_count": 2}),
    ],
)
def test_convolution_windows_and_groups(lhs, rhs, kwargs):
    def conv(a, w):
        return jax.lax.conv_general_dilated(
            a, w, (1,), [(0, 0)], dimension_numbers=("NWC", "WIO", "NWC"), **kwargs
        )

    assert_match(lower(conv, ones(*lhs), ones(*rhs)))


# -- reduce, reduce_window, select_and_scatter, sort -------------------------------------------


@FAST
@given(st.lists(st.integers(1, 4), min_size=0, max_size=4), st.data())
def test_reduce(shape, data):
    dims = tuple(data.draw(st.sets(st.sampled_from(range(len(shape)))))) if shape else ()
    variadic = data.draw(st.booleans())
    x = ones(*shape)
    if variadic:

        def f(a):
            return jax.lax.reduce((a, a), (0.0, 1.0), lambda p, q: (p[0] + q[0], p[1] * q[1]), dims)
    else:

        def f(a):
            return jax.lax.reduce(a, 0.0, jax.lax.add, dims)

    assert_match(lower(f, x))


def _reduce_window(shape, out, window, strides, padding, base=None, dilations=None) -> str:
    n = len(shape)
    attrs = (
        f"window_dimensions = array<i64: {', '.join(map(str, window))}>, "
        f"window_strides = array<i64: {', '.join(map(str, strides))}>, "
        f"padding = dense<{[list(p) for p in padding]}> : tensor<{n}x2xi64>"
    )
    if base:
        attrs += f", base_dilations = array<i64: {', '.join(map(str, base))}>"
    if dilations:
        attrs += f", window_dilations = array<i64: {', '.join(map(str, dilations))}>"
    return f"""func.func @f(%x: {tensor(shape)}, %c: tensor<f32>) -> {tensor(out)} {{
  %0 = "stablehlo.reduce_window"(%x, %c) <{{{attrs}}}> ({{
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %s = stablehlo.add %a, %b : tensor<f32>
    stablehlo.return %s : tensor<f32>
  }}) : ({tensor(shape)}, tensor<f32>) -> {tensor(out)}
  return %0 : {tensor(out)}
}}"""


@pytest.mark.parametrize(
    "case",
    [
        ((8,), (8,), (1,), (1,), [(0, 0)]),
        ((8,), (4,), (1,), (2,), [(0, 0)]),
        ((8,), (8,), (2,), (1,), [(1, 0)]),
        ((8,), (10,), (1,), (1,), [(1, 1)]),
        ((8,), (7,), (2,), (1,), [(0, 0)]),
        ((1,), (1,), (1,), (2,), [(0, 0)]),
        # Dilations alone move nothing: no permutation, even when sizes change.
        ((8,), (15,), (1,), (1,), [(0, 0)], (2,)),
        ((8, 1), (8, 1), (1, 1), (1, 1), [(0, 0), (0, 0)], None, (2, 2)),
        ((8,), (6,), (2,), (1,), [(0, 0)], None, (2,)),
        ((4, 6, 2), (2, 6, 1), (2, 1, 2), (2, 1, 1), [(0, 0), (0, 0), (0, 0)]),
    ],
)
def test_reduce_window(case):
    assert_match(_reduce_window(*case))


@FAST
@given(st.lists(st.integers(1, 6), min_size=1, max_size=3), st.data())
def test_reduce_window_from_jax(shape, data):
    n = len(shape)
    window = tuple(data.draw(st.integers(1, s)) for s in shape)
    strides = tuple(data.draw(st.integers(1, 2)) for _ in shape)
    padding = data.draw(st.sampled_from(["VALID", "SAME"]))
    variadic = data.draw(st.booleans())
    x = ones(*shape)
    if variadic:

        def f(a):
            return jax.lax.reduce_window(
                (a, a),
                (0.0, -jnp.inf),
                lambda p, q: (p[0] + q[0], jnp.maximum(p[1], q[1])),
                window,
                strides,
                padding,
            )
    else:

        def f(a):
            return jax.lax.reduce_window(a, 0.0, jax.lax.add, window, strides, padding)

    assert n == x.ndim
    assert_match(lower(f, x))


@FAST
@given(st.lists(st.integers(1, 6), min_size=1, max_size=3), st.data())
def test_select_and_scatter(shape, data):
    window = tuple(data.draw(st.integers(1, s)) for s in shape)
    strides = tuple(data.draw(st.integers(1, 2)) for _ in shape)
    padding = data.draw(st.sampled_from(["VALID", "SAME"]))

    def pooled_sum(a):
        return jax.lax.reduce_window(a, -jnp.inf, jax.lax.max, window, strides, padding).sum()

    text = lower(jax.grad(pooled_sum), ones(*shape))
    if "select_and_scatter" not in text:  # windows of one element: nothing to select
        return
    assert_match(text, at_least=2)


@FAST
@given(st.lists(st.integers(1, 4), min_size=1, max_size=3), st.data())
def test_sort(shape, data):
    dim = data.draw(st.integers(0, len(shape) - 1))
    operands = data.draw(st.integers(1, 3))
    args = tuple(ones(*shape) for _ in range(operands))
    assert_match(lower(lambda *a: jax.lax.sort(a, dimension=dim, num_keys=1), *args))


@pytest.mark.parametrize("dim", [-1, -2])
def test_sort_negative_dimension(dim):
    text = f"""func.func @f(%x: tensor<4x8xf32>) -> tensor<4x8xf32> {{
  %0 = "stablehlo.sort"(%x) <{{dimension = {dim} : i64}}> ({{
  ^bb0(%a: tensor<f32>, %b: tensor<f32>):
    %p = stablehlo.compare LT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %p : tensor<i1>
  }}) : (tensor<4x8xf32>) -> tensor<4x8xf32>
  return %0 : tensor<4x8xf32>
}}"""
    assert_match(text)


# -- random and precision ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("state", "out"), [((2,), (4, 8)), ((3,), (5,)), ((2,), (1, 3, 1)), ((4,), ())]
)
def test_rng_bit_generator(state, out):
    text = f"""func.func @f(%s: {tensor(state, "ui64")}) -> {tensor(out, "ui32")} {{
  %0:2 = stablehlo.rng_bit_generator %s, algorithm = DEFAULT
    : ({tensor(state, "ui64")}) -> ({tensor(state, "ui64")}, {tensor(out, "ui32")})
  return %0#1 : {tensor(out, "ui32")}
}}"""
    assert_match(text)


def test_rng_has_no_rule():
    text = """func.func @f(%a: tensor<f32>, %b: tensor<f32>) -> tensor<3x4xf32> {
  %c = stablehlo.constant dense<[3, 4]> : tensor<2xi64>
  %0 = stablehlo.rng %a, %b, %c, distribution = UNIFORM
    : (tensor<f32>, tensor<f32>, tensor<2xi64>) -> tensor<3x4xf32>
  return %0 : tensor<3x4xf32>
}"""
    theirs, ours = rules_of_ours(text)
    assert theirs == ours == []


@pytest.mark.parametrize("shape", [(), (1,), (8, 32), (2, 1, 3)])
def test_reduce_precision(shape):
    assert_match(lower(lambda x: jax.lax.reduce_precision(x, 4, 3), ones(*shape)))


# -- slice, dynamic_slice, dynamic_update_slice ------------------------------------------------


@FAST
@given(st.lists(st.integers(1, 6), min_size=1, max_size=4), st.data())
def test_slices(shape, data):
    starts = [data.draw(st.integers(0, s - 1)) for s in shape]
    limits = [data.draw(st.integers(a + 1, s)) for a, s in zip(starts, shape, strict=True)]
    strides = [data.draw(st.integers(1, 3)) for _ in shape]
    sizes = [data.draw(st.integers(1, s)) for s in shape]
    update = [data.draw(st.integers(1, s)) for s in shape]

    def f(x, u, i):
        return (
            jax.lax.slice(x, starts, limits, strides),
            jax.lax.dynamic_slice(x, [i] * len(shape), sizes),
            jax.lax.dynamic_update_slice(x, u, [i] * len(shape)),
        )

    assert_match(lower(f, ones(*shape), ones(*update), 1), at_least=3)


# -- gather and scatter ------------------------------------------------------------------------


@st.composite
def gathers(draw):
    """Random valid gathers: dimension numbers, shapes, and the scatter that
    writes the same slices back."""
    sizes = st.integers(1, 4)
    rank = draw(st.integers(1, 4))
    shape = [draw(sizes) for _ in range(rank)]
    dims = list(range(rank))
    batching = draw(st.lists(st.sampled_from(dims), unique=True, max_size=2))
    rest = [d for d in dims if d not in batching]
    collapsed = sorted(draw(st.lists(st.sampled_from(rest), unique=True))) if rest else []
    index_map = draw(st.lists(st.sampled_from(rest), unique=True, min_size=1)) if rest else []
    if not index_map:
        index_map = [draw(st.sampled_from(rest))] if rest else []
    if not index_map:
        return None
    slice_sizes = [
        1 if d in batching or d in collapsed else draw(st.integers(0, shape[d])) for d in dims
    ]
    n_batch = len(batching) + draw(st.integers(0, 2))
    batch_shape = [draw(sizes) for _ in range(n_batch)]
    index_batching = draw(st.permutations(range(n_batch)))[: len(batching)]
    for b, d in zip(index_batching, batching, strict=True):
        batch_shape[b] = shape[d]
    implicit = len(index_map) == 1 and draw(st.booleans())
    ivd = n_batch if implicit else draw(st.integers(0, n_batch))
    indices_shape = list(batch_shape)
    if not implicit:
        indices_shape.insert(ivd, len(index_map))
    indices_batching = [b if b < ivd or implicit else b + 1 for b in index_batching]
    offset_sizes = [slice_sizes[d] for d in dims if d not in batching and d not in collapsed]
    out_rank = n_batch + len(offset_sizes)
    offset_dims = sorted(draw(st.permutations(range(out_rank)))[: len(offset_sizes)])
    out_shape, batch_iter, offset_iter = [], iter(batch_shape), iter(offset_sizes)
    for d in range(out_rank):
        out_shape.append(next(offset_iter) if d in offset_dims else next(batch_iter))
    return {
        "shape": shape,
        "indices_shape": indices_shape,
        "out_shape": out_shape,
        "offset_dims": offset_dims,
        "collapsed": collapsed,
        "batching": sorted(batching),
        "indices_batching": [indices_batching[batching.index(d)] for d in sorted(batching)],
        "index_map": index_map,
        "ivd": ivd,
        "slice_sizes": slice_sizes,
    }


def _gather_text(g) -> str:
    numbers = (
        f"offset_dims = {ints(g['offset_dims'])}, collapsed_slice_dims = {ints(g['collapsed'])}, "
        f"operand_batching_dims = {ints(g['batching'])}, "
        f"start_indices_batching_dims = {ints(g['indices_batching'])}, "
        f"start_index_map = {ints(g['index_map'])}, index_vector_dim = {g['ivd']}"
    )
    x, idx, out = tensor(g["shape"]), tensor(g["indices_shape"], "i32"), tensor(g["out_shape"])
    return f"""func.func @f(%x: {x}, %i: {idx}) -> {out} {{
  %0 = "stablehlo.gather"(%x, %i) <{{dimension_numbers = #stablehlo.gather<{numbers}>,
    slice_sizes = array<i64: {", ".join(map(str, g["slice_sizes"]))}>}}> : ({x}, {idx}) -> {out}
  return %0 : {out}
}}"""


_COMBINERS = {
    "add": "%s = stablehlo.add %a{k}, %b{k} : tensor<{t}>",
    "add_swapped": "%s = stablehlo.add %b{k}, %a{k} : tensor<{t}>",
    "max": "%s = stablehlo.maximum %a{k}, %b{k} : tensor<{t}>",
    "subtract": "%s = stablehlo.subtract %a{k}, %b{k} : tensor<{t}>",
    "or": "%s = stablehlo.or %a{k}, %b{k} : tensor<{t}>",
    "set": None,
}


def _scatter_text(g, combiner: str = "add", inputs: int = 1, element: str = "f32") -> str:
    numbers = (
        f"update_window_dims = {ints(g['offset_dims'])}, "
        f"inserted_window_dims = {ints(g['collapsed'])}, "
        f"input_batching_dims = {ints(g['batching'])}, "
        f"scatter_indices_batching_dims = {ints(g['indices_batching'])}, "
        f"scatter_dims_to_operand_dims = {ints(g['index_map'])}, index_vector_dim = {g['ivd']}"
    )
    x, idx = tensor(g["shape"], element), tensor(g["indices_shape"], "i32")
    u = tensor(g["out_shape"], element)
    scalar = f"tensor<{element}>"
    body, returned = [], []
    for k in range(inputs):
        template = _COMBINERS[combiner]
        if template is None:
            returned.append(f"%b{k}")
        else:
            body.append("    " + template.format(k=k, t=element).replace("%s", f"%s{k}"))
            returned.append(f"%s{k}")
    args = ", ".join(
        [f"%a{k}: {scalar}" for k in range(inputs)] + [f"%b{k}: {scalar}" for k in range(inputs)]
    )
    body.append(f"    stablehlo.return {', '.join(returned)} : {', '.join([scalar] * inputs)}")
    params = ", ".join(
        [f"%x{k}: {x}" for k in range(inputs)]
        + [f"%i: {idx}"]
        + [f"%u{k}: {u}" for k in range(inputs)]
    )
    operands = ", ".join(
        [f"%x{k}" for k in range(inputs)] + ["%i"] + [f"%u{k}" for k in range(inputs)]
    )
    results = ", ".join([x] * inputs)
    nl = "\n"
    return f"""func.func @f({params}) -> ({results}) {{
  %0:{inputs} = "stablehlo.scatter"({operands}) <{{scatter_dimension_numbers =
    #stablehlo.scatter<{numbers}>}}> ({{
  ^bb0({args}):
{nl.join(body)}
  }}) : ({", ".join([x] * inputs + [idx] + [u] * inputs)}) -> ({results})
  return {", ".join(f"%0#{k}" for k in range(inputs))} : {results}
}}"""


@settings(max_examples=60, deadline=None, database=None)
@given(gathers())
def test_gather(g):
    if g is None:
        return
    assert_match(_gather_text(g))


@settings(max_examples=60, deadline=None, database=None)
@given(gathers(), st.sampled_from(sorted(_COMBINERS)), st.integers(1, 2))
def test_scatter(g, combiner, inputs):
    if g is None:
        return
    element = "i1" if combiner == "or" else "f32"
    assert_match(_scatter_text(g, combiner, inputs, element))


def test_scatter_reduction_needs_the_same_reducer_for_all_inputs():
    g = {
        "shape": [32, 16],
        "indices_shape": [6, 1],
        "out_shape": [6, 16],
        "offset_dims": [1],
        "collapsed": [0],
        "batching": [],
        "indices_batching": [],
        "index_map": [0],
        "ivd": 1,
        "slice_sizes": [1, 16],
    }
    text = _scatter_text(g, "add", 2)
    assert_match(text)
    _, [(_, rule)] = rules_of_ours(text)
    assert "reduction={i}" in rule
    mixed = text.replace("%s1 = stablehlo.add", "%s1 = stablehlo.multiply")
    _, [(_, rule)] = rules_of_ours(mixed)
    assert "need_replication={i, l}" in rule
    assert_match(mixed)
    # `or` reduces booleans only.
    _, [(_, rule)] = rules_of_ours(_scatter_text(g, "or", 1, "i32"))
    assert "need_replication={i, l}" in rule
    assert_match(_scatter_text(g, "or", 1, "i32"))


# -- soundness, where the checker exists -------------------------------------------------------

# Rules whose sharded factors the partitioner serves with more than a local
# copy of the op: scatter and dynamic_update_slice rebase their indices per
# shard, rng_bit_generator offsets each shard's bits, and a convolution's
# sharded window-size factor exchanges halos.
NOT_LOCAL = frozenset(
    {
        "stablehlo.scatter",
        "stablehlo.dynamic_update_slice",
        "stablehlo.rng_bit_generator",
        "stablehlo.convolution",
    }
)


@pytest.mark.skipif(
    importlib.util.find_spec("shardonnay.propagation.checks.rule_check") is None,
    reason="no rule checker",
)
@pytest.mark.parametrize("name", sorted(JAX_PROGRAMS))
def test_rules_are_sound(name):
    from shardonnay.propagation.checks.rule_check import check_rule

    f, args = JAX_PROGRAMS[name]
    for op in parse_module(lower(f, *args)).walk():
        if op.name in OURS and op.name not in NOT_LOCAL and rule_for(op) is not None:
            check_rule(op, seed=0, trials=8)


def test_rule_sizes_match_the_dims():
    """A gather's rule validates, and each dim's factors multiply to its size."""
    text = lower(JAX_PROGRAMS["take_axis1"][0], *JAX_PROGRAMS["take_axis1"][1])
    for op in parse_module(text).walk():
        if op.name == "stablehlo.gather":
            rule = rule_for(op)
            shapes = [v.type.shape for v in (*op.operands, *op.results)]
            rule.validate(shapes[:2], shapes[2:])
            for mapping, shape in zip(rule.tensor_mappings(), shapes, strict=True):
                for dim, size in zip(mapping, shape, strict=True):
                    assert int(np.prod([rule.factor_sizes[f] for f in dim])) == size
