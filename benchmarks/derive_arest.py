"""The arest engine of the derivation benchmark: the queries as FORML 2 readings.

- ``tc``: ``Region contains Region`` declared transitive; the closure is derived into the
  same fact type (asserted edges and derived pairs together are the answer);
- ``gp``: ``* Person1 is grandparent of Person3 if Person1 is parent of Person2 and Person2
  is parent of Person3.``

Load compiles the readings, puts the edges into D as facts (``arest.testing.bulk_load``
of the edges by fact type: no validation, no derivation) and builds the indexes the
derivation probes in the relations it keeps (gp's edges; none of tc's, whose closure
``derive_all`` rebuilds with its indexes); derive is ``derive_all``, the from-scratch
fixed point with every derived fact's support (its provenance) recorded; read back is the
fact type's facts.
"""

from __future__ import annotations

from typing import Any

Edge = tuple[str, str]

READINGS = {
    "tc": "Region(.id) is an entity type.\nRegion contains Region.\n"
          "  Region1 contains Region2 is transitive.\n",
    "gp": "Person(.id) is an entity type.\nPerson1 is parent of Person2.\n"
          "Person1 is grandparent of Person2.\n"
          "* Person1 is grandparent of Person3 if Person1 is parent of Person2 "
          "and Person2 is parent of Person3.\n",
}
EDGES = {"tc": "Region_contains_Region", "gp": "Person_is_parent_of_Person"}
ANSWER = {"tc": "Region_contains_Region", "gp": "Person_is_grandparent_of_Person"}


def arest_readings(query: str) -> Any:
    """D of the query's readings, no facts: the compile every load begins with."""
    import arest

    return arest.compile(READINGS[query])


def arest_load(query: str, edges: list[Edge]) -> Any:
    """Compile the readings and load the edges into them (:func:`arest_load_into`)."""
    return arest_load_into(query, arest_readings(query), edges)


def arest_load_into(query: str, readings: Any, edges: list[Edge]) -> Any:
    """The edges loaded into readings compiled before (a tenant over kept compiled
    readings starts from them): their facts, their entities' populations, the indexes the
    derivation probes."""
    from arest.algebra.relations import Relation
    from arest.system.derive import program_of
    from arest.testing import bulk_load

    # The edges are one table's rows: given as its facts by fact type, not as pairs each
    # naming the fact type again.
    D = bulk_load(readings, {EDGES[query]: edges})
    # Loading a table includes the indexes the derivation reads, as the SQL peers' keyed
    # tables and the hand loop's successor dict do: the index of each role some plan probes,
    # in each relation the derivation keeps.  A relation some rule derives into (tc's edges,
    # its closure's asserted part) is rebuilt by ``derive_all`` with its own indexes, so an
    # index of the loaded one would never be read.
    program = program_of(D)
    derived = program.derived()
    for fact_type, roles in program.probed_roles.items():
        relation = D.get(fact_type)
        if fact_type not in derived and isinstance(relation, Relation):
            relation.indexed(roles)
    return D


def arest_derive(query: str, D: Any) -> Any:
    from arest.system.derive import derive_all

    return derive_all(D)


def arest_derive_unindexed(query: str, D: Any) -> Any:
    """``derive_all`` leaving each index of the result to the first plan that probes it:
    the derivation alone, as the peers' derive is (no command follows it here)."""
    from arest.system.derive import derive_all

    return derive_all(D, indexed=False)


def arest_duckdb_derive(query: str, D: Any) -> Any:
    """``derive_all`` with every stratum DuckDB accepts evaluated there, whatever its size:
    the edges sent to DuckDB, the fixed point computed in SQL, the facts and their supports
    read back into D."""
    from arest.system.derive import derive_all

    return derive_all(D, in_duckdb=lambda state, stratum: True)


def arest_export(query: str, D: Any) -> set[Edge]:
    return {(a, b) for a, b in D[ANSWER[query]]}


def arest_adding(edges: list[Edge], added: list[Edge]
                 ) -> tuple[list[tuple[float, float, int, float]], set[Edge]]:
    """The tc closure of edges, then each added edge asserted as a command (validation,
    derivation from its delta, supports): (wall seconds, CPU seconds of the process, facts
    derived, CPU seconds of the garbage collector's full collections inside it) per edge;
    and the closure after the last edge."""
    import gc
    import time

    import arest

    D = arest_derive("tc", arest_load("tc", edges))
    timings: list[tuple[float, float, int, float]] = []
    full: list[float] = []

    def collector(phase: str, info: dict[str, int]) -> None:
        if info["generation"] == 2:
            full.append(time.process_time() * (1 if phase == "stop" else -1))

    gc.callbacks.append(collector)
    try:
        for a, b in added:
            full.clear()
            start, start_cpu = time.perf_counter(), time.process_time()
            out, D = arest.apply(D, "assert", {"fact_type": EDGES["tc"], "bindings": [a, b]})
            timings.append((time.perf_counter() - start, time.process_time() - start_cpu,
                            len(out["derived"]), sum(full)))
            assert not out.get("rejected") and "error" not in out, out
    finally:
        gc.callbacks.remove(collector)
    return timings, arest_export("tc", D)
