"""What import-linter cannot see: the package root is a facade nothing inside imports."""

from __future__ import annotations

import ast
from pathlib import Path

import arest

PACKAGE = Path(arest.__file__).parent


def _imports_of_the_root(tree: ast.AST) -> list[str]:
    """``from arest import name`` where name is not a submodule, and ``import arest``."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module == "arest" and node.level == 0:
            found += [alias.name for alias in node.names
                      if not (PACKAGE / alias.name).is_dir()
                      and not (PACKAGE / f"{alias.name}.py").is_file()]
        elif isinstance(node, ast.Import):
            found += [alias.name for alias in node.names if alias.name == "arest"]
    return found


def test_no_module_of_the_package_imports_its_facade() -> None:
    offenders = {
        str(path.relative_to(PACKAGE)): names
        for path in PACKAGE.rglob("*.py") if path.name != "__init__.py" or path.parent != PACKAGE
        if (names := _imports_of_the_root(ast.parse(path.read_text(encoding="utf-8"))))
    }
    assert offenders == {}


def test_the_check_sees_a_facade_import() -> None:
    assert _imports_of_the_root(ast.parse("from arest import __version__")) == ["__version__"]
    assert _imports_of_the_root(ast.parse("from arest import api")) == []
