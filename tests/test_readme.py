"""Every Python block of the README works when pasted into a script as written."""

import re
import subprocess
import sys
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[1] / "README.md"
BLOCKS = re.findall(r"```python\n(.*?)```", README.read_text(), re.S)


def test_the_readme_has_python_blocks():
    assert len(BLOCKS) >= 4


@pytest.mark.parametrize("index", range(len(BLOCKS)))
def test_readme_block_runs_as_a_script(index, tmp_path):
    script = tmp_path / f"block_{index}.py"
    script.write_text(BLOCKS[index])
    done = subprocess.run(
        [sys.executable, str(script)], cwd=tmp_path, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, f"README block {index}:\n{BLOCKS[index]}\n{done.stderr[-3000:]}"
    assert "Traceback" not in done.stderr
