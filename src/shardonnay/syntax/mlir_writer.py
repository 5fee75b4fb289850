"""Writes the IR as MLIR text, exactly as MLIR's printer does.

Value names follow MLIR's `SSANameState`: results are numbered `%0, %1, ...`
per function (nested regions continue from the enclosing region's last number
and sibling regions restart from it), entry-block arguments are `%argN`, and
ops may ask for names (`%cst`, `%c`, `%iterArg`), made unique with a shared
`_N` counter.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from shardonnay.ir.attributes import attr_str, entry_str
from shardonnay.ir.core import Block, Module, Op, Region, Value
from shardonnay.ir.structure import check_nesting
from shardonnay.ir.types import FunctionType, Type
from shardonnay.ops.registry import OpDef, lookup
from shardonnay.sharding import symbol_ref


class _Names:
    """The printed name of every value and block of one op tree."""

    __slots__ = (
        "blocks",
        "generic",
        "ids",
        "namers",
        "next_arg",
        "next_conflict",
        "next_id",
        "used",
    )

    def __init__(self, generic: bool):
        self.generic = generic
        self.ids: dict[Value, str] = {}
        self.blocks: dict[Block, str] = {}
        self.next_id = 0
        self.next_arg = 0
        self.next_conflict = 0
        self.used: list[set[str]] = [set()]
        # Per op name: its definition's `result_names`, None where it names none.
        self.namers: dict[str, Callable[[Op], list[str | None] | None] | None] = {}

    def number(self, top: list[Op]) -> None:
        """Numbers `top` (the ops of one region) and all regions nested in it.

        Regions wait on a stack (last pushed, first numbered). In the pretty
        form each starts from the counters its parent region ended with; in
        the generic form the counters simply run on, as MLIR's printer does.
        """
        stack: list[tuple[Region, int, int, int, int]] = []
        for op in top:
            self._number_op(op)
        for op in top:
            for region in op.regions:
                stack.append((region, self.next_id, self.next_arg, self.next_conflict, 1))
        while stack:
            region, next_id, next_arg, next_conflict, depth = stack.pop()
            if not self.generic:
                self.next_id, self.next_arg, self.next_conflict = next_id, next_arg, next_conflict
            del self.used[depth:]
            self.used.append(set())
            self._number_region(region)
            for block in region.blocks:
                for op in block.ops:
                    for nested in op.regions:
                        stack.append(
                            (nested, self.next_id, self.next_arg, self.next_conflict, depth + 1)
                        )

    def _number_region(self, region: Region) -> None:
        parent = region.parent
        if parent is not None and not self.generic:
            index = parent.regions.index(region)
            names = lookup(parent.name).block_arg_names(parent, index)
            if names and region.blocks:
                for arg, name in zip(region.entry.arguments, names, strict=False):
                    self._set_name(arg, name)
        for i, block in enumerate(region.blocks):
            self.blocks[block] = f"^bb{i}"
            for arg in block.arguments:
                if arg in self.ids:
                    continue
                if i == 0:
                    self._set_name(arg, f"arg{self.next_arg}")
                    self.next_arg += 1
                else:
                    self._set_name(arg, "")
            for op in block.ops:
                self._number_op(op)

    def _number_op(self, op: Op) -> None:
        if not op.results:
            return
        if not self.generic:
            namer = self.namers.get(op.name, _UNKNOWN)
            if namer is _UNKNOWN:
                namer = self.namers[op.name] = _result_namer(lookup(op.name))
            names = namer(op) if namer is not None else None
            if names:
                for value, name in zip(op.results, names, strict=False):
                    if name:
                        self._set_name(value, _sanitize(name))
        first = op.results[0]
        if first not in self.ids:
            self.ids[first] = str(self.next_id)
            self.next_id += 1

    def _set_name(self, value: Value, name: str) -> None:
        if not name:
            self.ids[value] = str(self.next_id)
            self.next_id += 1
            return
        if any(name in scope for scope in self.used):
            while True:
                probe = f"{name}_{self.next_conflict}"
                self.next_conflict += 1
                if not any(probe in scope for scope in self.used):
                    name = probe
                    break
        self.used[-1].add(name)
        self.ids[value] = name


_UNKNOWN: Any = object()


def _result_namer(definition: OpDef) -> Callable[[Op], list[str | None] | None] | None:
    """`definition.result_names`, None where it is `OpDef`'s (no names)."""
    if type(definition).result_names is OpDef.result_names:
        return None
    return definition.result_names


def _sanitize(name: str) -> str:
    """MLIR appends '_' to a requested name that ends in a digit."""
    return name + "_" if name[-1:].isdigit() else name


class OpPrinter:
    """Writes ops; `OpDef.print` methods receive this object.

    Custom printers write everything after the op name (starting with a space)
    with `write`, `operand`, `operands`, `type`, `attr`, `attr_dict`,
    `functional_type` and `region`.

    Nothing changes the IR while it prints, so the text of an attribute
    entry and of a function type is written once per printer and looked up
    by the identity of its values after that (`_entries`, `_function_types`,
    which hold the values so that their identities stay theirs).

    So is the custom form of an op without regions, but for its operand
    names (`_texts`): a custom printer writes for such an op a text that
    depends only on the op's name, attributes, operand and result types and
    the names of its operands, which it writes through `name`, `operand` or
    `operands`. Ops alike in all but their operands (as the reader and
    `Op.clone` make them, sharing attribute and type objects) print from
    the text written for the first, with their own operand names.
    """

    def __init__(self, *, generic: bool = False, debug_info: bool = False):
        self.generic = generic
        self.debug_info = debug_info
        self.out: list[str] = []
        self.indent = 0
        self.names = _Names(generic)
        self.default_dialects: list[str | None] = [None]
        self._entries: dict[tuple[str | None, int], tuple[Any, str]] = {}
        self._function_types: dict[tuple[int | None, ...], tuple[Any, str]] = {}
        # Per key of identities (as `ir.verifier.alike_key`, with the sharding):
        # an op printed with it (held, so that the identities in the key stay
        # its own) and its text split at its operands (`_OperandRecorder`), or
        # None while only one op with the key was printed.
        self._texts: dict[tuple, tuple[Op, list[str | int] | None]] = {}
        self._recorder: _OperandRecorder | None = None
        # Whether to print from `_texts`: where the ops are many, so that many
        # are alike; in a small module most are unlike any other, and working
        # out their keys costs more than the few alike save.
        self.reuse_texts = False

    # -- the vocabulary of custom printers --------------------------------------------------

    def write(self, text: str) -> None:
        self.out.append(text)

    def name(self, value: Value) -> str:
        """`%name` of a value as used."""
        ids = self.names.ids
        defining = value.defining
        if value.index == 0 or isinstance(defining, Block):
            name = "%" + ids.get(value, "<<UNKNOWN>>")
            if isinstance(defining, Op):
                # Result 0 of a result group `%0:2` is used as `%0#0`.
                results = defining.results
                if len(results) > 1 and results[1] not in ids:
                    return name + "#0"
            return name
        first = defining.results[0]
        if first in ids and value not in ids:
            return f"%{ids[first]}#{value.index}"
        return "%" + ids.get(value, "<<UNKNOWN>>")

    def operand(self, value: Value) -> None:
        self.out.append(self.name(value))

    def operands(self, values) -> None:
        self.out.append(", ".join([self.name(v) for v in values]))

    def type(self, t: Type) -> None:
        self.out.append(str(t))

    def types(self, types) -> None:
        self.out.append(", ".join(map(str, types)))

    def attr(self, value: Any) -> None:
        self.out.append(self._entry(None, value))

    def attr_dict(self, op: Op, elide=(), *, keyword: bool = False) -> None:
        """` {a = 1 : i64}` of the attributes not in `elide` (nothing when empty)."""
        attrs = op.attributes
        if not attrs:
            return
        keys = sorted(k for k in attrs if k not in elide)
        if keys:
            body = ", ".join([self._entry(k, attrs[k]) for k in keys])
            self.out.append(f" {'attributes ' if keyword else ''}{{{body}}}")

    def functional_type(self, op: Op) -> None:
        inputs = tuple([v.type for v in op._operands])
        results = tuple([r.type for r in op.results])
        key = (*map(id, inputs), None, *map(id, results))
        known = self._function_types.get(key)
        if known is None:
            text = str(FunctionType(inputs, results))
            known = self._function_types[key] = ((inputs, results), text)
        self.out.append(known[1])

    def _entry(self, name: str | None, value: Any) -> str:
        """`name = value` as an attribute dictionary holds it (the value
        alone for no name), written once per printer."""
        key = (name, id(value))
        known = self._entries.get(key)
        if known is None:
            text = attr_str(value) if name is None else entry_str(name, value)
            known = self._entries[key] = (value, text)
        return known[1]

    def region(
        self,
        region: Region,
        *,
        print_entry_args: bool = True,
        print_empty_block: bool = False,
        default_dialect: str | None = None,
    ) -> None:
        """`{\\n ops \\n}` at the current indentation."""
        self.out.append("{")
        self.default_dialects.append(default_dialect)
        self.indent += 1
        newline = "\n" + "  " * self.indent
        for i, block in enumerate(region.blocks):
            show_label = i > 0 or (print_entry_args and bool(block.arguments))
            if show_label or (print_empty_block and not block.ops):
                self._block_label(block)
            for op in block.ops:
                self.out.append(newline)
                self.op(op)
        self.indent -= 1
        self.default_dialects.pop()
        self.out.append("\n" + "  " * self.indent + "}")

    def _block_label(self, block: Block) -> None:
        label = self.names.blocks.get(block, "^bb?")
        args = ""
        if block.arguments:
            args = "(" + ", ".join(f"{self.name(a)}: {a.type}" for a in block.arguments) + ")"
        self.out.append("\n" + "  " * (self.indent - 1) + label + args + ":")

    # -- ops ---------------------------------------------------------------------------------

    def op(self, op: Op) -> None:
        results = op.results
        if results:
            first = "%" + self.names.ids.get(results[0], "<<UNKNOWN>>")
            n = len(results)
            if n == 1:
                self.out.append(first + " = ")
            elif results[1] not in self.names.ids:
                self.out.append(f"{first}:{n} = ")
            else:
                self.out.append(", ".join([self.name(r) for r in results]) + " = ")
        definition = lookup(op.name)
        if self.generic or definition.print is None:
            self._generic(op)
        else:
            name = op.name
            dialect = self.default_dialects[-1]
            if dialect and name.startswith(dialect + ".") and name.count(".") == 1:
                name = name[len(dialect) + 1 :]
            self.out.append(name)
            if op.regions or not self.reuse_texts:
                definition.print(op, self)
            else:
                self._custom_without_regions(op, definition)
        if self.debug_info and op.location:
            self.out.append(f" {op.location}")

    def _custom_without_regions(self, op: Op, definition: OpDef) -> None:
        """`definition.print(op, self)`, from the text of an op alike (see the
        class docstring) where one was printed before."""
        operands = op._operands
        key = (
            op.name,
            *[id(v.type) for v in operands],
            None,  # (operands and results apart)
            *[id(r.type) for r in op.results],
            *[(k, id(v)) for k, v in op.attributes.items()],
        )
        known = self._texts.get(key)
        if known is None:  # the first op of its kind: most are the only one
            self._texts[key] = (op, None)
            definition.print(op, self)
            return
        pieces = known[1]
        if pieces is None:  # the second: its text is kept for those after it
            if self._recorder is None:
                self._recorder = _OperandRecorder(self)
            pieces, reusable = self._recorder.record(op, definition)
            if pieces is None:
                definition.print(op, self)
                return
            if reusable:
                self._texts[key] = (op, pieces)
        out = self.out
        name = self.name
        for piece in pieces:
            out.append(piece if piece.__class__ is str else name(operands[piece]))

    def _generic(self, op: Op) -> None:
        out = self.out
        out.append(f'"{op.name}"(')
        out.append(", ".join([self.name(v) for v in op._operands]))
        out.append(")")
        props = sorted(k for k in op.attributes if op.is_inherent(k))
        if props:
            attrs = op.attributes
            out.append(" <{" + ", ".join([self._entry(k, attrs[k]) for k in props]) + "}>")
        if op.regions:
            out.append(" (")
            for i, region in enumerate(op.regions):
                if i:
                    out.append(", ")
                self.region(region, print_empty_block=True, default_dialect=None)
            out.append(")")
        rest = sorted(k for k in op.attributes if not op.is_inherent(k))
        if rest:
            attrs = op.attributes
            out.append(" {" + ", ".join([self._entry(k, attrs[k]) for k in rest]) + "}")
        out.append(" : ")
        self.functional_type(op)

    def text(self) -> str:
        return "".join(self.out)


_REUSE_TEXTS_FROM = 1000  # named values in a module (see `OpPrinter.reuse_texts`)
_MARK = "\x00"  # around the position of an operand in a recorded text


class _OperandRecorder(OpPrinter):
    """Writes an op's custom form as `printer` would, but each operand name
    as its position in the op's operands, marked, so that the text serves
    every op alike (`OpPrinter._custom_without_regions`)."""

    def __init__(self, printer: OpPrinter):
        super().__init__(generic=printer.generic, debug_info=printer.debug_info)
        # The printer's names and caches: the recorded text is what it writes.
        self.names = printer.names
        self.default_dialects = printer.default_dialects
        self._entries = printer._entries
        self._function_types = printer._function_types
        self._operands: list[Value] = []
        self._marks = 0  # operand names written as marks
        self._reusable = True

    def record(self, op: Op, definition: OpDef) -> tuple[list[str | int] | None, bool]:
        """The text of `op` as literal pieces and operand positions (None
        where the text holds the mark itself), and whether it serves ops
        alike: not where its operands repeat (a name could stand for either
        of two) or it names a value besides its operands (written out)."""
        operands = op._operands
        self.out = []
        self._operands = operands
        self._marks = 0
        self._reusable = len(set(map(id, operands))) == len(operands)
        definition.print(op, self)
        text = "".join(self.out)
        self.out = []
        self._operands = []
        if text.count(_MARK) != 2 * self._marks:
            return None, False
        parts = text.split(_MARK)
        pieces = [int(part) if i % 2 else part for i, part in enumerate(parts) if part or i % 2]
        return pieces, self._reusable

    def name(self, value: Value) -> str:
        for i, operand in enumerate(self._operands):
            if operand is value:
                self._marks += 1
                return f"{_MARK}{i}{_MARK}"
        self._reusable = False  # (a name that is not an operand's)
        return super().name(value)


def write_module(module: Module, *, generic: bool = False, debug_info: bool = False) -> str:
    """The text of `module`, as `mlir::Module::print` writes it (an `IRError`
    for regions nested deeper than the writer recurses: `check_nesting`).

    The IR loads it as its `ModuleWriter` (`ir.core.WRITER_MODULE`) when the
    first module is printed, so that `module.to_text()` and `str(module)`
    write with it.
    """
    check_nesting(module)
    printer = OpPrinter(generic=generic, debug_info=debug_info)
    printer.names.number(module.body.ops)
    printer.reuse_texts = len(printer.names.ids) >= _REUSE_TEXTS_FROM
    out = printer.out
    if generic:
        props = f" <{{sym_name = {attr_str(module.name)}}}>" if module.name else ""
        out.append(f'"builtin.module"(){props} ({{\n')
        printer.indent = 1
        for op in module.body.ops:
            out.append("  ")
            printer.op(op)
            out.append("\n")
        out.append("})")
        if module.attributes:
            out.append(" " + _attr_dict_text(module.attributes))
        out.append(" : () -> ()\n")
        return printer.text()
    out.append("module")
    if module.name:
        out.append(" " + symbol_ref(module.name))
    if module.attributes:
        out.append(" attributes " + _attr_dict_text(module.attributes))
    out.append(" {")
    printer.indent = 1
    for op in module.body.ops:
        out.append("\n  ")
        printer.op(op)
    out.append("\n}\n")
    if debug_info and module.aliases:
        for name, text in module.aliases.items():
            out.append(f"#{name} = {text}\n")
    if module.trailer:
        out.append("\n" + module.trailer + "\n")
    return printer.text()


def write_op(op: Op, *, generic: bool = False) -> str:
    """One op (and its regions) as text, for messages and tests."""
    printer = OpPrinter(generic=generic)
    printer.names.number([op])
    printer.op(op)
    return printer.text()


def _attr_dict_text(attrs: dict[str, Any]) -> str:
    return "{" + ", ".join(entry_str(k, attrs[k]) for k in sorted(attrs)) + "}"


__all__ = ["OpPrinter", "write_module", "write_op"]
