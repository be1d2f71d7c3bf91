"""Golden files: for every sentence of every corpus file, what it read to, or its diagnostic:
``golden/<file>.txt`` for the tutor corpus, ``golden/readings/<domain>.txt`` for our own.

``AREST_REGENERATE_GOLDEN=1 pytest tests/forml2/test_golden.py`` rewrites them; review the
diff before committing it.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from arest.forml2 import Constraint, Construct, DerivationRule, Reading, metamodel, read, verbalize
from arest.forml2.document import paragraphs
from tests.corpus import EVERY_FILE, corpus_file

GOLDEN = Path(__file__).resolve().parent / "golden"


def golden_file(corpus: str, name: str) -> Path:
    """Where the golden file of a corpus file lives."""
    folder = GOLDEN if corpus == "tutor" else GOLDEN / "readings"
    return folder / f"{Path(name).stem}.txt"


def describe(construct: Construct, known: Reading) -> str:
    """``Kind [details]: verbalization`` for one construct."""
    kind = type(construct).__name__
    detail = ""
    if isinstance(construct, Constraint):
        spans = " | ".join(
            ", ".join(f"{s.fact_type}{list(s.roles)}" for s in clause) for clause in construct.spans
        )
        extra = [construct.kind, construct.modality]
        if construct.operator:
            extra.append(construct.operator)
        detail = f" {' '.join(extra)} {construct.id} spans {spans or construct.noun}"
        for join in construct.joins:
            detail += (
                f" joins {join.left.fact_type}{list(join.left.roles)}"
                f" = {join.right.fact_type}{list(join.right.roles)} in clause {join.clause}"
            )
    elif isinstance(construct, DerivationRule):
        detail = f" {construct.id} derives {construct.consequent.fact_type}"
    elif hasattr(construct, "id"):
        detail = f" {construct.id}"
    return f"  {kind}{detail}: {verbalize(construct, known)}".replace("\n", "\n    ")


def render(path: Path) -> str:
    name = path.name
    text = path.read_text("utf-8")
    known = read(text, name, known=metamodel())
    by_line: dict[int, list[str]] = {}
    for construct in known.constructs:
        source = construct.source
        by_line.setdefault(source.line, []).append(describe(construct, known))
    for diagnostic in known.diagnostics:
        by_line.setdefault(diagnostic.line, []).append(f"  error: {diagnostic.message}")
    for warning in known.warnings:
        by_line.setdefault(warning.line, []).append(f"  warning: {warning.message}")
    for source, form in known.sentences:
        if form == "identification" and source.line not in by_line:
            # The identification sentence marks the objectification of an earlier line.
            by_line[source.line] = ["  identification: makes the objectification identifying"]
    out = [f"# {name}: what each sentence read to (generated; see test_golden.py)", ""]
    for paragraph in paragraphs(text):
        if paragraph.kind not in ("sentence", "unterminated"):
            continue
        lines = by_line.get(paragraph.line) or ["  (nothing)"]
        out.append(f"{paragraph.line}: {paragraph.text}")
        out.extend(lines)
    return "\n".join(out) + "\n"


@pytest.mark.parametrize(("corpus", "name"), EVERY_FILE)
def test_golden(corpus: str, name: str) -> None:
    golden = golden_file(corpus, name)
    rendered = render(corpus_file(corpus, name))
    if os.environ.get("AREST_REGENERATE_GOLDEN") == "1":
        golden.parent.mkdir(exist_ok=True)
        golden.write_text(rendered, "utf-8")
    assert golden.exists(), f"no golden file for {name}: run with AREST_REGENERATE_GOLDEN=1"
    assert rendered == golden.read_text("utf-8")


@pytest.mark.parametrize(("corpus", "name"), EVERY_FILE)
def test_no_sentence_reads_to_nothing(corpus: str, name: str) -> None:
    assert "  (nothing)" not in render(corpus_file(corpus, name))
