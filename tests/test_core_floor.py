"""heist_envs.core is the bottom floor: no module of it imports heist_envs outside core (a
game is reached by name through the lookup heist_envs.core.catalog, which the registry
fills), so core loads without the floors above it."""

import ast
import importlib
import importlib.util
from pathlib import Path

import pytest

CORE = Path(__file__).resolve().parents[1] / "heist_envs" / "core"
MODULES = sorted(path.stem for path in CORE.glob("*.py") if path.stem != "__init__")
#: what each core module needs installed beyond the base install, to be imported here
NEEDS = {"gpu": "numba_cuda", "sb3_vec": "stable_baselines3"}


def imported_modules(path: Path) -> set[str]:
    """Every module that ``path`` imports, at its top or inside a function, as absolute names."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative: from the package heist_envs.core
                package = "heist_envs.core".rsplit(".", node.level - 1)[0]
                base = f"{package}.{node.module}" if node.module else package
            else:
                base = node.module
            names.add(base)
            names.update(f"{base}.{alias.name}" for alias in node.names)
    return names


@pytest.mark.parametrize("module", MODULES)
def test_a_core_module_imports_nothing_of_heist_envs_outside_core(module):
    path = CORE / f"{module}.py"
    above = sorted(
        name
        for name in imported_modules(path)
        if name.split(".")[0] == "heist_envs" and not name.startswith("heist_envs.core.")
    )
    assert above == [], f"heist_envs/core/{module}.py imports {above}"
    if module in NEEDS:
        pytest.importorskip(NEEDS[module])
    importlib.import_module(f"heist_envs.core.{module}")


def test_the_cpu_engine_does_not_import_the_gpu_engine():
    assert "heist_envs.core.gpu" not in imported_modules(CORE / "vector.py")
