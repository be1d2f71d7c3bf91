"""SYSTEM: ``apply(D, key, input, context) -> (output, D′)``, pure and total."""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

from arest.system.apply import apply

if TYPE_CHECKING:
    from arest.system import derive_counts as derive_counts
    from arest.system import dred as dred
    from arest.system import entity_verbs as entity_verbs
    from arest.system import row_chains as row_chains

__all__ = ["apply"]

_LOADED_ON_FIRST_USE = frozenset({"derive_counts", "dred", "entity_verbs", "row_chains"})
"""The derivation's DRed, count step and row chains and the interpreted entity verbs,
loaded when first read as this package's attributes (PEP 562): a restart whose commands are
quiet creates never loads them, and a command that runs them reads an attribute (the import
system keeps each loaded module here), not an ``import`` statement."""


def __getattr__(name: str) -> Any:
    if name in _LOADED_ON_FIRST_USE:
        return import_module(f"{__name__}.{name}")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
