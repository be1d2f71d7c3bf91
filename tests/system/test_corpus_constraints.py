"""The constraints of the tutor corpus domains, each kind on the domain that declares it, with a
violating and a satisfying population, through the public API (`arest.load`, `arest.apply`).

A violation is checked as a user sees it: `rejected`, `kind`, `modality`, the `reading` as it
stands in the corpus file, and the `constraint_id` that `schema` lists for that sentence. Alethic
violations leave D as it was (D′ is D); deontic ones are reported and the command commits.

catalog.md and notifications.md name entities by a reference value and then give them another
one (`Brand 'acme' has Brand Name 'Acme Corp'.`). Those files are refused as they are (tested
below); the other tests run on copies without exactly those sentences, computed from the
original text. The corpus is external: every test here takes it through the `tutor_corpus`
fixture (tests/conftest.py), which skips them when it is absent and fails them in CI. The
catalog copy most tests use also
lacks its subtype XO, so that they can create plain Products; the XO is tested on its own copy.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

import arest

Found = set[tuple[str, str, str]]  # (kind, modality, reading) of each violation

BRAND_NAMES = r"Brand '[^']+' has Brand Name '[^']+'\."
CHANNEL_NAMES = r"Channel '[^']+' has Channel Name '[^']+'\."
TEMPORAL = ("It is obligatory that each Article has Content Body before Content Status is "
            "'published'.")
SUBTYPE_XO = ("For each Product, exactly one of the following holds:\n"
              "  that Product is a DigitalProduct;\n"
              "  that Product is a PhysicalProduct.\n")


def offending(corpus: Path, name: str, pattern: str) -> list[tuple[int, str]]:
    """(line number, sentence) of each line of a corpus file that is exactly `pattern`."""
    lines = (corpus / name).read_text().splitlines()
    return [(n, line) for n, line in enumerate(lines, 1) if re.fullmatch(pattern, line)]


def corrected(corpus: Path, folder: Path, name: str, *sentences: str) -> Path:
    """A copy of a corpus file without the given sentences (each must occur exactly once)."""
    text = (corpus / name).read_text()
    for sentence in sentences:
        line = sentence if sentence.endswith("\n") else sentence + "\n"
        assert text.count(line) == 1, sentence
        text = text.replace(line, "")
    copy = folder / name
    copy.write_text(text)
    return copy


@dataclass(frozen=True)
class Domain:
    """A loaded corpus domain: its state, its text and the constraints `schema` lists."""

    D: Any
    text: str
    listed: dict[str, dict[str, str]]

    @classmethod
    def load(cls, path: Path) -> Domain:
        D = arest.load(path)
        listed = {c["id"]: c for c in arest.apply(D, "schema")[0]["constraints"]}
        return cls(D, path.read_text(), listed)

    def found(self, out: dict[str, Any]) -> Found:
        """The violations of a command result, each checked against the readings and schema."""
        assert "error" not in out, out
        for v in out["violations"]:
            # The sentence verbatim (a multi-line one with its lines joined by one space).
            flat = " ".join(line.strip() for line in self.text.splitlines())
            assert v["reading"] in flat, v
            assert self.listed[v["constraint_id"]] == {
                "id": v["constraint_id"], "kind": v["kind"], "modality": v["modality"],
                "reading": v["reading"]}
        return {(v["kind"], v["modality"], v["reading"]) for v in out["violations"]}

    def rejects(self, state: Any, key: str, request: Any) -> Found:
        out, after = arest.apply(state, key, request)
        assert out.get("rejected") is True and after is state, out
        found = self.found(out)
        assert any(modality == "alethic" for _, modality, _ in found)
        return found

    def accepts(self, state: Any, key: str, request: Any) -> tuple[Found, Any]:
        out, after = arest.apply(state, key, request)
        assert out.get("rejected") is False and after is not state, out
        found = self.found(out)
        assert all(modality == "deontic" for _, modality, _ in found)
        return found, after

    def seed(self, *commands: tuple[str, dict[str, Any]], state: Any = None) -> Any:
        """The state after commands that must pass without any violation."""
        state = self.D if state is None else state
        for key, request in commands:
            found, state = self.accepts(state, key, request)
            assert found == set(), (key, found)
        return state


def asserting(fact_type: str, *values: str) -> dict[str, Any]:
    return {"fact_type": fact_type, "bindings": list(values)}


def alethic(kind: str, reading: str) -> tuple[str, str, str]:
    return (kind, "alethic", reading)


def deontic(kind: str, reading: str) -> tuple[str, str, str]:
    return (kind, "deontic", reading)


@pytest.fixture(scope="module")
def fixed(tmp_path_factory: pytest.TempPathFactory, tutor_corpus: Path) -> Path:
    return tmp_path_factory.mktemp("corpus")


@pytest.fixture(scope="module")
def catalog(fixed: Path, tutor_corpus: Path) -> Domain:
    # The subtype XO is dropped too, so that plain Products can be created (tested apart).
    sentences = [line for _, line in offending(tutor_corpus, "catalog.md", BRAND_NAMES)]
    return Domain.load(corrected(tutor_corpus, fixed, "catalog.md", *sentences, SUBTYPE_XO))


@pytest.fixture(scope="module")
def notifications(fixed: Path, tutor_corpus: Path) -> Domain:
    sentences = [line for _, line in offending(tutor_corpus, "notifications.md", CHANNEL_NAMES)]
    return Domain.load(corrected(tutor_corpus, fixed, "notifications.md", *sentences))


@pytest.fixture(scope="module")
def content(tutor_corpus: Path) -> Domain:
    return Domain.load(tutor_corpus / "content.md")


@pytest.fixture(scope="module")
def orders(tutor_corpus: Path) -> Domain:
    return Domain.load(tutor_corpus / "orders.md")


@pytest.fixture(scope="module")
def tasks(tutor_corpus: Path) -> Domain:
    return Domain.load(tutor_corpus / "tasks.md")


@pytest.fixture(scope="module")
def scheduling(tutor_corpus: Path) -> Domain:
    return Domain.load(tutor_corpus / "scheduling.md")


@pytest.fixture(scope="module")
def authoring(tutor_corpus: Path) -> Domain:
    return Domain.load(tutor_corpus / "authoring.md")


# --- the files that do not load as they are -------------------------------------------------


@pytest.mark.parametrize(("name", "pattern", "count"), [
    ("catalog.md", BRAND_NAMES, 2), ("notifications.md", CHANNEL_NAMES, 4)])
def test_instance_facts_contradicting_a_reference_scheme_are_refused(
    name: str, pattern: str, count: int, tutor_corpus: Path
) -> None:
    lines = offending(tutor_corpus, name, pattern)
    assert len(lines) == count
    with pytest.raises(arest.ReadingError) as caught:
        arest.load(tutor_corpus / name)
    diagnostics = caught.value.diagnostics
    assert [(Path(d.path), d.line, d.column) for d in diagnostics] == [
        (tutor_corpus / name, n, 1) for n, _ in lines]
    message = str(caught.value)
    for n, sentence in lines:
        assert f"{tutor_corpus / name}:{n}:1:" in message and sentence in message


def test_a_temporal_obligation_warns_once_an_article_is_published(content: Domain) -> None:
    state = content.seed(("create:Author", {"id": "ann", "Display Name": "Ann"}))
    article = {"id": "a1", "Headline": "H", "Author": "ann", "Content Status": "published"}
    found, _ = content.accepts(state, "create:Article", article)
    assert found == {deontic("SS", TEMPORAL)}
    found, _ = content.accepts(state, "create:Article", {**article, "Content Body": "text"})
    assert found == set()


def test_catalog_subtypes_are_exclusive_and_exhaustive(fixed: Path, tutor_corpus: Path) -> None:
    folder = fixed / "with-xo"
    folder.mkdir(exist_ok=True)
    sentences = [line for _, line in offending(tutor_corpus, "catalog.md", BRAND_NAMES)]
    catalog = Domain.load(corrected(tutor_corpus, folder, "catalog.md", *sentences))
    product = {"Product Name": "P", "Price": "10", "Currency": "USD"}
    # A DigitalProduct is a Product: it has the Product's fields, and satisfies the XO.
    state = catalog.seed(("create:DigitalProduct", {"id": "sku-1", **product,
                                                     "Download URL": "https://x/sku-1"}))
    assert arest.apply(state, "read:Product", "sku-1")[0]["is a DigitalProduct"] is True
    found = catalog.rejects(state, "create:PhysicalProduct", {"id": "sku-1"})
    assert {kind for kind, _, _ in found} == {"XO"}  # both subtypes: not exclusive
    found = catalog.rejects(catalog.D, "create:Product", {"id": "sku-2", **product})
    assert {kind for kind, _, _ in found} == {"XO"}  # neither subtype: not exhaustive


# --- uniqueness ----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def shop(orders: Domain) -> Any:
    return orders.seed(
        ("create:Customer", {"id": "ann@x.com", "Name": "Ann", "Shipping Address": "1 Main"}),
        ("create:Order", {"id": "o-1", "Customer": "ann@x.com",
                          "Shipping Address": "1 Main",
                          "LineItem": [{"id": "li-1", "Product": "sku-1", "Quantity": 1,
                                        "Amount": "10"}]}),
        ("create:Order", {"id": "o-2", "Customer": "ann@x.com",
                          "Shipping Address": "1 Main",
                          "LineItem": [{"id": "li-2", "Product": "sku-1", "Quantity": 1,
                                        "Amount": "5"}]}),
    )


def test_uniqueness_on_the_inverse_role_each_order_has_at_most_one_coupon(
    orders: Domain, shop: Any
) -> None:
    assert any(c["kind"] == "UC" and c["reading"] == "Each Order has at most one Coupon."
               for c in orders.listed.values())
    found, state = orders.accepts(shop, "create:Coupon",
                                  {"id": "c1", "Discount Percent": "10", "Order": "o-1"})
    assert found == set()
    found = orders.rejects(state, "create:Coupon",
                           {"id": "c2", "Discount Percent": "5", "Order": "o-1"})
    assert found == {alethic("UC", "Each Order has at most one Coupon.")}
    found, _ = orders.accepts(state, "create:Coupon",
                              {"id": "c2", "Discount Percent": "5", "Order": "o-2"})
    assert found == set()
    found = orders.rejects(state, "assert", asserting("Coupon_is_applied_to_Order", "c1", "o-2"))
    assert found == {alethic("UC", "Each Coupon is applied to at most one Order.")}


def test_uniqueness_and_mandatory_from_exactly_one(orders: Domain, shop: Any) -> None:
    found = orders.rejects(shop, "assert", asserting("Customer_has_Name", "ann@x.com", "Annie"))
    assert found == {alethic("UC", "Each Customer has exactly one Name.")}
    out, _ = arest.apply(shop, "assert", asserting("Customer_has_Name", "ann@x.com", "Annie"))
    assert out["violations"][0]["detail"]["evidence"] == [["ann@x.com", "Ann"],
                                                          ["ann@x.com", "Annie"]]
    found = orders.rejects(shop, "create:Customer", {"id": "bob@x.com"})
    assert found == {alethic("MC", "Each Customer has exactly one Name.")}
    uc = next(c for c in orders.listed.values() if c["reading"] == "Each Customer has exactly "
              "one Name." and c["kind"] == "UC")
    mc = next(c for c in orders.listed.values() if c["reading"] == uc["reading"]
              and c["kind"] == "MC")
    assert uc["id"] != mc["id"]  # one sentence, two constraints
    found = orders.rejects(shop, "retract", asserting("Customer_has_Name", "ann@x.com", "Ann"))
    assert found == {alethic("MC", "Each Customer has exactly one Name.")}
    found, _ = orders.accepts(shop, "update:Customer", {"id": "ann@x.com", "Name": "Annie"})
    assert found == set()  # a single-valued field's new value replaces the old


def test_uniqueness_on_the_inverse_role_each_status_is_used_by_at_most_one_step(
    authoring: Domain,
) -> None:
    step = {"Authoring Step Order": "9", "Authoring Situation": "s", "Authoring Guidance": "g"}
    found = authoring.rejects(authoring.D, "create:Authoring Step",
                              {"id": "extra", **step, "Status": "Add Constraints"})
    assert found == {alethic("UC", "Each Status is used by at most one Authoring Step.")}
    found, _ = authoring.accepts(authoring.D, "create:Authoring Step",
                                 {"id": "extra", **step, "Status": "Review"})
    assert found == set()


def test_uniqueness_spanning_both_roles_in_scheduling(scheduling: Domain, meeting: Any) -> None:
    """`In each population of Meeting is held in Room, each Meeting, Room combination occurs at
    most once.` Relations are sets, so a second occurrence cannot be populated: asserting the
    fact again changes nothing and reports nothing."""
    held = "Meeting_is_held_in_Room"
    assert any(c["kind"] == "UC" and c["reading"].startswith(
        "In each population of Meeting is held in Room") for c in scheduling.listed.values())
    found, state = scheduling.accepts(meeting, "assert", asserting(held, "m1", "r1"))
    assert found == set()
    out, again = arest.apply(state, "assert", asserting(held, "m1", "r1"))
    assert out["rejected"] is False and out["violations"] == [] and again is state
    assert arest.apply(again, "query:" + held)[0]["total"] == 1
    found = scheduling.rejects(state, "assert", asserting(held, "m1", "r2"))
    assert found == {alethic("UC", "Each Meeting is held in at most one Room.")}


# --- value constraints ---------------------------------------------------------------------


@pytest.fixture(scope="module")
def meeting(scheduling: Domain) -> Any:
    return scheduling.seed(
        ("create:Room", {"id": "r1", "Room Name": "Blue", "Capacity": "8"}),
        ("create:Room", {"id": "r2", "Room Name": "Red", "Capacity": "4"}),
        ("create:Meeting", {"id": "m1", "Meeting Title": "Standup", "Start Time": "09:00",
                            "End Time": "09:15", "Recurrence": "daily",
                            "is organized by Attendee": "ann@x.com",
                            "Attendee_is_invited_to_Meeting": ["ann@x.com"]}),
    )


@pytest.fixture(scope="module")
def project(tasks: Domain) -> Any:
    task = {"Title": "T", "Priority": "high", "Project": "core"}
    return tasks.seed(
        ("create:Project", {"id": "core", "Title": "Core"}),
        ("create:Person", {"id": "ann", "Display Name": "Ann"}),
        *(("create:Task", {"id": t, **task}) for t in ("t1", "t2", "t3")),
    )


@pytest.fixture(scope="module")
def preferences(notifications: Domain) -> Any:
    return notifications.seed(("create:Preference", {"id": "p1", "Recipient Email": "ann@x.com",
                                                     "Channel": ["email"]}))


NOTIFICATION = {"Subject": "Hi", "Message Body": "b", "Recipient Email": "ann@x.com",
                "Urgency": "low", "Channel": ["email"]}

# value type: (domain fixture, seeded state fixture, key, request, bad value, good value)
VALUES: dict[str, tuple[str, str | None, str, dict[str, Any], str, str]] = {
    "Payment Method": ("orders", "shop", "create:Payment",
                       {"id": "pay-1", "Order": "o-1", "Amount": "10"}, "cash", "paypal"),
    "Currency": ("catalog", None, "create:Product",
                 {"id": "sku-1", "Product Name": "P", "Price": "10"}, "AUD", "EUR"),
    "Priority": ("tasks", "project", "update:Task", {"id": "t1"}, "urgent", "critical"),
    "Effort": ("tasks", "project", "update:Task", {"id": "t1"}, "4", "13"),
    "Recurrence": ("scheduling", "meeting", "update:Meeting", {"id": "m1"}, "yearly", "weekly"),
    "Media Type": ("content", None, "create:MediaAsset", {"id": "m1", "File URL": "u"}, "gif",
                   "image"),
    "Urgency": ("notifications", "preferences", "create:Notification",
                {**NOTIFICATION, "id": "n1"}, "meh", "critical"),
}


@pytest.mark.parametrize("noun", sorted(VALUES))
def test_value_constraints_of_value_types(noun: str, request: pytest.FixtureRequest) -> None:
    name, seeded, key, base, bad, good = VALUES[noun]
    domain: Domain = request.getfixturevalue(name)
    state = domain.D if seeded is None else request.getfixturevalue(seeded)
    (sentence,) = re.findall(rf"^\s*(The possible values of {noun} are .*\.)$", domain.text,
                             re.MULTILINE)
    found = domain.rejects(state, key, {**base, noun: bad})
    assert found == {alethic("VC", sentence)}
    out, _ = arest.apply(state, key, {**base, noun: bad})
    assert out["violations"][0]["detail"]["key"] == [bad]
    found, after = domain.accepts(state, key, {**base, noun: good})
    assert found == set()
    assert arest.apply(after, f"read:{key.split(':')[1]}", base["id"])[0][noun] == good


def test_schema_lists_the_value_constraint_a_violation_names(orders: Domain, shop: Any) -> None:
    out, _ = arest.apply(shop, "create:Payment", {"id": "pay-1", "Order": "o-1", "Amount": "10",
                                                  "Payment Method": "cash"})
    (violation,) = out["violations"]
    listed = arest.apply(orders.D, "schema", {"noun": "Payment Method"})[0]["constraints"]
    assert violation["constraint_id"] in {c["id"] for c in listed}


# --- deontic constraints -------------------------------------------------------------------


OVER_100 = "It is forbidden that a Coupon has Discount Percent greater than 100."
UNDER_0 = "It is forbidden that a Coupon has Discount Percent less than 0."


@pytest.mark.parametrize(("percent", "readings"), [
    ("150", {OVER_100}), ("100.5", {OVER_100}), ("100", set()), ("50", set()), ("0", set()),
    ("-5", {UNDER_0}), ("ten", set()),
])
def test_forbidden_discount_flags_only_what_compares_true(
    orders: Domain, shop: Any, percent: str, readings: set[str]
) -> None:
    found, after = orders.accepts(shop, "create:Coupon", {"id": "c9", "Discount Percent": percent})
    assert found == {deontic("VC", reading) for reading in readings}
    assert arest.apply(after, "read:Coupon", "c9")[0]["Discount Percent"] == percent  # committed


POSITIVE = "It is obligatory that each LineItem has Quantity greater than 0."


@pytest.mark.parametrize(("quantity", "flagged"), [
    ("0", True), ("-1", True), ("two", True), ("2", False), ("0.5", False)])
def test_obligatory_quantity_flags_what_does_not_compare_true(
    orders: Domain, shop: Any, quantity: str, flagged: bool
) -> None:
    found, after = orders.accepts(shop, "update:LineItem", {"id": "li-1", "Quantity": quantity})
    assert found == ({deontic("VC", POSITIVE)} if flagged else set())
    assert arest.apply(after, "read:LineItem", "li-1")[0]["Quantity"] == quantity


def test_an_order_without_line_items_has_no_amount_to_derive(
    orders: Domain, shop: Any
) -> None:
    """The Order's Amount is the sum over its LineItems; with none there is no Amount (an
    empty group derives nothing), which the alethic `exactly one Amount` rejects, and the
    deontic `at least one LineItem` is reported beside it."""
    order = {"Customer": "ann@x.com", "Shipping Address": "1 Main"}
    found = orders.rejects(shop, "create:Order", {"id": "o-3", **order})
    assert found == {alethic("MC", "Each Order has exactly one Amount."),
                     deontic("MC", "It is obligatory that each Order has at least one LineItem.")}
    found, after = orders.accepts(shop, "create:Order", {"id": "o-3", **order, "LineItem": [
        {"id": "li-3", "Product": "sku-1", "Quantity": 1, "Amount": "0"}]})
    assert found == set()
    assert arest.apply(after, "read:Order", "o-3")[0]["Amount"] == "0"


def test_deontic_and_alethic_exactly_one_are_both_reported(
    tasks: Domain, project: Any, catalog: Domain, scheduling: Domain, meeting: Any
) -> None:
    found = tasks.rejects(project, "assert", asserting("Task_has_Priority", "t1", "low"))
    assert found == {alethic("UC", "Each Task has exactly one Priority."),
                     deontic("UC", "It is obligatory that each Task has exactly one Priority.")}
    found = tasks.rejects(project, "create:Task", {"id": "t9", "Title": "T", "Project": "core"})
    assert found == {alethic("MC", "Each Task has exactly one Priority."),
                     deontic("MC", "It is obligatory that each Task has exactly one Priority.")}
    found = catalog.rejects(catalog.D, "create:Product",
                            {"id": "sku-1", "Product Name": "P", "Currency": "USD"})
    assert found == {alethic("MC", "Each Product has exactly one Price."),
                     deontic("MC", "It is obligatory that each Product has exactly one Price.")}
    found = scheduling.rejects(meeting, "update:Meeting", {"id": "m1", "Start Time": None})
    assert found == {alethic("MC", "Each Meeting has exactly one Start Time."),
                     deontic("MC", "It is obligatory that each Meeting has exactly one Start "
                                   "Time.")}


@pytest.mark.parametrize(("rating", "reading"), [
    ("0", "It is forbidden that a Review has Rating less than 1."),
    ("6", "It is forbidden that a Review has Rating greater than 5."),
    ("1", None), ("3", None), ("5", None),
])
def test_forbidden_review_ratings(catalog: Domain, rating: str, reading: str | None) -> None:
    product = {"id": "sku-1", "Product Name": "P", "Price": "10", "Currency": "USD"}
    state = catalog.seed(("create:Product", product))
    found, after = catalog.accepts(state, "create:Review", {"id": "r1", "Product": "sku-1",
                                                            "Rating": rating, "User": "ann"})
    assert found == (set() if reading is None else {deontic("VC", reading)})
    assert arest.apply(after, "read:Review", "r1")[0]["Rating"] == rating


def test_forbidden_recipient_without_preference_and_the_permission(
    notifications: Domain, preferences: Any
) -> None:
    forbidden = "It is forbidden that a Notification is sent to a Recipient Email that has no " \
                "Preference."
    found, after = notifications.accepts(notifications.D, "create:Notification",
                                         {"id": "n1", **NOTIFICATION})
    assert found == {deontic("SS", forbidden)}
    assert arest.apply(after, "read:Notification", "n1")[0]["Recipient Email"] == "ann@x.com"
    found, _ = notifications.accepts(preferences, "create:Notification",
                                     {"id": "n1", **NOTIFICATION})
    assert found == set()
    # `It is permitted that a Notification is delivered via more than one Channel.` checks nothing
    found, _ = notifications.accepts(preferences, "create:Notification",
                                     {"id": "n1", **NOTIFICATION, "Channel": ["email", "sms"]})
    assert found == set()


# --- mandatory (at least one, some) --------------------------------------------------------


def test_each_notification_is_delivered_via_some_channel(
    notifications: Domain, preferences: Any
) -> None:
    some = {alethic("MC", "Each Notification is delivered via some Channel."),
            alethic("MC", "Each Notification is delivered via at least one Channel.")}
    found = notifications.rejects(preferences, "create:Notification",
                                  {"id": "n1", **NOTIFICATION, "Channel": []})
    assert found == some
    found, state = notifications.accepts(preferences, "create:Notification",
                                         {"id": "n1", **NOTIFICATION, "Channel": ["email", "sms"]})
    delivered = "Notification_is_delivered_via_Channel"
    found, state = notifications.accepts(state, "retract", asserting(delivered, "n1", "email"))
    assert found == set()
    assert notifications.rejects(state, "retract", asserting(delivered, "n1", "sms")) == some
    assert notifications.rejects(state, "update:Notification",
                                 {"id": "n1", "Channel": None}) == some
    found = notifications.rejects(notifications.D, "create:Preference",
                                  {"id": "p2", "Recipient Email": "bo@x.com"})
    assert found == {alethic("MC", "Each Preference enables at least one Channel.")}


# --- subset constraints --------------------------------------------------------------------


REQUIRED = "If some Attendee is required for some Meeting then that Attendee is invited to that " \
           "Meeting."
ORGANIZER = "If some Meeting is organized by some Attendee then that Attendee is invited to " \
            "that Meeting."


def test_subsets_in_scheduling(scheduling: Domain, meeting: Any) -> None:
    required = asserting("Attendee_is_required_for_Meeting", "bo@x.com", "m1")
    invited = asserting("Attendee_is_invited_to_Meeting", "bo@x.com", "m1")
    assert scheduling.rejects(meeting, "assert", required) == {alethic("SS", REQUIRED)}
    verdict, same = arest.apply(meeting, "verify", required)
    assert verdict["would_reject"] is True and same is meeting
    assert {v["reading"] for v in verdict["violations"]} == {REQUIRED}
    _, state = scheduling.accepts(meeting, "assert", invited)
    found, state = scheduling.accepts(state, "assert", required)
    assert found == set()
    assert scheduling.rejects(state, "retract", invited) == {alethic("SS", REQUIRED)}
    m2 = {"id": "m2", "Meeting Title": "Retro", "Start Time": "10:00", "End Time": "11:00",
          "Recurrence": "none", "is organized by Attendee": "bo@x.com"}
    assert scheduling.rejects(meeting, "create:Meeting", m2) == {alethic("SS", ORGANIZER)}
    found, _ = scheduling.accepts(meeting, "create:Meeting",
                                  {**m2, "Attendee_is_invited_to_Meeting": ["bo@x.com"]})
    assert found == set()


def test_subset_in_tasks_assigned_tasks_belong_to_a_project(tasks: Domain, project: Any) -> None:
    subset = "If some Task is assigned to some Person then that Task belongs to some Project."
    found, state = tasks.accepts(project, "assert",
                                 asserting("Task_is_assigned_to_Person", "t1", "ann"))
    assert found == set()
    # Each Task belongs to exactly one Project as well, so the subset never fails alone.
    found = tasks.rejects(state, "retract", asserting("Task_belongs_to_Project", "t1", "core"))
    assert found == {alethic("SS", subset),
                     alethic("MC", "Each Task belongs to exactly one Project.")}
    found = tasks.rejects(project, "assert", asserting("Task_is_assigned_to_Person", "t7", "ann"))
    assert alethic("SS", subset) in found  # t7 exists from now on, with no Project


SHIPPING = "If some Customer places some Order then that Order has Shipping Address equal to " \
           "that Customer's Shipping Address."


def test_subset_in_orders_the_shipping_address_is_the_customers(
    orders: Domain, shop: Any
) -> None:
    order = {"id": "o-3", "Customer": "ann@x.com",
             "LineItem": [{"Product": "sku-1", "Quantity": 1, "Amount": "1"}]}
    found, _ = orders.accepts(shop, "create:Order", {**order, "Shipping Address": "1 Main"})
    assert found == set()
    found = orders.rejects(shop, "create:Order", {**order, "Shipping Address": "2 Elm"})
    assert found == {alethic("SS", SHIPPING)}
    found = orders.rejects(shop, "create:Order", order)
    assert found == {alethic("SS", SHIPPING),
                     alethic("MC", "Each Order has exactly one Shipping Address.")}


# --- ring constraints ----------------------------------------------------------------------


PARENT = "Category_has_parent_Category"
IRREFLEXIVE = "Category has parent Category is irreflexive."
ACYCLIC = "Category has parent Category is acyclic."


def test_category_parent_is_irreflexive_and_acyclic(catalog: Domain) -> None:
    D = catalog.D  # phones and laptops have parent electronics (instance facts)
    found = catalog.rejects(D, "assert", asserting(PARENT, "books", "books"))
    assert found == {alethic("IR", IRREFLEXIVE), alethic("AC", ACYCLIC)}
    found = catalog.rejects(D, "assert", asserting(PARENT, "electronics", "phones"))
    assert found == {alethic("AC", ACYCLIC)}
    verdict, same = arest.apply(D, "verify", asserting(PARENT, "electronics", "laptops"))
    assert verdict["would_reject"] is True and same is D
    assert [v["kind"] for v in verdict["violations"]] == ["AC"]
    assert sorted(verdict["violations"][0]["detail"]["evidence"]) == ["electronics", "laptops"]
    found = catalog.rejects(D, "assert", asserting(PARENT, "phones", "books"))
    assert found == {alethic("UC", "Each Category has at most one parent Category.")}
    found, state = catalog.accepts(D, "assert", asserting(PARENT, "electronics", "books"))
    assert found == set()
    found = catalog.rejects(state, "assert", asserting(PARENT, "books", "phones"))
    assert found == {alethic("AC", ACYCLIC)}  # books → phones → electronics → books


BLOCKS = "Task_blocks_Task"


def test_task_blocks_task_is_irreflexive_and_acyclic(tasks: Domain, project: Any) -> None:
    found = tasks.rejects(project, "assert", asserting(BLOCKS, "t1", "t1"))
    assert found == {alethic("IR", "No Task blocks the same Task. (irreflexive)"),
                     alethic("AC", "Task blocks Task is acyclic.")}
    _, state = tasks.accepts(project, "assert", asserting(BLOCKS, "t1", "t2"))
    found, state = tasks.accepts(state, "assert", asserting(BLOCKS, "t2", "t3"))
    assert found == set()
    found, _ = tasks.accepts(state, "assert", asserting(BLOCKS, "t1", "t3"))
    assert found == set()  # blocking is not intransitive
    found = tasks.rejects(state, "assert", asserting(BLOCKS, "t3", "t1"))
    assert found == {alethic("AC", "Task blocks Task is acyclic.")}
    out, same = arest.apply(state, "assert", asserting(BLOCKS, "t1", "t2"))
    assert out["violations"] == [] and same is state  # the spanning UC: a set holds it once


REPLIES = "Comment_replies_to_Comment"
INTRANSITIVE = "If Comment 1 replies to Comment 2 and Comment 2 replies to Comment 3, then " \
               "Comment 1 does not reply to Comment 3."


def test_comment_replies_are_irreflexive_and_intransitive(tasks: Domain, project: Any) -> None:
    comment = {"Task": "t1", "Body": "b", "Person": "ann"}
    state = tasks.seed(("create:Comment", {"id": "c1", **comment}),
                       ("create:Comment", {"id": "c2", **comment, "replies to Comment": "c1"}),
                       ("create:Comment", {"id": "c3", **comment, "replies to Comment": "c2"}),
                       state=project)
    # A violation of intransitivity needs a Comment replying to two Comments, so it always
    # comes with the uniqueness `Each Comment replies to at most one Comment.`
    found = tasks.rejects(state, "assert", asserting(REPLIES, "c3", "c1"))
    assert found == {alethic("IT", INTRANSITIVE),
                     alethic("UC", "Each Comment replies to at most one Comment.")}
    found = tasks.rejects(state, "create:Comment",
                          {"id": "c4", **comment, "replies to Comment": "c4"})
    assert found == {alethic("IR", "No Comment replies to itself."), alethic("IT", INTRANSITIVE)}
    found, _ = tasks.accepts(state, "create:Comment",
                             {"id": "c4", **comment, "replies to Comment": "c3"})
    assert found == set()


SYMMETRIC = {
    alethic("SY", "If Article 1 is related to Article 2, then Article 2 is related to Article 1."),
    alethic("SY", "If some Article1 is related to some Article2 then that Article2 is related to "
                  "that Article1. (symmetric)"),
}


def test_related_articles_are_symmetric_and_irreflexive(content: Domain) -> None:
    article = {"Headline": "H", "Content Status": "draft", "Author": "ann"}
    state = content.seed(("create:Author", {"id": "ann", "Display Name": "Ann"}),
                         ("create:Article", {"id": "a1", **article}))
    related = "Article_is_related_to_Article"
    assert content.rejects(state, "create:Article",
                           {"id": "a2", **article, "is related to Article": ["a1"]}) == SYMMETRIC
    # both directions in one command: a child Article relating back to its parent
    found, state = content.accepts(state, "create:Article", {
        "id": "a2", **article,
        "is related to Article": [{"id": "a3", **article, "is related to Article": ["a2"]}]})
    assert found == set()
    rows = arest.apply(state, "query:" + related)[0]["rows"]
    assert [(r["Article1"], r["Article2"]) for r in rows] == [("a2", "a3"), ("a3", "a2")]
    assert content.rejects(state, "retract", asserting(related, "a3", "a2")) == SYMMETRIC
    found = content.rejects(state, "assert", asserting(related, "a1", "a1"))
    assert found == {alethic("IR", "No Article is related to itself.")}
