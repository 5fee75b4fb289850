"""Reads MLIR text (StableHLO + sdy + func) into the IR.

A recursive-descent reader over regexes matched at the current offset. It
reads the generic op form of any op, and the custom (pretty) form of every op
whose `OpDef` defines `parse`. Types and the frequent sharding attributes are
memoized by their text, as MLIR uniques attributes.

Nesting is bounded so that no input reaches Python's recursion limit: regions
nest at most `MAX_REGION_DEPTH` (64) deep, attributes and function types
`MAX_NESTING` (64) deep, and tensors have at most `MAX_RANK` (64) dims;
deeper text is a `ParseError` at the level that goes too deep.

>>> m = parse_module('''
... sdy.mesh @mesh = <["x"=2]>
... func.func @main(%arg0: tensor<8xf32>) -> tensor<8xf32> {
...   %0 = "stablehlo.negate"(%arg0) : (tensor<8xf32>) -> tensor<8xf32>
...   return %0 : tensor<8xf32>
... }''')
>>> [op.name for op in m.walk()]
['sdy.mesh', 'func.func', 'stablehlo.negate', 'func.return']
"""

from __future__ import annotations

import gc
import re
from typing import Any

from shardonnay.collectives.attributes import AXIS_LIST_KEYWORDS, read_axis_list_attr
from shardonnay.errors import ParseError, ShardonnayError
from shardonnay.ir.attributes import (
    UNIT,
    DenseArrayAttr,
    DenseElementsAttr,
    EnumAttr,
    FloatAttr,
    IntegerAttr,
    OpaqueAttr,
    StructAttr,
    SymbolRefAttr,
)
from shardonnay.ir.core import Block, Module, Op, Region, Value
from shardonnay.ir.dense import HEX_THRESHOLD
from shardonnay.ir.floats import float_from_bits
from shardonnay.ir.structure import MAX_REGION_DEPTH
from shardonnay.ir.types import (
    _BARE_ID,
    MAX_NESTING,
    MAX_RANK,
    FunctionType,
    OpaqueType,
    TensorType,
    Type,
    TypeReader,
    numpy_dtype,
    parse_type,
)
from shardonnay.mesh import read_mesh
from shardonnay.ops.registry import lookup
from shardonnay.ops.traits import ISOLATED_FROM_ABOVE, has_trait
from shardonnay.sharding import (
    read_manual_axes,
    read_sharding_per_value,
    read_symbol_name,
    read_tensor_sharding,
)
from shardonnay.sharding_rule import read_op_sharding_rule
from shardonnay.syntax.cursor import _SPACE, _SPACE_START
from shardonnay.syntax.dense_literal import DenseLiteralError, canonical_dense_body

_SSA_USE = re.compile(r"%([A-Za-z0-9_$.\-]+)(?:#(\d+))?")
_RESULT_DEF = re.compile(r"%([A-Za-z0-9_$.\-]+)(?::(\d+))? = ")
_SSA_DEF = re.compile(r"%([A-Za-z0-9_$.\-]+)(?::(\d+))?")
_BLOCK_LABEL = re.compile(r"\^[A-Za-z0-9_$.\-]+")
_OP_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_$]*(?:\.[A-Za-z0-9_$]+)*")
_NUMBER = re.compile(r"-?(?:0x[0-9A-Fa-f]+|[0-9]+(?:\.[0-9]*)?(?:[eE][-+]?[0-9]+)?)")
_ENUM = re.compile(r"#([A-Za-z_][A-Za-z0-9_]*)<([A-Za-z_][A-Za-z0-9_]*) ([A-Za-z_0-9]+)>")
_FLAT = r'[^<>"]*(?:"[^"\\]*"[^<>"]*)*'
_FLAT_SHARDING = re.compile(
    rf"#sdy\.sharding<{_FLAT}>|#sdy\.sharding_per_value<\[(?:<{_FLAT}>(?:, )?)*\]>"
)
_SDY_ATTRS = {
    "#sdy.sharding_per_value": read_sharding_per_value,
    "#sdy.sharding": read_tensor_sharding,
    "#sdy.mesh": read_mesh,
    "#sdy.op_sharding_rule": read_op_sharding_rule,
}

_ATTR_CACHE: dict[str, Any] = {}


class Parser(TypeReader):
    """A cursor over MLIR text that knows types, attributes, ops and regions.

    `OpDef.parse` methods receive this object; the methods they use are
    `operand`, `operands_until`, `type`, `types`, `functional_type`,
    `attribute`, `attribute_of`, `optional_attr_dict`, `region`, `make_op` and
    the `Cursor` vocabulary (`accept`, `expect`, `integer`, `identifier`, ...).
    """

    __slots__ = (
        "_barrier",
        "_depth_base",
        "_scopes",
        "_template_hits",
        "_template_pause",
        "_template_tries",
        "_templates",
        "default_dialects",
        "forward",
        "num_results",
    )

    def __init__(self, text: str, source: str = "<string>"):
        super().__init__(text, source)
        self._scopes: list[dict[str, list[Value]]] = [{}]
        self._barrier = 0  # scopes below this index are invisible (isolated regions)
        self.forward: dict[str, tuple[Value, int]] = {}
        self.default_dialects: list[str | None] = [None]
        self.num_results = 0
        self._depth_base = 0  # 1 inside `module { ... }`, whose region does not count
        self._templates: dict[tuple, _OpTemplate] = {}
        self._template_tries = self._template_hits = self._template_pause = 0

    # -- values --------------------------------------------------------------------

    def operand(self) -> Value:
        """`%name` or `%name#k`."""
        text, start = self.text, self.pos
        if start < len(text) and text[start] in _SPACE_START:
            start = self.pos = _SPACE.match(text, start).end()
        m = _SSA_USE.match(text, start)
        if m is None:
            raise self.error("expected an SSA value like %0 or %arg0")
        self.pos = m.end()
        name, index = m.group(1), int(m.group(2) or 0)
        values = self._scopes[-1].get(name)
        if values is not None and index < len(values):
            return values[index]
        for scope in reversed(self._scopes[self._barrier :]):
            values = scope.get(name)
            if values is not None:
                if index >= len(values):
                    raise self.error(f"%{name} has only {len(values)} results", start)
                return values[index]
        key = f"{name}#{index}"
        if key not in self.forward:  # used before its definition (graph regions)
            self.forward[key] = (Value(OpaqueType("<forward>")), start)
        return self.forward[key][0]

    def operands_until(self, close: str) -> list[Value]:
        """Comma-separated operands up to (not consuming) `close`."""
        if self.peek(close):
            return []
        values = [self.operand()]
        while self.accept(","):
            values.append(self.operand())
        return values

    def define(self, name: str, values: list[Value], pos: int) -> None:
        scope = self._scopes[-1]
        if name in scope:
            raise self.error(f"redefinition of SSA value '%{name}'", pos)
        scope[name] = values
        if not self.forward:
            return
        for i, v in enumerate(values):
            forward = self.forward.pop(f"{name}#{i}", None)
            if forward is not None:
                forward[0].replace_all_uses_with(v)

    # -- attributes ---------------------------------------------------------------------

    def attribute(self) -> Any:
        self.skip_space()
        text, pos = self.text, self.pos
        c = text[pos : pos + 1]
        if c == "#":
            return self._hash_attribute()
        if c == '"':
            return self.string()
        if c == "[":
            self._enter()
            self.pos += 1
            items = []
            if not self.accept("]"):
                items.append(self.attribute())
                while self.accept(","):
                    items.append(self.attribute())
                self.expect("]", "']' closing the array")
            self._nesting -= 1
            return tuple(items)
        if c == "{":
            return self.attr_dict()
        if c == "@":
            names = [self._symbol()]
            while self.text.startswith("::@", self.pos):
                self.pos += 2
                names.append(self._symbol())
            return SymbolRefAttr(tuple(names))
        if text.startswith("dense<", pos):
            # A literal holds no '<' or '>': find its end without a bracket scan (big literals).
            end = text.find(">", pos + 6) + 1
            if end == 0 or "<" in text[pos + 6 : end]:
                end = self._balanced_end(pos + 5)
            body = text[pos + 6 : end - 1]
            self.pos = end
            self.expect(":", "':' and the type of the dense literal")
            t = self.type()
            if not isinstance(t, TensorType):
                raise self.error("expected a tensor type for a dense literal")
            try:
                return DenseElementsAttr(_canonical_dense_body(body, t), t)
            except DenseLiteralError as e:
                raise self.error(e.message, pos + 6 + e.offset) from None
        if text.startswith("array<", pos):
            return self._dense_array()
        if text.startswith("true", pos) and not _is_ident_char(text, pos + 4):
            self.pos += 4
            return True
        if text.startswith("false", pos) and not _is_ident_char(text, pos + 5):
            self.pos += 5
            return False
        if text.startswith("unit", pos) and not _is_ident_char(text, pos + 4):
            self.pos += 4
            return UNIT
        m = _NUMBER.match(text, pos)
        if m is not None:
            return self._number(m)
        for prefix in ("affine_map<", "sparse<", "dense_resource<", "strided<", "loc("):
            if text.startswith(prefix, pos):
                end = self._balanced_end(pos + len(prefix) - 1)
                self.pos = end
                return OpaqueAttr(text[pos:end])
        return self.type()

    def attr_dict(self) -> dict[str, Any]:
        """`{name = value, flag, ...}`."""
        self.expect("{")
        attrs: dict[str, Any] = {}
        if self.accept("}"):
            return attrs
        self._enter()
        while True:
            self.skip_space()
            start = self.pos
            name = self.string() if self.peek('"') else self.match(_BARE_ID, "an attribute name")
            if name in attrs:
                raise self.error(f"duplicate attribute '{name}'", start)
            attrs[name] = self.attribute() if self.accept("=") else UNIT
            if self.accept("}"):
                self._nesting -= 1
                return attrs
            self.expect(",", "',' or '}' in the attribute dictionary")

    def attribute_of(self, text: str) -> Any:
        """The attribute `text` spells, read on its own: for custom forms that
        write an attribute without its prefix (`algorithm = <...>`)."""
        return parse_attribute(text)

    def optional_attr_dict(self) -> dict[str, Any]:
        return self.attr_dict() if self.peek("{") else {}

    def merge_attr_dict(self, attrs: dict[str, Any]) -> dict[str, Any]:
        """Adds an optional `{...}` to `attrs` (an op's own attributes read so far)."""
        start = self.pos
        for key, value in self.optional_attr_dict().items():
            if key in attrs:
                raise self.error(f"attribute '{key}' given twice", start)
            attrs[key] = value
        return attrs

    def check_operand_types(self, operands: list[Value], types, pos: int) -> None:
        """The types written for `operands` are theirs (and as many)."""
        if len(types) != len(operands):
            raise self.error(f"{len(operands)} operands but the type lists {len(types)}", pos)
        for value, t in zip(operands, types, strict=True):
            self._check_type(value, t, pos)

    def signature(self, operands: list[Value], attrs: dict[str, Any]) -> FunctionType:
        """`{attrs} : (operand types) -> results` ending an op's custom form."""
        self.merge_attr_dict(attrs)
        self.expect(":", "':' and the op's function type")
        self.skip_space()
        pos = self.pos
        ftype = self.functional_type()
        self.check_operand_types(operands, ftype.inputs, pos)
        return ftype

    def _symbol(self) -> str:
        self.expect("@")
        return read_symbol_name(self)

    def _number(self, m: re.Match) -> Any:
        token = m.group()
        self.pos = m.end()
        type_name = None
        if self.accept(":"):
            type_name = str(self.type())
        if token.lstrip("-").startswith("0x"):
            bits = int(token, 16)
            if type_name and (type_name.startswith("f") or type_name == "bf16"):
                return FloatAttr(float_from_bits(bits, type_name), type_name, token)
            return IntegerAttr(bits, type_name or "i64")
        if "." in token or "e" in token or "E" in token:
            return FloatAttr(float(token), type_name or "f64", token)
        if type_name and (type_name.startswith("f") or type_name == "bf16"):
            return FloatAttr(float(token), type_name, token)
        return IntegerAttr(int(token), type_name or "i64")

    def _dense_array(self) -> DenseArrayAttr:
        self.pos += len("array<")
        element = self.match(_BARE_ID, "an element type")
        values: list = []
        if self.accept(":"):
            while True:
                self.skip_space()
                if self.accept("true"):
                    values.append(True)
                elif self.accept("false"):
                    values.append(False)
                else:
                    token = self.match(_NUMBER, "a number")
                    values.append(float(token) if element.startswith(("f", "bf")) else int(token))
                if not self.accept(","):
                    break
        self.expect(">", "'>' closing the array")
        return DenseArrayAttr(element, tuple(values))

    def _hash_attribute(self) -> Any:
        text, pos = self.text, self.pos
        fast = _FLAT_SHARDING.match(text, pos)
        if fast is not None:  # a sharding without nested `<>`: no bracket scan needed
            cached = _ATTR_CACHE.get(fast.group())
            if cached is not None:
                self.pos = fast.end()
                return cached
        m = _BARE_ID.match(text, pos + 1)
        name = "#" + (m.group() if m else "")
        end = m.end() if m else pos + 1
        if text.startswith("<", end):
            end = self._balanced_end(end)
        raw = text[pos:end]
        cached = _ATTR_CACHE.get(raw)
        if cached is not None:
            self.pos = end
            return cached
        reader = _SDY_ATTRS.get(name)
        if reader is not None:
            self.pos += len(name)
            value = reader(self)
        elif raw.startswith("#sdy<manual_axes"):
            self.pos += len("#sdy<manual_axes")
            value = read_manual_axes(self)
            self.expect(">")
        elif raw.startswith(AXIS_LIST_KEYWORDS):
            value = read_axis_list_attr(self)
        elif not text.startswith("<", pos + len(name)):
            self.pos = end
            alias = name[1:]
            if alias in self.aliases:
                return parse_attribute(self.aliases[alias])
            return OpaqueAttr(raw)
        else:
            self.pos = end
            value = _enum_or_struct(raw, name[1:], self._nesting)
        if self.pos != end:
            raise self.error("unexpected text in the attribute")
        if len(_ATTR_CACHE) < 100_000:
            _ATTR_CACHE[raw] = value
        return value

    # -- ops -------------------------------------------------------------------------

    def make_op(
        self,
        name: str,
        operands=(),
        result_types=(),
        attributes: dict[str, Any] | None = None,
        regions=(),
    ) -> Op:
        """The op a custom parser read; checks the result count of `%x:N =`."""
        if self.num_results not in (len(result_types), -1):
            raise self.error(
                f"{name} has {len(result_types)} results but {self.num_results} are named"
            )
        return Op(name, operands, result_types, attributes, regions)

    def op(self) -> Op:
        """One op, with its results bound to the names before `=`.

        An op on a line of its own whose text, but for its operand names, is
        that of an op read before (see `_OpTemplate`) is built from that op
        without reading its text again.
        """
        self.skip_space()
        text = self.text
        defs: list[tuple[str, int, int]] = []
        fast = _RESULT_DEF.match(text, self.pos)
        key = None
        if fast is not None:  # the frequent `%name = ` or `%name:2 = `
            defs.append((fast.group(1), int(fast.group(2) or 1), self.pos))
            self.pos = fast.end()
        if (fast is not None or not text.startswith("%", self.pos)) and self._templates_wanted():
            start = self.pos
            eol = text.find("\n", start)
            if eol < 0:
                eol = len(text)
            if eol - start <= _TEMPLATE_LINE_LIMIT:
                parts = _USE_SPLIT.split(text[start:eol])
                key = (
                    self.default_dialects[-1],
                    defs[0][1] if defs else -1,
                    len(self._scopes) - self._depth_base,
                    *parts[::2],
                )
                template = self._templates.get(key)
                if template is not None:
                    op = self._from_template(template, parts[1::2], eol)
                    if op is not None:
                        self._template_hits += 1
                        if defs:
                            self.define(defs[0][0], op.results, defs[0][2])
                        return op
        elif text.startswith("%", self.pos):
            while True:
                self.skip_space()
                start = self.pos
                m = _SSA_DEF.match(self.text, self.pos)
                if m is None:
                    raise self.error("expected a result name")
                self.pos = m.end()
                defs.append((m.group(1), int(m.group(2) or 1), start))
                if not self.accept(","):
                    break
            self.expect("=", "'=' after the result names")
        num_results = sum(n for _, n, _ in defs)
        self.skip_space()
        start = self.pos
        if self.text.startswith('"', self.pos):
            op = self.generic_op()
            if defs and len(op.results) != num_results:
                raise self.error(
                    f"{op.name} has {len(op.results)} results but {num_results} are named", start
                )
        else:
            name = self.match(_OP_NAME, "an op name")
            definition = lookup(name)
            if definition.parse is None and "." not in name and self.default_dialects[-1]:
                name = f"{self.default_dialects[-1]}.{name}"
                definition = lookup(name)
            if definition.parse is None:
                raise self.error(
                    f"no custom syntax known for '{name}'; write it in the generic form "
                    f'"{name}"(...)',
                    start,
                )
            saved = self.num_results
            self.num_results = num_results if defs else -1
            op = definition.parse(self, name)
            self.num_results = saved
        op.location = self._optional_location()
        if key is not None:
            self._record_template(key, op, parts[1::2], eol)
        i = 0
        for name, n, pos in defs:
            self.define(name, op.results[i : i + n], pos)
            i += n
        return op

    def _templates_wanted(self) -> bool:
        """Whether to look the next op line up among the templates: yes, but
        when few of the last `_TEMPLATE_WINDOW` lookups found one (lines that
        do not repeat, where looking costs more than it saves), the next
        `_TEMPLATE_PAUSE` op lines are read without; then lookups resume."""
        if self._template_pause:
            self._template_pause -= 1
            return False
        self._template_tries += 1
        if self._template_tries == _TEMPLATE_WINDOW:
            if self._template_hits < _TEMPLATE_WINDOW // 16:
                self._template_pause = _TEMPLATE_PAUSE
            self._template_tries = self._template_hits = 0
        return True

    def _from_template(self, template: _OpTemplate, uses: list[str], eol: int) -> Op | None:
        """The op of the line that ends at `eol`, whose text but for its
        operands `uses` is that of `template`'s; None (read the line) where
        an operand is not yet defined or has another type than there, or
        where what follows the line is not of the kind that followed the
        template's (see `_next_kind`)."""
        text = self.text
        after = _SPACE.match(text, eol).end()
        if _next_kind(text, after) != template.next_kind:
            return None
        operands = []
        for use, t in zip(uses, template.operand_types, strict=True):
            value = self._visible(use)
            if value is None or (value.type is not t and value.type != t):
                return None
            operands.append(value)
        self.pos = after
        return template.instantiate(operands)

    def _record_template(self, key: tuple, op: Op, uses: list[str], eol: int) -> None:
        """Keeps `op`, just read from the line that ends at `eol`, as the
        template of the lines that differ from it only in operand names.

        Only an op whose text fills its line (then a kind of text follows
        that `_next_kind` names), whose operands are its `uses` in their
        order, all distinct (so each operand comes from one place in the
        text), and whose attributes hold no mutable dictionary can be one."""
        text = self.text
        after = _SPACE.match(text, eol).end()
        next_kind = _next_kind(text, after)
        if (
            next_kind is None
            or len(self._templates) >= _MAX_TEMPLATES
            or _SPACE.match(text, self.pos).end() != after
        ):
            return
        operands = op._operands
        if len(uses) != len(operands) or len(set(map(id, operands))) != len(operands):
            return
        for use, value in zip(uses, operands, strict=True):
            if self._visible(use) is not value:
                return
        for inner in op.walk() if op.regions else (op,):
            if not all(map(_shareable, inner.attributes.values())):
                return
        self._templates[key] = _OpTemplate(op, next_kind)

    def _visible(self, use: str) -> Value | None:
        """The value `%name` or `%name#k` names here, or None where none is
        defined (yet) or it has fewer results."""
        if "#" in use:
            name, _, index = use[1:].partition("#")
            i = int(index)
        else:
            name, i = use[1:], 0
        scopes = self._scopes
        values = scopes[-1].get(name)  # (the innermost scope is always visible)
        if values is None:
            for scope in reversed(scopes[self._barrier : -1]):
                values = scope.get(name)
                if values is not None:
                    break
            else:
                return None
        return values[i] if i < len(values) else None

    def generic_op(self) -> Op:
        """`"name"(operands) <{props}> (regions) {attrs} : (types) -> results`."""
        start = self.pos
        name = self.string("a quoted op name")
        self.expect("(", "'(' before the operands")
        operands = self.operands_until(")")
        self.expect(")")
        if self.peek("["):
            raise self.error("block successors are not supported")
        attributes: dict[str, Any] = {}
        inherent: set[str] = set()
        if self.accept("<"):
            props = self.attr_dict()
            self.expect(">", "'>' closing the properties")
            attributes.update(props)
            inherent.update(props)
        regions: list[Region] = []
        if self.accept("("):
            definition = lookup(name)
            self.default_dialects.append(definition.default_dialect)
            isolated = has_trait(name, ISOLATED_FROM_ABOVE)
            regions.append(self.region(isolated=isolated))
            while self.accept(","):
                regions.append(self.region(isolated=isolated))
            self.default_dialects.pop()
            self.expect(")", "')' after the regions")
        for key, value in self.optional_attr_dict().items():
            if key in attributes:
                raise self.error(f"attribute '{key}' given twice", start)
            attributes[key] = value
        self.expect(":", "':' and the op's function type")
        ftype = self.functional_type()
        if len(ftype.inputs) != len(operands):
            raise self.error(
                f"{name} has {len(operands)} operands but its type lists {len(ftype.inputs)}",
                start,
            )
        for v, t in zip(operands, ftype.inputs, strict=True):
            self._check_type(v, t, start)
        # Keep the properties/attributes split unless it is the usual one.
        usual = {k for k in attributes if "." not in k}
        return Op(
            name,
            operands,
            ftype.results,
            attributes,
            regions,
            inherent=None if inherent == usual else frozenset(inherent),
        )

    def _check_type(self, value: Value, t: Type, pos: int) -> None:
        if isinstance(value.type, OpaqueType) and value.type.text == "<forward>":
            value.type = t
        elif value.type != t:
            raise self.error(f"use of a value of type {value.type} as {t}", pos)

    def _optional_location(self) -> str | None:
        text, pos = self.text, self.pos
        if pos < len(text) and text[pos] in _SPACE_START:
            pos = self.pos = _SPACE.match(text, pos).end()
        if text.startswith("loc(", pos):
            end = self._balanced_end(self.pos + 3)
            loc = self.text[self.pos : end]
            self.pos = end
            return loc
        return None

    # -- regions and blocks -----------------------------------------------------------------

    def region(
        self, arguments: list[tuple[str, Type]] | None = None, *, isolated: bool = False
    ) -> Region:
        """`{ ops }`; `arguments` names the entry block's arguments when the
        op's syntax declares them outside the braces."""
        self.expect("{", "'{' starting a region")
        if len(self._scopes) - self._depth_base > MAX_REGION_DEPTH:
            raise self.error(
                f"regions nested more than {MAX_REGION_DEPTH} levels deep "
                "(the most shardonnay reads)",
                self.pos - 1,
            )
        region = Region()
        saved_barrier = self._barrier
        if isolated:  # values defined above are not visible inside
            self._barrier = len(self._scopes)
        self._scopes.append({})
        block_names: dict[str, Block] = {}
        if self.accept("}"):
            self._scopes.pop()
            self._barrier = saved_barrier
            if arguments:
                block = region.append(Block([t for _, t in arguments]))
            return region
        block = None
        if arguments is not None:
            block = region.append(Block([t for _, t in arguments]))
            for (name, _), value in zip(arguments, block.arguments, strict=True):
                self.define(name, [value], self.pos)
        while not self.accept("}"):
            self.skip_space()
            if self.text.startswith("^", self.pos):
                block = self._block_header(region, block_names, block)
                continue
            if block is None:
                block = region.append(Block())
            block.append(self.op())
        self._scopes.pop()
        self._barrier = saved_barrier
        return region

    def _block_header(self, region: Region, names: dict[str, Block], current) -> Block:
        start = self.pos
        label = self.match(_BLOCK_LABEL, "a block label")
        if label in names:
            raise self.error(f"redefinition of block {label}", start)
        block = Block()
        if current is not None and not current.ops and not current.arguments and not names:
            region.blocks.remove(current)
        region.append(block)
        names[label] = block
        if self.accept("(") and not self.accept(")"):
            while True:
                self.skip_space()
                pos = self.pos
                name = self.match(_SSA_DEF, "a block argument")[1:]
                self.expect(":")
                value = block.add_argument(self.type())
                self._optional_location()
                self.define(name, [value], pos)
                if self.accept(")"):
                    break
                self.expect(",", "',' or ')' after a block argument")
        self.expect(":", "':' after the block label")
        return block

    def block_argument_list(self) -> list[tuple[str, Type, dict[str, Any], str | None]]:
        """`(%a: type {attrs} loc(...), ...)` as in function signatures."""
        self.expect("(")
        args = []
        if self.accept(")"):
            return args
        while True:
            self.skip_space()
            name = self.match(_SSA_DEF, "an argument like %arg0")[1:]
            self.expect(":", "':' and the argument's type")
            t = self.type()
            attrs = self.optional_attr_dict()
            args.append((name, t, attrs, self._optional_location()))
            if self.accept(")"):
                return args
            self.expect(",", "',' or ')' after an argument")

    # -- modules ----------------------------------------------------------------------------

    def module(self) -> Module:
        """A module: `module @name attributes {...} { ... }` or bare top-level ops."""
        self._alias_definitions()
        self.skip_space()
        if self.text.startswith("module", self.pos) and not _is_ident_char(self.text, self.pos + 6):
            self.pos += len("module")
            name = self._symbol() if self.peek("@") else None
            attrs = self.attr_dict() if self.accept("attributes") else {}
            self._depth_base = 1
            region = self.region()
            self._depth_base = 0
            module = Module(name=name, attributes=attrs)
            for block in region.blocks:
                for op in list(block.ops):
                    module.body.append(op)
            module.body.parent = None
            self._optional_location()
        else:
            module = Module()
            while not self.at_end() and not self.text.startswith("{-#", self.pos):
                if self.text.startswith("#", self.pos) or self.text.startswith("!", self.pos):
                    break
                module.body.append(self.op())
            if len(module.ops) == 1 and module.ops[0].name == "builtin.module":
                module = _unwrap_generic_module(module.ops[0])
        self._alias_definitions()
        self.skip_space()
        if self.text.startswith("{-#", self.pos):
            end = self.text.find("#-}", self.pos)
            if end < 0:
                raise self.error("unclosed '{-#'")
            module.trailer = self.text[self.pos : end + 3]
            self.pos = end + 3
        if self.forward:
            key, (_, pos) = next(iter(self.forward.items()))
            raise self.error(f"use of undefined value '%{key.split('#')[0]}'", pos)
        module.aliases = dict(self.aliases)
        return module

    def _alias_definitions(self) -> None:
        """`#name = ...` and `!name = ...` lines, kept as text."""
        while True:
            self.skip_space()
            m = _ALIAS_DEFINITION.match(self.text, self.pos)
            if m is None:
                return
            self.pos = m.end()
            self.skip_space()
            start = self.pos
            self.attribute()
            self.aliases[m.group(1)] = self.text[start : self.pos]


_ALIAS_DEFINITION = re.compile(r"[#!]([A-Za-z_][A-Za-z0-9_$.]*)\s*=")


def _canonical_dense_body(body: str, type: TensorType) -> str:
    """The text MLIR prints for `dense<body>` (see `syntax.dense_literal`), memoized."""
    if body.startswith('"') and type.num_elements > HEX_THRESHOLD:
        expected = 2 + 2 * type.num_elements * _element_bytes(type.element_type)
        if len(body) - 2 == expected and _HEX_BODY.fullmatch(body):  # hex of every element
            return body
    key = (body, type)
    cached = _DENSE_CACHE.get(key)
    if cached is None:
        cached = canonical_dense_body(body, type)
        if len(_DENSE_CACHE) < 10_000 and len(body) < 10_000:
            _DENSE_CACHE[key] = cached
    return cached


def _element_bytes(element_type: str) -> int:
    try:
        return 1 if element_type == "i1" else numpy_dtype(element_type).itemsize
    except ShardonnayError:
        return 0


_HEX_BODY = re.compile(r'"0x[0-9A-Fa-f]*"')
_DENSE_CACHE: dict[tuple[str, TensorType], str] = {}


class _OpTemplate:
    """An op read from a line, less its operands: every line of the same
    text but for the operand names (in the same region depth and default
    dialect, naming as many results) reads as the same op over other
    operands of the same types, so the reader builds that op instead of
    reading the line, where the text after the line is of the same kind
    (`next_kind`): where the reader stopped before it, it stops again.
    `prototype` is the op read, cloned when it has regions (a `reduce` whose
    body `applies` an op); attributes are immutable values, shared as the
    reader's attribute cache shares them."""

    __slots__ = (
        "attributes",
        "inherent",
        "location",
        "name",
        "next_kind",
        "operand_types",
        "prototype",
        "result_types",
    )

    def __init__(self, op: Op, next_kind: str):
        self.name = op.name
        self.operand_types: tuple[Type, ...] = tuple([v.type for v in op._operands])
        self.result_types: tuple[Type, ...] = tuple([r.type for r in op.results])
        self.attributes: dict[str, Any] = dict(op.attributes)
        self.inherent: frozenset[str] | None = op.inherent
        self.location: str | None = op.location
        self.prototype: Op | None = op if op.regions else None
        self.next_kind = next_kind

    def instantiate(self, operands: list[Value]) -> Op:
        if self.prototype is not None:
            return self.prototype.clone(dict(zip(self.prototype._operands, operands, strict=True)))
        return Op(
            self.name,
            operands,
            self.result_types,
            self.attributes,
            location=self.location,
            inherent=self.inherent,
        )


def _shareable(value: Any) -> bool:
    """Whether ops may share the attribute value (not a dictionary, nor an
    array holding one)."""
    if isinstance(value, tuple):
        return all(map(_shareable, value))
    return not isinstance(value, (dict, list))


# Operand names split a line into the text of its template and its operands.
_USE_SPLIT = re.compile(r"(%[A-Za-z0-9_$.\-]+(?:#\d+)?)")


def _next_kind(text: str, pos: int) -> str | None:
    """What starts at `pos` (after an op line), where it is one of the kinds
    after which a line may be read from a template: `%` (an op naming its
    results, `%x = `), `}` (the end of a region), `^` (a block label), or ``
    (the end of the text); None for anything else."""
    c = text[pos : pos + 1]
    if c == "%":
        return c if _RESULT_DEF.match(text, pos) else None
    return c if c in "}^" else None


_TEMPLATE_LINE_LIMIT = 4096
_MAX_TEMPLATES = 10_000
_TEMPLATE_WINDOW = 1024
_TEMPLATE_PAUSE = 8192


def _unwrap_generic_module(op: Op) -> Module:
    """The module written as `"builtin.module"() ({...}) : () -> ()`."""
    attrs = dict(op.attributes)
    name = attrs.pop("sym_name", None)
    module = Module(name=name, attributes=attrs)
    for block in op.regions[0].blocks if op.regions else ():
        for inner in block.ops:
            module.body.append(inner)
    return module


def _is_ident_char(text: str, pos: int) -> bool:
    return pos < len(text) and (text[pos].isalnum() or text[pos] in "_$.")


def _enum_or_struct(raw: str, name: str, nesting: int) -> Any:
    m = _ENUM.fullmatch(raw)
    if m is not None:
        return EnumAttr(m.group(1), m.group(2), m.group(3))
    try:
        return _struct(raw, name, nesting)
    except ParseError:
        return OpaqueAttr(raw)


_INT_LIST = re.compile(r"\[\s*(-?\d+\s*(,\s*-?\d+\s*)*)?\]")
_INT_FIELD = re.compile(r"-?\d+\s*[,>]")


def _struct(raw: str, name: str, nesting: int) -> StructAttr:
    """`#d.name<key = value, ...>` with integer, list and attribute values,
    `nesting` levels deep in the attribute that holds it."""
    p = Parser(raw)
    p._nesting = nesting
    p._enter()
    p.pos = len(name) + 2
    fields = []
    if not p.accept(">"):
        while True:
            key = p.match(_BARE_ID, "a field name")
            p.expect("=")
            p.skip_space()
            if p.peek("[") and _INT_LIST.match(p.text, p.pos):
                p.expect("[")
                values = p.comma_separated("]", p.integer, "an integer")
                fields.append((key, tuple(values)))
            elif _INT_FIELD.match(p.text, p.pos):
                fields.append((key, p.integer()))
            else:
                fields.append((key, p.attribute()))
            if p.accept(">"):
                break
            p.expect(",")
    p.expect_end()
    value = StructAttr(name, tuple(fields))
    if str(value).split() != raw.split():  # not in canonical form: keep the exact text
        raise p.error("not canonical")  # (line breaks and indentation aside)
    return value


# -- entry points --------------------------------------------------------------------------


def parse_module(text: str, source: str = "<string>") -> Module:
    """Reads one module (an explicit `module { ... }` or bare top-level ops)."""
    # The reader allocates many small objects that live on; pausing the cyclic
    # collector keeps the parse linear in the size of the text.
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        parser = Parser(text, source)
        try:
            module = parser.module()
        except ParseError as e:
            raise _foreign_text_error(text, source, e) from None
        parser.expect_end()
        return module
    finally:
        if was_enabled:
            gc.enable()


_MLIR_START = re.compile(r'module\b|func\.func\b|sdy\.mesh\b|[#!%"^]|[a-z_]+\.[a-z_]+')
_READS = "shardonnay reads MLIR text as jax.jit(f).lower(*args).as_text() prints it"


def _foreign_text_error(text: str, source: str, error: ParseError) -> ParseError:
    """`error`, or, when the text fails at its first word and does not start
    like MLIR, an error saying what the text looks like."""
    start = _SPACE.match(text).end()
    if error.offset != start:
        return error
    if text.startswith("HloModule", start):
        return ParseError(
            "this is XLA HLO text (as jax.jit(f).lower(*args).compile().as_text() prints it), "
            f"not MLIR; {_READS}",
            text,
            start,
            source,
        )
    if _MLIR_START.match(text, start):
        return error
    word = re.match(r"\S{1,30}", text[start:])
    found = f"text starting with '{word.group()}'" if word else "no program"
    return ParseError(
        f"expected an MLIR module (module {{...}}, func.func, sdy.mesh, ...), found {found}; "
        + _READS,
        text,
        start,
        source,
    )


def parse_modules(text: str, source: str = "<string>") -> list[Module]:
    """Reads a file of modules separated by `// -----` lines."""
    modules = []
    start = 0
    for separator in [*_SPLIT.finditer(text), None]:
        end = len(text) if separator is None else separator.start()
        # Pad with the lines before the chunk so errors name lines of the whole file.
        modules.append(parse_module("\n" * text.count("\n", 0, start) + text[start:end], source))
        if separator is not None:
            start = separator.end()
    return modules


_SPLIT = re.compile(r"^// -----[^\n]*$", re.MULTILINE)


def parse_attribute(text: str) -> Any:
    parser = Parser(text)
    value = parser.attribute()
    parser.expect_end()
    return value


__all__ = [
    "MAX_NESTING",
    "MAX_RANK",
    "Parser",
    "parse_attribute",
    "parse_module",
    "parse_modules",
    "parse_type",
]
