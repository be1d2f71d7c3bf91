"""A checkpoint is due ``CHECKPOINT_EVERY`` entries after the last one, or one entry per
``CHECKPOINT_SHARE`` facts if more, never on a storage that dies with the process: the entry
it is due at, kept from one checkpoint to the next, is that rule."""

from __future__ import annotations

import pytest

from arest.algebra import EMPTY_STATE, State, store
from arest.algebra.relations import Relation
from arest.runtime.checkpoints import CHECKPOINT_EVERY, CHECKPOINT_SHARE, Checkpoints
from arest.runtime.storage import MemoryStorage, Pending


class Durable(MemoryStorage):
    """A memory journal that says it outlives the process, keeping no checkpoint."""

    durable = True


def state_of(facts: int) -> State:
    return store(EMPTY_STATE, "R", Relation.of(1, [(str(n),) for n in range(facts)]))


@pytest.mark.parametrize("facts", [0, 10, CHECKPOINT_EVERY * CHECKPOINT_SHARE + 123])
@pytest.mark.parametrize("durable", [True, False])
def test_a_checkpoint_is_due_by_the_rule(facts: int, durable: bool) -> None:
    storage = Durable() if durable else MemoryStorage()
    state = state_of(facts)
    checkpoints = Checkpoints(storage, "key", EMPTY_STATE, 40, state)
    interval = max(CHECKPOINT_EVERY, facts // CHECKPOINT_SHARE)
    for sequence in (40, 41, 40 + interval - 1, 40 + interval, 40 + interval + 7):
        assert checkpoints.due(sequence) == (durable and sequence - 40 >= interval)
    storage.append([Pending(1, "snapshot", "{}", "{}", "v1:0", "{}")])
    grown = state_of(facts + 20_000)
    checkpoints.keep((grown, 900, 0), wait=True)  # the rule again, from the new one
    interval = max(CHECKPOINT_EVERY, (facts + 20_000) // CHECKPOINT_SHARE)
    for sequence in (900, 900 + interval - 1, 900 + interval):
        assert checkpoints.due(sequence) == (durable and sequence - 900 >= interval)
