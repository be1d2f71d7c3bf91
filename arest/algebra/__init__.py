"""Backus's FFP algebra on persistent cells: objects, primitives, forms, ρ, the reducers, cells.

>>> show(apply(read("<COMP, <INSERT, +>, <COMP, <APPLYTOALL, *>, trans>>"),
...            read("<<1,2,3>,<6,5,4>>")))
'28'
>>> evaluate(read("<COMP, <INSERT, +>, <COMP, <APPLYTOALL, *>, trans>>"),
...          read("<<1,2,3>,<6,5,4>>"))
'28'
"""

from arest.algebra.cells import EMPTY_STATE, State, as_object, fetch, from_object, store, store_all
from arest.algebra.fast import evaluate
from arest.algebra.forms import formula
from arest.algebra.notation import NotationError, read, show
from arest.algebra.objects import BOTTOM, PHI, Bottom, F, Object, T, equal, sequence
from arest.algebra.primitives import PRIMITIVES
from arest.algebra.reducer import DEFAULT_FUEL, Reduction, apply, reduce

__all__ = [
    "BOTTOM",
    "DEFAULT_FUEL",
    "EMPTY_STATE",
    "PHI",
    "PRIMITIVES",
    "Bottom",
    "F",
    "NotationError",
    "Object",
    "Reduction",
    "State",
    "T",
    "apply",
    "as_object",
    "equal",
    "evaluate",
    "fetch",
    "formula",
    "from_object",
    "read",
    "reduce",
    "sequence",
    "show",
    "store",
    "store_all",
]
