"""The notebooks in notebooks/ run top to bottom, offline, and show what their text promises.

Each notebook is executed in a fresh `python3` kernel with nbclient; a cell that raises fails the test
(CellExecutionError). The kernel inherits this process's environment, so the autouse fixture's temporary
GROUNDSET_CACHE_DIR and the removed API keys apply inside the notebook too.
"""

from __future__ import annotations

import re
import shutil
import sys
from pathlib import Path
from typing import Any

import nbformat
from nbclient import NotebookClient

from groundset.scoring import default_metrics

NOTEBOOKS = Path(__file__).resolve().parent.parent / "notebooks"
IMAGE_TYPES = ("image/png", "image/svg+xml")
VERDICTS = ("better", "worse", "no clear change", "too few pairs")


def execute(nb: Any) -> Any:
    """Run every cell as Jupyter would with cwd = notebooks/; raises CellExecutionError on a failing cell."""
    client = NotebookClient(
        nb, timeout=600, kernel_name="python3", resources={"metadata": {"path": str(NOTEBOOKS)}}
    )
    client.execute()
    return nb


def run_notebook(name: str) -> Any:
    nb = nbformat.read(NOTEBOOKS / name, as_version=4)
    return execute(nb)


def code_cell(nb: Any, marker: str) -> Any:
    """The one code cell whose source contains ``marker``."""
    found = [c for c in nb.cells if c.cell_type == "code" and marker in c.source]
    assert len(found) == 1, f"expected one code cell containing {marker!r}, found {len(found)}"
    return found[0]


def images(cell: Any) -> list[str]:
    return [kind for o in cell.outputs if "data" in o for kind in o["data"] if kind in IMAGE_TYPES]


def stdout(nb: Any) -> str:
    return "".join(
        o.get("text", "")
        for c in nb.cells
        if c.cell_type == "code"
        for o in c.outputs
        if o.output_type == "stream" and o.get("name") == "stdout"
    )


def test_stored_without_outputs():
    """The repository keeps the notebooks clean: no outputs, no execution counts, kernel python3."""
    for path in sorted(NOTEBOOKS.glob("*.ipynb")):
        nb = nbformat.read(path, as_version=4)
        nbformat.validate(nb)
        assert nb.metadata["kernelspec"]["name"] == "python3", path.name
        for cell in nb.cells:
            if cell.cell_type == "code":
                assert cell.outputs == [] and cell.execution_count is None, f"{path.name}: stored output"
    assert {p.name for p in NOTEBOOKS.glob("*.ipynb")} >= {"quickstart.ipynb", "bring_your_own_rag.ipynb"}


def test_kernel_runs_this_python():
    """The `python3` kernel is this venv's interpreter, so it imports the groundset under test."""
    source = "import sys, groundset\nprint(sys.prefix)\nprint(groundset.__file__)"
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(source)])
    execute(nb)
    prefix, package = stdout(nb).splitlines()
    assert prefix == sys.prefix
    assert Path(package).resolve().parent.parent == NOTEBOOKS.parent


def test_quickstart():
    nb = run_notebook("quickstart.ipynb")
    text = stdout(nb)

    assert "'document': 10" in text, "the graph stats should count the ten sample pages"
    assert images(code_cell(nb, "draw_networkx_nodes")), "the knowledge graph drawing produced no image"
    assert images(code_cell(nb, "ax.hist(")), "the score histograms produced no image"

    table = code_cell(nb, "testset.to_pandas()")
    assert any("text/html" in o.get("data", {}) for o in table.outputs), "no test-set table shown"

    found = re.findall(r"^report: (.+\.html)$", text, flags=re.M)
    assert len(found) == 1, f"the notebook should print its report path once; stdout:\n{text}"
    report = Path(found[0])
    try:
        assert report.is_file(), f"{report} was printed but does not exist"
        html = report.read_text(encoding="utf-8")
        assert "<html" in html and "faithfulness" in html
    finally:
        if report.parent.name.startswith("groundset-quickstart-"):
            shutil.rmtree(report.parent, ignore_errors=True)


def test_bring_your_own_rag():
    nb = run_notebook("bring_your_own_rag.ipynb")
    text = stdout(nb)

    pattern = rf"^(\w+)\s.*verdict: ({'|'.join(map(re.escape, VERDICTS))})$"
    verdicts = dict(re.findall(pattern, text, flags=re.M))
    expected = {m.name for m in default_metrics()} | {"id_context_recall"}
    assert set(verdicts) == expected, f"a verdict per compared metric expected; stdout:\n{text}"

    assert images(code_cell(nb, "ax.axvline(0")), "the forest plot produced no image"
    for line in ("top-1 -> top-5", "top-5 -> top-1"):
        assert re.search(rf"^{line}: (pass|FAIL)$", text, flags=re.M), f"no gate result for {line}"
