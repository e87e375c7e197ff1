"""agents.how_to_rob_a_bank.phases: one side's setup and planning by one agent, its robbing by
another."""

import numpy as np
import pytest

from agents.arena import play
from agents.how_to_rob_a_bank.phases import PhaseSplit, main, side_win_rate
from agents.profiles import make_heuristic
from heist_envs.how_to_rob_a_bank.state import PLAN, ROB


class PhaseRecorder:
    """Plays the first legal action and records the phase of every decision it takes."""

    wants_info_set = True

    def __init__(self):
        self.phases = []

    def act(self, observation, action_mask, info_set):
        self.phases.append(int(info_set.kernel_state()[0]["phase"]))
        return int(np.flatnonzero(action_mask)[0])


def test_the_rob_phase_goes_to_one_agent_and_every_other_decision_to_the_other():
    plan, rob = PhaseRecorder(), PhaseRecorder()
    robbers = [PhaseSplit(plan, rob) for _ in range(3)]
    play(
        "how_to_rob_a_bank",
        [make_heuristic("how_to_rob_a_bank", 0), *robbers],
        num_players=4,
        seed=5,
    )
    assert set(rob.phases) == {ROB}
    assert PLAN in plan.phases and ROB not in plan.phases


class FirstLegal:
    """Plays the first legal action and records each one it chose."""

    def __init__(self):
        self.chosen = []

    def act(self, observation, action_mask):
        self.chosen.append(int(np.flatnonzero(action_mask)[0]))
        return self.chosen[-1]


class Played(PhaseSplit):
    """A PhaseSplit that records, per decision, its phase, the legal count and its move, in
    ``moves`` (shared by the team, in the order of play)."""

    def __init__(self, moves, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.moves = moves

    def act(self, observation, action_mask, info_set):
        action = super().act(observation, action_mask, info_set)
        phase = int(info_set.kernel_state()[0]["phase"])
        self.moves.append((phase, int(action_mask.sum()), action))
        return action


@pytest.mark.parametrize("noise", [0.0, 1.0])
def test_plan_noise_changes_each_planning_choice_with_its_probability_and_never_a_rob(noise):
    plan, rob = FirstLegal(), FirstLegal()
    moves = []
    robbers = [Played(moves, plan, rob, plan_noise=noise, seed=seat) for seat in range(3)]
    play(
        "how_to_rob_a_bank",
        [make_heuristic("how_to_rob_a_bank", 0), *robbers],
        num_players=4,
        seed=5,
    )
    planned = iter(plan.chosen)
    robbed = iter(rob.chosen)
    choices = 0
    for phase, legal, action in moves:
        if phase == ROB:
            assert action == next(robbed)
            continue
        wanted = next(planned)
        choices += legal > 1
        assert action == wanted if noise == 0 or legal == 1 else action != wanted
    assert choices > 0


def test_the_same_seed_plays_the_same_games_and_the_heuristic_pair_is_the_heuristic():
    first = side_win_rate("heuristic", "heuristic", "robbers", 6, seed=1000)
    assert first == side_win_rate("heuristic", "heuristic", "robbers", 6, seed=1000)
    assert first[1] == 6 and 0 <= first[0] <= 6
    # a bank that never acts well loses more than the heuristic's bank does
    heuristic_bank, _ = side_win_rate("heuristic", "heuristic", "bank", 20, seed=1000)
    random_bank, _ = side_win_rate("random", "random", "bank", 20, seed=1000)
    assert random_bank < heuristic_bank
    noisy = side_win_rate("heuristic", "heuristic", "robbers", 6, 1000, plan_noise=0.5)
    assert noisy == side_win_rate("heuristic", "heuristic", "robbers", 6, 1000, plan_noise=0.5)


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--plan", "nope"], "unknown agent 'nope'"),
        (["--players", "5"], "num_players=5 is out of range; allowed: 2 to 4"),
        (["--games", "0"], "--games must be at least 1"),
        (["--plan-noise", "1.5"], "--plan-noise must be between 0 and 1, got 1.5"),
    ],
)
def test_bad_arguments_get_one_clear_line(argv, message, capsys):
    with pytest.raises(SystemExit):
        main(argv)
    assert message in capsys.readouterr().err
