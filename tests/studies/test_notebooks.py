"""The study notebooks (01 on; 00 is a tour of the API) end on what they found: a markdown
Conclusions cell, after their committed outputs."""

import json
from pathlib import Path

import pytest

NOTEBOOKS = sorted((Path(__file__).resolve().parents[2] / "notebooks").glob("0[1-9]_*.ipynb"))


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.stem for p in NOTEBOOKS])
def test_a_notebook_ends_with_its_conclusions(path):
    cells = json.loads(path.read_text())["cells"]
    last = cells[-1]
    assert last["cell_type"] == "markdown"
    assert "".join(last["source"]).startswith("## Conclusions\n")
    code = [cell for cell in cells if cell["cell_type"] == "code"]
    assert all(cell["outputs"] or not cell["source"] for cell in code[1:])  # committed outputs
