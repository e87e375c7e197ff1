"""The GPU engine (vector_games(..., device="cuda")) without a GPU: under numba's CUDA
simulator it plays the CPU engine's games bit for bit (tests/gpu_sim.py, in a subprocess:
the simulator is chosen before numba-cuda loads), and without one it says what is missing."""

import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

import heist_envs
from heist_envs.core.engines import vector_games

ROOT = Path(__file__).resolve().parents[1]
needs_numba_cuda = pytest.mark.skipif(
    importlib.util.find_spec("numba_cuda") is None,
    reason="numba-cuda is not installed (pip install -e '.[gpu]')",
)


def run(args, simulator):
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_ENABLE_CUDASIM"}
    if simulator:
        env["NUMBA_ENABLE_CUDASIM"] = "1"
    return subprocess.run(
        [sys.executable, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=600
    )


@needs_numba_cuda
@pytest.mark.slow  # half a minute under the simulator; CI's slow run (.ci/run) plays it
def test_the_gpu_engine_plays_the_cpu_engines_games_bit_for_bit_under_the_simulator():
    from tests.gpu_sim import CASES

    checks = ["aligned_records", "bad_input", "example"]
    result = run(["-m", "tests.gpu_sim", *CASES, *checks], simulator=True)
    assert result.returncode == 0, result.stderr[-3000:]
    lines = dict(line.split(" ", 1) for line in result.stdout.splitlines())
    assert set(lines) == {*CASES, *checks}
    ended = {case: int(lines[case].split()[-1]) for case in CASES}
    assert ended["art_robbery"] > 0 and ended["thiefs_market"] > 0, ended  # auto-reset ran


def has_cuda_compiler():
    if importlib.util.find_spec("numba_cuda") is None:
        return False
    result = run(["-c", "from numba.cuda.cudadrv import nvvm; nvvm.NVVM()"], simulator=False)
    return result.returncode == 0


@pytest.mark.slow  # compiles every game's kernels for CUDA: minutes on 2 cores
def test_every_games_kernels_compile_for_cuda_with_aligned_records():
    if not has_cuda_compiler():
        pytest.skip("numba-cuda's CUDA compiler (NVVM) is not installed (pip install '.[gpu]')")
    result = run(["-m", "tests.gpu_compile"], simulator=False)
    assert result.returncode == 0, result.stderr[-3000:]
    assert result.stdout.split() == [
        word for name in heist_envs.game_names() for word in (name, "compiles")
    ]


@needs_numba_cuda
def test_without_a_gpu_the_cuda_device_is_refused_naming_what_is_missing():
    code = (
        "import heist_envs\n"
        "from heist_envs.core.errors import DeviceError\n"
        "from heist_envs.core.engines import vector_games\n"
        "try:\n"
        "    vector_games(heist_envs.get_game('art_robbery'), 4, device='cuda')\n"
        "except DeviceError as e:\n"
        "    print(e)\n"
    )
    result = run(["-c", code], simulator=False)
    assert result.returncode == 0, result.stderr[-3000:]
    assert "no CUDA GPU" in result.stdout and "NUMBA_ENABLE_CUDASIM=1" in result.stdout
    assert "heist-envs[gpu]" in result.stdout


@needs_numba_cuda
def test_the_sb3_example_without_a_gpu_exits_with_the_no_device_error():
    result = run(["-m", "experiments.examples.sb3_gpu_engine", "--steps", "16"], simulator=False)
    assert result.returncode == 2 and "no CUDA GPU" in result.stderr, result.stderr[-3000:]


@needs_numba_cuda
def test_the_gpu_benchmark_without_a_gpu_exits_with_the_no_device_error():
    result = run(
        ["-m", "experiments.tools.benchmark", "--device", "cuda", "--quick"], simulator=False
    )
    assert result.returncode == 2 and "no CUDA GPU" in result.stderr, result.stderr[-3000:]


def test_an_unknown_device_is_refused_naming_the_devices():
    with pytest.raises(ValueError, match="device must be one of 'cpu', 'cuda'"):
        vector_games(heist_envs.get_game("art_robbery"), 4, device="tpu")
