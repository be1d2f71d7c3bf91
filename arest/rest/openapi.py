"""The OpenAPI 3.1 document of a tenant's REST surface (DESIGN §9), generated from its readings.

    document(D) = {openapi: 3.1.0, info, security, paths, components}

``paths`` holds every endpoint of the route table (:data:`arest.rest.routes.ENDPOINTS`),
made concrete where the tenant's schema names what a template leaves open, so a client (or
a fuzzer) knows each resource's shape:

- per entity noun of the tenant (those ``search`` covers, and the metamodel's Domain Change,
  which ``/domain-changes`` serves): ``/orders``, ``/orders/{id}``,
  ``/orders/{id}/transition`` when the noun has a machine (``event`` an enum of its events),
  and ``/orders/{id}/<key>`` for each children, peers and related link;
- per fact type of the tenant: ``/facts/<id>``, ``…/verify``, ``…/explain``; a derived fact
  type (or a machine's ``<Noun>_has_Status``) cannot be asserted or retracted, so it has
  no ``POST`` or ``DELETE``;
- the routes that name neither as the table spells them.

Every operation lists every status :func:`~arest.rest.routes.statuses` gives it, no
``default``: the success with its schema (:mod:`arest.rest.representations`), the errors as
problem details (``application/problem+json``), 422 with its ``violations``.  Operation ids
are the command table's (:attr:`~arest.rest.routes.Endpoint.operation`) with the noun or fact
type: ``create_Order``, ``query_Order_was_placed_by_Customer``.  A create answers links to
read, update, delete, transition and navigate what it made.  The bearer scheme applies to
every operation (a server started without keys takes requests without one).

>>> import arest
>>> doc = document(arest.compile(ORDERS))  # Order was placed by at most one Customer
>>> doc["openapi"], sorted(doc["paths"]["/orders/{id}"])
('3.1.0', ['delete', 'get', 'patch'])
>>> doc["paths"]["/orders"]["post"]["operationId"]
'create_Order'
"""

from __future__ import annotations

from arest.algebra import State
from arest.rest.memo import ByCellsRead
from arest.rest.operations import Served, operations, problem_responses, served
from arest.rest.representations import (
    JSON,
    common,
    create_body,
    representation,
    transition_body,
    update_body,
)
from arest.version import __version__


def _components(tenant: Served) -> JSON:
    schemas = common()
    for noun, view in tenant.views.items():
        key = tenant.keys[noun]
        schemas[key] = representation(view)
        if view in tenant.served:
            schemas[key + ".create"] = create_body(view)
            schemas[key + ".update"] = update_body(view)
            if view.machine:
                schemas[key + ".transition"] = transition_body(view)
    return {"schemas": schemas, "responses": problem_responses(),
            "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer", "description":
                                           "A key given to arest serve (--api-key, "
                                           "--admin-key); a server without keys needs none."}}}


def build(state: State) -> JSON:
    """The document, computed afresh (:func:`document` memoizes it)."""
    tenant = served(state)
    paths: JSON = {}
    for path, method, operation in operations(state, tenant):
        paths.setdefault(path, {})[method] = operation
    return {
        "openapi": "3.1.0",
        "info": {"title": "arest tenant", "version": __version__,
                 "description": "The REST surface of an arest tenant, generated from its "
                                "readings (DESIGN §9)."},
        "security": [{"bearer": []}],
        "paths": dict(sorted(paths.items())),
        "components": _components(tenant),
    }


_documents = ByCellsRead(build)
"""The documents of the states served last (:class:`~arest.rest.memo.ByCellsRead`)."""


def document(state: State) -> JSON:
    """The OpenAPI 3.1 document of D's REST surface (see the module).  Memoized by the
    identity of the schema's cells, so a server answers it per request at the cost of a
    lookup while the schema stays; the dict is shared: a caller must not change it."""
    return _documents(state)
