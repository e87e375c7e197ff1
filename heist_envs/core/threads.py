"""Thread defaults that degrade gracefully when the cores are shared with other work.

The batched engine's parallel loops (:mod:`heist_envs.core.vector`, from 1024 games up) run on
numba's OpenMP threading layer. By default GNU OpenMP lets a thread that waits at the end of
a parallel loop spin for a while before it sleeps; when another process keeps a core busy,
the spinning threads and the descheduled one hold each other up, and a batch of 1024 games
ran at about 20 thousand steps a second instead of a million (``heist bench --sections
shared`` measures it). ``OMP_WAIT_POLICY=PASSIVE`` makes waiting threads sleep at once, which
costs nothing measurable on idle cores.

The OpenMP runtime reads the variable once, when it loads, so ``import heist_envs`` sets it
(unless it is already set) before any parallel loop runs. Set ``OMP_WAIT_POLICY=ACTIVE`` to
get OpenMP's own default back, ``NUMBA_NUM_THREADS`` to bound the engine's threads.
"""

import os

#: environment variables set at import unless the user has set them
DEFAULTS = {"OMP_WAIT_POLICY": "PASSIVE"}


def apply_defaults(environ=os.environ) -> None:
    for name, value in DEFAULTS.items():
        environ.setdefault(name, value)
