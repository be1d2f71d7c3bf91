"""arest: FORML 2 readings in, a running application out.

Every compiled reading is an FFP object (Backus's algebra, :mod:`arest.algebra`) in a cell
of an immutable persistent map D, evaluated by the FFP evaluator (compiled to Python, equal
to the reference β-reducer); every request is one application of the system function.
``import arest`` stays light: the reader, the compiler and the system function load on
first use.

>>> import arest
>>> out, D = arest.apply(arest.compile("Order was placed by Customer."), "schema",
...                      {"fact_type": "Order_was_placed_by_Customer"})
>>> out["fact_types"][0]["readings"]
['Order was placed by Customer']
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from arest.version import __version__ as __version__

__all__ = ["ReadingError", "Tenant", "apply", "compile", "load", "warnings"]

if TYPE_CHECKING:
    from arest.api import ReadingError, apply, compile, load, warnings
    from arest.runtime import Tenant


def __getattr__(name: str) -> Any:
    if name == "Tenant":
        from arest.runtime import Tenant

        return Tenant
    if name in __all__:
        from arest import api

        found = getattr(api, name)
        # Kept as the module's own attribute, so that later reads (``arest.apply`` per
        # command) find it without this call.
        globals()[name] = found
        return found
    raise AttributeError(f"module 'arest' has no attribute {name!r}")


def __dir__() -> list[str]:
    """What the module offers, the names loaded on first use included (tab completion in a
    notebook lists them before any is used)."""
    return sorted({*globals(), *__all__})
