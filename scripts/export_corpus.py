"""Export a corpus of realistic sharded JAX programs as MLIR text into tests/corpus/.

Each program is lowered with ``jax.jit(f, in_shardings=..., out_shardings=...).lower(...)``
on 8 fake host CPU devices and written (without debug info) as ``tests/corpus/NAME.mlir``.
The output is deterministic: running the script twice produces identical files.

Usage (needs the ``jax`` extra)::

    python scripts/export_corpus.py

This script deliberately imports only jax, numpy and the standard library (not shardonnay).
"""

from __future__ import annotations

import dataclasses
import os
import re
import zlib

os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=8"

import sys
from collections.abc import Callable
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np
from jax.experimental.shard_alike import shard_alike as jax_shard_alike
from jax.sharding import NamedSharding
from jax.sharding import PartitionSpec as P

CORPUS = Path(__file__).resolve().parent.parent / "tests" / "corpus"

F32 = jnp.float32
I32 = jnp.int32


def make_mesh(shape: tuple[int, ...], names: tuple[str, ...]) -> jax.sharding.Mesh:
    # Auto axes, so that with_sharding_constraint and shard_map with free axes work
    # (jax.make_mesh defaults to Explicit axes).
    return jax.make_mesh(shape, names, axis_types=(jax.sharding.AxisType.Auto,) * len(shape))


MESH_DM = make_mesh((2, 4), ("data", "model"))
MESH_XY = make_mesh((4, 2), ("x", "y"))
MESH_8 = make_mesh((8,), ("i",))


def ns(mesh: jax.sharding.Mesh, *spec) -> NamedSharding:
    return NamedSharding(mesh, P(*spec))


def dm(*spec) -> NamedSharding:
    return ns(MESH_DM, *spec)


def xy(*spec) -> NamedSharding:
    return ns(MESH_XY, *spec)


def sds(shape: tuple[int, ...], dtype=F32) -> jax.ShapeDtypeStruct:
    return jax.ShapeDtypeStruct(shape, dtype)


REPL = dm()  # fully replicated on the 2x4 mesh


@dataclasses.dataclass(frozen=True)
class Lowered:
    """A lowered program: its MLIR text, the jitted function and its abstract arguments.

    `int_ranges` gives, for the integer argument leaves in order, the half-open range
    `[low, high)` their random values are drawn from (indices must be in bounds);
    `float_scales`, if given, a pytree like `args` with the standard deviation of each float
    leaf (integer leaves' entries are ignored)."""

    text: str
    jitted: Callable
    args: tuple
    int_ranges: tuple[tuple[int, int], ...] = ()
    float_scales: object = None


PROGRAMS: dict[str, Callable[[], Lowered]] = {}


def program(fn: Callable[[], Lowered]) -> Callable[[], Lowered]:
    PROGRAMS[fn.__name__] = fn
    return fn


def lower(
    f, args, in_shardings, out_shardings=None, *, int_ranges=(), float_scales=None
) -> Lowered:
    kwargs = {"in_shardings": in_shardings}
    if out_shardings is not None:
        kwargs["out_shardings"] = out_shardings
    jitted = jax.jit(f, **kwargs)
    text = jitted.lower(*args).as_text()
    return Lowered(text, jitted, tuple(args), tuple(int_ranges), float_scales)


# --------------------------------------------------------------------------------------------
# Shared model pieces
# --------------------------------------------------------------------------------------------

# MLP: x[16, 32] -> 64 -> 16, FSDP (params split over "data") + tensor parallel ("model").
MLP_SHAPES = {"w1": (32, 64), "b1": (64,), "w2": (64, 16), "b2": (16,)}
MLP_SHARDINGS = {
    "w1": dm("data", "model"),
    "b1": dm("model"),
    "w2": dm("model", "data"),
    "b2": dm(),
}


def mlp(params, x):
    h = jax.nn.relu(x @ params["w1"] + params["b1"])
    return h @ params["w2"] + params["b2"]


# Transformer block: x[batch=2, seq=8, d=32], 2 heads of size 16, MLP hidden 64.
D, HEADS, HD, FF = 32, 2, 16, 64
BLOCK_SHAPES = {
    "ln1_g": (D,),
    "ln1_b": (D,),
    "wq": (D, D),
    "wk": (D, D),
    "wv": (D, D),
    "wo": (D, D),
    "ln2_g": (D,),
    "ln2_b": (D,),
    "w1": (D, FF),
    "w2": (FF, D),
}
BLOCK_SHARDINGS = {
    "ln1_g": dm(),
    "ln1_b": dm(),
    "wq": dm(None, "model"),
    "wk": dm(None, "model"),
    "wv": dm(None, "model"),
    "wo": dm("model", None),
    "ln2_g": dm(),
    "ln2_b": dm(),
    "w1": dm(None, "model"),
    "w2": dm("model", None),
}


# Standard deviations of the random parameters: 1/sqrt(fan_in) for the weights, so that
# activations stay of order 1 and rounding differences stay within rtol 1e-5.
BLOCK_SCALES = {
    "ln1_g": 1.0,
    "ln1_b": 1.0,
    "wq": D**-0.5,
    "wk": D**-0.5,
    "wv": D**-0.5,
    "wo": D**-0.5,
    "ln2_g": 1.0,
    "ln2_b": 1.0,
    "w1": D**-0.5,
    "w2": FF**-0.5,
}


def layernorm(x, g, b, eps=1e-5):
    mean = jnp.mean(x, axis=-1, keepdims=True)
    var = jnp.mean(jnp.square(x - mean), axis=-1, keepdims=True)
    return (x - mean) * jax.lax.rsqrt(var + eps) * g + b


def block(params, x):
    bsz, seq, _ = x.shape
    h = layernorm(x, params["ln1_g"], params["ln1_b"])

    def heads(w):
        return (h @ w).reshape(bsz, seq, HEADS, HD)

    q, k, v = heads(params["wq"]), heads(params["wk"]), heads(params["wv"])
    scores = jnp.einsum("bqhd,bkhd->bhqk", q, k) / np.sqrt(HD).astype(np.float32)
    causal = jnp.tril(jnp.ones((seq, seq), dtype=bool))
    scores = jnp.where(causal, scores, jnp.float32(-1e9))
    attn = jax.nn.softmax(scores, axis=-1)
    o = jnp.einsum("bhqk,bkhd->bqhd", attn, v).reshape(bsz, seq, D)
    x = x + o @ params["wo"]
    h = layernorm(x, params["ln2_g"], params["ln2_b"])
    return x + jax.nn.gelu(h @ params["w1"]) @ params["w2"]


# --------------------------------------------------------------------------------------------
# Programs
# --------------------------------------------------------------------------------------------


@program
def mlp_forward() -> Lowered:
    """2-layer MLP; batch on "data", weights FSDP on "data" + tensor-parallel on "model"."""
    params = {k: sds(s) for k, s in MLP_SHAPES.items()}
    return lower(
        mlp,
        (params, sds((16, 32))),
        (MLP_SHARDINGS, dm("data", None)),
        dm("data", None),
    )


@program
def mlp_train_step() -> Lowered:
    """MSE loss + jax.grad + SGD update of the MLP; returns (new params, loss)."""

    def step(params, x, y):
        def loss_fn(p):
            return jnp.mean(jnp.square(mlp(p, x) - y))

        loss, grads = jax.value_and_grad(loss_fn)(params)
        new = jax.tree.map(lambda p, g: p - 0.1 * g, params, grads)
        return new, loss

    params = {k: sds(s) for k, s in MLP_SHAPES.items()}
    return lower(
        step,
        (params, sds((16, 32)), sds((16, 16))),
        (MLP_SHARDINGS, dm("data", None), dm("data", None)),
        (MLP_SHARDINGS, REPL),
    )


@program
def transformer_block_forward() -> Lowered:
    """Pre-LN transformer block: 2-head causal attention (q/k/v/o projections, softmax),
    layernorm, gelu MLP, residuals; batch on "data", heads/hidden on "model"."""
    params = {k: sds(s) for k, s in BLOCK_SHAPES.items()}
    return lower(
        block,
        (params, sds((2, 8, D))),
        (BLOCK_SHARDINGS, dm("data", None, None)),
        dm("data", None, None),
        float_scales=(BLOCK_SCALES, 1.0),
    )


@program
def transformer_block_backward() -> Lowered:
    """jax.grad of a scalar loss of the transformer block w.r.t. all of its params."""

    def grad_fn(params, x):
        return jax.grad(lambda p: jnp.mean(jnp.square(block(p, x))))(params)

    params = {k: sds(s) for k, s in BLOCK_SHAPES.items()}
    return lower(
        grad_fn,
        (params, sds((2, 8, D))),
        (BLOCK_SHARDINGS, dm("data", None, None)),
        BLOCK_SHARDINGS,
        float_scales=(BLOCK_SCALES, 1.0),
    )


@program
def embedding_lookup() -> Lowered:
    """Gathers (jnp.take and indexing) from an embedding table sharded on the vocab dim and
    from a second one sharded on the hidden dim; int32 token ids sharded on batch."""

    def f(vocab_sharded, hidden_sharded, ids):
        a = jnp.take(vocab_sharded, ids, axis=0)  # [4, 8, 32]
        b = hidden_sharded[ids]  # [4, 8, 32]
        return (a + b).sum(axis=1)

    return lower(
        f,
        (sds((64, 32)), sds((64, 32)), sds((4, 8), I32)),
        (dm("model", None), dm(None, "model"), dm("data", None)),
        dm("data", None),
        int_ranges=[(0, 64)],  # token ids index the 64-row tables
    )


@program
def conv_net() -> Lowered:
    """NHWC conv net: conv_general_dilated -> relu -> 2x2 max pool (reduce_window max) ->
    strided conv -> relu -> average pool (reduce_window add) -> global mean -> dense head."""

    def f(x, k1, k2, w, b):
        dn = ("NHWC", "HWIO", "NHWC")
        h = jax.lax.conv_general_dilated(x, k1, (1, 1), "SAME", dimension_numbers=dn)
        h = jax.nn.relu(h)
        h = jax.lax.reduce_window(h, -jnp.inf, jax.lax.max, (1, 2, 2, 1), (1, 2, 2, 1), "VALID")
        h = jax.lax.conv_general_dilated(h, k2, (2, 2), ((1, 1), (1, 1)), dimension_numbers=dn)
        h = jax.nn.relu(h)
        h = jax.lax.reduce_window(h, 0.0, jax.lax.add, (1, 2, 2, 1), (1, 1, 1, 1), "SAME") / 4.0
        h = jnp.mean(h, axis=(1, 2))
        return h @ w + b

    return lower(
        f,
        (sds((4, 8, 8, 3)), sds((3, 3, 3, 8)), sds((3, 3, 8, 16)), sds((16, 10)), sds((10,))),
        (
            dm("data", None, None, None),
            dm(None, None, None, "model"),
            dm(None, None, None, "model"),
            dm("model", None),
            dm(),
        ),
        dm("data", None),
    )


@program
def scan_rnn() -> Lowered:
    """Elman RNN over 8 time steps with jax.lax.scan (lowers to stablehlo.while); returns
    the final hidden state and the stacked hidden states."""

    def f(xs, h0, wx, wh, b):
        def cell(h, x):
            h = jnp.tanh(x @ wx + h @ wh + b)
            return h, h

        return jax.lax.scan(cell, h0, xs)

    return lower(
        f,
        (sds((8, 4, 16)), sds((4, 32)), sds((16, 32)), sds((32, 32)), sds((32,))),
        (dm(None, "data", None), dm("data", None), dm(None, "model"), dm(None, "model"), dm()),
        (dm("data", None), dm(None, "data", None)),
        # Small recurrent weights keep the recurrence contractive, so that rounding
        # differences do not grow over the 8 steps.
        float_scales=(1.0, 1.0, 0.25, 0.05, 1.0),
    )


@program
def shard_map_psum() -> Lowered:
    """jax.shard_map manual over "model" only ("data" stays auto inside) with a psum over
    "model", surrounded by auto-sharded computation (sdy.manual_computation)."""

    def local(x, w):
        # x: [16, 32/4] block, w: [32/4, 24] block -> partial products, summed over "model".
        return jax.lax.psum(x @ w, "model")

    def f(x, w):
        x = jnp.sin(x)
        y = jax.shard_map(
            local,
            mesh=MESH_DM,
            in_specs=(P(None, "model"), P("model", None)),
            out_specs=P(),
            axis_names={"model"},
        )(x, w)
        return jax.nn.relu(y) * 2.0

    return lower(
        f,
        (sds((16, 32)), sds((32, 24))),
        (dm("data", "model"), dm("model", None)),
        dm("data", None),
    )


@program
def sharding_constraints() -> Lowered:
    """Several jax.lax.with_sharding_constraint calls (sdy.sharding_constraint), including
    ones in the middle of an elementwise/matmul chain that flip the sharded dimension."""
    wsc = jax.lax.with_sharding_constraint

    def f(x, w):
        a = wsc(jnp.exp(x), dm("data", "model"))
        b = wsc(a * 2.0 + 1.0, dm("model", "data"))  # mid-chain reshard
        c = b @ w
        c = wsc(c, dm(None, "model"))
        d = wsc(jnp.tanh(c), dm(("data", "model"), None))
        return d.sum(axis=0), wsc(d.T, dm())

    return lower(
        f,
        (sds((16, 32)), sds((32, 24))),
        (dm("data", None), dm()),
    )


@program
def shard_alike() -> Lowered:
    """jax.experimental.shard_alike (sdy.sharding_group): tie the shardings of two values,
    one derived from a sharded input, one from a replicated input. (JAX 0.10.2 gives both
    shard_alike calls group_id=0, so all four values land in one sharding group.)"""

    def f(x, y):
        a, b = jax_shard_alike(jnp.sin(x), jnp.cos(y[:, 16:]))
        c, d = jax_shard_alike(a * b, x.T @ y[:, :16])
        return c + 1.0, d

    return lower(
        f,
        (sds((16, 16)), sds((16, 32))),
        (dm("data", "model"), REPL),
    )


@program
def uneven_shapes() -> Lowered:
    """Dimensions not divisible by the mesh axes (6x10 and 10x5 on a 4x2 mesh).

    JAX refuses indivisible shardings in in_shardings/out_shardings when lowering
    (IndivisibleError), so the inputs are sharded only on dims that divide, and the uneven
    shardings are requested with with_sharding_constraint on intermediates."""
    wsc = jax.lax.with_sharding_constraint

    def f(x, w):
        a = wsc(x * 3.0, xy("x", "y"))  # 6 over 4, 10 over 2
        b = wsc(a @ w, xy("y", "x"))  # [6, 5]: 6 over 2, 5 over 4
        c = wsc(jnp.maximum(b, 0.0), xy(("x", "y"), None))  # 6 over 8
        return c, a.sum(axis=1)

    return lower(
        f,
        (sds((6, 10)), sds((10, 5))),
        (xy(None, "y"), xy("y", None)),
    )


@program
def two_meshes() -> Lowered:
    """Values on two different meshes over the same 8 devices (2x4 "data","model" and 4x2
    "x","y"), plus a 1-D mesh of 8 in a constraint: lowering emits three sdy.mesh ops.

    Combining values from different meshes in one op works here because all meshes share
    the same device list; the result is resharded onto the 4x2 mesh."""
    wsc = jax.lax.with_sharding_constraint

    def f(a, b):
        a2 = jnp.exp(a)
        b2 = jnp.log1p(jnp.abs(b))
        c = wsc(a2 + b2, xy("x", "y"))
        d = wsc(c * 2.0, ns(MESH_8, None, "i"))
        return c, d.sum(axis=0)

    return lower(
        f,
        (sds((8, 16)), sds((8, 16))),
        (dm("data", "model"), xy("x", "y")),
        (xy("x", "y"), ns(MESH_8, "i")),
    )


@program
def reshape_sub_axes() -> Lowered:
    """Reshapes that split/merge sharded dims so that propagation needs sub-axes: a [16]
    vector sharded 4-way on "model" reshaped to [2, 8] (needs "model":(1)2 on dim 0 and
    "model":(2)2 on dim 1), and an [8, 6] matrix sharded on ("data","model") merged to [48]
    and split to [4, 12]."""

    def f(v, m):
        a = jnp.sin(v).reshape(2, 8)
        b = jnp.cos(m).reshape(48)
        c = b.reshape(4, 12)
        d = (a.reshape(16) * 2.0).reshape(4, 4)
        return a + 1.0, c * 3.0, d

    return lower(
        f,
        (sds((16,)), sds((8, 6))),
        (dm("model"), dm(("data", "model"), None)),
    )


@program
def control_flow() -> Lowered:
    """jax.lax.cond, jax.lax.switch with 3 branches and jax.lax.fori_loop, on sharded
    operands. JAX lowers both cond and switch to stablehlo.case (never stablehlo.if; cond
    converts its predicate to an i32 index), and fori_loop to stablehlo.while."""

    def f(x, w, idx):
        y = jax.lax.cond(
            jnp.sum(x) > 0.0, lambda t: jnp.tanh(t @ w), lambda t: jnp.sin(t) @ w * 0.5, x
        )
        branches = (lambda t: t + 1.0, lambda t: t * t, lambda t: jnp.exp(-jnp.abs(t)))
        z = jax.lax.switch(idx, branches, y)

        def body(i, carry):
            return carry * 0.9 + jnp.float32(i).astype(F32) * 0.01

        return jax.lax.fori_loop(0, 5, body, z)

    return lower(
        f,
        (sds((16, 32)), sds((32, 32)), sds((), I32)),
        (dm("data", None), dm(None, "model"), REPL),
        dm("data", None),
        int_ranges=[(0, 3)],  # the switch index picks one of the 3 branches
    )


@program
def reductions_and_sort() -> Lowered:
    """argmax, cumsum, jnp.sort, jax.lax.top_k, max/min reductions, a comparison and select,
    on a [8, 16] matrix sharded on both dims."""

    def f(x):
        am = jnp.argmax(x, axis=1).astype(I32)
        cs = jnp.cumsum(x, axis=1)
        srt = jnp.sort(x, axis=1)
        top_v, top_i = jax.lax.top_k(x, 3)
        mx = jnp.max(x, axis=0)
        mn = jnp.min(x, axis=1)
        sel = jnp.where(x > mx[None, :] * 0.5, x, -x)
        return am, cs, srt, top_v, top_i, mx, mn, sel

    return lower(f, (sds((8, 16)),), (dm("data", "model"),))


@program
def elementwise_zoo() -> Lowered:
    """Many elementwise and data-movement ops: exp, log1p, expm1, sqrt, rsqrt, cbrt, tanh, sin,
    cos, tan, floor, ceil, round, sign, abs, atan2, pow, remainder, clamp, max/min, logistic,
    is_finite, int bitwise and/or/xor/not, shifts, convert, bitcast_convert, iota, pad,
    reverse, concatenate, slice, dynamic_slice, dynamic_update_slice, transpose, broadcast.

    Note: jax.nn.sigmoid (and lax.logistic) lower to negate/exp/add/divide, not
    stablehlo.logistic; jnp.isnan lowers to compare NE."""
    lax = jax.lax

    def f(x, y, n, k):
        ax = jnp.abs(x) + 0.5
        a = jnp.exp(x * 0.1) + jnp.log1p(ax) + jnp.expm1(x * 0.1)
        a = a + jnp.sqrt(ax) + lax.rsqrt(ax) + jnp.cbrt(x)
        a = a + jnp.tanh(x) + jnp.sin(x) + jnp.cos(x) + jnp.tan(x * 0.1)
        a = a + jnp.floor(x) + jnp.ceil(x) + lax.round(x) + jnp.round(x) + jnp.sign(x)
        a = a + jnp.arctan2(x, y) + lax.pow(ax, y) + jnp.power(ax, 2.0) + lax.rem(x, 1.5)
        a = a + lax.clamp(-1.0, x, 1.0) + jnp.maximum(x, y) + jnp.minimum(x, y)
        a = a + jax.nn.sigmoid(x) + lax.neg(y) - lax.div(x, ax) + jnp.log(ax)
        a = jnp.where(jnp.isfinite(a), a, 0.0)
        bits = (n & 0xFF) | (n ^ 0x0F)
        bits = ~bits + lax.shift_left(n, 1) + lax.shift_right_arithmetic(n, 1)
        bits = bits + lax.shift_right_logical(n, 2)
        a = a + bits.astype(F32) * 0.001
        u = lax.bitcast_convert_type(a, I32)
        a = a + (lax.bitcast_convert_type(u & ~1, F32) - a)
        it = lax.broadcasted_iota(F32, (8, 16), 1)
        a = a + it
        p = jnp.pad(a, ((1, 1), (0, 2)), constant_values=0.5)  # [10, 18]
        p = lax.pad(p, 0.0, ((0, 0, 0), (1, -1, 1)))  # interior + negative padding
        r = jnp.flip(p, axis=0)
        c = jnp.concatenate([r[:8, :16], a], axis=1)  # [8, 32]
        s = c[1:7:2, 3:30:3]  # strided slice
        ds = lax.dynamic_slice(c, (k, k + 2), (4, 8))
        dus = lax.dynamic_update_slice(c, ds * 10.0, (k + 1, 4))
        t = jnp.transpose(dus)  # [32, 8]
        bc = jnp.broadcast_to(s.sum(axis=0)[:, None, None], (s.shape[1], 2, 3))
        # The int32 result is the bitcast of an input: the bits of `u` depend on how the
        # transcendental ops above round, which differs between implementations.
        return t, bc, bits, lax.bitcast_convert_type(x, I32), jnp.isnan(a)

    return lower(
        f,
        (sds((8, 16)), sds((8, 16)), sds((8, 16), I32), sds((), I32)),
        (dm("data", "model"), dm("data", "model"), dm(None, "model"), REPL),
        # n: any int32 (shifts and bitwise ops wrap); k: dynamic_slice/update_slice start
        # offsets that stay in bounds, so that no start index is clamped.
        int_ranges=[(-(2**31), 2**31), (0, 4)],
    )


@program
def scatter_add() -> Lowered:
    """Scatter via x.at[idx].add(v) (stablehlo.scatter with an add region) into a table
    sharded on its hidden dim, plus .at[].set and .at[].max."""

    def f(table, idx, upd):
        a = table.at[idx].add(upd)
        b = a.at[idx[:2]].set(upd[:2] * 0.0)
        c = b.at[0, idx].max(1.0)
        return c

    return lower(
        f,
        (sds((32, 16)), sds((6,), I32), sds((6, 16))),
        (dm(None, "model"), REPL, dm(None, "model")),
        dm(None, "model"),
        int_ranges=[(0, 32)],  # row indices of the 32-row table
    )


# --------------------------------------------------------------------------------------------


# --------------------------------------------------------------------------------------------
# bf16 training programs (in tests/corpus/bf16/: their numbers are JAX's, within bf16 rounding)
# --------------------------------------------------------------------------------------------

BF16 = jnp.bfloat16
BF16_PROGRAMS: dict[str, Callable[[], Lowered]] = {}


def bf16_program(fn: Callable[[], Lowered]) -> Callable[[], Lowered]:
    BF16_PROGRAMS[fn.__name__] = fn
    return fn


@bf16_program
def transformer_block_forward_bf16() -> Lowered:
    """The transformer block of `transformer_block_forward` with bf16 params and activations."""
    params = {k: sds(s, BF16) for k, s in BLOCK_SHAPES.items()}
    return lower(
        block,
        (params, sds((2, 8, D), BF16)),
        (BLOCK_SHARDINGS, dm("data", None, None)),
        dm("data", None, None),
        float_scales=(BLOCK_SCALES, 1.0),
    )


@bf16_program
def transformer_block_backward_bf16() -> Lowered:
    """jax.grad of `transformer_block_backward`'s loss with bf16 params and activations."""

    def grad_fn(params, x):
        return jax.grad(lambda p: jnp.mean(jnp.square(block(p, x).astype(F32))))(params)

    params = {k: sds(s, BF16) for k, s in BLOCK_SHAPES.items()}
    return lower(
        grad_fn,
        (params, sds((2, 8, D), BF16)),
        (BLOCK_SHARDINGS, dm("data", None, None)),
        BLOCK_SHARDINGS,
        float_scales=(BLOCK_SCALES, 1.0),
    )


# T5-style layers: RMS layer norm computed in f32, unscaled attention, gated-gelu MLP; the
# layers' params stacked on a leading axis and run by lax.scan with jax.checkpoint (remat).
T5_LAYERS = 2
T5_SHAPES = {
    "ln1": (D,),
    "wq": (D, D),
    "wk": (D, D),
    "wv": (D, D),
    "wo": (D, D),
    "ln2": (D,),
    "wi0": (D, FF),
    "wi1": (D, FF),
    "wff": (FF, D),
}
T5_SHARDINGS = {
    "ln1": dm(None, None),
    "wq": dm(None, None, "model"),
    "wk": dm(None, None, "model"),
    "wv": dm(None, None, "model"),
    "wo": dm(None, "model", None),
    "ln2": dm(None, None),
    "wi0": dm(None, None, "model"),
    "wi1": dm(None, None, "model"),
    "wff": dm(None, "model", None),
}
T5_SCALES = {k: (1.0 if k.startswith("ln") else s[0] ** -0.5) for k, s in T5_SHAPES.items()}


def t5_layer_norm(x, w, eps=1e-6):
    variance = jnp.mean(jnp.square(x.astype(F32)), axis=-1, keepdims=True)
    return (x.astype(F32) * jax.lax.rsqrt(variance + eps)).astype(x.dtype) * w


def t5_layer(x, p):
    bsz, seq, _ = x.shape
    h = t5_layer_norm(x, p["ln1"])

    def heads(w):
        return (h @ w).reshape(bsz, seq, HEADS, HD)

    q, k, v = heads(p["wq"]), heads(p["wk"]), heads(p["wv"])
    scores = jnp.einsum("bqhd,bkhd->bhqk", q, k).astype(F32)
    attn = jax.nn.softmax(scores, axis=-1).astype(x.dtype)
    x = x + jnp.einsum("bhqk,bkhd->bqhd", attn, v).reshape(bsz, seq, D) @ p["wo"]
    h = t5_layer_norm(x, p["ln2"])
    return x + (jax.nn.gelu(h @ p["wi0"]) * (h @ p["wi1"])) @ p["wff"]


@bf16_program
def t5_remat_train_bf16() -> Lowered:
    """A T5-style training step in bf16: 2 layers scanned with gradient checkpointing, the
    loss in f32, its value and its gradient w.r.t. every stacked param."""

    def stack(params, x):
        def body(carry, p):
            return jax.checkpoint(t5_layer)(carry, p), None

        return jax.lax.scan(body, x, params)[0]

    def step(params, x, y):
        def loss_fn(p):
            return jnp.mean(jnp.square(stack(p, x).astype(F32) - y.astype(F32)))

        return jax.value_and_grad(loss_fn)(params)

    params = {k: sds((T5_LAYERS, *s), BF16) for k, s in T5_SHAPES.items()}
    data = dm("data", None, None)
    return lower(
        step,
        (params, sds((2, 8, D), BF16), sds((2, 8, D), BF16)),
        (T5_SHARDINGS, data, data),
        (REPL, T5_SHARDINGS),
        float_scales=(T5_SCALES, 1.0, 1.0),
    )


def count_ops(text: str) -> int:
    return sum(
        1 for line in text.splitlines() if " = " in line or "stablehlo." in line or "sdy." in line
    )


_DTYPES = {
    "bf16": np.dtype(jnp.bfloat16),
    "f16": np.float16,
    "f32": np.float32,
    "f64": np.float64,
    "i1": np.bool_,
    "i8": np.int8,
    "i16": np.int16,
    "i32": np.int32,
    "i64": np.int64,
    "ui8": np.uint8,
    "ui32": np.uint32,
}


def main_signature(text: str) -> tuple[list[tuple], list[tuple]]:
    """The (shape, dtype) of the arguments and of the results of `@main` in `text`."""
    line = next(ln for ln in text.splitlines() if "func.func public @main(" in ln)
    args, arrow, results = line.partition(") -> ")
    assert arrow, f"@main without results: {line}"

    def types(part: str) -> list[tuple]:
        out = []
        for body in re.findall(r"tensor<([^<>]*)>", part):
            *dims, element = body.split("x")
            out.append((tuple(int(d) for d in dims), np.dtype(_DTYPES[element])))
        return out

    return types(args), types(results)


def random_inputs(name: str, lowered: Lowered) -> list[np.ndarray]:
    """Deterministic random values for the argument leaves of `lowered` (seeded by `name`):
    floats normal (standard unless the program's `float_scales` say otherwise), integers
    uniform in the program's `int_ranges`."""
    rng = np.random.default_rng(zlib.crc32(name.encode()))
    ranges = iter(lowered.int_ranges)
    leaves = jax.tree.leaves(lowered.args)
    if lowered.float_scales is None:
        scales = [1.0] * len(leaves)
    else:
        scales = jax.tree.leaves(lowered.float_scales)
        assert len(scales) == len(leaves), f"{name}: float_scales do not match the arguments"
    values = []
    for leaf, scale in zip(leaves, scales, strict=True):
        dtype = np.dtype(leaf.dtype)
        if np.issubdtype(dtype, np.floating) or dtype == jnp.bfloat16:
            values.append((rng.standard_normal(leaf.shape) * scale).astype(dtype))
        elif np.issubdtype(dtype, np.integer):
            low, high = next(ranges)
            values.append(rng.integers(low, high, leaf.shape, dtype=np.int64).astype(dtype))
        else:
            raise TypeError(f"{name}: no random values for {dtype}")
    assert next(ranges, None) is None, f"{name}: more int_ranges than integer arguments"
    return values


def check_inputs(name: str, lowered: Lowered, inputs: list[np.ndarray]) -> None:
    """Rejects inputs whose results would depend on a near-tie (cond predicates)."""
    if name == "control_flow":
        assert abs(float(inputs[0].sum())) > 1.0, "cond predicate sum(x) > 0 too close to 0"


def compute(name: str, lowered: Lowered) -> dict[str, np.ndarray]:
    """Inputs and JAX's outputs, as `input0, ..., output0, ...` in `@main`'s order."""
    arg_types, result_types = main_signature(lowered.text)
    inputs = random_inputs(name, lowered)
    check_inputs(name, lowered, inputs)
    got = [(x.shape, x.dtype) for x in inputs]
    assert got == arg_types, f"{name}: inputs {got} differ from @main's arguments {arg_types}"
    treedef = jax.tree.structure(lowered.args)
    outputs = [np.asarray(y) for y in jax.tree.leaves(lowered.jitted(*treedef.unflatten(inputs)))]
    got = [(y.shape, y.dtype) for y in outputs]
    assert got == result_types, f"{name}: outputs {got} differ from @main's results {result_types}"
    for i, y in enumerate(outputs):
        assert y.dtype.kind in "biu" or np.isfinite(y.astype(np.float64)).all(), (name, i)
    arrays = {f"input{i}": x for i, x in enumerate(inputs)}
    arrays.update({f"output{i}": y for i, y in enumerate(outputs)})
    # numpy archives cannot tell bf16 from other 2-byte types: kept as f32 (exactly)
    return {k: v.astype(np.float32) if v.dtype == jnp.bfloat16 else v for k, v in arrays.items()}


def same_arrays(path: Path, arrays: dict[str, np.ndarray]) -> bool:
    """Whether the archive at `path` holds exactly `arrays` (then it is left untouched, as
    zip archives carry timestamps)."""
    if not path.exists():
        return False
    with np.load(path) as old:
        return sorted(old.files) == sorted(arrays) and all(
            old[k].dtype == v.dtype and np.array_equal(old[k], v) for k, v in arrays.items()
        )


def main() -> int:
    CORPUS.mkdir(parents=True, exist_ok=True)
    (CORPUS / "bf16").mkdir(exist_ok=True)
    rows = []
    folders = [(CORPUS, name, build) for name, build in PROGRAMS.items()]
    folders += [(CORPUS / "bf16", name, build) for name, build in BF16_PROGRAMS.items()]
    for folder, name, build in folders:
        lowered = build()
        text = lowered.text if lowered.text.endswith("\n") else lowered.text + "\n"
        (folder / f"{name}.mlir").write_text(text)
        arrays = compute(name, lowered)
        npz = folder / f"{name}.npz"
        if not same_arrays(npz, arrays):
            np.savez_compressed(npz, **arrays)
        rows.append((name, count_ops(text), sum(k.startswith("input") for k in arrays)))
    width = max(len(name) for name, _, _ in rows)
    for name, n, k in rows:
        print(f"{name:<{width}}  {n:4d} ops  {k:2d} inputs")
    return 0


if __name__ == "__main__":
    sys.exit(main())
