"""The notebooks of docs/notebooks run top to bottom on this checkout's Python, each cell within
a time limit, and are kept in git without outputs."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import nbformat
import pytest
from jupyter_client.kernelspec import KernelSpecManager
from nbclient import NotebookClient

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = sorted((ROOT / "docs" / "notebooks").glob("*.ipynb"))
CELL_SECONDS = 300


def test_there_are_the_three_notebooks() -> None:
    assert [path.stem for path in NOTEBOOKS] == ["1-algebra", "2-domain", "3-research"]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda path: path.stem)
def test_a_notebook_is_kept_without_outputs(path: Path) -> None:
    notebook = nbformat.read(path, as_version=4)
    nbformat.validate(notebook)
    assert [cell for cell in notebook.cells
            if cell.cell_type == "code" and (cell.outputs or cell.execution_count)] == []


@pytest.mark.slow
@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda path: path.stem)
def test_a_notebook_runs_top_to_bottom(path: Path) -> None:
    notebook = nbformat.read(path, as_version=4)
    kernel = notebook.metadata["kernelspec"]["name"]
    # The python3 kernel ipykernel installs runs the interpreter first on PATH, or this one
    # when it resolves none: run it with this interpreter's directory first.
    client = NotebookClient(notebook, timeout=CELL_SECONDS, kernel_name=kernel,
                            resources={"metadata": {"path": str(ROOT)}})
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("PATH", f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}")
        notebook.cells.insert(0, nbformat.v4.new_code_cell("import sys; print(sys.executable)"))
        client.execute()
    assert notebook.cells[0].outputs[0]["text"].strip() == sys.executable
    assert KernelSpecManager().get_kernel_spec(kernel).language == "python"
