"""Backus's FFP algebra on persistent cells: objects, primitives, forms, ρ, the reducers, cells.

>>> show(apply(read("<COMP, <INSERT, +>, <COMP, <APPLYTOALL, *>, trans>>"),
...            read("<<1,2,3>,<6,5,4>>")))
'28'
>>> evaluate(read("<COMP, <INSERT, +>, <COMP, <APPLYTOALL, *>, trans>>"),
...          read("<<1,2,3>,<6,5,4>>"))
'28'
"""

from typing import TYPE_CHECKING, Any

from arest.algebra.cells import EMPTY_STATE, State, as_object, fetch, from_object, store, store_all
from arest.algebra.objects import BOTTOM, PHI, Bottom, F, Object, T, equal, sequence

if TYPE_CHECKING:
    from arest.algebra.fast import evaluate
    from arest.algebra.forms import formula
    from arest.algebra.notation import NotationError, read, show
    from arest.algebra.primitives import PRIMITIVES
    from arest.algebra.reducer import DEFAULT_FUEL, Reduction, apply, reduce

_LOADED_ON_FIRST_USE = {
    "evaluate": "fast", "formula": "forms", "NotationError": "notation", "read": "notation",
    "show": "notation", "PRIMITIVES": "primitives", "DEFAULT_FUEL": "reducer",
    "Reduction": "reducer", "apply": "reducer", "reduce": "reducer",
}
"""The reducer, the primitives (with ``decimal`` and ``datetime``), the compiled evaluator
and the notation, by the module holding each: loaded on first use (PEP 562), so that a
process that only holds and changes D (a restart and its first command) never loads them."""

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


def __getattr__(name: str) -> Any:
    module = _LOADED_ON_FIRST_USE.get(name)
    if module is None:
        raise AttributeError(f"module 'arest.algebra' has no attribute {name!r}")
    from importlib import import_module

    found = getattr(import_module(f"arest.algebra.{module}"), name)
    globals()[name] = found  # later reads find it without this call
    return found


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})
