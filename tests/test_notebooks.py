"""Every notebook executes headless at small size (GEOLAB_SMALL=1) without an error."""

import json
import os
from pathlib import Path

import nbclient
import nbformat
import pandas as pd
import pytest

from tests.experiment_scripts import load

NOTEBOOKS = sorted((Path(__file__).parents[1] / "notebooks").glob("*.ipynb"))


def test_the_promised_notebooks_exist():
    names = {p.name for p in NOTEBOOKS}
    assert {"01_bot_ladder.ipynb", "02_play_the_ranks_basics.ipynb", "08_combo1_tournament.ipynb",
            "strength.ipynb"} <= names


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


def test_the_combo1_study_writes_a_whole_result_set(tmp_path):
    """experiments/combo1.py, which notebook 08 reads (and runs --quick when no results are
    committed): one quick part, its table, plot and meta.json with the command."""
    study = load("combo1")
    out = study.main(["--quick", "--parts", "length", "--out", str(tmp_path / "combo1")])
    meta = json.loads((out / "meta.json").read_text())
    assert meta["parts"] == ["length"] and meta["command"] == "python experiments/combo1.py --quick --parts length " \
        f"--out {tmp_path / 'combo1'}"
    table = pd.read_csv(out / "length.csv")
    assert set(table["round"]) == {"morning", "afternoon"} and (table["matches"] == 64).all()
    started = table[table.measure == "games started"].set_index("round")["mean"]
    assert started["morning"] > started["afternoon"] >= 2
    assert (out / "length.png").stat().st_size > 0
