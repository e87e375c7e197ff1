"""Every Python block of the README and of the documentation pages works when pasted into a
script as written.

A block that must not run here (it needs a GPU, or trains for minutes) says so on the line
just above its fence, where neither GitHub nor the site shows it:

    <!-- not run: needs an NVIDIA GPU -->
    ```python
"""

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
#: a fenced Python block, and the comment above it if it has one
BLOCK = re.compile(r"(<!-- not run:[^>]*-->\n)?```python\n(.*?)```", re.S)
PAGES = [README, *sorted(p for p in (ROOT / "docs").rglob("*.md") if "_build" not in p.parts)]


def python_blocks(path: Path) -> list[tuple[str, bool]]:
    """The Python blocks of a Markdown file, each with whether it is to be run."""
    return [(code, not skip) for skip, code in BLOCK.findall(path.read_text())]


BLOCKS = [
    pytest.param(code, id=f"{path.relative_to(ROOT)}:{index}")
    for path in PAGES
    for index, (code, run) in enumerate(python_blocks(path))
    if run
]


def test_the_readme_and_the_docs_have_python_blocks():
    assert len(python_blocks(README)) >= 1
    assert len(BLOCKS) >= 6


def test_a_block_marked_not_run_is_skipped(tmp_path):
    page = tmp_path / "page.md"
    page.write_text(
        "```python\nprint(1)\n```\n\n<!-- not run: needs a GPU -->\n```python\nprint(2)\n```\n"
    )
    assert python_blocks(page) == [("print(1)\n", True), ("print(2)\n", False)]


@pytest.mark.parametrize("code", BLOCKS)
def test_block_runs_as_a_script(code, tmp_path):
    script = tmp_path / "block.py"
    script.write_text(code)
    done = subprocess.run(
        [sys.executable, str(script)], cwd=tmp_path, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, f"block:\n{code}\n{done.stderr[-3000:]}"
    assert "Traceback" not in done.stderr
