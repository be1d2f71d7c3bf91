"""A kept state's digest sealed beside its text, so that a reopen need not recompute it.

A kept base state (the compiled readings, in the database and in ``.arest``) is the JSON text
T of :func:`arest.runtime.codec.encode`; a restart needs the digest d of the asserted facts
it holds (:mod:`arest.runtime.digest`) to check the journal against, about a microsecond per
fact to recompute.  The text is kept with d sealed to it on a first line:

    sealed(T, d)   = SEAL + d + " " + H(d, T) + "\\n" + T
    H(d, T)        = hex BLAKE2b-256 of the UTF-8 of  d + "\\n" + T
    unsealed(S)    = (T, d)     when S = SEAL + d + " " + H(d, T) + "\\n" + T
                   = (T, None)  when S's first line is a seal that does not match T or d
                   = (S, None)  when S has no seal

so d is trusted only for exactly the text it was sealed with: a cell changed on disk (or
the digest itself) breaks the seal and the digest is recomputed from what the text holds,
which the journal's digests then check as before.  Hashing the text costs about a tenth of
recomputing d (one BLAKE2b over the text where d takes one per fact and a JSON text each).

>>> kept = sealed('{"format":"arest-cells-2"}', "v1:" + "0" * 64)
>>> kept.startswith(SEAL), unsealed(kept) == ('{"format":"arest-cells-2"}', "v1:" + "0" * 64)
(True, True)
>>> unsealed(kept.replace("cells-2", "cells-3"))[1] is None
True
>>> unsealed('{"format":"arest-cells-2"}')
('{"format":"arest-cells-2"}', None)
"""

from __future__ import annotations

from typing import Final

from arest.hashes import blake2b

SEAL: Final = "sealed "
"""How a sealed text's first line begins (an encoded state, a JSON object, begins with ``{``)."""


def seal_of(digest: str, encoded: str) -> str:
    """H(d, T): what binds the digest's text to exactly this encoded text."""
    hashed = blake2b(digest.encode("utf-8", "surrogatepass"), digest_size=32)
    hashed.update(b"\n")
    hashed.update(encoded.encode("utf-8", "surrogatepass"))
    return hashed.hexdigest()


def sealed(encoded: str, digest: str) -> str:
    """The encoded text with its digest (as :func:`arest.runtime.digest.text` writes it)
    sealed on a first line."""
    return f"{SEAL}{digest} {seal_of(digest, encoded)}\n{encoded}"


def unsealed(kept: str) -> tuple[str, str | None]:
    """The encoded text a kept text holds, and its digest's text when the seal holds for
    exactly that text and digest (else None: recompute it)."""
    if not kept.startswith(SEAL):
        return kept, None
    first, _, encoded = kept.partition("\n")
    digest, _, seal = first[len(SEAL):].partition(" ")
    return encoded, digest if seal == seal_of(digest, encoded) else None
