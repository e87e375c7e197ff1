"""The self-play games (:class:`heist_envs.core.single_agent.SelfPlayGames`) as an SB3
``VecEnv``: the one module of heist_envs.core that needs stable-baselines3 (the SB3 example
on the GPU engine, experiments/examples/sb3_gpu_engine.py, uses :class:`BatchedVecEnv`)."""

try:
    from stable_baselines3.common.vec_env import VecEnv
except ModuleNotFoundError as e:
    raise ModuleNotFoundError(
        f"SelfPlayVecEnv needs stable-baselines3 ({e}): pip install 'heist-envs[train]'",
        name=e.name,
    ) from e

from heist_envs.core.single_agent import SelfPlayGames


class BatchedVecEnv(VecEnv):
    """An SB3 ``VecEnv`` whose games live in one object (a batched engine): SB3's per-env
    calls are answered for every game at once, and ``action_masks()`` serves
    sb3-contrib's MaskablePPO."""

    render_mode = None

    def close(self):
        pass

    def get_attr(self, attr_name, indices=None):
        return [getattr(self, attr_name)] * len(self._get_indices(indices))

    def set_attr(self, attr_name, value, indices=None):
        setattr(self, attr_name, value)

    def env_method(self, method_name, *args, indices=None, **kwargs):
        idx = list(self._get_indices(indices))
        if method_name == "action_masks":
            return list(self.action_masks()[idx])
        result = getattr(self, method_name)(*args, **kwargs)
        return [result] * len(idx)

    def env_is_wrapped(self, wrapper_class, indices=None):
        return [False] * len(self._get_indices(indices))


class SelfPlayVecEnv(SelfPlayGames, BatchedVecEnv):
    """``num_envs`` games, each with one learning seat, as an SB3 ``VecEnv``; the arguments
    are :class:`SelfPlayGames`'s. ``VecEnv.seed(s)`` then ``reset()`` reseeds as
    :meth:`SelfPlayGames.reseed` does; the last observation of a game that ended comes as
    ``infos[i]["terminal_observation"]``."""

    def __init__(self, *args, **kwargs):
        SelfPlayGames.__init__(self, *args, **kwargs)
        BatchedVecEnv.__init__(self, self.num_envs, self.observation_space, self.action_space)
        self._actions = None

    def reset(self):
        if self._seeds[0] is not None:
            self.reseed(self._seeds[0])
            self._reset_seeds()
        return SelfPlayGames.reset(self)

    def step_async(self, actions):
        self._actions = actions

    def step_wait(self):
        return SelfPlayGames.step(self, self._actions)
