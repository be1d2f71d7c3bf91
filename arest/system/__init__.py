"""SYSTEM: ``apply(D, key, input, context) -> (output, D′)``, pure and total."""

from arest.system.apply import apply

__all__ = ["apply"]
