"""A machine's statuses: the declared ones and every transition's endpoints; a target that
only looks like a declared status is a warning naming the status meant."""

from __future__ import annotations

from typing import Any

import arest

TASKS = """Task(.id) is an entity type.
State Machine Definition 'Task' is for Noun 'Task'.
Status 'Open' is initial in State Machine Definition 'Task'.
Status 'In Progress' is defined in State Machine Definition 'Task'.
Transition 'start' is defined in State Machine Definition 'Task'.
Transition 'start' is from Status 'Open'.
Transition 'start' is to Status 'In Progress'.
Transition 'finish' is defined in State Machine Definition 'Task'.
Transition 'finish' is from Status 'In Progress'.
Transition 'finish' is to Status 'Done'.
"""


def firing(D: Any, entity: str, event: str) -> tuple[dict[str, Any], Any]:
    return arest.apply(D, "transition:Task", {"id": entity, "event": event})
def test_a_status_named_only_by_a_transition_is_a_status_of_the_machine() -> None:
    D = arest.apply(arest.compile(TASKS), "create:Task", {"id": "t1"})[1]
    out, D = firing(D, "t1", "start")
    assert out["entity"]["status"] == "In Progress"
    out, D = firing(D, "t1", "finish")
    assert not out["rejected"] and out["entity"]["status"] == "Done"
    assert arest.apply(D, "actions", {"noun": "Task", "id": "t1"})[0]["actions"] == []
    assert not any("did you mean" in w for w in arest.warnings(D))


def test_a_target_close_to_a_declared_status_is_a_warning_naming_it() -> None:
    D = arest.compile(TASKS.replace("is to Status 'In Progress'", "is to Status 'InProgress'"))
    (warning,) = [w for w in arest.warnings(D) if "did you mean" in w]
    assert ":7:1:" in warning and "did you mean Status 'In Progress'?" in warning
    D = arest.apply(D, "create:Task", {"id": "t1"})[1]
    out, _ = firing(D, "t1", "start")
    assert out["entity"]["status"] == "InProgress"  # as written: a status of its own
    misspelt = TASKS.replace("is to Status 'Done'", "is to Status 'In Progres'")
    assert any("did you mean Status 'In Progress'" in w
               for w in arest.warnings(arest.compile(misspelt)))
