"""BLAKE2b and SHA-256, the digests a start needs, without loading OpenSSL.

``hashlib`` binds every name to OpenSSL's implementation when it can, and importing it
loads and initialises ``_hashlib`` (about 3 ms of every start).  BLAKE2b is CPython's own
``_blake2`` in ``hashlib`` too (``hashlib.blake2b is _blake2.blake2b``); SHA-256 is
CPython's own ``_sha256`` (``_sha2`` from 3.12), which gives the same digests as
OpenSSL's.  Where a build lacks either, ``hashlib``'s is used.

>>> sha256(b"abc").hexdigest()[:16], blake2b(b"abc", digest_size=16).hexdigest()[:16]
('ba7816bf8f01cfea', 'cf4ab791c62b8d2b')
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from hashlib import blake2b, sha256
else:
    try:
        from _blake2 import blake2b
    except ImportError:  # a build without CPython's own BLAKE2
        from hashlib import blake2b
    try:
        from _sha256 import sha256
    except ImportError:
        try:
            from _sha2 import sha256
        except ImportError:  # a build without CPython's own SHA-2
            from hashlib import sha256

__all__ = ["blake2b", "sha256"]
