"""`stablehlo.convolution`: syntax, types, numpy semantics and sharding rule.

%0 = stablehlo.convolution(%x, %w) dim_numbers = [b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f],
    window = {stride = [1, 1], pad = [[0, 0], [0, 0]]} {batch_group_count = 1 : i64,
    feature_group_count = 1 : i64} : (tensor<1x8x8x3xf32>, tensor<3x3x3x4xf32>)
    -> tensor<1x6x6x4xf32>
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

import numpy as np

from shardonnay.errors import IRError
from shardonnay.ir.attributes import (
    DenseArrayAttr,
    DenseElementsAttr,
    IntegerAttr,
    OpaqueAttr,
)
from shardonnay.ir.core import Op
from shardonnay.ir.types import TensorType, Type
from shardonnay.ops.linalg import (
    accumulator_dtype,
    bool_list,
    finish_rule,
    i64_list,
    int_list_str,
    padding_attr,
    padding_pairs,
    parse_type_and_check,
    read_int_list,
    result_element_type,
    round_to_result,
    tensor_type,
    verify_contraction,
)
from shardonnay.ops.registry import OpDef, mark_inherent, register
from shardonnay.ops.traits import CONTRACTION, ConservativeRule, NeedsCommunication
from shardonnay.sharding_rule import OpShardingRule, RuleBuilder

_CONV_PREFIX = "#stablehlo.conv<"
_RAW_FIELD = re.compile(r"\s*([a-z_]+)\s*=\s*(\[[^\]]*\]|-?\d+)\s*,?")
# `[b, 0, f]x[0, i, o]->[b, 0, f]`: the layouts of the input, kernel and output.
_COMPACT_DIMENSIONS = re.compile(r"\[([^\]]*)\]\s*x\s*\[([^\]]*)\]\s*->\s*\[([^\]]*)\]")


@dataclass(frozen=True)
class ConvDimensions:
    """The layout of a convolution's operands and result (`#stablehlo.conv<...>`).

    >>> d = ConvDimensions.parse("[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]")
    >>> d.input_feature, d.kernel_spatial, str(d)
    (3, (0, 1), '[b, 0, 1, f]x[0, 1, i, o]->[b, 0, 1, f]')
    """

    input_batch: int
    input_feature: int
    input_spatial: tuple[int, ...]
    kernel_input_feature: int
    kernel_output_feature: int
    kernel_spatial: tuple[int, ...]
    output_batch: int
    output_feature: int
    output_spatial: tuple[int, ...]

    @classmethod
    def parse(cls, text: str) -> ConvDimensions:
        """The compact form `[b, 0, f]x[0, i, o]->[b, 0, f]`, the same inside
        `#stablehlo.conv<...>`, or its `raw input_batch_dimension = 0, ...` form."""
        text = text.strip()
        if text.startswith(_CONV_PREFIX) and text.endswith(">"):
            text = text[len(_CONV_PREFIX) : -1].strip()
        if text.startswith("raw"):
            return cls._parse_raw(text[3:])
        m = _COMPACT_DIMENSIONS.fullmatch(text)
        if m is None:
            raise ValueError(f"not convolution dimension numbers: {text!r}")
        lhs = _conv_layout(m.group(1), "bf", text)
        rhs = _conv_layout(m.group(2), "io", text)
        out = _conv_layout(m.group(3), "bf", text)
        return cls(lhs[0], lhs[1], lhs[2], rhs[0], rhs[1], rhs[2], out[0], out[1], out[2])

    @classmethod
    def _parse_raw(cls, body: str) -> ConvDimensions:
        fields: dict[str, Any] = {}
        pos = 0
        while pos < len(body.strip()):
            m = _RAW_FIELD.match(body, pos)
            if m is None:
                raise ValueError(f"bad raw convolution dimension numbers: {body!r}")
            value = m.group(2)
            if value.startswith("["):
                fields[m.group(1)] = tuple(int(v) for v in value[1:-1].split(",") if v.strip())
            else:
                fields[m.group(1)] = int(value)
            pos = m.end()
        names = {
            "input_batch": "input_batch_dimension",
            "input_feature": "input_feature_dimension",
            "input_spatial": "input_spatial_dimensions",
            "kernel_input_feature": "kernel_input_feature_dimension",
            "kernel_output_feature": "kernel_output_feature_dimension",
            "kernel_spatial": "kernel_spatial_dimensions",
            "output_batch": "output_batch_dimension",
            "output_feature": "output_feature_dimension",
            "output_spatial": "output_spatial_dimensions",
        }
        try:
            return cls(**{k: fields[v] for k, v in names.items()})
        except KeyError as e:
            raise ValueError(f"raw convolution dimension numbers lack {e}") from None

    def __str__(self) -> str:
        def layout(rank, a, a_name, b, b_name, spatial) -> str:
            labels = ["?"] * rank
            labels[a], labels[b] = a_name, b_name
            for i, d in enumerate(spatial):
                labels[d] = str(i)
            return "[" + ", ".join(labels) + "]"

        n = len(self.input_spatial) + 2
        return (
            layout(n, self.input_batch, "b", self.input_feature, "f", self.input_spatial)
            + "x"
            + layout(
                n,
                self.kernel_input_feature,
                "i",
                self.kernel_output_feature,
                "o",
                self.kernel_spatial,
            )
            + "->"
            + layout(n, self.output_batch, "b", self.output_feature, "f", self.output_spatial)
        )

    def attr(self) -> OpaqueAttr:
        return OpaqueAttr(f"{_CONV_PREFIX}{self}>")


def _conv_layout(body: str, letters: str, text: str) -> tuple[int, int, tuple[int, ...]]:
    labels = [s.strip() for s in body.split(",")] if body.strip() else []
    first = second = -1
    spatial: dict[int, int] = {}
    for pos, label in enumerate(labels):
        if label == letters[0] and first < 0:
            first = pos
        elif label == letters[1] and second < 0:
            second = pos
        elif label.isdigit() and int(label) not in spatial:
            spatial[int(label)] = pos
        else:
            raise ValueError(f"unexpected or repeated '{label}' in {text!r}")
    if first < 0 or second < 0 or sorted(spatial) != list(range(len(spatial))):
        raise ValueError(f"incomplete convolution layout [{body}] in {text!r}")
    return first, second, tuple(spatial[i] for i in range(len(spatial)))


def conv_dimensions(op: Op) -> ConvDimensions:
    value = op.attributes.get("dimension_numbers")
    if value is None:
        raise IRError(f"{op.name}: needs dimension_numbers = #stablehlo.conv<...>")
    try:
        return ConvDimensions.parse(str(value))
    except ValueError as e:
        raise IRError(f"{op.name}: {e}") from None


_WINDOW_KEYS = {
    "stride": "window_strides",
    "pad": "padding",
    "lhs_dilate": "lhs_dilation",
    "rhs_dilate": "rhs_dilation",
    "reverse": "window_reversal",
}


@dataclass(frozen=True)
class ConvWindow:
    """The window of a convolution, with defaults filled in."""

    strides: tuple[int, ...]
    padding: tuple[tuple[int, int], ...]
    lhs_dilation: tuple[int, ...]
    rhs_dilation: tuple[int, ...]
    reversal: tuple[bool, ...]
    feature_group_count: int
    batch_group_count: int

    @classmethod
    def of(cls, op: Op, n: int) -> ConvWindow:
        ones = (1,) * n
        window = cls(
            i64_list(op, "window_strides", ones),
            tuple(padding_pairs(op, n)),
            i64_list(op, "lhs_dilation", ones),
            i64_list(op, "rhs_dilation", ones),
            bool_list(op, "window_reversal", (False,) * n),
            _count(op, "feature_group_count"),
            _count(op, "batch_group_count"),
        )
        for key, values in (
            ("window_strides", window.strides),
            ("lhs_dilation", window.lhs_dilation),
            ("rhs_dilation", window.rhs_dilation),
            ("window_reversal", window.reversal),
        ):
            if len(values) != n:
                raise IRError(f"{op.name}: {key} has {len(values)} entries for {n} spatial dims")
            if key != "window_reversal" and any(v < 1 for v in values):
                raise IRError(f"{op.name}: {key} must be positive, not {list(values)}")
        return window


def _count(op: Op, key: str) -> int:
    value = op.attributes.get(key, IntegerAttr(1))
    count = value.value if isinstance(value, IntegerAttr) else value
    if not isinstance(count, int) or isinstance(count, bool) or count < 1:
        raise IRError(f"{op.name}: {key} must be a positive integer, not {value}")
    return count


def conv_output_spatial(input_sizes, kernel_sizes, window: ConvWindow) -> tuple[int, ...]:
    """The spatial sizes of a convolution's result."""
    out = []
    for i, (size, k) in enumerate(zip(input_sizes, kernel_sizes, strict=True)):
        lo, hi = window.padding[i]
        dilated = (size - 1) * window.lhs_dilation[i] + 1 if size else 0
        padded = dilated + lo + hi
        span = (k - 1) * window.rhs_dilation[i] + 1 if k else 0
        out.append(0 if padded < span or span == 0 else (padded - span) // window.strides[i] + 1)
    return tuple(out)


def spatial_dims(op: Op) -> list[tuple[int, ...]]:
    """The spatial dims of the input, kernel and output of a `stablehlo.convolution`."""
    dims = conv_dimensions(op)
    return [dims.input_spatial, dims.kernel_spatial, dims.output_spatial]


class ConvolutionOp(OpDef):
    """`stablehlo.convolution(%x, %w) dim_numbers = [...]x[...]->[...], window = {...}
    {batch_group_count = 1 : i64, feature_group_count = 1 : i64} : (...) -> t`."""

    traits = frozenset(
        {
            CONTRACTION,
            ConservativeRule(unshared_dims=spatial_dims),
            NeedsCommunication("its padded spatial dims need a halo exchange"),
        }
    )

    _WINDOW = tuple(_WINDOW_KEYS.values())
    _ELIDED = ("dimension_numbers", *tuple(_WINDOW_KEYS.values()))

    def parse(self, p, name: str) -> Op:
        p.expect("(")
        operands = p.operands_until(")")
        p.expect(")")
        if len(operands) != 2:
            raise p.error("stablehlo.convolution takes two operands")
        p.expect("dim_numbers", "'dim_numbers'")
        p.expect("=")
        p.skip_space()
        m = p.match(
            _COMPACT_DIMENSIONS,
            "convolution dimension numbers like [b, 0, f]x[0, i, o]->[b, 0, f]",
        )
        try:
            dims = ConvDimensions.parse(m)
        except ValueError as e:
            raise p.error(str(e)) from None
        attrs: dict[str, Any] = {"dimension_numbers": dims.attr()}
        p.expect(",")
        p.expect("window", "'window'")
        p.expect("=")
        p.expect("{")
        if not p.accept("}"):
            while True:
                key = p.identifier("a window attribute (stride, pad, lhs_dilate, ...)")
                if key not in _WINDOW_KEYS or _WINDOW_KEYS[key] in attrs:
                    raise p.error(f"unexpected or repeated window attribute '{key}'")
                p.expect("=")
                attrs[_WINDOW_KEYS[key]] = _window_value(p, key)
                if p.accept("}"):
                    break
                p.expect(",", "',' or '}' in the window")
        for key, value in p.optional_attr_dict().items():
            attrs.setdefault(key, value)
        ftype = parse_type_and_check(p, operands)
        own = (*self._ELIDED, "feature_group_count", "batch_group_count", "precision_config")
        return mark_inherent(p.make_op(name, operands, ftype.results, attrs), own)

    def print(self, op: Op, w) -> None:
        attrs = op.attributes
        w.write("(")
        w.operands(op.operands)
        w.write(f") dim_numbers = {conv_dimensions(op)}, window = {{")
        parts = []
        for key, attr_name in _WINDOW_KEYS.items():
            if attr_name not in attrs:
                continue
            value = attrs[attr_name]
            if key == "pad":
                rank = value.type.shape[0] if isinstance(value, DenseElementsAttr) else 0
                pairs = padding_pairs(op, rank)
                text = "[" + ", ".join(f"[{lo}, {hi}]" for lo, hi in pairs) + "]"
            elif key == "reverse":
                flags = bool_list(op, attr_name, ())
                text = "[" + ", ".join("true" if f else "false" for f in flags) + "]"
            else:
                text = int_list_str(i64_list(op, attr_name))
            parts.append(f"{key} = {text}")
        w.write(", ".join(parts) + "}")
        w.attr_dict(op, self._ELIDED)
        w.write(" : ")
        w.functional_type(op)

    def infer_types(self, op: Op) -> list[Type] | None:
        lhs = tensor_type(op, op.operands[0].type, "lhs")
        rhs = tensor_type(op, op.operands[1].type, "rhs")
        dims = conv_dimensions(op)
        n = len(dims.input_spatial)
        if lhs.rank != n + 2 or rhs.rank != n + 2:
            raise IRError(
                f"{op.name}: operands of rank {lhs.rank}, {rhs.rank} for {n} spatial dims"
            )
        window = ConvWindow.of(op, n)
        batch = lhs.shape[dims.input_batch]
        in_features = lhs.shape[dims.input_feature]
        kernel_in = rhs.shape[dims.kernel_input_feature]
        out_features = rhs.shape[dims.kernel_output_feature]
        groups, batch_groups = window.feature_group_count, window.batch_group_count
        if in_features != kernel_in * groups:
            raise IRError(
                f"{op.name}: input feature size {in_features} must be the kernel's input feature "
                f"size {kernel_in} times feature_group_count {groups}"
            )
        if out_features % groups or out_features % batch_groups or batch % batch_groups:
            raise IRError(
                f"{op.name}: output features {out_features} and batch {batch} must divide by "
                f"the group counts ({groups}, {batch_groups})"
            )
        spatial = conv_output_spatial(
            [lhs.shape[d] for d in dims.input_spatial],
            [rhs.shape[d] for d in dims.kernel_spatial],
            window,
        )
        shape = [0] * (n + 2)
        shape[dims.output_batch] = batch // batch_groups
        shape[dims.output_feature] = out_features
        for d, size in zip(dims.output_spatial, spatial, strict=True):
            shape[d] = size
        return [TensorType(tuple(shape), result_element_type(op, lhs))]

    def verify(self, op: Op) -> None:
        verify_contraction(op, self.infer_types)

    def evaluate(self, op: Op, args: list, interp) -> list:
        dims = conv_dimensions(op)
        window = ConvWindow.of(op, len(dims.input_spatial))
        out = convolution_numpy(np.asarray(args[0]), np.asarray(args[1]), dims, window)
        return [round_to_result(out, op.result_types[0])]

    def sharding_rule(self, op: Op) -> OpShardingRule:
        """In order: the batch groups (lhs batch, kernel output features and
        result features; only when batch_group_count > 1), the per-group batch,
        per spatial dim a window-count factor (permutation, shared with the
        result) and a window-size factor (reduction, shared with the kernel),
        the larger first and each capped by what remains of the input dim and
        left out when 1, the feature groups (when feature_group_count > 1), the
        per-group input features (reduction) and the per-group output features
        (left out when 1). A factor of size 1 joins only dims without factors.
        A `[b, 0, f]x[0, i, o]->[b, 0, f]` convolution of 1x8x3 by 3x3x4:
        `([i, j, l], [k, l, m])->([i, j, m]) {i=1, j=6, k=3, l=3, m=4}
        reduction={k, l} permutation={j}`."""
        dims = conv_dimensions(op)
        window = ConvWindow.of(op, len(dims.input_spatial))
        b = RuleBuilder.for_op(op)
        lhs, rhs = b.operand_shapes
        (out,) = b.result_shapes
        mapped = [[bool(f) for f in t] for t in b.tensors]

        def add(lhs_dim, rhs_dim, out_dim, size: int, kind: str = "pass_through") -> None:
            # A factor of size 1 joins only dims that have no factor yet.
            dims_ = [lhs_dim, rhs_dim, out_dim]
            if size == 1:
                dims_ = [d if d is None or not mapped[t][d] else None for t, d in enumerate(dims_)]
            b.add_factor(dims_[:2], dims_[2:], size, kind=kind)
            for t, d in enumerate(dims_):
                if d is not None:
                    mapped[t][d] = True

        groups, batch_groups = window.feature_group_count, window.batch_group_count
        if batch_groups > 1:
            add(dims.input_batch, dims.kernel_output_feature, dims.output_feature, batch_groups)
        add(dims.input_batch, None, dims.output_batch, out[dims.output_batch])
        for dl, dr, do in zip(
            dims.input_spatial, dims.kernel_spatial, dims.output_spatial, strict=True
        ):
            remaining = lhs[dl]

            def spatial(size: int, contracting: bool, dl=dl, dr=dr, do=do) -> None:
                nonlocal remaining
                size = min(remaining, size)
                if size > 1:
                    if contracting:
                        add(dl, dr, None, size, "reduction")
                    else:
                        add(dl, None, do, size, "permutation")
                    remaining //= size

            windows, window_size = out[do], rhs[dr]
            if windows >= window_size:
                spatial(windows, False)
                spatial(window_size, True)
            else:
                spatial(window_size, True)
                spatial(windows, False)
        if groups > 1:
            add(dims.input_feature, dims.kernel_output_feature, dims.output_feature, groups)
        add(
            dims.input_feature,
            dims.kernel_input_feature,
            None,
            rhs[dims.kernel_input_feature],
            "reduction",
        )
        out_features = out[dims.output_feature] // (batch_groups * groups)
        if out_features > 1:
            add(None, dims.kernel_output_feature, dims.output_feature, out_features)
        return finish_rule(b)


def _window_value(p, key: str) -> Any:
    if key == "pad":
        p.expect("[")

        def pair() -> tuple[int, int]:
            p.expect("[")
            lo = p.integer()
            p.expect(",")
            hi = p.integer()
            p.expect("]")
            return lo, hi

        return padding_attr(p.comma_separated("]", pair, "a [low, high] pair"))
    if key == "reverse":
        p.expect("[")

        def flag() -> bool:
            if p.accept("true"):
                return True
            p.expect("false", "true or false")
            return False

        return DenseArrayAttr("i1", tuple(p.comma_separated("]", flag, "true or false")))
    return DenseArrayAttr("i64", tuple(read_int_list(p)))


def convolution_numpy(
    lhs: np.ndarray, rhs: np.ndarray, dims: ConvDimensions, window: ConvWindow
) -> np.ndarray:
    """StableHLO's convolution in a wide accumulator type (layouts as `dims` says)."""
    n = len(dims.input_spatial)
    acc = accumulator_dtype(lhs.dtype, rhs.dtype)
    # Canonical layouts: lhs [N, C, spatial...], rhs [O, I, spatial...].
    x = lhs.astype(acc).transpose([dims.input_batch, dims.input_feature, *dims.input_spatial])
    k = rhs.astype(acc).transpose(
        [dims.kernel_output_feature, dims.kernel_input_feature, *dims.kernel_spatial]
    )
    bg, fg = window.batch_group_count, window.feature_group_count
    outs = []
    if bg > 1:
        xs = np.split(x, bg, axis=0)
        ks = np.split(k, bg, axis=0)
        outs = [_conv_base(a, b, window) for a, b in zip(xs, ks, strict=True)]
    elif fg > 1:
        xs = np.split(x, fg, axis=1)
        ks = np.split(k, fg, axis=0)
        outs = [_conv_base(a, b, window) for a, b in zip(xs, ks, strict=True)]
    else:
        outs = [_conv_base(x, k, window)]
    out = np.concatenate(outs, axis=1)  # [N, O, spatial...]
    perm = [0] * (n + 2)
    perm[dims.output_batch] = 0
    perm[dims.output_feature] = 1
    for i, d in enumerate(dims.output_spatial):
        perm[d] = i + 2
    return out.transpose(perm)


def _conv_base(x: np.ndarray, k: np.ndarray, window: ConvWindow) -> np.ndarray:
    """One group: x [N, C, s...], k [O, C, w...] -> [N, O, out...]."""
    n = x.ndim - 2
    # lhs dilation: holes between the elements.
    if any(d > 1 for d in window.lhs_dilation):
        shape = [
            (s - 1) * d + 1 if s else 0
            for s, d in zip(x.shape[2:], window.lhs_dilation, strict=True)
        ]
        dilated = np.zeros(x.shape[:2] + tuple(shape), x.dtype)
        holes = tuple(slice(None, None, d) for d in window.lhs_dilation)
        dilated[(slice(None), slice(None), *holes)] = x
        x = dilated
    # Padding; a negative amount removes elements.
    pads = [(0, 0), (0, 0)] + [(max(lo, 0), max(hi, 0)) for lo, hi in window.padding]
    x = np.pad(x, pads)
    crop = tuple(
        slice(-min(lo, 0), x.shape[i + 2] + min(hi, 0)) for i, (lo, hi) in enumerate(window.padding)
    )
    x = x[(slice(None), slice(None), *crop)]
    if any(window.reversal):
        flips = tuple(slice(None, None, -1 if r else 1) for r in window.reversal)
        k = k[(slice(None), slice(None), *flips)]
    out_spatial = []
    for i in range(n):
        span = (k.shape[i + 2] - 1) * window.rhs_dilation[i] + 1
        size = x.shape[i + 2]
        out_spatial.append(0 if size < span else (size - span) // window.strides[i] + 1)
    out = np.zeros((x.shape[0], k.shape[0], *out_spatial), dtype=x.dtype)
    if 0 in out.shape:
        return out
    for offset in np.ndindex(*k.shape[2:]):
        index = [slice(None), slice(None)]
        for i, o in enumerate(offset):
            start = o * window.rhs_dilation[i]
            stop = start + (out_spatial[i] - 1) * window.strides[i] + 1
            index.append(slice(start, stop, window.strides[i]))
        patch = x[tuple(index)]  # [N, C, out...]
        tap = k[(slice(None), slice(None), *offset)]  # [O, C]
        out += np.moveaxis(np.tensordot(patch, tap, axes=([1], [1])), -1, 1)
    return out


register("stablehlo.convolution", ConvolutionOp())
