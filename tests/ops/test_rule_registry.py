"""Every op of Shardy's sharding-rule registry, one program each.

For each op the registry names (pointwise ops, shape ops, linear algebra,
collectives, the custom-call targets it knows, and the ops it deliberately
gives no rule), the program must read and print as jaxlib's MLIR prints it,
its rule must print as Shardy's `sdy-populate-op-sharding-rules` prints it
(no rule where Shardy gives none), and `check_rule` must find the rule sound
on random meshes and data wherever the interpreter can run the op on one
device (collectives exchange data between devices, so they cannot). The ops
StableHLO keeps for compatibility (`einsum`, `broadcast`, `batch_norm_*`)
also compute what XLA computes.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from shardonnay.errors import UnsupportedOpError
from shardonnay.ir.verifier import verify
from shardonnay.ops.rules import populate_rules, rule_for
from shardonnay.propagation.checks.rule_check import RuleError, check_rule
from shardonnay.runtime.interpreter import run
from shardonnay.syntax.mlir_reader import parse_module

pytest.importorskip("jax")

from shardonnay.testing.mlir_oracle import jaxlib_asm, run_pass_pipeline
from shardonnay.testing.shardy_rules import POPULATE, shardy_rules

F = "tensor<4x6xf32>"
N = "tensor<4x6xi32>"
C = "tensor<4x6xcomplex<f32>>"
ARGS = (
    f"%f: {F}, %g: {F}, %i: {N}, %j: {N}, %c: {C}, %s: tensor<f32>, %k: tensor<i32>, "
    "%m: tensor<3x5x5xf32>, %v: tensor<6xf32>, %p: tensor<i1>, %t: !stablehlo.token"
)
MESH = 'sdy.mesh @mesh = <["x"=2, "y"=2]>'
ADD = (
    "({\n  ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
    "    %r = stablehlo.add %a, %b : tensor<f32>\n    stablehlo.return %r : tensor<f32>\n  })"
)
GROUPS = "replica_groups = dense<[[0, 1]]> : tensor<1x2xi64>"

UNARY_FLOAT = [
    "abs",
    "cbrt",
    "ceil",
    "cosine",
    "exponential",
    "exponential_minus_one",
    "floor",
    "log",
    "log_plus_one",
    "logistic",
    "negate",
    "round_nearest_even",
    "round_nearest_afz",
    "rsqrt",
    "sign",
    "sine",
    "sqrt",
    "tan",
    "tanh",
]
BINARY_FLOAT = [
    "add",
    "atan2",
    "divide",
    "maximum",
    "minimum",
    "multiply",
    "power",
    "remainder",
    "subtract",
]
UNARY_INT = ["not", "popcnt", "count_leading_zeros"]
BINARY_INT = ["and", "or", "xor", "shift_left", "shift_right_arithmetic", "shift_right_logical"]

PROGRAMS: dict[str, str] = {}
PROGRAMS |= {op: f"%0 = stablehlo.{op} %f : {F}" for op in UNARY_FLOAT}
PROGRAMS |= {op: f"%0 = stablehlo.{op} %f, %g : {F}" for op in BINARY_FLOAT}
PROGRAMS |= {op: f"%0 = stablehlo.{op} %i : {N}" for op in UNARY_INT}
PROGRAMS |= {op: f"%0 = stablehlo.{op} %i, %j : {N}" for op in BINARY_INT}
PROGRAMS |= {
    "compare": f"%0 = stablehlo.compare GT, %f, %g : ({F}, {F}) -> tensor<4x6xi1>",
    "complex": f"%0 = stablehlo.complex %f, %g : {C}",
    "real": f"%0 = stablehlo.real %c : ({C}) -> {F}",
    "imag": f"%0 = stablehlo.imag %c : ({C}) -> {F}",
    "convert": f"%0 = stablehlo.convert %f : ({F}) -> {N}",
    "is_finite": f"%0 = stablehlo.is_finite %f : ({F}) -> tensor<4x6xi1>",
    "reduce_precision": f"%0 = stablehlo.reduce_precision %f, format = e5m10 : {F}",
    "sharding_constraint": f'%0 = sdy.sharding_constraint %f <@mesh, [{{"x"}}, {{}}]> : {F}',
    "reverse": f"%0 = stablehlo.reverse %f, dims = [1] : {F}",
    "bitcast_convert": "%0 = stablehlo.bitcast_convert %m : (tensor<3x5x5xf32>) -> "
    "tensor<3x5x5x4xui8>",
    "broadcast_in_dim": "%0 = stablehlo.broadcast_in_dim %v, dims = [1] : "
    "(tensor<6xf32>) -> tensor<4x6xf32>",
    "cholesky": "%0 = stablehlo.cholesky %m, lower = true : tensor<3x5x5xf32>",
    "clamp": f"%0 = stablehlo.clamp %s, %f, %s : (tensor<f32>, {F}, tensor<f32>) -> {F}",
    "concatenate": f"%0 = stablehlo.concatenate %f, %g, dim = 0 : ({F}, {F}) -> tensor<8x6xf32>",
    "convolution": "%0 = stablehlo.convolution(%m, %m) dim_numbers = [b, 0, f]x[o, 0, i]->"
    "[b, 0, f], window = {stride = [1], pad = [[2, 2]]} {batch_group_count = 1 : i64, "
    "feature_group_count = 1 : i64} : (tensor<3x5x5xf32>, tensor<3x5x5xf32>) -> "
    "tensor<3x5x3xf32>",
    "dot_general": f"%0 = stablehlo.dot_general %f, %g, contracting_dims = [1] x [1] : "
    f"({F}, {F}) -> tensor<4x4xf32>",
    "dot": f"%0 = stablehlo.dot %f, %v : ({F}, tensor<6xf32>) -> tensor<4xf32>",
    "dynamic_slice": f"%0 = stablehlo.dynamic_slice %f, %k, %k, sizes = [4, 2] : "
    f"({F}, tensor<i32>, tensor<i32>) -> tensor<4x2xf32>",
    "dynamic_update_slice": "%u = stablehlo.slice %f [0:4, 0:2] : "
    f"({F}) -> tensor<4x2xf32>\n  %0 = stablehlo.dynamic_update_slice %g, %u, %k, %k : "
    f"({F}, tensor<4x2xf32>, tensor<i32>, tensor<i32>) -> {F}",
    "fft": f"%0 = stablehlo.fft %c, type = FFT, length = [6] : ({C}) -> {C}",
    "gather": '%0 = "stablehlo.gather"(%f, %i) <{dimension_numbers = #stablehlo.gather<'
    "offset_dims = [2], collapsed_slice_dims = [0], start_index_map = [0], "
    "index_vector_dim = 2>, slice_sizes = array<i64: 1, 6>}> : "
    f"({F}, {N}) -> tensor<4x6x6xf32>",
    "pad": f"%0 = stablehlo.pad %f, %s, low = [1, 0], high = [0, 2], interior = [0, 1] : "
    f"({F}, tensor<f32>) -> tensor<5x13xf32>",
    "reduce": f"%0 = stablehlo.reduce(%f init: %s) applies stablehlo.add across "
    f"dimensions = [1] : ({F}, tensor<f32>) -> tensor<4xf32>",
    "reduce_window": f'%0 = "stablehlo.reduce_window"(%f, %s) <{{window_dimensions = '
    f"array<i64: 2, 3>, window_strides = array<i64: 2, 3>}}> {ADD} : ({F}, tensor<f32>) "
    "-> tensor<2x2xf32>",
    "reshape": f"%0 = stablehlo.reshape %f : ({F}) -> tensor<2x12xf32>",
    "scatter": '%0 = "stablehlo.scatter"(%f, %i, %g) <{scatter_dimension_numbers = '
    "#stablehlo.scatter<inserted_window_dims = [0, 1], scatter_dims_to_operand_dims = [0], "
    f"index_vector_dim = 2>}}> {ADD} : ({F}, {N}, {F}) -> {F}",
    "select_and_scatter": f"%u = stablehlo.slice %g [0:2, 0:2] : ({F}) -> tensor<2x2xf32>\n"
    '  %0 = "stablehlo.select_and_scatter"(%f, %u, %s) <{window_'
    "dimensions = array<i64: 2, 3>, window_strides = array<i64: 2, 3>}> ({\n"
    "  ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
    "    %r = stablehlo.compare GE, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>\n"
    f"    stablehlo.return %r : tensor<i1>\n  }}, {ADD[1:-1]}) : ({F}, tensor<2x2xf32>, "
    f"tensor<f32>) -> {F}",
    "select": f"%0 = stablehlo.select %p, %f, %g : tensor<i1>, {F}",
    "slice": f"%0 = stablehlo.slice %f [1:4, 0:6:2] : ({F}) -> tensor<3x3xf32>",
    "sort": '%0 = "stablehlo.sort"(%f) <{dimension = 1 : i64}> ({\n'
    "  ^bb0(%a: tensor<f32>, %b: tensor<f32>):\n"
    "    %r = stablehlo.compare LT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>\n"
    f"    stablehlo.return %r : tensor<i1>\n  }}) : ({F}) -> {F}",
    "transpose": f"%0 = stablehlo.transpose %f, dims = [1, 0] : ({F}) -> tensor<6x4xf32>",
    "triangular_solve": '%0 = "stablehlo.triangular_solve"(%m, %m) <{left_side = true, '
    "lower = true, transpose_a = #stablehlo<transpose NO_TRANSPOSE>, unit_diagonal = "
    "false}> : (tensor<3x5x5xf32>, tensor<3x5x5xf32>) -> tensor<3x5x5xf32>",
    "batch_norm_inference": '%0 = "stablehlo.batch_norm_inference"(%f, %v, %v, %v, %v) '
    "<{epsilon = 1.000000e-03 : f32, feature_index = 1 : i64}> : "
    f"({F}, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>) -> {F}",
    "rng_bit_generator": "%output_state, %output = stablehlo.rng_bit_generator %j, "
    f"algorithm = DEFAULT : ({N}) -> ({N}, tensor<3x5xui32>)",
    # collectives
    "all_reduce": f'%0 = "stablehlo.all_reduce"(%f) <{{{GROUPS}}}> {ADD} : ({F}) -> {F}',
    "cross-replica-sum": f'%0 = "stablehlo.cross-replica-sum"(%f) <{{{GROUPS}}}> : ({F}) -> {F}',
    "all_gather": f'%0 = "stablehlo.all_gather"(%f) <{{all_gather_dim = 1 : i64, {GROUPS}}}> '
    f": ({F}) -> tensor<4x12xf32>",
    "all_to_all": f'%0 = "stablehlo.all_to_all"(%f) <{{concat_dimension = 0 : i64, {GROUPS}, '
    f"split_count = 2 : i64, split_dimension = 1 : i64}}> : ({F}) -> tensor<8x3xf32>",
    "collective_permute": '%0 = "stablehlo.collective_permute"(%f) <{source_target_pairs = '
    f"dense<[[0, 1], [1, 0]]> : tensor<2x2xi64>}}> : ({F}) -> {F}",
    "reduce_scatter": f'%0 = "stablehlo.reduce_scatter"(%f) <{{{GROUPS}, scatter_dimension '
    f"= 1 : i64}}> {ADD} : ({F}) -> tensor<4x3xf32>",
    # the ops the registry deliberately leaves without a rule
    "constant": "%0 = stablehlo.constant dense<1.0> : tensor<4x6xf32>",
    "iota": "%0 = stablehlo.iota dim = 1 : tensor<4x6xi32>",
    "create_token": "%0 = stablehlo.create_token : !stablehlo.token",
    "outfeed": f'%0 = "stablehlo.outfeed"(%f, %t) <{{outfeed_config = ""}}> : ({F}, '
    "!stablehlo.token) -> !stablehlo.token",
    "get_tuple_element": f"%u = stablehlo.tuple %f, %k : tuple<{F}, tensor<i32>>\n"
    f"  %0 = stablehlo.get_tuple_element %u[0] : (tuple<{F}, tensor<i32>>) -> {F}",
    "optimization_barrier": f"%0:2 = stablehlo.optimization_barrier %f, %k : {F}, tensor<i32>",
    "partition_id": "%0 = stablehlo.partition_id : tensor<ui32>",
    "case": f'%0 = "stablehlo.case"(%k) ({{\n    stablehlo.return %f : {F}\n  }}, {{\n'
    f"    stablehlo.return %g : {F}\n  }}) : (tensor<i32>) -> {F}",
    "while": f"%0:2 = stablehlo.while(%iterArg = %f, %iterArg_0 = %k) : {F}, tensor<i32>\n"
    "    cond {\n    %r = stablehlo.compare LT, %iterArg_0, %k : (tensor<i32>, tensor<i32>) "
    "-> tensor<i1>\n    stablehlo.return %r : tensor<i1>\n  } do {\n"
    f"    stablehlo.return %iterArg, %iterArg_0 : {F}, tensor<i32>\n  }}",
    "rng": "%u = stablehlo.constant dense<[4, 6]> : tensor<2xi64>\n"
    f"  %0 = stablehlo.rng %s, %s, %u, distribution = NORMAL : (tensor<f32>, tensor<f32>, "
    f"tensor<2xi64>) -> {F}",
    "einsum": f'%0 = stablehlo.einsum %f, %g, config = "ab,cb->ac" : ({F}, {F}) -> tensor<4x4xf32>',
    "unary_einsum": f'%0 = stablehlo.unary_einsum %f, config = "ab->b" : ({F}) -> tensor<6xf32>',
    "broadcast": f"%0 = stablehlo.broadcast %f, sizes = [2] : ({F}) -> tensor<2x4x6xf32>",
    "batch_norm_training": '%output, %batch_mean, %batch_var = "stablehlo.batch_norm_training"'
    "(%f, %v, %v) <{epsilon = 1.000000e-03 : f32, feature_index = 1 : i64}> : "
    f"({F}, tensor<6xf32>, tensor<6xf32>) -> ({F}, tensor<6xf32>, tensor<6xf32>)",
    "batch_norm_grad": "%grad_operand, %grad_scale, %grad_offset = "
    '"stablehlo.batch_norm_grad"(%f, %v, %v, %v, %g) <{epsilon = 1.000000e-03 : f32, '
    f"feature_index = 1 : i64}}> : ({F}, tensor<6xf32>, tensor<6xf32>, tensor<6xf32>, {F}) "
    f"-> ({F}, tensor<6xf32>, tensor<6xf32>)",
}
# custom calls: the targets the registry names, and two it leaves without a rule
for target in [
    "annotate_device_placement",
    "Cholesky",
    "CompactWyHelper",
    "InvertDiagBlocksLowerTriangular",
    "InvertDiagBlocksUpperTriangular",
    "LayoutConstraint",
    "MoveToDevice",
    "MoveToHost",
    "mhlo.erf",
    "sdy_testonly",
    "tpu_custom_call",
]:
    PROGRAMS[f"custom_call @{target}"] = f"%0 = stablehlo.custom_call @{target}(%f) : ({F}) -> {F}"
PROGRAMS |= {
    "custom_call @X64SplitLow": "%0 = stablehlo.custom_call @X64SplitLow(%i) : "
    "(tensor<4x6xi32>) -> tensor<4x6xi32>",
    "custom_call @X64SplitHigh": "%0 = stablehlo.custom_call @X64SplitHigh(%i) : "
    "(tensor<4x6xi32>) -> tensor<4x6xi32>",
    "custom_call @InspectSharding": f"%0 = stablehlo.custom_call @InspectSharding(%f) : "
    f"({F}) -> {F}",
    "composite": f'%0 = stablehlo.composite "my.scale" %f {{decomposition = @my_scale}} : '
    f"({F}) -> {F}",
    "custom_call @X64Combine": f"%0 = stablehlo.custom_call @X64Combine(%i, %j) : ({N}, {N}) "
    "-> tensor<4x6xi64>",
    "custom_call @Eigh": "%0:2 = stablehlo.custom_call @Eigh(%m) : (tensor<3x5x5xf32>) -> "
    "(tensor<3x5x5xf32>, tensor<3x5xf32>)",
    "custom_call @Qr": "%0:2 = stablehlo.custom_call @Qr(%m) : (tensor<3x5x5xf32>) -> "
    "(tensor<3x5x5xf32>, tensor<3x5xf32>)",
    "custom_call @QrDecompositionBlock": "%0:2 = stablehlo.custom_call @QrDecompositionBlock(%m)"
    " : (tensor<3x5x5xf32>) -> (tensor<3x5x5xf32>, tensor<3x5xf32>)",
    "custom_call @ProductOfElementaryHouseholderReflectors": "%u = stablehlo.slice %m "
    "[0:3, 0:1, 0:5] : (tensor<3x5x5xf32>) -> tensor<3x1x5xf32>\n  %w = stablehlo.reshape %u "
    ": (tensor<3x1x5xf32>) -> tensor<3x5xf32>\n  %0 = stablehlo.custom_call "
    "@ProductOfElementaryHouseholderReflectors(%m, %w) : (tensor<3x5x5xf32>, tensor<3x5xf32>) "
    "-> tensor<3x5x5xf32>",
    "custom_call @mhlo.topk": "%0:2 = stablehlo.custom_call @mhlo.topk(%f) {mhlo.attributes = "
    f"{{k = 2 : i64, largest = true}}, mhlo.version = 1 : i64}} : ({F}) -> "
    "(tensor<4x2xf32>, tensor<4x2xi32>)",
    "custom_call @ApproxTopK": "%lowest = stablehlo.constant dense<0xFF800000> : tensor<f32>\n  "
    "%0:2 = stablehlo.custom_call @ApproxTopK(%f, %i, %lowest, %k) "
    f"{{called_computations = [@greater], mhlo.backend_config = {{aggregate_to_topk = true, "
    f"reduction_dim = 1 : i64, top_k = 2 : i64}}}} : ({F}, {N}, tensor<f32>, tensor<i32>) -> "
    "(tensor<4x2xf32>, tensor<4x2xi32>)",
    "custom_call @PartialReduce": "%lowest = stablehlo.constant dense<0xFF800000> : tensor<f32>\n  "
    "%0:2 = stablehlo.custom_call @PartialReduce(%f, %i, %lowest, %k)"
    f" {{called_computations = [@greater], mhlo.backend_config = {{aggregate_to_topk = true, "
    f"reduction_dim = 1 : i64, top_k = 2 : i64}}}} : ({F}, {N}, tensor<f32>, tensor<i32>) -> "
    "(tensor<4x2xf32>, tensor<4x2xi32>)",
}

# Collectives exchange data between devices: the global program cannot run them.
COLLECTIVES = {
    "all_reduce",
    "cross-replica-sum",
    "all_gather",
    "all_to_all",
    "collective_permute",
    "reduce_scatter",
}
# Targets of XLA's own TPU and GPU expansions whose exact results the
# interpreter does not define: the helpers of its blocked Cholesky and QR,
# its own Cholesky kernel (whose triangle flag is not in the op), the halves
# of a 64-bit value split into two 32-bit ones and put back together
# (`@X64SplitLow`, `@X64SplitHigh`, `@X64Combine`, whose conventions XLA keeps
# to itself), the sharding-inspection hook of `jax.debug.inspect_array_sharding`
# (which XLA runs at compile time).
NO_SEMANTICS = {
    "custom_call @Cholesky",
    "custom_call @CompactWyHelper",
    "custom_call @InvertDiagBlocksLowerTriangular",
    "custom_call @InvertDiagBlocksUpperTriangular",
    "custom_call @X64Combine",
    "custom_call @X64SplitLow",
    "custom_call @X64SplitHigh",
    "custom_call @InspectSharding",
}
# Rules whose sharded factors the partitioner serves with more than a local copy
# of the op: scatter and dynamic_update_slice rebase their indices per shard,
# rng_bit_generator offsets each shard's bits, a convolution's sharded window
# exchanges halos and an approximate top-k's reduced dim is gathered whole.
NOT_LOCAL = {
    "scatter",
    "dynamic_update_slice",
    "rng_bit_generator",
    "convolution",
    "custom_call @ApproxTopK",
    "custom_call @PartialReduce",
}


# Functions some programs call.
GREATER = (
    "func.func private @greater(%a: tensor<f32>, %b: tensor<f32>, %i: tensor<i32>, "
    "%j: tensor<i32>) -> tensor<i1> {\n  %0 = stablehlo.compare GT, %a, %b : "
    "(tensor<f32>, tensor<f32>) -> tensor<i1>\n  return %0 : tensor<i1>\n}"
)
CALLED = {
    "composite": f"func.func private @my_scale(%x: {F}) -> {F} {{\n"
    f"  %0 = stablehlo.multiply %x, %x : {F}\n  return %0 : {F}\n}}",
    "custom_call @ApproxTopK": GREATER,
    "custom_call @PartialReduce": GREATER,
}


def program(name: str) -> str:
    body = PROGRAMS[name]
    called = CALLED.get(name, "")
    return f"{MESH}\nfunc.func @main({ARGS}) {{\n  {body}\n  return\n}}\n{called}"


@pytest.mark.parametrize("name", PROGRAMS)
def test_the_op_reads_prints_and_has_shardys_rule(name: str) -> None:
    text = program(name)
    module = parse_module(text)
    assert module.to_text() == jaxlib_asm(text)
    verify(module)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # custom calls unknown to the registry
        ours = populate_rules(module).to_text()
    assert ours == run_pass_pipeline(text, POPULATE)


def _ops_with_rules(name: str):
    """The module of `name`'s program, and its ops that have rules; the op the
    program is about (its last before the return) comes first."""
    module = parse_module(program(name))
    main = module.function("main")
    last = main.body.ops[-2]
    ops = [op for op in main.walk() if op is not main.op and rule_for(op) is not None]
    return module, sorted(ops, key=lambda op: op is not last)


RUNNABLE = [n for n in PROGRAMS if n not in COLLECTIVES | NO_SEMANTICS | NOT_LOCAL]


@pytest.mark.parametrize("name", RUNNABLE)
def test_the_rule_is_sound_on_data(name: str) -> None:
    module, ops = _ops_with_rules(name)
    for op in ops:
        check_rule(op, trials=3, module=module)


@pytest.mark.parametrize("name", sorted(NOT_LOCAL))
def test_rules_the_partitioner_serves_with_more_than_a_local_copy(name: str) -> None:
    """A device running the op on its shards alone gets other values: the
    partitioner adjusts these ops per shard."""
    module, ops = _ops_with_rules(name)
    with pytest.raises(RuleError):
        check_rule(ops[0], trials=30, module=module)


@pytest.mark.parametrize("name", sorted(COLLECTIVES | NO_SEMANTICS))
def test_ops_without_global_semantics_say_so(name: str) -> None:
    module, ops = _ops_with_rules(name)
    with pytest.raises(UnsupportedOpError):
        check_rule(ops[0], trials=1, module=module)


def test_the_registry_covers_every_op_shardy_gives_a_rule() -> None:
    """The programs above hold every op name that Shardy gives a rule to in them."""
    with_rules = {op for name in PROGRAMS for op, _ in shardy_rules(program(name))}
    without = {
        op.name
        for name in PROGRAMS
        for op in parse_module(program(name)).walk()
        if op.name not in with_rules and op.name.startswith("stablehlo.")
    }
    assert len(with_rules) >= 70
    assert {"stablehlo.cross-replica-sum", "stablehlo.batch_norm_inference"} <= with_rules
    assert {"stablehlo.einsum", "stablehlo.batch_norm_training", "stablehlo.rng"} <= without


LEGACY = """func.func @main(%x: tensor<4x8x6xf32>, %s: tensor<8xf32>, %o: tensor<8xf32>,
    %m: tensor<8xf32>, %v: tensor<8xf32>, %g: tensor<4x8x6xf32>) -> (tensor<4x8x6xf32>,
    tensor<4x8x6xf32>, tensor<8xf32>, tensor<8xf32>, tensor<4x8x6xf32>, tensor<8xf32>,
    tensor<8xf32>, tensor<3x4x8xf32>, tensor<6x6xf32>) {
  %0 = "stablehlo.batch_norm_inference"(%x, %s, %o, %m, %v) {epsilon = 1.0e-3 : f32,
    feature_index = 1 : i64} : (tensor<4x8x6xf32>, tensor<8xf32>, tensor<8xf32>,
    tensor<8xf32>, tensor<8xf32>) -> tensor<4x8x6xf32>
  %1:3 = "stablehlo.batch_norm_training"(%x, %s, %o) {epsilon = 1.0e-3 : f32,
    feature_index = 1 : i64} : (tensor<4x8x6xf32>, tensor<8xf32>, tensor<8xf32>)
    -> (tensor<4x8x6xf32>, tensor<8xf32>, tensor<8xf32>)
  %2:3 = "stablehlo.batch_norm_grad"(%x, %s, %m, %v, %g) {epsilon = 1.0e-3 : f32,
    feature_index = 1 : i64} : (tensor<4x8x6xf32>, tensor<8xf32>, tensor<8xf32>,
    tensor<8xf32>, tensor<4x8x6xf32>) -> (tensor<4x8x6xf32>, tensor<8xf32>, tensor<8xf32>)
  %3 = stablehlo.broadcast %s, sizes = [3, 4] : (tensor<8xf32>) -> tensor<3x4x8xf32>
  %4 = stablehlo.einsum %x, %g, config = "abc,abd->cd" : (tensor<4x8x6xf32>,
    tensor<4x8x6xf32>) -> tensor<6x6xf32>
  return %0, %1#0, %1#1, %1#2, %2#0, %2#1, %2#2, %3, %4 : tensor<4x8x6xf32>,
    tensor<4x8x6xf32>, tensor<8xf32>, tensor<8xf32>, tensor<4x8x6xf32>, tensor<8xf32>,
    tensor<8xf32>, tensor<3x4x8xf32>, tensor<6x6xf32>
}"""


def test_batch_norm_broadcast_and_einsum_compute_what_xla_computes() -> None:
    from shardonnay.runtime.pjrt import run_on_devices

    module = parse_module(LEGACY)
    rng = np.random.default_rng(0)
    x, g = (rng.normal(size=(4, 8, 6)).astype(np.float32) for _ in range(2))
    vectors = [rng.uniform(0.5, 2.0, size=8).astype(np.float32) for _ in range(4)]
    inputs = [x, *vectors, g]
    ours = run(module, *inputs)
    xla = run_on_devices(module, *inputs)
    for a, b in zip(ours, xla, strict=True):
        np.testing.assert_allclose(a, b, rtol=1e-4, atol=1e-4)


def test_unary_einsum_sums_the_dims_it_drops() -> None:
    module = parse_module(program("unary_einsum"))
    x = np.arange(24.0, dtype=np.float32).reshape(4, 6)
    op = next(op for op in module.walk() if op.name == "stablehlo.unary_einsum")
    from shardonnay.ops.registry import lookup

    (result,) = lookup(op.name).evaluate(op, [x], None)
    np.testing.assert_array_equal(result, x.sum(axis=0))


TOP_K = """func.func @main(%f: tensor<4x6xf32>, %i: tensor<4x6xi32>) -> (tensor<4x2xf32>,
    tensor<4x2xi32>, tensor<4x3xi32>, tensor<4x3xi32>, tensor<4x6xf32>) {
  %0:2 = stablehlo.custom_call @mhlo.topk(%f) {mhlo.attributes = {k = 2 : i64,
    largest = true}, mhlo.version = 1 : i64} : (tensor<4x6xf32>) -> (tensor<4x2xf32>,
    tensor<4x2xi32>)
  %1:2 = stablehlo.custom_call @mhlo.topk(%i) {mhlo.attributes = {k = 3 : i64,
    largest = true}, mhlo.version = 1 : i64} : (tensor<4x6xi32>) -> (tensor<4x3xi32>,
    tensor<4x3xi32>)
  %2 = stablehlo.custom_call @MoveToHost(%f) : (tensor<4x6xf32>) -> tensor<4x6xf32>
  return %0#0, %0#1, %1#0, %1#1, %2 : tensor<4x2xf32>, tensor<4x2xi32>, tensor<4x3xi32>,
    tensor<4x3xi32>, tensor<4x6xf32>
}"""


def test_top_k_custom_calls_compute_what_xla_computes() -> None:
    """Ties (the integers repeat) keep the lower index first, as in XLA."""
    from shardonnay.runtime.pjrt import run_on_devices

    module = parse_module(TOP_K)
    rng = np.random.default_rng(1)
    inputs = [rng.normal(size=(4, 6)).astype(np.float32), rng.integers(0, 3, size=(4, 6))]
    inputs[1] = inputs[1].astype(np.int32)
    for a, b in zip(run(module, *inputs), run_on_devices(module, *inputs), strict=True):
        np.testing.assert_array_equal(a, b)


def test_approximate_top_k_computes_what_xla_computes() -> None:
    """JAX's `approx_max_k` / `approx_min_k` as lowered for CPU (the exact
    fallback), ties included (the values repeat)."""
    import jax
    import jax.numpy as jnp

    from shardonnay.runtime.pjrt import run_on_devices

    def f(x, y):
        return (
            jax.lax.approx_max_k(x, 3),
            jax.lax.approx_min_k(x, 2, reduction_dimension=0),
            jax.lax.approx_max_k(y, 4),
        )

    module = parse_module(jax.jit(f).lower(jnp.ones((6, 16)), jnp.ones((5, 8))).as_text())
    rng = np.random.default_rng(2)
    x = rng.integers(0, 4, size=(6, 16)).astype(np.float32)
    y = rng.normal(size=(5, 8)).astype(np.float32)
    for a, b in zip(run(module, x, y), run_on_devices(module, x, y), strict=True):
        np.testing.assert_array_equal(a, b)


def test_the_compatibility_ops_partition() -> None:
    """Sharded on the batch and feature dims, batch normalization, broadcast
    and einsum partition and compute what the unpartitioned program does."""
    import shardonnay
    from shardonnay.runtime.interpreter import random_inputs

    t, v = "tensor<8x6x4xf32>", "tensor<6xf32>"
    config = "{epsilon = 1.0e-3 : f32, feature_index = 1 : i64}"
    module = parse_module(
        f"""sdy.mesh @mesh = <["x"=2, "y"=3]>
func.func @main(%x: {t} {{sdy.sharding = #sdy.sharding<@mesh, [{{"x"}}, {{"y"}}, {{}}]>}},
    %s: {v}, %o: {v}, %m: {v}, %v: {v}) -> ({t}, {t}, {v}, {v}, tensor<8x6xf32>,
    tensor<4x4xf32>) {{
  %0 = "stablehlo.batch_norm_inference"(%x, %s, %o, %m, %v) {config}
    : ({t}, {v}, {v}, {v}, {v}) -> {t}
  %1:3 = "stablehlo.batch_norm_training"(%x, %s, %o) {config} : ({t}, {v}, {v}) -> ({t}, {v}, {v})
  %2 = stablehlo.broadcast %s, sizes = [8] : ({v}) -> tensor<8x6xf32>
  %3 = stablehlo.einsum %x, %x, config = "abc,abd->cd" : ({t}, {t}) -> tensor<4x4xf32>
  return %0, %1#0, %1#1, %1#2, %2, %3 : {t}, {t}, {v}, {v}, tensor<8x6xf32>, tensor<4x4xf32>
}}"""
    )
    inputs = random_inputs(module, seed=0)
    inputs[4] = np.abs(inputs[4]) + 0.5  # a variance
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # ops without rules
        assert shardonnay.check(module, seed=0, inputs=inputs).ok
