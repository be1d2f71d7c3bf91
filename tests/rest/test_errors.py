"""What REST answers when a request cannot be served (DESIGN §5, §9): an RFC 9457 problem
document with the error's stable ``code`` at the status the contract gives it, never a 5xx;
ids are keys, so no encoding of ``..`` or ``/`` reaches another resource; Host and Origin are
checked; CORS is off unless origins are named."""

from __future__ import annotations

import json
from collections.abc import Iterator

import httpx
import pytest

from tests.rest.calls import URSULA, created, problem, purchase, raw, served

pytestmark = pytest.mark.xdist_group("rest-errors")

MiB = 1 << 20
ORIGIN = "https://app.example"


def allowed(answer: httpx.Response) -> set[str]:
    return {method.strip() for method in answer.headers["allow"].split(",")}


def test_a_rejection_is_422_with_the_violated_readings_verbatim(rest: httpx.Client) -> None:
    body = problem(rest.post("/books", json={"id": "err-rej", "Format": "ebook"}), 422,
                   "rejected")
    assert {violation["reading"] for violation in body["violations"]} == {
        "Each Book has exactly one Title.", "Each Book is written by exactly one Author."}
    assert {violation["modality"] for violation in body["violations"]} == {"alethic"}


def test_a_deontic_violation_is_a_success_that_lists_it(rest: httpx.Client) -> None:
    answer = rest.post("/purchases", json={"id": "err-deontic", "Customer": "ann@example.com",
                                           "Book": "a/b", "Quantity": "12"})
    entity = created(answer)
    [violation] = answer.json()["violations"]
    assert entity["Quantity"] == "12"
    assert (violation["modality"], violation["reading"]) == (
        "deontic", "It is forbidden that a Purchase has Quantity greater than 10.")


def test_unknown_nouns_entities_and_paths_are_404(rest: httpx.Client) -> None:
    problem(rest.get("/books/no-such-book"), 404, "unknown_entity")
    problem(rest.patch("/books/no-such-book", json={"Format": "ebook"}), 404, "unknown_entity")
    problem(rest.delete("/books/no-such-book"), 404, "unknown_entity")
    for path in ("/facts", "/books/a%2Fb/customers/ann", "/snapshots/x/y/z", "/schema/a/b"):
        problem(rest.get(path), 404, "unknown_path")
    for answer in (rest.get("/volumes"), rest.post("/volumes", json={"id": "v"}),
                   rest.get("/volumes/v")):
        assert answer.status_code == 404
        assert answer.json()["code"] in ("unknown_noun", "unknown_path")


def test_a_method_the_path_lacks_is_405_with_allow(rest: httpx.Client) -> None:
    cases = {("PUT", "/books/a%2Fb"): {"GET", "PATCH", "DELETE"},
             ("DELETE", "/books"): {"GET", "POST"},
             ("POST", "/schema"): {"GET"},
             ("PATCH", "/openapi.json"): {"GET"},
             ("PUT", "/facts/Customer_likes_Book"): {"GET", "POST", "DELETE"}}
    for (method, path), methods in cases.items():
        answer = rest.request(method, path, json={})
        problem(answer, 405, "method_not_allowed")
        assert allowed(answer) == methods, (method, path)


def test_a_body_that_is_not_json_is_400(rest: httpx.Client) -> None:
    for text in (b"{", b"Title=Lavinia", b"\xff\xfe", b"{}{}", b"NaN"):
        problem(rest.post("/books", content=text, headers={"Content-Type": "application/json"}),
                400, "not_json")


def test_a_json_value_of_the_wrong_shape_is_400(rest: httpx.Client) -> None:
    for value in ([1, 2], "a book", 7, {"id": ["a", "b"], "Title": "T", "Author": URSULA}):
        problem(rest.post("/books", json=value), 400, "invalid_input")


def test_a_body_on_a_route_without_one_is_400(rest: httpx.Client) -> None:
    created(rest.post("/genres", json={"id": "err-body"}))
    problem(rest.request("DELETE", "/genres/err-body", json={"id": "sf"}), 400,
            "invalid_input")
    assert rest.get("/genres/err-body").status_code == 200
    assert rest.get("/genres/sf").status_code == 200


def test_a_body_that_is_not_declared_json_is_415(rest: httpx.Client) -> None:
    for media in ("text/plain", "application/x-www-form-urlencoded", "application/xml"):
        problem(rest.post("/genres", content=json.dumps({"id": "err-415"}),
                          headers={"Content-Type": media}), 415, "unsupported_media_type")
    problem(rest.get("/genres/err-415"), 404, "unknown_entity")
    with_charset = rest.post("/genres", content=json.dumps({"id": "err-415"}),
                             headers={"Content-Type": "application/json; charset=utf-8"})
    created(with_charset)


def test_a_body_over_a_mebibyte_is_413(rest: httpx.Client) -> None:
    text = json.dumps({"id": "err-413", "Title": "x" * MiB, "Author": URSULA})
    problem(rest.post("/books", content=text, headers={"Content-Type": "application/json"}),
            413, "body_too_large")
    problem(rest.get("/books/err-413"), 404, "unknown_entity")


def test_a_streamed_body_over_a_mebibyte_is_413(rest: httpx.Client) -> None:
    def chunks() -> Iterator[bytes]:
        yield b'{"id": "err-413-stream", "Title": "'
        for _ in range(9):
            yield b"x" * (MiB // 8)
        yield b'"}'

    problem(rest.post("/books", content=chunks(), headers={"Content-Type": "application/json"}),
            413, "body_too_large")


def test_a_body_nested_deeper_than_64_is_400(rest: httpx.Client) -> None:
    for depth in (65, 100, 100_000):
        text = '{"id": "err-deep", "Title": ' + "[" * depth + "]" * depth + "}"
        answer = rest.post("/books", content=text, headers={"Content-Type": "application/json"})
        problem(answer, 400, "invalid_input")


def test_an_unknown_query_parameter_on_a_route_without_any_is_400(rest: httpx.Client) -> None:
    for path in ("/books/a%2Fb", "/schema/Book", "/openapi.json", "/fetch/Book%3Aa%2Fb"):
        problem(rest.get(path, params={"colour": "red"}), 400, "unknown_parameter")


def test_nothing_odd_in_a_create_body_is_a_server_error(rest: httpx.Client) -> None:
    odd: list[object] = [
        {"id": None}, {"id": 5}, {"id": ""}, {"Title": {"nested": True}}, {"Title": [None]},
        {"id": "x\u0000y", "Title": "T", "Author": URSULA}, {"LineItem": []},
        {"status": "Shipped"}, {"_links": {}}, {"id": "😀" * 500, "Title": "T", "Author": URSULA},
        {"Author": {"id": "nested author"}, "Title": "T", "id": "err-nested"}]
    for body in odd:
        for path in ("/books", "/purchases", "/genres"):
            answer = rest.post(path, json=body)
            assert answer.status_code < 500, (path, body, answer.text)
            if answer.status_code >= 400:
                assert answer.json()["code"], answer.text


def test_an_encoded_slash_stays_inside_the_id(rest: httpx.Client) -> None:
    status, _, body = raw(rest, "GET", "/books/a%2Fb")
    assert (status, body["id"]) == (200, "a/b")
    status, _, body = raw(rest, "GET", "/books/a%2fb")
    assert (status, body["id"]) == (200, "a/b")
    status, _, body = raw(rest, "GET", "/books/a/b")
    assert status == 404, body
    status, _, body = raw(rest, "GET", "/books/a%252Fb")
    assert (status, body["code"]) == (404, "unknown_entity")


def test_dot_segments_are_ids_and_reach_no_other_resource(rest: httpx.Client) -> None:
    for target in ("/books/%2e%2e", "/books/%2E%2E", "/books/..", "/books/%2e%2e%2Fauthors"):
        status, _, body = raw(rest, "GET", target)
        assert (status, body["code"]) == (404, "unknown_entity"), (target, body)
    for target in ("/books/../authors", "/books/%2e%2e/authors", "/books/a%2Fb/../../authors",
                   "/%2e%2e/books", "/books/./a%2Fb"):
        status, _, body = raw(rest, "GET", target)
        assert status == 404, (target, status, body)
        assert "items" not in body and body.get("id") != "a/b", (target, body)


def test_an_id_named_dot_dot_is_reached_encoded(rest: httpx.Client) -> None:
    created(rest.post("/genres", json={"id": "..", "parent Genre": "dots"}))
    for target in ("/genres/%2e%2e", "/genres/%2E%2E"):
        status, _, body = raw(rest, "GET", target)
        assert (status, body["id"], body["noun"]) == (200, "..", "Genre"), target


def test_a_host_the_server_does_not_serve_is_421(rest: httpx.Client) -> None:
    for host in ("evil.example", "evil.example:80", "127.0.0.1.evil.example"):
        problem(rest.get("/books", headers={"Host": host}), 421, "misdirected_request")


def test_an_origin_the_server_does_not_allow_is_403(rest: httpx.Client) -> None:
    answer = rest.post("/genres", json={"id": "err-origin"},
                       headers={"Origin": "https://evil.example"})
    problem(answer, 403, "forbidden_origin")
    problem(rest.get("/genres/err-origin"), 404, "unknown_entity")


def test_cors_is_off_by_default(rest: httpx.Client) -> None:
    own = str(rest.base_url).rstrip("/")
    same = rest.get("/books", headers={"Origin": own})
    preflight = rest.options("/books", headers={"Origin": ORIGIN,
                                                "Access-Control-Request-Method": "POST"})
    assert same.status_code == 200
    assert "access-control-allow-origin" not in same.headers
    assert "access-control-allow-origin" not in preflight.headers
    assert preflight.status_code != 204


@pytest.fixture(scope="module")
def cors(tmp_path_factory: pytest.TempPathFactory) -> Iterator[httpx.Client]:
    with served(tmp_path_factory, "--cors-origin", ORIGIN,
                "--cors-origin", "http://localhost:3000") as client:
        yield client


def test_cors_answers_the_origins_named(cors: httpx.Client) -> None:
    got = cors.get("/books", headers={"Origin": ORIGIN})
    preflight = cors.options("/books", headers={
        "Origin": ORIGIN, "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "content-type, authorization"})
    other = cors.get("/books", headers={"Origin": "https://evil.example"})
    assert got.status_code == 200
    assert got.headers["access-control-allow-origin"] == ORIGIN
    assert preflight.status_code == 204
    assert preflight.headers["access-control-allow-origin"] == ORIGIN
    assert "POST" in preflight.headers["access-control-allow-methods"]
    problem(other, 403, "forbidden_origin")
    assert "access-control-allow-origin" not in other.headers


def test_a_cors_origin_may_write(cors: httpx.Client) -> None:
    answer = cors.post("/genres", json={"id": "from-app"}, headers={"Origin": ORIGIN})
    assert created(answer)["id"] == "from-app"
    assert answer.headers["access-control-allow-origin"] == ORIGIN


def test_no_purchase_route_answers_5xx_to_a_bad_transition_body(rest: httpx.Client) -> None:
    purchase(rest, "err-tr")
    for body in ({"event": None}, {"event": ["pay"]}, {"event": "pay", "id": "other"}, [],
                 {"event": "pay", "extra": 1}):
        answer = rest.post("/purchases/err-tr/transition", json=body)
        assert 400 <= answer.status_code < 500, (body, answer.text)
    assert rest.get("/purchases/err-tr").json()["status"] == "Placed"
