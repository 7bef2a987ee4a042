"""Every notebook executes headless at small size (GEOLAB_SMALL=1) without an error."""

import os
from pathlib import Path

import nbclient
import nbformat
import pytest

NOTEBOOKS = sorted((Path(__file__).parents[1] / "notebooks").glob("*.ipynb"))


def test_the_promised_notebooks_exist():
    names = {p.name for p in NOTEBOOKS}
    assert {"01_bot_ladder.ipynb", "02_play_the_ranks_basics.ipynb"} <= names


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_executes(path, monkeypatch, tmp_path):
    monkeypatch.setenv("GEOLAB_SMALL", "1")
    notebook = nbformat.read(path, as_version=4)
    client = nbclient.NotebookClient(notebook, timeout=240, kernel_name="python3",
                                     resources={"metadata": {"path": str(path.parent)}})
    client.execute()  # raises CellExecutionError, with the cell and traceback, on any error
    outputs = [o for c in notebook.cells if c.cell_type == "code" for o in c.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    assert any(o.output_type in ("stream", "display_data", "execute_result") for o in outputs)
    assert "GEOLAB_SMALL" in os.environ
