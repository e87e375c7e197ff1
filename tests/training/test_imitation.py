"""DAgger imitation of the heuristic (experiments.train.imitation) on tiny budgets."""

import json

import numpy as np
import pytest

pytest.importorskip("sb3_contrib")

import torch  # noqa: E402

import heist_envs  # noqa: E402
from agents.base import InfoSet  # noqa: E402
from agents.compiled import best_actions  # noqa: E402
from agents.how_to_rob_a_bank.rollout import PRIOR_ALONE_PHASES  # noqa: E402
from agents.how_to_rob_a_bank.training import teacher_scores as action_scores  # noqa: E402
from agents.ppo import PPOAgent, export_policy, masked_logits  # noqa: E402
from agents.profiles import make_heuristic  # noqa: E402
from experiments.train import imitation  # noqa: E402
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


def test_soft_loss_is_the_cross_entropy_of_the_visit_shares():
    logits = torch.tensor([[2.0, 0.0, -torch.inf], [1.0, 1.0, 1.0]])
    shares = torch.tensor([[0.75, 0.25, 0.0], [0.5, 0.0, 0.5]])
    log_p = [np.log([np.exp(2) / (np.exp(2) + 1), 1 / (np.exp(2) + 1)]), np.log([1 / 3])]
    expected = [-(0.75 * log_p[0][0] + 0.25 * log_p[0][1]), -log_p[1][0]]
    loss = imitation.imitation_loss(logits, shares)
    assert float(loss) == pytest.approx(np.mean(expected), rel=1e-5)


def test_student_reproduces_the_teacher_on_its_data(labelled):
    obs, masks, best, _ = labelled
    data = imitation.Dataset(GAME)
    data.extend(obs[:300], masks[:300], best[:300])
    torch.manual_seed(0)
    model = imitation.build_model(GAME, 4, [64, 64], seed=0)
    _, _, before = imitation.fit(model.policy, data, epochs=1, lr=0)
    _, loss, accuracy = imitation.fit(model.policy, data, epochs=60, batch_size=64, lr=3e-3)
    assert accuracy > 0.97 > before
    with torch.no_grad():
        logits = masked_logits(
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
    assert info["teacher"] == "heuristic" and info["eval_opponents"] == "heuristic"
    assert info["win_rate"]["games"] == 6
    assert (tmp_path / "learning_curve.png").stat().st_size > 0
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


def a_decision_with_choices(seed):
    """The observation, mask and information set of a bank decision with 3+ legal moves."""
    games = VectorGames(GAME, 1, 4)
    games.reset(seed=seed)
    while games.masks[0].sum() < 3:
        games.step(np.array([np.flatnonzero(games.masks[0])[0]]))
    info_set = InfoSet(GAME, games.states[0:1].copy(), int(games.actors[0]))
    return games.obs[0].copy(), games.masks[0].copy(), info_set


def test_a_search_teacher_labels_its_most_visited_moves():
    teacher = imitation.Teacher(GAME.name, "ismcts:simulations=40", seed=3)
    twin = imitation.Teacher(GAME.name, "ismcts:simulations=40", seed=3)
    obs, mask, info_set = a_decision_with_choices(8)
    best = teacher.best(obs, mask, info_set)
    legal = np.flatnonzero(mask)
    counts = twin.agent.visit_counts(legal, info_set)
    assert counts.sum() >= 39 and counts.max() < counts.sum()  # a real ranking, not one move
    assert set(np.flatnonzero(best)) == set(legal[counts == counts.max()])


def test_a_soft_search_teacher_labels_the_share_of_its_root_visits():
    teacher = imitation.Teacher(GAME.name, "ismcts:simulations=40", seed=3, soft=True)
    twin = imitation.Teacher(GAME.name, "ismcts:simulations=40", seed=3)
    obs, mask, info_set = a_decision_with_choices(8)
    shares = teacher.best(obs, mask, info_set)
    legal = np.flatnonzero(mask)
    counts = twin.agent.visit_counts(legal, info_set)
    assert shares.dtype == np.float32 and shares.sum() == pytest.approx(1.0)
    np.testing.assert_allclose(shares[legal], counts / counts.sum(), rtol=1e-6)
    assert (shares[mask == 0] == 0).all() and 0 < shares.max() < 1
    # the learner plays one of the most visited moves, and a run keeps the shares
    data = imitation.collect(GAME, 4, teacher, None, 1.0, 1, 1, seed=2, opponents="heuristic")
    assert data[2].dtype == np.float32 and len(data[2]) > 5
    np.testing.assert_allclose(data[2].sum(axis=1), 1.0, rtol=1e-5)
    with pytest.raises(ValueError, match="soft labels need a search teacher"):
        imitation.Teacher(GAME.name, "heuristic", soft=True)


def robbers_decisions(seed, rob_decisions=6):
    """Observations, masks and information sets of a robber's decisions with a choice, from a
    4-player game the heuristic plays, up to ``rob_decisions`` of the Rob phase."""
    label = best_actions(GAME.name)
    games = VectorGames(GAME, 1, 4)
    games.reset(seed=seed)
    obs, masks, info_sets, robbing = [], [], [], 0
    while robbing < rob_decisions:
        mask = games.masks[0]
        info_set = InfoSet(GAME, games.states[0:1].copy(), int(games.actors[0]))
        if games.actors[0] > 0 and mask.sum() > 1:
            obs.append(games.obs[0].copy())
            masks.append(mask.copy())
            info_sets.append(info_set)
            robbing += info_set.kernel_state()[0]["phase"] not in PRIOR_ALONE_PHASES
        best = label(games.obs[:1], games.masks[:1].astype(np.bool_))[0]
        games.step(np.array([np.flatnonzero(best)[0]]))
    return np.array(obs), np.array(masks), info_sets


def test_heuristic_alone_labels_planning_by_the_heuristic_and_robbing_by_the_search():
    obs, masks, info_sets = robbers_decisions(seed=4)
    teacher = imitation.Teacher(GAME.name, "ismcts:simulations=20", 3, 4, heuristic_alone=True)
    search = imitation.Teacher(GAME.name, "ismcts:simulations=20", 3, 4)
    best = teacher.best_rows(obs, masks, info_sets.__getitem__)
    heuristic = best_actions(GAME.name)(obs, masks.astype(np.bool_))
    planning = np.array([s.kernel_state()[0]["phase"] in PRIOR_ALONE_PHASES for s in info_sets])
    assert planning.sum() > 10 and (~planning).sum() == 6
    assert np.array_equal(best[planning], heuristic[planning])
    # the search labels the Rob phase alone, its random state moving as if it had searched
    # nothing else: the same labels as a plain search teacher asked the same decisions
    searched = [search.best(obs[k], masks[k], info_sets[k]) for k in np.flatnonzero(~planning)]
    assert np.array_equal(best[~planning], np.array(searched))
    assert teacher.agent.simulations_run == 6 * 20
    assert not np.array_equal(best[~planning], heuristic[~planning])
    # soft labels: an equal share to each of the heuristic's best moves, visit shares elsewhere
    soft = imitation.Teacher(GAME.name, "ismcts:simulations=20", 3, 4, True, True)
    shares = soft.best_rows(obs, masks, info_sets.__getitem__)
    assert shares.dtype == np.float32 and (shares >= 0).all()
    np.testing.assert_allclose(shares.sum(axis=1), 1.0, rtol=1e-6)
    ties = heuristic[planning].sum(axis=1, keepdims=True)
    np.testing.assert_allclose(shares[planning], heuristic[planning] / ties, rtol=1e-6)
    robbing = shares[~planning]  # the same searches: their most visited moves are the labels
    assert np.array_equal(robbing == robbing.max(axis=1, keepdims=True), best[~planning])
    assert (robbing < 1).any()  # visit shares, not one move


def test_heuristic_opponents_play_unlabelled():
    teacher = imitation.Teacher(GAME.name, seed=0)
    args = (GAME, 4, teacher, None, 1.0, 4, 2)
    learner_only = imitation.collect(*args, seed=5, opponents="heuristic")
    every_seat = imitation.collect(*args, seed=5, opponents="teacher")
    # the robbers' side is three seats: labelling only the learner side's decisions leaves
    # about half of what labelling every seat gives in the same kind of games
    assert 0 < len(learner_only[0]) < 0.75 * len(every_seat[0])
    assert sum(len(v) for v in learner_only[3].values()) == 4


def test_a_collecting_share_does_not_depend_on_the_shares_its_process_ran_before():
    # the pool hands shares to whichever worker is free, so a share's data must follow from
    # its own seed alone, whatever its process labelled before
    kwargs = {"num_players": 4, "games": 2, "num_envs": 2, "opponents": "heuristic"}
    share = (GAME.name, "ismcts:simulations=10", {}, 5, kwargs)
    first = imitation._collect_share(*share)
    imitation._collect_share(GAME.name, "ismcts:simulations=10", {}, 9, kwargs)
    again = imitation._collect_share(*share)
    assert len(first[0]) > 10
    for part, repeat in zip(first[:3], again[:3], strict=True):
        assert np.array_equal(part, repeat)


def test_a_search_teacher_run_with_two_collecting_workers(tmp_path):
    # compile the search here, so that the forked workers inherit it
    imitation.Teacher(GAME.name, "ismcts:simulations=10").best(*a_decision_with_choices(1))
    args = ["--game", "how_to_rob_a_bank", "--teacher", "ismcts:simulations=10"]
    args += ["--opponents", "heuristic", "--iterations", "2", "--games-per-iteration", "2"]
    args += ["--workers", "2", "--num-envs", "1", "--epochs", "1", "--eval-games", "2"]
    args += ["--net-arch", "16", "--eval-opponents", "random", "--out", str(tmp_path / "a")]
    imitation.main(args)
    info = json.loads((tmp_path / "a" / "final.json").read_text())
    assert info["teacher"] == "ismcts:simulations=10" and info["workers"] == 2
    assert info["soft_labels"] is False
    assert info["win_rate"]["games"] == 2 and info["decisions"] > 20
    rows = (tmp_path / "a" / "dagger.csv").read_text().splitlines()
    assert len(rows) == 3
    # a warm start takes the checkpoint's architecture; soft labels train it too
    init = ["--init", str(tmp_path / "a" / "final.zip"), "--soft-labels"]
    imitation.main(args[:-1] + [str(tmp_path / "b"), *init])
    again = json.loads((tmp_path / "b" / "final.json").read_text())
    assert again["net_arch"] == info["net_arch"] == {"pi": [16], "vf": [16]}
    assert again["soft_labels"] is True and again["decisions"] > 20
    fits = [row.split(",") for row in (tmp_path / "b" / "dagger.csv").read_text().splitlines()]
    assert all(0 <= float(row[7]) <= 1 for row in fits[1:])  # accuracy against the most visited


@pytest.mark.parametrize(
    "extra, message",
    [
        (["--teacher", "oracle"], "unknown agent 'oracle'"),
        (["--teacher", "ismcts:budget=3"], "unknown ISMCTS setting(s) budget"),
        (["--eval-opponents", "heuristic,nobody"], "unknown agent 'nobody'"),
        (["--workers", "0"], "--workers must be at least 1, got 0"),
        (["--soft-labels"], "soft labels need a search teacher (ismcts:...), not 'heuristic'"),
        (["--heuristic-alone"], "and a search teacher (ismcts:...), not 'heuristic'"),
        (["--init", "agents/policies/thiefs_market.zip"], "is a thiefs_market policy, not a"),
        (["--init", "no/such.zip"], "--init no/such.zip"),
        (["--batch-size", "0"], "--batch-size must be at least 1, got 0"),
        (["--lr", "-1"], "--lr must be above 0 and at most 1 (Adam's step size, e.g. 3e-4)"),
        (["--lr", "5"], "--lr must be above 0 and at most 1"),
        (["--iterations", "0"], "--iterations must be at least 1, got 0"),
        (["--games-per-iteration", "-1"], "--games-per-iteration must be at least 1, got -1"),
        (["--epochs", "0"], "--epochs must be at least 1, got 0"),
        (["--eval-games", "0"], "--eval-games must be at least 1, got 0"),
        (["--num-envs", "0"], "--num-envs must be at least 1, got 0"),
        (["--beta", "2"], "--beta must be between 0 and 1, got 2"),
        (["--net-arch", "0,x"], "--net-arch takes hidden layer sizes of 1 or more like 512,512"),
        (["--players", "9"], "num_players=9 is out of range; allowed: 2 to 4"),
        (
            ["--eval-opponents", "ppo:path=agents/policies/thiefs_market.zip"],
            "was trained for thiefs_market with 4 players, not how_to_rob_a_bank with 4",
        ),
    ],
)
def test_bad_arguments_get_one_clear_line(extra, message, tmp_path, capsys):
    out = tmp_path / "run"
    with pytest.raises(SystemExit) as exit_info:
        imitation.main(["--game", "how_to_rob_a_bank", "--out", str(out), *extra])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and message in err and "Traceback" not in err
    assert not out.exists()


def test_the_compiled_labels_are_the_python_heuristics(labelled):
    obs, masks, best, _ = labelled
    python_labels = np.zeros_like(best)
    for k, (o, m) in enumerate(zip(obs, masks, strict=True)):
        legal, scores = action_scores(o, m)
        python_labels[k, legal[scores >= scores.max() - imitation.TIE]] = True
    assert np.array_equal(python_labels, best)
    assert np.array_equal(best_actions(GAME.name)(obs, masks), best)
    assert imitation.Teacher(GAME.name).compiled is not None
    assert imitation.Teacher(GAME.name, "random").compiled is None


def test_a_side_alone_is_played_labelled_and_scored(tmp_path):
    teacher = imitation.Teacher(GAME.name, seed=0)
    obs, masks, best, outcomes = imitation.collect(
        GAME, 4, teacher, None, 1.0, 4, 2, seed=5, opponents="heuristic", sides=[1]
    )
    seats = obs[:, GAME.layout["observer"]].argmax(axis=1)
    assert len(obs) > 50 and (seats > 0).all()  # robbers' decisions only
    assert list(outcomes) == [1] and len(outcomes[1]) == 4
    args = ["--game", "how_to_rob_a_bank", "--side", "robbers", "--opponents", "heuristic"]
    args += ["--iterations", "1", "--games-per-iteration", "4", "--epochs", "1"]
    args += ["--eval-games", "4", "--num-envs", "2", "--net-arch", "16", "--out", str(tmp_path)]
    imitation.main(args)
    info = json.loads((tmp_path / "final.json").read_text())
    assert info["side"] == "robbers"
    assert list(info["win_rate"]["by_side"]) == ["robber_yellow+robber_red+robber_green"]


def test_an_unknown_side_is_refused_with_the_sides_the_game_has(capsys):
    with pytest.raises(SystemExit):
        imitation.parse_args(["--game", "how_to_rob_a_bank", "--side", "vault"])
    assert "bank, robbers" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        imitation.parse_args(["--game", "art_robbery", "--side", "bank"])
    assert "every seat plays the same role" in capsys.readouterr().err


def test_heuristic_alone_needs_a_game_that_names_its_policy_phases(capsys):
    with pytest.raises(SystemExit):
        imitation.parse_args(
            ["--game", "art_robbery", "--teacher", "ismcts:simulations=5", "--heuristic-alone"]
        )
    err = capsys.readouterr().err
    assert "--heuristic-alone: art_robbery names no phases (PRIOR_ALONE_PHASES)" in err


def test_a_move_the_search_never_tried_gets_no_share():
    obs, masks, info_sets = robbers_decisions(seed=4)
    k = next(k for k in range(len(obs)) if masks[k].sum() >= 10)
    teacher = imitation.Teacher(GAME.name, "ismcts:simulations=3", seed=3, soft=True)
    twin = imitation.Teacher(GAME.name, "ismcts:simulations=3", seed=3)
    shares = teacher.best(obs[k], masks[k], info_sets[k])
    legal = np.flatnonzero(masks[k])
    counts = twin.agent.visit_counts(legal, info_sets[k], obs[k])
    assert (counts == -1).any()  # three simulations leave most of the moves untried
    assert (shares[legal[counts == -1]] == 0).all() and (shares >= 0).all()
    np.testing.assert_allclose(
        shares[legal[counts > 0]], counts[counts > 0] / counts.sum(where=counts > 0), rtol=1e-6
    )
