"""The digest of the asserted facts: what a restart checks its replay against.

The asserted facts of D are the facts of every relation cell whose payload is not a
derivation's support (:func:`arest.system.derive.is_derived`), leaving out the ``asserted:``
cells, which copy a ring's asserted facts for the derivation engine.  Version ``v1`` of the
digest is the sum of one hash per fact, modulo 2²⁵⁶:

    digest(P) = Σ_{(cell, fact) ∈ P} h(cell, fact)  mod 2²⁵⁶,
    h(cell, fact) = BLAKE2b-256 of the UTF-8 of the compact JSON ``[cell,[v₁,…,vₙ]]``
    (no blanks, non-ASCII characters as themselves), read as a big-endian number,

so that digest(P ∪ A ∖ R) = digest(P) + Σ_A h − Σ_R h for facts A entering and R leaving:
a command costs its delta, whatever |P|.  Derived facts are not in it, so a change to the
rules (or to what they derive) leaves it as it was.  It is written ``v1:`` and 64 hex digits.

>>> from arest.algebra import EMPTY_STATE, store
>>> from arest.algebra.relations import Relation
>>> before = store(EMPTY_STATE, "R", Relation.of(2, [("a", "x")]))
>>> after = store(before, "R", before["R"].add(("b", "y")).add(("c", "z"), ("rule", "b")))
>>> delta = asserted_delta(before, after, ["R"])
>>> delta.added, delta.removed
([('R', ('b', 'y'))], [])
>>> advanced(state_digest(before), delta) == state_digest(after)
True
>>> text(state_digest(EMPTY_STATE))
'v1:0000000000000000000000000000000000000000000000000000000000000000'
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from json.encoder import encode_basestring
from typing import Final

from arest.algebra import State
from arest.algebra.relations import ASSERTED, Cell, Fact, Relation
from arest.compiler.cells import is_asserted_cell
from arest.hashes import blake2b
from arest.records import field, mutable_record
from arest.system.derive import is_derived

VERSION: Final = "v1"
MODULUS: Final = 2**256

_H: Final = blake2b(digest_size=32)
"""h's hash with nothing hashed yet: a copy of it hashes a fact as ``blake2b(…,
digest_size=32)`` does (the same state), without reading the parameters again.  Only
copied, never updated, so any thread may copy it."""


def fact_text(cell: str, fact: Fact) -> str:
    """The fact as the compact JSON ``[cell,[values…]]``: what h hashes and the journal keeps.

    >>> fact_text("Customer_has_Name", ("ann@x", "Zoë"))
    '["Customer_has_Name",["ann@x","Zoë"]]'
    """
    return f"[{encode_basestring(cell)},[{','.join(map(encode_basestring, fact))}]]"


def text_hash(encoded: str) -> int:
    """h of a fact given as :func:`fact_text`."""
    digest = blake2b(encoded.encode("utf-8", "surrogatepass"), digest_size=32)
    return int.from_bytes(digest.digest(), "big")


def fact_hash(cell: str, fact: Fact) -> int:
    """h(cell, fact): the fact's share of the digest.

    >>> fact_hash("R", ("a", "x")) == fact_hash("R", ("a", "x")) != fact_hash("R", ("x", "a"))
    True
    """
    return text_hash(fact_text(cell, fact))


def counts(cell: str, contents: Cell | None) -> bool:
    """Whether a cell's facts are in the digest: a relation that is not an ``asserted:`` copy.

    >>> from arest.algebra.relations import Relation
    >>> R = Relation.of(2, [("a", "b")])
    >>> counts("R", R), counts("asserted:R", R), counts("machines", ("Order",))
    (True, False, False)
    """
    return isinstance(contents, Relation) and not is_asserted_cell(cell)


def state_digest(state: State) -> int:
    """digest(P) from scratch: O(|P|), about a microsecond per fact (what a restart pays to
    check a checkpoint), so the loop is :func:`fact_hash` unrolled."""
    total = 0
    number = int.from_bytes
    for cell, contents in state.items():
        if not counts(cell, contents):
            continue
        assert isinstance(contents, Relation)
        head = f"[{encode_basestring(cell)},["
        for fact, _ in contents.plain_items():  # not is_derived: no payload expanded
            encoded = head + ",".join(map(encode_basestring, fact)) + "]]"
            total += number(blake2b(encoded.encode("utf-8", "surrogatepass"),
                                    digest_size=32).digest(), "big")
    return total % MODULUS


@mutable_record
class Delta:
    """The asserted facts a command added and removed, as (cell, fact) pairs; ``exact``
    when they are all it changed (every cell it wrote is a relation whose only changes are
    those facts, plain assertions): then D′ is D with them applied."""

    added: list[tuple[str, Fact]] = field(default_factory=list)
    removed: list[tuple[str, Fact]] = field(default_factory=list)
    exact: bool = False

    def __bool__(self) -> bool:
        return bool(self.added or self.removed)


def asserted_delta(before: State, after: State, cells: Iterable[str]) -> Delta:
    """The asserted facts that entered and left between before and after, looking only at
    the named cells (those the command may have written; the others must be the same).
    Costs the edits between the two versions of each changed relation
    (:meth:`Relation.changes_since`), not their size."""
    delta = Delta(exact=True)
    added, removed = delta.added, delta.removed
    for cell in cells:
        old, new = before.get(cell), after.get(cell)
        if old is new:
            continue
        if is_asserted_cell(cell):
            delta.exact = False
            continue
        if isinstance(old, Relation) and isinstance(new, Relation):
            for fact, was, now in new.changes_since(old):
                if was is None and now is ASSERTED:  # the usual change, a new assertion
                    added.append((cell, fact))
                    continue
                if not (_plain(was) and _plain(now)):
                    delta.exact = False
                # A fact is asserted when it is there with a payload that is no support.
                if (was is not None and not is_derived(was)) != (
                        now is not None and not is_derived(now)):
                    (removed if now is None or is_derived(now) else added).append((cell, fact))
            continue
        delta.exact = False
        if isinstance(old, Relation):
            removed.extend((cell, fact) for fact, _ in old.plain_items())
        if isinstance(new, Relation):
            added.extend((cell, fact) for fact, _ in new.plain_items())
    return delta


def _plain(payload: object) -> bool:
    """Whether a payload is absence or a plain assertion (no derivation's support)."""
    return payload is None or payload is ASSERTED


def advanced(digest: int, delta: Delta) -> int:
    """digest(P) + Σ h(added) − Σ h(removed), modulo 2²⁵⁶."""
    gained = sum(fact_hash(cell, fact) for cell, fact in delta.added)
    return (digest + gained - sum(fact_hash(cell, fact) for cell, fact in delta.removed)
            ) % MODULUS


def recorded(digest: int, delta: Delta) -> tuple[int, str]:
    """The digest after delta, and delta as the journal keeps it: the JSON
    ``{"+": [[cell, [values…]], …], "-": […]}``, empty lists left out (one encoding per fact
    serves both), with ``"exact": true`` when the delta is all the command changed (a
    follower then applies it: :mod:`arest.runtime.effects`).

    >>> recorded(0, Delta(added=[("R", ("a", "x"))]))[1]
    '{"+":[["R",["a","x"]]]}'
    >>> recorded(0, Delta(removed=[("R", ("a", "x"))], exact=True))[1]
    '{"-":[["R",["a","x"]]],"exact":true}'
    """
    parts = []
    for sign, facts in ((1, delta.added), (-1, delta.removed)):
        if facts:
            texts = [fact_text(cell, fact) for cell, fact in facts]
            digest += sign * sum(map(text_hash, texts))
            parts.append(f'"{"+" if sign > 0 else "-"}":[{",".join(texts)}]')
    if delta.exact:
        parts.append('"exact":true')
    return digest % MODULUS, "{" + ",".join(parts) + "}"


def recorded_between(digest: int, before: State, after: State, cells: Collection[str]
                     ) -> tuple[int, str]:
    """``recorded(digest, asserted_delta(before, after, cells))`` in one pass, the same
    digest and text: each fact that entered a relation as a plain assertion written as the
    cell's head and its values, hashed as written, with no :class:`Delta` between.  Any
    other change (a fact removed, a derivation's support, a cell that is no relation, an
    ``asserted:`` copy, no change at all) takes the general path.

    >>> from arest.algebra import EMPTY_STATE, store
    >>> before = store(EMPTY_STATE, "R", Relation.of(2, [("a", "x")]))
    >>> after = store(before, "R", before["R"].add(("b", "y")))
    >>> (recorded_between(5, before, after, ["R"])
    ...  == recorded(5, asserted_delta(before, after, ["R"])))
    True
    >>> recorded_between(0, before, after, ["R"])[1]
    '{"+":[["R",["b","y"]]],"exact":true}'
    """
    texts: list[str] = []
    gained = 0
    number = int.from_bytes
    for cell in cells:
        old, new = before.get(cell), after.get(cell)
        if old is new:
            continue
        if not (isinstance(old, Relation) and isinstance(new, Relation)) or (
                is_asserted_cell(cell)):
            return recorded(digest, asserted_delta(before, after, cells))
        head = f"[{encode_basestring(cell)},["
        for fact, was, now in new.changes_since(old):
            if was is not None or now is not ASSERTED:
                return recorded(digest, asserted_delta(before, after, cells))
            encoded = head + ",".join(map(encode_basestring, fact)) + "]]"
            texts.append(encoded)
            hashed = _H.copy()
            hashed.update(encoded.encode("utf-8", "surrogatepass"))
            gained += number(hashed.digest(), "big")
    if not texts:
        return recorded(digest, asserted_delta(before, after, cells))
    return (digest + gained) % MODULUS, '{"+":[' + ",".join(texts) + '],"exact":true}'


def recorded_assertions(digest: int, before: State, after: State,
                        asserted: Sequence[tuple[str, Fact]]) -> tuple[int, str]:
    """``recorded(digest, asserted_delta(before, after, cells))`` for a command that wrote
    the cells of asserted, in that order, each with its one fact added (a flat create:
    :meth:`arest.system.flat_create.FlatCreate.answer`): the same digest and text, each fact
    written and hashed as given, without walking the cells' changes.  That holds when each
    cell held a relation before and holds one fact more after (so the fact was not there,
    not even as a derivation's support); any other cell takes the general path.

    >>> from arest.algebra import EMPTY_STATE, store
    >>> before = store(EMPTY_STATE, "R", Relation.of(2, [("a", "x")]))
    >>> after = store(before, "R", before["R"].add(("b", "y")))
    >>> (recorded_assertions(5, before, after, [("R", ("b", "y"))])
    ...  == recorded(5, asserted_delta(before, after, ["R"])))
    True
    """
    texts: list[str] = []
    gained = 0
    number = int.from_bytes
    for cell, fact in asserted:
        old, new = before.get(cell), after.get(cell)
        if not (isinstance(old, Relation) and isinstance(new, Relation)) or (
                len(new) != len(old) + 1 or is_asserted_cell(cell)):
            return recorded(digest, asserted_delta(before, after,
                                                   [cell for cell, _ in asserted]))
        encoded = f"[{encode_basestring(cell)},[{','.join(map(encode_basestring, fact))}]]"
        texts.append(encoded)
        try:  # the same bytes as "surrogatepass" gives, where there is no lone surrogate
            data = encoded.encode()
        except UnicodeEncodeError:  # a lone surrogate, which a JSON input may hold
            data = encoded.encode("utf-8", "surrogatepass")
        hashed = _H.copy()
        hashed.update(data)
        gained += number(hashed.digest(), "big")
    if not texts:
        return recorded(digest, asserted_delta(before, after, ()))
    return (digest + gained) % MODULUS, '{"+":[' + ",".join(texts) + '],"exact":true}'


def text(digest: int) -> str:
    """The digest as stored: its version, a colon and 64 hex digits (its 32 bytes in hex,
    which formats them in a quarter of the time ``f"{digest:064x}"`` takes).

    >>> text(2**255 + 10) == f"v1:{2**255 + 10:064x}"
    True
    """
    return f"{VERSION}:{digest.to_bytes(32, 'big').hex()}"


def parsed(stored: str) -> int | None:
    """The digest a stored text holds; None when another version wrote it (it cannot be
    checked by this one).

    >>> parsed(text(255)), parsed("v0:ff")
    (255, None)
    """
    version, _, digits = stored.partition(":")
    return int(digits, 16) if version == VERSION else None
