"""Functional forms (Backus 1978, §11.2.4) as FFP objects headed by a controller atom.

A form is an ordinary sequence: ``<COMP, f, g>`` is f∘g.  ρ gives a sequence meaning by
metacomposition, (ρ⟨x₁,…,xₙ⟩):y = (ρx₁):⟨⟨x₁,…,xₙ⟩, y⟩, so each controller below is a
function of ⟨form, argument⟩, and a controller a user defines in D works the same way.
The builders here make forms as values; :func:`formula` prints one in Backus's own
notation.  Every form maps ⊥ to ⊥.

>>> show(comp(insert("+"), comp(alpha("*"), "trans")))
'<COMP, <INSERT, +>, <COMP, <APPLYTOALL, *>, trans>>'
>>> formula(comp(insert("+"), comp(alpha("*"), "trans")))
'/+∘α*∘trans'
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType
from typing import Final

from arest.algebra.objects import Object

CONST: Final = "CONST"
COMP: Final = "COMP"
CONS: Final = "CONS"
COND: Final = "COND"
APPLYTOALL: Final = "APPLYTOALL"
INSERT: Final = "INSERT"
BU: Final = "BU"
WHILE: Final = "WHILE"
FILTER: Final = "FILTER"
FOLDL: Final = "FOLDL"

ARITY: Final[Mapping[str, int | None]] = MappingProxyType(
    {
        CONST: 1,
        COMP: None,
        CONS: None,
        COND: 3,
        APPLYTOALL: 1,
        INSERT: 1,
        BU: 2,
        WHILE: 2,
        FILTER: 1,
        FOLDL: 1,
    }
)
"""Each controller and how many parts its form takes after the head (None: any number)."""


def well_formed(form: tuple[Object, ...]) -> bool:
    """True when a form headed by a built-in controller has that controller's arity.

    >>> well_formed(("COND", "null", "id")), well_formed(("COMP",))
    (False, True)
    """
    expected = ARITY.get(form[0]) if type(form[0]) is str else None
    return expected is None or len(form) - 1 == expected


def const(x: Object) -> Object:
    """Constant: x̄:y = x for every y ≠ ⊥; x̄:⊥ = ⊥.

    >>> show(apply(const("a"), read("<b, c>"))), show(apply(const("a"), read("⊥")))
    ('a', '⊥')
    """
    return (CONST, x)


def comp(*functions: Object) -> Object:
    """Composition: (f∘g):x = f:(g:x); n-ary, (f₁∘…∘fₙ):x = f₁:(…(fₙ:x)); ⟨COMP⟩ is id.

    >>> show(apply(comp("1", "tl"), read("<a, b, c>")))
    'b'
    """
    return (COMP, *functions)


def cons(*functions: Object) -> Object:
    """Construction: [f₁,…,fₙ]:x = ⟨f₁:x,…,fₙ:x⟩, which is ⊥ when some fᵢ:x is ⊥.

    >>> show(apply(cons("2", "1"), read("<a, b>"))), show(apply(cons("1", "3"), read("<a>")))
    ('<b, a>', '⊥')
    """
    return (CONS, *functions)


def cond(predicate: Object, then: Object, otherwise: Object) -> Object:
    """Condition: (p → f; g):x = f:x when p:x = T; g:x when p:x = F; otherwise ⊥.

    >>> show(apply(cond("null", const("empty"), "1"), read("<>")))
    'empty'
    >>> show(apply(cond("id", const("a"), const("b")), "maybe"))
    '⊥'
    """
    return (COND, predicate, then, otherwise)


def alpha(function: Object) -> Object:
    """Apply to all: αf:φ = φ; αf:⟨x₁,…,xₙ⟩ = ⟨f:x₁,…,f:xₙ⟩; otherwise ⊥.

    >>> show(apply(alpha("tl"), read("<<a, b>, <c, d>>")))
    '<<b>, <d>>'
    """
    return (APPLYTOALL, function)


def insert(function: Object) -> Object:
    """Insert (right): /f:⟨x₁⟩ = x₁; /f:⟨x₁,…,xₙ⟩ = f:⟨x₁, /f:⟨x₂,…,xₙ⟩⟩; /f:φ = u_f when
    f is a primitive with right unit u_f (``+`` 0, ``*`` 1, ``and`` T, ``or`` F); otherwise ⊥.

    >>> show(apply(insert("-"), read("<10, 4, 1>"))), show(apply(insert("+"), read("<>")))
    ('7', '0')
    """
    return (INSERT, function)


def bu(function: Object, x: Object) -> Object:
    """Binary to unary: (bu f x):y = f:⟨x, y⟩.

    >>> show(apply(bu("-", "10"), "4"))
    '6'
    """
    return (BU, function, x)


def while_(predicate: Object, function: Object) -> Object:
    """While: (while p f):x = (while p f):(f:x) when p:x = T; x when p:x = F; otherwise ⊥.

    >>> show(apply(while_(comp("not", "null"), "tl"), read("<a, b, c>")))
    '<>'
    """
    return (WHILE, predicate, function)


def filter_(predicate: Object) -> Object:
    """Filter: (filter p):⟨x₁,…,xₙ⟩ = ⟨xᵢ | p:xᵢ = T⟩, keeping order; an element that p maps to
    F or ⊥ is dropped; (filter p):φ = φ; on an atom, ⊥.

    >>> show(apply(filter_(comp("lt", cons("id", const("3")))), read("<1, 5, 2, x>")))
    '<1, 2>'
    """
    return (FILTER, predicate)


def foldl(function: Object) -> Object:
    """Left fold: (foldl f):⟨z, φ⟩ = z; (foldl f):⟨z, ⟨e₁,…,eₙ⟩⟩ =
    (foldl f):⟨f:⟨z, e₁⟩, ⟨e₂,…,eₙ⟩⟩; otherwise ⊥.

    >>> show(apply(foldl("-"), read("<10, <4, 1>>")))
    '5'
    """
    return (FOLDL, function)


def formula(f: Object) -> str:
    """A function object in Backus's notation: ``[f, g]∘h``, ``αf``, ``/f``, ``(p → f; g)``, x̄.

    Forms it does not know (and objects nested past 200 levels) print as :func:`show` does.

    >>> formula(cond("null", const("0"), comp("+", cons("1", "2"))))
    '(null → 0̄; +∘[1, 2])'
    """
    return _formula(f, 200)


def _formula(f: Object, budget: int) -> str:
    from arest.algebra.notation import show, show_atom  # the notation loads when first shown

    if budget <= 0 or type(f) is not tuple or not f or type(f[0]) is not str:
        return show_atom(f) if type(f) is str else show(f)
    head, parts = f[0], f[1:]
    if not well_formed(f) or head not in ARITY:
        return show(f)

    def part(x: Object) -> str:
        return _formula(x, budget - 1)

    def operand(x: Object) -> str:
        text = part(x)
        composite = type(x) is tuple and x[:1] == (COMP,) and len(x) > 2
        return f"({text})" if composite else text

    if head == CONST:
        return show(parts[0]) + "\u0304"
    if head == COMP:
        return "∘".join(part(g) for g in parts) if parts else "id"
    if head == CONS:
        return "[" + ", ".join(part(g) for g in parts) + "]"
    if head == COND:
        return f"({part(parts[0])} → {part(parts[1])}; {part(parts[2])})"
    if head == APPLYTOALL:
        return "α" + operand(parts[0])
    if head == INSERT:
        return "/" + operand(parts[0])
    if head == BU:
        return f"(bu {part(parts[0])} {show(parts[1])})"
    if head == WHILE:
        return f"(while {part(parts[0])} {part(parts[1])})"
    if head == FILTER:
        return f"(filter {part(parts[0])})"
    return f"(foldl {part(parts[0])})"
