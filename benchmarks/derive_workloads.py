"""The derivation benchmark's inputs: binary facts as lists of ``(str, str)`` edges.

Every generator is a pure function of its size and seed, so each engine, in its own process,
reads the same facts in the same order:

- ``tc_dag(n)``: Region contains Region, a random recursive DAG; the query is its transitive
  closure;
- ``tc_chain(n)``: disjoint chains of 50 edges; the closure holds exactly n·51/2 facts when
  50 divides n;
- ``gp(n)``: Person is parent of Person, a random forest; the query is grandparent pairs;
- ``new_edges(n, k)``: edges that keep ``tc_dag(n)`` a DAG, to add one at a time.

>>> tc_chain(3, length=2)
[('c0.0', 'c0.1'), ('c0.1', 'c0.2'), ('c1.0', 'c1.1')]
"""

from __future__ import annotations

import random

Edge = tuple[str, str]

__all__ = [
    "CHAIN_LENGTH",
    "ROOTS",
    "SECOND_CONTAINER",
    "Edge",
    "gp",
    "new_edges",
    "region",
    "tc_chain",
    "tc_dag",
]

SECOND_CONTAINER = 0.1
CHAIN_LENGTH = 50
ROOTS = 0.01


def region(number: int) -> str:
    """The name of region ``number``.

    >>> region(7)
    'r7'
    """
    return f"r{number}"


def tc_dag(n: int, seed: int = 1) -> list[Edge]:
    """Region contains Region: region i ≥ 1 lies in a uniformly chosen earlier region j < i,
    and with probability 0.1 also in a second, distinct earlier one; exactly ``n`` edges,
    container first.

    Regions are numbered in a topological order, so every edge (j, i) has j < i and the
    graph is acyclic; with one seed a smaller DAG is a prefix of a larger one.

    >>> edges = tc_dag(1_000)
    >>> len(edges), len(set(edges)), edges[0]
    (1000, 1000, ('r0', 'r1'))
    >>> all(int(a[1:]) < int(b[1:]) for a, b in edges)
    True
    """
    rng = random.Random(seed)
    edges: list[Edge] = []
    child = 1
    while len(edges) < n:
        first = rng.randrange(child)
        edges.append((region(first), region(child)))
        if child > 1 and len(edges) < n and rng.random() < SECOND_CONTAINER:
            second = rng.randrange(child - 1)
            second += second >= first
            edges.append((region(second), region(child)))
        child += 1
    return edges


def tc_chain(n: int, length: int = CHAIN_LENGTH) -> list[Edge]:
    """Disjoint chains ``c{k}.0 → c{k}.1 → … → c{k}.{length}`` of ``length`` edges each,
    ``n`` edges in all (the last chain is cut short when ``length`` does not divide ``n``).

    >>> edges = tc_chain(1_000)
    >>> len(edges), edges[49], edges[50]
    (1000, ('c0.49', 'c0.50'), ('c1.0', 'c1.1'))
    """
    return [
        (f"c{index // length}.{index % length}", f"c{index // length}.{index % length + 1}")
        for index in range(n)
    ]


def gp(n: int, seed: int = 1) -> list[Edge]:
    """Person is parent of Person: a random forest of ``n`` facts, parent first.

    Person 0 is a root, and each later person is a root with probability 0.01 or else the
    child of a uniformly chosen earlier person, so about 1% of the persons are roots.

    >>> facts = gp(10_000)
    >>> len(facts), len({child for _, child in facts})
    (10000, 10000)
    """
    rng = random.Random(seed)
    facts: list[Edge] = []
    person = 1
    while len(facts) < n:
        if rng.random() >= ROOTS:
            facts.append((f"p{rng.randrange(person)}", f"p{person}"))
        person += 1
    return facts


def new_edges(n: int, k: int = 100, seed: int = 2) -> list[Edge]:
    """``k`` distinct edges (j, i), j < i, over the regions of ``tc_dag(n)`` and absent from
    it: added one at a time, in order, each keeps the graph a DAG.  Raises ``ValueError``
    when the DAG has room for fewer than ``k``.

    >>> dag = tc_dag(1_000)
    >>> added = new_edges(1_000, k=20)
    >>> len(set(added)), set(added) & set(dag), all(int(a[1:]) < int(b[1:]) for a, b in added)
    (20, set(), True)
    """
    dag = tc_dag(n)
    present = set(dag)
    regions = 1 + max((int(child[1:]) for _, child in dag), default=0)
    room = regions * (regions - 1) // 2 - len(dag)
    if k > room:
        raise ValueError(f"tc_dag({n}) can take at most {room} new edges (j < i), not {k}")
    rng = random.Random(seed)
    added: list[Edge] = []
    while len(added) < k:
        child = rng.randrange(1, regions)
        edge = (region(rng.randrange(child)), region(child))
        if edge not in present:
            present.add(edge)
            added.append(edge)
    return added
