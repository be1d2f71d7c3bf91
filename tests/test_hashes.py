"""``arest.hashes`` gives hashlib's digests: the same BLAKE2b and SHA-256 of any bytes, fed
at once or in parts."""

from __future__ import annotations

import hashlib

from hypothesis import given
from hypothesis import strategies as st

from arest import hashes


@given(st.lists(st.binary(max_size=300), max_size=4), st.integers(1, 64))
def test_the_digests_are_hashlib_s(parts: list[bytes], size: int) -> None:
    whole = b"".join(parts)
    assert hashes.sha256(whole).hexdigest() == hashlib.sha256(whole).hexdigest()
    assert hashes.blake2b(whole, digest_size=size).digest() == hashlib.blake2b(
        whole, digest_size=size).digest()
    mine, theirs = hashes.sha256(), hashlib.sha256()
    for part in parts:
        mine.update(part)
        theirs.update(part)
    assert mine.hexdigest() == theirs.hexdigest()


def test_a_known_digest() -> None:
    assert hashes.sha256(b"").hexdigest() == (
        "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    assert hashes.blake2b is hashlib.blake2b
