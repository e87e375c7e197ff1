"""The batched engine on a CUDA GPU: ``vector_games(game, num_envs, device="cuda")``
(:func:`heist_envs.core.engines.vector_games`), a :class:`CudaVectorGames`.

One CUDA thread runs one game through :func:`heist_envs.core.vector.build_game_functions`,
which do for one game what the CPU loops do, calling the game's own kernel functions: the
rules and the seeding exist once, and numba-cuda compiles the same ``@njit`` functions for the
GPU. The same seed gives the same games, bit for bit, on either device. What the kernels
need from the GPU compiler:

- numba's runtime on the device (``CUDA_ENABLE_NRT``): the rules write slices
  (``out[:] = 0``) and allocate small scratch arrays, which need it; the runtime allocates
  from the device heap, sized here for the batch.
- aligned records: the CPU's record dtypes are packed (multi-byte fields at odd offsets), which
  the GPU cannot address; the device holds the same fields in the aligned form of the dtype
  (:func:`aligned_dtype`, padding zero) and :meth:`CudaVectorGames.host_states` gives them
  back in the CPU's layout.

Results stay on the device as numba device arrays, which export ``__cuda_array_interface__``:
``torch.as_tensor(games.obs, device="cuda")`` reads them without a copy.

Under numba's CUDA simulator (``NUMBA_ENABLE_CUDASIM=1``, set before numba-cuda loads) the
kernels run as Python on the CPU, each game's functions still compiled: the test suite runs
this module that way on machines without a GPU.
"""

from __future__ import annotations

import importlib.util
import os
from typing import NamedTuple

import numpy as np
from numba.core.errors import NumbaError

from heist_envs.core.errors import DeviceError
from heist_envs.core.playout import random_row_action
from heist_envs.core.vector import VectorGames, game_functions, is_illegal

INSTALL_HINT = (
    "install the GPU extra (pip install 'heist-envs[gpu]': numba-cuda with the CUDA 12 "
    "toolkit) on a machine with an NVIDIA GPU and driver"
)
if importlib.util.find_spec("numba_cuda") is None:
    raise DeviceError(f"device='cuda' needs numba-cuda, which is not installed: {INSTALL_HINT}")
from numba import cuda  # noqa: E402  (numba-cuda provides it)

#: CUDA threads per block (one game each)
THREADS_PER_BLOCK = 128
#: device heap reserved per game for the runtime's scratch arrays (a game holds a few
#: hundred bytes of them at once, at most)
HEAP_BYTES_PER_GAME = 4096
#: device heap a process asks for at its first engine (at most an eighth of the free memory):
#: CUDA fixes the heap's size once a kernel that allocates has run, so a later, larger batch
#: in the same process must fit in what the first one reserved (262,144 games fit in 1 GiB)
FIRST_HEAP_BYTES = 1 << 30

SIMULATOR_HINT = "set NUMBA_ENABLE_CUDASIM=1 before importing numba to run on the slow simulator"


def simulated() -> bool:
    """Whether numba-cuda runs kernels on its CPU simulator."""
    return os.environ.get("NUMBA_ENABLE_CUDASIM", "0") not in ("", "0")


def check_cuda() -> None:
    """A DeviceError unless a GPU (or the simulator) is there; enables numba's runtime on
    the device, which the kernels need."""
    if not cuda.is_available():
        raise DeviceError(
            f"device='cuda': numba-cuda finds no CUDA GPU or driver on this machine; "
            f"{INSTALL_HINT}, or {SIMULATOR_HINT}"
        )
    cuda.config.CUDA_ENABLE_NRT = True


def aligned_dtype(dtype: np.dtype) -> np.dtype:
    """``dtype``'s fields in the same order, each at an offset aligned to its size."""
    return np.dtype(dtype.descr, align=True)


def record_dtype(game) -> np.dtype:
    """The records' dtype on the device: aligned on a GPU. The simulator runs the kernels'
    functions as CPU code, which reads packed records: there they keep the CPU's layout and
    the CPU engine's compiled functions serve both engines (the aligned layout's compilation
    is checked by tests/gpu_compile.py)."""
    return game.state_dtype if simulated() else aligned_dtype(game.state_dtype)


def kernel_callable(fn):
    """``fn`` as a kernel calls it. The simulator runs a kernel as Python and hands it
    wrappers of its arrays, which compiled code cannot take: there the call unwraps them."""
    if not simulated():
        return fn
    from numba.cuda.simulator.cudadrv.devicearray import FakeWithinKernelCUDAArray

    def call(*args):
        return fn(*(a._item._ary if isinstance(a, FakeWithinKernelCUDAArray) else a for a in args))

    return call


class Kernels(NamedTuple):
    """A game's CUDA kernels, each over every game of the batch (one per thread)."""

    #: deal game i anew and clear its rewards and flags
    reset: object
    #: apply game i's action (if active), with auto-reset
    step: object
    #: the smallest index of an active game whose action is illegal, into ``first[0]``
    first_illegal: object
    #: one uniformly random legal action per game
    random_actions: object


def _build_kernels(game):
    reset_game, step_game = map(kernel_callable, game_functions(game))
    illegal = kernel_callable(is_illegal)
    random_action = kernel_callable(random_row_action)

    @cuda.jit
    def reset_kernel(states, base_seed, episodes, actors, obs, masks, rewards, ended):
        i = cuda.grid(1)
        if i < states.shape[0]:
            reset_game(states, i, base_seed, episodes, actors, obs, masks)
            for p in range(rewards.shape[1]):
                rewards[i, p] = 0.0
            ended[0, i] = False
            ended[1, i] = False

    @cuda.jit
    def step_kernel(
        states,
        actions,
        active,
        base_seed,
        episodes,
        actors,
        obs,
        masks,
        rewards,
        terminated,
        truncated,
    ):
        i = cuda.grid(1)
        if i < states.shape[0]:
            step_game(
                states,
                i,
                actions,
                active,
                base_seed,
                episodes,
                actors,
                obs,
                masks,
                rewards,
                terminated,
                truncated,
            )

    @cuda.jit
    def first_illegal_kernel(actions, active, masks, first):
        i = cuda.grid(1)
        if i < actions.shape[0] and illegal(actions, active, masks, i):
            cuda.atomic.min(first, 0, i)

    @cuda.jit
    def random_actions_kernel(masks, seed, out):
        i = cuda.grid(1)
        if i < masks.shape[0]:
            out[i] = random_action(masks, seed, i)

    return Kernels(reset_kernel, step_kernel, first_illegal_kernel, random_actions_kernel)


_KERNELS = {}


def kernels(game) -> Kernels:
    """The game's kernels, built once per process; each compiles on its first launch."""
    if game.name not in _KERNELS:
        _KERNELS[game.name] = _build_kernels(game)
    return _KERNELS[game.name]


class CudaVectorGames(VectorGames):
    """:class:`VectorGames` on a CUDA GPU (``vector_games(..., device="cuda")``).

    The arrays (``states``, ``actors``, ``obs``, ``masks``, ``rewards``, ``terminated``,
    ``truncated``) are numba device arrays, reused between calls; ``actions`` and ``active``
    may be host arrays or device arrays (anything with ``__cuda_array_interface__``, such as
    a CUDA torch tensor). Each step checks every action on the device and reads back one
    number: an illegal action raises before any game moves.
    """

    device = "cuda"

    def __init__(self, game, num_envs, num_players=None, options=None):
        check_cuda()
        super().__init__(game, num_envs, num_players, options)
        threads = min(self.num_envs, THREADS_PER_BLOCK)
        self.grid = (-(-self.num_envs // threads), threads)
        self.terminated, self.truncated = self.ended[0], self.ended[1]

    def buffers(self, template) -> dict:
        """The CPU engine's arrays on the device (once checked to fit), with the flags in one
        array ``ended`` (terminated, truncated: the reset kernel clears both) and ``first``,
        where the step's check writes the first illegal game."""
        host = super().buffers(template)
        del host["terminated"], host["truncated"]
        host["ended"] = np.zeros((2, self.num_envs), np.bool_)
        host["first"] = np.zeros(1, np.int64)
        heap = self.num_envs * HEAP_BYTES_PER_GAME
        self.check_memory(sum(a.nbytes for a in host.values()) + heap)
        self.reserve_heap(heap)
        return {name: cuda.to_device(values) for name, values in host.items()}

    def new_states(self, template) -> np.ndarray:
        """The records in the device's layout (:func:`record_dtype`)."""
        states = np.zeros(self.num_envs, record_dtype(self.game))
        states[:] = template.astype(states.dtype)[0]
        return states

    def check_memory(self, needed: int) -> None:
        """A DeviceError unless the GPU has ``needed`` bytes free."""
        free, total = cuda.current_context().get_memory_info()
        if needed > free:
            per_game = needed / self.num_envs
            raise DeviceError(
                f"{self.game.name}: {self.num_envs} games need {needed / 2**20:.0f} MiB of GPU "
                f"memory ({per_game:.0f} bytes a game), but {free / 2**20:.0f} MiB of "
                f"{total / 2**20:.0f} MiB are free: at most {int(free // per_game)} games fit"
            )

    def reserve_heap(self, nbytes: int) -> None:
        """Let the device heap, from which the runtime allocates, hold ``nbytes`` (and, while
        it still can grow, FIRST_HEAP_BYTES for the engines this process makes later)."""
        if simulated():
            return
        from cuda.bindings import driver

        free, _ = cuda.current_context().get_memory_info()  # the context the limit applies to
        limit = driver.CUlimit.CU_LIMIT_MALLOC_HEAP_SIZE
        err, current = driver.cuCtxGetLimit(limit)
        wanted = max(nbytes, min(FIRST_HEAP_BYTES, free // 8))
        if err == driver.CUresult.CUDA_SUCCESS and current < wanted:
            (err,) = driver.cuCtxSetLimit(limit, wanted)
            if err != driver.CUresult.CUDA_SUCCESS and current >= nbytes:
                return  # fixed by kernels already run, but large enough
        if err != driver.CUresult.CUDA_SUCCESS:
            raise DeviceError(
                f"{self.game.name}: {self.num_envs} games need {nbytes} bytes of device heap, "
                f"but this process's kernels have fixed it at {current} bytes ({err.name}): "
                "make the largest VectorGames of a process first"
            )

    def launch(self, kernel, *args):
        """Run ``kernel`` over every game; a game whose functions do not compile for CUDA
        gets a DeviceError saying so."""
        try:
            kernel[self.grid](*args)
        except NumbaError as e:
            first_line = str(e).strip().splitlines()[0]
            raise DeviceError(
                f"{self.game.name}: the game's kernel functions do not compile for CUDA "
                f"({first_line})"
            ) from e

    def reset(self, seed=None):
        """Deal every game anew, seeded as :meth:`VectorGames.reset` seeds them."""
        self.base_seed = np.uint64(self.seeds.next(seed))
        self.launch(
            kernels(self.game).reset,
            self.states,
            self.base_seed,
            self.episodes,
            self.actors,
            self.obs,
            self.masks,
            self.rewards,
            self.ended,
        )
        return self.actors, self.obs, self.masks

    def step(self, actions, active=None):
        """Apply one action per game, as :meth:`VectorGames.step`; the results are device
        arrays."""
        active = self.all_games if active is None else self.check_active(active)
        actions = self.check_actions(actions, active)
        self.launch(kernels(self.game).step, *self.step_arguments(actions, active))
        return self.actors, self.obs, self.masks, self.rewards, self.terminated, self.truncated

    def random_actions(self, seed):
        """One uniformly random legal action per game, on the device; the same actions as
        :meth:`VectorGames.random_actions` with the same seed and masks."""
        self.launch(kernels(self.game).random_actions, self.masks, np.int64(seed), self.actions)
        return self.actions

    def cuda_array(self, values):
        """A host array copied to the device."""
        return cuda.to_device(np.ascontiguousarray(values))

    def device_array(self, values, what, dtype_ok):
        """``values`` (host or device) as a device array of shape (num_envs,), or a
        ValueError saying what ``what`` must be."""
        on_device = hasattr(values, "__cuda_array_interface__")
        array = cuda.as_cuda_array(values) if on_device else np.asarray(values)
        if array.shape != (self.num_envs,) or not dtype_ok(np.dtype(array.dtype)):
            raise ValueError(
                f"{what} of shape ({self.num_envs},), got {array.dtype} of shape {array.shape}"
            )
        return array if on_device else self.cuda_array(array)

    def check_active(self, active):
        if hasattr(active, "__cuda_array_interface__"):
            return self.device_array(active, "active must be bools", lambda d: d == np.bool_)
        return self.cuda_array(super().check_active(active))

    def check_actions(self, actions, active):
        """The actions as a device array, or an error naming the first bad game and action
        (checked on the device; no game has moved)."""
        actions = self.device_array(
            actions, "actions must be an integer array", lambda d: d.kind in "iu"
        )
        self.first.copy_to_device(np.array([self.num_envs], np.int64))
        self.launch(kernels(self.game).first_illegal, actions, active, self.masks, self.first)
        i = int(self.first.copy_to_host()[0])
        if i < self.num_envs:
            mask = self.masks[i].copy_to_host()
            actor = int(self.actors.copy_to_host()[i])
            self.raise_illegal(int(actions[i : i + 1].copy_to_host()[0]), i, actor, mask)
        return actions

    def host_states(self) -> np.ndarray:
        """The records, copied to the host in the CPU's (packed) layout."""
        return self.states.copy_to_host().astype(self.game.state_dtype)
