"""The fast evaluator: each function object compiled once into Python source, then run.

``evaluate(f, x, defs, fuel)`` computes the same f:x as the reference reducer whenever both
finish.  A function object becomes one Python function (:mod:`arest.algebra.codegen`); an
atom defined in ``defs`` stays a late-bound call through ``defs``, so recursion and
user-defined controllers (metacomposition) work.

Fuel bounds the only unbounded work, ``while`` iterations, calls through ``defs`` and
``apply``; when it runs out the answer is ⊥.  A computation too deep for Python's stack is
handed to the reference reducer, which keeps its own.

Compiled code is memoized by object identity (the objects are immutable and held by the
memo, so an identity is never reused while cached), as ``re`` memoizes its patterns: the
memo can make evaluation faster, never different.

>>> evaluate(read("<FILTER, <COMP, gt, <CONS, 2, <CONST, 100>>>>"),
...          read("<<a, 50>, <b, 150>, <c, x>>"))
(('b', '150'),)
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from typing import Final

from arest.algebra import forms, reducer
from arest.algebra.codegen import Code, Generator
from arest.algebra.memo import IdentityMemo
from arest.algebra.objects import BOTTOM, Object
from arest.algebra.relations import Archive, Cell, Relation

_CACHE_LIMIT: Final = 4096


class _Exhausted(Exception):
    """The fuel ran out: the whole evaluation is ⊥."""


class _Run:
    """One evaluation's definitions and remaining fuel, threaded through compiled code."""

    __slots__ = ("defs", "fuel")

    def __init__(self, defs: Mapping[str, Cell], fuel: int) -> None:
        self.defs = defs
        self.fuel = fuel

    def tick(self) -> None:
        self.fuel -= 1
        if self.fuel < 0:
            raise _Exhausted

    def call(self, name: str, x: Object) -> Object:
        """(ρ name):x for an atom defined in D."""
        if x is BOTTOM:
            return BOTTOM
        self.tick()
        definition = self.defs.get(name)
        if definition is None or isinstance(definition, Relation | Archive):
            return BOTTOM
        return _code(definition, self.defs)(x, self)

    def run(self, f: Object, x: Object) -> Object:
        """f:x for a function object known only at run time."""
        if x is BOTTOM:
            return BOTTOM
        return _code(f, self.defs)(x, self)

    def apply(self, x: Object) -> Object:
        """apply:⟨g, y⟩ = g:y; it can recurse without D, so it costs fuel."""
        if type(x) is tuple and len(x) == 2:
            self.tick()
            return self.run(x[0], x[1])
        return BOTTOM

    def by_name(self, controller: str, x: Object) -> Object:
        """(ρ C):⟨form, y⟩ for a built-in controller C applied by name."""
        if type(x) is tuple and len(x) == 2 and type(x[0]) is tuple and x[0]:
            return self.run((controller, *x[0][1:]), x[1])
        return BOTTOM

def evaluate(
    f: Object, x: Object, defs: Mapping[str, Cell] | None = None,
    fuel: int = reducer.DEFAULT_FUEL,
) -> Object:
    """f:x, as :func:`arest.algebra.apply` computes it, by compiled code.

    >>> evaluate(read("<COMP, <INSERT, +>, <COMP, <APPLYTOALL, *>, trans>>"),
    ...          read("<<1,2,3>,<6,5,4>>"))
    '28'
    >>> evaluate(read("<SWAP>"), read("<a, b>"), {"SWAP": read("<COMP, <CONS, 2, 1>, 2>")})
    ('b', 'a')
    >>> evaluate(read("<WHILE, <CONST, T>, id>"), "a", fuel=100)
    ⊥
    """
    environment: Mapping[str, Cell] = defs if defs is not None else {}
    try:
        return _Run(environment, fuel).run(f, x)
    except _Exhausted:
        return BOTTOM
    except RecursionError:
        return reducer.apply(f, x, environment, fuel)


class _Entry:
    __slots__ = ("atoms", "code", "obj")

    def __init__(self, obj: Object) -> None:
        self.obj = obj
        self.atoms = frozenset(_function_atoms(obj))
        self.code: dict[frozenset[str], Code] = {}


_entries = IdentityMemo(_Entry, limit=_CACHE_LIMIT)
"""Each function's atoms and its code per set of defined atoms (by the function's identity).
An entry's ``code`` fills as evaluations ask; each is a pure function of f and the atoms
defined, so threads that fill one at once write equal code."""
_NOTHING_DEFINED: Final[frozenset[str]] = frozenset()


def _code(f: Object, defs: Mapping[str, Cell]) -> Code:
    entry = _entries(f)
    defined = _NOTHING_DEFINED
    if defs:
        for atom in entry.atoms:
            if atom in defs:
                defined = frozenset(atom for atom in entry.atoms if atom in defs)
                break
    code = entry.code.get(defined)
    if code is None:
        code = entry.code[defined] = Generator(defined).compile(f)
    return code


def _function_atoms(f: Object) -> Iterator[str]:
    """The atoms f may apply as functions, not counting constants: these decide its code."""
    pending = [f]
    while pending:
        g = pending.pop()
        if type(g) is str:
            yield g
        elif type(g) is tuple and g:
            head = g[0]
            pending.append(head)
            if type(head) is str and head in forms.ARITY:
                if head == forms.CONST:
                    continue
                pending.extend(g[1:2] if head == forms.BU else g[1:])


