"""A command's budget (arest.runtime.budget): wherever it runs out, or whenever its caller
cancels it, the command answers ``limit_exceeded`` and D is exactly as it was; a budget it
does not spend changes nothing of its answer."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from arest.runtime import Tenant
from arest.runtime.budget import Budget
from arest.system.commands import parse_key

READINGS = Path(__file__).parents[1] / "transports" / "readings" / "tasks.md"


@pytest.fixture
def tenant() -> Iterator[Tenant]:
    with Tenant.open(READINGS, clock=lambda: "2026-01-01T00:00:00Z") as opened:
        for number in range(3):
            opened.call("create:Task", {"id": f"t{number}", "Title": "T",
                                        "targets Milestone": "m1"})
        yield opened


def after_checks(allowed: int) -> Callable[[], float]:
    """A clock that passes a budget of one second after ``allowed`` checks of it."""
    times = iter([0.0] + [0.5] * allowed)
    return lambda: next(times, 2.0)


def test_a_cancelled_command_changes_nothing(tenant: Tenant) -> None:
    before, digest = tenant.state, tenant.digest
    budget = Budget(None)
    budget.cancel()
    out = tenant.run(parse_key("create:Task", {"id": "new", "Title": "N"}), budget=budget)
    assert out["error"]["code"] == "limit_exceeded"
    assert out["error"]["reason"] == "cancelled"
    assert tenant.state is before and tenant.digest == digest


@pytest.mark.parametrize("key, request_", [
    ("create:Task", {"id": "new", "Title": "N", "targets Milestone": "m1"}),
    ("update:Task", {"id": "t1", "Title": "U"}),
    ("transition:Task", {"id": "t2", "event": "finish"}),
    ("list:Task", {}),
])
def test_wherever_the_budget_runs_out_the_answer_is_whole_or_nothing(
        tenant: Tenant, key: str, request_: dict[str, str]) -> None:
    before, digest = tenant.state, tenant.digest
    command = parse_key(key, request_)
    with Tenant.open(READINGS, clock=lambda: "2026-01-01T00:00:00Z") as unbudgeted:
        for number in range(3):
            unbudgeted.call("create:Task", {"id": f"t{number}", "Title": "T",
                                            "targets Milestone": "m1"})
        expected = unbudgeted.run(command)
        expected_digest = unbudgeted.digest
    stopped = 0
    for allowed in range(200):
        out = tenant.run(command, budget=Budget(1.0, after_checks(allowed)))
        if out.get("error", {}).get("code") != "limit_exceeded":
            break
        stopped += 1
        assert out["error"]["reason"] == "time" and out["error"]["budget_seconds"] == 1.0
        assert tenant.state is before and tenant.digest == digest
    assert stopped > 1  # it was stopped at several reads before it finished
    assert out == expected
    assert tenant.digest == expected_digest
