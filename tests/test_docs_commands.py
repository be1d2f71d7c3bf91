"""Every shell block of the README and of docs/ works when pasted into a fresh shell, and
every Python block of docs/ runs as written (the README's are run by ``test_readme.py``).

Each block runs in bash (stopping at the first failing command) in a fresh copy of the
repository, with this environment's ``arest`` and ``python`` first on the PATH and nothing
on standard input.  A block of one ``arest serve`` line is a server: it works when it is
still serving, and listening on its port, once it has started.  A block whose every command
starts with ``curl`` is a session against the nearest server before it on the same page (a
server block, or the quick start's install block, whose command ends ``&& arest serve …``):
in the fresh copy that server is started exactly as its command says (on the port it
names, 4009 unless ``--port`` says otherwise, with the ``--db`` it gives, else its default
database, new in the copy), the session runs once it listens, and the server is stopped
after; the session works when every command succeeds.  A session with no server block
before it on its page fails.  The quick start's install blocks are what ``.ci/run`` itself
runs, so they are left to it.
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SKIPPED_DIRS = {".git", ".venv", "node_modules", "__pycache__", ".mypy_cache", ".ruff_cache",
                ".hypothesis", ".pytest_cache", ".import_linter_cache", "build", "dist"}


def blocks() -> list[tuple[str, str, str | None]]:
    """(id, block, server): ``server`` is the server block a curl session runs against, the
    nearest one before it on its page, else None."""
    found: list[tuple[str, str, str | None]] = []
    for page in [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]:
        text = page.read_text(encoding="utf-8")
        server = None
        for index, block in enumerate(re.findall(r"```(?:sh|bash)\n(.*?)```", text, re.S)):
            if "pip install" not in block:
                found.append((f"{page.relative_to(ROOT)}#{index + 1}", block,
                              server if _is_session(block) else None))
            server = _server_command(block) or server
    return found


def _copy(target: Path) -> Path:
    def ignored(folder: str, names: list[str]) -> set[str]:
        return {n for n in names if n in SKIPPED_DIRS or n.endswith((".db", ".db-wal",
                                                                       ".db-shm", ".lock"))}

    shutil.copytree(ROOT, target, ignore=ignored)
    return target


def _environment(home: Path) -> dict[str, str]:
    bin_dir = str(Path(sys.executable).parent)
    return {**{k: v for k, v in os.environ.items()
               if not k.startswith(("AREST_", "PYTEST", "COV_"))},
            "PATH": f"{bin_dir}{os.pathsep}{os.environ['PATH']}", "HOME": str(home)}


def _commands(block: str) -> list[str]:
    lines = [line.split("#")[0].strip() for line in block.replace("\\\n", " ").splitlines()]
    return [line for line in lines if line]


def _is_session(block: str) -> bool:
    commands = _commands(block)
    return bool(commands) and all(re.match(r"curl\b", command) for command in commands)


def _server_command(block: str) -> str | None:
    """The ``arest serve`` command a block of one command runs, alone or after ``&&``."""
    commands = _commands(block)
    if len(commands) != 1:
        return None
    last = commands[0].split("&&")[-1].strip()
    return last if re.match(r"^(\w+=\S+ )*arest serve\b", last) else None


def _serving_port(block: str) -> int | None:
    command = _server_command(block)
    if command is None or "&&" in _commands(block)[0]:
        return None
    port = re.search(r"--port (\d+)", command)
    return int(port.group(1)) if port else 4009


def _listening(port: int) -> bool:
    try:
        socket.create_connection(("127.0.0.1", port), timeout=1).close()
        return True
    except OSError:
        return False


def _start(block: str, copy: Path, env: dict[str, str]) -> subprocess.Popen[str]:
    return subprocess.Popen(["bash", "-e", "-c", block], cwd=copy, env=env,
                            stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, text=True, start_new_session=True)


def _serving(shell: subprocess.Popen[str], port: int) -> bool:
    """Whether the server block's shell is still running and listening, once it has had a
    minute to start."""
    deadline = time.monotonic() + 60
    while not _listening(port) and shell.poll() is None and time.monotonic() < deadline:
        time.sleep(0.2)
    return shell.poll() is None and _listening(port)


def _stop(shell: subprocess.Popen[str]) -> None:
    if shell.poll() is None:
        os.killpg(shell.pid, signal.SIGTERM)
        shell.wait(timeout=30)


def _run(block: str, copy: Path, env: dict[str, str]) -> None:
    shell = _start(block, copy, env)
    try:
        output, _ = shell.communicate(timeout=540)
    finally:
        _stop(shell)
    assert shell.returncode == 0, output


@pytest.mark.slow
@pytest.mark.xdist_group("documented-ports")
@pytest.mark.parametrize(("block", "server"), [(b, s) for _, b, s in blocks()],
                         ids=[i for i, _, _ in blocks()])
def test_a_documented_block_works_as_pasted(block: str, server: str | None,
                                            tmp_path: Path) -> None:
    copy = _copy(tmp_path / "arest")
    env = _environment(tmp_path)
    if _is_session(block):
        assert server is not None, "a curl session needs a server block before it on its page"
        served = _start(server, copy, env)
        try:
            port = _serving_port(server)  # the server's command alone is a server block
            assert port is not None and _serving(served, port), served.communicate(timeout=10)[0]
            _run(block, copy, env)
        finally:
            _stop(served)
        return
    port = _serving_port(block)
    if port is None:
        _run(block, copy, env)
        return
    shell = _start(block, copy, env)
    try:
        assert _serving(shell, port), shell.communicate(timeout=10)[0]
    finally:
        _stop(shell)


def python_blocks() -> list[tuple[str, str]]:
    return [(f"{page.relative_to(ROOT)}#{index + 1}", block)
            for page in sorted((ROOT / "docs").glob("*.md"))
            for index, block in enumerate(re.findall(r"```python\n(.*?)```",
                                                     page.read_text(encoding="utf-8"), re.S))]


@pytest.mark.parametrize("block", [b for _, b in python_blocks()],
                         ids=[i for i, _ in python_blocks()])
def test_a_documented_python_block_runs(block: str, tmp_path: Path,
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(_copy(tmp_path / "arest"))
    namespace: dict[str, object] = {}
    exec(compile(block, "docs", "exec"), namespace)
    assert namespace  # the block ran to its end
