"""An entity's ``_links`` (DESIGN §5, Theorem 4): ``self`` first, a parent for each entity the
entity points to under a uniqueness constraint, children, peers and a related collection for
each binary fact type; keys that never collide; hrefs under the nouns' plurals."""

from __future__ import annotations

from typing import Any
from urllib.parse import quote, unquote, urlsplit

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import arest
from arest.system.links import links, plural, segment
from arest.testing import commands, schemas
from tests.corpus import OWN_READINGS


def applied(D: Any, *steps: tuple[str, Any]) -> Any:
    for key, request in steps:
        out, D = arest.apply(D, key, request)
        assert "error" not in out and not out["rejected"], out
    return D


def read(D: Any, noun: str, entity: str) -> dict[str, Any]:
    out = arest.apply(D, f"read:{noun}", entity)[0]
    assert "error" not in out, out
    return out


def known_plurals(D: Any) -> set[str]:
    return {plural(D, noun["name"]) for noun in arest.apply(D, "schema")[0]["nouns"]}


def assert_urls(D: Any, representation: dict[str, Any]) -> None:
    """Every href is a path whose first segment is a known plural; ``self`` comes first."""
    found = representation["_links"]
    assert next(iter(found)) == "self"
    plurals = known_plurals(D)
    for key, link in found.items():
        parts = urlsplit(link["href"])
        assert (parts.scheme, parts.netloc, parts.query, parts.fragment) == ("", "", "", ""), key
        segments = parts.path.split("/")
        assert segments[0] == "" and all(segments[1:]), (key, link)
        assert unquote(segments[1]) in plurals, (key, link)


# --- DESIGN §5 on the clinic domain (readings/) -----------------------------------------


@pytest.fixture(scope="module")
def clinic() -> Any:
    return applied(
        arest.load(OWN_READINGS / "clinic"),
        ("create:Patient", {"id": "pt@1", "Full Name": "Pat", "Phone": "555",
                            "Home Address": "1 Main"}),
        ("create:Visit", {"id": "v-1", "Patient": "pt@1", "Clinician": "dr-lee",
                          "Home Address": "1 Main", "Start Time": "09:00", "End Time": "10:00",
                          "Charge": [{"id": "ch-1", "Procedure": "exam", "Quantity": 1,
                                      "Amount": "10"},
                                     {"id": "ch-2", "Procedure": "x-ray", "Quantity": 2,
                                      "Amount": "5"}]}),
    )


def test_the_design_example_shape(clinic: Any) -> None:
    visit = read(clinic, "Visit", "v-1")
    found = visit["_links"]
    assert found["self"] == {"href": "/visits/v-1"}
    assert found["patient"] == {"href": "/patients/pt%401", "rel": "parent"}
    assert found["charges"] == {"href": "/visits/v-1/charges", "rel": "children"}
    # Payments are for exactly one Visit each: children too.
    assert found["payments"] == {"href": "/visits/v-1/payments", "rel": "children"}
    # Related: every binary fact type the Visit plays is a collection filtered by the Visit.
    assert found["Visit_is_booked_by_Patient"] == {
        "href": "/visits/v-1/Visit_is_booked_by_Patient", "rel": "related"}
    assert found["Visit_has_Amount"]["rel"] == "related"
    # One-to-one (a uniqueness constraint on each role): S_f = ∅, only related.
    assert found["Referral_is_applied_to_Visit"]["rel"] == "related"
    assert "referral" not in found and "referrals" not in found
    # No link for the reference mode or the machine's status.
    assert "Visit_has_Visit_Number" not in found and "Visit_has_Status" not in found
    assert_urls(clinic, visit)


def test_the_converse_links(clinic: Any) -> None:
    charge = read(clinic, "Charge", "ch-2")
    assert charge["_links"]["visit"] == {"href": "/visits/v-1", "rel": "parent"}
    assert "procedure" not in charge["_links"]  # Procedure is a value type
    patient = read(clinic, "Patient", "pt@1")
    assert patient["_links"]["visits"] == {"href": "/patients/pt%401/visits",
                                           "rel": "children"}
    assert_urls(clinic, charge)
    assert_urls(clinic, patient)


def test_every_command_result_carries_the_links(clinic: Any) -> None:
    out, _ = arest.apply(clinic, "create:Payment", {"id": "pay-1", "Visit": "v-1",
                                                    "Amount": "20", "Payment Method": "card"})
    assert out["entity"]["_links"]["visit"] == {"href": "/visits/v-1", "rel": "parent"}
    listed = arest.apply(clinic, "list:Charge")[0]["items"]
    assert [item["_links"]["visit"]["href"] for item in listed] == ["/visits/v-1"] * 2


# --- plurals, omitted parents, rings, peers, shared keys ------------------------------------

READINGS = """\
Product(.SKU) is an entity type.
Category(.Category Code) is an entity type.
Shelf(.Shelf Id) is an entity type.
Student(.Student Id) is an entity type.
Course(.Course Code) is an entity type.
Flight(.Flight Number) is an entity type.
Airport(.Code) is an entity type.
Noun 'Category' has Plural 'categories'.
Noun 'Shelf' has Plural 'shelves'.
Product is in Category.
  Each Product is in at most one Category.
Category has parent Category.
  Each Category has at most one parent Category.
Category is on Shelf.
  Each Category is on at most one Shelf.
Student enrolls in Course.
  Each Student, Course combination occurs at most once
    in the population of Student enrolls in Course.
Student follows Student.
Flight departs from Airport.
  Each Flight departs from exactly one Airport.
Flight arrives at Airport.
  Each Flight arrives at exactly one Airport.
"""

D = applied(
    arest.compile(READINGS),
    ("create:Shelf", {"id": "s1"}),
    ("create:Category", {"id": "all", "Shelf": "s1"}),
    ("create:Category", {"id": "tools", "parent Category": "all"}),
    ("create:Product", {"id": "hammer", "Category": "tools"}),
    ("create:Product", {"id": "loose"}),
    ("create:Course", {"id": "math"}),
    ("create:Student", {"id": "kim", "Course": ["math"]}),
    ("create:Airport", {"id": "LAX"}),
    ("create:Airport", {"id": "SFO"}),
    ("create:Flight", {"id": "UA1", "departs from Airport": "SFO",
                       "arrives at Airport": "LAX"}),
)


def test_a_declared_plural_names_urls_and_children() -> None:
    assert read(D, "Category", "tools")["_links"]["self"] == {"href": "/categories/tools"}
    hammer = read(D, "Product", "hammer")["_links"]
    assert hammer["category"] == {"href": "/categories/tools", "rel": "parent"}
    shelf = read(D, "Shelf", "s1")["_links"]
    assert shelf["self"] == {"href": "/shelves/s1"}
    assert shelf["categories"] == {"href": "/shelves/s1/categories", "rel": "children"}
    assert read(D, "Category", "all")["_links"]["shelf"] == {"href": "/shelves/s1",
                                                             "rel": "parent"}


def test_a_parent_link_is_left_out_without_its_fact() -> None:
    loose = read(D, "Product", "loose")["_links"]
    assert "category" not in loose
    assert loose["Product_is_in_Category"]["rel"] == "related"  # related is always there
    assert "shelf" not in read(D, "Category", "tools")["_links"]


def test_a_ring_gives_both_directions_keyed_by_its_reading() -> None:
    tools = read(D, "Category", "tools")["_links"]
    assert tools["parent-category"] == {"href": "/categories/all", "rel": "parent"}
    assert tools["category-has-parent"] == {
        "href": "/categories/tools/category-has-parent", "rel": "children"}
    top = read(D, "Category", "all")["_links"]
    assert "parent-category" not in top
    assert top["category-has-parent"]["rel"] == "children"
    assert top["products"] == {"href": "/categories/all/products", "rel": "children"}


def test_many_to_many_is_a_peer_resource() -> None:
    kim = read(D, "Student", "kim")["_links"]
    assert kim["courses"] == {"href": "/students/kim/courses", "rel": "peers"}
    math = read(D, "Course", "math")["_links"]
    assert math["students"] == {"href": "/courses/math/students", "rel": "peers"}
    # No uniqueness constraint at all: the facts form a set, so the spanning one holds.
    assert kim["follows-student"] == {"href": "/students/kim/follows-student", "rel": "peers"}
    assert kim["student-follows"] == {"href": "/students/kim/student-follows", "rel": "peers"}
    assert kim["Student_enrolls_in_Course"]["rel"] == "related"


def test_two_fact_types_to_one_noun_get_distinct_keys() -> None:
    flight = read(D, "Flight", "UA1")["_links"]
    assert flight["departs-from-airport"] == {"href": "/airports/SFO", "rel": "parent"}
    assert flight["arrives-at-airport"] == {"href": "/airports/LAX", "rel": "parent"}
    assert "airport" not in flight
    lax = read(D, "Airport", "LAX")["_links"]
    assert lax["flight-departs-from"] == {"href": "/airports/LAX/flight-departs-from",
                                          "rel": "children"}
    assert lax["flight-arrives-at"] == {"href": "/airports/LAX/flight-arrives-at",
                                        "rel": "children"}
    assert "flights" not in lax


@pytest.mark.parametrize("noun", ["Product", "Category", "Shelf", "Student", "Course",
                                  "Flight", "Airport"])
def test_every_href_is_under_a_known_plural(noun: str) -> None:
    for item in arest.apply(D, f"list:{noun}")[0]["items"]:
        assert_urls(D, item)
        assert item["_links"] == links(D, noun, item["id"])


def test_a_subtype_has_its_supertypes_links() -> None:
    state = applied(
        arest.compile(READINGS + "DigitalProduct is a subtype of Product.\n"),
        ("create:Category", {"id": "ebooks"}),
        ("create:DigitalProduct", {"id": "book", "Category": "ebooks"}),
    )
    book = read(state, "DigitalProduct", "book")
    assert book["_links"]["self"] == {"href": "/digital-products/book"}
    assert book["_links"]["category"] == {"href": "/categories/ebooks", "rel": "parent"}
    assert_urls(state, book)


def test_ids_are_percent_encoded_in_every_href() -> None:
    state = applied(D, ("create:Shelf", {"id": "a/b c"}))
    shelf = read(state, "Shelf", "a/b c")["_links"]
    assert shelf["self"] == {"href": "/shelves/a%2Fb%20c"}
    assert shelf["categories"]["href"] == "/shelves/a%2Fb%20c/categories"


def test_links_to_one_noun_through_two_fact_types_are_keyed_by_reading() -> None:
    state = applied(
        arest.compile("Person(.Name) is an entity type.\nCar(.VIN) is an entity type.\n"
                      "Person owns Car.\n  Each Person owns at most one Car.\n"
                      "Person rents Car.\n"),
        ("create:Person", {"id": "ann", "owns Car": "c1", "rents Car": ["c2"]}),
    )
    ann = read(state, "Person", "ann")["_links"]
    assert ann["owns-car"] == {"href": "/cars/c1", "rel": "parent"}
    assert ann["rents-car"] == {"href": "/persons/ann/rents-car", "rel": "peers"}
    assert not {"car", "cars"} & set(ann)
    c1 = read(state, "Car", "c1")["_links"]
    assert c1["person-owns"] == {"href": "/cars/c1/person-owns", "rel": "children"}
    assert c1["person-rents"] == {"href": "/cars/c1/person-rents", "rel": "peers"}


# --- on generated schemas -------------------------------------------------------------------

COMPILED: dict[str, Any] = {}


@settings(max_examples=40)
@given(schemas(), st.lists(commands(), max_size=10))
def test_links_on_generated_schemas(readings: str, sequence: list[tuple[str, Any]]) -> None:
    """Over random populations: hrefs under known plurals, and a parent link for exactly the
    entity-typed single-valued fields, pointing at the field's value."""
    if readings not in COMPILED:
        COMPILED[readings] = arest.compile(readings)
    state = COMPILED[readings]
    for key, request in sequence:
        state = arest.apply(state, key, request)[1]
    for person in arest.apply(state, "list:Person")[0]["items"]:
        assert_urls(state, person)
        parents = {k: v["href"] for k, v in person["_links"].items() if v.get("rel") == "parent"}
        owned = person.get("owns Car")  # owns and rents both lead to Car: named by reading
        assert parents == ({"owns-car": f"/cars/{owned}"} if isinstance(owned, str) else {})
        assert "rents-car" in person["_links"] and "cars" not in person["_links"]
        rels = {v.get("rel") for v in person["_links"].values()}
        assert rels <= {None, "parent", "children", "peers", "related"}


@given(st.text(st.characters(exclude_categories=("Cs",))))
def test_a_segment_is_the_id_percent_encoded_as_quote_encodes_it(entity: str) -> None:
    """Every character but the unreserved ones as its UTF-8 bytes, ``.`` and ``..`` too."""
    expected = quote(entity, safe="")
    assert segment(entity) == (expected.replace(".", "%2E") if expected in (".", "..")
                               else expected)


@settings(max_examples=50)
@given(st.text(st.sampled_from("ab.-_~@/% %2E")) | st.text(st.characters(max_codepoint=127)))
def test_an_ascii_segment_is_the_id_percent_encoded_as_quote_encodes_it(entity: str) -> None:
    """An ASCII id, encoded without the regular expression where it has at most one
    reserved character, is percent-encoded as ``quote`` encodes it (dots and percent signs
    among the reserved characters)."""
    expected = quote(entity, safe="")
    assert segment(entity) == (expected.replace(".", "%2E") if expected in (".", "..")
                               else expected)
