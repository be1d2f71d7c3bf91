"""The README's examples run as written, from the repository root."""

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def python_blocks() -> list[str]:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    return re.findall(r"```python\n(.*?)```", text, re.S)


@pytest.mark.parametrize("block", python_blocks())
def test_readme_python_blocks_run(block: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(ROOT)
    namespace: dict[str, object] = {}
    exec(compile(block, "README.md", "exec"), namespace)
    assert namespace  # the block ran to its end and defined what it shows


def test_the_order_example_says_what_the_readme_says() -> None:
    import arest

    block = next(b for b in python_blocks() if 'arest.load("readings/orders")' in b)
    D = arest.load(ROOT / "readings" / "orders")
    out, D = arest.apply(D, "create:Customer", {"id": "ann@example.com", "Name": "Ann"})
    out, D = arest.apply(D, "create:Order", {"id": "o-1", "Customer": "ann@example.com",
                                             "LineItem": [{"Product": "sku-hammer",
                                                           "Quantity": 2}]})
    entity = out["entity"]
    assert (entity["status"], entity["Customer"]) == ("Placed", "ann@example.com")
    assert entity["_links"]["pay"] == {"href": "/orders/o-1/transition", "method": "POST",
                                       "event": "pay"}
    assert out["derived"] == [
        {"fact_type": "Customer_has_Unpaid_Order_Count",
         "bindings": {"Customer": "ann@example.com", "Unpaid Order Count": "1"}}]
    why, _ = arest.apply(D, "explain", {"fact_type": "Customer_has_Unpaid_Order_Count",
                                        "bindings": ["ann@example.com", "1"]})
    assert why["derived"] is True
    assert [(a["reading"], a["derived"]) for a in why["antecedents"]] == [
        ("Order 'o-1' was placed by Customer 'ann@example.com'.", False),
        ("Order 'o-1' has Status 'Placed'.", False)]
    out, D = arest.apply(D, "transition:Order", {"id": "o-1", "event": "pay"})
    assert out["entity"]["status"] == "Paid"
    assert arest.apply(D, "query:Customer_has_Unpaid_Order_Count")[0]["rows"] == []
    out, same = arest.apply(D, "transition:Order", {"id": "o-1", "event": "deliver"})
    assert (out["rejected"], out["violations"][0]["kind"], same is D) == (
        True, "transition", True)
    assert out["violations"][0]["reading"] == (
        "Order 'o-1' is Paid: deliver is not legal from there; legal: cancel, ship")
    out, same = arest.apply(D, "create:Order", {"id": "o-2"})
    assert (out["rejected"], out["violations"][0]["reading"], same is D) == (
        True, "Each Order was placed by exactly one Customer.", True)
    for shown in ("Customer_has_Unpaid_Order_Count", "Order 'o-1' has Status 'Placed'.",
                  "legal: cancel, ship", "Each Order was placed by exactly one Customer."):
        assert shown in block


def test_the_readings_the_readme_quotes_are_the_shops() -> None:
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    readings = (ROOT / "readings" / "orders" / "orders.md").read_text(encoding="utf-8")
    quoted = re.findall(r"```text\n(.*?)```", text, re.S)[0]
    lines = {line.strip() for line in readings.splitlines()}
    assert quoted.strip()
    assert [line for line in quoted.splitlines() if line.strip() not in lines] == []


def test_the_client_configuration_starts_a_server(tmp_path: Path) -> None:
    import json
    import shutil
    import subprocess
    import sys

    text = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = [json.loads(b) for b in re.findall(r"```json\n(.*?)```", text, re.S)]
    server = next(b for b in blocks if "command" in b["mcpServers"]["arest"])[
        "mcpServers"]["arest"]
    readings = tmp_path / "readings"
    shutil.copytree(ROOT / "readings" / "orders", readings)
    args = [str(readings) if a == "/absolute/path/to/readings" else a for a in server["args"]]
    assert server["command"] == "/absolute/path/to/.venv/bin/arest"
    command = str(Path(sys.executable).parent / "arest")
    started = subprocess.run([command, *args], input="", capture_output=True, text=True,
                             timeout=60)
    assert started.returncode == 0, started.stderr
    assert "mode local" in started.stderr
    assert (readings / "arest.db").exists()  # the documented default database


def test_the_main_job_serves_the_example_at_the_readme_url(tmp_path: Path) -> None:
    import json
    import shutil

    import anyio
    from mcp.client import Client

    from tests.transports.serving import arest_serve

    text = (ROOT / "README.md").read_text(encoding="utf-8")
    main_job = re.findall(r"```sh\n(.*?)```", text, re.S)[0].strip()
    assert main_job.endswith("pip install . && arest serve readings/orders")
    url = next(b for b in (json.loads(b) for b in re.findall(r"```json\n(.*?)```", text, re.S))
               if "url" in b["mcpServers"]["arest"])["mcpServers"]["arest"]["url"]
    assert url.startswith("http://127.0.0.1:4009/mcp")
    readings = tmp_path / "orders"
    shutil.copytree(ROOT / "readings" / "orders", readings)

    async def listed(base: str) -> list[str]:
        async with Client(url.replace("http://127.0.0.1:4009", base)) as client:
            return [tool.name for tool in (await client.list_tools()).tools]

    with arest_serve(tmp_path, readings) as base:
        tools = anyio.run(listed, base)
    assert "create" in tools and "schema" in tools
    assert (readings / "arest.db").exists()  # SQLite, beside the readings
