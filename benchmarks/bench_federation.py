"""Federation benchmark: ``get`` and ``list`` of a noun backed by an external JSON system
(docs/federation.md), against the same reads of a local noun, in the same run.

One tenant (``:memory:``) holds four nouns of the same shape (an id, a Name, an Email list):

* ``Client``, local: N Clients created through ``tenant.call`` beforehand; the baseline of
  every ratio;
* ``Account``, backed by ``cached`` (``Freshness Seconds '3600'``): after the warm-up every
  read is answered from the federation's cache, nothing is sent;
* ``Customer``, backed by ``crm`` (no freshness: every read revalidates): each read sends
  ``If-None-Match`` and the system answers ``304``, so the cached body is joined again;
* ``Lead``, backed by ``plain``, a system that sends no ETag: each read is a full ``200``
  whose body is parsed and joined.

The external systems are the federation tests' JSON fixture (``tests/federation/json_api.py``)
serving the same N items, each in a process of its own on 127.0.0.1 (allowed by the outbound
policy, ``--allow-outbound 127.0.0.1/32`` in a server), so the fixture's work never shares this
process's interpreter.  Two more rows show the floor of a fetch: ``outbound.fetch`` alone
(the safe GET: resolve, check, connect, read) of the item or the collection, and a bare
``http.client`` GET of the same URL, with no arest at all.

Layers, in the same process with no HTTP: for ``get`` (one item) and ``list`` (N items),
``json.loads`` of the system's body; ``joined`` (the items' facts joined to D,
``arest/system/federated.py``); the ids of the fetched items mapped alone (``item_fields``;
the runtime takes them from the join to mark each entity's ``source``); the command on the
joined D (``arest.apply``); and the same command on the local noun, the baseline.

``get`` reads the entity in the middle of the N; ``list`` reads all N (no limit).  After a
warm-up of every row, the timed calls are sequential and interleaved in blocks (each block
``--block`` calls of one row, the rows' order rotating from round to round), so every row
sees the same machine load.  Every answer is checked: the Name, the ``source`` of a fetched
entity, the total of a list; at the end the fixtures' counts of 200 and 304 answers are
checked against what the rows promise.

Run ``python benchmarks/bench_federation.py`` (N = 1,000; 400 timed gets and 40 timed lists
per row: about 20 s on 2 cores, a minute under load), ``--quick`` for a smoke run, ``--size``
for another N, ``--profile N`` for a cProfile of N gets and N/10 lists of each row but the
floors, ``--json PATH`` to keep the figures.
"""

from __future__ import annotations

import argparse
import cProfile
import http.client
import io
import json
import os
import pstats
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from harness import Column, format_table, interpreter_facts, publish, summarize

SCRIPT = Path(__file__).resolve()
REPO = SCRIPT.parent.parent
CLOCK = "2026-12-02T00:00:00Z"

LOCAL, FRESH, REVALIDATED, FULL = "local", "federated, fresh cache", \
    "federated, 304 revalidated", "federated, full 200"
FETCH, BARE = "outbound.fetch alone (200)", "http.client alone (200)"
ROWS = (LOCAL, FRESH, REVALIDATED, FULL, FETCH, BARE)
NOUN_OF = {LOCAL: "Client", FRESH: "Account", REVALIDATED: "Customer", FULL: "Lead"}
BASELINE = LOCAL

READINGS = """
Client(.Client Id) is an entity type.
Account(.Account Id) is an entity type.
Customer(.Customer Id) is an entity type.
Lead(.Lead Id) is an entity type.
{fields}
Noun 'Account' is backed by External System 'cached'.
External System 'cached' has URL '{etags}'.
External System 'cached' has Freshness Seconds '3600'.
Noun 'Account' has URI '/customers'.

Noun 'Customer' is backed by External System 'crm'.
External System 'crm' has URL '{etags}'.
Noun 'Customer' has URI '/customers'.

Noun 'Lead' is backed by External System 'plain'.
External System 'plain' has URL '{plain}'.
Noun 'Lead' has URI '/customers'.
"""

FIELDS = """{noun} has Name.
  Each {noun} has at most one Name.
{noun} has Email.
"""


@dataclass(frozen=True)
class Plan:
    """How much work the run does."""

    size: int = 1_000
    gets: int = 400
    lists: int = 40
    block: int = 20

    def quick(self) -> Plan:
        """A small N and few calls: a smoke run."""
        return replace(self, size=100, gets=40, lists=6, block=5)


class BadAnswer(RuntimeError):
    """An answer the benchmark meant to be a success was not."""


def _log(message: str) -> None:
    print(f"  [{message}]", file=sys.stderr, flush=True)


def item(number: int) -> dict[str, Any]:
    """The ``number``-th entity, as the systems serve it and as ``create:Client`` takes it.

    >>> item(7)
    {'id': 'c7', 'Name': 'C7', 'Email': ['c7@x.test']}
    """
    return {"id": f"c{number}", "Name": f"C{number}", "Email": [f"c{number}@x.test"]}


def readings(etags: str, plain: str) -> str:
    """The tenant's readings, the two fixtures' URLs in them.

    >>> "External System 'plain' has URL 'http://b'." in readings("http://a", "http://b")
    True
    """
    fields = "\n".join(FIELDS.format(noun=noun) for noun in NOUN_OF.values())
    return READINGS.format(fields=fields, etags=etags, plain=plain)


# the external systems ------------------------------------------------------------------


def serve_fixture(size: int, etags: bool) -> None:
    """Serve the JSON fixture (in this process) until stdin closes; print its port first,
    and at the end how many answers of each status it sent, as JSON."""
    sys.path.insert(0, str(REPO))
    from tests.federation.json_api import Api, serving

    api = Api(collections={"customers": [item(n) for n in range(size)]}, etags=etags)
    with serving(api):
        print(api.port, flush=True)
        sys.stdin.read()
    print(json.dumps(Counter(api.answered)), flush=True)


@contextmanager
def fixture(size: int, etags: bool) -> Iterator[tuple[str, Callable[[], dict[str, int]]]]:
    """A fixture process's URL while the block runs, and what stops it and returns its
    counts of answers by status."""
    process = subprocess.Popen(
        [sys.executable, str(SCRIPT), "--fixture", str(size), *(() if etags else ("--no-etags",))],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert process.stdin is not None and process.stdout is not None
    counts: dict[str, int] = {}

    def stop() -> dict[str, int]:
        if process.poll() is None:
            assert process.stdin is not None and process.stdout is not None
            out, _ = process.communicate(timeout=60)
            counts.update(json.loads(out.strip().splitlines()[-1]))
        return counts

    try:
        port = int(process.stdout.readline())
        yield f"http://127.0.0.1:{port}", stop
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


# the rows ------------------------------------------------------------------------------


def _checked_get(tenant: Any, noun: str, number: int, fetched: bool) -> Callable[[], None]:
    entity = item(number)

    def step() -> None:
        out = tenant.call(f"get:{noun}", entity["id"])
        if out.get("Name") != entity["Name"] or ("source" in out) != fetched:
            raise BadAnswer(f"get:{noun} {entity['id']}: {str(out)[:300]}")
    return step


def _checked_list(tenant: Any, noun: str, size: int, fetched: bool) -> Callable[[], None]:
    def step() -> None:
        out = tenant.call(f"list:{noun}")
        if out.get("total") != size or ("source" in out["items"][0]) != fetched:
            raise BadAnswer(f"list:{noun}: {str(out)[:300]}")
    return step


def _fetch(url: str, policy: Any) -> Callable[[], None]:
    from arest.runtime.outbound import fetch

    def step() -> None:
        response = fetch(url, policy, "bench")
        if response.status != 200 or not response.body:
            raise BadAnswer(f"fetch {url}: {response.status}")
    return step


def _bare(url: str) -> Callable[[], None]:
    parts = urlsplit(url)

    def step() -> None:
        connection = http.client.HTTPConnection(parts.hostname or "", parts.port, timeout=10)
        try:
            connection.request("GET", parts.path, headers={"Accept": "application/json"})
            answer = connection.getresponse()
            body = answer.read()
            json.loads(body)
            if answer.status != 200:
                raise BadAnswer(f"GET {url}: {answer.status}")
        finally:
            connection.close()
    return step


def rows(tenant: Any, etags_url: str, plain_url: str, size: int, policy: Any
         ) -> dict[str, dict[str, Callable[[], None]]]:
    """Each row's step for ``get`` and for ``list``."""
    middle = size // 2
    steps: dict[str, dict[str, Callable[[], None]]] = {"get": {}, "list": {}}
    for row, noun in NOUN_OF.items():
        steps["get"][row] = _checked_get(tenant, noun, middle, row != LOCAL)
        steps["list"][row] = _checked_list(tenant, noun, size, row != LOCAL)
    one, every = f"{plain_url}/customers/{item(middle)['id']}", f"{plain_url}/customers"
    steps["get"][FETCH], steps["list"][FETCH] = _fetch(one, policy), _fetch(every, policy)
    steps["get"][BARE], steps["list"][BARE] = _bare(one), _bare(every)
    return steps


def interleaved(steps: dict[str, Callable[[], None]], calls: int, block: int
                ) -> dict[str, list[int]]:
    """``calls`` timed calls of each step, in blocks of ``block``, the rows' order rotating."""
    clock = time.perf_counter_ns
    samples: dict[str, list[int]] = {row: [] for row in steps}
    names = list(steps)
    for round_ in range(-(-calls // block)):
        shift = round_ % len(names)
        for row in names[shift:] + names[:shift]:
            step = steps[row]
            for _ in range(min(block, calls - len(samples[row]))):
                start = clock()
                step()
                samples[row].append(clock() - start)
    return samples


@contextmanager
def federated_tenant(plan: Plan, etags_url: str, plain_url: str, folder: Path
                     ) -> Iterator[Any]:
    """The tenant of the four nouns, N local Clients created, federating to the fixtures."""
    from arest.runtime.federation import Federation
    from arest.runtime.outbound import Policy, networks
    from arest.runtime.tenant import Tenant

    path = folder / "federation.md"
    path.write_text(readings(etags_url, plain_url))
    with Tenant.open(path, db=":memory:", clock=lambda: CLOCK) as tenant:
        tenant.federate(Federation(Policy(networks(["127.0.0.1/32"])), {}, lambda: CLOCK))
        for number in range(plan.size):
            out = tenant.call("create:Client", item(number))
            if out.get("rejected") is not False:
                raise BadAnswer(f"create:Client {number}: {str(out)[:300]}")
        yield tenant


def measure(plan: Plan, folder: Path) -> dict[str, Any]:
    """Every row's per-call samples for ``get`` and ``list``, and the fixtures' counts."""
    from arest.runtime.outbound import Policy, networks

    policy = Policy(networks(["127.0.0.1/32"]))
    with fixture(plan.size, True) as (etags_url, stop_etags), \
            fixture(plan.size, False) as (plain_url, stop_plain):
        _log(f"tenant: {plan.size:,} local Clients")
        with federated_tenant(plan, etags_url, plain_url, folder) as tenant:
            steps = rows(tenant, etags_url, plain_url, plan.size, policy)
            measured: dict[str, Any] = {}
            for verb, calls in (("get", plan.gets), ("list", plan.lists)):
                _log(f"{verb}: warm-up")
                for step in steps[verb].values():
                    step()
                    step()
                _log(f"{verb}: {calls} timed calls per row")
                measured[verb] = interleaved(steps[verb], calls, plan.block)
            _log("layers, no HTTP")
            parts = layers(tenant, plan)
        answered = {"etags": stop_etags(), "plain": stop_plain()}
    _check_answers(plan, answered)
    return {"samples": measured, "layers": parts, "answered": answered}


LAYERS = ("json.loads of the body", "joined(D, items)", "ids of the items",
          "command on the joined D", "command on the local D")
LAYERS_BASELINE = "command on the local D"


def layers(tenant: Any, plan: Plan) -> dict[str, dict[str, list[int]]]:
    """Each layer's per-call samples (ns) for ``get`` and for ``list`` of the items a fetch
    gives, on the tenant's D, with no HTTP."""
    import arest
    from arest.system.federated import item_fields, joined

    state = tenant.state
    middle = item(plan.size // 2)
    out: dict[str, dict[str, list[int]]] = {}
    for verb, items, calls in (("get", [middle], plan.gets),
                               ("list", [item(n) for n in range(plan.size)], plan.lists)):
        body = json.dumps(items[0] if verb == "get" else items).encode()
        request = middle["id"] if verb == "get" else None
        local = joined(state, "Account", items)
        steps: dict[str, Callable[[], object]] = {
            LAYERS[0]: lambda body=body: json.loads(body),
            LAYERS[1]: lambda items=items: joined(state, "Account", items),
            LAYERS[2]: lambda items=items: {item_fields(state, "Account", each, "$")[0]
                                             for each in items},
            LAYERS[3]: lambda local=local, verb=verb, request=request: arest.apply(
                local, f"{verb}:Account", request),
            LAYERS[4]: lambda verb=verb, request=request: arest.apply(
                state, f"{verb}:Client", request),
        }
        out[verb] = {name: [] for name in steps}
        clock = time.perf_counter_ns
        for name, step in steps.items():
            step()
            for _ in range(calls):
                start = clock()
                step()
                out[verb][name].append(clock() - start)
    return out


def _check_answers(plan: Plan, answered: dict[str, dict[str, int]]) -> None:
    """The fixture with ETags answered each revalidated read 304 (every one after the first
    of each URL) and the fixture without answered every read 200."""
    revalidations = plan.gets + plan.lists + 2  # the warm-up's second call of each verb
    if answered["etags"].get("304", 0) < revalidations:
        raise BadAnswer(f"the revalidated rows were answered {answered['etags']}")
    if set(answered["plain"]) != {"200"}:
        raise BadAnswer(f"the full rows were answered {answered['plain']}")


# profile -------------------------------------------------------------------------------


def profile(plan: Plan, calls: int, folder: Path) -> str:
    """cProfile of ``calls`` calls of each federated row (get, then list): the top functions
    by cumulative time."""
    from arest.runtime.outbound import Policy, networks

    out = io.StringIO()
    policy = Policy(networks(["127.0.0.1/32"]))
    with fixture(plan.size, True) as (etags_url, _), \
            fixture(plan.size, False) as (plain, _), \
            federated_tenant(plan, etags_url, plain, folder) as tenant:
        steps = rows(tenant, etags_url, plain, plan.size, policy)
        for verb in ("get", "list"):
            for row in (LOCAL, FRESH, REVALIDATED, FULL):
                step = steps[verb][row]
                step()
                profiler = cProfile.Profile()
                profiler.enable()
                for _ in range(calls if verb == "get" else max(1, calls // 10)):
                    step()
                profiler.disable()
                out.write(f"\n### {verb}, {row}\n\n```text\n")
                stats = pstats.Stats(profiler, stream=out)
                stats.sort_stats("cumulative").print_stats(18)
                out.write("```\n")
    return out.getvalue()


# reporting -----------------------------------------------------------------------------


def tables(plan: Plan, samples: dict[str, dict[str, list[int]]],
           parts: dict[str, dict[str, list[int]]]) -> str:
    """One table per verb: median and p99 µs per call, each against the local row; and the
    layers' medians against the command on the local D."""
    out = []
    for verb, calls in (("get", plan.gets), ("list", plan.lists)):
        figures = {}
        for row, timings in samples[verb].items():
            summary = summarize(timings)
            figures[row] = {"median": summary.median_ns / 1e3, "p99": summary.p99_ns / 1e3}
        what = "one entity of" if verb == "get" else "all of"
        out.append(f"### `{verb}`, {what} N = {plan.size:,}, {calls} calls per row, µs\n\n"
                   + format_table(figures, [Column("median", "median µs"),
                                            Column("p99", "p99 µs")], BASELINE))
    figures = {name: {verb: summarize(parts[verb][name]).median_ns / 1e3
                      for verb in ("get", "list")} for name in LAYERS}
    out.append(f"### Layers, no HTTP: median µs (`get`: one item, {plan.gets} calls; `list`:"
               f" N = {plan.size:,} items, {plan.lists} calls)\n\n"
               + format_table(figures, [Column("get", "get µs"), Column("list", "list µs")],
                              LAYERS_BASELINE))
    return "\n\n".join(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="a smoke run: N = 100, few calls")
    parser.add_argument("--size", type=int, help="N, the entities of each noun")
    parser.add_argument("--profile", type=int, metavar="CALLS",
                        help="a cProfile of CALLS gets (CALLS/10 lists) of each row instead")
    parser.add_argument("--json", type=Path, help="keep the raw figures here")
    parser.add_argument("--fixture", type=int, metavar="N", help=argparse.SUPPRESS)
    parser.add_argument("--no-etags", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.fixture is not None:
        serve_fixture(args.fixture, not args.no_etags)
        return
    sys.path.insert(0, str(REPO))
    plan = Plan().quick() if args.quick else Plan()
    if args.size:
        plan = replace(plan, size=args.size)
    import tempfile

    with tempfile.TemporaryDirectory() as folder:
        if args.profile:
            print(profile(plan, args.profile, Path(folder)))
            return
        before = os.getloadavg()[0]
        result = measure(plan, Path(folder))
        loads = f"{before:.2f}, {os.getloadavg()[0]:.2f}"
    facts = {**interpreter_facts(), "load average (1 min) before, after": loads}
    publish(facts, asdict(plan), [result], tables(plan, result["samples"], result["layers"]),
            args.json)


if __name__ == "__main__":
    main()
