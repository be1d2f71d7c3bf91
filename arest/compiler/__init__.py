"""The compiler: metamodel facts → D.  Facts populate the fact types' relations; the schema
is read back from those relations (:mod:`arest.compiler.schema`), and each noun's fields
are compiled into a ``resolve:<Noun>`` cell (:mod:`arest.compiler.fields`)."""

from arest.compiler.change import Change, Delta
from arest.compiler.population import with_facts
from arest.compiler.schema import Schema, schema_of

__all__ = ["Change", "Delta", "Schema", "schema_of", "with_facts"]
