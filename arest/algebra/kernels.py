"""Two-argument kernels of the binary primitives, for compiled code.

For each binary primitive p, ``BINARY[p](a, b) = p:⟨a, b⟩`` when neither a nor b is ⊥, and
⊥ when either is: the fast evaluator calls a kernel where a program says p∘[f, g], without
building the pair.  ``INSERTS[p](x) = /p:x``, accumulating in decimals rather than
re-reading each partial result's numeral (the values are the same: numerals print exactly).

>>> BINARY["+"]("2", "3.5"), BINARY["lt"]("2", "10"), BINARY["eq"]("a", BOTTOM)
('5.5', 'T', ⊥)
>>> INSERTS["+"](("1", "2", "3")), INSERTS["*"](("x",)), INSERTS["+"](("1", "x"))
('6', 'x', ⊥)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from decimal import Decimal
from types import MappingProxyType
from typing import Final

from arest.algebra.numerals import CONTEXT, compare, numeral, numeral_value
from arest.algebra.objects import BOTTOM, Object, equal
from arest.algebra.primitives import (
    conjunction,
    disjunction,
    divide,
    subtract,
)

Kernel = Callable[[Object, Object], Object]


def _arithmetic(operation: Callable[[Decimal, Decimal], Decimal]) -> Kernel:
    def kernel(a: Object, b: Object) -> Object:
        if type(a) is str and type(b) is str:
            x = numeral_value(a)
            if x is not None:
                y = numeral_value(b)
                if y is not None:
                    result = numeral(operation(x, y))
                    if result is not None:
                        return result
        return BOTTOM

    return kernel


def _ordering(accepts: Callable[[int], bool]) -> Kernel:
    def kernel(a: Object, b: Object) -> Object:
        if type(a) is str and type(b) is str:
            sign = compare(a, b)
            if sign is not None:
                return "T" if accepts(sign) else "F"
        return BOTTOM

    return kernel


def _paired(primitive: Callable[[Object], Object]) -> Kernel:
    def kernel(a: Object, b: Object) -> Object:
        if a is BOTTOM or b is BOTTOM:
            return BOTTOM
        return primitive((a, b))

    return kernel


_ORDERINGS: Final[Mapping[str, Callable[[int], bool]]] = MappingProxyType(
    {
        "lt": lambda sign: sign < 0,
        "le": lambda sign: sign <= 0,
        "gt": lambda sign: sign > 0,
        "ge": lambda sign: sign >= 0,
    }
)
_OPERATIONS: Final[Mapping[str, Callable[[Decimal, Decimal], Decimal]]] = MappingProxyType(
    {"+": CONTEXT.add, "-": CONTEXT.subtract, "*": CONTEXT.multiply}
)


def _equals(a: Object, b: Object) -> Object:
    if a is BOTTOM or b is BOTTOM:
        return BOTTOM
    return "T" if equal(a, b) else "F"


BINARY: Final[Mapping[str, Kernel]] = MappingProxyType(
    {
        "+": _arithmetic(CONTEXT.add),
        "*": _arithmetic(CONTEXT.multiply),
        "-": _paired(subtract),
        "/": _paired(divide),
        "eq": _equals,
        **{name: _ordering(accepts) for name, accepts in _ORDERINGS.items()},
        "and": _paired(conjunction),
        "or": _paired(disjunction),
    }
)


def with_constant(
    name: str, constant: str, constant_first: bool
) -> Callable[[Object], Object] | None:
    """The one-argument kernel of p∘[f, c̄] (or p∘[c̄, f] when ``constant_first``) for an
    ordering or ``+ - *`` p and a numeral c, with c read once; None for any other p or c.

    A numeral is never an instant, so the other operand must be a numeral too.

    >>> above_100 = with_constant("gt", "100", constant_first=False)
    >>> above_100("150"), above_100("99.5"), above_100("x"), above_100(BOTTOM)
    ('T', 'F', ⊥, ⊥)
    >>> with_constant("-", "10", constant_first=True)("4")
    '6'
    """
    value = numeral_value(constant)
    if value is None:
        return None
    accepts = _ORDERINGS.get(name)
    if accepts is not None:
        orient = -1 if constant_first else 1

        def ordering(a: Object) -> Object:
            x = numeral_value(a) if type(a) is str else None
            if x is None:
                return BOTTOM
            return "T" if accepts(orient * ((x > value) - (x < value))) else "F"

        return ordering
    operation = _OPERATIONS.get(name)
    if operation is None:
        return None

    def arithmetic(a: Object) -> Object:
        x = numeral_value(a) if type(a) is str else None
        if x is None:
            return BOTTOM
        result = numeral(operation(value, x) if constant_first else operation(x, value))
        return BOTTOM if result is None else result

    return arithmetic


def _decimal_insert(operation: Callable[[Decimal, Decimal], Decimal], unit: str) -> Callable[
    [Object], Object
]:
    def insert(x: Object) -> Object:
        if type(x) is not tuple:
            return BOTTOM
        if len(x) < 2:
            return x[0] if x else unit
        total: Decimal | None = None
        for item in reversed(x):
            value = numeral_value(item) if type(item) is str else None
            if value is None:
                return BOTTOM
            total = value if total is None else operation(value, total)
        assert total is not None
        result = numeral(total)
        return BOTTOM if result is None else result

    return insert


INSERTS: Final[Mapping[str, Callable[[Object], Object]]] = MappingProxyType(
    {"+": _decimal_insert(CONTEXT.add, "0"), "*": _decimal_insert(CONTEXT.multiply, "1")}
)
