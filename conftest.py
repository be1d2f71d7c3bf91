"""Doctests read and show objects in Backus notation: give every docstring the notation."""

from typing import Any

import pytest

from arest.algebra import apply, evaluate, read, show


@pytest.fixture(autouse=True)
def _notation_in_doctests(doctest_namespace: dict[str, Any]) -> None:
    doctest_namespace.update(read=read, show=show, apply=apply, evaluate=evaluate)
