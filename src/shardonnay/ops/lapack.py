"""Dense linear algebra in numpy, as LAPACK computes it.

The kernels behind JAX's linear algebra on CPU (`lapack_*_ffi` custom calls)
and GPU (`cusolver_*` / `hipsolver_*`), and behind `stablehlo.cholesky` and
`stablehlo.triangular_solve`. Every function works on stacks of matrices
(the last two dims; the leading ones are batch dims) and returns what the
LAPACK routine writes: packed factors, 1-based pivots, `info` codes. The
arithmetic is float64 / complex128; results are rounded to the declared
types by the interpreter.

Where numpy calls the same LAPACK driver (`gesdd`, `syevd`/`heevd`, `geev`,
`geqrf`), it is used; the others are LAPACK's unblocked algorithms (`getf2`,
`potf2`, `org2r`, `trsm` by substitution): the same factors, up to
rounding. Singular and eigen vectors are unique up to sign (phase), which
LAPACK builds may choose differently.

>>> a = np.array([[4.0, 2.0], [2.0, 3.0]])
>>> factor, info = potrf(a, lower=True)
>>> np.round(factor, 6).tolist(), int(info)
([[2.0, 2.0], [1.0, 1.414214]], 0)
"""

from __future__ import annotations

import numpy as np

__all__ = [
    "eig",
    "eigh",
    "gehrd",
    "geqp3",
    "geqrf",
    "getrf",
    "gtsv",
    "orgqr",
    "pivots_to_permutation",
    "potrf",
    "svd",
    "trsm",
]


def _wide(a: np.ndarray) -> np.ndarray:
    a = np.asarray(a)
    return a.astype(np.complex128 if a.dtype.kind == "c" else np.float64)


def _conj_t(a: np.ndarray) -> np.ndarray:
    return np.conj(np.swapaxes(a, -1, -2))


# -- LU: getrf ---------------------------------------------------------------------------------


def getrf(a: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """LU with partial pivoting (`?getrf`): `(lu, ipiv, info)`.

    `lu` holds `L` (unit diagonal, below) and `U` (on and above the
    diagonal) of `P A = L U`; `ipiv[k]` (1-based) is the row swapped with
    row `k` at step `k` (the first of the largest `|re| + |im|`, as `i?amax`
    picks); `info` is the 1-based index of the first exactly zero pivot, or 0.

    >>> lu, ipiv, info = getrf(np.array([[1.0, 2.0], [3.0, 4.0]]))
    >>> lu.tolist(), ipiv.tolist(), int(info)
    ([[3.0, 4.0], [0.3333333333333333, 0.6666666666666667]], [2, 2], 0)
    """
    lu = _wide(a).copy()
    *batch, m, n = lu.shape
    k = min(m, n)
    flat = lu.reshape(-1, m, n)
    ipiv = np.zeros((flat.shape[0], k), np.int32)
    info = np.zeros(flat.shape[0], np.int32)
    rows = np.arange(flat.shape[0])
    for j in range(k):
        column = flat[:, j:, j]
        magnitude = np.abs(column.real) + np.abs(column.imag)
        p = j + np.argmax(magnitude, axis=1)
        ipiv[:, j] = p + 1
        top, pivot_row = flat[rows, j, :].copy(), flat[rows, p, :].copy()
        flat[rows, j, :], flat[rows, p, :] = pivot_row, top
        pivot = flat[:, j, j]
        zero = pivot == 0
        info = np.where((info == 0) & zero, j + 1, info).astype(np.int32)
        safe = np.where(zero, 1, pivot)
        scaled = flat[:, j + 1 :, j] / safe[:, None]
        flat[:, j + 1 :, j] = np.where(zero[:, None], flat[:, j + 1 :, j], scaled)
        flat[:, j + 1 :, j + 1 :] -= flat[:, j + 1 :, j, None] * flat[:, j, None, j + 1 :]
    return lu, ipiv.reshape(*batch, k), info.reshape(batch)


def pivots_to_permutation(pivots: np.ndarray, size: int) -> np.ndarray:
    """The row permutation of 0-based swap `pivots` (row `k` swapped with row
    `pivots[k]`, in order) on `size` rows.

    >>> pivots_to_permutation(np.array([2, 2, 2]), 3).tolist()
    [2, 0, 1]
    """
    pivots = np.asarray(pivots)
    *batch, k = pivots.shape
    flat = pivots.reshape(-1, k)
    perm = np.tile(np.arange(size, dtype=np.int64), (flat.shape[0], 1))
    rows = np.arange(flat.shape[0])
    for j in range(min(k, size)):
        p = np.clip(flat[:, j], 0, size - 1)
        here, there = perm[rows, j].copy(), perm[rows, p].copy()
        perm[rows, j], perm[rows, p] = there, here
    return perm.reshape(*batch, size)


def gtsv(
    dl: np.ndarray, d: np.ndarray, du: np.ndarray, b: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Tridiagonal solve by Gaussian elimination with partial pivoting
    (`?gtsv`): `(dl, d, du, x, info)` for `A x = b`, `A` with subdiagonal
    `dl[1:]`, diagonal `d` and superdiagonal `du[:-1]` (JAX's layout: all of
    length `n`); the first three are the factors LAPACK leaves (in the same
    layout), `info` the 1-based index of the first zero pivot (then `x` is
    LAPACK's partial result).

    >>> dl, d, du, x, info = gtsv(np.array([0.0, 1.0]), np.array([2.0, 2.0]),
    ...                           np.array([1.0, 0.0]), np.array([[3.0], [3.0]]))
    >>> x.tolist(), int(info)
    ([[1.0], [1.0]], 0)
    """
    dl, d, du, b = _wide(dl).copy(), _wide(d).copy(), _wide(du).copy(), _wide(b).copy()
    n = d.shape[-1]
    batch = d.shape[:-1]
    sub, diag, sup = dl.reshape(-1, n), d.reshape(-1, n), du.reshape(-1, n)
    rhs = b.reshape(-1, *b.shape[-2:])
    info = np.zeros(sub.shape[0], np.int32)

    def magnitude(z: np.ndarray) -> np.ndarray:  # LAPACK's cabs1 for complex
        return np.abs(z.real) + np.abs(z.imag)

    for i in range(n - 1):
        alive = info == 0
        keep = magnitude(diag[:, i]) >= magnitude(sub[:, i + 1])
        zero = alive & keep & (diag[:, i] == 0)
        info = np.where(zero, i + 1, info).astype(np.int32)
        go = alive & ~zero
        plain, swap = go & keep, go & ~keep
        with np.errstate(divide="ignore", invalid="ignore"):
            fact = np.where(plain, sub[:, i + 1] / np.where(plain, diag[:, i], 1), 0)
            fact_swap = np.where(swap, diag[:, i] / np.where(swap, sub[:, i + 1], 1), 0)
        last = i == n - 2
        # No interchange: eliminate the subdiagonal entry.
        d_next = np.where(plain, diag[:, i + 1] - fact * sup[:, i], diag[:, i + 1])
        b_next = np.where(plain[:, None], rhs[:, i + 1] - fact[:, None] * rhs[:, i], rhs[:, i + 1])
        # Interchange rows i and i + 1.
        old_d_next, old_b, old_b_next = (
            diag[:, i + 1].copy(),
            rhs[:, i].copy(),
            rhs[:, i + 1].copy(),
        )
        new_sub = sup[:, i + 1] if not last else sub[:, i + 1]
        diag[:, i] = np.where(swap, sub[:, i + 1], diag[:, i])
        diag[:, i + 1] = np.where(swap, sup[:, i] - fact_swap * old_d_next, d_next)
        if not last:
            sub_i = np.where(swap, new_sub, np.where(plain, 0, sub[:, i + 1]))
            sup[:, i + 1] = np.where(swap, -fact_swap * sub_i, sup[:, i + 1])
            sub[:, i + 1] = sub_i
        sup[:, i] = np.where(swap, old_d_next, sup[:, i])
        rhs[:, i] = np.where(swap[:, None], old_b_next, rhs[:, i])
        rhs[:, i + 1] = np.where(swap[:, None], old_b - fact_swap[:, None] * old_b_next, b_next)
    if n:
        info = np.where((info == 0) & (diag[:, n - 1] == 0), n, info).astype(np.int32)
    solved = info == 0
    x = rhs.copy()
    with np.errstate(divide="ignore", invalid="ignore"):
        for i in reversed(range(n)):
            value = x[:, i].copy()
            if i + 1 < n:
                value -= sup[:, i, None] * x[:, i + 1]
            if i + 2 < n:
                value -= sub[:, i + 1, None] * x[:, i + 2]
            pivot = np.where(solved, diag[:, i], 1)[:, None]
            x[:, i] = np.where(solved[:, None], value / pivot, x[:, i])
    return (
        sub.reshape(dl.shape),
        diag.reshape(d.shape),
        sup.reshape(du.shape),
        x.reshape(b.shape),
        info.reshape(batch),
    )


# -- QR: geqrf, orgqr --------------------------------------------------------------------------


def geqrf(a: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Householder QR (`?geqrf`): `(packed, taus)`; `R` on and above the
    diagonal, the reflectors' vectors below it (their leading 1 implied),
    `H_k = I - tau_k v_k v_k^H`, `Q = H_1 ... H_k`.

    >>> packed, taus = geqrf(np.array([[3.0], [4.0]]))
    >>> packed.tolist(), taus.tolist()
    ([[-5.0], [0.5]], [1.6])
    """
    a = _wide(a)
    *batch, m, n = a.shape
    k = min(m, n)
    if a.size == 0:
        return a.copy(), np.zeros((*batch, k), a.dtype)
    h, taus = np.linalg.qr(a, mode="raw")
    return np.swapaxes(h, -1, -2), taus


def _reflector(x: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """`?larfg` on each row of `x` (a stack of vectors): `(beta, v, tau)` with
    `(I - tau [1; v] [1; v]^H)^H x = [beta; 0]`, `beta` real; `tau = 0` where
    `x` needs no reflection."""
    alpha, rest = x[:, 0], x[:, 1:]
    norm = np.sqrt(np.sum(np.abs(rest) ** 2, axis=1))
    identity = (norm == 0) & (np.imag(alpha) == 0)
    beta = -np.copysign(np.sqrt(np.abs(alpha) ** 2 + norm**2), np.real(alpha))
    safe_beta = np.where(identity, 1, beta)
    tau = np.where(identity, 0, (safe_beta - alpha) / safe_beta)
    scale = np.where(identity, 1, alpha - safe_beta)
    v = np.where(identity[:, None], 0, rest / scale[:, None])
    return np.where(identity, alpha, beta).astype(x.dtype), v.astype(x.dtype), tau.astype(x.dtype)


def _reflect_left(block: np.ndarray, v: np.ndarray, tau: np.ndarray) -> None:
    """`block := (I - conj(tau) w w^H) block` for `w = [1; v]`, in place (stacked)."""
    w = np.concatenate([np.ones((v.shape[0], 1), v.dtype), v], axis=1)
    product = np.einsum("bi,bij->bj", np.conj(w), block)
    block -= np.conj(tau)[:, None, None] * w[:, :, None] * product[:, None, :]


def _reflect_right(block: np.ndarray, v: np.ndarray, tau: np.ndarray) -> None:
    """`block := block (I - tau w w^H)` for `w = [1; v]`, in place (stacked)."""
    w = np.concatenate([np.ones((v.shape[0], 1), v.dtype), v], axis=1)
    product = np.einsum("bij,bj->bi", block, w)
    block -= tau[:, None, None] * product[:, :, None] * np.conj(w)[:, None, :]


def geqp3(a: np.ndarray, jpvt: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """QR with column pivoting (`?geqp3`): `(packed, jpvt, taus)`, `A P = Q R`.

    Columns with a nonzero `jpvt` entry are moved to the front first (in
    order); then each step takes the free column of largest remaining norm.
    `jpvt[j]` (1-based) is the column of `A` that is column `j` of `A P`.

    >>> packed, jpvt, taus = geqp3(np.array([[1.0, 0.0], [0.0, 2.0]]), np.zeros(2, np.int32))
    >>> jpvt.tolist(), np.diag(packed).tolist()
    ([2, 1], [-2.0, -1.0])
    """
    a = _wide(a).copy()
    *batch, m, n = a.shape
    k = min(m, n)
    flat = a.reshape(-1, m, n)
    count = flat.shape[0]
    fixed = np.asarray(jpvt).reshape(count, n) != 0
    order = np.argsort(~fixed, axis=1, kind="stable")  # fixed columns first, in order
    flat = np.take_along_axis(flat, order[:, None, :], axis=2)
    n_fixed = fixed.sum(axis=1)
    taus = np.zeros((count, k), flat.dtype)
    rows = np.arange(count)
    for j in range(k):
        norms = np.sqrt(np.sum(np.abs(flat[:, j:, j:]) ** 2, axis=1))
        free = np.arange(j, n)[None, :] >= np.maximum(n_fixed, j)[:, None]
        candidates = np.where(free, norms, -1)
        p = np.where(j < n_fixed, j, j + np.argmax(candidates, axis=1))
        here, there = flat[rows, :, j].copy(), flat[rows, :, p].copy()
        flat[rows, :, j], flat[rows, :, p] = there, here
        o_here, o_there = order[rows, j].copy(), order[rows, p].copy()
        order[rows, j], order[rows, p] = o_there, o_here
        beta, v, tau = _reflector(flat[:, j:, j])
        taus[:, j] = tau
        _reflect_left(flat[:, j:, j + 1 :], v, tau)
        flat[:, j, j] = beta
        flat[:, j + 1 :, j] = v
    return (
        flat.reshape(a.shape),
        (order + 1).astype(np.int32).reshape(*batch, n),
        taus.reshape(*batch, k),
    )


def gehrd(a: np.ndarray, *, low: int = 1, high: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    """Reduction to upper Hessenberg form (`?gehrd`): `(packed, taus)`,
    `A = Q H Q^H`; rows and columns `low..high` (1-based) are reduced, `H`
    on and above the first subdiagonal, the reflectors' vectors below it,
    `taus` of length `n - 1` (zero outside `low..high - 1`).

    >>> packed, taus = gehrd(np.array([[1.0, 2.0, 0.0], [3.0, 4.0, 0.0], [4.0, 0.0, 5.0]]))
    >>> float(packed[1, 0]), taus.tolist()
    (-5.0, [1.6, 0.0])
    """
    a = _wide(a).copy()
    n = a.shape[-1]
    high = n if high is None else high
    flat = a.reshape(-1, n, n)
    taus = np.zeros((flat.shape[0], max(n - 1, 0)), flat.dtype)
    for i in range(low - 1, high - 1):
        beta, v, tau = _reflector(flat[:, i + 1 : high, i])
        taus[:, i] = tau
        _reflect_right(flat[:, :high, i + 1 : high], v, tau)
        _reflect_left(flat[:, i + 1 : high, i + 1 :], v, tau)
        flat[:, i + 1, i] = beta
        flat[:, i + 2 : high, i] = v
    return flat.reshape(a.shape), taus.reshape(*a.shape[:-2], max(n - 1, 0))


def orgqr(packed: np.ndarray, taus: np.ndarray) -> np.ndarray:
    """The first `n` columns of `Q = H_1 ... H_k` from `geqrf`'s output
    (`?orgqr` / `?ungqr`), by `?org2r`'s algorithm.

    >>> q = orgqr(*geqrf(np.array([[3.0], [4.0]])))
    >>> np.round(q, 12).tolist()
    [[-0.6], [-0.8]]
    """
    packed, taus = _wide(packed), _wide(taus)
    *batch, m, n = packed.shape
    k = taus.shape[-1]
    flat = packed.reshape(-1, m, n)
    flat_taus = taus.reshape(-1, k)
    q = np.zeros_like(flat)
    q[:, np.arange(min(m, n)), np.arange(min(m, n))] = 1
    for j in reversed(range(min(k, n))):
        v = np.zeros((flat.shape[0], m), flat.dtype)
        v[:, j] = 1
        v[:, j + 1 :] = flat[:, j + 1 :, j]
        w = np.einsum("bi,bij->bj", np.conj(v), q)
        q -= flat_taus[:, j, None, None] * v[:, :, None] * w[:, None, :]
    return q.reshape(*batch, m, n)


# -- Cholesky: potrf ---------------------------------------------------------------------------


def potrf(a: np.ndarray, *, lower: bool) -> tuple[np.ndarray, np.ndarray]:
    """Cholesky factorization (`?potrf`): `(factor, info)`.

    Reads the `lower` (else upper) triangle of each Hermitian matrix and
    writes `L` with `A = L L^H` there (else `U` with `A = U^H U`); the other
    triangle keeps the input's values. `info` is the 1-based order of the
    first leading minor that is not positive definite (the factorization
    stops there), or 0.

    >>> factor, info = potrf(np.array([[1.0, 2.0], [2.0, 1.0]]), lower=True)
    >>> int(info)
    2
    """
    a = _wide(a)
    *batch, n, _ = a.shape
    source = a if lower else _conj_t(a)
    flat = source.reshape(-1, n, n)
    factor = np.zeros_like(flat)
    info = np.zeros(flat.shape[0], np.int32)
    for j in range(n):
        row = factor[:, j, :j]
        d = flat[:, j, j].real - np.sum(np.abs(row) ** 2, axis=1)
        failed = (info == 0) & ~(d > 0)
        info = np.where(failed, j + 1, info).astype(np.int32)
        going = info == 0
        root = np.sqrt(np.where(going, d, 1.0))
        factor[:, j, j] = np.where(going, root, 0)
        below = flat[:, j + 1 :, j] - np.einsum("bik,bk->bi", factor[:, j + 1 :, :j], np.conj(row))
        factor[:, j + 1 :, j] = np.where(going[:, None], below / root[:, None], 0)
    factor = factor.reshape(a.shape)
    if not lower:
        factor = _conj_t(factor)
    mask = np.tril(np.ones((n, n), bool)) if lower else np.triu(np.ones((n, n), bool))
    done = (info == 0).reshape(*batch, 1, 1)
    # Where it failed, LAPACK leaves a partial factor; here the input stays.
    return np.where(mask & done, factor, a), info.reshape(batch)


# -- triangular solves: trsm -------------------------------------------------------------------


def trsm(
    a: np.ndarray,
    b: np.ndarray,
    *,
    left_side: bool,
    lower: bool,
    transpose: str = "N",
    unit_diagonal: bool = False,
) -> np.ndarray:
    """The solution `x` of `op(A) x = b` (`left_side`) or `x op(A) = b`
    (`?trsm` with alpha 1), `A` the `lower` (else upper) triangle of `a`
    (with ones on its diagonal for `unit_diagonal`), `op` one of `"N"`
    (none), `"T"` (transpose), `"C"` (conjugate transpose). By substitution:
    a zero on the diagonal gives infinities or NaNs, as LAPACK does.

    >>> trsm(np.array([[2.0, 0.0], [1.0, 1.0]]), np.array([[2.0], [3.0]]),
    ...      left_side=True, lower=True).tolist()
    [[1.0], [2.0]]
    """
    a, b = _wide(a), _wide(b)
    n = a.shape[-1]
    t = np.tril(a) if lower else np.triu(a)
    if unit_diagonal:
        t = t.copy()
        t[..., np.arange(n), np.arange(n)] = 1
    if transpose in ("T", "C"):
        t = np.swapaxes(t, -1, -2)
        if transpose == "C":
            t = np.conj(t)
        lower = not lower
    if not left_side:  # x T = b  <=>  T^T x^T = b^T
        t, b, lower = np.swapaxes(t, -1, -2), np.swapaxes(b, -1, -2), not lower
    shape = np.broadcast_shapes(t.shape[:-2], b.shape[:-2]) + b.shape[-2:]
    x = np.zeros(shape, np.result_type(t, b))
    order = range(n) if lower else reversed(range(n))
    with np.errstate(divide="ignore", invalid="ignore"):
        for i in order:
            known = np.einsum("...k,...kj->...j", t[..., i, :], x)
            x[..., i, :] = (b[..., i, :] - known) / t[..., i, i, None]
    return x if left_side else np.swapaxes(x, -1, -2)


# -- eigen and singular value decompositions ----------------------------------------------------


def eigh(a: np.ndarray, *, lower: bool) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Hermitian eigendecomposition (`?syevd` / `?heevd`) of the `lower`
    (else upper) triangle: `(vectors, values ascending, info)`.

    >>> v, w, info = eigh(np.array([[2.0, 0.0], [0.0, 1.0]]), lower=True)
    >>> w.tolist(), np.abs(v).tolist()
    ([1.0, 2.0], [[0.0, 1.0], [1.0, 0.0]])
    """
    a = _wide(a)
    batch = a.shape[:-2]
    if a.size == 0:
        return a.copy(), np.zeros(a.shape[:-1]), np.zeros(batch, np.int32)
    finite = np.all(np.isfinite(a), axis=(-2, -1))
    safe = np.where(finite[..., None, None], a, 0)
    w, v = np.linalg.eigh(safe, UPLO="L" if lower else "U")
    nan = ~finite[..., None]
    w = np.where(nan, np.nan, w)
    v = np.where(nan[..., None], np.nan, v)
    return v, w, np.where(finite, 0, 1).astype(np.int32)


def svd(
    a: np.ndarray, *, full_matrices: bool, compute_uv: bool = True
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Singular values, descending, and vectors (`?gesdd`): `(s, u, vh, info)`,
    `a = u diag(s) vh`; without `compute_uv`, `u` and `vh` are zeros of the
    shapes `full_matrices` gives.

    >>> s, u, vh, info = svd(np.array([[3.0, 0.0], [0.0, -4.0]]), full_matrices=True)
    >>> s.tolist(), int(info)
    ([4.0, 3.0], 0)
    """
    a = _wide(a)
    *batch, m, n = a.shape
    k = min(m, n)
    rows, cols = (m, n) if full_matrices else (k, k)
    finite = np.all(np.isfinite(a), axis=(-2, -1))
    safe = np.where(finite[..., None, None], a, 0)
    if a.size == 0:
        s = np.zeros((*batch, k))
        u = np.zeros((*batch, m, rows), a.dtype)
        vh = np.zeros((*batch, cols, n), a.dtype)
        eye_m, eye_n = np.eye(m, rows), np.eye(cols, n)
        u, vh = u + eye_m, vh + eye_n
    elif compute_uv:
        u, s, vh = np.linalg.svd(safe, full_matrices=full_matrices)
    else:
        s = np.linalg.svd(safe, compute_uv=False)
        u = np.zeros((*batch, m, rows), a.dtype)
        vh = np.zeros((*batch, cols, n), a.dtype)
    nan = ~finite
    s = np.where(nan[..., None], np.nan, s)
    u = np.where(nan[..., None, None], np.nan, u)
    vh = np.where(nan[..., None, None], np.nan, vh)
    return s, u, vh, np.where(finite, 0, 1).astype(np.int32)


def eig(
    a: np.ndarray, *, left: bool, right: bool
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """General eigendecomposition (`?geev`): `(values, left vectors, right
    vectors, info)`, each vector of unit norm with its largest component
    real (`vl^H a = w vl^H`, `a vr = w vr`); vectors not asked for are zeros.

    >>> w, vl, vr, info = eig(np.array([[0.0, -1.0], [1.0, 0.0]]), left=False, right=True)
    >>> sorted(w.tolist(), key=lambda z: z.imag)
    [-1j, 1j]
    """
    a = _wide(a)
    batch = a.shape[:-2]
    finite = np.all(np.isfinite(a), axis=(-2, -1))
    safe = np.where(finite[..., None, None], a, 0)
    zeros = np.zeros(a.shape, np.complex128)
    if a.size == 0:
        return np.zeros(a.shape[:-1], np.complex128), zeros, zeros, np.zeros(batch, np.int32)
    w, vr = np.linalg.eig(safe)
    w, vr = w.astype(np.complex128), vr.astype(np.complex128)
    vl = zeros
    if left:
        vl = _normalized(_conj_t(np.linalg.inv(vr)))
    if not right:
        vr = zeros
    nan = ~finite
    w = np.where(nan[..., None], np.nan, w)
    vl = np.where(nan[..., None, None], np.nan, vl)
    vr = np.where(nan[..., None, None], np.nan, vr)
    return w, vl, vr, np.where(finite, 0, 1).astype(np.int32)


def _normalized(vectors: np.ndarray) -> np.ndarray:
    """Columns scaled to unit norm with their largest component real, as geev."""
    norms = np.linalg.norm(vectors, axis=-2, keepdims=True)
    v = vectors / np.where(norms == 0, 1, norms)
    largest = np.take_along_axis(v, np.argmax(np.abs(v), axis=-2)[..., None, :], axis=-2)
    phase = np.where(largest == 0, 1, np.conj(largest) / np.abs(np.where(largest == 0, 1, largest)))
    return v * phase
