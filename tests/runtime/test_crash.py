"""Crash safety: a tenant killed with SIGKILL at varied points, while four threads write to
it, keeps every acknowledged command and nothing partial (50 kills in all)."""

import os
import random
import signal
import subprocess
import sys
from pathlib import Path

import pytest

import arest

# Process kills under load: a soak, in the slow suite.
pytestmark = pytest.mark.slow

ROOT = Path(__file__).resolve().parents[2]
ORDERS = ROOT / "readings" / "orders"

WRITER = """
import sys, threading, arest
tenant = arest.Tenant.open({orders!r}, db={db!r})
start = int(sys.argv[1])
printing = threading.Lock()

def client(first):
    for n in range(first, start + 400, 4):
        out = tenant.call("create:Order", {{"id": f"o{{n}}", "Customer": f"c{{n % 20}}@x",
                                            "LineItem": [{{"Product": "sku-hammer",
                                                           "Quantity": 1}}]}})
        if not out["rejected"]:
            with printing:
                print(n, flush=True)

clients = [threading.Thread(target=client, args=(start + k,)) for k in range(4)]
for each in clients:
    each.start()
for each in clients:
    each.join()
"""


def customers_first(db: Path, count: int) -> None:
    with arest.Tenant.open(ORDERS, db=db) as tenant:
        for n in range(count):
            tenant.call("create:Customer", {"id": f"c{n}@x", "Name": f"C{n}"})


@pytest.mark.parametrize("batch", range(5))
def test_every_acknowledged_command_survives_sigkill(tmp_path: Path, batch: int) -> None:
    db = tmp_path / "shop.db"
    customers_first(db, 20)
    rng = random.Random(batch)
    acknowledged: list[int] = []
    start = 0
    for _ in range(10):
        script = WRITER.format(orders=str(ORDERS), db=str(db))
        child = subprocess.Popen([sys.executable, "-c", script, str(start)],
                                 stdout=subprocess.PIPE, text=True)
        assert child.stdout is not None
        wanted = rng.randint(0, 30)
        seen = 0
        while seen < wanted:
            line = child.stdout.readline()
            if not line:
                break
            acknowledged.append(int(line))
            seen += 1
        os.kill(child.pid, signal.SIGKILL)
        rest, _ = child.communicate()
        acknowledged.extend(int(line) for line in rest.split())  # printed before the kill
        start += 400
    with arest.Tenant.open(ORDERS, db=db) as tenant:
        orders = {item["id"]: item for item in arest.apply(tenant.state, "list:Order", {
            "limit": 100_000})[0]["items"]}
        for n in acknowledged:
            assert f"o{n}" in orders
        for order in orders.values():  # nothing partial: each order whole, with its line item
            assert order["Customer"] and len(order["LineItem"]) == 1
            line_item = arest.apply(tenant.state, "read:LineItem", order["LineItem"][0])[0]
            assert line_item["Order"] == order["id"]
