"""What `stablehlo.custom_call` targets compute: one entry per call target.

`semantics(target)` is the numpy function the reference interpreter runs for
a `stablehlo.custom_call @target` (`(op, args) -> results`), or None when
shardonnay does not know the target. Known are:

- the partitioner's annotations (`@Sharding`, `@annotate_device_placement`:
  identities; `@SPMDFullToShardShape` / `@SPMDShardToFullShape` where they
  keep the shape), and the moves between memories and layouts that keep the
  values (`@MoveToHost`, `@MoveToDevice`, `@LayoutConstraint`);
- `@mhlo.erf` (as `chlo.erf`), `@mhlo.topk` (as `chlo.top_k`) and the
  approximate top-k `@ApproxTopK` / `@PartialReduce` (exactly, as XLA's
  fallback computes it);
- the LAPACK kernels JAX's CPU lowering calls (`@lapack_sgesdd_ffi`, ...: LU,
  QR, Cholesky, triangular solves, symmetric and general eigenproblems,
  SVD; `s`, `d`, `c`, `z` for f32, f64, complex64, complex128), the GPU
  solvers that compute the same (`@cusolver_*_ffi`, `@hipsolver_*_ffi`,
  `@cu_lu_pivots_to_permutation`, ...) and XLA's own (`@Qr`, `@QrDecompositionBlock`,
  `@ProductOfElementaryHouseholderReflectors`, `@Eigh`, `@LuDecomposition`),
  computed by `shardonnay.ops.lapack`;
- host callbacks (`jax.pure_callback`, `jax.experimental.io_callback`,
  `jax.debug.print`): a callback calls a Python function that is not part of
  the program. One without results (`jax.debug.print`, `jax.debug.callback`)
  cannot change the program's results and is skipped (nothing is printed);
  one with results raises `UnsupportedOpError`.

>>> import numpy as np
>>> from shardonnay.syntax.mlir_reader import parse_module
>>> m = parse_module('''func.func @main(%a: tensor<2x2xf32>) -> tensor<2x2xf32> {
...   %0:2 = stablehlo.custom_call @lapack_spotrf_ffi(%a) {mhlo.backend_config = {uplo = 76 : ui8}}
...       : (tensor<2x2xf32>) -> (tensor<2x2xf32>, tensor<i32>)
...   return %0#0 : tensor<2x2xf32>
... }''')
>>> from shardonnay.runtime.interpreter import run
>>> run(m, np.array([[4.0, 2.0], [2.0, 5.0]]))[0].tolist()
[[2.0, 2.0], [1.0, 2.0]]
"""

from __future__ import annotations

import re
from collections.abc import Callable

import numpy as np

from shardonnay.errors import IRError, UnsupportedOpError
from shardonnay.ir.attributes import IntegerAttr
from shardonnay.ir.core import Op
from shardonnay.ir.types import TensorType
from shardonnay.ops import lapack
from shardonnay.ops.registry import lookup

Semantics = Callable[[Op, list], list]

__all__ = ["CALLBACK_TARGETS", "semantics"]

#: Calls into the Python function of `jax.pure_callback`, `io_callback`, `jax.debug.*`.
CALLBACK_TARGETS = frozenset(
    {
        "xla_ffi_python_cpu_callback",
        "xla_ffi_python_gpu_callback",
        "xla_ffi_partitioned_python_cpu_callback",
        "xla_ffi_partitioned_python_gpu_callback",
        "xla_python_cpu_callback",
        "xla_python_gpu_callback",
    }
)


def semantics(target: str) -> Semantics | None:
    """The numpy semantics of custom call `@target`, or None.

    >>> semantics("lapack_dgesdd_ffi") is semantics("cusolver_gesvdj_ffi")  # the same SVD
    True
    >>> semantics("my_kernel") is None
    True
    """
    if target in _TABLE:
        return _TABLE[target]
    if target in CALLBACK_TARGETS:
        return _callback
    match = _LAPACK.fullmatch(target)
    if match is not None:
        return _LAPACK_ROUTINES.get(match["routine"])
    match = _GPU_SOLVER.fullmatch(target)
    if match is not None:
        return _GPU_ROUTINES.get(match["routine"])
    return None


_LAPACK = re.compile(r"lapack_(?P<type>[sdcz])(?P<routine>[a-z0-9]+)_ffi")
_GPU_SOLVER = re.compile(r"(?:cu|hip)(?:solver|blas)_(?P<routine>[a-z0-9_]+?)(?:_batched)?_ffi")


# -- attributes --------------------------------------------------------------------------------


def _config(op: Op) -> dict:
    config = op.attributes.get("mhlo.backend_config", {})
    return config if isinstance(config, dict) else {}


def _char(op: Op, key: str, default: str) -> str:
    """A LAPACK character option (`uplo = 76 : ui8` is 'L')."""
    value = _config(op).get(key)
    if value is None:
        return default
    if not isinstance(value, IntegerAttr) or not 0 < value.value < 128:
        raise IRError(f"custom call @{_target(op)}: {key} must be a character code, got {value}")
    return chr(value.value).upper()


def _flag(op: Op, key: str, default: bool) -> bool:
    value = _config(op).get(key, default)
    if isinstance(value, IntegerAttr):
        return bool(value.value)
    if not isinstance(value, bool):
        raise IRError(f"custom call @{_target(op)}: {key} must be a bool, got {value}")
    return value


def _lower(op: Op) -> bool:
    """Which triangle: `lower = true` (GPU solvers) or `uplo = 76 : ui8` ('L', LAPACK)."""
    if "lower" in _config(op):
        return _flag(op, "lower", True)
    return _char(op, "uplo", "L") == "L"


def _target(op: Op) -> str:
    return str(op.attributes.get("call_target_name"))


def _expect(op: Op, operands: int, results: int, args: list) -> None:
    if len(args) != operands or len(op.results) != results:
        raise IRError(
            f"custom call @{_target(op)} takes {operands} operand(s) and has {results} "
            f"result(s), got {len(args)} and {len(op.results)}"
        )


def _matrix(op: Op, args: list, index: int = 0) -> np.ndarray:
    array = np.asarray(args[index])
    if array.ndim < 2:
        raise IRError(f"custom call @{_target(op)}: operand {index} must be a matrix or a stack")
    return array


def _square(op: Op, args: list, index: int = 0) -> np.ndarray:
    array = _matrix(op, args, index)
    if array.shape[-1] != array.shape[-2]:
        raise IRError(
            f"custom call @{_target(op)}: operand {index} must hold square matrices, "
            f"got shape {array.shape}"
        )
    return array


def _shape(op: Op, index: int) -> tuple[int, ...]:
    t = op.result_types[index]
    if not isinstance(t, TensorType):
        raise IRError(f"custom call @{_target(op)}: result {index} must be a tensor")
    return t.shape


# -- the routines ------------------------------------------------------------------------------


def _identity(op: Op, args: list) -> list:
    _expect(op, 1, 1, args)
    target = _target(op)
    if target.startswith("SPMD") and op.operands[0].type != op.result_types[0]:
        raise UnsupportedOpError(
            f"custom call @{target} changes the shape "
            f"({op.operands[0].type} to {op.result_types[0]}): it converts between a "
            "global value and per-device shards, which the global program cannot "
            "represent"
        )
    return [args[0]]


def _erf(op: Op, args: list) -> list:
    """`@mhlo.erf`: the error function elementwise, as `chlo.erf` computes it."""
    _expect(op, 1, 1, args)
    return lookup("chlo.erf").evaluate(op, args, None)


def _top_k(op: Op, args: list) -> list:
    """`@mhlo.topk` `{mhlo.attributes = {k = 2 : i64, largest = true}}`: the k
    largest (smallest) values along the last dim, in order, and their indices;
    equal values keep their order."""
    _expect(op, 1, 2, args)
    attributes = op.attributes.get("mhlo.attributes", {})
    k = attributes.get("k") if isinstance(attributes, dict) else None
    count = _shape(op, 0)[-1] if not isinstance(k, IntegerAttr) else k.value
    largest = attributes.get("largest", True) if isinstance(attributes, dict) else True
    x = np.asarray(args[0])
    if x.ndim == 0 or not 0 <= count <= x.shape[-1] or _shape(op, 0)[-1] != count:
        raise IRError(f"custom call @{_target(op)}: cannot take {count} of {x.shape}")
    keys = x.astype(np.float64) if x.dtype.kind in "biu" else x
    keys = -keys if largest is True else keys
    indices = np.argsort(keys, axis=-1, kind="stable")[..., :count]
    index_type = op.result_types[1].dtype  # type: ignore[union-attr]
    return [np.take_along_axis(x, indices, axis=-1), indices.astype(index_type)]


def _approx_top_k(op: Op, args: list) -> list:
    """`@ApproxTopK` / `@PartialReduce` `(operand, iota, init, init_index)`
    with `aggregate_to_topk`: the `top_k` first values along `reduction_dim`
    in the order of the comparator in `called_computations` (a `compare GT`
    or `LT` of its first two arguments; where the function is out of reach,
    the order the init value starts: -inf or the lowest integer for the
    largest values, +inf or the highest for the smallest), and the iota's
    values at them. The
    answer is exact, which an approximate top-k may always give (XLA's CPU
    fallback, `is_fallback = true`, gives it too)."""
    _expect(op, 4, 2, args)
    config = _config(op)
    k, dim = config.get("top_k"), config.get("reduction_dim")
    if not isinstance(k, IntegerAttr) or not isinstance(dim, IntegerAttr):
        raise UnsupportedOpError(
            f"custom call @{_target(op)}: needs top_k and reduction_dim in mhlo.backend_config"
        )
    x, iota = np.asarray(args[0]), np.asarray(args[1])
    axis, count = dim.value, k.value
    if not 0 <= axis < x.ndim or _shape(op, 0)[axis] != count or count > x.shape[axis]:
        raise UnsupportedOpError(
            f"custom call @{_target(op)}: only the aggregated top {count} along dim {axis} of "
            f"{x.shape} is computed"
        )
    keys = x.astype(np.float64) if x.dtype.kind in "biu" else x
    if _largest_first(op, np.asarray(args[2])):
        keys = -keys
    order = np.take(np.argsort(keys, axis=axis, kind="stable"), np.arange(count), axis=axis)
    return [np.take_along_axis(x, order, axis=axis), np.take_along_axis(iota, order, axis=axis)]


def _largest_first(op: Op, init: np.ndarray) -> bool:
    """Whether a top-k takes the largest values: by its comparator, else by its
    init value."""
    direction = _comparator_direction(op)
    if direction is not None:
        return direction in ("GT", "GE")
    if init.dtype.kind == "f" and np.isinf(init).all():
        return bool((init < 0).all())
    if init.dtype.kind in "iu":
        info = np.iinfo(init.dtype)
        if (init == info.min).all() or (init == info.max).all():
            return bool((init == info.min).all())
    raise UnsupportedOpError(
        f"custom call @{_target(op)}: neither its comparator nor its init value {init} says "
        "whether it takes the largest or the smallest values"
    )


def _comparator_direction(op: Op) -> str | None:
    """The direction of the `compare` a top-k's comparator function makes of
    its first two arguments (None when the function is out of reach)."""
    refs = op.attributes.get("called_computations", ())
    top = op
    while top.parent_op is not None:
        top = top.parent_op
    block = top.parent
    funcs = {o.attributes.get("sym_name"): o for o in (block.ops if block is not None else ())}
    comparator = funcs.get(refs[0].names[-1]) if refs else None
    if comparator is None:
        return None
    body = comparator.regions[0].entry
    compare = body.ops[0] if body.ops else None
    if (
        compare is None
        or compare.name != "stablehlo.compare"
        or list(compare.operands) != list(body.arguments[:2])
    ):
        raise UnsupportedOpError(
            f"custom call @{_target(op)}: its comparator must compare its first two arguments"
        )
    return str(compare.attributes["comparison_direction"].value)


def _callback(op: Op, args: list) -> list:
    if not op.results:
        return []
    raise UnsupportedOpError(
        f"custom call @{_target(op)} calls back into a Python function "
        "(jax.pure_callback or io_callback) that is not part of the program: it cannot run "
        "here"
    )


def _getrf(op: Op, args: list) -> list:
    _expect(op, 1, 3, args)
    return list(lapack.getrf(_matrix(op, args)))


def _geqrf(op: Op, args: list) -> list:
    _expect(op, 1, 2, args)
    return list(lapack.geqrf(_matrix(op, args)))


def _geqp3(op: Op, args: list) -> list:
    """`(a, jpvt) -> (packed, jpvt 1-based, taus)`: QR with column pivoting."""
    _expect(op, 2, 3, args)
    return list(lapack.geqp3(_matrix(op, args), np.asarray(args[1])))


def _gehrd(op: Op, args: list) -> list:
    """`(a) -> (packed, taus, info)`: Hessenberg reduction of rows `low..high`."""
    _expect(op, 1, 3, args)
    a = _square(op, args)
    n = a.shape[-1]
    low, high = _config(op).get("low"), _config(op).get("high")
    low = low.value if isinstance(low, IntegerAttr) else 1
    high = high.value if isinstance(high, IntegerAttr) else n
    if not 1 <= low <= max(high, 1) <= max(n, 1):
        raise IRError(f"custom call @{_target(op)}: needs 1 <= low <= high <= {n}")
    packed, taus = lapack.gehrd(a, low=low, high=high)
    return [packed, taus, np.zeros(a.shape[:-2], np.int32)]


def _gtsv(op: Op, args: list) -> list:
    """`(dl, d, du, b) -> (dl, d, du, x, info)`: a tridiagonal solve."""
    _expect(op, 4, 5, args)
    dl, d, du = (np.asarray(a) for a in args[:3])
    b = _matrix(op, args, 3)
    if not dl.shape == d.shape == du.shape or d.shape != b.shape[:-1]:
        raise IRError(
            f"custom call @{_target(op)}: dl, d and du must have the shape of b's rows, got "
            f"{dl.shape}, {d.shape}, {du.shape} for b of shape {b.shape}"
        )
    return list(lapack.gtsv(dl, d, du, b))


def _orgqr(op: Op, args: list) -> list:
    _expect(op, 2, 1, args)
    q = lapack.orgqr(_matrix(op, args), np.asarray(args[1]))
    shape = _shape(op, 0)
    return [q[..., : shape[-2], : shape[-1]]]


def _householder_product(op: Op, args: list) -> list:
    """XLA's `@ProductOfElementaryHouseholderReflectors`: `Q` of the shape of operand 0."""
    return _orgqr(op, args)


def _potrf(op: Op, args: list) -> list:
    _expect(op, 1, 2, args)
    lower = _lower(op)
    return list(lapack.potrf(_square(op, args), lower=lower))


def _trsm(op: Op, args: list) -> list:
    _expect(op, 2, 1, args)
    a, b = _square(op, args), _matrix(op, args, 1)
    left_side = _char(op, "side", "L") == "L"
    if a.shape[:-2] != b.shape[:-2] or a.shape[-1] != b.shape[-2 if left_side else -1]:
        raise IRError(
            f"custom call @{_target(op)}: a of shape {a.shape} cannot solve for b of shape "
            f"{b.shape} from the {'left' if left_side else 'right'}"
        )
    return [
        lapack.trsm(
            a,
            b,
            left_side=left_side,
            lower=_char(op, "uplo", "L") == "L",
            transpose=_char(op, "trans_x", "N"),
            unit_diagonal=_char(op, "diag", "N") == "U",
        )
    ]


def _syevd(op: Op, args: list) -> list:
    _expect(op, 1, 3, args)
    lower = _lower(op)
    return list(lapack.eigh(_square(op, args), lower=lower))


def _xla_eigh(op: Op, args: list) -> list:
    """XLA's `@Eigh`: `(vectors, values)`; `backend_config` "lower,sort,max_iter,tol"."""
    _expect(op, 1, 2, args)
    config = op.attributes.get("backend_config", "")
    fields = config.split(",") if isinstance(config, str) and config else []
    lower = fields[0] != "0" if fields else True
    v, w, _ = lapack.eigh(_square(op, args), lower=lower)
    return [v, w]


def _gesdd(op: Op, args: list) -> list:
    """`(a, s, u, vt, info)`; `mode` 'A' (full), 'S' (reduced), 'N' (values only),
    or on GPUs `full_matrices` and `compute_uv` (the Jacobi SVD, `gesvdj`,
    returns `V` where the others return `V^H`)."""
    _expect(op, 1, 5, args)
    a = _matrix(op, args)
    if "mode" in _config(op):
        mode = _char(op, "mode", "A")
        full, compute_uv = mode == "A", mode != "N"
    else:
        full = _flag(op, "full_matrices", True)
        compute_uv = _flag(op, "compute_uv", True)
    if _flag(op, "transposed", False):
        raise UnsupportedOpError(
            f"custom call @{_target(op)} with transposed = true: the interpreter has no "
            "semantics for the transposed form"
        )
    s, u, vh, info = lapack.svd(a, full_matrices=full, compute_uv=compute_uv)
    if not compute_uv:  # not written: zeros of whatever shape the call declares
        u, vh = np.zeros(_shape(op, 2), u.dtype), np.zeros(_shape(op, 3), vh.dtype)
    elif _target(op).endswith("gesvdj_ffi"):  # Jacobi SVD writes V, not V^H
        vh = np.conj(np.swapaxes(vh, -1, -2))
    return [a, s, u, vh, info]


def _geev(op: Op, args: list) -> list:
    """Real: `(wr, wi, vl, vr, info)`; complex: `(w, vl, vr, info)`."""
    a = _square(op, args)
    complex_input = a.dtype.kind == "c"
    _expect(op, 1, 4 if complex_input else 5, args)
    w, vl, vr, info = lapack.eig(
        a, left=_char(op, "compute_left", "N") == "V", right=_char(op, "compute_right", "V") == "V"
    )
    if complex_input:
        return [w, vl, vr, info]
    return [w.real, w.imag, vl, vr, info]


def _pivots_to_permutation(op: Op, args: list) -> list:
    _expect(op, 1, 1, args)
    pivots = np.asarray(args[0])
    if pivots.dtype.kind not in "iu" or pivots.ndim < 1:
        raise IRError(f"custom call @{_target(op)}: pivots must be integers, not {pivots.dtype}")
    return [lapack.pivots_to_permutation(pivots, _shape(op, 0)[-1])]


def _xla_lu(op: Op, args: list) -> list:
    """XLA's `@LuDecomposition`: `(lu, pivots 0-based, permutation)`."""
    _expect(op, 1, 3, args)
    lu, ipiv, _ = lapack.getrf(_matrix(op, args))
    pivots = ipiv - 1
    return [lu, pivots, lapack.pivots_to_permutation(pivots, _shape(op, 2)[-1])]


_LAPACK_ROUTINES: dict[str, Semantics] = {
    "getrf": _getrf,
    "geqrf": _geqrf,
    "geqp3": _geqp3,
    "gehrd": _gehrd,
    "gtsv": _gtsv,
    "orgqr": _orgqr,
    "ungqr": _orgqr,
    "potrf": _potrf,
    "trsm": _trsm,
    "syevd": _syevd,
    "heevd": _syevd,
    "gesdd": _gesdd,
    "gesvd": _gesdd,
    "geev": _geev,
}

_GPU_ROUTINES: dict[str, Semantics] = {
    "getrf": _getrf,
    "geqrf": _geqrf,
    "orgqr": _orgqr,
    "potrf": _potrf,
    "syevd": _syevd,
    "syevj": _syevd,
    "gesvd": _gesdd,
    "gesvdj": _gesdd,
}

_TABLE: dict[str, Semantics] = {
    "Sharding": _identity,
    "annotate_device_placement": _identity,
    "SPMDFullToShardShape": _identity,
    "SPMDShardToFullShape": _identity,
    "cu_lu_pivots_to_permutation": _pivots_to_permutation,
    "hip_lu_pivots_to_permutation": _pivots_to_permutation,
    "MoveToHost": _identity,  # memory spaces and layouts leave the values alone
    "MoveToDevice": _identity,
    "LayoutConstraint": _identity,
    "mhlo.erf": _erf,
    "mhlo.topk": _top_k,
    "ApproxTopK": _approx_top_k,
    "PartialReduce": _approx_top_k,
    "Qr": _geqrf,
    "QrDecompositionBlock": _geqrf,  # the blocked form of the same factorization
    "ProductOfElementaryHouseholderReflectors": _householder_product,
    "Eigh": _xla_eigh,
    "LuDecomposition": _xla_lu,
}
