"""The pictures REST answers (docs/pictures.md): what a picture route's command read, drawn.

    GET /<plural>/<id>/machine.svg        read:<Noun>, then the noun's machine, the entity's
                                          status highlighted and the guards on each status
    GET /facts/<fact type>/explain.svg?…  explain, then its tree
    GET /schema.svg                       schema, then the relational schema's tables

The command runs as the JSON route's does (the same permission, the same errors); the
picture is drawn from its output and D, so the JSON and the picture of one resource agree.

>>> import arest
>>> D = arest.compile(TASKS)  # a Task machine, Open --finish--> Done (conftest.py)
>>> _, D = arest.apply(D, "create:Task", {"id": "t1"})
>>> out, _ = arest.apply(D, "read:Task", "t1")
>>> 'aria-current="true"' in drawn(D, "read", out)
True
"""

from __future__ import annotations

from typing import Any

from arest.algebra import State
from arest.compiler.rmap import relational_schema
from arest.compiler.schema import schema_of
from arest.pictures import explanation_svg, guards, machine_svg, tables_svg
from arest.rest.memo import ByCellsRead
from arest.system.machines import machine_of


def drawn(state: State, verb: str, out: dict[str, Any]) -> str | None:
    """The picture of a command's output on D: the entity's machine (None when its noun has
    no machine), the explanation tree, or the tables of D's relational schema."""
    if verb == "read":
        machine = machine_of(state, str(out["noun"]))
        if machine is None:
            return None
        return machine_svg(machine, out.get("status"), guards(schema_of(state), machine.noun))
    if verb == "explain":
        return explanation_svg(out)
    return _tables(state)


def tables_of(state: State) -> str:
    """The picture of D's relational schema (:func:`drawn` keeps it by the cells it read)."""
    return tables_svg(relational_schema(schema_of(state)))


_tables = ByCellsRead(tables_of)
"""The tables' pictures of the states served last: a schema that stays is drawn once."""
