"""The LLM bridge (DESIGN §4, §6): ``ask``, ``synthesize`` and ``validate`` translate between
natural language and facts.  The engine writes the prompt, with the schema or the facts it
needs; an LLM the caller runs answers it; the engine reads the answer back and runs the
formal operation (``project``, ``verify``).  Each verb reads only: D′ = D.

- :mod:`~arest.system.bridge.ask`: a question → a projection spec → its rows.
- :mod:`~arest.system.bridge.synthesize`: an entity's facts → prose resting on them.
- :mod:`~arest.system.bridge.validate_text`: text → fact instances → a constraint check.
- :mod:`~arest.system.bridge.responses`: the two calls, and reading JSON out of an answer.
"""

from arest.system.bridge.ask import ask
from arest.system.bridge.synthesize import synthesize
from arest.system.bridge.validate_text import validate_text

__all__ = ["ask", "synthesize", "validate_text"]
