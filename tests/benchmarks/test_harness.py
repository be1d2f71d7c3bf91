"""The benchmark harness measures the arest it is told to: a child imports the arest that
PYTHONPATH or the installation names, never a tree that is the folder it was started from."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

FOLDER = Path(__file__).resolve().parents[2] / "benchmarks"


def test_an_isolated_run_ignores_an_arest_in_the_folder_it_starts_from(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    decoy = tmp_path / "started-here" / "arest"
    decoy.mkdir(parents=True)
    (decoy / "__init__.py").write_text("raise ImportError('the tree of the folder started from')\n")
    script = tmp_path / "probe.py"
    script.write_text("def where():\n    import arest\n    return arest.__file__\n")
    monkeypatch.syspath_prepend(str(FOLDER))
    from harness import run_isolated

    monkeypatch.chdir(decoy.parent)
    found = run_isolated(script, "where", {})
    assert Path(found).resolve() == Path(sys.modules["arest"].__file__ or "").resolve()
