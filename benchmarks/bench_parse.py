"""Read the bundled metamodel and the eight corpus domains; report the wall time.

Baseline in the same run: the same files lexed only (no parsing), so the ratio shows what
the grammar costs.  Run: ``python benchmarks/bench_parse.py``.
"""

from __future__ import annotations

import time
from pathlib import Path

from arest.forml2.document import sentences
from arest.forml2.lexicon import lex
from arest.forml2.parser import keywords, parser
from arest.forml2.reader import read

CORPUS = Path(__file__).resolve().parents[1].parent / "shared" / "corpus" / "tutor-domains"
METAMODEL = Path(__file__).resolve().parents[1] / "arest" / "readings"


def read_all() -> int:
    count = 0
    known = None
    for path in sorted(METAMODEL.glob("*.md")) + sorted(CORPUS.glob("*.md")):
        known = read(path.read_text("utf-8"), path.name, known=known)
        count += len(known.sentences)
    return count


def lex_all() -> int:
    count = 0
    for path in sorted(METAMODEL.glob("*.md")) + sorted(CORPUS.glob("*.md")):
        for sentence in sentences(path.read_text("utf-8")):
            lex(sentence.text, (), keywords())
            count += 1
    return count


def main() -> None:
    parser()  # the grammar is loaded once per process, as package data
    start = time.perf_counter()
    lexed = lex_all()
    baseline = time.perf_counter() - start
    start = time.perf_counter()
    count = read_all()
    elapsed = time.perf_counter() - start
    print(f"lex only: {lexed} sentences in {baseline:.3f} s")
    print(
        f"read metamodel + corpus: {count} sentences in {elapsed:.3f} s"
        f" ({elapsed / baseline:.0f}x lexing)"
    )
    print("under 1 s" if elapsed < 1 else "OVER 1 s")


if __name__ == "__main__":
    main()
