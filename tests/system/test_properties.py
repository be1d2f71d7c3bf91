"""Properties of SYSTEM over random command sequences on generated schemas: every accepted
state satisfies every alethic constraint; a rejected command leaves D as it was; apply never
raises; incremental validation finds exactly what full validation finds."""

from hypothesis import given, settings
from hypothesis import strategies as st

import arest
from arest.compiler.change import Change
from arest.system.validate import alethic, all_violations, violations
from arest.testing import BINDINGS, commands, schemas

COMPILED: dict[str, object] = {}


def compiled(readings: str) -> object:
    if readings not in COMPILED:
        COMPILED[readings] = arest.compile(readings)
    return COMPILED[readings]


def _key(violation: dict[str, object]) -> tuple[str, str]:
    return violation["constraint_id"], repr(violation["detail"])  # type: ignore[return-value]


@settings(max_examples=60)
@given(schemas(), st.lists(commands(), min_size=1, max_size=12))
def test_accepted_states_satisfy_every_alethic_constraint(readings, sequence) -> None:  # type: ignore[no-untyped-def]
    D = compiled(readings)
    for key, request in sequence:
        out, after = arest.apply(D, key, request)  # type: ignore[arg-type]
        assert isinstance(out, dict)
        if "error" in out or out.get("rejected"):
            assert after is D
            continue
        assert alethic(all_violations(after)) == []
        D = after


edits = st.lists(
    st.tuples(st.booleans(), st.sampled_from(sorted(BINDINGS)), st.integers(0, 2),
              st.integers(0, 2)),
    min_size=1, max_size=8,
)


@settings(max_examples=80)
@given(schemas(), st.lists(commands(), max_size=6), edits)
def test_incremental_validation_is_full_validation(readings, sequence, changes) -> None:  # type: ignore[no-untyped-def]
    """Whatever a change adds and removes, the violations it wakes are exactly the ones full
    validation finds that were not there before, plus old ones among the keys it touched."""
    D = compiled(readings)
    for key, request in sequence:
        D = arest.apply(D, key, request)[1]  # type: ignore[arg-type]
    before = {_key(v) for v in all_violations(D)}  # type: ignore[arg-type]
    change = Change(D)  # type: ignore[arg-type]
    for adding, fact_type, i, j in changes:
        left, right = BINDINGS[fact_type]
        fact = (left[i % len(left)], right[j % len(right)])
        (change.add if adding else change.remove)(fact_type, fact)
    reported = {_key(v) for v in violations(change.state, change.delta)}
    found = {_key(v) for v in all_violations(change.state)}
    assert reported <= found
    assert found - before <= reported
