"""The lock file beside a database: one writer at a time, and what it last acknowledged.

``<db>.lock`` (beside the real file, a symlink resolved first) is held with ``flock`` while a
tenant has the database open, so a second opener gets :class:`TenantLocked` naming the
holder.  It also records, after every batch of journal entries is on disk, the last entry
acknowledged and the identity of the database it belongs to::

    process 4242
    acknowledged 50 of database 3f0c…

The record outlives the process (the file stays), so the next open can tell a journal that
lost entries it had acknowledged (a truncated write-ahead log, an older copy of the file put
in its place) from one that never had them (:mod:`arest.runtime.integrity`).  It is written
without an fsync: it follows the journal's own fsync, so it never claims an entry that is not
on disk, and when it is lost the check is only weaker, never wrong.
"""

# No `from __future__ import annotations` here: typing compiles a NamedTuple's annotations
# given as text, and the first compile() of a process sets up the AST's types (about 1.5 ms
# of a reopen; tests/runtime/test_compiled.py checks a reopen compiles nothing).
import contextlib
import fcntl
import mmap
import os
import re
from pathlib import Path
from typing import NamedTuple

from arest.errors import ArestError

_RECORD = re.compile(r"acknowledged (\d+)\s+of database (\w+)")

SEQUENCE_WIDTH = 20
"""The record's sequence field, padded with blanks: every sequence number below 10²⁰ fits."""


class TenantLocked(ArestError, RuntimeError):
    """Raised when a database is already open in another process; names the holder."""


class Acknowledged(NamedTuple):
    """The last journal entry a tenant acknowledged, and the database it belongs to."""

    sequence: int
    database: str


def parsed_record(text: str) -> Acknowledged | None:
    """The acknowledgement a lock file's text records, if any.

    >>> parsed_record("process 7\\nacknowledged 50                   of database ab12\\n")
    Acknowledged(sequence=50, database='ab12')
    >>> parsed_record("process 7") is None
    True
    """
    found = _RECORD.search(text)
    return None if found is None else Acknowledged(int(found[1]), found[2])


class LockFile:
    """``<db>.lock``, held exclusively from construction to :meth:`release`."""

    def __init__(self, database: Path, shown: str | Path) -> None:
        path = database.with_name(database.name + ".lock")
        self._fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(self._fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = self._text().splitlines()[:1] or ["another process"]
            os.close(self._fd)
            raise TenantLocked(f"{shown} is open in {holder[0].strip()}; close it there"
                               " first") from None
        self.previous = parsed_record(self._text())
        """What the last holder recorded (None: nothing, or a lock file of an older arest)."""
        self._database = ""
        self._sequence_at = 0
        """Where the record's sequence field starts."""
        self._map: mmap.mmap | None = None
        """The file, mapped once the first record sized it: a record is then a store to
        the page cache, not a write call, which would update the file's times in the file
        system's journal after every batch (tens of µs right after the journal's fsync)."""

    def _text(self) -> str:
        return os.pread(self._fd, 4096, 0).decode("utf-8", "replace")

    def record(self, sequence: int, database: str) -> None:
        """Note that journal entries up to ``sequence`` of ``database`` are on disk.  The
        record has a fixed width, so one write replaces the one before."""
        self._database = database
        head = f"process {os.getpid():<10}\nacknowledged "
        encoded = f"{head}{sequence:<{SEQUENCE_WIDTH}} of database {database}\n".encode()
        if self._map is None or len(self._map) != len(encoded):
            if self._map is not None:
                self._map.close()
            os.ftruncate(self._fd, len(encoded))  # drops an older arest's longer text
            self._map = mmap.mmap(self._fd, len(encoded))
        self._map[:] = encoded
        self._sequence_at = len(head.encode())

    def acknowledge(self, sequence: int) -> None:
        """:meth:`record` for the database recorded last: only the sequence field changes,
        so only its bytes are stored (the record keeps its width).

        >>> import tempfile
        >>> lock = LockFile(Path(tempfile.mkdtemp()) / "db", "db")
        >>> lock.record(7, "ab12")
        >>> lock.acknowledge(1234)
        >>> parsed_record(lock._text())
        Acknowledged(sequence=1234, database='ab12')
        >>> lock.release()
        """
        field = b"%-*d" % (SEQUENCE_WIDTH, sequence)
        if self._map is None or len(field) != SEQUENCE_WIDTH:
            self.record(sequence, self._database)
            return
        self._map[self._sequence_at:self._sequence_at + SEQUENCE_WIDTH] = field

    def release(self) -> None:
        """Let the database go (the record stays for the next holder to read)."""
        with contextlib.suppress(OSError, BufferError):
            if self._map is not None:
                self._map.close()
        with contextlib.suppress(OSError):
            os.close(self._fd)
