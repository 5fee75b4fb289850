"""Export training and inference steps of real models, sharded as their users shard them,
into tests/models/ (8 fake CPU devices).

Each model is written with its own library (flax linen and nnx, transformers' Flax GPT-2 and
BERT, equinox, optax) and sharded the way that library's users do it (logical axis rules,
`with_partitioning`, regex rules over parameter paths, `filter_shard`), on data, FSDP, tensor
and 3D meshes. For each model NAME it writes:

* ``NAME.mlir``: ``jax.jit(step, in_shardings=..., out_shardings=...).lower(...).as_text()``;
* ``NAME.npz``: the arguments of ``@main`` (``input0, ...``: real parameters and optimizer
  state from the library's own init and one step, random batches) and JAX's outputs
  (``output0, ...``); bf16 arrays are stored as raw 2-byte values (``.npz`` has no
  bfloat16): view them as ``@main``'s types say;
* ``NAME.json``: what XLA compiled: the per-device collectives of ``compile().as_text()``
  (counted by ``shardonnay.interop.hlo_collectives``) and ``compile().memory_analysis()``,
  with the library versions.

The dependencies are for export only (not the package's). Run it with a separate venv::

    python3 -m venv /tmp/modelsvenv
    /tmp/modelsvenv/bin/pip install jax==0.10.2 jaxlib==0.10.2 flax optax equinox \\
        "transformers>=4.57,<4.58" -e .
    /tmp/modelsvenv/bin/python scripts/export_models.py            # every model
    /tmp/modelsvenv/bin/python scripts/export_models.py gpt2_3d_train

Nothing is downloaded: models are built from configs with random weights.
"""

from __future__ import annotations

import os

os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count=8"

import contextlib
import dataclasses
import json
import re
import sys
import zlib
from collections.abc import Callable
from pathlib import Path

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import NamedSharding
from jax.sharding import PartitionSpec as P

MODELS = Path(__file__).resolve().parent.parent / "tests" / "models"


def make_mesh(shape: tuple[int, ...], names: tuple[str, ...]) -> jax.sharding.Mesh:
    """Auto axes: Shardy's propagation only runs on them."""
    return jax.make_mesh(shape, names, axis_types=(jax.sharding.AxisType.Auto,) * len(shape))


@dataclasses.dataclass(frozen=True)
class Step:
    """A jitted step, its concrete arguments (a tuple of pytrees) and what it is."""

    jitted: Callable
    args: tuple
    description: str


EXPORTS: dict[str, Callable[[], Step]] = {}


def export(fn: Callable[[], Step]) -> Callable[[], Step]:
    EXPORTS[fn.__name__] = fn
    return fn


def by_path(tree, rules: list[tuple[str, P]], mesh: jax.sharding.Mesh):
    """NamedShardings for the leaves of `tree`: the first rule whose regex matches the leaf's
    '/'-joined path, else replicated (EasyLM's and many users' `match_partition_rules`)."""

    def spec(path, leaf) -> NamedSharding:
        name = "/".join(str(getattr(k, "key", getattr(k, "idx", k))) for k in path)
        for pattern, rule in rules:
            if re.search(pattern, name) and len(rule) <= np.ndim(leaf):
                return NamedSharding(mesh, rule)
        return NamedSharding(mesh, P())

    return jax.tree_util.tree_map_with_path(spec, tree)


def put(tree, shardings):
    return jax.tree.map(jax.device_put, tree, shardings)


def adam_state_after_one_step(tx, params, grad_fn):
    """The optimizer state as training holds it (moments of one real step, not zeros)."""
    state = tx.init(params)
    _, state = tx.update(grad_fn(params), state, params)
    return state


# -- flax linen: data-parallel MLP classifier, Adam -------------------------------------------


@export
def linen_mlp_dp_train() -> Step:
    """flax.linen MLP classifier, data parallel over 8 devices, optax.adam train step."""
    import flax.linen as nn
    import optax

    mesh = make_mesh((8,), ("data",))

    class MLP(nn.Module):
        @nn.compact
        def __call__(self, x):
            x = nn.relu(nn.Dense(64)(x))
            x = nn.relu(nn.Dense(64)(x))
            return nn.Dense(10)(x)

    model = MLP()
    x = jax.random.normal(jax.random.key(1), (32, 16))
    y = jax.random.randint(jax.random.key(2), (32,), 0, 10)
    params = model.init(jax.random.key(0), x)
    tx = optax.adam(1e-2)

    def loss_fn(params, x, y):
        logits = model.apply(params, x)
        return optax.softmax_cross_entropy_with_integer_labels(logits, y).mean()

    def step(params, opt_state, x, y):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, y)
        updates, opt_state = tx.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    opt_state = adam_state_after_one_step(tx, params, lambda p: jax.grad(loss_fn)(p, x, y))
    repl = jax.tree.map(lambda _: NamedSharding(mesh, P()), (params, opt_state))
    batch = NamedSharding(mesh, P("data"))
    jitted = jax.jit(
        step,
        in_shardings=(*repl, batch, batch),
        out_shardings=(*repl, NamedSharding(mesh, P())),
    )
    return Step(jitted, (params, opt_state, x, y), "flax linen MLP, data=8, adam")


# -- flax linen: a scanned, remat'd bf16 transformer LM with logical axis rules ---------------


@export
def linen_lm_fsdp_tp_train() -> Step:
    """flax.linen decoder LM (lm1b-style): logical axis names with
    `nn.with_logical_partitioning`, `nn.scan` over `nn.remat` layers, bf16 activations with f32
    params, mesh (data=2, model=4) with FSDP of embeddings over data; optax.adamw step."""
    import flax.linen as nn
    import optax

    mesh = make_mesh((2, 4), ("data", "model"))
    rules = (
        ("batch", "data"),
        ("embed", "data"),
        ("mlp", "model"),
        ("heads", "model"),
        ("kv", None),
        ("vocab", "model"),
        ("layers", None),
        ("length", None),
    )
    vocab, d, heads, ff, layers, seq, batch = 64, 32, 4, 64, 2, 8, 4
    dtype = jnp.bfloat16

    def dense(features, names, name):
        return nn.DenseGeneral(
            features,
            dtype=dtype,
            kernel_init=nn.with_logical_partitioning(nn.initializers.lecun_normal(), names),
            use_bias=False,
            name=name,
        )

    class Block(nn.Module):
        @nn.compact
        def __call__(self, x, _):
            h = nn.LayerNorm(dtype=dtype, use_bias=False, name="ln1")(x)
            h = nn.with_logical_constraint(h, ("batch", "length", "embed"))
            attn = nn.MultiHeadDotProductAttention(
                heads,
                dtype=dtype,
                kernel_init=nn.with_logical_partitioning(
                    nn.initializers.lecun_normal(), ("embed", "heads", "kv")
                ),
                use_bias=False,
                name="attn",
            )
            mask = nn.make_causal_mask(jnp.ones(h.shape[:2]))
            x = x + attn(h, h, mask=mask)
            h = nn.LayerNorm(dtype=dtype, use_bias=False, name="ln2")(x)
            h = nn.gelu(dense(ff, ("embed", "mlp"), "wi")(h))
            h = nn.with_logical_constraint(h, ("batch", "length", "mlp"))
            x = x + dense(d, ("mlp", "embed"), "wo")(h)
            return nn.with_logical_constraint(x, ("batch", "length", "embed")), None

    class LM(nn.Module):
        @nn.compact
        def __call__(self, tokens):
            embed = nn.Embed(
                vocab,
                d,
                embedding_init=nn.with_logical_partitioning(
                    nn.initializers.normal(1.0), ("vocab", "embed")
                ),
                name="embed",
            )
            x = embed(tokens).astype(dtype)
            stack = nn.scan(
                nn.remat(Block),
                variable_axes={"params": 0},
                split_rngs={"params": True},
                length=layers,
                metadata_params={nn.PARTITION_NAME: "layers"},
            )
            x, _ = stack(name="layers")(x, None)
            x = nn.LayerNorm(dtype=dtype, use_bias=False, name="ln_f")(x)
            return embed.attend(x.astype(jnp.float32))

    model = LM()
    tokens = jax.random.randint(jax.random.key(1), (batch, seq + 1), 0, vocab)
    tx = optax.adamw(1e-3, weight_decay=0.1)
    boxed = jax.eval_shape(model.init, jax.random.key(0), tokens[:, :-1])
    logical = nn.get_partition_spec(boxed)
    param_shardings = nn.logical_to_mesh_sharding(logical, mesh, rules)
    params = nn.unbox(model.init(jax.random.key(0), tokens[:, :-1]))

    def loss_fn(params, tokens):
        logits = model.apply(params, tokens[:, :-1])
        return optax.softmax_cross_entropy_with_integer_labels(logits, tokens[:, 1:]).mean()

    def step(params, opt_state, tokens):
        with nn.logical_axis_rules(rules):
            loss, grads = jax.value_and_grad(loss_fn)(params, tokens)
        updates, opt_state = tx.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    with mesh, nn.logical_axis_rules(rules):
        opt_state = adam_state_after_one_step(tx, params, lambda p: jax.grad(loss_fn)(p, tokens))
    # The moments are sharded as the parameters they follow.
    opt_shardings = optax.tree_map_params(
        tx, lambda _, s: s, opt_state, param_shardings, transform_non_params=lambda _: None
    )
    opt_shardings = jax.tree.map(
        lambda s: NamedSharding(mesh, P()) if s is None else s,
        opt_shardings,
        is_leaf=lambda s: s is None,
    )
    tok = NamedSharding(mesh, P("data"))
    jitted = jax.jit(
        step,
        in_shardings=(param_shardings, opt_shardings, tok),
        out_shardings=(param_shardings, opt_shardings, NamedSharding(mesh, P())),
    )
    return Step(
        jitted,
        (params, opt_state, tokens),
        "flax linen LM, logical axis rules, nn.scan(nn.remat), bf16, data=2 x model=4, adamw",
    )


# -- flax nnx: MLP with nnx.with_partitioning, FSDP x TP --------------------------------------


@export
def nnx_mlp_fsdp_tp_train() -> Step:
    """flax.nnx MLP from the "Scale up on multiple devices" guide: kernels annotated with
    `nnx.with_partitioning`, mesh (fsdp=4, tp=2), state sharded by `nnx.get_partition_spec`,
    an optax.sgd-with-momentum step through `nnx.Optimizer`."""
    import optax
    from flax import nnx

    mesh = make_mesh((4, 2), ("fsdp", "tp"))

    class MLP(nnx.Module):
        def __init__(self, rngs: nnx.Rngs):
            init = nnx.initializers.lecun_normal()
            self.w1 = nnx.Param(
                nnx.with_partitioning(init, ("fsdp", "tp"))(rngs.params(), (32, 64))
            )
            self.b1 = nnx.Param(jnp.zeros(64), sharding=("tp",))
            self.w2 = nnx.Param(
                nnx.with_partitioning(init, ("tp", "fsdp"))(rngs.params(), (64, 16))
            )

        def __call__(self, x):
            h = nnx.relu(x @ self.w1 + self.b1)
            h = jax.lax.with_sharding_constraint(h, NamedSharding(mesh, P("fsdp", "tp")))
            return h @ self.w2

    with jax.set_mesh(mesh):
        model = MLP(nnx.Rngs(0))
        optimizer = nnx.Optimizer(model, optax.sgd(1e-2, momentum=0.9), wrt=nnx.Param)
    graphdef, state = nnx.split((model, optimizer))
    x = jax.random.normal(jax.random.key(1), (16, 32))
    y = jax.random.normal(jax.random.key(2), (16, 16))

    def step(state, x, y):
        model, optimizer = nnx.merge(graphdef, state)

        def loss_fn(model):
            return jnp.mean((model(x) - y) ** 2)

        loss, grads = nnx.value_and_grad(loss_fn)(model)
        optimizer.update(model, grads)
        return nnx.state((model, optimizer)), loss

    # One eager step first, so that the momentum is the one training holds.
    with jax.set_mesh(mesh):
        state, _ = jax.jit(step)(state, x, y)
    specs = nnx.get_partition_spec(state)
    shardings = jax.tree.map(lambda s: NamedSharding(mesh, s), specs)
    batch = NamedSharding(mesh, P("fsdp"))
    jitted = jax.jit(
        step,
        in_shardings=(shardings, batch, batch),
        out_shardings=(shardings, NamedSharding(mesh, P())),
    )
    state = jax.tree.map(np.asarray, state)
    return Step(jitted, (state, x, y), "flax nnx MLP, nnx.with_partitioning, fsdp=4 x tp=2, sgd")


# -- transformers: GPT-2 --------------------------------------------------------------------

GPT2_RULES_3D = [
    (r"wte/embedding", P("tp", "fsdp")),
    (r"wpe/embedding", P(None, "fsdp")),
    # Flax GPT-2 kernels are Conv1D-like (out, in).
    (r"attn/c_attn/kernel", P("tp", "fsdp")),
    (r"attn/c_attn/bias", P("tp")),
    (r"attn/c_proj/kernel", P("fsdp", "tp")),
    (r"mlp/c_fc/kernel", P("tp", "fsdp")),
    (r"mlp/c_fc/bias", P("tp")),
    (r"mlp/c_proj/kernel", P("fsdp", "tp")),
]


def gpt2(config_overrides: dict):
    from transformers import FlaxGPT2LMHeadModel, GPT2Config

    config = GPT2Config(
        vocab_size=64, n_positions=16, n_embd=32, n_layer=2, n_head=4, **config_overrides
    )
    return FlaxGPT2LMHeadModel(config, seed=0)


@export
def gpt2_3d_train() -> Step:
    """transformers FlaxGPT2LMHeadModel, 3D parallel (dp=2, fsdp=2, tp=2) with regex partition
    rules over the parameter paths, optax.adamw train step (dropout off)."""
    import optax

    mesh = make_mesh((2, 2, 2), ("dp", "fsdp", "tp"))
    model = gpt2({})
    params = model.params
    tokens = jax.random.randint(jax.random.key(1), (4, 9), 0, 64)
    tx = optax.adamw(1e-3)

    def loss_fn(params, tokens):
        logits = model(tokens[:, :-1], params=params, train=False).logits
        return optax.softmax_cross_entropy_with_integer_labels(logits, tokens[:, 1:]).mean()

    def step(params, opt_state, tokens):
        loss, grads = jax.value_and_grad(loss_fn)(params, tokens)
        updates, opt_state = tx.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    opt_state = adam_state_after_one_step(tx, params, lambda p: jax.grad(loss_fn)(p, tokens))
    param_shardings = by_path(params, GPT2_RULES_3D, mesh)
    opt_shardings = by_path(opt_state, GPT2_RULES_3D, mesh)
    tok = NamedSharding(mesh, P(("dp", "fsdp")))
    jitted = jax.jit(
        step,
        in_shardings=(param_shardings, opt_shardings, tok),
        out_shardings=(param_shardings, opt_shardings, NamedSharding(mesh, P())),
    )
    return Step(
        jitted, (params, opt_state, tokens), "transformers GPT-2, dp=2 x fsdp=2 x tp=2, adamw"
    )


@export
def gpt2_tp_generate_logits() -> Step:
    """transformers FlaxGPT2LMHeadModel inference in bf16 (`dtype=jnp.bfloat16`), tensor
    parallel over 4 devices and data parallel over 2 (Megatron-style column/row splits)."""
    mesh = make_mesh((2, 4), ("data", "model"))
    model = gpt2({})
    model_bf16 = type(model)(model.config, dtype=jnp.bfloat16, seed=0, _do_init=False)
    params = model.params
    rules = [
        (r"wte/embedding", P("model", None)),
        (r"attn/c_attn/kernel", P("model", None)),
        (r"attn/c_attn/bias", P("model")),
        (r"attn/c_proj/kernel", P(None, "model")),
        (r"mlp/c_fc/kernel", P("model", None)),
        (r"mlp/c_fc/bias", P("model")),
        (r"mlp/c_proj/kernel", P(None, "model")),
    ]
    tokens = jax.random.randint(jax.random.key(3), (4, 8), 0, 64)

    def forward(params, tokens):
        return model_bf16(tokens, params=params, train=False).logits

    jitted = jax.jit(
        forward,
        in_shardings=(by_path(params, rules, mesh), NamedSharding(mesh, P("data"))),
        out_shardings=NamedSharding(mesh, P("data", None, "model")),
    )
    return Step(jitted, (params, tokens), "transformers GPT-2 forward, bf16, data=2 x model=4")


# -- transformers: BERT classifier, FSDP x TP -------------------------------------------------


@export
def bert_fsdp_tp_train() -> Step:
    """transformers FlaxBertForSequenceClassification (exact GELU: erf), FSDP over 4 and tensor
    parallel over 2, optax.adam fine-tuning step."""
    import optax
    from transformers import BertConfig, FlaxBertForSequenceClassification

    mesh = make_mesh((4, 2), ("fsdp", "tp"))
    config = BertConfig(
        vocab_size=64,
        hidden_size=32,
        num_hidden_layers=2,
        num_attention_heads=4,
        intermediate_size=64,
        max_position_embeddings=16,
        num_labels=3,
    )
    model = FlaxBertForSequenceClassification(config, seed=0)
    params = model.params
    rules = [
        (r"word_embeddings/embedding", P("tp", "fsdp")),
        (r"(query|key|value)/kernel", P("fsdp", "tp")),
        (r"(query|key|value)/bias", P("tp")),
        (r"attention/output/dense/kernel", P("tp", "fsdp")),
        (r"intermediate/dense/kernel", P("fsdp", "tp")),
        (r"intermediate/dense/bias", P("tp")),
        (r"\d+/output/dense/kernel", P("tp", "fsdp")),
        (r"pooler/dense/kernel", P("fsdp", None)),
    ]
    tokens = jax.random.randint(jax.random.key(1), (8, 8), 0, 64)
    labels = jax.random.randint(jax.random.key(2), (8,), 0, 3)
    tx = optax.adam(1e-3)

    def loss_fn(params, tokens, labels):
        logits = model(tokens, params=params, train=False).logits
        return optax.softmax_cross_entropy_with_integer_labels(logits, labels).mean()

    def step(params, opt_state, tokens, labels):
        loss, grads = jax.value_and_grad(loss_fn)(params, tokens, labels)
        updates, opt_state = tx.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, loss

    opt_state = adam_state_after_one_step(
        tx, params, lambda p: jax.grad(loss_fn)(p, tokens, labels)
    )
    param_shardings = by_path(params, rules, mesh)
    opt_shardings = by_path(opt_state, rules, mesh)
    batch = NamedSharding(mesh, P("fsdp"))
    jitted = jax.jit(
        step,
        in_shardings=(param_shardings, opt_shardings, batch, batch),
        out_shardings=(param_shardings, opt_shardings, NamedSharding(mesh, P())),
    )
    return Step(
        jitted, (params, opt_state, tokens, labels), "transformers BERT, fsdp=4 x tp=2, adam"
    )


# -- equinox: MLP with filter_shard, data x model ---------------------------------------------


@export
def equinox_mlp_dp_tp_train() -> Step:
    """equinox.nn.MLP (tanh), data parallel over 2 and tensor parallel over 4: the model's
    weights placed with `eqx.filter_shard` inside the step, optax.adam via `eqx.filter_*`."""
    import equinox as eqx
    import optax

    mesh = make_mesh((2, 4), ("data", "model"))
    model = eqx.nn.MLP(16, 8, 64, depth=2, activation=jnp.tanh, key=jax.random.key(0))
    tx = optax.adam(1e-2)
    x = jax.random.normal(jax.random.key(1), (16, 16))
    y = jax.random.normal(jax.random.key(2), (16, 8))
    params, static = eqx.partition(model, eqx.is_array)

    def weight_sharding(leaf):
        if leaf.ndim == 2 and leaf.shape[0] == 64:
            return NamedSharding(mesh, P("model", None))  # hidden x in: column parallel
        if leaf.ndim == 2:
            return NamedSharding(mesh, P(None, "model"))  # out x hidden: row parallel
        return NamedSharding(mesh, P())

    shardings = jax.tree.map(weight_sharding, params)

    def loss_fn(params, x, y):
        model = eqx.combine(params, static)
        return jnp.mean((jax.vmap(model)(x) - y) ** 2)

    def step(params, opt_state, x, y):
        params = eqx.filter_shard(params, shardings)
        x = eqx.filter_shard(x, NamedSharding(mesh, P("data")))
        loss, grads = eqx.filter_value_and_grad(loss_fn)(params, x, y)
        updates, opt_state = tx.update(grads, opt_state, params)
        params = eqx.apply_updates(params, updates)
        return eqx.filter_shard(params, shardings), opt_state, loss

    opt_state = adam_state_after_one_step(tx, params, lambda p: jax.grad(loss_fn)(p, x, y))
    jitted = jax.jit(step)
    params = put(params, shardings)
    opt_state = jax.device_put(opt_state, NamedSharding(mesh, P()))
    x = jax.device_put(x, NamedSharding(mesh, P("data")))
    y = jax.device_put(y, NamedSharding(mesh, P("data")))
    return Step(
        jitted, (params, opt_state, x, y), "equinox MLP, filter_shard, data=2 x model=4, adam"
    )


# -- writing ---------------------------------------------------------------------------------


def kept_leaves(lowered, leaves: list) -> list:
    """The argument leaves `@main` keeps (JAX prunes unused ones)."""
    kept = lowered._lowering.compile_args.get("kept_var_idx")
    return leaves if kept is None else [x for i, x in enumerate(leaves) if i in kept]


def xla_numbers(compiled, text: str) -> dict:
    """What XLA compiled: its per-device collectives and memory."""
    from shardonnay import parse_module
    from shardonnay.interop.hlo_collectives import hlo_collective_costs

    meshes = [m for m in parse_module(text).meshes.values() if m.size == 8]
    costs = hlo_collective_costs(compiled.as_text(), mesh=meshes[0] if len(meshes) == 1 else None)
    memory = compiled.memory_analysis()
    fields = ("argument", "output", "alias", "temp", "generated_code")
    sizes = {f: int(getattr(memory, f"{f}_size_in_bytes")) for f in fields}
    return {
        "collectives": len(costs.communicating),
        "bytes_received": costs.bytes_received,
        "time_s": costs.time_s,
        "memory": sizes,
        "peak_bytes": sizes["argument"] + sizes["output"] - sizes["alias"] + sizes["temp"],
    }


def versions() -> dict:
    from importlib.metadata import PackageNotFoundError, version

    out = {}
    for package in ("jax", "jaxlib", "flax", "optax", "equinox", "transformers"):
        with contextlib.suppress(PackageNotFoundError):
            out[package] = version(package)
    return out


def same_arrays(path: Path, arrays: dict[str, np.ndarray]) -> bool:
    """Whether the archive at `path` holds exactly `arrays` (zip archives carry timestamps)."""
    if not path.exists():
        return False
    with np.load(path) as old:
        return sorted(old.files) == sorted(arrays) and all(
            old[k].dtype == v.dtype and np.array_equal(old[k], v) for k, v in arrays.items()
        )


def write(name: str, step: Step) -> str:
    lowered = step.jitted.lower(*step.args)
    text = lowered.as_text()
    text = text if text.endswith("\n") else text + "\n"
    leaves = [np.asarray(x) for x in jax.tree.leaves(step.args)]
    inputs = kept_leaves(lowered, leaves)
    outputs = [np.asarray(y) for y in jax.tree.leaves(step.jitted(*step.args))]
    for i, y in enumerate(outputs):
        assert not np.issubdtype(y.dtype, np.floating) or np.isfinite(y).all(), (name, i)
    compiled = lowered.compile()
    (MODELS / f"{name}.mlir").write_text(text)
    arrays = {f"input{i}": x for i, x in enumerate(inputs)}
    arrays.update({f"output{i}": y for i, y in enumerate(outputs)})
    npz = MODELS / f"{name}.npz"
    if not same_arrays(npz, arrays):
        np.savez_compressed(npz, **arrays)
    info = {"description": step.description, "xla": xla_numbers(compiled, text)}
    info["versions"] = versions()
    (MODELS / f"{name}.json").write_text(json.dumps(info, indent=1, sort_keys=True) + "\n")
    ops = sum(1 for line in text.splitlines() if " = " in line)
    received = info["xla"]["bytes_received"]
    return f"{name:<26} {ops:5d} lines  {len(inputs):3d} inputs  XLA receives {received:8d} B"


def main(argv: list[str]) -> int:
    MODELS.mkdir(parents=True, exist_ok=True)
    names = argv or list(EXPORTS)
    unknown = sorted(set(names) - set(EXPORTS))
    if unknown:
        print(f"error: no model(s) {', '.join(unknown)}; known: {', '.join(EXPORTS)}")
        return 1
    for name in names:
        np.random.seed(zlib.crc32(name.encode()))
        print(write(name, EXPORTS[name]()), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
