"""A command's budget: how long it may run, and whether its caller still wants the answer.

SYSTEM is pure code on a worker thread, and nothing below the runtime reads a clock, so a
command is stopped cooperatively: the runtime gives SYSTEM a view of D that checks the
budget at every read of a cell (:mod:`arest.runtime.footprint`), and checks it once more
before it commits.  A command found past its budget, or cancelled by its caller (a client
that went away), ends with the error ``limit_exceeded``, and D is exactly as it was:

    spent(budget) at a read or before the commit  ⇒  ⟨limit_exceeded, D⟩

The budget is an argument of :meth:`Tenant.run <arest.runtime.Tenant.run>`, never
ambient.  Work between two reads of a cell is not interrupted: a command stops at its
next read (a scan of one relation reads it once; the reader's limits bound compiling).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any

from arest.errors import ArestError, envelope


class BudgetSpent(ArestError):
    """Raised at a read of D by a command whose budget is spent; the runtime answers it
    with :attr:`envelope` and keeps D as it was."""

    def __init__(self, envelope: dict[str, Any]) -> None:
        super().__init__(envelope["error"]["message"])
        self.envelope = envelope


class Budget:
    """``seconds`` from its making on ``clock`` (None: no time limit), and a flag the
    caller sets with :meth:`cancel` when it no longer wants the answer.  Thread-safe: the
    caller cancels from its thread, the command checks from its own.

    >>> clock = iter([0.0, 0.5, 2.5]).__next__
    >>> budget = Budget(2.0, clock)
    >>> budget.spent() is None
    True
    >>> budget.spent()["error"]["budget_seconds"]
    2.0
    >>> left = Budget(None)
    >>> left.cancel()
    >>> left.spent()["error"]["reason"]
    'cancelled'
    """

    __slots__ = ("_cancelled", "_clock", "_deadline", "seconds")

    def __init__(self, seconds: float | None,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.seconds = seconds
        self._clock = clock
        self._deadline = None if seconds is None else clock() + seconds
        self._cancelled = threading.Event()

    def cancel(self) -> None:
        """The caller no longer wants the answer: the command stops at its next check."""
        self._cancelled.set()

    def spent(self) -> dict[str, Any] | None:
        """The ``limit_exceeded`` envelope when the budget is spent, else None."""
        if self._cancelled.is_set():
            return envelope(
                "limit_exceeded", "the command was stopped: its caller no longer waits for"
                " the answer (a client that went away); nothing changed",
                reason="cancelled", budget_seconds=self.seconds)
        if self._deadline is not None and self._clock() > self._deadline:
            return envelope(
                "limit_exceeded", f"the command ran past its budget of {self.seconds:g}"
                " seconds and was stopped; nothing changed: ask for less (a filter, one"
                " entity), or run it where the budget is larger",
                reason="time", budget_seconds=self.seconds)
        return None

    def check(self) -> None:
        """Raise :class:`BudgetSpent` when the budget is spent."""
        spent = self.spent()
        if spent is not None:
            raise BudgetSpent(spent)
