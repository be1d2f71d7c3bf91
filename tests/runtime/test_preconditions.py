"""A precondition (REST's If-Match) is checked on the D its command runs on, under the commit
lock: of writers that all read one version and race to change it, exactly one wins, and
the others are told the entity changed, whatever the interleaving."""

import threading
from pathlib import Path
from typing import Any

import arest
from arest.rest.answer import etag
from arest.system.commands import Command

ORDERS = Path(__file__).resolve().parents[2] / "readings" / "orders"


def _stale_unless(version: str) -> Any:
    def holds(state: Any) -> dict[str, Any] | None:
        out, _ = arest.apply(state, "read:Customer", {"id": "ann@x"})
        return None if etag(out) == version else {"error": {"code": "precondition_failed",
                                                            "message": "changed"}}
    return holds


def test_of_writers_racing_on_one_version_exactly_one_commits(tmp_path: Path) -> None:
    with arest.Tenant.open(ORDERS, db=tmp_path / "t.db") as tenant:
        tenant.call("create:Customer", {"id": "ann@x", "Name": "Ann"})
        version = etag(arest.apply(tenant.state, "read:Customer", "ann@x")[0])
        start = threading.Barrier(8)
        outputs: list[dict[str, Any]] = []

        def write(number: int) -> None:
            start.wait()
            outputs.append(tenant.run(
                Command("update", "Customer", {"id": "ann@x", "Name": f"Ann {number}"}),
                precondition=_stale_unless(version)))

        threads = [threading.Thread(target=write, args=(n,)) for n in range(8)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        won = [out for out in outputs if "error" not in out]
        assert len(won) == 1
        assert sum(out.get("error", {}).get("code") == "precondition_failed"
                   for out in outputs) == 7
        name = arest.apply(tenant.state, "read:Customer", "ann@x")[0]["Name"]
        assert name == won[0]["entity"]["Name"]


def test_a_failed_precondition_changes_nothing_and_journals_nothing(tmp_path: Path) -> None:
    with arest.Tenant.open(ORDERS, db=tmp_path / "t.db") as tenant:
        tenant.call("create:Customer", {"id": "ann@x", "Name": "Ann"})
        before, digest = tenant.state, tenant.digest
        out = tenant.run(Command("update", "Customer", {"id": "ann@x", "Name": "Bo"}),
                         precondition=_stale_unless('"not this one"'))
        assert out["error"]["code"] == "precondition_failed"
        assert tenant.state is before and tenant.digest == digest
    with arest.Tenant.open(ORDERS, db=tmp_path / "t.db") as reopened:
        assert arest.apply(reopened.state, "read:Customer", "ann@x")[0]["Name"] == "Ann"


def test_a_read_now_answers_what_run_answers_and_never_a_write(tmp_path: Path) -> None:
    with arest.Tenant.open(ORDERS, db=tmp_path / "t.db") as tenant:
        tenant.call("create:Customer", {"id": "ann@x", "Name": "Ann"})
        for command in (Command("read", "Customer", {"id": "ann@x"}),
                        Command("read", "Customer", {"id": "nobody"}),
                        Command("list", "Customer", None)):
            assert tenant.read_now(command) == tenant.run(command)
        before = tenant.state
        assert tenant.read_now(Command("create", "Customer", {"id": "b@x", "Name": "B"})) \
            is None
        assert tenant.state is before
