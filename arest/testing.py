"""Hypothesis strategies for arest's algebra, for tests and for notebooks stating properties.

Needs the ``test`` extra (Hypothesis); ``import arest`` never imports this module.

>>> from hypothesis import given
>>> @given(objects())
... def round_trip(x):
...     assert read(show(x)) == x
>>> round_trip()
"""

from __future__ import annotations

from hypothesis import strategies as st

from arest.algebra import forms
from arest.algebra.environment import ENVIRONMENT_PRIMITIVES
from arest.algebra.objects import Object
from arest.algebra.primitives import PRIMITIVES

__all__ = ["atoms", "functions", "objects", "small_atoms", "texts"]

_WORDS = ("a", "b", "c", "T", "F", "x y", "Order Id")
_NUMERALS = ("0", "1", "2", "3", "10", "-4", "2.5", "0.125")
_INSTANTS = ("2024-02-01", "2024-03-01", "2024-01-01T00:00:00", "2024-01-01T00:01:30")


def texts() -> st.SearchStrategy[str]:
    """Any text at all: quotes, commas, brackets, padding, ⊥'s names, the empty text."""
    awkward = st.sampled_from(["", " ", "'", "''", ",", "<>", "⊥", "_|_", " a ", "it's", "\n"])
    return st.one_of(awkward, st.text(max_size=12))


def small_atoms() -> st.SearchStrategy[str]:
    """Atoms the primitives have something to say about: words, truth values, numerals,
    ISO dates."""
    return st.sampled_from(_WORDS + _NUMERALS + _INSTANTS)


def atoms() -> st.SearchStrategy[str]:
    """Atoms of every kind, from :func:`small_atoms` and from :func:`texts`."""
    return st.one_of(small_atoms(), texts())


def objects(
    leaves: st.SearchStrategy[str] | None = None, max_leaves: int = 12
) -> st.SearchStrategy[Object]:
    """Objects without ⊥: atoms, φ and nested sequences.

    ``leaves`` picks the atoms (default: :func:`atoms`, including awkward text).
    """
    leaf: st.SearchStrategy[Object] = st.one_of(atoms() if leaves is None else leaves, st.just(()))
    return st.recursive(
        leaf, lambda inner: st.lists(inner, max_size=4).map(tuple), max_leaves=max_leaves
    )


_SELECTORS = ("1", "2", "3", "1r", "2r")
_PRIMITIVE_ATOMS = (
    tuple(sorted(set(PRIMITIVES) | set(ENVIRONMENT_PRIMITIVES))) + _SELECTORS + ("apply",)
)


def functions(
    defined: tuple[str, ...] = (), max_leaves: int = 10
) -> st.SearchStrategy[Object]:
    """Function objects: primitives, selectors, every built-in form, constants, atoms named in
    ``defined`` (to be given meaning by a ``defs``), and now and then a malformed form, so
    that ⊥ paths are exercised too.  ``while`` may not terminate: evaluate with fuel."""
    leaf = st.one_of(
        st.sampled_from(_PRIMITIVE_ATOMS + defined),
        objects(small_atoms(), max_leaves=4).map(forms.const),
    )

    def extend(inner: st.SearchStrategy[Object]) -> st.SearchStrategy[Object]:
        parts = st.lists(inner, min_size=0, max_size=3)
        return st.one_of(
            parts.map(lambda fs: forms.comp(*fs)),
            parts.map(lambda fs: forms.cons(*fs)),
            st.tuples(inner, inner, inner).map(lambda p: forms.cond(*p)),
            inner.map(forms.alpha),
            inner.map(forms.insert),
            st.tuples(inner, objects(small_atoms(), max_leaves=3)).map(lambda p: forms.bu(*p)),
            st.tuples(inner, inner).map(lambda p: forms.while_(*p)),
            inner.map(forms.filter_),
            inner.map(forms.foldl),
            st.tuples(st.sampled_from(sorted(forms.ARITY)), parts).map(
                lambda p: (p[0], *p[1])
            ),
        )

    return st.recursive(leaf, extend, max_leaves=max_leaves)
