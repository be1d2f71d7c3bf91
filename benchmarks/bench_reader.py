"""Reader benchmark: how reading one sentence grows with its length.

Two sentence families, each at N = 10, 20, 50, 100 (a sentence joins at most 100 clauses:
``arest.forml2.limits``):

* **rule**: ``* Person is happy iff Person is q0 and Person is q1 and … `` with N ``and``
  clauses, each a declared unary fact type, so the rule reads without a diagnostic;
* **fact type**: ``NA is linked with NB is linked with …``, a reading with N roles.

Candidates, per sentence, in this process (the grammar is loaded once, as in use):

* ``str.split``: the floor of every ratio, the sentence split into words;
* ``lark parse``: the grammar alone, ``parser().parse`` over the sentence as the lexicon
  masks it;
* ``read``: ``arest.forml2.read`` of the sentence on top of its schema (lex, parse,
  interpret; the parse memo starts empty for the sentence).

Each figure is the median CPU time (``time.process_time``) of ``--repeats`` calls in ms,
with the ratio to the baseline row,
then the time per clause (or role) at the largest N and the growth exponent k of t ∝ Nᵏ,
the least-squares slope of log t over log N: 1 is linear, 2 quadratic.

Run ``python benchmarks/bench_reader.py`` (about a minute on 2 cores), ``--quick`` for
N up to 50.
"""

from __future__ import annotations

import argparse
import math
import time
from collections.abc import Callable, Sequence
from pathlib import Path

from harness import Column, format_table, interpreter_facts, publish, summarize

from arest.forml2 import Reading, read
from arest.forml2.lexicon import lex
from arest.forml2.parser import keywords, parser

SIZES = (10, 20, 50, 100)
QUICK = (10, 20, 50)


def rule_family(n: int) -> tuple[str, str]:
    """(schema, rule with n `and` clauses)."""
    schema = "Person(.Name) is an entity type.\nPerson is happy.\n" + "".join(
        f"Person is q{i}.\n" for i in range(n))
    body = " and ".join(f"Person is q{i}" for i in range(n))
    return schema, f"* Person is happy iff {body}."


def fact_type_family(n: int) -> tuple[str, str]:
    """(schema, a fact type reading with n roles)."""
    nouns = [f"N{chr(65 + i % 26)}{chr(65 + i // 26)}" for i in range(n)]
    schema = "".join(f"{noun}(.id) is an entity type.\n" for noun in nouns)
    return schema, nouns[0] + "".join(f" is linked with {noun}" for noun in nouns[1:]) + "."


def growth_exponent(sizes: Sequence[int], times: Sequence[float]) -> float:
    """The least-squares slope of log t over log N.

    >>> round(growth_exponent([10, 20, 40], [1.0, 4.0, 16.0]), 2)
    2.0
    """
    xs = [math.log(n) for n in sizes]
    ys = [math.log(t) for t in times]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True)) / sum(
        (x - mx) ** 2 for x in xs)


def median_ms(step: Callable[[], object], repeats: int) -> float:
    """The median CPU time of ``repeats`` calls, in ms: CPU time, not wall time, so that
    other processes on a shared machine do not lengthen the figures."""
    samples = []
    for _ in range(repeats):
        start = time.process_time_ns()
        step()
        samples.append(time.process_time_ns() - start)
    return summarize(samples).median_ns / 1e6


def measure(family: Callable[[int], tuple[str, str]], sizes: Sequence[int],
            repeats: int) -> dict[str, dict[str, float]]:
    """Per candidate, the median ms at each size."""
    out: dict[str, dict[str, float]] = {"str.split": {}, "lark parse": {}, "read": {}}
    for n in sizes:
        schema, sentence = family(n)
        known: Reading = read(schema)
        masked = lex(sentence, set(known.schema.nouns), keywords()).masked
        reading = read(sentence, known=known)
        assert reading.diagnostics == (), reading.diagnostics
        out["str.split"][str(n)] = median_ms(lambda s=sentence: s.split(), repeats)
        out["lark parse"][str(n)] = median_ms(lambda m=masked: parser().parse(m), repeats)
        out["read"][str(n)] = median_ms(lambda s=sentence, k=known: read(s, known=k), repeats)
        print(f"  N={n}: read {out['read'][str(n)]:.1f} ms", flush=True)
    return out


def table(title: str, unit: str, measured: dict[str, dict[str, float]],
          sizes: Sequence[int]) -> str:
    rows: dict[str, dict[str, float | str | None]] = {}
    for name, by_size in measured.items():
        times = [by_size[str(n)] for n in sizes]
        row: dict[str, float | str | None] = {str(n): by_size[str(n)] for n in sizes}
        row["per"] = by_size[str(sizes[-1])] * 1000 / sizes[-1]
        row["k"] = f"{growth_exponent(sizes, times):.2f}"
        rows[name] = row
    columns = [Column(str(n), f"N={n} ms", "{:,.3f}", ratio=name_ratio(n, sizes))
               for n in sizes]
    columns += [Column("per", f"µs per {unit} at N={sizes[-1]}", "{:,.1f}", ratio=False),
                Column("k", "growth exponent", ratio=False)]
    return f"### {title}\n\n" + format_table(rows, columns, "lark parse")


def name_ratio(n: int, sizes: Sequence[int]) -> bool:
    """A ratio column after the smallest and the largest size only, to keep the table
    narrow."""
    return n in (sizes[0], sizes[-1])


def main() -> None:
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("--quick", action="store_true", help="N up to 50")
    options.add_argument("--repeats", type=int, default=5)
    options.add_argument("--json", type=Path, help="keep the raw figures here")
    args = options.parse_args()
    sizes = QUICK if args.quick else SIZES
    parser()  # the grammar is loaded once per process, as package data
    started = time.perf_counter()
    print("rule with N `and` clauses:")
    rule = measure(rule_family, sizes, args.repeats)
    print("fact type reading with N roles:")
    fact_type = measure(fact_type_family, sizes, args.repeats)
    tables = "\n\n".join((
        table("A rule with N `and` clauses", "clause", rule, sizes),
        table("A fact type reading with N roles", "role", fact_type, sizes),
    ))
    facts = {**interpreter_facts(), "wall time": f"{time.perf_counter() - started:.0f} s"}
    plan = {"sizes": list(sizes), "repeats": args.repeats}
    publish(facts, plan, [{"rule": rule, "fact type": fact_type}], tables, args.json)


if __name__ == "__main__":
    main()
