"""The reducers against a plain Python loop over the same representation.

Two programs, each on identical inputs for every engine (string atoms, decimal arithmetic):

- inner product, ``/+∘α*∘trans`` on ⟨⟨x₁…xₙ⟩, ⟨y₁…yₙ⟩⟩, n = 1e3, 1e4, 1e5;
- a filter, ``(filter gt∘[2, 100̄])`` over n facts ⟨order, amount⟩, n = 1e3, 1e4, 1e5.

Engines: the plain loop (the baseline), the fast evaluator (compiled once, before timing) and
the reference reducer.  Each figure is the median of several runs; ratios are against the
loop at the same n.  Budget: the fast evaluator within 5× of the loop on both programs.

    python benchmarks/bench_reduce.py [--quick] [--repeats 5]
"""

from __future__ import annotations

import argparse
import platform
import random
import statistics
from collections.abc import Callable
from decimal import Decimal

from harness import Column, format_table, time_total_ns

from arest.algebra import apply, evaluate, read
from arest.algebra.numerals import numeral
from arest.algebra.objects import Object

INNER_PRODUCT = read("<COMP, <INSERT, +>, <COMP, <APPLYTOALL, *>, trans>>")
FILTER = read("<FILTER, <COMP, gt, <CONS, 2, <CONST, 100>>>>")
UNLIMITED = 10**12
HUNDRED = Decimal(100)


def vectors(n: int, seed: int) -> Object:
    rng = random.Random(seed)
    return (
        tuple(str(rng.randrange(1000)) for _ in range(n)),
        tuple(str(rng.randrange(1000)) for _ in range(n)),
    )


def facts(n: int, seed: int) -> Object:
    rng = random.Random(seed)
    return tuple((f"ord-{i}", str(rng.randrange(201))) for i in range(n))


def loop_inner_product(x: Object) -> Object:
    xs, ys = x  # type: ignore[misc]
    return numeral(sum((Decimal(a) * Decimal(b) for a, b in zip(xs, ys, strict=True)), Decimal(0)))  # type: ignore[return-value]


def loop_filter(x: Object) -> Object:
    return tuple(fact for fact in x if Decimal(fact[1]) > HUNDRED)  # type: ignore[index, union-attr]


def median_ms(run: Callable[[], Object], repeats: int) -> float:
    return statistics.median(time_total_ns(run) for _ in range(repeats)) / 1e6


def measure(
    program: Object, loop: Callable[[Object], Object], x: Object, repeats: int
) -> dict[str, dict[str, float | str | None]]:
    expected = loop(x)
    assert evaluate(program, x, fuel=UNLIMITED) == expected
    reference_repeats = max(1, repeats // 2)
    assert apply(program, x, fuel=UNLIMITED) == expected
    return {
        "plain loop": {"ms": median_ms(lambda: loop(x), repeats)},
        "fast evaluator": {"ms": median_ms(lambda: evaluate(program, x, fuel=UNLIMITED), repeats)},
        "reference reducer": {
            "ms": median_ms(lambda: apply(program, x, fuel=UNLIMITED), reference_repeats)
        },
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--quick", action="store_true", help="sizes up to 1e4 only")
    parser.add_argument("--repeats", type=int, default=5)
    options = parser.parse_args()
    sizes = [1_000, 10_000] if options.quick else [1_000, 10_000, 100_000]
    print(
        f"Python {platform.python_version()} on {platform.machine()}; median of "
        f"{options.repeats} runs (reference: {max(1, options.repeats // 2)})\n"
    )
    for title, program, loop, make in (
        ("Inner product /+∘α*∘trans", INNER_PRODUCT, loop_inner_product, vectors),
        ("Filter (filter gt∘[2, 100̄]) over facts", FILTER, loop_filter, facts),
    ):
        for n in sizes:
            rows = measure(program, loop, make(n, seed=n), options.repeats)
            for row in rows.values():
                row["ns/element"] = float(row["ms"]) * 1e6 / n  # type: ignore[arg-type]
            print(f"### {title}, n = {n:,}\n")
            print(
                format_table(
                    rows,
                    [
                        Column("ms", "ms", "{:,.2f}"),
                        Column("ns/element", "ns per element", "{:,.0f}", ratio=False),
                    ],
                    "plain loop",
                )
            )
            print()


if __name__ == "__main__":
    main()
