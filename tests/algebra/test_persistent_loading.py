"""immutables' C map loaded without its package's ``__init__`` is the package's ``Map``."""

from __future__ import annotations

import sys
from collections.abc import Mapping

import immutables
import pytest

from arest.algebra import persistent
from arest.algebra.persistent import EMPTY, PersistentMap


def test_the_map_is_the_packages_and_a_mapping() -> None:
    assert PersistentMap is immutables.Map
    assert isinstance(EMPTY, Mapping) and issubclass(PersistentMap, Mapping)


def test_loaded_alone_it_is_the_same_type_and_leaves_the_package_to_load_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delitem(sys.modules, "immutables")
    monkeypatch.delitem(sys.modules, "immutables._map")
    assert persistent._c_map() is immutables.Map
    assert "immutables._map" not in sys.modules and "immutables" not in sys.modules


def test_without_the_c_extension_where_the_package_is_the_packages_map_is_taken(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import importlib.machinery

    monkeypatch.delitem(sys.modules, "immutables")
    monkeypatch.setattr(importlib.machinery, "ExtensionFileLoader", type("NoExtensions", (), {}))
    assert persistent._c_map() is immutables.Map
    assert "immutables" in sys.modules  # loaded whole, its __init__ run
