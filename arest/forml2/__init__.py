"""The FORML 2 reader: one lark grammar, a declared-noun lexicon, typed constructs,
metamodel facts and diagnostics that teach.

>>> from arest.forml2 import metamodel, read
>>> r = read("Customer places Order.", known=metamodel())
>>> r.constructs[0].id
'Customer_places_Order'
"""

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
from arest.forml2.reader import Diagnostic, Reading, ReadingError, read
from arest.forml2.verbalize import VerbalizationError, verbalize

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
