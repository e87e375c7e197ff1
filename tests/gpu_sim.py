"""The GPU engine under numba's CUDA simulator, against the CPU engine: run by tests/test_gpu.py
in a subprocess, since the simulator must be chosen before numba-cuda loads.

    NUMBA_ENABLE_CUDASIM=1 python -m tests.gpu_sim CASE
"""

import sys

import numpy as np

import heist_envs
from heist_envs.core.engines import vector_games
from heist_envs.core.errors import DeviceError, IllegalActionError
from heist_envs.core.vector import VectorGames

#: (game, players, options that end games within a few steps, so auto-reset runs)
CASES = {
    "art_robbery": ("art_robbery", 3, {"max_turns": 4}),
    "how_to_rob_a_bank": ("how_to_rob_a_bank", 4, {}),
    "how_to_rob_a_bank_2p": ("how_to_rob_a_bank", 2, {}),
    "thiefs_market": ("thiefs_market", 3, {"max_rounds": 1}),
    "toits_de_paris": ("toits_de_paris", 3, {}),
}
NUM_ENVS = 3
STEPS = 25


def host(array):
    return array.copy_to_host()


def compare(case):
    """Same seed, same actions: the same records, observations, masks, rewards and flags at
    every step; returns how many games ended (each auto-reset on the device)."""
    name, players, options = CASES[case]
    game = heist_envs.get_game(name)
    cpu = VectorGames(game, NUM_ENVS, players, options)
    gpu = vector_games(game, NUM_ENVS, players, options, device="cuda")
    for want, got in zip(cpu.reset(seed=7), gpu.reset(seed=7), strict=True):
        np.testing.assert_array_equal(want, host(got))
    assert gpu.host_states().tobytes() == cpu.states.tobytes()
    ended = 0
    for k in range(STEPS):
        actions = cpu.random_actions(k)
        np.testing.assert_array_equal(host(gpu.random_actions(k)), actions)
        active = np.arange(NUM_ENVS) != k % 4  # now and then a game sits a step out
        for want, got in zip(cpu.step(actions, active), gpu.step(actions, active), strict=True):
            np.testing.assert_array_equal(want, host(got), err_msg=f"{case} step {k}")
        assert gpu.host_states().tobytes() == cpu.states.tobytes(), f"{case} step {k}"
        ended += int(cpu.terminated.sum() + cpu.truncated.sum())
    return ended


def aligned_records():
    """The device's aligned records hold the same fields as the CPU's packed ones."""
    from heist_envs.core.gpu import aligned_dtype

    for name in heist_envs.game_names():
        game = heist_envs.get_game(name)
        state = game.new_state(None, 5)
        aligned = state.astype(aligned_dtype(game.state_dtype))
        offsets = [f[1] for f in aligned.dtype.fields.values()]
        sizes = [f[0].base.itemsize for f in aligned.dtype.fields.values()]
        assert all(o % s == 0 for o, s in zip(offsets, sizes, strict=True)), name
        assert aligned.astype(game.state_dtype).tobytes() == state.tobytes(), name


def bad_input():
    """Illegal actions are refused before any game moves; device arrays are taken as input;
    a batch larger than the device's free memory is refused naming the limit."""
    game = heist_envs.get_game("art_robbery")
    gpu = vector_games(game, NUM_ENVS, 3, device="cuda")
    _, _, masks = gpu.reset(seed=1)
    before = gpu.host_states().tobytes()
    actions = host(gpu.random_actions(0))
    actions[1] = int(np.flatnonzero(host(masks)[1] == 0)[0])
    try:
        gpu.step(gpu.cuda_array(actions))
    except IllegalActionError as e:
        assert "in game 1" in str(e), e
    else:
        raise AssertionError("an illegal action was taken")
    assert gpu.host_states().tobytes() == before
    try:
        gpu.step(np.zeros(NUM_ENVS, np.float32))
    except ValueError as e:
        assert "integer" in str(e), e
    from numba import cuda

    class Context:
        def get_memory_info(self):
            return 2**20, 2**30  # 1 MiB free of 1 GiB

    cuda.current_context = Context
    try:
        vector_games(game, 4096, 3, device="cuda")
    except DeviceError as e:
        assert "at most" in str(e) and "MiB" in str(e), e
    else:
        raise AssertionError("a batch larger than the free memory was accepted")


def example():
    """The SB3 example trains on the engine (its network on the CPU here)."""
    from experiments.examples.sb3_gpu_engine import train

    rate, share = train("art_robbery", NUM_ENVS, steps=48, network_device="cpu")
    assert rate > 0 and 0 < share < 1, (rate, share)


if __name__ == "__main__":
    for case in sys.argv[1:]:
        if case in ("aligned_records", "bad_input", "example"):
            globals()[case]()
            print(case, "ok")
        else:
            print(case, "ended", compare(case))
