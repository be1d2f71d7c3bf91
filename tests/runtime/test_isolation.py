"""Cell isolation (Definition 2): writers on disjoint cells run at once, writers on one cell
serialize, and the journal is a serial order giving the same D and the same outputs."""

import itertools
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

import arest
from arest.algebra import EMPTY_STATE, store_all
from arest.runtime import open_storage
from arest.runtime.footprint import Footprint
from arest.system.validate import alethic, all_violations
from arest.testing import commands, schemas

ROOT = Path(__file__).resolve().parents[2]
ORDERS = ROOT / "readings" / "orders"


class Clock:
    """Unique times; each thread's first reading waits at a barrier (when given one), so
    that two commands are inside SYSTEM at once.  Remembers the time each thread read last
    (the one its committed run used) and how often each thread read it."""

    def __init__(self, barrier: threading.Barrier | None = None) -> None:
        self.barrier = barrier
        self.ticks = itertools.count()
        self.lock = threading.Lock()
        self.last: dict[int, str] = {}
        self.readings: dict[int, int] = {}

    def __call__(self) -> str:
        me = threading.get_ident()
        with self.lock:
            n = next(self.ticks)
            self.readings[me] = self.readings.get(me, 0) + 1
            first = self.readings[me] == 1
        if first and self.barrier is not None:
            self.barrier.wait()  # a single global lock around commands never gets here twice
        time.sleep(0)  # let another thread run: the command's snapshot is already taken
        moment = f"2025-01-01T{n // 3600:02d}:{n // 60 % 60:02d}:{n % 60:02d}Z"
        self.last[me] = moment
        return moment


def in_threads(*calls: Callable[[], Any]) -> list[Any]:
    """Run each call in its own thread; their results (or the exception each raised)."""
    results: list[Any] = [None] * len(calls)

    def run(index: int) -> None:
        try:
            results[index] = calls[index]()
        except BaseException as error:  # reported by the test
            results[index] = error

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return results


def test_writers_on_disjoint_cells_run_at_once(tmp_path: Path) -> None:
    clock = Clock(threading.Barrier(2, timeout=10))
    with arest.Tenant.open(ORDERS, db=tmp_path / "shop.db", clock=clock) as tenant:
        customer, product = in_threads(
            lambda: tenant.call("create:Customer", {"id": "ann@x", "Name": "Ann"}),
            lambda: tenant.call("create:Product", {"id": "sku-saw", "Name": "Saw"}),
        )
        assert not isinstance(customer, BaseException), customer
        assert not isinstance(product, BaseException), product
        assert not customer["rejected"] and not product["rejected"]
        assert sorted(clock.readings.values()) == [1, 1]  # neither had to run again
        assert arest.apply(tenant.state, "read:Customer", "ann@x")[0]["Name"] == "Ann"
        assert arest.apply(tenant.state, "read:Product", "sku-saw")[0]["Name"] == "Saw"


def test_writers_on_one_cell_serialize(tmp_path: Path) -> None:
    clock = Clock(threading.Barrier(2, timeout=10))
    with arest.Tenant.open(ORDERS, db=tmp_path / "shop.db", clock=clock) as tenant:
        results = in_threads(
            lambda: tenant.call("create:Customer", {"id": "ann@x", "Name": "Ann"}),
            lambda: tenant.call("create:Customer", {"id": "bo@x", "Name": "Bo"}),
        )
        assert all(not isinstance(out, BaseException) and not out["rejected"]
                   for out in results), results
        assert sorted(clock.readings.values()) == [1, 2]  # the later commit ran again
        listed = arest.apply(tenant.state, "list:Customer")[0]["items"]
        assert sorted(item["Name"] for item in listed) == ["Ann", "Bo"]  # no lost update


def test_a_conflict_on_one_cell_is_seen_never_overwritten(tmp_path: Path) -> None:
    clock = Clock(threading.Barrier(2, timeout=10))
    with arest.Tenant.open(ORDERS, db=tmp_path / "shop.db", clock=clock) as tenant:
        first, second = in_threads(
            lambda: tenant.call("create:Customer", {"id": "ann@x", "Name": "Ann"}),
            lambda: tenant.call("create:Customer", {"id": "ann@x", "Name": "Annie"}),
        )
        outcomes = sorted([first, second], key=lambda out: "error" in out)
        assert not outcomes[0]["rejected"]
        assert outcomes[1]["error"]["code"] == "entity_exists"
        name = arest.apply(tenant.state, "read:Customer", "ann@x")[0]["Name"]
        assert name == outcomes[0]["entity"]["Name"]


RENTALS = """\
Person(.Name) is an entity type.
Car(.VIN) is an entity type.
Person owns Car.
Person rents Car.
If some Person rents some Car then that Person owns that Car.
"""


def test_commands_that_read_what_the_other_writes_serialize(tmp_path: Path) -> None:
    """Write skew: each command writes its own cell but reads the other's through the
    constraint; run at once, the later commit must see the earlier one."""
    readings = tmp_path / "rentals.md"
    readings.write_text(RENTALS)
    clock = Clock()
    db = tmp_path / "rentals.db"
    with arest.Tenant.open(readings, db=db, clock=clock) as tenant:
        owns = {"fact_type": "Person_owns_Car", "bindings": ["ann", "c1"]}
        assert not tenant.call("assert", owns)["rejected"]
        clock.barrier, clock.readings = threading.Barrier(2, timeout=10), {}
        results = in_threads(
            lambda: tenant.call("retract", owns),
            lambda: tenant.call("assert", {"fact_type": "Person_rents_Car",
                                           "bindings": ["ann", "c1"]}),
        )
        assert sorted(out["rejected"] for out in results) == [False, True], results
        assert not alethic(all_violations(tenant.state))
        final = tenant.state
    assert serial_replay(readings, db)[0] == final


def test_a_footprint_records_reads_and_writes() -> None:
    state = store_all(EMPTY_STATE, [("a", "1"), ("b", "2")])
    footprint = Footprint()
    view = footprint.view(state)
    assert view.get("a") == "1" and "z" not in view
    with view.mutate() as batch:
        batch["c"] = batch.get("b", "?")
        made = batch.finish()
    after = footprint.state_of(made)
    assert after is not None and after["c"] == "2"
    assert footprint.read == {"a", "b", "z"} and list(footprint.written) == ["c"]
    assert not footprint.whole and footprint.unchanged(state, state.set("d", "4"))
    assert not footprint.unchanged(state, state.set("z", "now here"))
    sorted(view)
    assert footprint.whole and not footprint.unchanged(state, state.set("d", "4"))
    assert footprint.state_of(state) is None  # a state the view did not make


def test_a_create_leaves_the_protected_cells_out_of_its_footprint_and_is_still_guarded(
) -> None:
    """The guard on the metamodel's cells reads them around the recording view: a create's
    footprint is the cells it touches, so it merges beside a command that changes the
    metamodel; an agent's command that writes one of them is still refused."""
    from arest.runtime.runner import run_recording
    from arest.system.commands import Command
    from arest.system.context import AGENT, read_context

    state = arest.load(ORDERS)
    out, after, footprint = run_recording(
        state, Command("create", "Customer", {"id": "acme", "Name": "Acme"}),
        read_context({"source": AGENT}))
    assert out["rejected"] is False and footprint is not None
    assert "Domain_is_protected" not in footprint.cells()
    assert footprint.unchanged(state, state.set("Domain_is_protected", EMPTY_STATE))
    out, after, _ = run_recording(
        state, Command("retract", None, {"fact_type": "Domain_is_protected",
                                         "bindings": ["core"]}),
        read_context({"source": AGENT}))
    assert out["error"]["code"] == "invalid_input" and "metamodel" in out["error"]["message"]
    assert after is state


def serial_replay(readings: Path, db: Path) -> tuple[Any, dict[str, dict[str, Any]]]:
    """D after applying the journal one entry after another on freshly loaded readings, and
    each entry's output by its time."""
    storage = open_storage(db)
    state = arest.load(readings)
    outputs = {}
    for entry in storage.entries():
        out, state = arest.apply(state, entry.key, entry.input, entry.context)
        outputs[entry.context["now"]] = out
    storage.close()
    return state, outputs


@settings(max_examples=25)
@given(
    schemas(),
    st.lists(st.lists(st.one_of(commands(), st.just(("snapshot", {}))), min_size=1,
                      max_size=6), min_size=2, max_size=4),
)
def test_concurrent_commands_equal_their_journal_replayed_serially(
    readings: str, per_thread: list[list[tuple[str, Any]]]
) -> None:
    switching = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)  # threads interleave inside commands, not between them
    try:
        with tempfile.TemporaryDirectory() as folder:
            path, db = Path(folder) / "people.md", Path(folder) / "people.db"
            path.write_text(readings)
            clock = Clock()
            accepted: list[tuple[str, dict[str, Any]]] = []
            record = threading.Lock()

            def worker(sequence: list[tuple[str, Any]]) -> Callable[[], None]:
                def run() -> None:
                    for key, request in sequence:
                        out = tenant.call(key, request)
                        if "error" not in out and not out.get("rejected"):
                            with record:
                                accepted.append((clock.last[threading.get_ident()], out))
                return run

            with arest.Tenant.open(path, db=db, clock=clock) as tenant:
                failures = [r for r in in_threads(*map(worker, per_thread)) if r is not None]
                assert not failures, failures
                final = tenant.state
            expected, outputs = serial_replay(path, db)
            assert final == expected
            assert len(outputs) <= len(accepted)
            for moment, out in accepted:  # a command that changed nothing is not journaled
                assert outputs.get(moment, out) == out
            with arest.Tenant.open(path, db=db) as again:  # every entry's digest checks out
                assert again.state == expected
    finally:
        sys.setswitchinterval(switching)
