"""The codec keeps D cell for cell: relations, objects, snapshots."""

from hypothesis import given, settings
from hypothesis import strategies as st

import arest
from arest.runtime.codec import decode, encode
from arest.testing import commands, schemas

COMPILED: dict[str, object] = {}


@settings(max_examples=40)
@given(schemas(), st.lists(st.one_of(commands(), st.just(("snapshot", {}))), max_size=8))
def test_decode_inverts_encode(readings, sequence) -> None:  # type: ignore[no-untyped-def]
    if readings not in COMPILED:
        COMPILED[readings] = arest.compile(readings)
    D = COMPILED[readings]
    for key, request in sequence:
        D = arest.apply(D, key, request)[1]  # type: ignore[arg-type]
    again = decode(encode(D))  # type: ignore[arg-type]
    assert again == D
    assert arest.apply(again, "snapshots")[0] == arest.apply(D, "snapshots")[0]  # type: ignore[arg-type]
