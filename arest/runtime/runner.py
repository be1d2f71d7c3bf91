"""Running one command for the tenant: SYSTEM on D, recording what it touched.

    run_recording(D, command, context) = ⟨o, D′, footprint⟩

How a command runs follows its effect in the command table (:mod:`arest.system.commands`):
a command that reads runs on D itself (nothing checks a reader's footprint); one that
changes the cells it touches runs on a recording view of D, whose footprint lets it commit
beside concurrent commands (:mod:`arest.runtime.footprint`); one that replaces the whole D
runs on D itself (a snapshot keeps the state it is given, so it must be given D, not a
view) and its footprint is every cell.  Given a budget (:mod:`arest.runtime.budget`), a
command that reads runs on a view of D too, so that every command but those replacing the
whole D checks it at each read.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any

from arest.algebra import State
from arest.runtime.budget import Budget
from arest.runtime.footprint import Footprint
from arest.system.apply import run
from arest.system.commands import VERBS, Command, Effect
from arest.system.context import Context

_ABSENT = object()


def run_recording(state: State, command: Command, context: Context,
                  budget: Budget | None = None
                  ) -> tuple[dict[str, Any], State, Footprint | None]:
    """SYSTEM on state, with the command's footprint; no footprint (every cell) for a
    command that reads or replaces the whole D, or that returned a state it did not make
    from the one it was given.  Were a reader to change D, it would commit as the whole-D
    commands do (only if nothing else had).  Raises
    :class:`~arest.runtime.budget.BudgetSpent` at a read past the budget."""
    if budget is not None:
        budget.check()
    effect = VERBS[command.verb].effect
    if effect is Effect.WHOLE or (effect is Effect.READS and budget is None):
        out, after = run(state, command, context)
        return out, after, None
    footprint = Footprint(budget)
    out, result = run(footprint.view(state), command, context)
    made = footprint.state_of(result)
    if effect is Effect.READS:
        return out, result if made is None else made, None
    return (out, result, None) if made is None else (out, made, footprint)


def changed_cells(before: State, after: State, footprint: Footprint | None
                  ) -> Collection[str]:
    """The cells that may differ: those written, or else every cell whose contents are not
    the same object (O(cells), for the commands that take all of D)."""
    if footprint is not None:
        return footprint.written
    names = [name for name, contents in after.items() if before.get(name, _ABSENT) is not contents]
    names.extend(name for name in before if name not in after)
    return names
