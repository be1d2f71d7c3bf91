"""The reader is total: any text reads, or raises :class:`ReadingError` with a line and
column; no other exception leaves ``read`` or ``arest.compile``.  Sentences the project
keeps are mutated (words deleted, duplicated, swapped, the sentence cut short, other
characters put in) and read on top of the readings they came from."""

from __future__ import annotations

from contextlib import nullcontext
from functools import cache
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import arest
from arest.forml2 import Reading, ReadingError, metamodel, read
from arest.forml2.document import sentences

ROOT = Path(__file__).resolve().parents[2]
CORPUS = ROOT.parent / "shared" / "corpus" / "tutor-domains"
SHARED_CORPUS = Path("/work/shared/corpus/tutor-domains")
KEPT = (ROOT / "arest/readings/core.md", ROOT / "readings/orders/orders.md",
        ROOT / "tests/transports/readings/tasks.md")
TUTOR = next((c for c in (CORPUS, SHARED_CORPUS) if c.is_dir()), None)
FILES = KEPT + (tuple(sorted(TUTOR.glob("*.md"))) if TUTOR is not None else ())
# Words and characters a sentence is built of, or that the reader writes its masks with.
INSERTS = ("or", "and", "that", "if", "iff", "each", "not", "no", "'s", "'", "(", ",", "*",
           "1.5", "-1", "«0»", "‹0›", "ω", "é")


@cache
def context(path: Path) -> Reading:
    """The file read on top of the metamodel: the nouns a mutated sentence may name."""
    if path.name == "core.md":
        return metamodel()
    return read(path.read_text("utf-8"), str(path), known=metamodel())


SENTENCES = tuple((path, s.text) for path in FILES for s in sentences(path.read_text("utf-8")))

inserted = st.sampled_from(INSERTS) | st.text(min_size=1, max_size=3)
position = st.integers(0, 60)
edit = st.one_of(
    st.tuples(st.just("delete"), position),
    st.tuples(st.just("duplicate"), position),
    st.tuples(st.just("swap"), position, position),
    st.tuples(st.just("truncate"), position),
    st.tuples(st.just("insert"), position, inserted),
    st.tuples(st.just("replace"), position, inserted),
)


def mutated(sentence: str, edits: list[tuple[object, ...]]) -> str:
    """The sentence after the edits, each on its words (positions taken modulo the count)."""
    words = sentence.split(" ")
    for kind, at, *more in edits:
        at = int(str(at)) % max(len(words), 1)
        if kind == "delete" and words:
            del words[at]
        elif kind == "duplicate" and words:
            words.insert(at, words[at])
        elif kind == "swap" and words:
            other = int(str(more[0])) % len(words)
            words[at], words[other] = words[other], words[at]
        elif kind == "truncate":
            words = words[: at + 1]
        elif kind == "insert":
            words.insert(at, str(more[0]))
        elif kind == "replace" and words:
            words[at] = str(more[0])
    return " ".join(words)


def reads_or_refuses(text: str, known: Reading) -> None:
    """Read text; a refusal is diagnostics, each placed at a line and column."""
    diagnostics = read(text, known=known).diagnostics
    assert all(d.line >= 1 and d.column >= 1 for d in diagnostics), diagnostics


@settings(max_examples=120)
@given(st.sampled_from(SENTENCES), st.lists(edit, min_size=1, max_size=4),
       st.booleans())
def test_a_mutated_sentence_reads_or_is_a_reading_error(
        kept: tuple[Path, str], edits: list[tuple[object, ...]], period: bool) -> None:
    path, sentence = kept
    text = mutated(sentence, edits)
    reads_or_refuses(text + ("." if period else ""), context(path))


@settings(max_examples=15)
@given(st.sampled_from(SENTENCES[len(sentences(KEPT[0].read_text("utf-8"))):]),
       st.lists(edit, min_size=1, max_size=3))
def test_compile_raises_only_reading_errors(kept: tuple[Path, str],
                                            edits: list[tuple[object, ...]]) -> None:
    path, sentence = kept
    try:
        arest.compile(path.read_text("utf-8") + "\n" + mutated(sentence, edits) + ".\n")
    except ReadingError as error:
        assert error.diagnostics


@pytest.mark.parametrize("text, message", [
    ("Customer or.", None),
    ("Person is happy iff Person is « rich.", "`«` outside a literal is reserved"),
    ("Customer ‹0› is active.", "`‹` outside a literal is reserved"),
    ("Each Customer has exactly 1.5 Name.", "`1.5` is not a whole number"),
    ("Each Customer has at most -1 Name.", "`-1` is not a whole number"),
    ("* Customer is vip if " + " and ".join(["Customer has Name"] * 1000) + ".",
     "a sentence has at most 10,000"),
    ("* Customer is vip if " + " and ".join(["Customer has Name"] * 101) + ".",
     "a sentence joins at most 100"),
    ("Each Customer has some Name" + " that has Name" * 500 + ".",
     "a sentence nests at most 8"),
    ("Each Customer has at most " + "9" * 5000 + " Name.", "a numeral has at most 1,000"),
    ("The possible values of Age are " + "9" * 5000 + ".", "a numeral has at most 1,000"),
])
def test_texts_that_crashed_the_reader_read_or_are_placed_diagnostics(
        text: str, message: str | None) -> None:
    reading = read(text, known=metamodel())
    if message is not None:
        (diagnostic,) = reading.diagnostics
        assert message in diagnostic.message and diagnostic.line == 1
    with pytest.raises(ReadingError) if reading.diagnostics else nullcontext():
        arest.compile(text)


def test_a_sentence_nested_deeper_than_the_interpreter_stack_reads() -> None:
    reading = read("Customer" + "'s Customer" * 900 + " is big.", known=metamodel())
    (diagnostic,) = reading.diagnostics
    assert "names its nouns plainly" in diagnostic.message
