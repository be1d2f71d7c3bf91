"""Constructs → metamodel facts ``(fact_type_id, values)`` over the bundled metamodel's
fact types (``arest/readings/core.md``); an instance fact is its own fact.

>>> from arest.forml2.constructs import NounDecl
>>> metamodel_facts(NounDecl("Order", "entity", ("Order Number",)))[1]
('Noun_has_Reference_Scheme', ('Order', 'Order Number'))
"""

from __future__ import annotations

from arest.forml2.constructs import (
    Constraint,
    Construct,
    DerivationRule,
    FactTypeDecl,
    InstanceFact,
    NounDecl,
    Objectification,
    SubtypeDecl,
)

Fact = tuple[str, tuple[str, ...]]


def metamodel_facts(construct: Construct) -> list[Fact]:
    """The facts one construct asserts (a possibility asserts none)."""
    out: list[Fact] = []
    if isinstance(construct, NounDecl):
        out.append(("Noun_has_Object_Type", (construct.name, construct.kind)))
        if construct.reference:
            out.append(
                ("Noun_has_Reference_Scheme", (construct.name, ", ".join(construct.reference)))
            )
    elif isinstance(construct, SubtypeDecl):
        out.append(("Noun_has_supertype_Noun", (construct.sub, construct.sup)))
    elif isinstance(construct, FactTypeDecl):
        for reading in construct.readings:
            out.append(
                ("Fact_Type_has_Reading_Text", (construct.id, reading.text(construct.roles)))
            )
        for position, noun in enumerate(construct.roles):
            out.append(("Fact_Type_has_Noun_at_Position", (construct.id, noun, str(position))))
        if construct.mode:
            out.append(("Fact_Type_has_Derivation_Mode", (construct.id, construct.mode)))
    elif isinstance(construct, Objectification):
        out.append(("Noun_objectifies_Fact_Type", (construct.noun, construct.fact_type)))
    elif isinstance(construct, InstanceFact):
        out.append((construct.fact_type, construct.values))
    elif isinstance(construct, Constraint):
        out.extend(_constraint_facts(construct))
    elif isinstance(construct, DerivationRule):
        out.append(
            ("Derivation_Rule_derives_Fact_Type", (construct.id, construct.consequent.fact_type))
        )
        out.append(("Derivation_Rule_has_Reading_Text", (construct.id, construct.reading)))
        out.append(("Derivation_Rule_has_Derivation_Mode", (construct.id, construct.mode)))
    return out


def _constraint_facts(c: Constraint) -> list[Fact]:
    out: list[Fact] = [
        ("Constraint_has_Constraint_Kind", (c.id, c.kind)),
        ("Constraint_has_Modality", (c.id, c.modality)),
        ("Constraint_has_Reading_Text", (c.id, c.reading)),
    ]
    if c.operator:
        out.append(("Constraint_has_Deontic_Operator", (c.id, c.operator)))
    for clause, spans in enumerate(c.spans, start=1):
        for span in spans:
            for role in span.roles:
                out.append(
                    (
                        "Constraint_spans_Fact_Type_at_Position_in_Clause_Number",
                        (c.id, span.fact_type, str(role), str(clause)),
                    )
                )
    for join in c.joins:
        for left, right in zip(join.left.roles, join.right.roles, strict=True):
            out.append(
                (
                    "Constraint_joins_Fact_Type_at_Position_to_Fact_Type_at_Position_in_Clause_Number",
                    (
                        c.id,
                        join.left.fact_type,
                        str(left),
                        join.right.fact_type,
                        str(right),
                        str(join.clause),
                    ),
                )
            )
    out.extend(
        (
            "Constraint_restricts_Fact_Type_at_Position_to_Allowed_Value_in_Clause_Number",
            (c.id, r.fact_type, str(r.role), r.value, str(r.clause)),
        )
        for r in c.restrictions
    )
    out.extend(
        ("Constraint_binds_Variable_at_Position_in_Clause_Number",
         (c.id, term, str(role), str(clause)))
        for clause, terms in enumerate(c.terms, start=1)
        for role, term in enumerate(terms)
    )
    if c.antecedents:
        out.append(("Constraint_has_Antecedent_Count", (c.id, str(c.antecedents))))
    if c.bounds is not None:
        low, high = c.bounds
        if low is not None:
            out.append(("Constraint_has_Minimum_Frequency", (c.id, str(low))))
        if high is not None:
            out.append(("Constraint_has_Maximum_Frequency", (c.id, str(high))))
    if c.comparison is not None:
        out.append(("Constraint_has_Comparison_Operator", (c.id, c.comparison[0])))
        out.append(("Constraint_has_Comparison_Value", (c.id, c.comparison[1])))
    out.extend(("Constraint_allows_Allowed_Value", (c.id, v)) for v in c.values)
    if c.noun:
        out.append(("Constraint_is_on_Noun", (c.id, c.noun)))
    return out
