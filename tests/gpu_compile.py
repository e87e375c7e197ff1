"""Compile the GPU engine's kernels for CUDA (to PTX) for every game, without a GPU: run by
tests/test_gpu.py (slow) in a subprocess, where numba-cuda and its CUDA 12 compiler libraries
are installed. The simulator tests run the kernels' logic; this checks that the records'
aligned layout and the rules lower for the GPU at all.

    python -m tests.gpu_compile [GAME ...]
"""

import sys
from types import SimpleNamespace

import numpy as np
from numba import cuda
from numba.core import types
from numba.np.numpy_support import from_dtype

import heist_envs
from heist_envs.core.gpu import aligned_dtype, kernels

#: the GPU generation compiled for (no device is asked: there is none)
COMPUTE_CAPABILITY = (8, 0)


def array(dtype, ndim):
    return types.Array(from_dtype(np.dtype(dtype)), ndim, "C")


def compile_game(name):
    game = heist_envs.get_game(name)
    reset, step, first_illegal, random_actions = kernels(game)
    states = array(aligned_dtype(game.state_dtype), 1)
    games_of = {
        "int64": array(np.int64, 1),
        "actors": array(np.int8, 1),
        "obs": array(game.obs_dtype, 2),
        "masks": array(np.int8, 2),
        "rewards": array(np.float32, 2),
        "flags": array(np.bool_, 1),
    }
    g = games_of
    signatures = {
        reset: (states, types.uint64, g["int64"], g["actors"], g["obs"], g["masks"],
                g["rewards"], array(np.bool_, 2)),
        step: (states, g["int64"], g["flags"], types.uint64, g["int64"], g["actors"], g["obs"],
               g["masks"], g["rewards"], g["flags"], g["flags"]),
        first_illegal: (g["int64"], g["flags"], g["masks"], g["int64"]),
        random_actions: (g["masks"], types.int64, g["int64"]),
    }  # fmt: skip
    for kernel, signature in signatures.items():
        ptx, _ = cuda.compile_ptx(kernel.py_func, signature, cc=COMPUTE_CAPABILITY)
        assert ".entry" in ptx, (name, kernel.py_func.__name__)


if __name__ == "__main__":
    # The device functions a kernel calls are compiled for the current device's generation;
    # with no device, name the one compiled for.
    import numba.cuda.dispatcher

    numba.cuda.dispatcher.get_current_device = lambda: SimpleNamespace(
        compute_capability=COMPUTE_CAPABILITY
    )
    cuda.config.CUDA_ENABLE_NRT = True
    for name in sys.argv[1:] or heist_envs.game_names():
        compile_game(name)
        print(name, "compiles")
