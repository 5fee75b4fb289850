"""Programs with values pinned to single devices by maximal shardings.

A maximal mesh `<[], device_ids=[k]>` pins a value to device `k`. The
hand-written programs here move pinned values between devices, into and out
of sharded ones, through loops, calls and past the devices of the largest
mesh (`PINNED_PROGRAMS`); `pinned_program(seed)` pins parts of a random
program; `RESULTS_ON_TWO_DEVICES` is one op that nothing can partition:

>>> sorted(PINNED_PROGRAMS)
['device_to_device', 'dot_and_reduce', 'into_sharded', 'past_the_mesh', 'two_devices']
>>> pinned(5)
'{sdy.sharding = #sdy.sharding_per_value<[<@maximal_mesh_5, []>]>}'
>>> "@maximal_mesh_" in pinned_program(0)
True
"""

from __future__ import annotations

import random
import re

import numpy as np

from shardonnay.testing.program_generator import random_program

# One op whose two results are pinned to two devices: nothing can partition it.
RESULTS_ON_TWO_DEVICES = """
sdy.mesh @maximal_mesh_0 = <[], device_ids=[0]>
sdy.mesh @maximal_mesh_1 = <[], device_ids=[1]>
func.func @main(%arg0: tensor<8xf32>, %arg1: tensor<8xi32>) -> (tensor<8xf32>, tensor<8xi32>) {
  %0:2 = "stablehlo.sort"(%arg0, %arg1) <{dimension = 0 : i64, is_stable = false}> ({
  ^bb0(%a: tensor<f32>, %b: tensor<f32>, %c: tensor<i32>, %d: tensor<i32>):
    %1 = stablehlo.compare LT, %a, %b : (tensor<f32>, tensor<f32>) -> tensor<i1>
    stablehlo.return %1 : tensor<i1>
  }) {sdy.sharding = #sdy.sharding_per_value<[<@maximal_mesh_0, []>, <@maximal_mesh_1, []>]>}
      : (tensor<8xf32>, tensor<8xi32>) -> (tensor<8xf32>, tensor<8xi32>)
  return %0#0, %0#1 : tensor<8xf32>, tensor<8xi32>
}
"""


MESHES = """
sdy.mesh @mesh = <["x"=2, "y"=4]>
sdy.mesh @maximal_mesh_0 = <[], device_ids=[0]>
sdy.mesh @maximal_mesh_2 = <[], device_ids=[2]>
sdy.mesh @maximal_mesh_5 = <[], device_ids=[5]>
"""


def pinned(device: int) -> str:
    """The attribute pinning an op's result to `device`."""
    return f"{{sdy.sharding = #sdy.sharding_per_value<[<@maximal_mesh_{device}, []>]>}}"


def on_mesh(dims: str) -> str:
    """The attribute sharding an op's result `[dims]` on `@mesh`."""
    return f"{{sdy.sharding = #sdy.sharding_per_value<[<@mesh, [{dims}]>]>}}"


# A value moving from device 2 to device 5, then to device 0; a sharded value
# gathered into an op on device 5.
DEVICE_TO_DEVICE = (
    MESHES
    + f"""
func.func @main(%arg0: tensor<8x4xf32> {{sdy.sharding = #sdy.sharding<@mesh, [{{"x"}}, {{"y"}}]>}},
                %arg1: tensor<8x4xf32> {{sdy.sharding = #sdy.sharding<@maximal_mesh_2, []>}})
    -> (tensor<8x4xf32> {{sdy.sharding = #sdy.sharding<@maximal_mesh_0, []>}},
        tensor<8x4xf32> {{sdy.sharding = #sdy.sharding<@maximal_mesh_5, []>}}) {{
  %0 = stablehlo.multiply %arg1, %arg1 {pinned(2)} : tensor<8x4xf32>
  %1 = stablehlo.add %0, %arg0 {pinned(5)} : tensor<8x4xf32>
  %2 = stablehlo.negate %1 {pinned(0)} : tensor<8x4xf32>
  return %2, %1 : tensor<8x4xf32>, tensor<8x4xf32>
}}
"""
)

# A value on device 5 feeding a sharded op and an unannotated (replicated) result.
INTO_SHARDED = (
    MESHES
    + f"""
func.func @main(%arg0: tensor<8x4xf32> {{sdy.sharding = #sdy.sharding<@mesh, [{{"x"}}, {{}}]>}},
                %arg1: tensor<8x4xf32> {{sdy.sharding = #sdy.sharding<@maximal_mesh_2, []>}})
    -> (tensor<8x4xf32> {{sdy.sharding = #sdy.sharding<@mesh, [{{"x"}}, {{"y"}}]>}},
        tensor<8x4xf32>) {{
  %0 = stablehlo.multiply %arg1, %arg1 {pinned(2)} : tensor<8x4xf32>
  %1 = stablehlo.add %0, %0 {pinned(5)} : tensor<8x4xf32>
  %2 = stablehlo.add %1, %arg0 : tensor<8x4xf32>
  return %2, %1 : tensor<8x4xf32>, tensor<8x4xf32>
}}
"""
)

# A dot of a sharded value and a pinned one, a reduction of a pinned value
# into a sharded result, and JAX-like results on device 0.
DOT_AND_REDUCE = (
    """
sdy.mesh @mesh = <["x"=2, "y"=2]>
sdy.mesh @maximal_mesh_0 = <[], device_ids=[0]>
sdy.mesh @maximal_mesh_3 = <[], device_ids=[3]>
sdy.mesh @maximal_mesh_5 = <[], device_ids=[5]>
"""
    + f"""
func.func @main(%arg0: tensor<8x6xf32> {{sdy.sharding = #sdy.sharding<@mesh, [{{"x"}}, {{"y"}}]>}},
                %arg1: tensor<6x4xf32> {{sdy.sharding = #sdy.sharding<@maximal_mesh_3, []>}})
    -> (tensor<8x4xf32> {{sdy.sharding = #sdy.sharding<@maximal_mesh_0, []>}},
        tensor<8xf32> {{sdy.sharding = #sdy.sharding<@mesh, [{{"x"}}]>}},
        tensor<6x4xf32> {{sdy.sharding = #sdy.sharding<@maximal_mesh_0, []>}}) {{
  %0 = stablehlo.dot_general %arg0, %arg1, contracting_dims = [1] x [0]
      : (tensor<8x6xf32>, tensor<6x4xf32>) -> tensor<8x4xf32>
  %1 = stablehlo.negate %0 {pinned(5)} : tensor<8x4xf32>
  %cst = stablehlo.constant dense<0.0> : tensor<f32>
  %2 = stablehlo.reduce(%1 init: %cst) applies stablehlo.add across dimensions = [1]
      : (tensor<8x4xf32>, tensor<f32>) -> tensor<8xf32>
  %3 = stablehlo.exponential %arg1 {pinned(0)} : tensor<6x4xf32>
  return %0, %2, %3 : tensor<8x4xf32>, tensor<8xf32>, tensor<6x4xf32>
}}
"""
)

# Two devices: a while loop and a call pinned to devices, and a pinned value
# sliced into a sharded result.
TWO_DEVICES = (
    """
sdy.mesh @mesh = <["x"=2]>
sdy.mesh @maximal_mesh_0 = <[], device_ids=[0]>
sdy.mesh @maximal_mesh_1 = <[], device_ids=[1]>
"""
    + f"""
func.func @main(%arg0: tensor<8x4xf32> {{sdy.sharding = #sdy.sharding<@mesh, [{{"x"}}, {{}}]>}},
                %arg1: tensor<8x4xf32> {{sdy.sharding = #sdy.sharding<@maximal_mesh_1, []>}})
    -> (tensor<8x4xf32> {{sdy.sharding = #sdy.sharding<@mesh, [{{}}, {{"x"}}]>}},
        tensor<8x4xf32> {{sdy.sharding = #sdy.sharding<@maximal_mesh_0, []>}}) {{
  %0 = stablehlo.multiply %arg1, %arg0 {pinned(1)} : tensor<8x4xf32>
  %c = stablehlo.constant dense<0> : tensor<i32>
  %1:2 = stablehlo.while(%iterArg = %0, %iterArg_1 = %c) : tensor<8x4xf32>, tensor<i32>
      attributes {{sdy.sharding = #sdy.sharding_per_value<[<@maximal_mesh_1, []>,
                                                         <@maximal_mesh_1, []>]>}}
    cond {{
    %c_2 = stablehlo.constant dense<3> : tensor<i32>
    %2 = stablehlo.compare LT, %iterArg_1, %c_2 : (tensor<i32>, tensor<i32>) -> tensor<i1>
    stablehlo.return %2 : tensor<i1>
  }} do {{
    %c_3 = stablehlo.constant dense<1> : tensor<i32>
    %2 = stablehlo.add %iterArg_1, %c_3 : tensor<i32>
    %3 = stablehlo.tanh %iterArg : tensor<8x4xf32>
    stablehlo.return %3, %2 : tensor<8x4xf32>, tensor<i32>
  }}
  %4 = stablehlo.add %1#0, %arg0 {on_mesh('{}, {"x"}')} : tensor<8x4xf32>
  %5 = call @f(%1#0) : (tensor<8x4xf32>) -> tensor<8x4xf32>
  return %4, %5 : tensor<8x4xf32>, tensor<8x4xf32>
}}
func.func private @f(%arg0: tensor<8x4xf32> {{sdy.sharding = #sdy.sharding<@maximal_mesh_0, []>}})
    -> (tensor<8x4xf32> {{sdy.sharding = #sdy.sharding<@maximal_mesh_0, []>}}) {{
  %0 = stablehlo.sine %arg0 {pinned(0)} : tensor<8x4xf32>
  return %0 : tensor<8x4xf32>
}}
"""
)

# Pinned to a device past the only mesh's 4: the program runs on 6 devices.
PAST_THE_MESH = (
    """
sdy.mesh @mesh = <["x"=2, "y"=2]>
sdy.mesh @maximal_mesh_5 = <[], device_ids=[5]>
"""
    + f"""
func.func @main(%arg0: tensor<8x6xf32> {{sdy.sharding = #sdy.sharding<@mesh, [{{"x"}}, {{"y"}}]>}})
    -> (tensor<8x6xf32> {{sdy.sharding = #sdy.sharding<@mesh, [{{"y"}}, {{"x"}}]>}},
        tensor<8x6xf32> {{sdy.sharding = #sdy.sharding<@maximal_mesh_5, []>}}) {{
  %0 = stablehlo.cosine %arg0 {pinned(5)} : tensor<8x6xf32>
  %1 = stablehlo.multiply %0, %arg0 {on_mesh('{"y"}, {"x"}')} : tensor<8x6xf32>
  return %1, %0 : tensor<8x6xf32>, tensor<8x6xf32>
}}
"""
)

#: The programs above by name.
PINNED_PROGRAMS = {
    "device_to_device": DEVICE_TO_DEVICE,
    "into_sharded": INTO_SHARDED,
    "dot_and_reduce": DOT_AND_REDUCE,
    "two_devices": TWO_DEVICES,
    "past_the_mesh": PAST_THE_MESH,
}


# -- random programs with pinned values -------------------------------------------------------

_CONSTRAINT = re.compile(r"(%[\w#]+) = sdy.sharding_constraint (%[\w#]+) <[^>]*> : (tensor<[^>]*>)")
_ARGUMENT = re.compile(r"\{sdy.sharding = #sdy.sharding<@mesh\w*, [^>]*>\}")


def pinned_program(seed: int) -> str | None:
    """`random_program(seed)` with about half of its sharding constraints
    replaced by a same-shape reshape pinned to a device, and half of its
    argument shardings by maximal ones (devices up to two past the largest
    mesh's); None when nothing was pinned."""
    text = random_program(seed, max_ops=8)
    rng = random.Random(seed)
    sizes = [
        int(np.prod([int(n) for n in re.findall(r"=(\d+)", axes)]))
        for axes in re.findall(r"sdy.mesh @\w+ = <\[([^\]]*)\]", text)
    ]
    count = max(sizes, default=1)
    used: set[int] = set()

    def device() -> int:
        d = rng.randrange(count + 2)
        used.add(d)
        return d

    def constraint(m: re.Match) -> str:
        if rng.random() < 0.5:
            return m.group(0)
        t = m.group(3)
        return f"{m.group(1)} = stablehlo.reshape {m.group(2)} {pinned(device())} : ({t}) -> {t}"

    def argument(m: re.Match) -> str:
        if rng.random() < 0.5:
            return m.group(0)
        return f"{{sdy.sharding = #sdy.sharding<@maximal_mesh_{device()}, []>}}"

    text = _CONSTRAINT.sub(constraint, text)
    head, arrow, tail = text.partition(") -> ")
    text = _ARGUMENT.sub(argument, head) + arrow + tail
    if not used:
        return None
    meshes = "".join(f"  sdy.mesh @maximal_mesh_{d} = <[], device_ids=[{d}]>\n" for d in used)
    return text.replace("module {\n", "module {\n" + meshes, 1)
