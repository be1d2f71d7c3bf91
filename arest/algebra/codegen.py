"""Code generation for the fast evaluator: one function object → the source of one Python
function ``compiled(x, run)``.

Forms become expressions; loops and branches (``αf``, ``filter``, ``/f``, ``while``, ``foldl``,
``p → f; g``) become statements; a loop body without statements becomes a comprehension;
``p∘[f, g]`` for a binary primitive p becomes one kernel call without building the pair
(with a numeral constant read once); ``/+`` and ``/*`` accumulate in decimals.  An atom
defined in D is a late-bound ``run.call``, so the code depends only on the object and on
which of its atoms D defines.  Parts nested too deep become ``run.run`` of their own code.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from arest.algebra import forms, kernels, numerals
from arest.algebra.environment import ENVIRONMENT_PRIMITIVES
from arest.algebra.objects import BOTTOM, Object
from arest.algebra.primitives import PRIMITIVES, RIGHT_UNITS, selector_index

Code = Callable[[Object, Any], Object]
"""Compiled code: the argument and the run (definitions, fuel) → the value."""

_INLINE_DEPTH: Final = 32
_BLOCK_DEPTH: Final = 12

_IDENTIFIER_HEAD: Final = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_")


def _is_name(expression: str) -> bool:
    return expression[0] in _IDENTIFIER_HEAD and expression.isidentifier()


class Generator:
    """Writes the Python source of one function object, given which atoms D defines."""

    def __init__(self, defined: frozenset[str]) -> None:
        self.defined = defined
        self.lines: list[str] = []
        self.depth = 1
        self.counter = 0
        self.namespace: dict[str, object] = {"BOTTOM": BOTTOM}

    def compile(self, f: Object) -> Code:
        result, _ = self.emit(f, "x", False, 0)
        body = "\n".join(self.lines)
        source = f"def compiled(x, run):\n    if x is BOTTOM:\n        return BOTTOM\n{body}\n"
        source += f"    return {result}\n"
        exec(compile(source, "<arest.algebra.fast>", "exec"), self.namespace)
        code: Code = self.namespace["compiled"]  # type: ignore[assignment]
        return code

    # -- plumbing -------------------------------------------------------------------------
    def fresh(self, prefix: str = "t") -> str:
        self.counter += 1
        return f"{prefix}{self.counter}"

    def line(self, text: str) -> None:
        self.lines.append("    " * self.depth + text)

    def constant(self, value: object) -> str:
        name = self.fresh("K")
        self.namespace[name] = value
        return name

    def bind(self, expression: str) -> str:
        """A name for expression's value, so that using it twice computes it once."""
        if _is_name(expression):
            return expression
        name = self.fresh()
        self.line(f"{name} = {expression}")
        return name

    # -- the emitters: each returns (expression, whether it may be ⊥) ------------------------
    def emit(self, f: Object, v: str, may_fail: bool, level: int) -> tuple[str, bool]:
        if level > _INLINE_DEPTH or self.depth > _BLOCK_DEPTH:
            return f"run.run({self.constant(f)}, {v})", True
        if type(f) is str:
            return self.emit_atom(f, v, may_fail)
        if type(f) is not tuple or not f:
            return "BOTTOM", True
        head = f[0]
        if type(head) is str and head in forms.ARITY and head not in self.defined:
            if not forms.well_formed(f):
                return "BOTTOM", True
            return self.emit_form(head, f[1:], v, may_fail, level + 1)
        # Metacomposition: (ρ⟨x₁,…,xₙ⟩):y = (ρx₁):⟨⟨x₁,…,xₙ⟩, y⟩.
        pair = self.pair(self.constant(f), False, v, may_fail)
        return self.emit(head, pair, may_fail, level + 1)

    def emit_atom(self, name: str, v: str, may_fail: bool) -> tuple[str, bool]:
        if name in self.defined:
            return f"run.call({name!r}, {v})", True
        if name == "id":
            return v, may_fail
        environmental = ENVIRONMENT_PRIMITIVES.get(name)
        if environmental is not None:
            return f"{self.constant(environmental)}(run.defs, {v})", True
        if name == "apply":
            return f"run.apply({v})", True
        primitive = PRIMITIVES.get(name)
        if primitive is not None:
            return f"{self.constant(primitive)}({v})", True
        if name in forms.ARITY:
            return f"run.by_name({name!r}, {v})", True
        index = selector_index(name)
        if index is None:
            return "BOTTOM", True
        v = self.bind(v)
        fits = f"len({v}) > {index}" if index >= 0 else f"len({v}) >= {-index}"
        return f"({v}[{index}] if type({v}) is tuple and {fits} else BOTTOM)", True

    def pair(self, a: str, a_may_fail: bool, b: str, b_may_fail: bool) -> str:
        checks = [f"{x} is not BOTTOM" for x, m in ((a, a_may_fail), (b, b_may_fail)) if m]
        if not checks:
            return f"({a}, {b})"
        a, b = self.bind(a), self.bind(b)
        checks = [f"{x} is not BOTTOM" for x, m in ((a, a_may_fail), (b, b_may_fail)) if m]
        return f"(({a}, {b}) if {' and '.join(checks)} else BOTTOM)"

    def kernel(self, name: str) -> str | None:
        """The two-argument kernel for a binary primitive atom D leaves alone, if any."""
        if type(name) is not str or name in self.defined:
            return None
        kernel = kernels.BINARY.get(name)
        return None if kernel is None else self.constant(kernel)

    def emit_form(
        self, head: str, parts: tuple[Object, ...], v: str, may_fail: bool, level: int
    ) -> tuple[str, bool]:
        if head == forms.CONST:
            value = self.constant(parts[0])
            if may_fail:
                v = self.bind(v)
                return f"({value} if {v} is not BOTTOM else BOTTOM)", True
            return value, parts[0] is BOTTOM
        if head == forms.COMP:
            return self.emit_composition(parts, v, may_fail, level)
        if head == forms.CONS:
            return self.emit_construction(parts, v, may_fail, level)
        if head == forms.COND:
            return self.emit_condition(parts, v, may_fail, level)
        if head == forms.BU:
            kernel = self.kernel(parts[0])  # type: ignore[arg-type]
            if kernel is not None:
                return f"{kernel}({self.constant(parts[1])}, {v})", True
            pair = self.pair(self.constant(parts[1]), parts[1] is BOTTOM, v, may_fail)
            return self.emit(parts[0], pair, True, level)
        loop = {
            forms.APPLYTOALL: self.emit_apply_to_all,
            forms.FILTER: self.emit_filter,
            forms.INSERT: self.emit_insert,
            forms.WHILE: self.emit_while,
            forms.FOLDL: self.emit_foldl,
        }[head]
        return loop(parts, self.bind(v), level)

    def emit_composition(
        self, parts: tuple[Object, ...], v: str, may_fail: bool, level: int
    ) -> tuple[str, bool]:
        current, fails = v, may_fail
        index = len(parts) - 1
        while index >= 0:
            g = parts[index]
            fused = index >= 1 and self.construction_pair(g)
            kernel = self.kernel(parts[index - 1]) if fused else None  # type: ignore[arg-type]
            if fused and kernel is not None:
                assert type(g) is tuple
                current = self.fused(parts[index - 1], g[1], g[2], kernel, current, fails, level)
                fails = True
                index -= 2
            else:
                current, fails = self.emit(g, current, fails, level)
                index -= 1
        return current, fails

    def fused(
        self, name: Object, f: Object, g: Object, kernel: str, v: str, may_fail: bool, level: int
    ) -> str:
        """p∘[f, g] as one kernel call; with a numeral constant on one side, read it once."""
        assert type(name) is str
        for constant, other, constant_first in ((g, f, False), (f, g, True)):
            if self.is_numeral_constant(constant):
                assert type(constant) is tuple and type(constant[1]) is str
                special = kernels.with_constant(name, constant[1], constant_first)
                if special is not None:
                    operand, _ = self.emit(other, v, may_fail, level)
                    if may_fail:
                        v = self.bind(v)
                        return f"({self.constant(special)}({operand}) if {v} is not BOTTOM " \
                            "else BOTTOM)"
                    return f"{self.constant(special)}({operand})"
        v = self.bind(v)
        a, _ = self.emit(f, v, may_fail, level)
        b, _ = self.emit(g, v, may_fail, level)
        return f"{kernel}({a}, {b})"

    def is_numeral_constant(self, f: Object) -> bool:
        return (
            type(f) is tuple and len(f) == 2 and f[0] == forms.CONST
            and forms.CONST not in self.defined and type(f[1]) is str
            and numerals.is_numeral(f[1])
        )

    def construction_pair(self, g: Object) -> bool:
        return type(g) is tuple and len(g) == 3 and g[0] == forms.CONS and (
            forms.CONS not in self.defined
        )

    def emit_construction(
        self, parts: tuple[Object, ...], v: str, may_fail: bool, level: int
    ) -> tuple[str, bool]:
        if not parts:
            if may_fail:
                v = self.bind(v)
                return f"(() if {v} is not BOTTOM else BOTTOM)", True
            return "()", False
        if len(parts) > 1:
            v = self.bind(v)
        elements: list[str] = []
        failing: list[str] = []
        for g in parts:
            expression, fails = self.emit(g, v, may_fail, level)
            if fails:
                expression = self.bind(expression)
                failing.append(expression)
            elements.append(expression)
        built = "(" + ", ".join(elements) + ("," if len(elements) == 1 else "") + ")"
        if not failing:
            return built, False
        checks = " and ".join(f"{name} is not BOTTOM" for name in failing)
        return f"({built} if {checks} else BOTTOM)", True

    def emit_condition(
        self, parts: tuple[Object, ...], v: str, may_fail: bool, level: int
    ) -> tuple[str, bool]:
        v = self.bind(v)
        verdict = self.bind(self.emit(parts[0], v, may_fail, level)[0])
        result = self.fresh()
        self.line(f"if {verdict} == 'T':")
        self.depth += 1
        self.line(f"{result} = {self.emit(parts[1], v, may_fail, level)[0]}")
        self.depth -= 1
        self.line(f"elif {verdict} == 'F':")
        self.depth += 1
        self.line(f"{result} = {self.emit(parts[2], v, may_fail, level)[0]}")
        self.depth -= 1
        self.line("else:")
        self.line(f"    {result} = BOTTOM")
        return result, True

    def loop_body(self, f: Object, element: str, level: int) -> tuple[list[str], str, bool]:
        """Emit f:element at the depth of a loop body inside an ``if``; return the statements
        it needed apart, so that a body without any can become a comprehension."""
        mark = len(self.lines)
        self.depth += 2
        expression, fails = self.emit(f, element, False, level)
        self.depth -= 2
        statements = self.lines[mark:]
        del self.lines[mark:]
        return statements, expression, fails

    def emit_apply_to_all(
        self, parts: tuple[Object, ...], v: str, level: int
    ) -> tuple[str, bool]:
        element, result = self.fresh("e"), self.fresh()
        statements, expression, fails = self.loop_body(parts[0], element, level)
        self.line(f"if type({v}) is tuple:")
        self.depth += 1
        if not statements and not fails:
            self.line(f"{result} = tuple([{expression} for {element} in {v}])")
        else:
            values = self.fresh("acc")
            self.line(f"{values} = []")
            self.line(f"for {element} in {v}:")
            self.lines.extend(statements)
            self.depth += 1
            value = expression
            if fails:
                value = self.bind(expression)
                self.line(f"if {value} is BOTTOM:")
                self.line(f"    {values} = None")
                self.line("    break")
            self.line(f"{values}.append({value})")
            self.depth -= 1
            self.line(f"{result} = BOTTOM if {values} is None else tuple({values})")
        self.depth -= 1
        self.line("else:")
        self.line(f"    {result} = BOTTOM")
        return result, True

    def emit_filter(self, parts: tuple[Object, ...], v: str, level: int) -> tuple[str, bool]:
        element, result = self.fresh("e"), self.fresh()
        statements, expression, _ = self.loop_body(parts[0], element, level)
        self.line(f"if type({v}) is tuple:")
        self.depth += 1
        if not statements:
            self.line(f"{result} = tuple([{element} for {element} in {v} "
                      f"if {expression} == 'T'])")
        else:
            kept = self.fresh("acc")
            self.line(f"{kept} = []")
            self.line(f"for {element} in {v}:")
            self.lines.extend(statements)
            self.line(f"    if {expression} == 'T':")
            self.line(f"        {kept}.append({element})")
            self.line(f"{result} = tuple({kept})")
        self.depth -= 1
        self.line("else:")
        self.line(f"    {result} = BOTTOM")
        return result, True

    def emit_insert(self, parts: tuple[Object, ...], v: str, level: int) -> tuple[str, bool]:
        f = parts[0]
        if type(f) is str and f not in self.defined and f in kernels.INSERTS:
            return f"{self.constant(kernels.INSERTS[f])}({v})", True
        unit = RIGHT_UNITS.get(f) if type(f) is str and f not in self.defined else None
        accumulated, item, result = self.fresh("acc"), self.fresh("e"), self.fresh()
        self.line(f"if type({v}) is tuple and {v}:")
        self.depth += 1
        self.line(f"{accumulated} = {v}[-1]")
        self.line(f"for {item} in {v}[-2::-1]:")
        self.depth += 1
        kernel = self.kernel(f)  # type: ignore[arg-type]
        if kernel is not None:
            self.line(f"{accumulated} = {kernel}({item}, {accumulated})")
        else:
            pair = self.pair(item, False, accumulated, True)
            self.line(f"{accumulated} = {self.emit(f, pair, True, level)[0]}")
        self.line(f"if {accumulated} is BOTTOM:")
        self.line("    break")
        self.depth -= 1
        self.line(f"{result} = {accumulated}")
        self.depth -= 1
        fallback = self.constant(unit) if unit is not None else "BOTTOM"
        self.line(f"elif {v} == ():")
        self.line(f"    {result} = {fallback}")
        self.line("else:")
        self.line(f"    {result} = BOTTOM")
        return result, True

    def emit_while(self, parts: tuple[Object, ...], v: str, level: int) -> tuple[str, bool]:
        current, result = self.fresh("w"), self.fresh()
        self.line(f"{current} = {v}")
        self.line("while True:")
        self.depth += 1
        self.line("run.tick()")
        verdict = self.bind(self.emit(parts[0], current, True, level)[0])
        self.line(f"if {verdict} == 'T':")
        self.depth += 1
        self.line(f"{current} = {self.emit(parts[1], current, True, level)[0]}")
        self.depth -= 1
        self.line(f"elif {verdict} == 'F':")
        self.line(f"    {result} = {current}")
        self.line("    break")
        self.line("else:")
        self.line(f"    {result} = BOTTOM")
        self.line("    break")
        self.depth -= 1
        return result, True

    def emit_foldl(self, parts: tuple[Object, ...], v: str, level: int) -> tuple[str, bool]:
        accumulated, item, result = self.fresh("acc"), self.fresh("e"), self.fresh()
        self.line(f"if type({v}) is tuple and len({v}) == 2 and type({v}[1]) is tuple:")
        self.depth += 1
        self.line(f"{accumulated} = {v}[0]")
        self.line(f"for {item} in {v}[1]:")
        self.depth += 1
        kernel = self.kernel(parts[0])  # type: ignore[arg-type]
        if kernel is not None:
            self.line(f"{accumulated} = {kernel}({accumulated}, {item})")
        else:
            pair = self.pair(accumulated, True, item, False)
            self.line(f"{accumulated} = {self.emit(parts[0], pair, True, level)[0]}")
        self.line(f"if {accumulated} is BOTTOM:")
        self.line("    break")
        self.depth -= 1
        self.line(f"{result} = {accumulated}")
        self.depth -= 1
        self.line("else:")
        self.line(f"    {result} = BOTTOM")
        return result, True

