"""Earley parsing with one token of lookahead: lark's Earley parser over the one grammar,
predicting at each position only the rules that can begin with the token there.

Lark's Earley predictor adds, for a nonterminal it expects, every rule of that nonterminal's
left closure: where FORML 2 expects a word, that is every keyword that may be a predicate
word, every determiner, every comparator.  Nearly all of them die at the next scan.  Here a
rule is predicted only when the next token is in its FIRST set or the rule derives the empty
string (the classic lookahead on prediction), and a completed symbol finds the items waiting
for it through an index instead of a walk of the column where it began.

An item left out could never scan the next token nor complete, so it adds nothing to the
shared packed parse forest reachable from the root: lark's own ``ForestToParseTree``
resolves the same forest to the same tree.  On bad input the sentence is parsed again by
lark's exhaustive predictor, so an error carries exactly the expected terminals and the
parser state lark reports (what ``match_examples`` compares).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Sequence
from copy import copy
from typing import Any

from lark.exceptions import UnexpectedEOF, UnexpectedInput, UnexpectedToken
from lark.grammar import NonTerminal, Rule, Symbol
from lark.lexer import Token
from lark.parsers import earley
from lark.parsers.earley_common import Item
from lark.parsers.earley_forest import ForestToParseTree, StableSymbolNode, TokenNode

END = "$END"
"""The lookahead past the last token: only rules deriving the empty string are predicted."""

Waiting = dict[str, list[Item]]
"""The items of one Earley set that expect a nonterminal, by its name, in the set's order.
Symbols are keyed by name throughout: a name hashes in C, a lark symbol in Python."""


def first_terminals(
    expansion: Sequence[Symbol], first: dict[Symbol, set[Symbol]], nullable: set[Symbol]
) -> tuple[frozenset[str], bool]:
    """FIRST(α) of an expansion α as terminal names, and whether α ⇒* ε:
    FIRST(Y₁…Yₖ) = FIRST(Y₁) ∪ (FIRST(Y₂…Yₖ) if Y₁ ⇒* ε).

    >>> from lark.grammar import Terminal, NonTerminal
    >>> a, b, x = Terminal("A"), Terminal("B"), NonTerminal("x")
    >>> names, empty = first_terminals([x, b], {x: {a}, b: {b}}, {x})
    >>> sorted(names), empty
    (['A', 'B'], False)
    >>> first_terminals([x], {x: {a}}, {x})
    (frozenset({'A'}), True)
    """
    names: set[str] = set()
    for symbol in expansion:
        names |= {s.name for s in first.get(symbol, {symbol}) if s.is_term}
        if symbol not in nullable:
            return frozenset(names), False
    return frozenset(names), True


def predictions_by_lookahead(
    predictions: dict[NonTerminal, list[Rule]],
    first: dict[Symbol, set[Symbol]],
    nullable: set[Symbol],
) -> dict[tuple[str, str], tuple[Rule, ...]]:
    """⟨nonterminal's name, next terminal's name⟩ → the rules of the nonterminal's
    prediction (its left closure, in lark's order) that begin with that terminal or derive
    the empty string; a pair absent predicts nothing."""
    firsts = {rule: first_terminals(rule.expansion, first, nullable)
              for rules in predictions.values() for rule in rules}
    names = {name for terminals, _ in firsts.values() for name in terminals} | {END}
    table: dict[tuple[str, str], tuple[Rule, ...]] = {}
    for origin, rules in predictions.items():
        for name in names:
            kept = tuple(r for r in rules if firsts[r][1] or name in firsts[r][0])
            if kept:
                table[origin.name, name] = kept
    return table


class LookaheadEarley(earley.Parser):
    """Lark's Earley parser (basic lexer, SPPF, ``ambiguity="resolve"``) predicting with one
    token of lookahead; its trees and its errors are the exhaustive parser's."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.by_lookahead = predictions_by_lookahead(self.predictions, self.FIRST, self.NULLABLE)

    @classmethod
    def like(cls, exhaustive: earley.Parser) -> LookaheadEarley:
        """The lookahead parser of the grammar and options an exhaustive one was built with."""
        return cls(exhaustive.lexer_conf, exhaustive.parser_conf, exhaustive.term_matcher,
                   resolve_ambiguity=exhaustive.resolve_ambiguity, debug=exhaustive.debug,
                   tree_class=exhaustive.Tree,
                   ordered_sets=exhaustive.SymbolNode is StableSymbolNode)

    def parse(self, lexer: Any, start: str) -> Any:
        """The tree of the lexer's text; on bad input, the exhaustive parser's error."""
        try:
            return self.parse_ahead(copy(lexer), start)
        except UnexpectedInput:
            return super().parse(lexer, start)

    def parse_ahead(self, lexer: Any, start: str) -> Any:
        """The tree of the lexer's text, predicting by lookahead; on bad input lark's
        ``UnexpectedInput`` without what was expected (:meth:`parse` asks the exhaustive
        parser for that)."""
        start_symbol = NonTerminal(start)
        tokens = list(lexer.lex(set()))
        ahead = [token.type for token in tokens] + [END]
        first: Any = self.Set()
        to_scan: Any = self.Set()
        for rule in self.by_lookahead.get((start, ahead[0]), ()):
            item = Item(rule, 0, 0)
            (to_scan if _reads_a_terminal(item) else first).add(item)
        columns = [first]
        waiting: list[Waiting] = [{}]
        _wait(waiting[0], first)
        node_cache: dict[Any, Any] = {}
        for i, token in enumerate(tokens):
            self._predict_and_complete(i, to_scan, columns, waiting, node_cache, ahead[i])
            to_scan, node_cache = self._scan(i, token, to_scan, columns, waiting, ahead[i + 1])
        last = len(columns) - 1
        self._predict_and_complete(last, to_scan, columns, waiting, node_cache, END)
        solutions = {item.node: None for item in columns[last] if item.is_complete
                     and item.node is not None and item.s == start_symbol and item.start == 0}
        if len(solutions) != 1:
            raise UnexpectedEOF([])
        solution, = solutions
        if self.Tree is None:
            return solution
        visitor = self.forest_sum_visitor and self.forest_sum_visitor()
        # As lark's parser: no cache when resolving, which would share subtrees wrongly.
        transformer = ForestToParseTree(self.Tree, self.callbacks, visitor,
                                        self.resolve_ambiguity, not self.resolve_ambiguity)
        return transformer.transform(solution)

    def _viable(self, item: Item, lookahead: str) -> bool:
        """Whether an item may still complete: it is complete, or what it expects next can
        begin with the lookahead or derive the empty string."""
        expect = item.expect
        if expect is None:
            return True
        if expect.is_term:
            return bool(expect.name == lookahead)
        return (expect.name, lookahead) in self.by_lookahead

    def _node(self, node_cache: dict[Any, Any], label: tuple[Any, int, int]) -> Any:
        node = node_cache.get(label)
        if node is None:
            node = node_cache[label] = self.SymbolNode(*label)
        return node

    def _predict_and_complete(
        self, i: int, to_scan: Any, columns: list[Any], waiting: list[Waiting],
        node_cache: dict[Any, Any], lookahead: str,
    ) -> None:
        """Lark's predictor and completer over Earley set ``i`` (E. Scott's, with held
        completions for nullable symbols), predicting by ``lookahead``."""
        held_completions: dict[str, Any] = {}
        # A nonterminal predicted once in this set is predicted: lark predicts it again for
        # each item expecting it, and every item that makes is already in the set.
        predicted: set[str] = set()
        column = columns[i]
        items = deque(column)

        def add(new_item: Item) -> None:
            if _reads_a_terminal(new_item):
                to_scan.add(new_item)
            elif new_item not in column:
                column.add(new_item)
                items.append(new_item)
                _wait(waiting[i], (new_item,))

        while items:
            item = items.pop()
            if item.is_complete:
                if item.node is None:
                    item.node = self._node(node_cache, (item.s, item.start, i))
                    item.node.add_family(item.s, item.rule, item.start, None, None)
                if item.start == i:
                    held_completions[item.rule.origin.name] = item.node
                for originator in list(waiting[item.start].get(item.s.name, ())):
                    new_item = originator.advance()
                    if not self._viable(new_item, lookahead):
                        continue
                    new_item.node = self._node(node_cache, (new_item.s, originator.start, i))
                    new_item.node.add_family(new_item.s, new_item.rule, i, originator.node,
                                             item.node)
                    add(new_item)
            else:
                expected = item.expect.name
                rules = () if expected in predicted else self.by_lookahead.get(
                    (expected, lookahead), ())
                new_items = [Item(rule, 0, i) for rule in rules]
                predicted.add(expected)
                if expected in held_completions and self._viable(item.advance(), lookahead):
                    new_item = item.advance()
                    new_item.node = self._node(node_cache, (new_item.s, item.start, i))
                    new_item.node.add_family(new_item.s, new_item.rule, new_item.start,
                                             item.node, held_completions[expected])
                    new_items.append(new_item)
                for new_item in new_items:
                    add(new_item)

    def _scan(
        self, i: int, token: Token, to_scan: Any, columns: list[Any], waiting: list[Waiting],
        lookahead: str,
    ) -> tuple[Any, dict[Any, Any]]:
        """Lark's scanner: the items that read ``token``, advanced into Earley set i + 1,
        those that may go on with the token after it."""
        next_to_scan: Any = self.Set()
        next_set: Any = self.Set()
        columns.append(next_set)
        waiting.append({})
        node_cache: dict[Any, Any] = {}
        terminal = self.lexer_conf.terminals_by_name.get(token.type)
        for item in self.Set(to_scan):
            if not self.term_matcher(item.expect, token):
                continue
            new_item = item.advance()
            if not self._viable(new_item, lookahead):
                continue
            new_item.node = self._node(node_cache, (new_item.s, new_item.start, i + 1))
            new_item.node.add_family(new_item.s, item.rule, new_item.start, item.node,
                                     TokenNode(token, terminal, priority=0))
            if _reads_a_terminal(new_item):
                next_to_scan.add(new_item)
            elif new_item not in next_set:
                next_set.add(new_item)
                _wait(waiting[i + 1], (new_item,))
        if not next_set and not next_to_scan:
            raise UnexpectedToken(token, set())
        return next_to_scan, node_cache


def _reads_a_terminal(item: Item) -> bool:
    """Whether an item expects a terminal next (it goes to the scanner, not to its set)."""
    return item.expect is not None and bool(item.expect.is_term)


def _wait(index: Waiting, items: Iterable[Item]) -> None:
    for item in items:
        if item.expect is not None:
            index.setdefault(item.expect.name, []).append(item)
