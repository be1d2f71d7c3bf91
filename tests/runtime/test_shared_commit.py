"""Group commit on a shared journal, one batch at a time: each proposal of a batch is checked
against the D it lands on as if it were alone, whatever the batch before it or another
server appended meanwhile, and the journal, the digest and the mirror agree with a replay."""

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import arest
from arest.algebra import State
from arest.rest.answer import etag
from arest.runtime.digest import parsed, state_digest, text
from arest.runtime.following import Current
from arest.runtime.runner import run_recording
from arest.runtime.shared_commit import Proposal, SharedCommit
from arest.runtime.storage import Pending, SharedStorage, open_storage
from arest.system.commands import Command
from arest.system.context import SYSTEM, Context
from tests.postgres import Database, query
from tests.runtime.test_pg_mirror import exported, mirrored

pytestmark = pytest.mark.postgres

ROOT = Path(__file__).resolve().parents[2]
ORDERS = ROOT / "readings" / "orders"
NOW = "2026-01-01T00:00:00.000000Z"


def url(database: Database) -> str:
    return f"{database.url}&tenant=shop"


class Server:
    """A second server of the tenant, reduced to its shared commits: it holds a D and
    installs what its batches (or a catch-up) make durable."""

    def __init__(self, database: Database, held: Current) -> None:
        storage = open_storage(url(database))
        assert isinstance(storage, SharedStorage)
        self.held, self.parted = held, list[BaseException]()
        self.commits = SharedCommit(storage, "shop", lambda: self.held, self.install,
                                    self.parted.append)

    def install(self, current: Current) -> None:
        self.held = current

    def propose(self, command: Command, precondition: Callable[[State], bool] | None = None
                ) -> tuple[dict[str, Any], Proposal]:
        """The command's answer on the D held now, and its proposal (guarded when a
        precondition, which holds on that D, was checked)."""
        snapshot = self.held[0]
        assert precondition is None or precondition(snapshot)
        out, after, footprint = run_recording(snapshot, command, Context(NOW, SYSTEM))
        assert "error" not in out and not out.get("rejected"), out
        entry = Pending(0, command.key, json.dumps(command.input),
                        json.dumps({"now": NOW, "source": SYSTEM}), "", "")
        return out, self.commits.propose(snapshot, after, footprint, entry,
                                         precondition is not None)


def unchanged_from(version: str) -> Callable[[State], bool]:
    """An If-Match on the garden category: its version is still ``version``."""
    return lambda state: etag(arest.apply(state, "read:Category", "garden")[0]) == version


def name_of(state: State, noun: str, key: str) -> Any:
    return arest.apply(state, f"read:{noun}", key)[0].get("Name")


def test_a_mixed_batch_lands_each_command_as_if_alone(pg_database: Database) -> None:
    with arest.Tenant.open(ORDERS, db=url(pg_database)) as other:
        other.call("create:Customer", {"id": "ann@x", "Name": "Ann"})
        other.call("create:Customer", {"id": "bo@x", "Name": "Bo"})
        other.call("create:Category", {"id": "garden"})
        digest = parsed(other.digest)
        assert digest is not None
        server = Server(pg_database, (other.state, other.sequence, digest))
        try:
            # One batch on D₃: ann's update lands as it ran; the product, on other cells,
            # merges onto it; bo's update read the Name cell ann's changed: it runs again.
            # The category's update, guarded by an If-Match on its version, is on other
            # cells too, yet merges nothing: the precondition read more than its footprint.
            if_match = unchanged_from(etag(arest.apply(other.state, "read:Category", "garden")[0]))
            ann, renamed = server.propose(Command("update", "Customer",
                                                  {"id": "ann@x", "Name": "Annie"}))
            _, product = server.propose(Command("create", "Product",
                                                {"id": "p2", "Name": "Widget"}))
            _, bo = server.propose(Command("update", "Customer", {"id": "bo@x", "Name": "Bob"}))
            _, garden = server.propose(Command("update", "Category",
                                               {"id": "garden", "parent Category": "all"}),
                                       if_match)
            server.commits.commit_batch([renamed, product, bo, garden])
            assert ann["entity"]["Name"] == "Annie"
            assert renamed.committed is not None and renamed.committed[1] == 4
            assert product.committed is not None and product.committed[1] == 5
            assert bo.committed is None and garden.committed is None
            assert garden.footprint is not None and garden.footprint.unchanged(
                garden.snapshot, server.held[0])
            assert name_of(server.held[0], "Product", "p2") == "Widget"
            assert name_of(server.held[0], "Customer", "bo@x") == "Bo"

            # Run again on D₅; another server appends a customer first: the batch, chained
            # on D₅, is appended on D₆ instead after a catch-up, where bo's update read the
            # Name cell cy's create changed (it runs again) and the guarded one lands on a
            # D it did not run on (it runs again).
            _, bo = server.propose(Command("update", "Customer", {"id": "bo@x", "Name": "Bob"}))
            _, garden = server.propose(Command("update", "Category",
                                               {"id": "garden", "parent Category": "all"}),
                                       if_match)
            other.catch_up()
            other.call("create:Customer", {"id": "cy@x", "Name": "Cy"})
            server.commits.commit_batch([garden, bo])
            assert garden.committed is None and bo.committed is None
            assert server.held[1] == 6

            # Run again on D₆, nothing in between: the guarded one lands as it ran, bo's
            # update, on other cells, merges onto it.
            _, garden = server.propose(Command("update", "Category",
                                               {"id": "garden", "parent Category": "all"}),
                                       if_match)
            out, bo = server.propose(Command("update", "Customer",
                                             {"id": "bo@x", "Name": "Bob"}))
            server.commits.commit_batch([garden, bo])
            assert out["entity"]["Name"] == "Bob"
            assert garden.committed is not None and garden.committed[1] == 7
            assert bo.committed is not None and bo.committed[1] == 8
            assert server.parted == []
            held = server.held
        finally:
            server.commits.storage.close()
        assert other.catch_up() == 8 and other.digest == text(held[2])
    with arest.Tenant.open(ORDERS, db=url(pg_database)) as again:
        journal = query(pg_database, "SELECT key, input::json->>'id' FROM shop.arest_journal"
                                     " ORDER BY sequence")
        assert journal == [
            ("create:Customer", "ann@x"), ("create:Customer", "bo@x"),
            ("create:Category", "garden"), ("update:Customer", "ann@x"),
            ("create:Product", "p2"), ("create:Customer", "cy@x"),
            ("update:Category", "garden"), ("update:Customer", "bo@x")]
        assert again.digest == text(held[2]) == text(state_digest(again.state))
        assert [name_of(again.state, "Customer", c) for c in ("ann@x", "bo@x", "cy@x")] == [
            "Annie", "Bob", "Cy"]
        assert mirrored(pg_database) == exported(again.state)
