"""The primitive functions (Backus 1978, §11.2.3), each a total map from objects to objects.

Every primitive maps ⊥ to ⊥ and gives ⊥ outside its domain.  Each is named by an atom;
:data:`PRIMITIVES` is the table ρ falls back on when an atom has no definition in D.
Selectors are atoms too: ``1``, ``2``, … from the left, ``1r``, ``2r``, … from the right.
Arithmetic and ordering follow :mod:`arest.algebra.numerals`.

``fetch`` and ``store`` read and write an explicit state object, the sequence of cells
``<<CELL, name, contents>, …>`` of Backus §14; the reducer also lets ``fetch`` read a cell of
the state it runs in, see :mod:`arest.algebra.cells`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from decimal import Decimal
from types import MappingProxyType
from typing import Final

from arest.algebra.cells import CELL
from arest.algebra.numerals import CONTEXT, compare, difference, numeral, numeral_value
from arest.algebra.objects import BOTTOM, PHI, Object, T, equal, is_atom, sequence, truth

Primitive = Callable[[Object], Object]



def identity(x: Object) -> Object:
    """Identity: id:x = x.

    >>> show(identity(read("<a, b>")))
    '<a, b>'
    """
    return x


def tail(x: Object) -> Object:
    """Tail: tl:⟨x₁⟩ = φ; tl:⟨x₁,…,xₙ⟩ = ⟨x₂,…,xₙ⟩ for n ≥ 2; otherwise ⊥.

    >>> show(tail(read("<a, b, c>"))), show(tail(read("<a>"))), show(tail(read("<>")))
    ('<b, c>', '<>', '⊥')
    """
    return x[1:] if type(x) is tuple and x else BOTTOM


def right_tail(x: Object) -> Object:
    """Right tail: tlr:⟨x₁⟩ = φ; tlr:⟨x₁,…,xₙ⟩ = ⟨x₁,…,xₙ₋₁⟩ for n ≥ 2; otherwise ⊥.

    >>> show(right_tail(read("<a, b, c>")))
    '<a, b>'
    """
    return x[:-1] if type(x) is tuple and x else BOTTOM


def atom(x: Object) -> Object:
    """Atom: atom:x = T when x is an atom (φ is one); F when x is another object; atom:⊥ = ⊥.

    >>> atom("a"), atom(read("<>")), atom(read("<a>"))
    ('T', 'T', 'F')
    """
    return BOTTOM if x is BOTTOM else truth(is_atom(x))


def null(x: Object) -> Object:
    """Null: null:x = T when x = φ; F when x is another object; null:⊥ = ⊥.

    >>> null(read("<>")), null("a")
    ('T', 'F')
    """
    return BOTTOM if x is BOTTOM else truth(x == ())


def eq(x: Object) -> Object:
    """Equals: eq:⟨y, z⟩ = T when y = z; F when y ≠ z; otherwise ⊥.

    Equality is structural: ``2`` and ``2.0`` are different atoms.

    >>> eq(read("<<a, b>, <a, b>>")), eq(read("<2, 2.0>")), eq("a")
    ('T', 'F', ⊥)
    """
    if type(x) is tuple and len(x) == 2:
        return truth(equal(x[0], x[1]))
    return BOTTOM


def length(x: Object) -> Object:
    """Length: length:⟨x₁,…,xₙ⟩ = n; length:φ = 0; otherwise ⊥.

    >>> length(read("<a, b, c>")), length(read("<>")), length("a")
    ('3', '0', ⊥)
    """
    return str(len(x)) if type(x) is tuple else BOTTOM


def distl(x: Object) -> Object:
    """Distribute from left: distl:⟨y, φ⟩ = φ; distl:⟨y, ⟨z₁,…,zₙ⟩⟩ = ⟨⟨y,z₁⟩,…,⟨y,zₙ⟩⟩; ⊥.

    >>> show(distl(read("<a, <b, c>>")))
    '<<a, b>, <a, c>>'
    """
    if type(x) is tuple and len(x) == 2 and type(x[1]) is tuple:
        y = x[0]
        return tuple((y, z) for z in x[1])
    return BOTTOM


def distr(x: Object) -> Object:
    """Distribute from right: distr:⟨φ, z⟩ = φ; distr:⟨⟨y₁,…,yₙ⟩, z⟩ = ⟨⟨y₁,z⟩,…,⟨yₙ,z⟩⟩; ⊥.

    >>> show(distr(read("<<a, b>, c>")))
    '<<a, c>, <b, c>>'
    """
    if type(x) is tuple and len(x) == 2 and type(x[0]) is tuple:
        z = x[1]
        return tuple((y, z) for y in x[0])
    return BOTTOM


def trans(x: Object) -> Object:
    """Transpose: trans:⟨φ,…,φ⟩ = φ; trans:⟨x₁,…,xₙ⟩ = ⟨y₁,…,yₘ⟩ where xᵢ = ⟨xᵢ₁,…,xᵢₘ⟩ and
    yⱼ = ⟨x₁ⱼ,…,xₙⱼ⟩; trans:φ = φ; otherwise (rows of unequal length, an atom row) ⊥.

    >>> show(trans(read("<<1, 2, 3>, <6, 5, 4>>")))
    '<<1, 6>, <2, 5>, <3, 4>>'
    >>> trans(read("<<1, 2>, <3>>"))
    ⊥
    """
    if type(x) is not tuple:
        return BOTTOM
    if not x:
        return PHI
    width = -1
    for row in x:
        if type(row) is not tuple or (width >= 0 and len(row) != width):
            return BOTTOM
        width = len(row)
    return tuple(zip(*x, strict=True))


def reverse(x: Object) -> Object:
    """Reverse: reverse:φ = φ; reverse:⟨x₁,…,xₙ⟩ = ⟨xₙ,…,x₁⟩; otherwise ⊥.

    >>> show(reverse(read("<a, b, c>")))
    '<c, b, a>'
    """
    return x[::-1] if type(x) is tuple else BOTTOM


def apndl(x: Object) -> Object:
    """Append left: apndl:⟨y, φ⟩ = ⟨y⟩; apndl:⟨y, ⟨z₁,…,zₙ⟩⟩ = ⟨y, z₁,…,zₙ⟩; otherwise ⊥.

    >>> show(apndl(read("<a, <b, c>>")))
    '<a, b, c>'
    """
    if type(x) is tuple and len(x) == 2 and type(x[1]) is tuple:
        return (x[0], *x[1])
    return BOTTOM


def apndr(x: Object) -> Object:
    """Append right: apndr:⟨φ, z⟩ = ⟨z⟩; apndr:⟨⟨y₁,…,yₙ⟩, z⟩ = ⟨y₁,…,yₙ, z⟩; otherwise ⊥.

    >>> show(apndr(read("<<a, b>, c>")))
    '<a, b, c>'
    """
    if type(x) is tuple and len(x) == 2 and type(x[0]) is tuple:
        return (*x[0], x[1])
    return BOTTOM


def rotl(x: Object) -> Object:
    """Rotate left: rotl:φ = φ; rotl:⟨x₁⟩ = ⟨x₁⟩; rotl:⟨x₁,…,xₙ⟩ = ⟨x₂,…,xₙ, x₁⟩; ⊥.

    >>> show(rotl(read("<a, b, c>")))
    '<b, c, a>'
    """
    return x[1:] + x[:1] if type(x) is tuple else BOTTOM


def rotr(x: Object) -> Object:
    """Rotate right: rotr:φ = φ; rotr:⟨x₁⟩ = ⟨x₁⟩; rotr:⟨x₁,…,xₙ⟩ = ⟨xₙ, x₁,…,xₙ₋₁⟩; ⊥.

    >>> show(rotr(read("<a, b, c>")))
    '<c, a, b>'
    """
    return x[-1:] + x[:-1] if type(x) is tuple else BOTTOM


def concat(x: Object) -> Object:
    """Concatenate: concat:⟨⟨x₁…⟩, ⟨y₁…⟩, …⟩ = ⟨x₁…, y₁…, …⟩; concat:φ = φ; ⊥ when an element
    is not a sequence.

    >>> show(concat(read("<<a, b>, <>, <c>>")))
    '<a, b, c>'
    """
    if type(x) is not tuple or any(type(part) is not tuple for part in x):
        return BOTTOM
    return tuple(item for part in x for item in part)  # type: ignore[union-attr]


def iota(x: Object) -> Object:
    """Index generator: iota:n = ⟨1, 2, …, n⟩ for a numeral n ≥ 0 (iota:0 = φ); otherwise ⊥.

    >>> show(iota("3")), show(iota("0")), iota("x")
    ('<1, 2, 3>', '<>', ⊥)
    """
    if type(x) is str and x.isascii() and x.isdigit():
        return tuple(str(i) for i in range(1, int(x) + 1))
    return BOTTOM


def _numeric_pair(x: Object) -> tuple[Decimal, Decimal] | None:
    if type(x) is tuple and len(x) == 2 and type(x[0]) is str and type(x[1]) is str:
        a, b = numeral_value(x[0]), numeral_value(x[1])
        if a is not None and b is not None:
            return a, b
    return None


def _arithmetic(operation: Callable[[Decimal, Decimal], Decimal]) -> Primitive:
    def primitive(x: Object) -> Object:
        pair = _numeric_pair(x)
        if pair is None:
            return BOTTOM
        result = numeral(operation(*pair))
        return BOTTOM if result is None else result

    return primitive


_add = _arithmetic(CONTEXT.add)
_multiply = _arithmetic(CONTEXT.multiply)


def add(x: Object) -> Object:
    """Addition: +:⟨y, z⟩ = y + z for numerals y, z; otherwise ⊥.

    >>> add(read("<2, 3.5>")), add(read("<2, x>"))
    ('5.5', ⊥)
    """
    return _add(x)


def subtract(x: Object) -> Object:
    """Subtraction: -:⟨y, z⟩ = y − z for numerals; for two ISO-8601 date-times the seconds
    between them, for two dates the days; otherwise ⊥.

    >>> subtract(read("<2, 3.5>")), subtract(read("<2024-03-01, 2024-02-01>"))
    ('-1.5', '29')
    """
    if type(x) is tuple and len(x) == 2 and type(x[0]) is str and type(x[1]) is str:
        gap = difference(x[0], x[1])
        if gap is not None:
            result = numeral(gap)
            if result is not None:
                return result
    return BOTTOM


def multiply(x: Object) -> Object:
    """Multiplication: *:⟨y, z⟩ = y × z for numerals; otherwise ⊥.

    >>> multiply(read("<1.5, 2>"))
    '3'
    """
    return _multiply(x)


def divide(x: Object) -> Object:
    """Division: /:⟨y, z⟩ = y ÷ z for numerals with z ≠ 0 (28 significant digits); otherwise ⊥.

    >>> divide(read("<1, 8>")), divide(read("<1, 0>"))
    ('0.125', ⊥)
    """
    pair = _numeric_pair(x)
    if pair is None or pair[1] == 0:
        return BOTTOM
    result = numeral(CONTEXT.divide(*pair))
    return BOTTOM if result is None else result


def _ordering(accepts: Callable[[int], bool]) -> Primitive:
    def primitive(x: Object) -> Object:
        if type(x) is tuple and len(x) == 2 and type(x[0]) is str and type(x[1]) is str:
            sign = compare(x[0], x[1])
            if sign is not None:
                return truth(accepts(sign))
        return BOTTOM

    return primitive


_lt = _ordering(lambda sign: sign < 0)
_le = _ordering(lambda sign: sign <= 0)
_gt = _ordering(lambda sign: sign > 0)
_ge = _ordering(lambda sign: sign >= 0)


def less(x: Object) -> Object:
    """Less than: lt:⟨y, z⟩ = T when y < z, F when not, for two numerals, two dates or two
    date-times; otherwise ⊥.

    >>> less(read("<2, 10>")), less(read("<b, a>"))
    ('T', ⊥)
    """
    return _lt(x)


def less_or_equal(x: Object) -> Object:
    """le:⟨y, z⟩ = T when y ≤ z, F when not, on the domain of ``lt``; otherwise ⊥.

    >>> less_or_equal(read("<2, 2.0>"))
    'T'
    """
    return _le(x)


def greater(x: Object) -> Object:
    """gt:⟨y, z⟩ = T when y > z, F when not, on the domain of ``lt``; otherwise ⊥.

    >>> greater(read("<2024-05-01T10:00:00Z, 2024-05-01T09:00:00Z>"))
    'T'
    """
    return _gt(x)


def greater_or_equal(x: Object) -> Object:
    """ge:⟨y, z⟩ = T when y ≥ z, F when not, on the domain of ``lt``; otherwise ⊥.

    >>> greater_or_equal(read("<1, 2>"))
    'F'
    """
    return _ge(x)


def conjunction(x: Object) -> Object:
    """and:⟨T, T⟩ = T; and:⟨y, z⟩ = F for other truth values y, z; otherwise ⊥.

    >>> conjunction(read("<T, F>")), conjunction(read("<T, a>"))
    ('F', ⊥)
    """
    if type(x) is tuple and len(x) == 2 and x[0] in ("T", "F") and x[1] in ("T", "F"):
        return truth(x[0] == "T" and x[1] == "T")
    return BOTTOM


def disjunction(x: Object) -> Object:
    """or:⟨F, F⟩ = F; or:⟨y, z⟩ = T for other truth values y, z; otherwise ⊥.

    >>> disjunction(read("<T, F>")), disjunction(read("<F, F>"))
    ('T', 'F')
    """
    if type(x) is tuple and len(x) == 2 and x[0] in ("T", "F") and x[1] in ("T", "F"):
        return truth(x[0] == "T" or x[1] == "T")
    return BOTTOM


def negation(x: Object) -> Object:
    """not:T = F; not:F = T; otherwise ⊥.

    >>> negation("T"), negation("a")
    ('F', ⊥)
    """
    if x == T:
        return "F"
    return T if x == "F" else BOTTOM


def _is_cell(x: Object) -> bool:
    return type(x) is tuple and len(x) == 3 and x[0] == CELL


def fetch(x: Object) -> Object:
    """Fetch from an explicit state: fetch:⟨n, ⟨c₁,…,cₖ⟩⟩ = the contents of the cell
    cᵢ = ⟨CELL, n, contents⟩; ⊥ when no cell is named n or the state is not a cell sequence.

    (Applied to a bare name, ``fetch:n`` reads the state the reducer runs in: ↑n:D.)

    >>> fetch(read("<b, <<CELL, a, 1>, <CELL, b, <x, y>>>>"))
    ('x', 'y')
    >>> fetch(read("<z, <<CELL, a, 1>>>"))
    ⊥
    """
    if type(x) is tuple and len(x) == 2 and type(x[1]) is tuple:
        name = x[0]
        for cell in x[1]:
            if not _is_cell(cell):
                return BOTTOM
            if equal(cell[1], name):  # type: ignore[index]
                return cell[2]  # type: ignore[index]
    return BOTTOM


def store(x: Object) -> Object:
    """Store into an explicit state: store:⟨n, y, S⟩ = S with the cell named n holding y (the
    cell keeps its place; a new cell goes last); ⊥ when S is not a cell sequence.  S itself is
    a value and is never changed.

    >>> show(store(read("<b, 2, <<CELL, a, 1>, <CELL, b, 0>>>")))
    '<<CELL, a, 1>, <CELL, b, 2>>'
    >>> show(store(read("<c, 3, <<CELL, a, 1>>>")))
    '<<CELL, a, 1>, <CELL, c, 3>>'
    """
    if not (type(x) is tuple and len(x) == 3 and type(x[2]) is tuple):
        return BOTTOM
    name, contents, state = x
    cells: list[Object] = []
    replaced = False
    for cell in state:  # type: ignore[union-attr]
        if not _is_cell(cell):
            return BOTTOM
        if not replaced and equal(cell[1], name):  # type: ignore[index]
            cells.append((CELL, name, contents))
            replaced = True
        else:
            cells.append(cell)
    if not replaced:
        cells.append((CELL, name, contents))
    return sequence(*cells)


PRIMITIVES: Final[Mapping[str, Primitive]] = MappingProxyType(
    {
        "id": identity,
        "tl": tail,
        "tlr": right_tail,
        "atom": atom,
        "null": null,
        "eq": eq,
        "length": length,
        "distl": distl,
        "distr": distr,
        "trans": trans,
        "reverse": reverse,
        "apndl": apndl,
        "apndr": apndr,
        "rotl": rotl,
        "rotr": rotr,
        "iota": iota,
        "concat": concat,
        "+": add,
        "-": subtract,
        "*": multiply,
        "/": divide,
        "and": conjunction,
        "or": disjunction,
        "not": negation,
        "lt": less,
        "le": less_or_equal,
        "gt": greater,
        "ge": greater_or_equal,
        "fetch": fetch,
        "store": store,
    }
)
"""Every primitive by its atom (selectors aside: see :func:`selector_index`)."""

RIGHT_UNITS: Final[Mapping[str, str]] = MappingProxyType({"+": "0", "*": "1", "and": T, "or": "F"})
"""The right unit u_f of the primitives that have one: /f:φ = u_f (Backus §11.2.4, insert)."""


def selector_index(name: str) -> int | None:
    """The Python index a selector atom picks: ``1`` → 0, ``2`` → 1, ``1r`` → -1; else None.

    >>> selector_index("2"), selector_index("1r"), selector_index("0"), selector_index("x")
    (1, -1, None, None)
    """
    from_right = name.endswith("r")
    digits = name[:-1] if from_right else name
    if not (digits.isascii() and digits.isdigit()) or digits.startswith("0"):
        return None
    position = int(digits)
    return -position if from_right else position - 1


def select(index: int, x: Object) -> Object:
    """Selector s: s:⟨x₁,…,xₙ⟩ = xₛ when n ≥ s; sr:⟨x₁,…,xₙ⟩ = xₙ₋ₛ₊₁ when n ≥ s; otherwise ⊥.

    >>> select(1, read("<a, b, c>")), select(-1, read("<a, b, c>")), select(5, read("<a>"))
    ('b', 'c', ⊥)
    """
    if type(x) is tuple and (-len(x) <= index < len(x)):
        return x[index]
    return BOTTOM
