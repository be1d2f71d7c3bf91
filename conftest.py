"""Doctests read and show objects in Backus notation: give every docstring the notation,
and the two small domains the verbs' doctests run on."""

from typing import Any

import pytest

from arest.algebra import apply, evaluate, read, show

TASKS = ("Task(.id) is an entity type.\n"
         "State Machine Definition 'Task' is for Noun 'Task'.\n"
         "Status 'Open' is initial in State Machine Definition 'Task'.\n"
         "Status 'Done' is defined in State Machine Definition 'Task'.\n"
         "Transition 'finish' is defined in State Machine Definition 'Task'.\n"
         "Transition 'finish' is from Status 'Open'.\n"
         "Transition 'finish' is to Status 'Done'.")
"""A Task's machine: Open, and the event finish to Done."""

ORDERS = ("Order(.id) is an entity type.\nCustomer(.id) is an entity type.\n"
          "Order was placed by Customer.\n"
          "Each Order was placed by at most one Customer.")
"""Orders placed by at most one Customer each."""


@pytest.fixture(autouse=True)
def _notation_in_doctests(doctest_namespace: dict[str, Any]) -> None:
    doctest_namespace.update(read=read, show=show, apply=apply, evaluate=evaluate,
                             TASKS=TASKS, ORDERS=ORDERS)
