"""Structural mutations of real programs, for fuzzing everything that reads them.

`mutate(seed)` picks a program of the corpus (`tests/corpus/*.mlir`,
`examples/*.mlir` of the checkout, `corpus_programs()`) and one mutation
(a few for some seeds), both determined by the seed, and returns the
mutation's name and the mutated text (bytes where the mutation writes bytes
that are no UTF-8). The mutations are those a careless
user or a broken exporter produces: swapped operands, inconsistent types and
shapes, deleted terminators, huge, zero and negative dims, nesting 1,000 and
more levels deep, 1M-element literals, literals out of range for each element
type, NUL and invalid UTF-8 bytes, invalid shardings and meshes inside
otherwise valid programs, meshes of a million devices and more, missing
meshes, duplicate names, uses before definitions, recursive calls, chains of
hundreds of calls, and plain line and token edits.
"""

from __future__ import annotations

import contextlib
import functools
import io
import random
import re
import warnings
from collections.abc import Callable, Sequence
from pathlib import Path

import shardonnay
from shardonnay.cli import main
from shardonnay.errors import ShardonnayError
from shardonnay.ir.verifier import verify
from shardonnay.testing.checkout import checkout_folder

#: Programs of fewer characters are small enough for a fast test.
SMALL_PROGRAM = 5000


@functools.cache
def corpus_programs(folders: Sequence[Path] | None = None) -> dict[str, str]:
    """The text of every `*.mlir` program in `folders` (by default the
    checkout's `tests/corpus` and `examples`), by file name."""
    if folders is None:
        folders = (checkout_folder("tests", "corpus"), checkout_folder("examples"))
    paths = sorted(path for folder in folders for path in Path(folder).glob("*.mlir"))
    if not paths:
        raise FileNotFoundError(f"no *.mlir programs in {', '.join(map(str, folders))}")
    return {path.name: path.read_text() for path in paths}


def small_programs() -> dict[str, str]:
    """The corpus programs small enough for a fast test (`SMALL_PROGRAM`)."""
    return {name: text for name, text in corpus_programs().items() if len(text) < SMALL_PROGRAM}


_TENSOR = re.compile(r"tensor<((?:\d+x)*)([a-z][a-z0-9]*)>")
_BINARY_OP = re.compile(r"(stablehlo\.\w+) (%[\w#]+), (%[\w#]+)")
_RESULT_DEF = re.compile(r"^(\s*)(%[\w]+)(:\d+)? = ", re.M)
_SHARDING = re.compile(r"#sdy\.sharding<@(\w+), \[([^\]]*)\]")
_MESH = re.compile(r"sdy\.mesh @(\w+) = <\[([^\]]*)\]")
_AXIS = re.compile(r'"(\w+)"=(\d+)')
_CONSTANT = re.compile(r"stablehlo\.constant dense<([^>]*)> : tensor<((?:\d+x)*)([a-z0-9]+)>")
_TERMINATOR = re.compile(r"^\s*(?:return|stablehlo\.return|sdy\.return|func\.return)\b.*$\n?", re.M)
_MAIN = re.compile(r"func\.func (?:public )?@main\(")

_ELEMENT_TYPES = ["i1", "i8", "i16", "i32", "i64", "ui8", "ui32", "f16", "bf16", "f32", "f64"]
_OUT_OF_RANGE = {
    "i1": "2",
    "i8": "[300, -129]",
    "i16": "65536",
    "i32": "4294967296",
    "i64": "18446744073709551616",
    "ui8": "-1",
    "ui32": "4294967296",
    "f16": "0x1FFFF",
    "bf16": "0xFF800000",
    "f32": "0x1FF800000",
    "f64": "-0x1",
}


def _replace_nth(text: str, pattern: re.Pattern, rng: random.Random, repl) -> str | None:
    matches = list(pattern.finditer(text))
    if not matches:
        return None
    m = rng.choice(matches)
    new = repl(m) if callable(repl) else repl
    return text[: m.start()] + new + text[m.end() :]


def swap_operands(rng, text):
    return _replace_nth(text, _BINARY_OP, rng, lambda m: f"{m[1]} {m[3]}, {m[2]}")


def change_type(rng, text):
    def repl(m):
        dims = [int(d) for d in m[1].split("x")[:-1]]
        choice = rng.randrange(4)
        if choice == 0 and dims:
            dims[rng.randrange(len(dims))] += rng.choice([-1, 1, 3])
        elif choice == 1:
            dims.append(rng.choice([1, 2, 7]))
        elif choice == 2 and dims:
            dims.pop(rng.randrange(len(dims)))
        else:
            return f"tensor<{m[1]}{rng.choice(_ELEMENT_TYPES)}>"
        return "tensor<" + "".join(f"{max(d, 0)}x" for d in dims) + m[2] + ">"

    return _replace_nth(text, _TENSOR, rng, repl)


def weird_dim(rng, text):
    size = rng.choice(["0", "1", "-1", "1099511627776", "1000000000000", "4294967297", "3"])

    def repl(m):
        dims = m[1].split("x")[:-1] or ["1"]
        dims[rng.randrange(len(dims))] = size
        return "tensor<" + "".join(f"{d}x" for d in dims) + m[2] + ">"

    return _replace_nth(text, _TENSOR, rng, repl)


def same_type_everywhere(rng, text):
    """Every occurrence of one tensor type becomes another: consistent, but huge or empty."""
    types = sorted(set(_TENSOR.findall(text)))
    if not types:
        return None
    dims, element = rng.choice(types)
    new_dims = "".join(f"{rng.choice([0, 1, 100000, 65536])}x" for _ in dims.split("x")[:-1])
    return text.replace(f"tensor<{dims}{element}>", f"tensor<{new_dims}{element}>")


def delete_terminator(rng, text):
    return _replace_nth(text, _TERMINATOR, rng, "")


def deep_regions(rng, text):
    depth = rng.choice([70, 300, 1200])
    body = "%c = stablehlo.constant dense<1.0> : tensor<f32>\n  stablehlo.return %c : tensor<f32>"
    for i in range(depth - 1):
        body = (
            f"%i{i} = stablehlo.constant dense<0> : tensor<i32>\n"
            f'%r{i} = "stablehlo.case"(%i{i}) ({{\n{body}\n}}) : (tensor<i32>) -> tensor<f32>\n'
            f"stablehlo.return %r{i} : tensor<f32>"
        )
    body = body.rsplit("stablehlo.return", 1)[0] + f"func.return %r{depth - 2} : tensor<f32>"
    return text + "\nfunc.func private @deep() -> tensor<f32> {\n" + body + "\n}\n"


def deep_attribute(rng, text):
    depth = rng.choice([65, 1000, 5000])
    kind = rng.randrange(4)
    if kind == 0:
        attr = "[" * depth + "]" * depth
    elif kind == 1:
        attr = "{a = " * depth + "1" + "}" * depth
    elif kind == 2:
        attr = "#a.b<k = " * depth + "1" + ">" * depth
    else:
        attr = "(" * depth + ") -> ()" * depth
    m = _MAIN.search(text)
    end = text.find(" {\n", m.start()) if m else -1
    if end < 0:
        return None
    return text[:end] + f" attributes {{deep = {attr}}}" + text[end:]


def deep_rank(rng, text):
    rank = rng.choice([64, 65, 1000])
    return _replace_nth(text, _TENSOR, rng, lambda m: "tensor<" + "1x" * rank + m[2] + ">")


def big_literal(rng, text):
    n = rng.choice([1_000_000, 999_999])
    element = rng.choice(["f32", "i32"])
    value = "1.5" if element == "f32" else "7"
    body = "[" + ", ".join([value] * n) + "]"
    line = f"    %big = stablehlo.constant dense<{body}> : tensor<1000000x{element}>\n"
    return _insert_in_main(text, line)


def out_of_range_literal(rng, text):
    element = rng.choice(sorted(_OUT_OF_RANGE))
    value = _OUT_OF_RANGE[element]
    shape = "2x" if value.startswith("[") else ""
    line = f"    %lit = stablehlo.constant dense<{value}> : tensor<{shape}{element}>\n"
    return _insert_in_main(text, line)


def wrong_literal(rng, text):
    """A constant whose literal does not fit its type (count, element kind, hex width)."""

    def repl(m):
        choice = rng.randrange(4)
        if choice == 0:
            return f"stablehlo.constant dense<[1.0, 2.0]> : tensor<{m[2]}{m[3]}>"
        if choice == 1:
            return f"stablehlo.constant dense<true> : tensor<{m[2]}{m[3]}>"
        if choice == 2:
            return f'stablehlo.constant dense<"0x0102030"> : tensor<{m[2]}{m[3]}>'
        return f"stablehlo.constant dense<{m[1]}> : tensor<{m[2]}{rng.choice(_ELEMENT_TYPES)}>"

    return _replace_nth(text, _CONSTANT, rng, repl)


def bad_bytes(rng, text):
    data = bytearray(text.encode())
    for _ in range(rng.randint(1, 3)):
        pos = rng.randrange(len(data) + 1)
        data[pos:pos] = rng.choice([b"\x00", b"\xff", b"\xc3\x28", b"\xe2\x82", b"\xed\xa0\x80"])
    return bytes(data)


def invalid_sharding(rng, text):
    def repl(m):
        dims = m[2]
        choice = rng.randrange(6)
        if choice == 0:
            dims = dims.replace('"', '"zz', 1) if '"' in dims else '{"nosuchaxis"}'
        elif choice == 1:
            dims = dims + ', {"' + rng.choice(["data", "model", "x", "y"]) + '"}'
        elif choice == 2:
            dims = re.sub(r'\{"(\w+)"\}', r'{"\1", "\1"}', dims, count=1) or '{"x", "x"}'
        elif choice == 3:
            dims = dims.replace("{}", '{"data":(1)3}', 1)
        elif choice == 4:
            return f"#sdy.sharding<@nosuchmesh, [{dims}]"
        else:
            dims = dims.replace("}", "}p-1", 1)
        return f"#sdy.sharding<@{m[1]}, [{dims}]"

    return _replace_nth(text, _SHARDING, rng, repl)


def invalid_mesh(rng, text):
    def repl(m):
        axes = m[2]
        choice = rng.randrange(6)
        if choice == 0:
            axes = _AXIS.sub(lambda a: f'"{a[1]}"={rng.choice([0, 1000000, 1000])}', axes, count=1)
        elif choice == 1:
            axes = _AXIS.sub(lambda a: f'"{a[1]}"=1000000', axes)
        elif choice == 2:
            axes = axes + ', "y"=1000000, "z"=1000000'
        elif choice == 3:
            axes = re.sub(r'"(\w+)"', '"dup"', axes)
        elif choice == 4:
            return f"sdy.mesh @{m[1]} = <[{axes}], device_ids=[0, 0]"
        else:
            axes = axes + ', "huge"=1000000000000'
        return f"sdy.mesh @{m[1]} = <[{axes}]"

    return _replace_nth(text, _MESH, rng, repl)


def missing_mesh(rng, text):
    return _replace_nth(text, re.compile(r"^\s*sdy\.mesh @\w+ = .*$\n?", re.M), rng, "")


def duplicate_name(rng, text):
    defs = _RESULT_DEF.findall(text)
    if len(defs) < 2:
        return None
    other = rng.choice(defs)[1]
    return _replace_nth(text, _RESULT_DEF, rng, lambda m: f"{m[1]}{other}{m[3] or ''} = ")


def duplicate_function(rng, text):
    m = re.search(r"func\.func[^\n]*\{\n(?:.*\n)*?\s*\}\n", text)
    if m is None:
        return None
    return text[: m.end()] + m.group().replace("public ", "") + text[m.end() :]


def use_before_def(rng, text):
    lines = text.split("\n")
    candidates = [i for i, line in enumerate(lines) if _RESULT_DEF.match(line + "\n")]
    if len(candidates) < 2:
        return None
    i = rng.choice(candidates[1:])
    j = rng.choice([c for c in candidates if c < i])
    lines.insert(j, lines.pop(i))
    return "\n".join(lines)


def recursion(rng, text):
    m = re.search(r"func\.func (?:public |private )?@(\w+)\((%\w+): (tensor<[^>]*>)", text)
    if m is None:
        return None
    name, arg, type = m[1], m[2], m[3]
    callee = rng.choice([name, "helper"])
    call = f"    %rec = call @{callee}({arg}) : ({type}) -> {type}\n"
    out = _insert_after_signature(text, m.start(), call)
    if callee == "helper":
        out += (
            f"\nfunc.func private @helper(%a: {type}) -> {type} {{\n"
            f"  %0 = call @{name}(%a) : ({type}) -> {type}\n"
            f"  return %0 : {type}\n}}\n"
        )
    return out


def deep_calls(rng, text):
    """A chain of calls 100 or 700 functions long, from the first function."""
    m = re.search(r"func\.func (?:public |private )?@(\w+)\((%\w+): (tensor<[^>]*>)", text)
    if m is None:
        return None
    length, arg, type = rng.choice([100, 700]), m[2], m[3]
    call = f"    %chain = call @chain0({arg}) : ({type}) -> {type}\n"
    out = _insert_after_signature(text, m.start(), call)
    for i in range(length):
        inner = f"call @chain{i + 1}(%a)" if i < length - 1 else "stablehlo.negate %a"
        suffix = f" : ({type}) -> {type}" if i < length - 1 else f" : {type}"
        out += (
            f"\nfunc.func private @chain{i}(%a: {type}) -> {type} {{\n"
            f"  %0 = {inner}{suffix}\n  return %0 : {type}\n}}\n"
        )
    return out


def edit_line(rng, text):
    lines = text.split("\n")
    i = rng.randrange(len(lines))
    choice = rng.randrange(3)
    if choice == 0:
        del lines[i]
    elif choice == 1:
        lines.insert(i, lines[rng.randrange(len(lines))])
    else:
        j = rng.randrange(len(lines))
        lines[i], lines[j] = lines[j], lines[i]
    return "\n".join(lines)


def edit_token(rng, text):
    tokens = re.split(r"(\s+|[(){}<>\[\],:=])", text)
    i = rng.randrange(len(tokens))
    choice = rng.randrange(4)
    if choice == 0:
        tokens[i] = ""
    elif choice == 1:
        tokens[i] = tokens[rng.randrange(len(tokens))]
    elif choice == 2:
        tokens.insert(i, rng.choice(["%0", "@main", "(", ")", "{", "}", "<", ">", "-", "0", "?"]))
    else:
        return text[: rng.randrange(len(text))]  # truncated
    return "".join(tokens)


def _insert_in_main(text: str, line: str) -> str | None:
    m = _MAIN.search(text)
    if m is None:
        return None
    return _insert_after_signature(text, m.start(), line)


def _insert_after_signature(text: str, start: int, line: str) -> str:
    end = text.find(" {\n", start)
    if end < 0:
        return text
    return text[: end + 3] + line + text[end + 3 :]


MUTATIONS: dict[str, Callable[[random.Random, str], str | bytes | None]] = {
    f.__name__: f
    for f in (
        swap_operands,
        change_type,
        weird_dim,
        same_type_everywhere,
        delete_terminator,
        deep_regions,
        deep_attribute,
        deep_rank,
        big_literal,
        out_of_range_literal,
        wrong_literal,
        bad_bytes,
        invalid_sharding,
        invalid_mesh,
        missing_mesh,
        duplicate_name,
        duplicate_function,
        use_before_def,
        recursion,
        deep_calls,
        edit_line,
        edit_token,
    )
}
#: Mutations that make large texts, left out where a test must be fast.
EXPENSIVE = ("big_literal", "deep_regions", "deep_attribute", "deep_calls")


def mutate(
    seed: int, programs: dict[str, str] | None = None, exclude: tuple[str, ...] = ()
) -> tuple[str, str, str | bytes]:
    """`(program name, mutation names, mutated text)` for `seed`, a mutation of
    one of `programs` (by default every program of `corpus_programs()`)."""
    rng = random.Random(seed)
    programs = programs or corpus_programs()
    name = rng.choice(sorted(programs))
    text: str | bytes = programs[name]
    names = [m for m in MUTATIONS if m not in exclude]
    applied = []
    for _ in range(1 if rng.random() < 0.7 else rng.randint(2, 3)):
        if isinstance(text, bytes):
            break
        for _attempt in range(10):
            mutation = rng.choice(names)
            out = MUTATIONS[mutation](rng, text)
            if out is not None and out != text:
                text = out
                applied.append(mutation)
                break
    return name, "+".join(applied) or "none", text


# -- what every input goes through ------------------------------------------------------------

#: The stages, in order; an input stops at the first that raises.
STAGES = ("parse", "verify", "propagate", "partition", "check", "cli")


def exercise(
    text: str | bytes,
    path: str,
    *,
    upto: str = "check",
    cli: bool = True,
    cli_partition: bool = True,
) -> tuple[str, str]:
    """Sends `text` (written to `path` for the CLI) through every stage.

    Returns `(outcome, detail)`: `passed`; `typed` and the error class (a
    `ShardonnayError` at some stage, the CLI's `error:` line); `unexpected`,
    `memory` or `traceback` (an exception escaping the CLI) with the stage,
    exception and message. `upto` names the last stage before the CLI's
    (`verify`, `propagate` or `check`); `cli=False` leaves out the CLI,
    `cli_partition=False` its `shardonnay partition --report --simulate`
    (which repeats partition and check).
    """
    Path(path).write_bytes(text if isinstance(text, bytes) else text.encode())
    outcome = "passed", ""
    stage = "parse"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            if isinstance(text, bytes):
                outcome = "typed", "not UTF-8 (the CLI's error)"
            else:
                module = shardonnay.parse_module(text)
                stage = "verify"
                verify(module)
                module.to_text()
                if upto != "verify":
                    stage = "propagate"
                    shardonnay.propagate(module)
                if upto == "check":
                    stage = "partition"
                    shardonnay.partition(module)
                    stage = "check"
                    shardonnay.check(module, seed=0)
        except ShardonnayError as e:
            outcome = "typed", type(e).__name__
        except MemoryError as e:
            return "memory", f"{stage}: MemoryError: {str(e)[:200]}"
        except Exception as e:  # what the fuzzer is looking for
            return "unexpected", f"{stage}: {type(e).__name__}: {str(e)[:200]}"
        commands = [["fmt", "--verify", path]] if cli else []
        if outcome[0] == "passed" and upto == "check" and cli and cli_partition:
            commands.append(["partition", "--report", "--simulate", "--quiet", path])
        for argv in commands:
            out, err = io.StringIO(), io.StringIO()
            try:
                with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                    status = main(argv)
            except MemoryError as e:
                return "memory", f"cli {argv[0]}: MemoryError: {str(e)[:200]}"
            except Exception as e:  # a traceback the user would see
                return "traceback", f"cli {argv[0]}: {type(e).__name__}: {str(e)[:200]}"
            if status != 0 and not err.getvalue().startswith("error: "):
                return "traceback", f"cli {argv[0]}: status {status} without an error line"
    return outcome
