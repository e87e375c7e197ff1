"""The batched engine on the device asked for: ``vector_games(game, num_envs, device="cuda")``.

The CPU engine is :class:`heist_envs.core.vector.VectorGames`; the GPU engine,
:class:`heist_envs.core.gpu.CudaVectorGames`, is imported only when asked for (it needs
numba-cuda). Both play the same games from the same seed.
"""

from heist_envs.core.game import Game
from heist_envs.core.vector import VectorGames

#: where the batched engine runs: "cuda" is :mod:`heist_envs.core.gpu` (numba-cuda)
DEVICES = ("cpu", "cuda")


def check_device(device) -> str:
    """``device`` if it is one the batched engine runs on, or a ValueError naming them."""
    if device not in DEVICES:
        raise ValueError(
            f"device must be one of {', '.join(map(repr, DEVICES))}, got {device!r:.80}"
        )
    return device


def vector_games(
    game: Game, num_envs: int, num_players=None, options=None, device="cpu"
) -> VectorGames:
    """``num_envs`` games of ``game`` stepped together on ``device`` ("cpu" or "cuda")."""
    if check_device(device) == "cuda":
        from heist_envs.core.gpu import CudaVectorGames

        return CudaVectorGames(game, num_envs, num_players, options)
    return VectorGames(game, num_envs, num_players, options)
