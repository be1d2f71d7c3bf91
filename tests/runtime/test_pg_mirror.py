"""The facts of a tenant in PostgreSQL mirrored into its Rmap tables, in the transaction of
each journal entry: what a SQL client reads is the export of the D arest holds."""

import json
import threading
from pathlib import Path
from typing import Any

import psycopg
import pytest

import arest
from arest.algebra import State
from arest.compiler.rmap import relational_schema
from arest.compiler.rmap.export import rows
from arest.compiler.rmap.names import quoted
from arest.compiler.schema import schema_of
from arest.runtime import StorageError
from arest.runtime.mirroring import RESERVED
from tests.postgres import Database, query, run_sql

ROOT = Path(__file__).resolve().parents[2]
ORDERS = ROOT / "readings" / "orders"


def url(database: Database, tenant: str = "shop") -> str:
    return f"{database.url}&tenant={tenant}"


def mirrored(database: Database, tenant: str = "shop") -> dict[str, list[tuple[Any, ...]]]:
    """Every table of the tenant's schema but the storage's own, its rows sorted."""
    with psycopg.connect(database.dsn) as connection:
        names = [name for (name,) in connection.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = %s"
            " AND table_type = 'BASE TABLE' AND NOT table_name = ANY(%s)",
            (tenant, sorted(RESERVED)))]
        return {name: sorted(connection.execute(
            f"SELECT * FROM {quoted(tenant, 'postgresql')}.{quoted(name, 'postgresql')}"
        ).fetchall(), key=repr) for name in names}


def exported(state: State) -> dict[str, list[tuple[Any, ...]]]:
    """The rows of D's export, per table, as the mirror should hold them."""
    tables = relational_schema(schema_of(state))
    return {name: sorted((tuple(row[c.name] for c in tables.table(name).columns)
                          for row in found), key=repr)
            for name, found in rows(state, tables).items()}


def mirror_record(database: Database, tenant: str = "shop") -> dict[str, Any]:
    found = query(database, f"SELECT value FROM {tenant}.arest_meta WHERE name = 'mirror'")
    return dict(json.loads(found[0][0]))


def test_commands_are_mirrored_into_the_rmap_tables(pg_database: Database) -> None:
    with arest.Tenant.open(ORDERS, db=url(pg_database)) as tenant:
        tenant.call("create:Customer", {"id": "ann@x", "Name": "Ann"})
        tenant.call("create:Order", {"id": "o1", "Customer": "ann@x"})
        tenant.call("update:Customer", {"id": "ann@x", "Name": "Annie"})
        tenant.call("create:Customer", {"id": "bo@x", "Name": "Bo"})
        tenant.call("delete:Customer", {"id": "bo@x"})
        assert mirrored(pg_database) == exported(tenant.state)
        assert query(pg_database, "SELECT email, name FROM shop.customer") == [
            ("ann@x", "Annie")]
        assert mirror_record(pg_database)["sequence"] == tenant.catch_up()


def test_writes_through_several_tenant_objects_leave_the_mirror_equal_to_d(
        pg_database: Database) -> None:
    opened = [arest.Tenant.open(ORDERS, db=url(pg_database)) for _ in range(3)]
    try:
        def write(tenant: arest.Tenant, writer: int) -> None:
            for n in range(10):
                tenant.call("create:Customer", {"id": f"w{writer}-{n}@x", "Name": f"N{n}"})
                if n % 3 == 0:
                    tenant.call("update:Customer", {"id": f"w{writer}-{n}@x", "Name": "U"})

        threads = [threading.Thread(target=write, args=(opened[w % 3], w)) for w in range(6)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        last = max(tenant.catch_up() for tenant in opened)
        assert all(tenant.catch_up() == last for tenant in opened)
        assert len(mirrored(pg_database)["customer"]) == 60
        assert mirrored(pg_database) == exported(opened[0].state)
        assert mirror_record(pg_database)["sequence"] == last
    finally:
        for tenant in opened:
            tenant.close()


def test_a_compile_and_a_rollback_rewrite_the_tables(pg_database: Database) -> None:
    with arest.Tenant.open(ORDERS, db=url(pg_database)) as tenant, arest.Tenant.open(
            ORDERS, db=url(pg_database)) as other:
        tenant.call("create:Customer", {"id": "ann@x", "Name": "Ann"})
        tenant.call("snapshot", {"label": "before"})
        out = tenant.call("compile", {"readings": "Customer has Phone.\n"})
        assert "error" not in out and not out.get("rejected"), out
        other.call("create:Customer", {"id": "bo@x", "Name": "Bo", "Phone": "5"})
        assert "customer_has_phone" in mirrored(pg_database)
        assert mirrored(pg_database) == exported(other.state)
        tenant.call("rollback", {"id": "before"})
        assert "customer_has_phone" not in mirrored(pg_database)
        assert mirrored(pg_database) == exported(tenant.state)
        assert query(pg_database, "SELECT email FROM shop.customer") == [("ann@x",)]


def test_a_mirror_missing_or_behind_is_rewritten_on_open(pg_database: Database) -> None:
    with arest.Tenant.open(ORDERS, db=url(pg_database)) as tenant:
        tenant.call("create:Customer", {"id": "ann@x", "Name": "Ann"})
    run_sql(pg_database, "DROP TABLE shop.customer CASCADE;"
                         " DELETE FROM shop.arest_meta WHERE name = 'mirror'")
    with arest.Tenant.open(ORDERS, db=url(pg_database)) as tenant:
        assert mirrored(pg_database) == exported(tenant.state)
        assert mirror_record(pg_database)["sequence"] == 1
    # An entry kept without its mirror's step (as by an older arest): the next one rewrites.
    run_sql(pg_database, "UPDATE shop.arest_meta SET value = '{\"sequence\": 0}'"
                         " WHERE name = 'mirror'")
    with arest.Tenant.open(ORDERS, db=url(pg_database)) as tenant:
        assert query(pg_database, "SELECT email FROM shop.customer") == [("ann@x",)]


def test_a_failing_mirror_statement_keeps_nothing(pg_database: Database) -> None:
    with arest.Tenant.open(ORDERS, db=url(pg_database)) as tenant:
        tenant.call("create:Customer", {"id": "ann@x", "Name": "Ann"})
        digest = tenant.digest
        # A row the mirror does not expect: its INSERT of bo@x meets the primary key.
        run_sql(pg_database, "INSERT INTO shop.customer (email, name) VALUES ('bo@x', 'B')")
        with pytest.raises(StorageError) as caught:
            tenant.call("create:Customer", {"id": "bo@x", "Name": "Bo"})
        assert "nothing was kept" in str(caught.value)
        assert tenant.digest == digest
        assert tenant.catch_up() == 1
        assert query(pg_database, "SELECT count(*) FROM shop.arest_journal") == [("1",)]
        run_sql(pg_database, "DELETE FROM shop.customer WHERE email = 'bo@x'")
        out = tenant.call("create:Customer", {"id": "bo@x", "Name": "Bo"})
        assert "error" not in out and not out.get("rejected"), out
        assert mirrored(pg_database) == exported(tenant.state)


def test_readings_naming_a_table_like_arests_own_are_refused(pg_database: Database) -> None:
    with arest.Tenant.open(ORDERS, db=url(pg_database)) as tenant:
        digest = tenant.digest
        with pytest.raises(StorageError) as caught:
            tenant.call("compile", {"readings": "Arest Journal(.id) is an entity type.\n"})
        assert "table arest_journal" in str(caught.value) and "rename" in str(caught.value)
        assert tenant.digest == digest
        assert query(pg_database, "SELECT count(*) FROM shop.arest_journal") == [("0",)]
        out = tenant.call("compile", {"readings": "Arest Entry(.id) is an entity type.\n"})
        assert "error" not in out and not out.get("rejected"), out
        assert "arest_entry" in mirrored(pg_database)


def test_the_names_no_mirrored_table_may_take_are_the_storages_tables() -> None:
    from arest.runtime.postgres import TABLES

    assert set(TABLES) == RESERVED
