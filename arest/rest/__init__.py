"""REST over a tenant (DESIGN §9): the routes the command table declares
(:mod:`arest.rest.routes`), what each request runs and answers (:mod:`arest.rest.answer`),
and the OpenAPI 3.1 document generated from the readings (:mod:`arest.rest.openapi`).  No
web framework is imported here: the ``rest`` transport (:mod:`arest.transports.rest`) hands
each request over as a :class:`~arest.rest.answer.Request` and sends back the
:class:`~arest.rest.answer.Response`."""
