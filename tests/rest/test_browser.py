"""The pages in a real browser (headless chromium under selenium, tests/browser.py), against
a real ``arest serve`` with keys: a person opens ``/``, enters a key once, follows links to
an entity, creates one with a form, presses a transition button and sees the status change,
and sees a rejection's reading beside the form.  Screenshots of each step are kept in
``test-artifacts/browser/``."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.browser import driven, installed_browser
from tests.rest.calls import API_KEY, URSULA, bearer

pytestmark = [pytest.mark.slow, pytest.mark.browser, pytest.mark.xdist_group("rest-browser")]

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts" / "browser"
WAIT = 30  # seconds: at most this long for a page to change, never asserted


@pytest.fixture(scope="module")
def driver() -> Iterator[Any]:
    with driven(installed_browser()) as opened:
        yield opened


class Person:
    """What a person does in the browser, and sees."""

    def __init__(self, driver: Any, base: str) -> None:
        from selenium.common.exceptions import StaleElementReferenceException
        from selenium.webdriver.common.by import By
        from selenium.webdriver.support.ui import Select, WebDriverWait

        self.driver, self.base, self.by, self.select = driver, base.rstrip("/"), By, Select
        # The script swaps a page in whole: an element found on the page before is then gone.
        self.wait = WebDriverWait(driver, WAIT,
                                  ignored_exceptions=[StaleElementReferenceException])

    def open(self, path: str) -> None:
        self.driver.get(self.base + path)

    def find(self, css: str) -> Any:
        return self.wait.until(lambda d: d.find_element(self.by.CSS_SELECTOR, css))

    def all(self, css: str) -> list[Any]:
        return list(self.driver.find_elements(self.by.CSS_SELECTOR, css))

    def page_is(self, path: str) -> None:
        """Waits until the tab shows ``path``: the page rendered for it, with the key."""
        self.wait.until(lambda d: d.execute_script(
            "return location.pathname === arguments[0]"
            " && document.body.dataset.path === arguments[0]"
            " && document.body.dataset.status !== '401'", path))

    def shot(self, name: str) -> None:
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        self.driver.save_screenshot(str(ARTIFACTS / f"{name}.png"))

    def enter_key(self, shots: bool = False) -> None:
        """Opens ``/`` in a tab that holds no key yet, and enters the key there once."""
        self.open("/")
        self.driver.execute_script("sessionStorage.clear()")
        self.driver.refresh()
        assert self.find("body").get_attribute("data-status") == "401"
        if shots:
            self.shot("01-asked-for-a-key")
        self.fill(self.find("#key-form"), key=API_KEY)
        self.find("#key-form button[type=submit]").click()
        self.wait.until(lambda d: d.find_element(self.by.CSS_SELECTOR, "body")
                        .get_attribute("data-status") == "200")

    def fill(self, form: Any, **values: str) -> None:
        for name, value in values.items():
            field = form.find_element(self.by.NAME, name)
            if field.tag_name == "select":
                self.select(field).select_by_value(value)
            else:
                field.clear()
                field.send_keys(value)


@pytest.fixture(scope="module")
def person(driver: Any, keyed: httpx.Client) -> Person:
    return Person(driver, str(keyed.base_url))


@pytest.fixture()
def keyed_person(person: Person) -> Person:
    """The person, having entered the key in this tab (each test does: any may run first)."""
    person.enter_key()
    return person


def test_a_person_walks_from_the_entry_point_to_an_entity(person: Person) -> None:
    person.enter_key(shots=True)
    person.shot("02-entry-point")
    person.find("a[href='/books']").click()
    person.page_is("/books")
    person.find("table.items a[href='/books/a%2Fb']").click()
    person.page_is("/books/a%2Fb")
    assert person.find("h1 .id").text == "a/b"
    person.find("a[data-rel=author]").click()
    person.page_is("/authors/Ursula%20K.%20Le%20Guin")
    person.shot("03-an-author")
    # The key was entered once: a reload (which sends none) shows the page again with it.
    person.driver.refresh()
    person.wait.until(lambda d: d.find_element(person.by.CSS_SELECTOR, "h1 .id")
                      .text == URSULA)


def test_a_person_creates_an_entity_with_the_form(keyed_person: Person) -> None:
    person = keyed_person
    person.open("/books")  # the key is kept for the tab: the page fetches itself with it
    person.page_is("/books")
    form = person.find("form.create")
    options = [o.get_attribute("value") for o in
               form.find_elements(person.by.CSS_SELECTOR, "select[name=Format] option")]
    assert options == ["", "ebook", "hardcover", "paperback"]
    person.fill(form, id="b-browser", Title="The Word for World Is Forest", Author=URSULA,
                Format="paperback")
    person.shot("04-create-form")
    form.find_element(person.by.CSS_SELECTOR, "button[type=submit]").click()
    person.page_is("/books/b-browser")
    assert "The Word for World Is Forest" in person.find("main dl").text
    assert person.find("select[name=Format] option[selected]").get_attribute(
        "value") == "paperback"
    person.shot("05-created")


def test_the_update_form_sends_what_changed(keyed_person: Person, keyed: httpx.Client
                                           ) -> None:
    person = keyed_person
    made = keyed.post("/books", headers=bearer(API_KEY), json={
        "id": "b-update", "Title": "The Word for World Is Forest", "Author": URSULA,
        "Format": "paperback"})
    assert made.status_code == 201, made.text
    person.open("/books/b-update")
    person.page_is("/books/b-update")
    form = person.find("form.update")
    person.fill(form, Format="hardcover", Genre="")
    form.find_element(person.by.CSS_SELECTOR, "button[type=submit]").click()
    person.wait.until(lambda d: d.find_element(
        person.by.CSS_SELECTOR, "select[name=Format] option[selected]")
        .get_attribute("value") == "hardcover")
    person.shot("06-updated")
    read = keyed.get("/books/b-update", headers=bearer(API_KEY)).json()
    assert (read["Format"], read["Title"]) == ("hardcover", "The Word for World Is Forest")


def test_a_transition_button_changes_the_status(keyed_person: Person) -> None:
    person = keyed_person
    person.open("/purchases")
    person.page_is("/purchases")
    person.fill(person.find("form.create"), id="p-browser", Customer="ann@example.com",
                Book="a/b")
    person.find("form.create button[type=submit]").click()
    person.page_is("/purchases/p-browser")
    assert person.find("#status").text == "Placed"
    assert {b.get_attribute("data-event") for b in person.all("button[data-event]")} == {
        "pay", "cancel"}
    person.shot("07-placed")
    person.find("button[data-event=pay]").click()
    person.wait.until(lambda d: d.find_element(person.by.ID, "status").text == "Paid")
    assert {b.get_attribute("data-event") for b in person.all("button[data-event]")} == {
        "ship"}
    person.shot("08-paid")


def test_a_rejection_shows_the_violated_reading_beside_the_form(keyed_person: Person
                                                                ) -> None:
    person = keyed_person
    person.open("/books")
    person.page_is("/books")
    form = person.find("form.create")
    person.fill(form, id="b-untitled", Author=URSULA)
    form.find_element(person.by.CSS_SELECTOR, "button[type=submit]").click()
    reading = person.find("form.create .problem .violation")
    assert reading.text == "Each Book has exactly one Title."
    person.shot("09-rejected")
    assert person.driver.execute_script("return location.pathname") == "/books"
