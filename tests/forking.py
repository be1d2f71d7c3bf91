"""Real ``arest`` servers for the tests without paying a fresh interpreter's imports each time.

The tests start about a hundred ``arest serve`` and ``arest mcp`` processes, and most of each
start (about 1.8 s of CPU) is importing the MCP SDK and the web stack.  So each test process
keeps one fork server: a process that has imported arest's command and the modules its
servers load, and that forks one child per start asked, the child running
``python -m arest ARGUMENTS…`` (``arest.cli.main``) in the asking process's working folder and
environment, on the standard streams it handed over.  The child is a real process serving
real sockets and pipes; what it skips is only the interpreter's start and the imports.

:func:`arest_command` gives the command line that does this: ``tests/launch.py``, a
standard-library script that hands its streams to the fork server and ends as the server
ends.  A test of the start itself (the command line, the signals, ``--help``) runs
``python -m arest`` as it is.

    python -m tests.forking SOCKET     the fork server (started by :func:`arest_command`)
"""

from __future__ import annotations

import atexit
import gc
import json
import os
import selectors
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import threading
from contextlib import suppress
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
LAUNCH = Path(__file__).with_name("launch.py")

PRELOADED = ("arest.cli", "arest.transports.web", "arest.transports.sessions",
             "arest.transports.tenants", "arest.transports.remote", "arest.transports.stdio",
             "uvicorn", "mcp.server.stdio", "mcp.client.streamable_http")
"""What the fork server imports before it forks: the command and what ``serve`` and ``mcp``
(local and remote) import when they run."""

POLL = 0.02
"""Seconds between the fork server's looks for children that ended."""


def arest_command(*arguments: str) -> list[str]:
    """The command line that runs ``python -m arest ARGUMENTS…`` through this process's fork
    server (started on first use)."""
    return [sys.executable, "-S", str(LAUNCH), _fork_server(), *arguments]


_started: dict[str, str] = {}
_lock = threading.Lock()


def _fork_server() -> str:
    """The socket of this process's fork server, started and waited for on first use, and
    stopped when this process ends."""
    with _lock:
        if "socket" not in _started:
            folder = tempfile.mkdtemp(prefix="arest-fork-")
            path = os.path.join(folder, "socket")
            server = subprocess.Popen([sys.executable, "-m", "tests.forking", path], cwd=ROOT,
                                      stdin=subprocess.DEVNULL, stdout=subprocess.PIPE)
            assert server.stdout is not None
            if server.stdout.readline() != b"ready\n":
                raise RuntimeError(f"the fork server did not start (exit {server.wait()})")
            atexit.register(_stop, server, folder)
            _started["socket"] = path
        return _started["socket"]


def _stop(server: subprocess.Popen[bytes], folder: str) -> None:
    server.terminate()
    server.wait()
    shutil.rmtree(folder, ignore_errors=True)


# the fork server ---------------------------------------------------------------------------

def _settings(environ: dict[str, str]) -> dict[str, str]:
    """The environment's settings a started interpreter reads once (sys.path, hashing, …)."""
    return {name: value for name, value in environ.items() if name.startswith("PYTHON")}


def serve(path: str) -> None:
    """Fork a ``python -m arest`` child for each request on the socket at path, until the
    process that started this one ends (then its children are stopped too).

    A request is one message: ``{"arguments", "cwd", "environ"}`` and three file descriptors,
    the child's standard streams.  The answer is ``pid N``, or ``exec`` where a child would
    not start as a fresh interpreter would (the environment's PYTHON* settings differ), then
    when the child ends ``exit CODE`` or ``signal N``.  Where the asker goes away first, the
    child is killed.
    """
    for name in PRELOADED:
        __import__(name)
    # What the children inherit is left out of their collections, as a server freezes what
    # it opened (``arest.cli._open``): else each child's exit walks it all (0.7 s).
    gc.freeze()
    settings = _settings(dict(os.environ))
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    listener.bind(path)
    listener.listen(64)
    parent = os.getppid()
    selector = selectors.DefaultSelector()
    selector.register(listener, selectors.EVENT_READ)
    askers: dict[int, socket.socket] = {}
    sys.stdout.write("ready\n")
    sys.stdout.flush()
    while os.getppid() == parent:
        for key, _ in selector.select(POLL):
            if key.fileobj is listener:
                asker, _ = listener.accept()
                pid = _fork(asker, settings, selector)
                if pid:
                    askers[pid] = asker
                    selector.register(asker, selectors.EVENT_READ, pid)
                else:
                    asker.close()
            else:
                # An asker never writes again: readable means it went away.
                selector.unregister(key.fileobj)
                _kill(key.data, signal.SIGKILL)
        _reap(askers, selector)
    for pid in askers:
        _kill(pid, signal.SIGKILL)
    with suppress(OSError):  # the process that started this one may have ended unannounced
        shutil.rmtree(os.path.dirname(path))


def _fork(asker: socket.socket, settings: dict[str, str], selector: selectors.BaseSelector
          ) -> int:
    """Read asker's request and fork its child; the child's pid, or 0 where none started.
    In the child this does not return: the child runs the command and ends the process."""
    message, fds, _, _ = socket.recv_fds(asker, 1 << 20, 3)
    try:
        request = json.loads(message)
        if len(fds) != 3 or _settings(request["environ"]) != settings:
            asker.send(b"exec")
            return 0
        pid = os.fork()
        if pid == 0:
            for key in list(selector.get_map().values()):
                key.fileobj.close()  # type: ignore[union-attr]  # sockets, all of them
            selector.close()
            asker.close()
            _run(request, fds)
        asker.send(f"pid {pid}".encode())
        return pid
    finally:
        for fd in fds:
            os.close(fd)


def _run(request: dict[str, Any], fds: list[int]) -> None:
    """In a forked child: become ``python -m arest ARGUMENTS…`` as asked, and end the
    process as that command ends it (through the interpreter's own exit)."""
    for target, fd in enumerate(fds):
        os.dup2(fd, target)
    os.chdir(request["cwd"])
    os.environ.clear()
    os.environ.update(request["environ"])
    arguments: list[str] = request["arguments"]
    sys.argv = [str(ROOT / "arest" / "__main__.py"), *arguments]
    from arest.cli import main

    main(args=arguments, prog_name="python -m arest")
    raise SystemExit(0)  # click ends the process itself; the child must never return


def _reap(askers: dict[int, socket.socket], selector: selectors.BaseSelector) -> None:
    """Tell each asker whose child ended how it ended, and forget it."""
    while askers:
        pid, status = os.waitpid(-1, os.WNOHANG)
        if pid == 0:
            return
        asker = askers.pop(pid, None)
        if asker is None:
            continue
        code = os.waitstatus_to_exitcode(status)
        with suppress(OSError):
            asker.send(f"exit {code}".encode() if code >= 0 else f"signal {-code}".encode())
        with suppress(KeyError):
            selector.unregister(asker)
        asker.close()


def _kill(pid: int, signum: int) -> None:
    with suppress(OSError):
        os.kill(pid, signum)


if __name__ == "__main__":
    serve(sys.argv[1])
