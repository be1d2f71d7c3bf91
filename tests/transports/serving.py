"""A real ``arest serve`` (or the conformance suite's server) for tests: started on a free
port of 127.0.0.1, stopped after."""

from __future__ import annotations

import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tests.forking import arest_command


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


ROOT = Path(__file__).resolve().parents[2]


@contextmanager
def arest_serve(log_dir: Path, readings: Path, *options: str,
                program: tuple[str, ...] = ("arest", "serve")) -> Iterator[str]:
    """A running ``arest serve READINGS OPTIONS…`` (forked by this process's fork server,
    ``tests/forking.py``), or ``python -m PROGRAM …``, from the repository's root; its base
    URL.  Its output goes to a log in log_dir, shown when it
    does not start."""
    port = free_port()
    log = (log_dir / f"serve-{port}.log").open("w+")
    arguments = (*program[1:], str(readings), "--port", str(port), *options)
    command = arest_command(*arguments) if program[0] == "arest" \
        else [sys.executable, "-m", program[0], *arguments]
    process = subprocess.Popen(command, stdout=log, stderr=subprocess.STDOUT, cwd=ROOT)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=1).close()
                break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    log.seek(0)
                    raise RuntimeError(f"arest serve did not start: {log.read()}") from None
                time.sleep(0.1)
        yield f"http://127.0.0.1:{port}"
    finally:
        process.terminate()
        process.wait(timeout=30)
        log.close()
