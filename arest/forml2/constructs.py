"""What readings say, as values: the constructs the reader produces.

Every construct is a frozen dataclass.  Where a construct came from (``source``) and the
ids derived from its sentence's text do not take part in equality, so that a construct and
the construct read back from its verbalization compare equal.
"""

from __future__ import annotations

import hashlib

from arest.records import field, record


@record
class Source:
    """Where a sentence is: file, 1-based line and column, and its text (lines joined)."""

    path: str
    line: int
    column: int
    text: str


NOWHERE = Source("<generated>", 0, 0, "")


def constraint_id(reading: str, index: int = 1) -> str:
    """``c-`` and the first 12 hex digits of sha256(reading); later ones get ``-2``, ``-3``.

    >>> constraint_id("Each Order has at most one Coupon.")
    'c-7b7b6b496598'
    >>> constraint_id("Each Order has at most one Coupon.", 2)
    'c-7b7b6b496598-2'
    """
    digest = "c-" + hashlib.sha256(reading.encode("utf-8")).hexdigest()[:12]
    return digest if index == 1 else f"{digest}-{index}"


def rule_id(reading: str, disjunct: int = 0) -> str:
    """``r-`` and the first 12 hex digits of sha256(reading); the ``disjunct``-th rule
    (from 1) of a reading whose body is a disjunction hashes the reading and its number.

    >>> rule_id("* A has B iff A has C.")[:2]
    'r-'
    >>> len({rule_id("* A is b iff A is c or A is d.", k) for k in (0, 1, 2)})
    3
    """
    text = reading if not disjunct else f"{reading}\n{disjunct}"
    return "r-" + hashlib.sha256(text.encode("utf-8")).hexdigest()[:12]


@record
class NounDecl:
    """``Order(.Order Number) is an entity type.``: kind is entity, value or abstract;
    ``reference`` the identifying components (``("id",)`` by default for an entity)."""

    name: str
    kind: str
    reference: tuple[str, ...] = ()
    source: Source = field(default=NOWHERE, compare=False)


@record
class Reading:
    """One reading of a fact type: ``order`` lists role indices as the reading mentions
    them, ``words`` the text before, between and after them (``len(order) + 1`` items)."""

    order: tuple[int, ...]
    words: tuple[str, ...]

    def text(self, roles: tuple[str, ...]) -> str:
        """The reading with its role nouns.

        >>> Reading((1, 0), ("", "places", "")).text(("Order", "Customer"))
        'Customer places Order'
        """
        parts = [self.words[0]] if self.words[0] else []
        for position, role in enumerate(self.order):
            parts.append(roles[role])
            if self.words[position + 1]:
                parts.append(self.words[position + 1])
        return " ".join(parts)


@record
class FactTypeDecl:
    """A fact type: id (DESIGN §2), role nouns, readings (the first is primary), derivation
    mode (``*``, ``**``, ``+`` or empty for asserted)."""

    id: str
    roles: tuple[str, ...]
    readings: tuple[Reading, ...]
    mode: str = ""
    source: Source = field(default=NOWHERE, compare=False)


@record
class SubtypeDecl:
    """``DigitalProduct is a subtype of Product.``"""

    sub: str
    sup: str
    source: Source = field(default=NOWHERE, compare=False)

    @property
    def membership(self) -> str:
        """The implicit fact type a subtype-membership clause (``that Product is a
        DigitalProduct``) spans: ``<super>_is_a_<sub>``, role 0 the supertype instance."""
        return f"{self.sup.replace(' ', '_')}_is_a_{self.sub.replace(' ', '_')}"


@record
class Objectification:
    """``ProductVariant(.id) is an entity type where Product has Size and Color.``;
    ``identifying`` when the association provides ProductVariant's preferred identification."""

    noun: str
    fact_type: str
    identifying: bool = False
    source: Source = field(default=NOWHERE, compare=False)


@record
class InstanceFact:
    """``Order 'ord-1' is placed by Customer 'acme'.``: a fact of a fact type, values in
    role order."""

    fact_type: str
    values: tuple[str, ...]
    source: Source = field(default=NOWHERE, compare=False)


@record
class Span:
    """The roles (0-based, in role order) of one fact type that a constraint clause spans."""

    fact_type: str
    roles: tuple[int, ...]


@record
class Join:
    """Within clause ``clause`` (1-based) of a constraint, the roles ``left`` names in one
    fact type hold the same objects as the roles ``right`` names in another (aligned
    position by position): the clause's facts combine only where they agree there.
    ``If some Customer places some Order then that Order has Shipping Address equal to
    that Customer's Shipping Address`` joins ``Order_is_placed_by_Customer`` [1] to
    ``Customer_has_Shipping_Address`` [0] in clause 1."""

    clause: int
    left: Span
    right: Span


@record
class Restriction:
    """Within clause ``clause`` (1-based) of a constraint, only the facts of ``fact_type``
    whose role ``role`` (0-based) holds ``value`` count: the literal the clause writes there.
    ``If some Parcel has Status 'Shipped' then that Parcel has some Tracking Number``
    restricts ``Parcel_has_Status`` [1] to ``Shipped`` in clause 1, so only shipped parcels
    need a tracking number."""

    clause: int
    fact_type: str
    role: int
    value: str


@record
class Constraint:
    """One of the 17 constraint kinds (UC MC FC VC XO XC OR SS EQ IR AS AT SY IT TR AC RF).

    ``spans`` has one tuple of spans per clause (one clause for the single-fact-type
    kinds); ``modality`` is alethic or deontic, ``operator`` obligatory, forbidden or
    permitted; ``bounds`` the frequency (low, high; None = unbounded); ``comparison`` an
    operator and value (``("<", "1")``); ``values`` a value constraint's allowed values;
    ``joins`` the roles on which a clause spanning several fact types combines their facts
    (a join subset constraint, whose first clause is a join path); ``restrictions`` the
    literals a clause writes on roles it does not span, in (clause, fact type, role) order.
    A conditional (``If … then …``) also records, per clause, the term at each role of its
    fact type (``terms``: a variable such as ``Person1``, or a quoted literal) and how many
    clauses are its antecedent (``antecedents``), so that a check over any join path can be
    built from the clauses themselves.
    """

    kind: str
    spans: tuple[tuple[Span, ...], ...]
    modality: str = "alethic"
    operator: str = ""
    bounds: tuple[int | None, int | None] | None = None
    comparison: tuple[str, str] | None = None
    values: tuple[str, ...] = ()
    noun: str = ""
    joins: tuple[Join, ...] = ()
    restrictions: tuple[Restriction, ...] = ()
    # A renaming of the variables says the same, so they take no part in equality.
    terms: tuple[tuple[str, ...], ...] = field(default=(), compare=False)
    antecedents: int = field(default=0, compare=False)
    id: str = field(default="", compare=False)
    reading: str = field(default="", compare=False)
    source: Source = field(default=NOWHERE, compare=False)


@record
class Atom:
    """One elementary clause of a rule: a fact type and, per role in role order, a variable
    (``Order``, ``Comment1``, ``discounted Amount``) or a quoted literal (``'Done'``).

    A subtype's variable plays its supertypes' roles (``Employee is adult`` with ``Person is
    adult`` declared is ``Person_is_adult`` over ``Employee``); a membership clause
    (``Customer is a Premium Customer``) is the unary ``<Sup>_is_a_<Sub>``.  One clause that
    names one noun twice without subscripts names two objects: the occurrence after ``that``
    (else the first) is the rule's variable, each other one a variable of its own, the noun
    with the first subscript the rule does not use (``Employee reports to some Employee`` is
    ``(Employee, Employee2)``; in a consequent, where nothing could bind the second, it is
    a diagnostic).  A negated atom holds when no fact of its fact type matches it; a
    variable that no other condition names ranges inside the negation, so ``Employee does
    not report to some Employee`` holds when Employee reports to no Employee2 at all."""

    fact_type: str
    terms: tuple[str, ...]
    negated: bool = False


@record
class Comparison:
    """``that Amount is greater than 100``, ``Start Time1 is less than Start Time2``:
    ``left op right`` with op one of ``<``, ``>``, ``<=``, ``>=``, ``=``, ``<>``, each side
    a variable, a numeral (``100``, ``-2.5``) or a quoted literal (``'gold'``), as the atoms
    name them (DESIGN §2 says how values compare)."""

    left: str
    op: str
    right: str


@record
class Computation:
    """``Duration is End Time minus Start Time``: a variable bound to an infix expression of
    variables, numerals and the operators plus, minus, times, divided by, reduced by."""

    variable: str
    expression: tuple[str, ...]


@record
class Aggregation:
    """``Amount is the sum of Amount where …``: op over the ``target`` variable of the
    ``where`` conditions, grouped by the variables they share with the rule (``group``)."""

    variable: str
    op: str
    target: str
    where: tuple[Atom | Comparison | Computation | Aggregation, ...]
    group: tuple[str, ...]


Condition = Atom | Comparison | Computation | Aggregation


@record
class DerivationRule:
    """A derivation rule: mode (``*``, ``**``, ``+``), keyword (iff, if, when, if-then),
    the consequent atom and the conditions."""

    mode: str
    keyword: str
    consequent: Atom
    conditions: tuple[Condition, ...]
    id: str = field(default="", compare=False)
    reading: str = field(default="", compare=False)
    source: Source = field(default=NOWHERE, compare=False)


@record
class Possibility:
    """``It is possible that …``: a verbalization that constrains nothing; kept so that
    every sentence has a construct."""

    fact_type: str
    bounds: tuple[int | None, int | None] | None
    role: int
    source: Source = field(default=NOWHERE, compare=False)


Construct = (
    NounDecl
    | FactTypeDecl
    | SubtypeDecl
    | Objectification
    | InstanceFact
    | Constraint
    | DerivationRule
    | Possibility
)
