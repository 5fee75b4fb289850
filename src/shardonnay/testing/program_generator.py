"""Random annotated StableHLO programs, for differential testing against Shardy.

`random_program(seed)` builds a module with one or two `sdy.mesh` declarations
and a `func.func @main` whose body is a random DAG of StableHLO ops
(elementwise, dot_general, reshape, transpose, broadcast_in_dim, reduce,
concatenate, slice, pad, while) with random, valid, partial sharding
annotations: `sdy.sharding` on some arguments and results (open/closed dims,
priorities, sub-axes, `replicated={...}`), `sdy.sharding_constraint` on some
intermediate values and `sdy.sharding_group` on some pairs of values of the
same shape. Dimension sizes are often not divisible by the axes sharding them.

Ops are written in the generic form; the module is then printed by our writer,
so the text returned is the pretty form MLIR itself prints. For example,
`random_program(246, max_ops=4)` is::

    module {
      sdy.mesh @mesh = <["z"=4, "x"=2, "y"=2, "w"=4]>
      func.func @main(%arg0: tensor<6x4x16xf32> {sdy.sharding = #sdy.sharding<@mesh, [{"w":(2)2}, {"x"}, {}]>}) -> tensor<6x9xf32> {
        %0 = stablehlo.reshape %arg0 : (tensor<6x4x16xf32>) -> tensor<24x16xf32>
        %1 = sdy.sharding_constraint %0 <@mesh, [{?}, {}]> : tensor<24x16xf32>
        %2 = stablehlo.add %1, %1 : tensor<24x16xf32>
        %3 = sdy.sharding_constraint %2 <@mesh, [{?}, {?}]> : tensor<24x16xf32>
        %4 = stablehlo.slice %3 [7:13, 6:15] : (tensor<24x16xf32>) -> tensor<6x9xf32>
        %5 = sdy.sharding_constraint %4 <@mesh, [{"w", "y"}, {}], replicated={"z", "x"}> : tensor<6x9xf32>
        return %5 : tensor<6x9xf32>
      }
    }

Everything is deterministic per seed. `random_program_with_inputs(seed)` also
returns random float32 inputs for `main`.
"""  # noqa: E501

from __future__ import annotations

import math
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from shardonnay import AxisRef, DimSharding, Mesh, TensorSharding
from shardonnay.errors import ShardingError
from shardonnay.syntax.mlir_reader import parse_module

MAX_ELEMENTS = 512
DIM_SIZES = (1, 2, 3, 4, 5, 6, 8, 12, 16)
AXIS_NAMES = ("x", "y", "z", "w")
UNARY_OPS = ("tanh", "negate", "abs", "sine", "cosine", "logistic")
BINARY_OPS = ("add", "subtract", "multiply", "maximum", "minimum")
NEG_INF = "0xFF800000"


@dataclass(frozen=True)
class _Value:
    name: str
    shape: tuple[int, ...]

    @property
    def type(self) -> str:
        return tensor_type(self.shape)


def tensor_type(shape: Sequence[int], element_type: str = "f32") -> str:
    """`tensor<4x8xf32>`, `tensor<f32>` for rank 0."""
    return "tensor<" + "".join(f"{d}x" for d in shape) + element_type + ">"


def _i64_array(values: Sequence[int]) -> str:
    return "array<i64" + (": " + ", ".join(map(str, values)) if values else "") + ">"


class _ProgramBuilder:
    """Draws one program; `text()` gives its generic-form module text."""

    def __init__(self, seed: int, max_ops: int):
        self.rng = random.Random(seed)
        self.max_ops = max_ops
        self.lines: list[str] = []
        self.args: list[_Value] = []
        self.values: list[_Value] = []
        self.counter = 0
        self.group_ids = 0
        self.meshes = self._draw_meshes()

    # -- meshes and shardings -----------------------------------------------------

    def _draw_meshes(self) -> list[tuple[str, Mesh]]:
        rng = self.rng
        count = 2 if rng.random() < 0.25 else 1
        meshes = []
        for i in range(count):
            names = rng.sample(AXIS_NAMES, rng.randint(1, 4))
            sizes = [rng.choice((1, 2, 2, 3, 4, 4)) for _ in names]
            if len(names) > 1 and rng.random() < 0.2 and 1 not in sizes:
                sizes[rng.randrange(len(sizes))] = 1
            meshes.append(("mesh" if i == 0 else f"mesh_{i}", Mesh(zip(names, sizes, strict=True))))
        return meshes

    def _axis_pool(self, mesh: Mesh) -> list[AxisRef]:
        """Axes to shard with: whole axes (size-1 ones sometimes), or halves of a size-4 axis."""
        pool = []
        for name, size in mesh.axes:
            if size == 1 and self.rng.random() < 0.5:
                continue
            if size == 4 and self.rng.random() < 0.3:
                pool += [AxisRef.sub(name, 1, 2), AxisRef.sub(name, 2, 2)]
            else:
                pool.append(AxisRef(name))
        self.rng.shuffle(pool)
        return pool

    def sharding(self, shape: Sequence[int], *, mesh_index: int | None = None) -> TensorSharding:
        """A random valid sharding of a tensor of `shape` (sizes need not divide)."""
        rng = self.rng
        if mesh_index is None:
            mesh_index = 0 if len(self.meshes) == 1 or rng.random() < 0.8 else 1
        mesh_name, mesh = self.meshes[mesh_index]
        pool = self._axis_pool(mesh)
        dims = []
        for _ in shape:
            axes: list[AxisRef] = []
            while pool and rng.random() < 0.45 and len(axes) < 2:
                axis = pool.pop()
                if axes and axes[-1].name == axis.name:
                    pool.insert(0, axis)  # halves of one axis side by side could be merged
                    break
                axes.append(axis)
            is_closed = rng.random() < 0.6
            priority = None
            if (axes or not is_closed) and rng.random() < 0.25:
                priority = rng.randint(0, 1)
            dims.append(DimSharding(tuple(axes), is_closed, priority))
        replicated: tuple[AxisRef, ...] = ()
        if pool and rng.random() < 0.3:
            chosen = rng.sample(pool, rng.randint(1, len(pool)))
            replicated = tuple(sorted(chosen, key=lambda a: a.mesh_sort_key(mesh)))
        sharding = TensorSharding(mesh_name, tuple(dims), replicated)
        try:
            sharding.validate(mesh, shape)
        except ShardingError:
            return TensorSharding.replicated_on(mesh_name, len(shape), is_closed=False)
        return sharding

    # -- emitting ops -------------------------------------------------------------

    def fresh(self, prefix: str = "v") -> str:
        self.counter += 1
        return f"%{prefix}{self.counter}"

    def emit(
        self,
        op: str,
        operands: Sequence[_Value | str],
        operand_types: Sequence[str],
        result_shape: Sequence[int],
        properties: str = "",
        regions: str = "",
        *,
        lines: list[str] | None = None,
        name: str | None = None,
    ) -> _Value:
        """Appends `%r = "op"(operands) <{properties}> (regions) : (...) -> type`."""
        result = _Value(name or self.fresh(), tuple(result_shape))
        names = ", ".join(o.name if isinstance(o, _Value) else o for o in operands)
        props = f" <{{{properties}}}>" if properties else ""
        regs = f" ({regions})" if regions else ""
        (self.lines if lines is None else lines).append(
            f'{result.name} = "{op}"({names}){props}{regs} : '
            f"({', '.join(operand_types)}) -> {result.type}"
        )
        return result

    def constant(self, literal: str, element_type: str = "f32", *, lines=None) -> str:
        name = self.fresh("c")
        ty = tensor_type((), element_type)
        (self.lines if lines is None else lines).append(
            f'{name} = "stablehlo.constant"() <{{value = dense<{literal}> : {ty}}}> : () -> {ty}'
        )
        return name

    def new_arg(self, shape: Sequence[int]) -> _Value:
        value = _Value(f"%arg{len(self.args)}", tuple(shape))
        self.args.append(value)
        self.values.append(value)
        return value

    def random_shape(self, rank: int | None = None) -> tuple[int, ...]:
        rng = self.rng
        rank = rng.randint(1, 3) if rank is None else rank
        while True:
            shape = tuple(rng.choice(DIM_SIZES) for _ in range(rank))
            if math.prod(shape) <= MAX_ELEMENTS:
                return shape

    def pick(self) -> _Value:
        """Mostly the latest value (a chain), sometimes an earlier one (a DAG)."""
        if self.rng.random() < 0.6:
            return self.values[-1]
        return self.rng.choice(self.values)

    def same_shape(self, shape: tuple[int, ...], exclude: _Value | None = None) -> list[_Value]:
        return [v for v in self.values if v.shape == shape and v != exclude]

    # -- op kinds -----------------------------------------------------------------

    def unary(self, x: _Value) -> _Value:
        op = self.rng.choice(UNARY_OPS)
        return self.emit(f"stablehlo.{op}", [x], [x.type], x.shape)

    def binary(self, x: _Value) -> _Value:
        partners = self.same_shape(x.shape, exclude=x)
        y = self.rng.choice(partners) if partners else x
        if self.rng.random() < 0.5:
            x, y = y, x
        op = self.rng.choice(BINARY_OPS)
        return self.emit(f"stablehlo.{op}", [x, y], [x.type, y.type], x.shape)

    def dot_general(self, x: _Value) -> _Value | None:
        """Contracts one dim of `x` with an argument or value; sometimes with a batch dim."""
        rng = self.rng
        rank = len(x.shape)
        dims = list(range(rank))
        rng.shuffle(dims)
        contracting = dims.pop()
        batch = [dims.pop()] if dims and rng.random() < 0.4 else []
        lhs_free = [d for d in range(rank) if d != contracting and d not in batch]
        rhs_free = rng.choice((1, 2, 3, 4, 8))
        rhs_shape = (*[x.shape[d] for d in batch], x.shape[contracting], rhs_free)
        result = (*[x.shape[d] for d in batch], *[x.shape[d] for d in lhs_free], rhs_free)
        if len(result) > 4 or max(math.prod(result), math.prod(rhs_shape)) > MAX_ELEMENTS:
            return None
        candidates = self.same_shape(rhs_shape)
        y = rng.choice(candidates) if candidates else self.new_arg(rhs_shape)
        nb = len(batch)
        fields = []
        if batch:
            fields += [
                f"lhs_batching_dimensions = [{batch[0]}]",
                "rhs_batching_dimensions = [0]",
            ]
        fields += [
            f"lhs_contracting_dimensions = [{contracting}]",
            f"rhs_contracting_dimensions = [{nb}]",
        ]
        props = f"dot_dimension_numbers = #stablehlo.dot<{', '.join(fields)}>"
        return self.emit("stablehlo.dot_general", [x, y], [x.type, y.type], result, props)

    def reshape(self, x: _Value) -> _Value | None:
        """Splits a dim into two factors (16 -> 4x4 or 2x8) or merges two neighbours."""
        rng = self.rng
        shape = list(x.shape)
        splittable = [i for i, d in enumerate(shape) if d in (4, 6, 8, 12, 16)]
        if splittable and len(shape) < 4 and (len(shape) < 2 or rng.random() < 0.6):
            i = rng.choice(splittable)
            factors = [f for f in range(2, shape[i]) if shape[i] % f == 0]
            a = rng.choice(factors)
            new_shape = [*shape[:i], a, shape[i] // a, *shape[i + 1 :]]
        elif len(shape) >= 2:
            i = rng.randrange(len(shape) - 1)
            new_shape = [*shape[:i], shape[i] * shape[i + 1], *shape[i + 2 :]]
        else:
            return None
        return self.emit("stablehlo.reshape", [x], [x.type], new_shape)

    def transpose(self, x: _Value) -> _Value | None:
        if len(x.shape) < 2:
            return None
        perm = list(range(len(x.shape)))
        while perm == sorted(perm):
            self.rng.shuffle(perm)
        shape = [x.shape[p] for p in perm]
        props = f"permutation = {_i64_array(perm)}"
        return self.emit("stablehlo.transpose", [x], [x.type], shape, props)

    def broadcast_in_dim(self, x: _Value) -> _Value | None:
        """Inserts a new dim of size 1-4 somewhere (and sometimes expands a size-1 dim)."""
        rng = self.rng
        rank = len(x.shape)
        new_size = rng.choice((1, 2, 3, 4))
        if rank >= 4 or math.prod(x.shape) * new_size * 4 > MAX_ELEMENTS * 4:
            return None
        where = rng.randint(0, rank)
        mapping = [d if d < where else d + 1 for d in range(rank)]
        shape = [*x.shape[:where], new_size, *x.shape[where:]]
        for d in mapping:
            if shape[d] == 1 and rng.random() < 0.5 and math.prod(shape) * 3 <= MAX_ELEMENTS:
                shape[d] = 3
        props = f"broadcast_dimensions = {_i64_array(mapping)}"
        return self.emit("stablehlo.broadcast_in_dim", [x], [x.type], shape, props)

    def reduce(self, x: _Value) -> _Value | None:
        """Sums or maxes over one or two dims (keeping rank >= 1)."""
        rng = self.rng
        rank = len(x.shape)
        if rank < 2:
            return None
        dims = sorted(rng.sample(range(rank), rng.randint(1, min(2, rank - 1))))
        kind, init_literal = rng.choice((("add", "0.000000e+00"), ("maximum", NEG_INF)))
        init = self.constant(init_literal)
        scalar = tensor_type(())
        a, b, r = self.fresh("a"), self.fresh("b"), self.fresh("r")
        body = (
            f"{{\n  ^bb0({a}: {scalar}, {b}: {scalar}):\n"
            f'    {r} = "stablehlo.{kind}"({a}, {b}) : ({scalar}, {scalar}) -> {scalar}\n'
            f'    "stablehlo.return"({r}) : ({scalar}) -> ()\n  }}'
        )
        shape = [d for i, d in enumerate(x.shape) if i not in dims]
        props = f"dimensions = {_i64_array(dims)}"
        return self.emit("stablehlo.reduce", [x, init], [x.type, scalar], shape, props, body)

    def concatenate(self, x: _Value) -> _Value | None:
        """Joins `x` with a value that differs at most in the concatenated dim."""
        rng = self.rng
        dim = rng.randrange(len(x.shape))
        others = x.shape[:dim] + x.shape[dim + 1 :]
        partners = [
            v
            for v in self.values
            if len(v.shape) == len(x.shape) and v.shape[:dim] + v.shape[dim + 1 :] == others
        ]
        y = rng.choice(partners) if partners else x
        shape = list(x.shape)
        shape[dim] += y.shape[dim]
        if math.prod(shape) > MAX_ELEMENTS:
            return None
        operands = [x, y] if rng.random() < 0.5 else [y, x]
        props = f"dimension = {dim} : i64"
        return self.emit(
            "stablehlo.concatenate", operands, [o.type for o in operands], shape, props
        )

    def slice(self, x: _Value) -> _Value | None:
        rng = self.rng
        starts, limits, strides, shape = [], [], [], []
        for d in x.shape:
            start = rng.randint(0, (d - 1) // 2)
            limit = rng.randint(start + 1, d)
            stride = rng.choice((1, 1, 2))
            starts.append(start)
            limits.append(limit)
            strides.append(stride)
            shape.append(-(-(limit - start) // stride))
        if list(shape) == list(x.shape):
            return None
        props = (
            f"limit_indices = {_i64_array(limits)}, start_indices = {_i64_array(starts)}, "
            f"strides = {_i64_array(strides)}"
        )
        return self.emit("stablehlo.slice", [x], [x.type], shape, props)

    def pad(self, x: _Value) -> _Value | None:
        rng = self.rng
        low = [rng.choice((0, 0, 1, 2, -1)) if d > 1 else rng.choice((0, 1)) for d in x.shape]
        high = [rng.choice((0, 0, 1, 3)) for _ in x.shape]
        interior = [rng.choice((0, 0, 0, 1)) for _ in x.shape]
        shape = [
            lo + hi + d + max(d - 1, 0) * it
            for d, lo, hi, it in zip(x.shape, low, high, interior, strict=True)
        ]
        if min(shape) < 1 or math.prod(shape) > MAX_ELEMENTS:
            return None
        value = self.constant(rng.choice(("0.000000e+00", "1.000000e+00")))
        props = (
            f"edge_padding_high = {_i64_array(high)}, edge_padding_low = {_i64_array(low)}, "
            f"interior_padding = {_i64_array(interior)}"
        )
        return self.emit("stablehlo.pad", [x, value], [x.type, tensor_type(())], shape, props)

    def while_loop(self, x: _Value) -> _Value:
        """`n` iterations of `v = tanh(v) (+ a value from outside)` on a carried `x`."""
        rng = self.rng
        i32 = tensor_type((), "i32")
        zero = self.constant("0", "i32")
        i, v = self.fresh("i"), self.fresh("v")
        block_args = f"^bb0({i}: {i32}, {v}: {x.type}):"
        cond: list[str] = []
        limit = self.constant(str(rng.randint(1, 3)), "i32", lines=cond)
        flag = self.fresh("p")
        cond += [
            f'{flag} = "stablehlo.compare"({i}, {limit}) <{{comparison_direction = '
            f"#stablehlo<comparison_direction LT>}}> : ({i32}, {i32}) -> tensor<i1>",
            f'"stablehlo.return"({flag}) : (tensor<i1>) -> ()',
        ]
        body: list[str] = []
        one = self.constant("1", "i32", lines=body)
        next_i = self.fresh("i")
        body.append(f'{next_i} = "stablehlo.add"({i}, {one}) : ({i32}, {i32}) -> {i32}')
        carried = _Value(v, x.shape)
        new = self.emit("stablehlo.tanh", [carried], [x.type], x.shape, lines=body)
        outside = self.same_shape(x.shape)
        if outside and rng.random() < 0.6:
            y = rng.choice(outside)
            new = self.emit("stablehlo.add", [new, y], [x.type, x.type], x.shape, lines=body)
        body.append(f'"stablehlo.return"({next_i}, {new.name}) : ({i32}, {x.type}) -> ()')

        def region(lines: list[str]) -> str:
            return "{\n  " + block_args + "\n" + "".join(f"    {s}\n" for s in lines) + "  }"

        name = self.fresh("w")
        self.lines.append(
            f'{name}:2 = "stablehlo.while"({zero}, {x.name}) ({region(cond)}, {region(body)}) '
            f": ({i32}, {x.type}) -> ({i32}, {x.type})"
        )
        return _Value(f"{name}#1", x.shape)

    # -- annotations --------------------------------------------------------------

    def sharding_constraint(self, x: _Value) -> _Value:
        props = f"sharding = {self.sharding(x.shape)}"
        return self.emit("sdy.sharding_constraint", [x], [x.type], x.shape, props)

    def sharding_group(self, x: _Value) -> None:
        partners = self.same_shape(x.shape, exclude=x)
        if not partners:
            return
        y = self.rng.choice(partners)
        group = self.group_ids
        self.group_ids += 1
        for v in (x, y):
            self.lines.append(
                f'"sdy.sharding_group"({v.name}) <{{group_id = {group} : i64}}> : ({v.type}) -> ()'
            )

    # -- the program --------------------------------------------------------------

    def op_kinds(self) -> list[tuple[Callable[[_Value], _Value | None], int]]:
        return [
            (self.unary, 3),
            (self.binary, 4),
            (self.dot_general, 3),
            (self.reshape, 3),
            (self.transpose, 2),
            (self.broadcast_in_dim, 2),
            (self.reduce, 2),
            (self.concatenate, 2),
            (self.slice, 2),
            (self.pad, 2),
            (self.while_loop, 1),
        ]

    def build(self) -> str:
        rng = self.rng
        for _ in range(rng.randint(1, 2)):
            self.new_arg(self.random_shape())
        kinds, weights = zip(*self.op_kinds(), strict=True)
        for _ in range(rng.randint(1, self.max_ops)):
            result = None
            while result is None:
                result = rng.choices(kinds, weights)[0](self.pick())
            if rng.random() < 0.2:
                result = self.sharding_constraint(result)
            self.values.append(result)
            if rng.random() < 0.15:
                self.sharding_group(result)
        results = [self.values[-1]]
        for v in rng.sample(self.values, min(2, len(self.values))):
            if v not in results and rng.random() < 0.3:
                results.append(v)
        return self.text(results)

    def _annotated(self, value: _Value, probability: float) -> str:
        if self.rng.random() >= probability:
            return value.type
        return f"{value.type} {{sdy.sharding = {self.sharding(value.shape)}}}"

    def text(self, results: list[_Value]) -> str:
        meshes = "".join(f"  sdy.mesh @{name} = {mesh}\n" for name, mesh in self.meshes)
        args = ", ".join(f"{a.name}: {self._annotated(a, 0.6)}" for a in self.args)
        outs = ", ".join(self._annotated(r, 0.4) for r in results)
        body = "".join(f"    {line}\n" for line in self.lines)
        ret = ", ".join(r.name for r in results)
        ret_types = ", ".join(r.type for r in results)
        return (
            f"module {{\n{meshes}  func.func @main({args}) -> ({outs}) {{\n{body}"
            f"    return {ret} : {ret_types}\n  }}\n}}\n"
        )


def random_program_generic(seed: int, *, max_ops: int = 12) -> str:
    """The module of `random_program(seed)` as drawn: ops in the generic form."""
    return _ProgramBuilder(seed, max_ops).build()


def random_program(seed: int, *, max_ops: int = 12) -> str:
    """A random annotated module, in the pretty form MLIR prints (see the module doc)."""
    return parse_module(random_program_generic(seed, max_ops=max_ops)).to_text()


def random_program_with_inputs(seed: int, *, max_ops: int = 12) -> tuple[str, list[np.ndarray]]:
    """`random_program(seed)` and float32 normal inputs for its `@main`."""
    module = parse_module(random_program_generic(seed, max_ops=max_ops))
    rng = np.random.default_rng(seed)
    inputs = [
        rng.standard_normal(t.shape).astype(np.float32) for t in module.function("main").type.inputs
    ]
    return module.to_text(), inputs
