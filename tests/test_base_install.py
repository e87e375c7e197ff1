"""A base install (no training extras) makes the Gymnasium envs: checked here with the
extras blocked, and in CI by .ci/base_install.py in a fresh venv of ``pip install .``."""

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

#: the training extras' modules, made unimportable in the subprocess
BLOCKED = ("stable_baselines3", "sb3_contrib", "torch")

CODE = f"""
import sys
for name in {BLOCKED!r}:
    sys.modules[name] = None  # importing it raises ImportError
import gymnasium
import heist_envs
from heist_envs.registry import gymnasium_id
for name in heist_envs.game_names():
    env = gymnasium.make(gymnasium_id(name))
    print(gymnasium_id(name), type(env.unwrapped).__name__)
"""


def test_gymnasium_make_works_without_stable_baselines3_or_torch():
    done = subprocess.run(
        [sys.executable, "-c", CODE], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert done.stdout.split() == [
        "heist/ArtRobbery-v0", "SingleAgentEnv",
        "heist/HowToRobABank-v0", "SingleAgentEnv",
        "heist/ThiefsMarket-v0", "SingleAgentEnv",
        "heist/ToitsDeParis-v0", "SingleAgentEnv",
    ]  # fmt: skip


def test_the_sb3_vec_env_without_stable_baselines3_names_the_extra_to_install():
    code = (
        "import sys\n"
        "sys.modules['stable_baselines3'] = None\n"
        "try:\n"
        "    from heist_envs.core.sb3_vec import SelfPlayVecEnv\n"
        "except ImportError as e:\n"
        "    print(e)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert "heist-envs[train]" in done.stdout


def test_the_vec_env_is_still_importable_from_single_agent():
    pytest.importorskip("stable_baselines3")
    from heist_envs.core import sb3_vec, single_agent

    assert single_agent.SelfPlayVecEnv is sb3_vec.SelfPlayVecEnv
