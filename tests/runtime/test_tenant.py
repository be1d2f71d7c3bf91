"""Tenant: durable commands, replay on open, one process per database, clear errors."""

import sqlite3
import subprocess
import sys
from collections.abc import Callable
from contextlib import closing
from pathlib import Path

import pytest

import arest
from arest import api
from arest.runtime import ReplayError, StorageError, TenantLocked
from tests.postgres import Database

ROOT = Path(__file__).resolve().parents[2]
ORDERS = ROOT / "readings" / "orders"


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def db(request: pytest.FixtureRequest, tmp_path: Path) -> str | Path:
    """A new tenant's database: a SQLite file, or a schema of a fresh PostgreSQL database."""
    if request.param == "sqlite":
        return tmp_path / "shop.db"
    database: Database = request.getfixturevalue("pg_database")
    return f"{database.url}&tenant=shop"


def ticking() -> Callable[[], str]:
    times = iter(f"2025-01-01T00:00:{n:02d}Z" for n in range(60))
    return lambda: next(times)


def test_accepted_commands_survive_a_reopen(
    tmp_path: Path, db: str | Path
) -> None:
    with arest.Tenant.open(ORDERS, db=db, clock=ticking()) as tenant:
        assert not tenant.call("create:Customer", {"id": "ann@x", "Name": "Ann"})["rejected"]
        assert tenant.call("create:Order", {"id": "o-1"})["rejected"]  # no Customer
        assert tenant.call("snapshot", {"label": "first"}) == {"id": "first"}
        tenant.call("update:Customer", {"id": "ann@x", "Name": "Annie"})
        before = tenant.state
    with arest.Tenant.open(ORDERS, db=db) as again:
        assert arest.apply(again.state, "read:Customer", "ann@x")[0]["Name"] == "Annie"
        assert arest.apply(again.state, "list:Order")[0]["total"] == 0
        snapshots = arest.apply(again.state, "snapshots")[0]["snapshots"]
        assert snapshots == [{"id": "first", "taken_at": "2025-01-01T00:00:02Z"}]
        assert arest.apply(again.state, "read:Customer", "ann@x")[0] == arest.apply(
            before, "read:Customer", "ann@x")[0]


def test_readings_compiled_at_run_time_come_back(
    tmp_path: Path, db: str | Path
) -> None:
    with arest.Tenant.open(ORDERS, db=db) as tenant:
        assert not tenant.call("compile", {"readings": "Customer has Phone.\n"})["rejected"]
        tenant.call("create:Customer", {"id": "bo@x", "Name": "Bo", "Phone": "123"})
    with arest.Tenant.open(ORDERS, db=db) as again:
        assert arest.apply(again.state, "read:Customer", "bo@x")[0]["Phone"] == ["123"]


def test_commands_carry_time_and_source(tmp_path: Path) -> None:
    with arest.Tenant.open(ORDERS, clock=ticking()) as tenant:
        tenant.call("snapshot", {}, source="Human")
        assert arest.apply(tenant.state, "snapshots")[0]["snapshots"][0]["taken_at"] == (
            "2025-01-01T00:00:00Z")
        assert tenant.call("schema", None, source="Robot")["error"]["code"] == "invalid_input"
        assert tenant.call("create:Customer", {"id": object()})["error"]["code"] == (
            "invalid_input")


def test_a_second_process_gets_a_clear_error(tmp_path: Path) -> None:
    db = tmp_path / "shop.db"
    with arest.Tenant.open(ORDERS, db=db):
        probe = (
            "import arest, sys\n"
            "from arest.runtime import TenantLocked\n"
            f"try:\n    arest.Tenant.open({str(ORDERS)!r}, db={str(db)!r})\n"
            "except TenantLocked as error:\n    print(error); sys.exit(3)\n"
        )
        done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
        assert done.returncode == 3
        assert "is open in process" in done.stdout and str(db) in done.stdout
    with arest.Tenant.open(ORDERS, db=db):
        pass  # closed, it opens again
    with arest.Tenant.open(ORDERS, db=db), pytest.raises(TenantLocked):
        arest.Tenant.open(ORDERS, db=db)


def test_a_corrupt_file_is_an_error_never_an_empty_state(tmp_path: Path) -> None:
    db = tmp_path / "shop.db"
    db.write_bytes(b"this is not a database at all" * 100)
    with pytest.raises(StorageError) as caught:
        arest.Tenant.open(ORDERS, db=db)
    assert str(db) in str(caught.value)


def test_a_truncated_file_is_an_error(tmp_path: Path) -> None:
    db = tmp_path / "shop.db"
    with arest.Tenant.open(ORDERS, db=db) as tenant:
        for n in range(40):
            tenant.call("create:Customer", {"id": f"c{n}@x", "Name": f"C{n}"})
    data = db.read_bytes()
    db.write_bytes(data[: len(data) // 2])
    with pytest.raises(StorageError):
        arest.Tenant.open(ORDERS, db=db)


def test_changed_readings_that_the_journal_violates_refuse_to_open(
    tmp_path: Path, db: str | Path
) -> None:
    readings = tmp_path / "r.md"
    readings.write_text("Customer(.id) is an entity type.\nCustomer has Phone.\n")
    with arest.Tenant.open(readings, db=db) as tenant:
        tenant.call("create:Customer", {"id": "c1"})
    readings.write_text("Customer(.id) is an entity type.\nCustomer has Phone.\n"
                        "  Each Customer has exactly one Phone.\n")
    with pytest.raises(ReplayError) as caught:
        arest.Tenant.open(readings, db=db)
    assert "Each Customer has exactly one Phone." in str(caught.value)


def test_a_reopen_does_not_read_unchanged_readings_again(
    tmp_path: Path, db: str | Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with arest.Tenant.open(ORDERS, db=db) as tenant:
        tenant.call("create:Customer", {"id": "ann@x", "Name": "Ann"})
    def refuse(*_: object, **__: object) -> None:
        raise AssertionError("the readings were compiled again")

    with monkeypatch.context() as patch:
        patch.setattr(api, "load_sources", refuse)
        with arest.Tenant.open(ORDERS, db=db) as again:
            assert arest.apply(again.state, "read:Customer", "ann@x")[0]["Name"] == "Ann"
    changed = tmp_path / "orders.md"
    changed.write_text((ORDERS / "orders.md").read_text() + "\nCustomer has Phone.\n")
    with arest.Tenant.open(changed, db=db) as recompiled:  # changed readings: compiled afresh
        assert any(f["id"] == "Customer_has_Phone"
                   for f in arest.apply(recompiled.state, "schema")[0]["fact_types"])
        assert arest.apply(recompiled.state, "read:Customer", "ann@x")[0]["Name"] == "Ann"


def test_restart_from_a_checkpoint_replays_only_what_follows(
    tmp_path: Path, db: str | Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import arest.runtime.checkpoints as checkpoints_module
    import arest.runtime.recovery as replay_module

    monkeypatch.setattr(checkpoints_module, "CHECKPOINT_EVERY", 5)
    with arest.Tenant.open(ORDERS, db=db) as tenant:
        for n in range(12):
            tenant.call("create:Customer", {"id": f"c{n}@x", "Name": f"C{n}"})
        tenant.call("snapshot", {"label": "twelve"})
        expected = arest.apply(tenant.state, "list:Customer")[0]
    replayed: list[int] = []
    original = replay_module.run_recording

    def counting(*arguments: object) -> object:
        replayed.append(1)
        return original(*arguments)  # type: ignore[arg-type]

    with monkeypatch.context() as patch:
        patch.setattr(replay_module, "run_recording", counting)
        with arest.Tenant.open(ORDERS, db=db) as again:
            assert replayed == []  # closing kept a checkpoint of everything
            assert arest.apply(again.state, "list:Customer")[0] == expected
            assert arest.apply(again.state, "snapshots")[0]["snapshots"][0]["id"] == "twelve"
            again.call("create:Customer", {"id": "late@x", "Name": "L"})
    with arest.Tenant.open(ORDERS, db=db) as third:
        assert arest.apply(third.state, "read:Customer", "late@x")[0]["Name"] == "L"


def test_bad_input_is_an_error_and_the_store_stays_intact(
    tmp_path: Path, db: str | Path
) -> None:
    deep: list[object] = []
    inner = deep
    for _ in range(100_000):
        inner.append([])
        inner = inner[0]  # type: ignore[assignment]
    with arest.Tenant.open(ORDERS, db=db) as tenant:
        tenant.call("create:Customer", {"id": "ann@x", "Name": "Ann"})
        before = tenant.state
        for key, request in [
            ("create:Customer", deep),
            ("create:Customer", {"id": "x" * 2_000_000, "Name": "X"}),
            ("create:Customer", {"id": "bo@x", "Name": "B\udcff"}),
            ("create:Customer", {"id": ["bo@x"], "Name": "B"}),
            ("create:Cust\udcffomer", {}),
            ("create:Customer", {"id": 1e309, "Name": "B"}),
        ]:
            out = tenant.call(key, request)
            assert out["error"]["code"] == "invalid_input", out
            assert tenant.state is before
    with arest.Tenant.open(ORDERS, db=db) as again:
        assert arest.apply(again.state, "list:Customer")[0]["total"] == 1


FAMILY = """\
Person(.Name) is an entity type.
Person1 is parent of Person2.
Person1 is grandparent of Person2.
Person1 is ancestor of Person2.
* Person1 is grandparent of Person3 if Person1 is parent of Person2 \
and Person2 is parent of Person3.
** Person1 is ancestor of Person2 if Person1 is parent of Person2.
"""


def test_derived_facts_come_back_stored_or_rebuilt(tmp_path: Path) -> None:
    """``*`` facts are kept in memory and derived again on open; ``**`` facts are stored."""
    readings = tmp_path / "family.md"
    readings.write_text(FAMILY)
    db = tmp_path / "family.db"
    with arest.Tenant.open(readings, db=db) as tenant:
        for parent, child in [("ann", "bob"), ("bob", "cy")]:
            out = tenant.call("assert", {"fact_type": "Person_is_parent_of_Person",
                                         "bindings": [parent, child]})
            assert not out["rejected"]
        tenant.checkpoint()
        expected = {f: arest.apply(tenant.state, f"query:{f}")[0] for f in (
            "Person_is_grandparent_of_Person", "Person_is_ancestor_of_Person")}
    with closing(sqlite3.connect(db)) as connection:
        stored = dict(connection.execute("SELECT name, contents FROM cells"))
    assert "cy" not in stored["Person_is_grandparent_of_Person"]
    assert "cy" in stored["Person_is_ancestor_of_Person"]
    with arest.Tenant.open(readings, db=db) as again:
        for fact_type, rows in expected.items():
            assert arest.apply(again.state, f"query:{fact_type}")[0] == rows


def test_changed_readings_list_every_violation_with_its_kind(
    tmp_path: Path, db: str | Path
) -> None:
    readings = tmp_path / "r.md"
    readings.write_text("Customer(.id) is an entity type.\nCustomer has Phone.\n")
    with arest.Tenant.open(readings, db=db) as tenant:
        tenant.call("assert", {"fact_type": "Customer_has_Phone", "bindings": ["c1", "1"]})
        tenant.call("assert", {"fact_type": "Customer_has_Phone", "bindings": ["c1", "2"]})
    readings.write_text("Customer(.id) is an entity type.\nCustomer has Phone.\n"
                        "  Each Customer has at most one Phone.\n")
    with pytest.raises(ReplayError) as caught:
        arest.Tenant.open(readings, db=db)
    message = str(caught.value)
    assert "journal entry 2 (assert)" in message
    assert "Each Customer has at most one Phone. (UC, alethic)" in message and '"c1"' in message


def test_changed_readings_are_kept_once_the_population_fits_them(
    tmp_path: Path, db: str | Path
) -> None:
    import arest.runtime.recovery as replay_module

    readings = tmp_path / "r.md"
    first = "Customer(.id) is an entity type.\nCustomer has Phone.\n"
    readings.write_text(first)
    with arest.Tenant.open(readings, db=db) as tenant:
        for n in range(3):
            assert not tenant.call("create:Customer", {"id": f"c{n}", "Phone": str(n)})[
                "rejected"]
    readings.write_text(first + "  Each Customer has at most one Phone.\n")
    with arest.Tenant.open(readings, db=db) as tenant:  # replayed and revalidated
        assert arest.apply(tenant.state, "list:Customer")[0]["total"] == 3
        digest = tenant.digest
    replayed: list[str] = []
    original = replay_module.run_recording

    def counting(*arguments: object) -> object:
        replayed.append(str(arguments[1]))
        return original(*arguments)  # type: ignore[arg-type]

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(replay_module, "run_recording", counting)
        with arest.Tenant.open(readings, db=db) as again:  # from the checkpoint it kept
            assert again.digest == digest and replayed == []
    readings.write_text(first)
    with arest.Tenant.open(readings, db=db) as reverted:  # back again: replayed, no mismatch
        assert arest.apply(reverted.state, "list:Customer")[0]["total"] == 3


def test_recent_facts_are_newest_first_and_survive_a_restart(
    tmp_path: Path, db: str | Path
) -> None:
    with arest.Tenant.open(ORDERS, db=db, clock=ticking()) as tenant:
        tenant.call("create:Customer", {"id": "ann@x", "Name": "Ann"})
        tenant.call("create:Customer", {"id": "bo@x", "Name": "Bo"})
        tenant.call("update:Customer", {"id": "ann@x", "Name": "Annie"})
        tenant.call("create:Order", {"id": "o-9"})  # rejected: not journaled
        recent = tenant.recent_facts()
    assert recent == [
        {"fact_type": "Customer_has_Name", "values": ["ann@x", "Annie"],
         "time": "2025-01-01T00:00:02Z", "sequence": 3},
        {"fact_type": "Customer_has_Name", "values": ["bo@x", "Bo"],
         "time": "2025-01-01T00:00:01Z", "sequence": 2},
    ]  # Ann's first Name no longer holds; populations are not fact types
    with arest.Tenant.open(ORDERS, db=db) as again:
        assert again.recent_facts() == recent
        assert again.recent_facts(limit=1) == recent[:1]


def test_recent_facts_of_a_memory_tenant() -> None:
    with arest.Tenant.open(ORDERS) as tenant:
        for n in range(70):
            tenant.call("create:Customer", {"id": f"c{n}@x", "Name": f"C{n}"})
        recent = tenant.recent_facts(limit=100)
        assert [fact["values"][0] for fact in recent] == [f"c{n}@x" for n in range(69, -1, -1)]
        assert tenant.disk_space_bytes() == 0


def test_disk_space_counts_the_database_and_its_log(tmp_path: Path) -> None:
    db = tmp_path / "shop.db"
    with arest.Tenant.open(ORDERS, db=db) as tenant:
        tenant.call("create:Customer", {"id": "ann@x", "Name": "Ann"})
        files = [db, Path(f"{db}-wal"), Path(f"{db}-shm")]
        assert tenant.disk_space_bytes() == sum(f.stat().st_size for f in files if f.exists())
        assert tenant.disk_space_bytes() > db.stat().st_size > 0
