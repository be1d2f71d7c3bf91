"""A tenant in PostgreSQL: a schema per tenant, damage refused, several tenants (in one
process or several) appending to one journal and converging."""

import contextlib
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest

import arest
from arest.rest.answer import etag
from arest.runtime import StorageError
from arest.system.commands import Command
from tests.postgres import Database, query, run_sql

ROOT = Path(__file__).resolve().parents[2]
ORDERS = ROOT / "readings" / "orders"


def url(database: Database, tenant: str = "shop") -> str:
    return f"{database.url}&tenant={tenant}"


def test_two_tenants_share_a_database_one_schema_each(pg_database: Database) -> None:
    with arest.Tenant.open(ORDERS, db=url(pg_database, "east")) as east, arest.Tenant.open(
            ORDERS, db=url(pg_database, "west")) as west:
        east.call("create:Customer", {"id": "ann@x", "Name": "Ann"})
        west.call("create:Customer", {"id": "bo@x", "Name": "Bo"})
        assert east.disk_space_bytes() > 0  # its tables and their indexes
    with arest.Tenant.open(ORDERS, db=url(pg_database, "east")) as east:
        listed = arest.apply(east.state, "list:Customer")[0]
        assert [c["id"] for c in listed["items"]] == ["ann@x"]
    assert query(pg_database, "SELECT key FROM west.arest_journal") == [("create:Customer",)]


def test_a_tenant_name_that_is_no_schema_name_is_refused(pg_database: Database) -> None:
    with pytest.raises(StorageError) as caught:
        arest.Tenant.open(ORDERS, db=url(pg_database, "Shop; DROP"))
    assert "e.g. ?tenant=shop" in str(caught.value)


def test_a_changed_journal_entry_fails_the_open(pg_database: Database) -> None:
    with arest.Tenant.open(ORDERS, db=url(pg_database)) as tenant:
        tenant.call("create:Customer", {"id": "ann@x", "Name": "Ann"})
        tenant.call("create:Customer", {"id": "bo@x", "Name": "Bo"})
    run_sql(pg_database, "UPDATE shop.arest_journal SET input = '{\"id\": \"cy@x\","
                         " \"Name\": \"Cy\"}' WHERE sequence = 2")
    with pytest.raises(StorageError) as caught:
        arest.Tenant.open(ORDERS, db=url(pg_database))
    assert "journal entry 2 (create:Customer) replays to other asserted facts" in str(
        caught.value)


def test_a_journal_with_a_gap_fails_the_open(pg_database: Database) -> None:
    with arest.Tenant.open(ORDERS, db=url(pg_database)) as tenant:
        for n in range(3):
            tenant.call("create:Customer", {"id": f"c{n}@x", "Name": f"C{n}"})
    run_sql(pg_database, "DELETE FROM shop.arest_journal WHERE sequence = 2")
    with pytest.raises(StorageError) as caught:
        arest.Tenant.open(ORDERS, db=url(pg_database))
    assert "has lost entries: it holds 2 of entries 1 to 3" in str(caught.value)


def test_a_password_is_never_shown(pg_database: Database) -> None:
    secret = url(pg_database).replace("postgresql://arest@", "postgresql://arest:hunter2@")
    secret = secret.replace("port=5432", "port=1")  # nothing listens: the connection fails
    with pytest.raises(StorageError) as caught:
        arest.Tenant.open(ORDERS, db=secret)
    assert "cannot connect" in str(caught.value) and "hunter2" not in str(caught.value)


def test_a_second_tenant_object_follows_the_first(pg_database: Database) -> None:
    with arest.Tenant.open(ORDERS, db=url(pg_database)) as first, arest.Tenant.open(
            ORDERS, db=url(pg_database)) as second:
        first.call("create:Customer", {"id": "ann@x", "Name": "Ann"})
        assert second.catch_up() == 1
        assert arest.apply(second.state, "read:Customer", "ann@x")[0]["Name"] == "Ann"
        second.call("update:Customer", {"id": "ann@x", "Name": "Annie"})
        first.call("create:Customer", {"id": "bo@x", "Name": "Bo"})  # appends after 2
        assert first.catch_up() == second.catch_up() == 3
        assert first.digest == second.digest
        assert arest.apply(first.state, "read:Customer", "ann@x")[0]["Name"] == "Annie"


@pytest.mark.parametrize("tenants", [2, 3])
def test_concurrent_writers_on_several_tenants_converge(pg_database: Database,
                                                        tenants: int) -> None:
    """Threads write through several tenant objects of one tenant at once, on shared cells
    (every create adds to the Customer population) and on their own: every acknowledged
    command is in the journal exactly once, and every tenant ends on the same digest."""
    opened = [arest.Tenant.open(ORDERS, db=url(pg_database)) for _ in range(tenants)]
    acknowledged: list[str] = []
    failures: list[BaseException] = []

    def write(tenant: arest.Tenant, writer: int) -> None:
        try:
            for n in range(15):
                name = f"w{writer}-{n}@x"
                out = tenant.call("create:Customer", {"id": name, "Name": f"N{n}"})
                assert not out.get("rejected") and "error" not in out, out
                acknowledged.append(name)
        except BaseException as error:  # the test fails on it below
            failures.append(error)

    threads = [threading.Thread(target=write, args=(opened[w % tenants], w))
               for w in range(2 * tenants)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    try:
        assert failures == []
        last = max(tenant.catch_up() for tenant in opened)
        assert all(tenant.catch_up() == last for tenant in opened)
        assert len({tenant.digest for tenant in opened}) == 1
        kept = query(pg_database, "SELECT input::json->>'id' FROM shop.arest_journal"
                                  " WHERE key = 'create:Customer'")
        assert sorted(row[0] for row in kept) == sorted(acknowledged)
        listed = arest.apply(opened[0].state, "list:Customer", {"limit": 1000})[0]
        assert listed["total"] == len(acknowledged) == 2 * tenants * 15
    finally:
        for tenant in opened:
            tenant.close()
    with arest.Tenant.open(ORDERS, db=url(pg_database)) as again:
        # Replayed from the journal, command by command: what the others reached by
        # applying each other's recorded facts.
        assert again.digest == opened[0].digest
        assert arest.apply(again.state, "list:Customer", {"limit": 1000})[0] == listed


def test_checkpoints_kept_by_several_tenants_restore_the_same_d(
        pg_database: Database, monkeypatch: pytest.MonkeyPatch) -> None:
    import arest.runtime.recovery as recovery_module

    with arest.Tenant.open(ORDERS, db=url(pg_database)) as alone:
        for n in range(3):
            alone.call("create:Customer", {"id": f"c{n}@x", "Name": f"C{n}"})
        alone.checkpoint()
    with arest.Tenant.open(ORDERS, db=url(pg_database)) as first, arest.Tenant.open(
            ORDERS, db=url(pg_database)) as second:
        first.call("update:Customer", {"id": "c0@x", "Name": "Changed"})
        first.checkpoint()  # as of 4, changed since 3
        second.call("create:Customer", {"id": "late@x", "Name": "L"})
        second.checkpoint()  # its last was 3, the kept one is 4: every cell, as of 5
        digest = second.digest
    assert query(pg_database, "SELECT value FROM shop.arest_meta WHERE name = 'checkpoint'"
                 ) == [("5",)]
    replayed: list[int] = []
    original = recovery_module.run_recording

    def counting(*arguments: object) -> object:
        replayed.append(1)
        return original(*arguments)  # type: ignore[arg-type]

    monkeypatch.setattr(recovery_module, "run_recording", counting)
    with arest.Tenant.open(ORDERS, db=url(pg_database)) as again:
        assert replayed == [] and again.digest == digest
        assert arest.apply(again.state, "read:Customer", "c0@x")[0]["Name"] == "Changed"


def test_the_embedded_install_never_loads_psycopg(tmp_path: Path) -> None:
    probe = ("import sys, arest\n"
             f"with arest.Tenant.open({str(ORDERS)!r}, db={str(tmp_path / 'shop.db')!r}) as t:\n"
             "    t.call('create:Customer', {'id': 'ann@x', 'Name': 'Ann'})\n"
             "print('psycopg' in sys.modules)\n")
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                          check=True)
    assert done.stdout.strip() == "False"


def test_a_lost_connection_is_made_again(pg_database: Database) -> None:
    with arest.Tenant.open(ORDERS, db=url(pg_database)) as tenant:
        tenant.call("create:Customer", {"id": "ann@x", "Name": "Ann"})
        run_sql(pg_database, "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                             " WHERE datname = current_database() AND pid <> pg_backend_pid()")
        with contextlib.suppress(StorageError):  # the one call that finds it lost
            tenant.call("create:Customer", {"id": "bo@x", "Name": "Bo"})
        out = tenant.call("create:Customer", {"id": "cy@x", "Name": "Cy"})
        assert not out["rejected"]
        digest = tenant.digest
    with arest.Tenant.open(ORDERS, db=url(pg_database)) as again:
        assert again.digest == digest
        assert arest.apply(again.state, "read:Customer", "cy@x")[0]["Name"] == "Cy"


def test_a_precondition_is_checked_on_the_journals_latest_d(pg_database: Database) -> None:
    """A version read through one tenant object is current through another at once, and of
    writers racing through both on one version, exactly one commits."""
    with arest.Tenant.open(ORDERS, db=url(pg_database)) as first, arest.Tenant.open(
            ORDERS, db=url(pg_database)) as second:
        first.call("create:Customer", {"id": "ann@x", "Name": "Ann"})
        version = etag(arest.apply(first.state, "read:Customer", "ann@x")[0])
        out = second.run(Command("update", "Customer", {"id": "ann@x", "Name": "Annie"}),
                         precondition=_unless_changed_from(version))
        assert "error" not in out, out
        version = etag(arest.apply(second.state, "read:Customer", "ann@x")[0])
        outputs: list[dict[str, Any]] = []
        start = threading.Barrier(6)

        def write(number: int) -> None:
            start.wait()
            tenant = (first, second)[number % 2]
            outputs.append(tenant.run(
                Command("update", "Customer", {"id": "ann@x", "Name": f"Ann {number}"}),
                precondition=_unless_changed_from(version)))

        threads = [threading.Thread(target=write, args=(n,)) for n in range(6)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert sorted("error" in out for out in outputs) == [False] + [True] * 5
        assert first.catch_up() == second.catch_up() == 3
        assert first.digest == second.digest


def _unless_changed_from(version: str) -> Any:
    def holds(state: Any) -> dict[str, Any] | None:
        out, _ = arest.apply(state, "read:Customer", {"id": "ann@x"})
        return None if "error" not in out and etag(out) == version else {
            "error": {"code": "precondition_failed", "message": "changed"}}
    return holds


def test_a_tenant_on_other_readings_parts_from_the_journal(pg_database: Database,
                                                           tmp_path: Path) -> None:
    """A command another process kept that does not replay here as it recorded (other
    readings) is never taken silently: the tenant refuses every call from then on."""
    with_phone, without = tmp_path / "with.md", tmp_path / "without.md"
    with_phone.write_text("Customer(.id) is an entity type.\nCustomer has Phone.\n")
    without.write_text("Customer(.id) is an entity type.\n")
    with arest.Tenant.open(without, db=url(pg_database)) as other, arest.Tenant.open(
            with_phone, db=url(pg_database)) as tenant:
        assert not tenant.call("create:Customer", {"id": "c1", "Phone": "1"})["rejected"]
        with pytest.raises(StorageError) as caught:
            other.catch_up()
        assert "journal entry 1 (create:Customer) is not accepted" in str(caught.value)
        with pytest.raises(StorageError):
            other.call("create:Customer", {"id": "c2"})


def test_statements_run_within_the_journal_transaction(pg_database: Database) -> None:
    from arest.runtime.postgres import PostgresStorage
    from arest.runtime.storage import Pending

    run_sql(pg_database, "CREATE TABLE mirrored (sequence bigint)")
    storage = PostgresStorage(url(pg_database))
    try:
        def mirror(sequence: int) -> Any:
            return lambda connection: connection.execute(
                "INSERT INTO public.mirrored VALUES (%s)", (sequence,))

        storage.append([Pending(1, "snapshot", "{}", "{}", "v1:0", "{}")], within=mirror(1))

        def refuse(connection: Any) -> None:
            connection.execute("INSERT INTO public.mirrored VALUES ('not a number')")

        with pytest.raises(StorageError):
            storage.append([Pending(2, "snapshot", "{}", "{}", "v1:0", "{}")], within=refuse)
        assert [entry.sequence for entry in storage.entries()] == [1]
    finally:
        storage.close()
    assert query(pg_database, "SELECT sequence FROM public.mirrored") == [("1",)]


def test_whole_d_commands_through_one_tenant_converge_with_writes_through_another(
        pg_database: Database) -> None:
    """snapshot, rollback and compile (which take all of D) through one tenant object while
    another creates customers: both end on one D, and a reopen replays to it."""
    with arest.Tenant.open(ORDERS, db=url(pg_database)) as writer, arest.Tenant.open(
            ORDERS, db=url(pg_database)) as keeper:
        keeper.call("snapshot", {"label": "empty"})
        done = threading.Event()

        def create() -> None:
            for n in range(30):
                writer.call("create:Customer", {"id": f"c{n}@x", "Name": f"C{n}"})
            done.set()

        thread = threading.Thread(target=create)
        thread.start()
        for n in range(4):
            keeper.call("snapshot", {"label": f"s{n}"})
            keeper.call("rollback", {"id": "empty"})
        keeper.call("compile", {"readings": "Customer has Phone.\n"})
        thread.join()
        assert done.is_set()
        # Phone came with keeper's compile: a refusal on a D without it is run again.
        out = writer.call("create:Customer", {"id": "last@x", "Name": "L", "Phone": "1"})
        assert not out.get("rejected") and "error" not in out, out
        assert writer.catch_up() == keeper.catch_up()
        assert writer.digest == keeper.digest
        listed = arest.apply(keeper.state, "list:Customer", {"limit": 1000})[0]
        assert listed == arest.apply(writer.state, "list:Customer", {"limit": 1000})[0]
        digest = writer.digest
    with arest.Tenant.open(ORDERS, db=url(pg_database)) as again:
        assert again.digest == digest
        assert arest.apply(again.state, "read:Customer", "last@x")[0]["Phone"] == ["1"]
