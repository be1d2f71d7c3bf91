"""A kept base's digest sealed beside its text: trusted for exactly that text, recomputed
for any other, so a reopen starts from the digest a recompute would give (and a cell changed
on disk is still caught by the journal's digests)."""

import sqlite3
from contextlib import closing
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import arest
from arest.algebra import EMPTY_STATE, State, store
from arest.algebra.relations import Relation
from arest.runtime import StorageError
from arest.runtime.codec import decode, encode
from arest.runtime.digest import state_digest, text
from arest.runtime.recovery import recover
from arest.runtime.sealed import SEAL, sealed, unsealed
from arest.runtime.storage import MemoryStorage

ROOT = Path(__file__).resolve().parents[2]
ORDERS = ROOT / "readings" / "orders"

values = st.text("abc0é", min_size=1, max_size=3)
relations = st.integers(1, 2).flatmap(lambda arity: st.lists(st.tuples(
    st.tuples(*[values] * arity),
    st.sampled_from([None, ("rule", "a")])), max_size=4).map(lambda facts: _relation(arity, facts)))


def _relation(arity: int, facts: list[tuple[tuple[str, ...], tuple[str, str] | None]]
              ) -> Relation:
    made = Relation(arity)
    for fact, support in facts:
        made = made.add(fact) if support is None else made.add(fact, support)
    return made


@st.composite
def states(draw: st.DrawFn) -> State:
    state = EMPTY_STATE
    for name in draw(st.lists(st.sampled_from(["R", "S", "asserted:R"]), unique=True)):
        state = store(state, name, draw(relations))
    return store(state, "machines", ("Order",))


def _recovered_digest(kept: str) -> int:
    storage = MemoryStorage()
    storage.keep_base("key", kept)
    return recover(storage, ":memory:", "key", ()).digest


@settings(max_examples=40, deadline=None)
@given(states(), st.integers(0, 10**6), st.sampled_from(list('0a1b"éx')))
def test_a_reopen_starts_from_the_digest_a_recompute_gives(
    state: State, at: int, replacement: str,
) -> None:
    kept = sealed(encode(state), text(state_digest(state)))
    assert unsealed(kept) == (encode(state), text(state_digest(state)))
    assert _recovered_digest(kept) == state_digest(state)
    at %= len(kept)
    damaged = kept[:at] + replacement + kept[at + 1:]
    try:
        held = decode(damaged)
    except (ValueError, KeyError, TypeError):
        return  # not a state: compiled again, as before
    assert _recovered_digest(damaged) == state_digest(held)
    assert unsealed(damaged)[1] is None or damaged == kept


def _base(db: Path) -> str:
    with closing(sqlite3.connect(db)) as connection:
        (kept,) = connection.execute("SELECT state FROM base").fetchone()
    assert isinstance(kept, str)
    return kept


def _kept_base(db: Path, kept: str) -> None:
    with closing(sqlite3.connect(db)) as connection:
        connection.execute("UPDATE base SET state = ?", (kept,))
        connection.commit()


def _written(db: Path) -> Path:
    with arest.Tenant.open(ORDERS, db=db) as tenant:
        for n in range(3):
            tenant.call("create:Customer", {"id": f"c{n}@x", "Name": f"C{n}"})
    return db


def test_a_kept_base_with_a_cell_changed_under_its_seal_is_refused(tmp_path: Path) -> None:
    db = _written(tmp_path / "shop.db")
    kept = _base(db)
    assert kept.startswith(SEAL) and unsealed(kept)[1] is not None
    empty = '"Customer_has_Unpaid_Order_Count":{"r":2,"f":[]}'
    assert empty in kept
    _kept_base(db, kept.replace(empty, empty.replace("[]", '[["z@x","7"]]')))
    with pytest.raises(StorageError, match="replays to other asserted facts"):
        arest.Tenant.open(ORDERS, db=db)


def test_a_kept_base_with_a_broken_seal_or_none_opens_with_its_digest_recomputed(
    tmp_path: Path,
) -> None:
    kept = _base(_written(tmp_path / "shop.db"))
    encoded, digest = unsealed(kept)
    assert digest is not None
    broken = sealed(encoded, "v1:" + "0" * 64).replace("v1:" + "0" * 64, digest, 1)
    assert unsealed(broken) == (encoded, None)
    for n, damaged in enumerate((broken, encoded)):
        db = _written(tmp_path / f"{n}.db")
        with arest.Tenant.open(ORDERS, db=db) as tenant:
            state = tenant.state
        _kept_base(db, damaged)
        with arest.Tenant.open(ORDERS, db=db) as tenant:
            assert tenant.state == state
            out = tenant.call("create:Customer", {"id": "c9@x", "Name": "C9"})
            assert not out.get("rejected") and "error" not in out
        with arest.Tenant.open(ORDERS, db=db) as tenant:
            assert len(tenant.state["Customer_has_Name"]) == 4
