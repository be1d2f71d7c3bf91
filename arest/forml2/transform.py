"""Parse trees → syntax.

:class:`ToSyntax` reads one tree together with the lexicon's tables (nouns, literals,
words) of the sentence it came from and builds the values of :mod:`arest.forml2.syntax`.
"""

from __future__ import annotations

from typing import Any

from lark import Token, Tree
from lark.exceptions import VisitError
from lark.visitors import Transformer_NonRecursive

from arest.errors import ArestError
from arest.forml2.lexicon import Lexed
from arest.forml2.syntax import (
    Aggregate,
    Bound,
    Clause,
    Comparison,
    Computed,
    Condition,
    Distinct,
    Noun,
    Phrase,
    Statement,
)

_COMPARATORS = {
    "less than": "<",
    "greater than": ">",
    "more than": ">",
    "at least": ">=",
    "at most": "<=",
    "equal to": "=",
    "less than or equal to": "<=",
    "greater than or equal to": ">=",
    "not equal to": "<>",
    "!=": "<>",
}
_NUMBERS = {"one": 1}
_NEGATED = {"=": "<>", "<>": "=", "<": ">=", ">=": "<", ">": "<=", "<=": ">"}


def _text(tree: Tree[Any]) -> str:
    return " ".join(str(t) for t in tree.scan_values(lambda v: isinstance(v, Token)))


class SyntaxProblem(ArestError, ValueError):
    """Raised by :func:`to_syntax` when a sentence parses but what it says holds no value
    (a frequency that is not a whole number); ``column`` is the 1-based column of the
    masked sentence where it is, as lark counts."""

    def __init__(self, column: int, message: str) -> None:
        super().__init__(message)
        self.column = column


class ToSyntax(Transformer_NonRecursive[Token, Statement]):
    """Tree → :class:`Statement`, resolving placeholders through one sentence's tables."""

    def __init__(self, lexed: Lexed) -> None:
        super().__init__()
        self.lexed = lexed

    # ---- tokens -----------------------------------------------------------------------------
    def NOUN(self, token: Token) -> Noun:
        n = self.lexed.nouns[int(token[1:-1])]
        return Noun(n.name, n.subscript, n.plural, n.declared, n.start)

    def LIT(self, token: Token) -> str:
        return "\0" + self.lexed.literals[int(token[1:-1])].value

    def WORD(self, token: Token) -> str:
        return self.lexed.words[token.start_pos or 0]

    # ---- sentence ---------------------------------------------------------------------------
    def start(self, items: list[Any]) -> Statement:
        marker = ""
        annotation = ""
        statement: Statement | None = None
        for item in items:
            if isinstance(item, Statement):
                statement = item
            elif isinstance(item, tuple) and item[0] == "marker":
                marker = item[1]
            elif isinstance(item, tuple) and item[0] == "annotation":
                annotation = item[1]
        assert statement is not None
        return Statement(statement.form, statement.parts, marker, annotation)

    def marker(self, items: list[Token]) -> tuple[str, str]:
        return ("marker", str(items[0]))

    def suffix_marker(self, items: list[tuple[str, str]]) -> tuple[str, str]:
        return items[0]

    def annotation(self, items: list[str]) -> tuple[str, str]:
        return ("annotation", items[0])

    def ring_adj(self, items: list[Token]) -> str:
        return str(items[0])

    # ---- declarations -----------------------------------------------------------------------
    def name(self, items: list[Noun]) -> Noun:
        return items[0]

    def quoted_name(self, items: list[Any]) -> Noun:
        head: Noun = items[0]
        if head.name != "Noun":
            return Noun(f"{head.name} '{items[1][1:]}'", declared=False, offset=head.offset)
        return Noun(items[1][1:], offset=head.offset)

    def literal_name(self, items: list[str]) -> Noun:
        return Noun(items[0][1:])

    def name_list(self, items: list[Noun]) -> tuple[Noun, ...]:
        return tuple(items)

    def refmode(self, items: list[str]) -> tuple[str, ...]:
        return tuple(items)

    def refpart(self, items: list[Any]) -> str:
        item = items[0]
        return item.name if isinstance(item, Noun) else str(item)

    def article(self, items: list[Token]) -> str:
        return str(items[0])

    def exhaustive(self, items: list[Token]) -> str:
        return "exhaustive"

    def _statement(self, form: str, **parts: Any) -> Statement:
        return Statement(form, parts)

    def entity_decl(self, items: list[Any]) -> Statement:
        refs = next((i for i in items[1:] if isinstance(i, tuple)), None)
        where = next((i for i in items[1:] if isinstance(i, Clause)), None)
        return self._statement("entity", noun=items[0], reference=refs, objectifies=where)

    def reserved_decl(self, items: list[Any]) -> Statement:
        det = items[0][0]
        noun = next(i for i in items if isinstance(i, Noun))
        kind = _text_kind(self.lexed.masked)
        return self._statement("reserved", noun=noun, word=det, kind=kind)

    def value_decl(self, items: list[Noun]) -> Statement:
        return self._statement("value", noun=items[0])

    def abstract_decl(self, items: list[Noun]) -> Statement:
        return self._statement("abstract", noun=items[0])

    def subtype_decl(self, items: list[Any]) -> Statement:
        nouns = [i for i in items if isinstance(i, Noun)]
        return self._statement("subtype", sub=nouns[0], sup=nouns[1])

    def partition_decl(self, items: list[Any]) -> Statement:
        return self._statement("partition", sup=items[0], subs=items[1])

    def exclusive_subtypes(self, items: list[Any]) -> Statement:
        return self._statement(
            "exclusive", subs=items[0], sup=items[-1], exhaustive="exhaustive" in items
        )

    def disjunctive_subtypes(self, items: list[Any]) -> Statement:
        nouns = [i for i in items if isinstance(i, Noun)]
        return self._statement("disjunctive", sup=nouns[0], subs=tuple(nouns[1:]))

    def identification(self, items: list[Any]) -> Statement:
        return self._statement("identification", nouns=items[0], noun=items[1])

    def value_constraint(self, items: list[Any]) -> Statement:
        values = tuple(v[1:] if v.startswith("\0") else str(v) for v in items[1:])
        return self._statement("values", noun=items[0], values=values)

    # ---- clauses ----------------------------------------------------------------------------
    def plain(self, items: list[Clause]) -> Statement:
        return self._statement("plain", clauses=tuple(items))

    def np(self, items: list[Noun]) -> Phrase:
        return Phrase(items[0])

    def np_literal(self, items: list[Any]) -> Phrase:
        return Phrase(items[0].noun, literal=items[1][1:], path=items[0].path)

    def np_possessive(self, items: list[Any]) -> Phrase:
        base: Phrase = items[0]
        return Phrase(base.noun, literal=base.literal, path=(*base.path, items[1]))

    def np_relative(self, items: list[Any]) -> Phrase:
        base: Phrase = items[0]
        relative = Clause((Phrase(base.noun, det="that"), items[2]), ("", items[1], ""))
        return Phrase(base.noun, literal=base.literal, path=base.path, relative=relative)

    def pre(self, items: list[str]) -> tuple[str, str]:
        return ("pre", " ".join(items))

    def bound(self, items: list[Token]) -> Bound:
        words = [str(t) for t in items]
        if words[-1] not in _NUMBERS and not words[-1].isdigit():
            raise SyntaxProblem(
                (items[-1].start_pos or 0) + 1,
                f"a frequency counts objects: `{words[-1]}` is not a whole number"
                f" (`{' '.join(words[:-1])} 2`)",
            )
        count = _NUMBERS.get(words[-1]) or int(words[-1])
        head = " ".join(words[:-1])
        column = (items[0].start_pos or 0) + 1
        if head == "at most":
            return Bound(None, count, column)
        if head == "at least":
            return Bound(count, None, column)
        if head == "more than":
            return Bound(count + 1, None, column)
        return Bound(count, count, column)

    def quant(self, items: list[Any]) -> Bound:
        bounds = [b for b in items if isinstance(b, Bound)]
        if len(bounds) == 1:
            return bounds[0]
        low = next((b.low for b in bounds if b.low is not None), None)
        high = next((b.high for b in bounds if b.high is not None), None)
        if low is not None and high is not None and low > high:
            raise SyntaxProblem(
                bounds[0].column,
                f"no number is at least {low} and at most {high}: the frequency's lower bound"
                f" is above its upper (`at least {high} and at most {low}`)",
            )
        return Bound(low, high, bounds[0].column)

    def _det(self, items: list[Any]) -> tuple[str, Bound | None]:
        if isinstance(items[0], Bound):
            return "quant", items[0]
        return " ".join(str(t) for t in items), None

    def fdet(self, items: list[Any]) -> tuple[str, Bound | None]:
        return self._det(items)

    def sdet(self, items: list[Any]) -> tuple[str, Bound | None]:
        return self._det(items)

    def _phrase(self, items: list[Any]) -> Phrase:
        det, bound, pre = "", None, ""
        phrase: Phrase | None = None
        for item in items:
            if isinstance(item, Phrase):
                phrase = item
            elif isinstance(item, tuple) and item[0] == "pre":
                pre = item[1]
            elif isinstance(item, tuple):
                det, bound = item
        assert phrase is not None
        return Phrase(phrase.noun, det, bound, pre, phrase.literal, phrase.path, phrase.relative)

    def head(self, items: list[Any]) -> Phrase:
        return self._phrase(items)

    def term(self, items: list[Any]) -> Phrase:
        return self._phrase(items)

    def dterm(self, items: list[Any]) -> tuple[str, Phrase]:
        return ("", self._phrase(items))

    def itself(self, items: list[Any]) -> Phrase:
        return Phrase(Noun(""), itself=True)

    def words(self, items: list[str]) -> str:
        return " ".join(items)

    def plain_word(self, items: list[Any]) -> str:
        return str(items[0])

    def and_word(self, items: list[Token]) -> str:
        return "and"

    def or_word(self, items: list[Token]) -> str:
        return "or"

    def aggregate_word(self, items: list[Token]) -> str:
        return str(items[0])

    def link(self, items: list[Any]) -> tuple[str, Phrase]:
        return (items[0], items[1])

    def comparator(self, items: list[Token]) -> str:
        text = " ".join(str(t) for t in items)
        return _COMPARATORS.get(text, text)

    def comparison(self, items: list[Any]) -> Comparison:
        operand = items[1]
        if isinstance(operand, Token):
            return Comparison(items[0], str(operand))
        if isinstance(operand, str) and operand.startswith("\0"):
            return Comparison(items[0], operand[1:], quoted=True)
        return Comparison(items[0], operand)

    def tail(self, items: list[Any]) -> tuple[list[tuple[str, Phrase]], str, Comparison | None]:
        links: list[tuple[str, Phrase]] = []
        trailing = ""
        comparison = None
        for item in items:
            if isinstance(item, tuple):
                links.append(item)
            elif isinstance(item, Comparison):
                comparison = item
            elif isinstance(item, Tree):
                links.append(self.link(item.children))
            else:
                trailing = item
        words = trailing.split()
        if comparison is not None and words and words[-1] == "not":
            # `not equal to 0` may parse as the word `not` before `equal to 0`: one meaning.
            trailing = " ".join(words[:-1])
            comparison = Comparison(_NEGATED[comparison.op], comparison.operand, comparison.quoted)
        return links, trailing, comparison

    def clause(self, items: list[Any]) -> Clause:
        head: Phrase = items[0]
        links, trailing, comparison = items[1]
        phrases = (head, *(p for _, p in links))
        words = ("", *(w for w, _ in links), trailing)
        return Clause(phrases, words, comparison)

    def continuation(self, items: list[Any]) -> Clause:
        """A clause without its subject: ``words[i]`` precede ``phrases[i]``."""
        links, trailing, comparison = self.tail(items)
        return Clause(tuple(p for _, p in links), (*(w for w, _ in links), trailing), comparison)

    # ---- constraints ------------------------------------------------------------------------
    def external(self, items: list[Any]) -> Statement:
        nouns = tuple(i for i in items if isinstance(i, Noun))
        clauses = [i for i in items if isinstance(i, Clause)]
        return self._statement(
            "external", nouns=nouns, clause=clauses[0], continuations=tuple(clauses[1:])
        )

    def disjunctive_mandatory(self, items: list[Clause]) -> Statement:
        return self._statement(
            "disjunctive_mandatory", clause=items[0], continuations=tuple(items[1:])
        )

    def setq(self, items: list[Token]) -> str:
        return " ".join(str(t) for t in items)

    def set_comparison(self, items: list[Any]) -> Statement:
        noun = items[0] if isinstance(items[0], Noun) else None
        quant = next(i for i in items if isinstance(i, str))
        clauses = tuple(i for i in items if isinstance(i, Clause))
        return self._statement("set", noun=noun, quant=quant, clauses=clauses)

    def spanning_uc(self, items: list[Any]) -> Statement:
        return self._statement("spanning", clause=items[0], nouns=tuple(items[1:]))

    def spanning_uc_lesson(self, items: list[Any]) -> Statement:
        return self._statement("spanning", clause=items[-1], nouns=tuple(items[:-1]))

    def ring(self, items: list[Any]) -> Statement:
        return self._statement("ring", clause=items[0], kinds=tuple(items[1:]))

    def equality(self, items: list[Clause]) -> Statement:
        return self._statement("equality", left=items[0], right=items[1])

    def conds(self, items: list[Clause]) -> tuple[Clause, ...]:
        return tuple(items)

    def premises(self, items: list[Clause | Distinct]) -> tuple[Clause | Distinct, ...]:
        return tuple(items)

    def distinct(self, items: list[Any]) -> Distinct:
        left, right = (i for i in items if isinstance(i, Noun))
        return Distinct(left, right)

    def consequent(self, items: list[Any]) -> tuple[bool, tuple[Clause, ...]]:
        return (False, items[0])

    def impossible(self, items: list[Any]) -> tuple[bool, tuple[Clause, ...]]:
        return (True, items[0])

    def conditional(self, items: list[Any]) -> Statement:
        impossible, consequent = items[1]
        return self._statement(
            "conditional", antecedent=items[0], consequent=consequent, impossible=impossible
        )

    def deontic_op(self, items: list[Token]) -> str:
        return str(items[0])

    def deontic(self, items: list[Any]) -> Statement:
        body = items[1]
        return self._statement("deontic", op=items[0], body=body)

    def temporal(self, items: list[Any]) -> Statement:
        return self._statement("temporal", clause=items[0], noun=items[1], value=items[2][1:])

    def possibility(self, items: list[Any]) -> Statement:
        return self._statement("possibility", clause=items[0])

    # ---- derivation rules -------------------------------------------------------------------
    def rule_keyword(self, items: list[Token]) -> str:
        return str(items[0])

    def rdet(self, items: list[Token]) -> tuple[str, None]:
        return (str(items[0]), None)

    def rref(self, items: list[Any]) -> Phrase:
        return self._phrase(items)

    def operator(self, items: list[Token]) -> tuple[str, str]:
        return ("op", " ".join(str(t) for t in items))

    def computed(self, items: list[Any]) -> Computed:
        expression: list[Phrase | str] = []
        for item in items[1:]:
            if isinstance(item, tuple):
                expression.append(item[1])
            elif isinstance(item, str) and item.startswith("\0"):
                expression.append("'" + item[1:].replace("'", "''") + "'")
            else:
                expression.append(item if isinstance(item, Phrase) else str(item))
        return Computed(items[0], tuple(expression))

    def aggregate_op(self, items: list[Token]) -> str:
        return {"average": "avg", "minimum": "min", "maximum": "max"}.get(
            str(items[0]), str(items[0])
        )

    def where(self, items: list[Any]) -> tuple[str, tuple[Condition, ...]]:
        return ("where", items[0])

    def aggregate(self, items: list[Any]) -> Aggregate:
        where: tuple[Condition, ...] = ()
        if len(items) > 3:
            where = items[3][1]
        return Aggregate(items[0], items[1], items[2], where)

    def rconj(self, items: list[Condition]) -> tuple[Condition, ...]:
        return tuple(items)

    def rconds(self, items: list[tuple[Condition, ...]]) -> tuple[tuple[Condition, ...], ...]:
        return tuple(items)

    def derivation(self, items: list[Any]) -> Statement:
        return self._statement(
            "derivation", consequent=items[0], keyword=items[1], disjuncts=items[2]
        )


def _text_kind(masked: str) -> str:
    if masked.rstrip(". ").endswith("value type"):
        return "a value type"
    return "abstract" if masked.rstrip(". ").endswith("abstract") else "an entity type"


def to_syntax(tree: Tree[Any], lexed: Lexed) -> Statement:
    """The :class:`Statement` a parse tree of ``lexed`` says; :class:`SyntaxProblem` when
    a piece of it holds no value (lark's ``VisitError`` never leaves: a failure of a
    callback is reported at the sentence, naming the grammar rule it reads)."""
    try:
        return ToSyntax(lexed).transform(tree)
    except VisitError as error:
        if isinstance(error.orig_exc, SyntaxProblem):
            raise error.orig_exc from None
        raise SyntaxProblem(
            1, f"this sentence parses as `{error.rule}` but does not read as one"
            f" ({type(error.orig_exc).__name__}: {error.orig_exc})"
        ) from error
