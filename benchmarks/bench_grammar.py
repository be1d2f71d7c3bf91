"""Grammar benchmark: the CPU time of parsing one new sentence shape.

The shapes are those of the metamodel, the own corpus (``readings/``) and the tutor corpus
(when it is beside the project, or where ``AREST_TUTOR_CORPUS`` says), each masked as the
lexicon masks it.  Candidates, each shape parsed by each in turn, in this process (the
parsers built once, as in use):

* ``exhaustive Earley``: the baseline of every ratio, lark's Earley parser of
  ``forml2.lark`` predicting every rule it may expect (``parser.exhaustive``), the parser
  the package shipped before;
* ``lookahead Earley``: the shipped parser (``parser.parser()``), the same grammar predicting
  with one token of lookahead (``arest/forml2/lookahead.py``).

Each figure is over the shapes: each shape's least CPU time (``time.process_time``) of
``--repeats`` parses, then the median, mean, 90th percentile and most over shapes, in ms.
Every shape is checked to give both the same tree.

Run ``python benchmarks/bench_grammar.py`` (about 20 s on 2 cores).
"""

from __future__ import annotations

import argparse
import os
import pickle
import statistics
import time
from dataclasses import replace
from pathlib import Path

from harness import Column, format_table, percentile
from lark import Lark

from arest.forml2 import metamodel, read
from arest.forml2 import parser as grammar

ROOT = Path(__file__).resolve().parents[1]
TUTOR = Path(os.environ.get("AREST_TUTOR_CORPUS") or ROOT.parent / "shared" / "corpus"
             / "tutor-domains")


def corpus_shapes() -> list[str]:
    """Every sentence shape of the metamodel and both corpora, in a fixed order."""
    files = sorted(ROOT.glob("readings/*/*.md")) + sorted(TUTOR.glob("*.md"))
    shapes = dict.fromkeys(metamodel().shapes)
    empty = replace(metamodel(), shapes={})
    for path in files:
        if path.name != "README.md":
            shapes.update(dict.fromkeys(read(path.read_text("utf-8"), path.name,
                                             known=empty).shapes))
    return list(shapes)


def least_cpu_ms(parser: Lark, masked: str, repeats: int) -> float:
    """The least CPU time of ``repeats`` parses of one shape, in ms."""
    best = float("inf")
    for _ in range(repeats):
        start = time.process_time()
        parser.parse(masked)
        best = min(best, time.process_time() - start)
    return best * 1e3


def main() -> None:
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("--repeats", type=int, default=3, help="parses of each shape")
    repeats = options.parse_args().repeats
    shapes = corpus_shapes()
    candidates = {"exhaustive Earley": grammar.exhaustive(grammar.grammar_text()),
                  "lookahead Earley": grammar.parser()}
    times: dict[str, list[float]] = {name: [] for name in candidates}
    for masked in shapes:
        trees = {pickle.dumps(p.parse(masked)) for p in candidates.values()}
        assert len(trees) == 1, masked
        for name, candidate in candidates.items():
            times[name].append(least_cpu_ms(candidate, masked, repeats))
    rows = {}
    for name, samples in times.items():
        ordered = sorted(samples)
        rows[name] = {"median": statistics.median(ordered), "mean": statistics.mean(ordered),
                      "p90": percentile(ordered, 0.9), "max": ordered[-1]}
    print(f"{len(shapes)} sentence shapes (metamodel, readings/, {TUTOR.name}), "
          f"least of {repeats} parses each, CPU ms")
    print()
    print(format_table(rows, [Column("median", "median ms", "{:,.2f}"),
                              Column("mean", "mean ms", "{:,.2f}"),
                              Column("p90", "p90 ms", "{:,.2f}"),
                              Column("max", "max ms", "{:,.2f}")], "exhaustive Earley"))


if __name__ == "__main__":
    main()
