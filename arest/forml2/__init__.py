"""The FORML 2 reader: one lark grammar, a declared-noun lexicon, typed constructs,
metamodel facts and diagnostics that teach.

>>> from arest.forml2 import metamodel, read
>>> r = read("Customer places Order.", known=metamodel())
>>> r.constructs[0].id
'Customer_places_Order'
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from arest.forml2.bundled import metamodel
    from arest.forml2.constructs import (
        Aggregation,
        Atom,
        Comparison,
        Computation,
        Constraint,
        Construct,
        DerivationRule,
        FactTypeDecl,
        InstanceFact,
        Join,
        NounDecl,
        Objectification,
        Possibility,
        Restriction,
        Source,
        Span,
        SubtypeDecl,
    )
    from arest.forml2.diagnostics import Diagnostic, ReadingError
    from arest.forml2.reader import read
    from arest.forml2.reading import Reading
    from arest.forml2.verbalizer import VerbalizationError, verbalize

__all__ = [
    "Aggregation",
    "Atom",
    "Comparison",
    "Computation",
    "Constraint",
    "Construct",
    "DerivationRule",
    "Diagnostic",
    "FactTypeDecl",
    "InstanceFact",
    "Join",
    "NounDecl",
    "Objectification",
    "Possibility",
    "Reading",
    "ReadingError",
    "Restriction",
    "Source",
    "Span",
    "SubtypeDecl",
    "VerbalizationError",
    "metamodel",
    "read",
    "verbalize",
]

_HOMES = {
    "metamodel": "bundled", "Diagnostic": "diagnostics", "Reading": "reading",
    "ReadingError": "diagnostics", "read": "reader", "VerbalizationError": "verbalizer",
    "verbalize": "verbalizer",
}
"""The submodule of each name not in :mod:`arest.forml2.constructs`."""


def __getattr__(name: str) -> Any:
    # The reader (and lark under it) loads on first use: a tenant that never reads readings
    # (a reopen, a create) imports only the submodules it names, such as ``urls``.
    if name not in __all__:
        raise AttributeError(f"module 'arest.forml2' has no attribute {name!r}")
    module = importlib.import_module(f"arest.forml2.{_HOMES.get(name, 'constructs')}")
    value = getattr(module, name)
    globals()[name] = value  # asked once: the next use finds it bound
    return value
