"""Les Toits de Paris's heuristic weights: the heuristic (from the observation) and the
rollout's policy that a tuning run plays (from the state) play the same table, a tuning run
learns one, and bad weights are refused."""

import json

import numpy as np
import pytest

import heist_envs
from agents.profiles import make_heuristic
from agents.registry import make_agent
from agents.toits_de_paris import rollout as tdp
from agents.toits_de_paris.compiled import TUNED_WEIGHTS, WEIGHT_NAMES, WEIGHTS, params
from experiments.train import weights as tune_heuristic
from heist_envs.core.game import RUNNING
from heist_envs.toits_de_paris.actions import CONTINUE, NUM_ACTIONS, STOP
from heist_envs.toits_de_paris.state import THEFT

GAME = heist_envs.get_game("toits_de_paris")
OTHER_WEIGHTS = {**WEIGHTS, "card_potential": 1.2, "reserve_draw": 2.0, "others_on_stop": 0.5}


def heuristic(seed=0, weights=None):
    return make_heuristic("toits_de_paris", seed, weights)


def _agreement(weights, num_players, games):
    """Share of decisions where the rollout's policy (from the state) plays a move that the
    heuristic (from the observation) values best too, over games the rollout's policy plays."""
    agent = heuristic(weights=weights)
    array = params(weights)
    same = total = 0
    mask = np.zeros(NUM_ACTIONS, np.int8)
    obs = np.zeros(GAME.obs_size, np.float32)
    for k in range(games):
        state = GAME.new_state(num_players, seed=k)
        s = GAME.kernel_view(state)[0]
        while s["status"] == RUNNING:
            GAME.legal_mask(s, mask)
            GAME.observe(s, s["actor"], obs)
            compiled = tdp.policy_action(s, mask, array)
            legal, values = agent.scores(obs, mask)
            same += np.isclose(values[legal == compiled][0], values.max())
            total += 1
            GAME.apply(s, compiled)
    return same / total


@pytest.mark.parametrize("weights", [WEIGHTS, OTHER_WEIGHTS], ids=["hand-set", "other"])
def test_the_agent_and_the_compiled_policy_play_the_same_weights(weights):
    # the tuning run scores weights with the rollout's policy; the heuristic must play them alike
    # (where two moves are worth the same, each breaks the tie its own way)
    assert _agreement(weights, 4, 6) > 0.99
    assert _agreement(weights, 3, 4) > 0.99


def _theft_decisions(num_players, games):
    """(state view, mask, observation) at each theft decision where the leader may reveal on,
    in games the rollout's policy plays."""
    mask = np.zeros(NUM_ACTIONS, np.int8)
    for k in range(games):
        state = GAME.new_state(num_players, seed=k)
        s = GAME.kernel_view(state)[0]
        while s["status"] == RUNNING:
            GAME.legal_mask(s, mask)
            if s["phase"] == THEFT and mask[CONTINUE]:
                obs = np.zeros(GAME.obs_size, np.float32)
                GAME.observe(s, s["actor"], obs)
                yield s, mask.copy(), obs
            GAME.apply(s, tdp.policy_action(s, mask, tdp.WEIGHTS))


def test_the_leader_stops_whenever_revealing_on_is_no_better():
    # it used to flip a coin there: stopping and revealing on both scored 0
    level = 0
    for _, mask, obs in _theft_decisions(4, 30):
        legal, values = heuristic().scores(obs, mask)
        if values[legal == CONTINUE][0] <= 0:
            level += 1
            assert {heuristic(k).act(obs, mask) for k in range(16)} == {STOP}
    assert level > 0


def test_weights_move_the_line_between_revealing_on_and_stopping():
    s, mask, obs = next(_theft_decisions(4, 1))
    assert s["n"] == 1  # one card down, the inspector far: the hand-set heuristic reveals on
    assert heuristic().act(obs, mask) == CONTINUE
    assert tdp.policy_action(s, mask, tdp.WEIGHTS) == CONTINUE
    cautious = {"continue_margin": 5.0}
    assert heuristic(weights=cautious).act(obs, mask) == STOP
    assert tdp.policy_action(s, mask, params(cautious)) == STOP


def test_a_short_tuning_run_writes_weights_that_the_agent_plays(tmp_path):
    out, curve = tmp_path / "tuned.json", tmp_path / "curve.png"
    argv = ["--generations", "2", "--population", "4", "--games", "30", "--eval-games", "40"]
    argv += ["--counts", "4", "3", "--out", str(out), "--curve", str(curve)]
    tune_heuristic.main(argv)
    record = json.loads(out.read_text())
    assert list(record["weights"]) == list(WEIGHTS)
    assert record["weights"] != WEIGHTS  # the search moved
    assert [point["generation"] for point in record["curve"]] == [1, 2]
    assert all(len(point["share"]) == 2 for point in record["curve"])
    assert record["command"].startswith("python -m experiments.train.weights --generations 2")
    assert curve.stat().st_size > 0
    agent = make_agent("heuristic", "toits_de_paris", seed=0, weights=str(out))
    assert agent.params.tolist() == [record["weights"][name] for name in WEIGHT_NAMES]
    # a second run plays against the first one's table (self-play, one table at a time)
    again = tmp_path / "again.json"
    argv_again = [*argv[:-4], "--opponents", str(out), "--out", str(again), "--curve", str(curve)]
    tune_heuristic.main(argv_again)
    second = json.loads(again.read_text())
    assert second["opponents"] == {"name": str(out), "weights": record["weights"]}
    assert second["weights"] != record["weights"]


def test_the_shipped_weights_load_by_name_and_were_learned_at_every_count():
    record = json.loads(TUNED_WEIGHTS.read_text())
    agent = make_heuristic("toits_de_paris", seed=0, weights="tuned")
    assert record["weights"] != WEIGHTS
    assert agent.params.tolist() == [record["weights"][name] for name in WEIGHT_NAMES]
    assert sorted(record["counts"]) == [2, 3, 4]  # count-general: every count of the game
    assert record["opponents"] == {"name": "hand-set", "weights": WEIGHTS}
    assert all(share > 1 for share in record["curve"][-1]["share"])


def test_bad_weights_are_refused_with_what_is_allowed(tmp_path):
    with pytest.raises(ValueError, match="unknown heuristic weight.*card_potential"):
        heuristic(weights={"bogus": 1.0})
    with pytest.raises(ValueError, match="has no weights to replace.*toits_de_paris"):
        make_heuristic("art_robbery", weights="tuned")
    truncated = tmp_path / "cut.json"
    truncated.write_text('{"weights": {"card_pot')
    with pytest.raises(ValueError, match="cannot read heuristic weights.*weights=tuned"):
        make_heuristic("toits_de_paris", weights=str(truncated))
    with pytest.raises(SystemExit):
        tune_heuristic.main(["--counts", "6"])
    with pytest.raises(SystemExit):
        tune_heuristic.main(["--opponents", str(truncated)])


def test_the_arena_seating_gives_the_candidate_the_seats_of_one_of_two_arena_agents():
    assert tune_heuristic.candidate_seats(GAME, "arena", 4) == [[0, 2], [1, 3]]  # A B A B, B A B A
    three = tune_heuristic.candidate_seats(GAME, "arena", 3)
    assert sorted(len(seats) for seats in three) == [1, 1, 1, 2, 2, 2]  # A B A and B A B
    assert sorted(seat for seats in three for seat in seats) == [0, 0, 0, 1, 1, 1, 2, 2, 2]
    assert tune_heuristic.candidate_seats(GAME, "one", 3) == [[0], [1], [2]]


def test_a_tuning_run_at_the_arena_seating_scores_the_candidate_per_seat_held(tmp_path):
    heuristic = tune_heuristic.WeightedHeuristic("toits_de_paris")
    hand_set = heuristic.vector(WEIGHTS)
    tuned = heuristic.vector(json.loads(TUNED_WEIGHTS.read_text())["weights"])
    # the tuned table beats the hand-set one at the arena's table, two seats each
    assert tune_heuristic.relative_share(heuristic, tuned, hand_set, 4, 2000, 0, "arena") > 1.03
    assert tune_heuristic.relative_share(heuristic, hand_set, tuned, 4, 2000, 0, "arena") < 0.97
    out = tmp_path / "tuned.json"
    argv = ["--generations", "1", "--population", "4", "--games", "20", "--eval-games", "20"]
    argv += ["--counts", "4", "--seating", "arena", "--out", str(out)]
    tune_heuristic.main([*argv, "--curve", str(tmp_path / "curve.png")])
    assert json.loads(out.read_text())["seating"] == "arena"
