"""``read``: FORML 2 text → constructs, metamodel facts, diagnostics and warnings.

>>> from arest.forml2.reader import read
>>> r = read("Order(.Order Number) is an entity type.\\nOrder Number is a value type.\\n")
>>> [type(c).__name__ for c in r.constructs]
['NounDecl', 'FactTypeDecl', 'NounDecl']
>>> r.diagnostics
()
>>> d = read("Each Order.").diagnostics[0]
>>> (d.line, d.column)
(1, 6)
"""

from __future__ import annotations

from lark import Token, Tree
from lark.exceptions import UnexpectedInput

from arest.forml2 import bad_readings
from arest.forml2.build import Builder, Issue
from arest.forml2.constructs import NounDecl, Source
from arest.forml2.document import Paragraph, paragraphs
from arest.forml2.facts import metamodel_facts
from arest.forml2.interpret import interpret
from arest.forml2.lexicon import STOPWORDS, Lexed, LexError, lex
from arest.forml2.limits import too_large, too_long
from arest.forml2.machines import indistinguishable_transitions, mistyped_statuses
from arest.forml2.parser import Shapes, accepted, keywords, parse_masked
from arest.forml2.reading import Diagnostic as Diagnostic
from arest.forml2.reading import Reading as Reading
from arest.forml2.reading import ReadingError as ReadingError
from arest.forml2.schema import Schema
from arest.forml2.syntax import Statement
from arest.forml2.transform import SyntaxProblem, to_syntax
from arest.forml2.urls import reserved_plurals


def _diagnostic(
    paragraph: Paragraph, path: str, offset: int, message: str, expected: tuple[str, ...] = ()
) -> Diagnostic:
    line, column = paragraph.position(offset)
    return Diagnostic(path, line, column, message, paragraph.text, expected)


def _parse_error(
    error: UnexpectedInput, lexed: Lexed, shapes: Shapes
) -> tuple[str, tuple[str, ...]]:
    """The closest bad-reading label (lark's ``match_examples``) and its accepted forms."""
    label: str | None = None
    if getattr(error, "state", None) is not None:

        def parse(text: str) -> Tree[Token]:
            return parse_masked(lex(text, (), keywords()).masked, {})

        label = error.match_examples(parse, bad_readings.examples(), use_accepts=True)
    if label is None:
        return ("this sentence is not FORML 2 (no sentence form reads it)", bad_readings.GENERAL)
    return label, bad_readings.ACCEPTED.get(label, bad_readings.GENERAL)


def read(
    text: str, path: str = "<readings>", *, known: Reading | None = None, strict: bool = False
) -> Reading:
    """Read FORML 2 text: sentences are lexed, parsed by the one grammar, then interpreted
    in three passes (nouns; fact types; everything else) against ``known``'s schema.

    A quoted declaration (``Noun 'Each Way Bet' is an entity type.``) declares a noun the
    lexicon could not have found unquoted; the text is then lexed again knowing it."""
    first = _read(text, path, known, strict, frozenset())
    before = set(known.schema.nouns) if known is not None else set()
    quoted = frozenset(n for n in first.schema.nouns if n not in before and _lexes_apart(n))
    return _read(text, path, known, strict, quoted) if quoted else first


def _implied_by_references(
    builder: Builder, parsed: list[tuple[Paragraph, Source, Statement]], shapes: Shapes
) -> list[tuple[Paragraph, Source, Statement]]:
    """The constraints a compound reference scheme implies, as the sentences that state them
    (read by the same grammar): each component once per entity, and the combination
    identifying at most one entity.  ``Resource(.Site, .Slug)`` implies ``Each Resource has
    exactly one Site.``, the same for Slug, and ``For each Site and Slug, at most one Resource
    has that Site and has that Slug.``  They are placed at the declaration."""
    where = {source: paragraph for paragraph, source, _ in parsed}
    implied: list[tuple[Paragraph, Source, Statement]] = []
    for source, construct in list(builder.constructs):
        if not (isinstance(construct, NounDecl) and len(construct.reference) > 1
                and source in where):
            continue
        noun, parts = construct.name, construct.reference
        sentences = [f"Each {noun} has exactly one {part}." for part in parts]
        sentences.append(
            f"For each {' and '.join(parts)}, at most one {noun} has "
            + " and has ".join(f"that {part}" for part in parts) + "."
        )
        for sentence in sentences:
            try:
                lexed = lex(sentence, set(builder.schema.nouns), keywords())
                statement = to_syntax(parse_masked(lexed.masked, shapes), lexed)
            except (LexError, UnexpectedInput, SyntaxProblem):
                builder.error(source, f"the reference scheme implies `{sentence}`, which does"
                              " not read; rename its components")
                continue
            implied.append((where[source], Source(source.path, source.line, source.column,
                                                  sentence), statement))
    return implied


def _lexes_apart(name: str) -> bool:
    """Whether a noun's name would not lex as one capitalised run."""
    return any(w in STOPWORDS or not w[:1].isupper() for w in name.split())


def _read(
    text: str, path: str, known: Reading | None, strict: bool, quoted: frozenset[str]
) -> Reading:
    schema = known.schema.copy() if known is not None else Schema()
    shapes: Shapes = dict(known.shapes) if known is not None else {}
    builder = Builder(schema, strict)
    diagnostics: list[Diagnostic] = []
    parsed: list[tuple[Paragraph, Source, Statement]] = []
    names = set(schema.nouns) | quoted
    described: list[Diagnostic] = []
    for paragraph in paragraphs(text):
        if paragraph.kind == "description" and _reads_as_a_sentence(paragraph.text, names, shapes):
            described.append(_diagnostic(
                paragraph, path, 0, "this paragraph is the file's description (the first under"
                " a level-1 heading), so it is not read, though it is a FORML 2 sentence: if it"
                " is one, write a description above it", ("A shop's orders and customers.",)))
            continue
        if paragraph.kind == "unterminated":
            diagnostics.append(
                _diagnostic(
                    paragraph,
                    path,
                    0,
                    "this sentence does not end with a period",
                    ("Order is placed by Customer.",),
                )
            )
            continue
        if paragraph.kind == "unclosed":
            closing = "```" if paragraph.text == "```" else "-->"
            diagnostics.append(_diagnostic(
                paragraph, path, 0, f"this {'code fence' if closing == '```' else 'comment'}"
                f" is never closed, so nothing after it is read: close it with a line {closing}",
                (closing,)))
            continue
        if paragraph.kind != "sentence":
            continue
        beyond = too_long(paragraph.text)
        if beyond is not None:
            diagnostics.append(_diagnostic(paragraph, path, *beyond))
            continue
        source = Source(path, paragraph.line, paragraph.column, paragraph.text)
        try:
            lexed = lex(paragraph.text, names, keywords())
            beyond = too_large(lexed.masked)
            if beyond is not None:
                column, message = beyond
                diagnostics.append(
                    _diagnostic(paragraph, path, lexed.source_offset(column), message))
                continue
            statement = to_syntax(parse_masked(lexed.masked, shapes), lexed)
        except LexError as error:
            diagnostics.append(_diagnostic(paragraph, path, error.offset, str(error)))
            continue
        except UnexpectedInput as error:
            message, expected = _parse_error(error, lexed, shapes)
            offset = lexed.source_offset(getattr(error, "column", 1) or 1)
            diagnostics.append(_diagnostic(paragraph, path, offset, message, expected))
            continue
        except SyntaxProblem as error:
            offset = lexed.source_offset(error.column)
            diagnostics.append(_diagnostic(paragraph, path, offset, str(error)))
            continue
        parsed.append((paragraph, source, statement))
    for _, source, statement in parsed:
        builder.declarations(source, statement)
    for _, source, statement in parsed:
        builder.fact_types(source, statement)
    parsed.extend(_implied_by_references(builder, parsed, shapes))
    # Instance facts first: a state machine's facts declare its noun's `has Status`.
    facts_first = sorted(parsed, key=lambda p: p[2].form != "plain" or not _asserts(p[2]))
    for _, source, statement in facts_first:
        interpret(builder, source, statement)
    fresh = {source for _, source, _ in parsed}
    for source, message in indistinguishable_transitions(schema.machine_facts, fresh):
        builder.error(source, message)
    for source, message in mistyped_statuses(schema.machine_facts, fresh):
        builder.issues.append(Issue(source, 0, message, warning=True))
    # A noun declared on first use (permissive mode, or a reference component) is as much a
    # declaration as a sentence's: it gets its construct, where it was first used.
    for name in sorted(builder.auto_declared):
        builder.emit(schema.nouns[name].source, schema.nouns[name])
    for source, message in reserved_plurals(c for s, c in builder.constructs if s in fresh):
        builder.error(source, message)
    by_source = {source: paragraph for paragraph, source, _ in parsed}
    warnings: list[Diagnostic] = described
    for issue in builder.issues:
        target = warnings if issue.warning else diagnostics
        target.append(_issue(issue, by_source[issue.source], path))
    order = {source: index for index, (_, source, _) in enumerate(parsed)}
    constructs = [c for _, c in sorted(builder.constructs, key=lambda sc: order[sc[0]])]
    facts = tuple(f for c in constructs for f in metamodel_facts(c))
    return Reading(
        tuple(constructs),
        facts,
        tuple(sorted(diagnostics, key=lambda d: (d.line, d.column))),
        tuple(warnings),
        tuple((source, st.form) for _, source, st in parsed),
        schema,
        shapes,
    )


def _reads_as_a_sentence(text: str, names: set[str], shapes: Shapes) -> bool:
    """Whether a paragraph is one sentence of the grammar (a description is prose; one
    that parses would be a sentence the reader skips without a word)."""
    if not text.rstrip().endswith(".") or too_long(text) is not None:
        return False
    try:
        lexed = lex(text, names, keywords())
        if too_large(lexed.masked) is not None:
            return False
        tree = accepted(lexed.masked, shapes)
        if tree is None:
            return False
        to_syntax(tree, lexed)
    except (LexError, SyntaxProblem):
        return False
    return True


def _asserts(statement: Statement) -> bool:
    return any(p.literal is not None for c in statement.parts["clauses"] for p in c.phrases)


def _issue(issue: Issue, paragraph: Paragraph, path: str) -> Diagnostic:
    return _diagnostic(paragraph, path, issue.offset, issue.message)
