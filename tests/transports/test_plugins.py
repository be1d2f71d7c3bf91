"""Transport plugins as a user installs them: a distribution on the path that registers an
entry point in ``arest.transports.web`` or ``arest.transports.process``.  ``arest serve``
mounts every web transport found and lists them in its banner; one that cannot be used
stops ``arest serve`` or ``arest mcp`` with one line and exit code 1."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import httpx2
import pytest

from arest.transports import PROCESS, WEB, plugins, web_transports
from tests.transports.serving import arest_serve, free_port

READINGS = Path(__file__).parent / "readings"

HELLO = '''
from starlette.responses import PlainTextResponse
from starlette.routing import Route

from arest.transports.web import WebRoutes


def routes(web):
    async def hello(request):
        return PlainTextResponse("hello")
    return WebRoutes([Route("/hello", endpoint=hello)])


def again(web):
    return WebRoutes([Route("/mcp", endpoint=lambda request: None)])


def failing(web):
    raise ValueError("no routes today")


NOT_CALLABLE = 42
'''


def distribution(site: Path, group: str, **entries: str) -> Path:
    """A distribution ``plugin`` installed in ``site`` (a folder for PYTHONPATH): the module
    ``hello_plugin`` and the given entry points of ``group``."""
    site.mkdir(exist_ok=True)
    (site / "hello_plugin.py").write_text(HELLO)
    info = site / "plugin-0.dist-info"
    info.mkdir(exist_ok=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: plugin\nVersion: 0\n")
    lines = [f"{name} = {value}" for name, value in entries.items()]
    (info / "entry_points.txt").write_text(f"[{group}]\n" + "\n".join(lines) + "\n")
    return site


def arest(site: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(site)}
    return subprocess.run([sys.executable, "-m", "arest", *args], input="", env=env,
                          capture_output=True, text=True, timeout=60)


def test_arest_registers_stdio_and_the_web_transports_in_their_groups() -> None:
    assert list(plugins(PROCESS)) == ["stdio"]
    assert list(plugins(WEB)) == ["http", "rest", "sse"]
    assert list(web_transports()) == ["http", "rest", "sse"]


def test_serve_mounts_an_installed_web_transport_and_names_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    site = distribution(tmp_path / "site", WEB, hello="hello_plugin:routes")
    monkeypatch.setenv("PYTHONPATH", str(site))
    with arest_serve(tmp_path, READINGS, "--db", ":memory:") as base:
        hello = httpx2.get(f"{base}/hello")
        mcp = httpx2.post(f"{base}/mcp", json={}, headers={"Accept": "application/json"})
    assert hello.status_code == 200 and hello.text == "hello"
    assert mcp.status_code != 404  # arest's own transports are still mounted
    log = next(tmp_path.glob("serve-*.log")).read_text()
    assert "(hello /hello; http /mcp; rest /; sse /sse, /messages)" in log


@pytest.mark.parametrize(("value", "says"), [
    ("no_such_module:routes",
     "the transport 'broken' (no_such_module:routes, group arest.transports.web) cannot be"
     " loaded: ModuleNotFoundError: No module named 'no_such_module'"),
    ("hello_plugin:NOT_CALLABLE", "is not callable: 42"),
    ("hello_plugin:failing",
     "the web transport 'broken' cannot build its routes: ValueError: no routes today"),
    ("hello_plugin:again", "the web transports 'broken' and 'http' both route /mcp"),
])
def test_a_web_transport_that_cannot_be_used_stops_serve_in_one_line(
        tmp_path: Path, value: str, says: str) -> None:
    site = distribution(tmp_path / "site", WEB, broken=value)
    done = arest(site, "serve", str(READINGS), "--db", ":memory:", "--port", str(free_port()))
    assert done.returncode == 1, done.stderr
    assert done.stderr.startswith("arest: ") and done.stderr.count("\n") == 1, done.stderr
    assert says in done.stderr


def test_a_second_stdio_stops_mcp_in_one_line(tmp_path: Path) -> None:
    site = distribution(tmp_path / "site", PROCESS, stdio="hello_plugin:routes")
    done = arest(site, "mcp", str(READINGS), "--db", ":memory:")
    assert done.returncode == 1, done.stderr
    assert done.stderr == ("arest: two entry points in arest.transports.process are named"
                           " 'stdio' (arest.transports.stdio:serve, hello_plugin:routes):"
                           " uninstall one of them\n")
