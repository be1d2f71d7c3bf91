"""Conditions of derivation rules: comparisons, subtypes and memberships, negation,
aggregations, subscripts and possessives; each rule says a sentence that reads back to it."""

from __future__ import annotations

import pytest

from arest.forml2 import (
    Aggregation,
    Atom,
    Comparison,
    DerivationRule,
    FactTypeDecl,
    Reading,
    VerbalizationError,
    read,
    verbalize,
)
from arest.forml2.negation import affirmatives, negative
from tests.forml2.reading import clean

SCHEMA = """
Order(.Order Id) is an entity type.
Customer(.Customer Id) is an entity type.
Premium Customer is a subtype of Customer.
Meeting(.id) is an entity type.
Person(.Name) is an entity type.
Employee is a subtype of Person.
Task(.Task Id) is an entity type.
Category(.id) is an entity type.
Item(.id) is an entity type.
Amount is a value type.
Limit is a value type.
Tier is a value type.
Tag is a value type.
Price is a value type.
Start Time is a value type.
Order has Amount.
Order was placed by Customer.
Customer has Limit.
Customer has Tier.
Order is large.
Order is risky.
Customer is plain.
Customer is vip.
Meeting has Start Time.
Meeting precedes Meeting.
Person is adult.
Person is parent of Person.
Person is grandparent of Person.
Employee is staff.
Employee reports to Employee.
Employee is top.
Employee is managed.
Task has Tag.
Task blocks Task.
Task is open.
Task is blocked.
Task is ready.
Task is free.
Task is stuck.
Item has Price.
Item is in Category.
Category has big Item Count.
"""


@pytest.fixture(scope="module")
def known() -> Reading:
    return clean(SCHEMA)


def read_rule(text: str, known: Reading) -> tuple[DerivationRule, Reading]:
    """The one rule ``text`` states, read cleanly on top of ``known``; its verbalization
    reads back to an equal rule."""
    reading = read(text, known=known)
    assert reading.diagnostics == (), reading.diagnostics
    (rule,) = [c for c in reading.constructs if isinstance(c, DerivationRule)]
    said = verbalize(rule, reading)
    back = read(said, "<verbalized>", known=reading)
    assert back.diagnostics == (), (said, back.diagnostics)
    assert rule in back.constructs, (said, rule, back.constructs)
    return rule, reading


def conditions(text: str, known: Reading) -> tuple[object, ...]:
    return read_rule(text, known)[0].conditions


def diagnostic(text: str, known: Reading) -> str:
    reading = read(text, known=known)
    assert not [c for c in reading.constructs if isinstance(c, DerivationRule)]
    (found,) = reading.diagnostics
    return found.message


# ---- comparisons -------------------------------------------------------------------------


def test_a_comparison_of_a_condition_variable(known: Reading) -> None:
    rule, _ = read_rule(
        "* Order is large iff Order has Amount and that Amount is greater than 100.", known
    )
    assert rule.consequent == Atom("Order_is_large", ("Order",))
    assert rule.conditions == (
        Atom("Order_has_Amount", ("Order", "Amount")),
        Comparison("Amount", ">", "100"),
    )


def test_a_comparison_attached_to_a_role_compares_its_variable(known: Reading) -> None:
    assert conditions("* Order is large iff Order has Amount greater than 100.", known) == (
        Atom("Order_has_Amount", ("Order", "Amount")),
        Comparison("Amount", ">", "100"),
    )


def test_a_comparison_across_antecedents(known: Reading) -> None:
    rule, _ = read_rule(
        "* Meeting1 precedes Meeting2 iff Meeting1 has Start Time1 and Meeting2 has Start"
        " Time2 and Start Time1 is less than Start Time2.",
        known,
    )
    assert rule.consequent == Atom("Meeting_precedes_Meeting", ("Meeting1", "Meeting2"))
    assert rule.conditions == (
        Atom("Meeting_has_Start_Time", ("Meeting1", "Start Time1")),
        Atom("Meeting_has_Start_Time", ("Meeting2", "Start Time2")),
        Comparison("Start Time1", "<", "Start Time2"),
    )


def test_a_comparison_in_an_aggregation_where_clause(known: Reading) -> None:
    (aggregation,) = conditions(
        "* Category has big Item Count iff big Item Count is the count of Item where Item is"
        " in that Category and that Item has Price and that Price is greater than 100.",
        known,
    )
    assert aggregation == Aggregation(
        "big Item Count",
        "count",
        "Item",
        (
            Atom("Item_is_in_Category", ("Item", "Category")),
            Atom("Item_has_Price", ("Item", "Price")),
            Comparison("Price", ">", "100"),
        ),
        ("Category",),
    )


@pytest.mark.parametrize(
    ("words", "op"),
    [
        ("is greater than", ">"),
        ("is more than", ">"),
        ("is less than", "<"),
        ("is at least", ">="),
        ("is at most", "<="),
        ("is greater than or equal to", ">="),
        ("is less than or equal to", "<="),
        ("is equal to", "="),
        ("is not equal to", "<>"),
        ("is not greater than", "<="),
        ("is not less than", ">="),
        ("is >", ">"),
        ("is <=", "<="),
        ("is =", "="),
        ("is !=", "<>"),
        ("is <>", "<>"),
    ],
)
def test_comparators(words: str, op: str, known: Reading) -> None:
    text = f"* Order is large iff Order has Amount and that Amount {words} 100."
    assert conditions(text, known)[1] == Comparison("Amount", op, "100")


@pytest.mark.parametrize(
    ("operand", "right"),
    [("-2.5", "-2.5"), ("0", "0"), ("'gold'", "'gold'"), ("'it''s'", "'it''s'")],
)
def test_numerals_and_literals(operand: str, right: str, known: Reading) -> None:
    text = f"* Customer is plain iff Customer has Tier and that Tier is not equal to {operand}."
    assert conditions(text, known)[1] == Comparison("Tier", "<>", right)


def test_a_comparison_of_possessives_in_an_if_then_rule(known: Reading) -> None:
    rule, _ = read_rule(
        "* If Order was placed by Customer and that Order's Amount is greater than that"
        " Customer's Limit then Order is risky.",
        known,
    )
    assert rule.keyword == "if-then"
    assert rule.conditions == (
        Atom("Order_was_placed_by_Customer", ("Order", "Customer")),
        Comparison("Order's Amount", ">", "Customer's Limit"),
        Atom("Order_has_Amount", ("Order", "Order's Amount")),
        Atom("Customer_has_Limit", ("Customer", "Customer's Limit")),
    )


def test_a_rule_verbalizes_its_comparison_as_its_own_condition(known: Reading) -> None:
    rule, reading = read_rule("* Order is large iff Order has Amount at least 100.", known)
    assert verbalize(rule, reading) == (
        "* Order is large iff Order has Amount and that Amount is greater than or equal to 100."
    )


@pytest.mark.parametrize(
    ("comparison", "said"),
    [
        (Comparison("Amount", "<>", "'x'"), "that Amount is not equal to 'x'"),
        (Comparison("100", "<", "Amount"), "that Amount is greater than 100"),
        (Comparison("'a'", "<=", "Amount"), "that Amount is greater than or equal to 'a'"),
        (Comparison("Amount", "=", "Amount2"), "that Amount is equal to that Amount2"),
    ],
)
def test_comparison_constructs_read_back(comparison: Comparison, said: str, known: Reading) -> None:
    rule = DerivationRule(
        "*",
        "iff",
        Atom("Order_is_large", ("Order",)),
        (
            Atom("Order_has_Amount", ("Order", "Amount")),
            Atom("Order_has_Amount", ("Order", "Amount2")),
            comparison,
        ),
    )
    text = verbalize(rule, known)
    assert text.endswith(f" and {said}.")
    (back,) = [c for c in read(text, known=known).constructs if isinstance(c, DerivationRule)]
    flipped = {"<": ">", "<=": ">="}
    if comparison.left[0].isdigit() or comparison.left.startswith("'"):
        comparison = Comparison(comparison.right, flipped[comparison.op], comparison.left)
    assert back.conditions[-1] == comparison


def test_a_comparison_of_two_constants_has_no_sentence(known: Reading) -> None:
    rule = DerivationRule(
        "*", "iff", Atom("Order_is_large", ("Order",)), (Comparison("1", "<", "2"),)
    )
    with pytest.raises(VerbalizationError):
        verbalize(rule, known)


def test_a_negated_condition_cannot_compare(known: Reading) -> None:
    for text in (
        "* Customer is plain iff Customer has no Tier equal to 'gold'.",
        "* Customer is plain iff Customer does not have Tier equal to 'gold'.",
    ):
        assert "a negated condition cannot compare" in diagnostic(text, known)


def test_a_consequent_cannot_compare_and_the_message_names_the_operand(known: Reading) -> None:
    message = diagnostic(
        "* Order has Amount greater than Limit iff Order was placed by Customer"
        " and Customer has Limit.",
        known,
    )
    assert "(`> Limit`)" in message and "Phrase(" not in message


# ---- subtypes and memberships ----------------------------------------------------------------


def test_a_subtype_plays_its_supertypes_roles(known: Reading) -> None:
    rule, reading = read_rule("* Employee is staff iff Employee is adult.", known)
    assert rule.consequent == Atom("Employee_is_staff", ("Employee",))
    assert rule.conditions == (Atom("Person_is_adult", ("Employee",)),)
    assert not [c for c in reading.constructs if isinstance(c, FactTypeDecl)]


def test_a_subtype_consequent_derives_the_supertypes_fact_type(known: Reading) -> None:
    rule, reading = read_rule("* Employee is adult iff Employee is staff.", known)
    assert rule.consequent == Atom("Person_is_adult", ("Employee",))
    assert not [c for c in reading.constructs if isinstance(c, FactTypeDecl)]


def test_a_reading_through_two_supertypes_is_a_diagnostic() -> None:
    known = clean(
        "Person(.Name) is an entity type.\nWorker(.id) is an entity type.\n"
        "Employee is a subtype of Person.\nEmployee is a subtype of Worker.\n"
        "Person is adult.\nWorker is adult.\nEmployee is staff.\n"
    )
    assert diagnostic("* Employee is staff iff Employee is adult.", known) == (
        "`Employee is adult` reads Person_is_adult; Worker_is_adult through different"
        " supertypes: name the supertype whose fact type is meant"
    )


def test_the_nearest_supertype_reads_first() -> None:
    known = clean(
        "Person(.Name) is an entity type.\nEmployee is a subtype of Person.\n"
        "Manager is a subtype of Employee.\nPerson is adult.\nEmployee is adult.\n"
        "Manager is staff.\n"
    )
    rule, _ = read_rule("* Manager is staff iff Manager is adult.", known)
    assert rule.conditions == (Atom("Employee_is_adult", ("Manager",)),)


def test_a_condition_must_say_a_reading(known: Reading) -> None:
    message = diagnostic("* Employee is staff iff Employee is grown.", known)
    assert message == (
        "no fact type reads `Employee is grown`: use one of the readings with its nouns"
        " (Employee is staff; Employee is top; Employee is managed), or declare"
        " `Employee is grown.`"
    )
    assert diagnostic("* Order is large iff Order weighs Amount.", known) == (
        "no fact type reads `Order weighs Amount`: use the reading with its nouns (Order has"
        " Amount), or declare `Order weighs Amount.`"
    )


def test_a_membership_condition_is_unary(known: Reading) -> None:
    assert conditions("* Customer is vip iff Customer is a Premium Customer.", known) == (
        Atom("Customer_is_a_Premium_Customer", ("Customer",)),
    )
    assert conditions("* Customer is vip iff Customer is not a Premium Customer.", known) == (
        Atom("Customer_is_a_Premium_Customer", ("Customer",), negated=True),
    )


def test_a_membership_consequent_declares_no_fact_type(known: Reading) -> None:
    rule, reading = read_rule(
        "* Customer is a Premium Customer iff Customer has Tier 'gold'.", known
    )
    assert rule.consequent == Atom("Customer_is_a_Premium_Customer", ("Customer",))
    assert rule.conditions == (Atom("Customer_has_Tier", ("Customer", "'gold'")),)
    assert not [c for c in reading.constructs if isinstance(c, FactTypeDecl)]


# ---- negation ----------------------------------------------------------------------------


def test_is_not(known: Reading) -> None:
    rule, reading = read_rule("* Task is ready iff Task is open and Task is not blocked.", known)
    assert rule.conditions == (
        Atom("Task_is_open", ("Task",)),
        Atom("Task_is_blocked", ("Task",), negated=True),
    )
    assert verbalize(rule, reading) == "* Task is ready iff Task is open and Task is not blocked."


def test_has_no_and_does_not_have(known: Reading) -> None:
    expected = (Atom("Task_has_Tag", ("Task", "Tag"), negated=True),)
    assert conditions("* Task is free iff Task has no Tag.", known) == expected
    assert conditions("* Task is free iff Task does not have Tag.", known) == expected


def test_does_not_with_a_repeated_noun_is_another_object(known: Reading) -> None:
    rule, reading = read_rule(
        "* Employee is top iff Employee does not report to some Employee.", known
    )
    assert rule.conditions == (
        Atom("Employee_reports_to_Employee", ("Employee", "Employee2"), negated=True),
    )
    assert verbalize(rule, reading) == (
        "* Employee is top iff Employee does not report to Employee2."
    )


def test_the_fresh_variable_skips_subscripts_the_rule_uses(known: Reading) -> None:
    assert conditions(
        "* Employee is top iff Employee reports to Employee2"
        " and Employee does not report to some Employee.",
        known,
    ) == (
        Atom("Employee_reports_to_Employee", ("Employee", "Employee2")),
        Atom("Employee_reports_to_Employee", ("Employee", "Employee3"), negated=True),
    )


def test_a_repeated_noun_in_a_positive_condition_is_another_object(known: Reading) -> None:
    assert conditions("* Employee is managed iff Employee reports to some Employee.", known) == (
        Atom("Employee_reports_to_Employee", ("Employee", "Employee2")),
    )


def test_no_before_a_noun_that_repeats_that(known: Reading) -> None:
    assert conditions("* Task is ready iff no Task blocks that Task.", known) == (
        Atom("Task_blocks_Task", ("Task2", "Task"), negated=True),
    )


def test_that_on_both_occurrences_is_one_object(known: Reading) -> None:
    rule, reading = read_rule("* Task is stuck iff that Task blocks that Task.", known)
    assert rule.conditions == (Atom("Task_blocks_Task", ("Task", "Task")),)
    assert verbalize(rule, reading) == "* Task is stuck iff that Task blocks that Task."


def test_a_negated_reflexive_atom_reads_back(known: Reading) -> None:
    rule = DerivationRule(
        "*",
        "iff",
        Atom("Task_is_ready", ("Task",)),
        (Atom("Task_blocks_Task", ("Task", "Task"), negated=True),),
    )
    said = verbalize(rule, known)
    assert said == "* Task is ready iff that Task does not block that Task."
    assert rule in read(said, known=known).constructs


def test_itself_is_the_subject(known: Reading) -> None:
    rule, reading = read_rule("* Task blocks itself iff Task is stuck.", known)
    assert rule.consequent == Atom("Task_blocks_Task", ("Task", "Task"))
    assert verbalize(rule, reading) == "* That Task blocks that Task iff Task is stuck."
    assert conditions("* Task is stuck iff Task blocks itself.", known) == (
        Atom("Task_blocks_Task", ("Task", "Task")),
    )


def test_a_consequent_naming_a_noun_twice_is_a_diagnostic(known: Reading) -> None:
    assert diagnostic("* Task blocks Task iff Task is stuck.", known) == (
        "the consequent names Task twice: write Task1 and Task2 for two objects, or `itself`"
        " for one"
    )


def test_no_before_the_subject_still_reads_as_negation(known: Reading) -> None:
    assert conditions("* Task is ready iff Task is open and no Task is blocked.", known) == (
        Atom("Task_is_open", ("Task",)),
        Atom("Task_is_blocked", ("Task",), negated=True),
    )


@pytest.mark.parametrize(
    "words",
    ["reports to", "is blocked", "has done", "carries", "watches", "uses", "passes", "plays"],
)
def test_a_negated_predicate_reads_back(words: str) -> None:
    denied = negative(words)
    assert denied is not None and "not" in denied.split()
    assert words in affirmatives(denied)


# ---- aggregations ------------------------------------------------------------------------

OPS = [
    ("count", "count"),
    ("sum", "sum"),
    ("avg", "avg"),
    ("average", "avg"),
    ("min", "min"),
    ("minimum", "min"),
    ("max", "max"),
    ("maximum", "max"),
]


@pytest.mark.parametrize(("word", "op"), OPS)
def test_every_aggregate(word: str, op: str, known: Reading) -> None:
    (aggregation,) = conditions(
        f"* Category has highest Price iff highest Price is the {word} of Price where some Item"
        " is in that Category and that Item has Price.",
        known,
    )
    assert aggregation == Aggregation(
        "highest Price",
        op,
        "Price",
        (
            Atom("Item_is_in_Category", ("Item", "Category")),
            Atom("Item_has_Price", ("Item", "Price")),
        ),
        ("Category",),
    )


@pytest.mark.parametrize(("word", "op"), OPS)
def test_an_aggregate_word_is_a_noun_adjective(word: str, op: str) -> None:
    known = clean(
        "Category(.id) is an entity type.\nItem(.id) is an entity type.\n"
        "Price is a value type.\nItem has Price.\nItem is in Category.\n"
        f"Category has {word} Price.\n"
    )
    ft = known.schema.fact_types[f"Category_has_{word}_Price"]
    assert ft.roles == ("Category", "Price")
    uniqueness = f"Each Category has at most one {word} Price."
    (constraint,) = [c for c in read(uniqueness, known=known).constructs]
    assert verbalize(constraint, known) == uniqueness
    rule, _ = read_rule(
        f"* Category has {word} Price iff {word} Price is the {word} of Price where some Item"
        " is in that Category and that Item has Price.",
        known,
    )
    assert rule.consequent == Atom(ft.id, ("Category", f"{word} Price"))
    (aggregation,) = rule.conditions
    assert isinstance(aggregation, Aggregation)
    assert (aggregation.variable, aggregation.op) == (f"{word} Price", op)


# ---- subscripts and possessives --------------------------------------------------------------


def test_subscripted_variables(known: Reading) -> None:
    rule, _ = read_rule(
        "* Person1 is grandparent of Person3 if Person1 is parent of Person2"
        " and Person2 is parent of Person3.",
        known,
    )
    assert rule.consequent == Atom("Person_is_grandparent_of_Person", ("Person1", "Person3"))
    assert rule.conditions == (
        Atom("Person_is_parent_of_Person", ("Person1", "Person2")),
        Atom("Person_is_parent_of_Person", ("Person2", "Person3")),
    )


def test_a_possessive_adds_its_has_atom(known: Reading) -> None:
    assert conditions(
        "* Order is large iff Order was placed by Customer and that Customer's Limit is less"
        " than 100.",
        known,
    ) == (
        Atom("Order_was_placed_by_Customer", ("Order", "Customer")),
        Comparison("Customer's Limit", "<", "100"),
        Atom("Customer_has_Limit", ("Customer", "Customer's Limit")),
    )
