"""A base install (``pip install heist-envs``, no extras) makes and steps the Gymnasium env:
run by .ci/run in a fresh venv outside the checkout, and by tests/test_base_install.py with
the training extras blocked.

    python .ci/base_install.py [GYMNASIUM_ID ...]   (default: heist/ArtRobbery-v0)
"""

import sys

import gymnasium
import numpy as np

import heist_envs  # noqa: F401  (registers the envs)

for env_id in sys.argv[1:] or ["heist/ArtRobbery-v0"]:
    env = gymnasium.make(env_id)
    obs, info = env.reset(seed=0)
    env.step(int(np.flatnonzero(info["action_mask"])[0]))
    print(env_id, "steps")
