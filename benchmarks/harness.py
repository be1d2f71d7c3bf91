"""Shared benchmark helpers: per-call timing, summaries, isolated runs and ratio tables.

A benchmark measures each candidate in a fresh interpreter (``run_isolated``), so memory,
allocator arenas and the garbage collector's generations of one candidate never colour
another's figures, and reports every figure against a named baseline (``format_table``).

Only the harness process may tune its own garbage collector; the code under test never does.

>>> s = summarize([5, 1, 3, 2, 4])
>>> s.median_ns, s.p99_ns, s.mean_ns
(3.0, 5.0, 3.0)
"""

from __future__ import annotations

import json
import math
import os
import platform
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

S = TypeVar("S")
A = TypeVar("A")

__all__ = [
    "Column",
    "Summary",
    "format_ratio",
    "format_table",
    "interpreter_facts",
    "percentile",
    "publish",
    "run_isolated",
    "summarize",
    "time_calls",
    "time_fold",
    "time_total_ns",
    "timer_overhead_ns",
]


@dataclass(frozen=True)
class Summary:
    """Per-call statistics of a list of timings, in nanoseconds."""

    count: int
    mean_ns: float
    median_ns: float
    p99_ns: float
    max_ns: float

    def as_dict(self) -> dict[str, float]:
        """The statistics as a JSON-ready mapping.

        >>> summarize([2, 4]).as_dict()["mean_ns"]
        3.0
        """
        return {
            "count": self.count,
            "mean_ns": self.mean_ns,
            "median_ns": self.median_ns,
            "p99_ns": self.p99_ns,
            "max_ns": self.max_ns,
        }


def percentile(ordered: Sequence[float], fraction: float) -> float:
    """Nearest-rank percentile: the smallest sample with at least ``fraction`` of all at or below.

    ``ordered`` must be sorted and non-empty.

    >>> percentile(list(range(1, 101)), 0.99), percentile([7], 0.99)
    (99, 7)
    """
    rank = max(1, math.ceil(fraction * len(ordered)))
    return ordered[rank - 1]


def summarize(samples_ns: Sequence[int]) -> Summary:
    """Mean, median, p99 (nearest rank) and maximum of per-call timings.

    >>> summarize(list(range(1, 201))).p99_ns
    198.0
    """
    ordered = sorted(samples_ns)
    return Summary(
        count=len(ordered),
        mean_ns=float(statistics.fmean(ordered)),
        median_ns=float(statistics.median(ordered)),
        p99_ns=float(percentile(ordered, 0.99)),
        max_ns=float(ordered[-1]),
    )


def time_calls(step: Callable[[], object], times: int) -> list[int]:
    """Call ``step`` ``times`` times and return each call's duration in ns (``perf_counter_ns``).

    Each sample includes one call of ``step`` and one reading of the clock; see
    ``timer_overhead_ns`` for that floor.

    >>> len(time_calls(lambda: None, 3))
    3
    """
    clock = time.perf_counter_ns
    samples = [0] * times
    for index in range(times):
        start = clock()
        step()
        samples[index] = clock() - start
    return samples


def time_fold(
    step: Callable[[S, A], S], state: S, arguments: Sequence[A],
    clock: Callable[[], int] = time.perf_counter_ns,
) -> tuple[S, list[int]]:
    """Fold ``state = step(state, argument)`` over ``arguments``, timing each step in ns by
    ``clock`` (the wall clock unless told).

    This is how a persistent store is driven: each update returns the next state.  Only the
    call of ``step`` lies between the two clock readings.

    >>> total, samples = time_fold(lambda s, x: s + x, 0, [1, 2, 3])
    >>> total, len(samples)
    (6, 3)
    """
    samples = [0] * len(arguments)
    for index, argument in enumerate(arguments):
        start = clock()
        state = step(state, argument)
        samples[index] = clock() - start
    return state, samples


def time_total_ns(body: Callable[[], object]) -> int:
    """Wall time of one call of ``body``, in ns.

    >>> time_total_ns(lambda: None) >= 0
    True
    """
    start = time.perf_counter_ns()
    body()
    return time.perf_counter_ns() - start


def timer_overhead_ns(times: int = 100_000) -> float:
    """Median ns that ``time_calls`` reports for a call that does nothing: the timing floor.

    >>> timer_overhead_ns(100) >= 0
    True
    """
    return summarize(time_calls(lambda: None, times)).median_ns


def interpreter_facts() -> dict[str, str]:
    """The interpreter, platform and cores a benchmark ran on.

    >>> sorted(interpreter_facts())
    ['cores (nproc)', 'platform', 'python']
    """
    return {
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "platform": platform.platform(),
        "cores (nproc)": str(os.cpu_count()),
    }


def publish(
    facts: Mapping[str, str], plan: Mapping[str, Any], results: Sequence[Any], tables: str,
    json_path: Path | None,
) -> None:
    """Print the run's facts and tables; keep the raw results as JSON when asked."""
    if json_path is not None:
        json_path.write_text(
            json.dumps({"machine": dict(facts), "plan": dict(plan), "results": list(results)},
                       indent=1)
        )
    print("\n".join(f"- {key}: {value}" for key, value in facts.items()))
    print()
    print(tables)


_CHILD = """\
import importlib.util, json, sys
from pathlib import Path
script, function, kwargs, out = sys.argv[1:5]
# The arest measured is the one PYTHONPATH or the installation names, never a tree that
# happens to be the folder the benchmark was started from ("" heads sys.path under -c).
if sys.path and sys.path[0] == "":
    del sys.path[0]
sys.path.insert(0, str(Path(script).parent))
spec = importlib.util.spec_from_file_location("_isolated_benchmark", script)
module = sys.modules[spec.name] = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
result = getattr(module, function)(**json.loads(kwargs))
Path(out).write_text(json.dumps(result))
"""


def run_isolated(
    script: Path, function: str, kwargs: Mapping[str, Any], *, hash_seed: str = "0"
) -> Any:
    """``function(**kwargs)`` from ``script``, run in a fresh interpreter; its JSON result.

    The child inherits stdout and stderr (so progress lines show) and runs with a fixed
    ``PYTHONHASHSEED`` so that string-keyed maps hash the same on every run.  A child that
    fails raises ``subprocess.CalledProcessError``.
    """
    env = {**os.environ, "PYTHONHASHSEED": hash_seed}
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "result.json"
        arguments = [str(script), function, json.dumps(kwargs), str(out)]
        subprocess.run([sys.executable, "-c", _CHILD, *arguments], env=env, check=True)
        return json.loads(out.read_text())


def format_ratio(ratio: float) -> str:
    """A ratio with two decimals, whole above 100, two significant digits below 0.01.

    >>> format_ratio(2.5), format_ratio(67212.25), format_ratio(0.000234)
    ('2.50×', '67,212×', '0.00023×')
    """
    if ratio >= 100:
        return f"{ratio:,.0f}×"
    if ratio >= 0.01 or ratio == 0:
        return f"{ratio:.2f}×"
    return f"{ratio:.2g}×"


@dataclass(frozen=True)
class Column:
    """One table column: the row key it shows, its header, its format, and whether a ratio
    column against the baseline row follows it."""

    key: str
    header: str
    fmt: str = "{:,.1f}"
    ratio: bool = True


def format_table(
    rows: Mapping[str, Mapping[str, float | str | None]],
    columns: Sequence[Column],
    baseline: str,
    *,
    label: str = "",
) -> str:
    """A Markdown pipe table, one row per entry of ``rows``, with ratios against ``baseline``.

    A missing or ``None`` value prints as ``—``; so does a ratio with no numeric baseline
    value.  A string value prints as it is, without a ratio.

    >>> print(format_table({"dict": {"t": 2.0}, "map": {"t": 5.0}}, [Column("t", "µs")], "dict"))
    |      | µs  | × dict |
    |------|-----|--------|
    | dict | 2.0 | 1.00×  |
    | map  | 5.0 | 2.50×  |
    """
    header = [label]
    for column in columns:
        header.append(column.header)
        if column.ratio:
            header.append(f"× {baseline}")
    base = rows.get(baseline, {})
    body: list[list[str]] = []
    for name, values in rows.items():
        cells = [name]
        for column in columns:
            value = values.get(column.key)
            if value is None:
                cells.append("—")
            elif isinstance(value, str):
                cells.append(value)
            else:
                cells.append(column.fmt.format(value))
            if column.ratio:
                reference = base.get(column.key)
                if (
                    isinstance(value, int | float)
                    and isinstance(reference, int | float)
                    and reference
                ):
                    cells.append(format_ratio(value / reference))
                else:
                    cells.append("—")
        body.append(cells)
    widths = [max(len(line[i]) for line in [header, *body]) for i in range(len(header))]

    def line(cells: Sequence[str]) -> str:
        return "| " + " | ".join(c.ljust(w) for c, w in zip(cells, widths, strict=True)) + " |"

    rule = "|" + "|".join("-" * (w + 2) for w in widths) + "|"
    return "\n".join([line(header), rule, *(line(cells) for cells in body)])
