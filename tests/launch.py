"""``python -S tests/launch.py SOCKET ARGUMENTS…``: ``python -m arest ARGUMENTS…`` forked by
the fork server listening at SOCKET (``tests/forking.py``), on this process's own standard
streams, so a client sees the server's bytes on the pipes it gave this process.

It hands the three streams over, forwards SIGTERM, SIGINT and SIGHUP to the server, and ends
as the server ends: with its exit code, or by the same signal.  Where the fork server cannot
start it as this process would be started (it is gone, or the environment's PYTHON* settings
differ from those it was started with), this process becomes ``python -m arest ARGUMENTS…``
itself.  It imports the standard library only, and starts without ``site``.
"""

import json
import os
import signal
import socket
import sys

FORWARDED = (signal.SIGTERM, signal.SIGINT, signal.SIGHUP)


def main(path: str, arguments: list[str]) -> None:
    try:
        server = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        server.connect(path)
        request = {"arguments": arguments, "cwd": os.getcwd(), "environ": dict(os.environ)}
        socket.send_fds(server, [json.dumps(request).encode()], [0, 1, 2])
        answer = server.recv(64).decode()
    except OSError:
        answer = ""
    if not answer.startswith("pid "):
        os.execv(sys.executable, [sys.executable, "-m", "arest", *arguments])
    pid = int(answer.split()[1])
    # The server holds the client's pipes now; this process must not keep them open, or
    # the client would wait on this process for the end of the server's output.
    quiet = os.open(os.devnull, os.O_RDWR)
    os.dup2(quiet, 0)
    os.dup2(quiet, 1)
    for signum in FORWARDED:
        signal.signal(signum, lambda received, _: os.kill(pid, received))
    ended = server.recv(64)  # retried after each forwarded signal (PEP 475)
    if not ended:
        os._exit(1)  # the fork server ended first (it stops its servers as it ends)
    how, value = ended.decode().split()
    if how == "signal":
        signal.signal(int(value), signal.SIG_DFL)
        os.kill(os.getpid(), int(value))
    os._exit(int(value) if how == "exit" else 1)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2:])
