"""Sphinx configuration of the documentation site, built from the repository's root with

    sphinx-build -W --keep-going -b html docs docs/_build/html

Strict and offline: with ``-W`` every warning fails the build, MyST's
missing cross-references (a link to a page or heading anchor that does not exist) included.
Sphinx's nitpicky mode is off: resolving the numpy, gymnasium and SB3 types the docstrings
name would need intersphinx inventories fetched over the network.
"""

import sys
from importlib.metadata import version as installed_version
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the checkout's code, whatever is installed

project = "heist-envs"
release = installed_version("heist-envs")
version = release
copyright = "the heist-envs authors"

extensions = [
    "myst_nb",  # MyST Markdown pages and the notebooks, from their committed outputs
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "sphinx.ext.viewcode",
]
# notebooks/ and the docs' sources of the game pages are not pages of their own
exclude_patterns = ["_build", "rules", "decisions", "notebooks/.ipynb_checkpoints"]
source_suffix = {".md": "myst-nb", ".ipynb": "myst-nb"}

# Every heading up to level 3 gets an anchor that links check (`page.md#a-heading`).
myst_heading_anchors = 3
myst_enable_extensions = ["colon_fence", "deflist"]
nb_execution_mode = "off"  # the notebooks are shown as committed, never run here


autodoc_member_order = "bysource"
autodoc_default_options = {"members": True, "show-inheritance": True}
autodoc_typehints = "description"
autodoc_inherit_docstrings = False  # the libraries' own docstrings are not this project's pages
# heist_envs.core.gpu imports numba-cuda (the gpu extra: CUDA wheels); its page is its
# docstrings, which need no GPU compiler: stand-ins let it import without one.
autodoc_mock_imports = ["numba_cuda", "numba.cuda"]

html_theme = "furo"
html_title = f"heist-envs {release}"
