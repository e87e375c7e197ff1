"""DAgger imitation of the heuristic (experiments.imitation) on tiny budgets."""

import json

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")

import torch  # noqa: E402

import heist_envs  # noqa: E402
from agents.heuristic import make_heuristic  # noqa: E402
from agents.ppo import PPOAgent, export_policy  # noqa: E402
from experiments import imitation  # noqa: E402
from heist_envs.core.vector import VectorGames  # noqa: E402

GAME = heist_envs.get_game("how_to_rob_a_bank")


@pytest.fixture(scope="module", autouse=True)
def one_thread():
    """Small batches run far slower on several torch threads when the cores are shared."""
    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    yield
    torch.set_num_threads(threads)


@pytest.fixture(scope="module")
def labelled():
    """Decisions of a few teacher-driven games, both sides."""
    teacher = imitation.Teacher(GAME.name, seed=0)
    return imitation.collect(GAME, 4, teacher, None, beta=1.0, games=6, num_envs=3, seed=5)


def test_labels_hold_the_teachers_action(labelled):
    obs, masks, best, outcomes = labelled
    assert len(obs) > 100 and obs.shape[1] == GAME.obs_size
    assert sum(len(v) for v in outcomes.values()) == 6 and len(outcomes[0]) == 3
    assert (best <= masks).all() and best.any(axis=1).all()
    assert (masks.sum(axis=1) > 1).all()  # forced moves are not stored
    for seed in range(3):
        agent = make_heuristic(GAME.name, seed)
        chosen = [agent.act(o, m.astype(np.int8)) for o, m in zip(obs, masks, strict=True)]
        assert best[np.arange(len(obs)), chosen].all()
    # both sides are labelled: the bank's seat and the robbers' seats observe
    seats = obs[:, GAME.layout["observer"]].argmax(axis=1)
    assert (seats == 0).any() and (seats > 0).any()
    # most decisions have one best action: the labels are not vacuous
    assert (best.sum(axis=1) == 1).mean() > 0.5


def test_loss_is_the_cross_entropy_of_the_best_set():
    logits = torch.tensor([[2.0, 0.0, -torch.inf], [1.0, 1.0, 1.0]])
    best = torch.tensor([[True, False, False], [True, True, False]])
    expected = -np.log([np.exp(2) / (np.exp(2) + 1), 2 / 3])
    loss = imitation.imitation_loss(logits, best)
    assert float(loss) == pytest.approx(expected.mean(), rel=1e-5)


def test_student_reproduces_the_teacher_on_its_data(labelled):
    obs, masks, best, _ = labelled
    data = imitation.Dataset(GAME.obs_size, GAME.num_actions)
    data.extend(obs[:300], masks[:300], best[:300])
    torch.manual_seed(0)
    model = imitation.build_model(GAME, 4, [64, 64], seed=0)
    _, _, before = imitation.fit(model.policy, data, epochs=1, lr=0)
    _, loss, accuracy = imitation.fit(model.policy, data, epochs=60, batch_size=64, lr=3e-3)
    assert accuracy > 0.97 > before
    with torch.no_grad():
        logits = imitation.masked_logits(
            model.policy,
            torch.as_tensor(data.obs, dtype=torch.float32),
            torch.as_tensor(data.masks),
        )
    chosen = logits.argmax(1).numpy()
    assert data.best[np.arange(len(data)), chosen].mean() > 0.97
    assert data.masks[np.arange(len(data)), chosen].all()


def test_one_iteration_writes_a_loadable_checkpoint(tmp_path):
    args = ["--game", "how_to_rob_a_bank", "--iterations", "1", "--games-per-iteration", "4"]
    args += ["--epochs", "1", "--eval-games", "6", "--num-envs", "2", "--net-arch", "32"]
    imitation.main(args + ["--out", str(tmp_path)])
    info = json.loads((tmp_path / "final.json").read_text())
    assert info["game"] == "how_to_rob_a_bank" and info["num_players"] == 4
    assert info["method"] == "dagger" and info["decisions"] > 0
    assert info["win_rate_vs_random"]["games"] == 6
    rows = (tmp_path / "dagger.csv").read_text().splitlines()
    assert rows[0].startswith("iteration,beta,games") and len(rows) == 2
    agent = PPOAgent(tmp_path / "final.zip", "how_to_rob_a_bank")
    shipped = PPOAgent(export_policy(tmp_path / "final.zip", tmp_path / "small"), GAME.name)
    games = VectorGames(GAME, 1, 4)
    _, observations, masks = games.reset(seed=3)
    obs, mask = observations[0], masks[0]
    assert mask[agent.act(obs, mask)] and agent.act(obs, mask) == shipped.act(obs, mask)


def test_teacher_opponents_play_the_teacher_and_their_decisions_are_labelled(labelled):
    teacher = imitation.Teacher(GAME.name, seed=0)
    args = (GAME, 4, teacher, None, 1.0, 6, 3)
    obs, masks, best, _ = imitation.collect(*args, seed=5, opponents="teacher")
    assert len(obs) > len(labelled[0])  # every seat's decisions, not only the learner side's
    assert (best <= masks).all() and best.any(axis=1).all()
    # the same games labelled from both sides: every seat's observer index appears
    seats = obs[:, GAME.layout["observer"]].argmax(axis=1)
    assert set(seats.tolist()) == {0, 1, 2, 3}
