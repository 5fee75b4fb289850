"""The reference interpreter: runs a global program on numpy arrays.

Each op's semantics is its `OpDef.evaluate` (StableHLO's spec); sdy
annotation ops are identities on the global program. The interpreter checks
every result against the op's declared type, so a wrong shape or dtype in an
op's semantics is caught where it happens. The body of a manual computation
runs once per device, in lockstep (`Interpreter.run_manual`): each device has
its `DeviceInterpreter`, whose collectives meet the other devices'
(`runtime.devices`).

>>> import numpy as np
>>> from shardonnay.syntax.mlir_reader import parse_module
>>> m = parse_module('''func.func @main(%arg0: tensor<2xf32>) -> tensor<2xf32> {
...   %0 = "stablehlo.add"(%arg0, %arg0) : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
...   return %0 : tensor<2xf32>
... }''')
>>> run(m, np.array([1.0, 2.0], np.float32))
(array([2., 4.], dtype=float32),)
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np

from shardonnay.errors import IRError, ShardonnayError, UnsupportedOpError
from shardonnay.ir.core import Block, Module, Op, Region, Value
from shardonnay.ir.types import TOKEN, TensorType, TokenType
from shardonnay.mesh import Mesh
from shardonnay.ops import collectives
from shardonnay.ops.registry import lookup
from shardonnay.progress import Tracker, tracker
from shardonnay.runtime.devices import Lockstep, ManualDevices, common_op, run_lockstep
from shardonnay.runtime.value_limit import check_value_sizes


class Interpreter:
    """Runs the functions of one module."""

    def __init__(self, module: Module):
        self.module = module
        self._functions = {f.name: f for f in module.functions}
        self._calling: list[str] = []  # the functions being run, outermost first
        # The values visible to the op being evaluated; ops with regions pass it
        # to `run_region` so their bodies see the values defined above them.
        self.current_env: dict[Value, np.ndarray] = {}

    def call(self, name: str, args: Sequence[np.ndarray]) -> list[np.ndarray]:
        """Runs function `name` on `args` and returns its results."""
        func = self._functions.get(name)
        if func is None:
            raise IRError(f"call of unknown function @{name}")
        if func.is_declaration:
            raise IRError(f"@{name} is a declaration without a body")
        if name in self._calling:  # Python's recursion limit would be hit first
            cycle = [*self._calling[self._calling.index(name) :], name]
            raise IRError("recursive call graph: " + " -> ".join(f"@{n}" for n in cycle))
        self._calling.append(name)
        try:
            return self.run_region(func.op.regions[0], args, {})
        finally:
            self._calling.pop()

    def run_region(
        self, region: Region, args: Sequence[np.ndarray], env: dict[Value, np.ndarray]
    ) -> list[np.ndarray]:
        """Runs the entry block of `region` with `args` bound to its arguments;
        `env` holds the values visible from enclosing regions."""
        if len(region.blocks) != 1:
            raise IRError("only single-block regions can be interpreted")
        block = region.entry
        return self.run_block(block, args, env)

    def run_block(
        self, block: Block, args: Sequence[np.ndarray], env: dict[Value, np.ndarray]
    ) -> list[np.ndarray]:
        if len(args) != len(block.arguments):
            raise IRError(f"block takes {len(block.arguments)} arguments, got {len(args)}")
        for value, arg in zip(block.arguments, args, strict=True):
            env[value] = arg
        ops = block.ops
        for op in ops[:-1]:
            self._step(op, env)
        terminator = ops[-1] if ops else None
        if terminator is None or not _is_terminator(terminator):
            raise IRError("block does not end with a return")
        return [env[v] for v in terminator.operands]

    def _step(self, op: Op, env: dict[Value, np.ndarray]) -> None:
        args = [env[v] for v in op.operands]
        self.current_env = env
        try:
            results = lookup(op.name).evaluate(op, args, self)
        except ShardonnayError:
            raise
        except (ValueError, TypeError, IndexError, KeyError) as e:
            raise IRError(f"{op.name}: {e}") from e
        if len(results) != len(op.results):
            raise IRError(f"{op.name} produced {len(results)} values for {len(op.results)}")
        for value, result in zip(op.results, results, strict=True):
            env[value] = _conform(result, value.type, op)

    def evaluate(self, op: Op, env: dict[Value, np.ndarray]) -> None:
        """Runs one op (for passes that interpret single ops)."""
        self._step(op, env)

    def collective(self, op: Op, args: list[np.ndarray]) -> list[np.ndarray]:
        """Runs a cross-device op. The global program has no devices: only
        the per-device interpreter of a manual computation implements this."""
        raise UnsupportedOpError(
            f"{op.name} exchanges data between devices; it can only run inside a manual "
            "computation or on the mesh simulator"
        )

    def run_manual(
        self,
        mesh: Mesh,
        axes: Sequence[str],
        region: Region,
        per_device: Sequence[Sequence[np.ndarray]],
    ) -> list[list[np.ndarray]]:
        """Runs `region` (a manual computation's body on `mesh`, manual along
        `axes`) once per device of those axes, in lockstep: device `i` on
        `per_device[i]`; each device's results."""
        devices = ManualDevices(mesh, self._manual_coords(), axes)
        return run_devices(self.module, devices, region, per_device)

    def _manual_coords(self) -> dict[str, int]:
        """The coordinates fixed by the manual computations this one runs in."""
        return {}


class DeviceInterpreter(Interpreter):
    """Runs device `index` of `devices`; collectives meet the others at `lockstep`."""

    def __init__(self, module: Module, devices: ManualDevices, index: int, lockstep: Lockstep):
        super().__init__(module)
        self.devices = devices
        self.index = index
        self.lockstep = lockstep

    def _manual_coords(self) -> dict[str, int]:
        return self.devices.coords(self.index)

    def collective(self, op: Op, args: list[np.ndarray]) -> list[np.ndarray]:
        if op.name == "stablehlo.partition_id":
            return [np.array(self.devices.partition_id(self.index), np.uint32)]
        if op.name == "stablehlo.replica_id":
            return [np.array(0, np.uint32)]
        return self.lockstep.meet(self.index, (op, args), self._exchange)

    def _exchange(self, deposits: list[tuple[Op, list[np.ndarray]]]) -> list[list[np.ndarray]]:
        op = common_op(deposits)
        operands = {i: args for i, (_, args) in enumerate(deposits)}
        num_partitions = self.devices.mesh.size
        groups = pairs = None
        if op.name == "stablehlo.collective_permute":
            pairs = self.devices.pairs(op, collectives.permute_pairs(op, 1, num_partitions))
        else:
            groups = self.devices.groups(op, collectives.process_groups(op, 1, num_partitions))
        out = collectives.exchange(op, operands, groups, pairs, self)
        missing = [i for i in operands if i not in out]
        if missing:
            raise IRError(f"{op.name}: device(s) {missing} are in no process group")
        return [out[i] for i in range(len(deposits))]


def run_devices(
    module: Module,
    devices: ManualDevices,
    region: Region,
    args: Sequence[Sequence[np.ndarray]],
) -> list[list[np.ndarray]]:
    """Runs `region` on every device of `devices` (device `i` on `args[i]`), in lockstep."""
    lockstep = Lockstep(devices.count)
    steps = tracker(f"simulating {devices.count} devices", max(len(region.entry.ops) - 1, 0))

    def program(i: int) -> Callable[[], list[np.ndarray]]:
        if i == 0 and isinstance(steps, Tracker):
            interp = _ReportingInterpreter(module, devices, i, lockstep, region.entry, steps)
        else:
            interp = DeviceInterpreter(module, devices, i, lockstep)
        return lambda: interp.run_region(region, list(args[i]), {})

    results = run_lockstep(lockstep, [program(i) for i in range(devices.count)])
    steps.finish()
    return results


class _ReportingInterpreter(DeviceInterpreter):
    """A device that advances a progress `Tracker` per op of the `top` block it runs."""

    def __init__(self, module, devices, index, lockstep, top: Block, steps: Tracker):
        super().__init__(module, devices, index, lockstep)
        self.top, self.steps = top, steps

    def _step(self, op: Op, env: dict[Value, np.ndarray]) -> None:
        super()._step(op, env)
        if op.parent is self.top:
            self.steps.advance()


def _is_terminator(op: Op) -> bool:
    return op.name.endswith((".return", ".yield"))


def _conform(result, type, op: Op) -> np.ndarray:
    if isinstance(type, TokenType):
        return TOKEN
    array = np.asarray(result)
    if isinstance(type, TensorType):
        if array.shape != type.shape:
            raise IRError(f"{op.name} computed shape {array.shape} for a result of type {type}")
        dtype = type.dtype
        if array.dtype != dtype:
            array = array.astype(dtype)
    return array


def run(module: Module, *inputs, func: str = "main") -> tuple[np.ndarray, ...]:
    """Runs `func` of `module` on `inputs` (array-likes) and returns its results.

    Inputs are converted to the argument types; a shape that differs from the
    signature raises `ShardonnayError` naming the argument, and so does a
    value too big to hold (`shardonnay.runtime.value_limit`).
    """
    f = module.function(func)
    check_value_sizes(module)
    types = f.type.inputs
    if len(inputs) != len(types):
        raise ShardonnayError(f"@{func} takes {len(types)} inputs, got {len(inputs)}")
    args = []
    for i, (x, t) in enumerate(zip(inputs, types, strict=True)):
        if isinstance(t, TokenType):
            args.append(TOKEN)
            continue
        array = np.asarray(x)
        if not isinstance(t, TensorType) or array.shape != t.shape:
            raise ShardonnayError(
                f"input {i} of @{func} has shape {array.shape}, but the argument type is {t}"
            )
        args.append(array.astype(t.dtype, copy=False))
    return tuple(Interpreter(module).call(func, args))


def _is_ml_float(dtype: np.dtype) -> bool:
    """Whether `dtype` is one of ml_dtypes' floats (bfloat16, float8_*)."""
    try:
        import ml_dtypes

        ml_dtypes.finfo(dtype)
    except (ImportError, TypeError, ValueError):
        return False
    return True


def random_inputs(module: Module, *, seed: int = 0, func: str = "main") -> list[np.ndarray]:
    """Random arguments for `func`: normal floats, small integers, random bools
    (`ShardonnayError` for a program with a value too big to hold:
    `shardonnay.runtime.value_limit`)."""
    check_value_sizes(module)
    rng = np.random.default_rng(seed)
    out = []
    for t in module.function(func).type.inputs:
        if not isinstance(t, TensorType):
            out.append(TOKEN)
            continue
        kind = np.dtype(t.dtype).kind
        if kind == "f" or (kind == "V" and _is_ml_float(t.dtype)):
            out.append(rng.normal(size=t.shape).astype(t.dtype))
        elif kind == "c":
            out.append((rng.normal(size=t.shape) + 1j * rng.normal(size=t.shape)).astype(t.dtype))
        elif kind == "b":
            out.append(rng.integers(0, 2, size=t.shape).astype(bool))
        else:
            out.append(rng.integers(0, 8, size=t.shape).astype(t.dtype))
    return out
