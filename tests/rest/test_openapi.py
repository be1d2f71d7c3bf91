"""The OpenAPI document of a tenant (DESIGN §9): valid OpenAPI 3.1 for every example domain
and tutor domains, generated from the readings (enums, required, statuses), and following
the schema when readings are compiled."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner
from openapi_spec_validator import validate

import arest
from arest.cli import main
from arest.rest.openapi import document
from arest.rest.routes import ENDPOINTS, statuses
from tests.corpus import OWN_READINGS, tutor_corpus

EXAMPLES = sorted(path.name for path in OWN_READINGS.iterdir() if path.is_dir())
TUTOR_DOMAINS = ("orders.md", "tasks.md", "scheduling.md")
METHODS = ("get", "post", "patch", "delete", "put")


def operations(doc: dict[str, Any]) -> list[tuple[str, str, dict[str, Any]]]:
    return [(path, method, operation) for path, item in doc["paths"].items()
            for method, operation in item.items() if method in METHODS]


def endpoint_of(path: str, method: str, operation_id: str) -> Any:
    """The route table's endpoint an operation was made from, by its operation id's verb
    part and method."""
    named = {e.operation: e for e in ENDPOINTS}
    for name in sorted(named, key=len, reverse=True):
        if (operation_id == name or operation_id.startswith(name + "_")) \
                and named[name].method.lower() == method:
            return named[name]
    raise AssertionError(f"{method} {path}: no endpoint for {operation_id}")


@pytest.fixture(scope="module")
def orders() -> dict[str, Any]:
    return document(arest.load(OWN_READINGS / "orders"))


@pytest.fixture(scope="module")
def tracker() -> dict[str, Any]:
    return document(arest.load(OWN_READINGS / "tracker"))


def validated_in_the_fast_suite(names: Any, fast: str) -> list[Any]:
    """The names, each but ``fast`` marked slow: the specification's validator takes about
    2 s a document, so the fast suite validates one of each kind and the slow suite all."""
    return [pytest.param(name, marks=() if name == fast else pytest.mark.slow)
            for name in names]


@pytest.mark.parametrize("domain", validated_in_the_fast_suite(EXAMPLES, "orders"))
def test_every_example_domain_gives_a_valid_openapi_31_document(domain: str) -> None:
    doc = document(arest.load(OWN_READINGS / domain))
    validate(doc)
    assert doc["openapi"] == "3.1.0"
    assert json.loads(json.dumps(doc)) == doc


@pytest.mark.parametrize("name", validated_in_the_fast_suite(TUTOR_DOMAINS, "orders.md"))
def test_tutor_domains_give_valid_openapi_31_documents(name: str) -> None:
    doc = document(arest.load(tutor_corpus() / name))
    validate(doc)
    assert any(path.startswith("/facts/") for path in doc["paths"])


def test_each_noun_has_its_collection_item_and_link_paths(orders: dict[str, Any]) -> None:
    paths = orders["paths"]
    assert set(paths["/orders"]) == {"get", "post"}
    assert set(paths["/orders/{id}"]) == {"get", "patch", "delete"}
    assert "get" in paths["/orders/{id}/line-items"]
    assert "get" in paths["/customers/{id}/orders"]
    assert "get" in paths["/orders/{id}/Order_was_placed_by_Customer"]
    assert "post" in paths["/orders/{id}/transition"]  # Order has a machine
    assert "/customers/{id}/transition" not in paths  # Customer has none
    assert "/orders/{id}/customer" not in paths  # a parent link is the customer's own url
    assert set(paths["/domain-changes"]) == {"get", "post"}
    assert paths["/domain-changes"]["post"]["operationId"] == "propose"
    for fixed in ("/", "/openapi.json", "/schema", "/schema/{noun}", "/snapshots",
                  "/snapshots/{id}/rollback", "/readings", "/search", "/fetch/{id}"):
        assert fixed in paths, fixed


def test_fact_type_paths_leave_out_asserting_a_derived_fact_type(tracker: dict[str, Any]
                                                                   ) -> None:
    paths = tracker["paths"]
    assert set(paths["/facts/Issue_has_Title"]) == {"get", "post", "delete"}
    assert set(paths["/facts/Milestone_has_mean_Points"]) == {"get"}
    assert set(paths["/facts/Issue_has_Status"]) == {"get"}
    assert "post" in paths["/facts/Milestone_has_mean_Points/verify"]
    assert "get" in paths["/facts/Milestone_has_mean_Points/explain"]


def test_operation_ids_are_unique_and_name_the_command(orders: dict[str, Any]) -> None:
    ids = [operation["operationId"] for _, _, operation in operations(orders)]
    assert len(ids) == len(set(ids))
    assert {"create_Order", "read_Order", "list_LineItem", "navigate_Order_line-items",
            "list_Domain_Change", "query_Order_was_placed_by_Customer",
            "assert_Order_has_Priority"} <= set(ids)


@pytest.mark.parametrize("fixture", ["orders", "tracker"])
def test_every_operation_lists_exactly_the_statuses_of_its_route(
        fixture: str, request: pytest.FixtureRequest) -> None:
    doc = request.getfixturevalue(fixture)
    for path, method, operation in operations(doc):
        endpoint = endpoint_of(path, method, operation["operationId"])
        responses = operation["responses"]
        assert "default" not in responses
        assert "405" not in responses
        assert sorted(int(status) for status in responses) == sorted(statuses(endpoint)), path


def test_errors_are_problem_details_and_422_has_violations(orders: dict[str, Any]) -> None:
    responses = orders["components"]["responses"]
    for name, response in responses.items():
        assert list(response["content"]) == ["application/problem+json"], name
    rejection = responses["Problem422"]["content"]["application/problem+json"]["schema"]
    assert rejection == {"$ref": "#/components/schemas/Rejection"}
    parts = orders["components"]["schemas"]["Rejection"]["allOf"]
    assert parts[1]["required"] == ["violations"]
    problem = orders["components"]["schemas"]["ProblemDetails"]
    assert {"type", "title", "status", "code"} <= set(problem["required"])


def test_enums_come_from_value_constraints_and_machines(tracker: dict[str, Any]) -> None:
    issue = tracker["components"]["schemas"]["Issue"]["properties"]
    assert issue["Priority"]["enum"] == ["high", "low", "normal", "urgent"]
    assert issue["Points"]["enum"] == ["1", "13", "2", "3", "5", "8"]
    assert issue["status"]["enum"] == ["Archived", "Backlog", "Done", "In Progress",
                                       "In Review", "Todo"]
    event = tracker["components"]["schemas"]["Issue.transition"]["properties"]["event"]
    assert "submit-for-review" in event["enum"] and "triage" in event["enum"]
    assert "/issues/{id}/transition" in tracker["paths"]


def test_required_comes_from_mandatory_roles(orders: dict[str, Any]) -> None:
    schemas = orders["components"]["schemas"]
    assert schemas["Order"]["required"] == ["id", "noun", "Customer", "_links"]
    assert schemas["LineItem"]["required"] == ["id", "noun", "Order", "Product", "Quantity",
                                               "_links"]
    assert schemas["Order.create"]["required"] == ["Customer"]
    assert "required" not in schemas["Order.update"]
    assert schemas["Order"]["properties"]["_links"]["readOnly"] is True


def test_create_answers_location_and_links_to_read_and_transition(tracker: dict[str, Any]
                                                                   ) -> None:
    created = tracker["paths"]["/issues"]["post"]["responses"]["201"]
    assert created["headers"]["Location"]["required"] is True
    assert created["links"]["read"] == {"operationId": "read_Issue",
                                        "parameters": {"id": "$response.body#/entity/id"}}
    assert created["links"]["transition"]["operationId"] == "transition_Issue"
    read = tracker["paths"]["/issues/{id}"]["get"]["responses"]
    assert "ETag" in read["200"]["headers"] and "304" in read


def test_every_operation_takes_a_minimum_sequence_and_answers_its_sequence(
        orders: dict[str, Any]) -> None:
    """docs/scale.md: any request may carry ``Arest-Min-Sequence`` (then 409 ``not_yet``
    with ``Retry-After`` when D does not reach it); every answer the tenant computes names
    ``Arest-Sequence``."""
    responses = orders["components"]["responses"]
    for path, method, operation in operations(orders):
        minimum = [parameter for parameter in operation["parameters"]
                   if parameter["name"] == "Arest-Min-Sequence"]
        assert [(p["in"], p["required"], p["schema"]["type"]) for p in minimum] == [
            ("header", False, "string")], (method, path)
        answers = operation["responses"]
        success = next(status for status in answers if status.startswith("2"))
        for status in (success, "304"):
            if status in answers:
                header = answers[status]["headers"]["Arest-Sequence"]
                assert header["required"] is True and header["schema"]["type"] == "string"
        assert answers["409"] == {"$ref": "#/components/responses/Problem409"}, (method, path)
        assert not any(status.startswith("5") and status not in ("502", "504")
                       for status in answers), (method, path)
    assert responses["Problem409"]["headers"]["Retry-After"]["required"] is False
    assert "not_yet" in responses["Problem409"]["description"]
    assert responses["Problem404"]["headers"]["Arest-Sequence"]["required"] is False
    assert "Arest-Sequence" not in responses["Problem401"].get("headers", {})


def test_the_entry_point_names_its_sequence_and_digest(orders: dict[str, Any]) -> None:
    entry = orders["components"]["schemas"]["Entry"]
    assert entry["required"] == ["sequence", "digest", "_links"]
    assert entry["properties"]["sequence"]["type"] == "integer"


def test_a_bearer_scheme_applies_to_every_operation(orders: dict[str, Any]) -> None:
    assert orders["components"]["securitySchemes"]["bearer"] == {
        **orders["components"]["securitySchemes"]["bearer"], "type": "http",
        "scheme": "bearer"}
    assert orders["security"] == [{"bearer": []}]


def test_a_representation_of_the_python_api_matches_its_schema(orders: dict[str, Any]
                                                                ) -> None:
    import jsonschema

    D = arest.load(OWN_READINGS / "orders")
    _, D = arest.apply(D, "create:Customer", {"id": "ann@x.com", "Name": "Ann"})
    out, D = arest.apply(D, "create:Order", {"id": "o1", "Customer": "ann@x.com",
                                             "Priority": "rush"})
    answer = orders["paths"]["/orders"]["post"]["responses"]["201"]["content"][
        "application/json"]["schema"]
    schema = {**answer, "components": orders["components"]}
    jsonschema.validate(out, _local(schema))
    read, _ = arest.apply(D, "read:Order", {"id": "o1"})
    jsonschema.validate(read, _local({"$ref": "#/components/schemas/Order",
                                      "components": orders["components"]}))
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate({**read, "Priority": "whenever"},
                            _local({"$ref": "#/components/schemas/Order",
                                    "components": orders["components"]}))


def _local(schema: dict[str, Any]) -> dict[str, Any]:
    """An OpenAPI fragment as a JSON Schema whose ``#/components/…`` refs resolve."""
    return {"$schema": "https://json-schema.org/draft/2020-12/schema", **schema}


def test_the_document_follows_a_compiled_reading() -> None:
    D = arest.load(OWN_READINGS / "orders")
    before = document(D)
    out, D = arest.apply(D, "compile", {"readings": "Customer has Nickname."})
    assert out["rejected"] is False
    after = document(D)
    assert "Nickname" not in before["components"]["schemas"]["Customer"]["properties"]
    assert "Nickname" in after["components"]["schemas"]["Customer"]["properties"]
    assert "/facts/Customer_has_Nickname" in after["paths"]
    validate(after)


def test_a_command_that_leaves_the_schema_gives_the_same_document() -> None:
    D = arest.load(OWN_READINGS / "orders")
    _, changed = arest.apply(D, "create:Customer", {"id": "ann@x.com", "Name": "Ann"})
    assert document(changed) is document(D)


def test_arest_openapi_prints_the_document_of_the_tenant_kept(tmp_path: Path) -> None:
    database = tmp_path / "shop.db"
    runner = CliRunner()
    folder = str(OWN_READINGS / "orders")
    printed = runner.invoke(main, ["openapi", folder, "--db", str(database)])
    assert printed.exit_code == 0, printed.output
    assert json.loads(printed.output) == json.loads(json.dumps(
        document(arest.load(OWN_READINGS / "orders"))))
    compiled = runner.invoke(main, ["apply", "compile", '{"readings": "Customer has Nickname."}',
                                    "--readings", folder, "--db", str(database)])
    assert compiled.exit_code == 0, compiled.output
    evolved = json.loads(runner.invoke(main, ["openapi", folder, "--db", str(database)]).output)
    assert "/facts/Customer_has_Nickname" in evolved["paths"]
