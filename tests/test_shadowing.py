"""A user's own agents.py or experiments.py beside their script does not hide the agents."""

import subprocess
import sys

import pytest

SCRIPT = """
from heist_envs.agents import RandomAgent
from heist_envs.agents.arena import tournament

if __name__ == "__main__":
    result = tournament(
        "art_robbery", ["random", "heuristic"], games=4, num_players=2, seed=1, workers=2,
        progress=False, batched=BATCHED,
    )
    forfeits = [game for game in result.games if game.get("forfeit")]
    print(len(result.games), type(RandomAgent(0)).__module__, len(forfeits))
"""


@pytest.mark.parametrize("batched", [False, True])
def test_heist_envs_agents_works_beside_a_users_agents_and_experiments(tmp_path, batched):
    (tmp_path / "agents.py").write_text("raise ImportError('the user agents module')\n")
    (tmp_path / "experiments.py").write_text("raise ImportError('the user experiments')\n")
    (tmp_path / "script.py").write_text(SCRIPT.replace("BATCHED", str(batched)))
    done = subprocess.run(
        [sys.executable, "script.py"], cwd=tmp_path, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr
    # every game played out: the compiled heuristic loads beside the user's agents.py (a
    # numba cache written under the name agents.X would import the user's module)
    assert done.stdout.split() == ["4", "heist_envs.agents.base", "0"], done.stdout


def test_heist_envs_agents_and_agents_are_the_same_modules():
    import heist_envs.agents.arena
    import heist_envs.agents.base

    import agents.arena
    import agents.base

    assert heist_envs.agents.arena.tournament is agents.arena.tournament
    assert isinstance(heist_envs.agents.base.RandomAgent(0), agents.base.Agent)
    assert isinstance(agents.base.RandomAgent(0), heist_envs.agents.Agent)
    assert heist_envs.agents.arena.__spec__.name == "agents.arena"
